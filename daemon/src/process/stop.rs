//! Stopping a process: SIGTERM to its group, [`STOP_GRACE`], then SIGKILL; one the daemon did
//! not start (a D-Bus-activated service) by its pid alone.

use std::process::{Child, ExitStatus};
use std::thread;
use std::time::Instant;

// `nix` (feature "signal" only) is the safe wrapper around kill(2)/killpg(2): std can send
// nothing but SIGKILL and only to its own children, the workspace forbids `unsafe` (so no raw
// libc), and running kill(1) for every signal would be an unsupervised spawn of its own.
use nix::errno::Errno;
use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;

use super::{ProcessError, Supervised, POLL, STOP_GRACE};

/// Polls until the child exits (`Some`) or the deadline passes (`None`).
pub(super) fn wait_until(
    child: &mut Child,
    name: &str,
    deadline: Instant,
) -> Result<Option<ExitStatus>, ProcessError> {
    loop {
        let polled = child.try_wait();
        let polled = polled.map_err(|source| ProcessError::Wait {
            name: name.to_owned(),
            pid: child.id(),
            source,
        })?;
        if let Some(status) = polled {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            return Ok(None);
        }
        thread::sleep(POLL);
    }
}

pub(super) fn stop_child(mut entry: Supervised) -> Result<(), ProcessError> {
    let pid = entry.child.id();
    if matches!(entry.child.try_wait(), Ok(Some(_))) {
        signal_group(pid, Signal::SIGKILL); // leftover helpers of an exited leader
        return Ok(());
    }
    signal_group(pid, Signal::SIGTERM);
    let exited = wait_until(&mut entry.child, &entry.name, Instant::now() + STOP_GRACE)?;
    signal_group(pid, Signal::SIGKILL);
    if exited.is_none() {
        tracing::warn!(name = entry.name, pid, "child ignored SIGTERM; killed");
        let _ = entry.child.kill();
        entry.child.wait().map_err(|source| ProcessError::Wait {
            name: entry.name,
            pid,
            source,
        })?;
    }
    Ok(())
}

pub(super) fn stop_foreign(pid: u32) -> Result<(), ProcessError> {
    let target = to_pid(pid);
    match kill(target, Signal::SIGTERM) {
        Err(Errno::ESRCH) => return Ok(()),
        Err(source) => return Err(ProcessError::Signal { pid, source }),
        Ok(()) => {}
    }
    let deadline = Instant::now() + STOP_GRACE;
    while Instant::now() < deadline {
        if !is_alive(pid) {
            return Ok(());
        }
        thread::sleep(POLL);
    }
    match kill(target, Signal::SIGKILL) {
        Ok(()) | Err(Errno::ESRCH) => Ok(()),
        Err(source) => Err(ProcessError::Signal { pid, source }),
    }
}

/// Whether a process exists and is not a zombie (a zombie has exited; its parent reaps it).
pub fn is_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state letter follows the parenthesised command name, which may contain spaces.
        Ok(stat) => {
            stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
        }
        Err(_) => false,
    }
}

pub(super) fn signal_group(pid: u32, signal: Signal) {
    // ESRCH (group already gone) is the normal case for the final SIGKILL sweep.
    let _ = killpg(to_pid(pid), signal);
}

pub(super) fn to_pid(pid: u32) -> Pid {
    Pid::from_raw(i32::try_from(pid).unwrap_or(i32::MAX))
}
