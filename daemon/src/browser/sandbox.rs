//! Whether the default Chromium keeps its own sandbox: it does wherever the kernel lets its
//! user make a user namespace (Chromium's namespace sandbox; Debian ships no setuid helper),
//! and starts with `--no-sandbox` only where it cannot: as root, with unprivileged user
//! namespaces off, or under a seccomp or AppArmor policy that refuses them (a container
//! runtime's default seccomp profile does). The check runs `unshare` as the browser's user
//! once; a sandboxed Chromium that dies saying its sandbox failed turns it off too.
//!
//! The reasons are plain words (no paths, numbers or colons): `/readyz` shows them unsigned.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{launch, lock, pipe, BrowserError, Browsers};
use crate::process::Supervisor;

/// How long the `unshare` check may take.
const PROBE: Duration = Duration::from_secs(5);
/// How long a first sandboxed start gets to show its sandboxed zygote.
const FIRST_START: Duration = Duration::from_secs(15);
const POLL: Duration = Duration::from_millis(50);

/// What the backend knows: the decision, and whether a sandboxed start was seen to work.
#[derive(Debug, Default)]
pub(super) struct State {
    decided: Option<Sandbox>,
    confirmed: bool,
}

/// Chromium's sandbox, on or off, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    pub on: bool,
    pub reason: String,
}

impl Sandbox {
    fn off(reason: &str) -> Self {
        Sandbox { on: false, reason: reason.to_owned() }
    }

    fn on(reason: &str) -> Self {
        Sandbox { on: true, reason: reason.to_owned() }
    }

    /// A sandboxed Chromium died saying its sandbox could not start.
    pub fn failed_at_start() -> Self {
        Sandbox::off("Chromium could not set up its sandbox here, so it runs with no-sandbox")
    }

    /// Says it in the log, once per decision.
    pub fn log(&self) {
        if self.on {
            tracing::info!(reason = self.reason, "Chromium runs with its sandbox");
        } else {
            tracing::warn!(
                reason = self.reason,
                "Chromium runs without its sandbox (--no-sandbox)"
            );
        }
    }
}

/// Decides for the browser `sup` would start (as the desktop's user, or as the daemon).
pub fn probe(sup: &Supervisor) -> Sandbox {
    if sup.desktop_uid() == 0 {
        return Sandbox::off(
            "Chromium would run as root, where its sandbox does not start; run gloveboxd as a \
             user, or as root with a desktop user that is not root",
        );
    }
    let sysctl = |name: &str| std::fs::read_to_string(name).ok().map(|v| v.trim().to_owned());
    if sysctl("/proc/sys/kernel/unprivileged_userns_clone").as_deref() == Some("0")
        || sysctl("/proc/sys/user/max_user_namespaces").as_deref() == Some("0")
    {
        return Sandbox::off("the kernel gives unprivileged users no user namespaces");
    }
    // What Chromium's namespace sandbox makes: a user namespace with PID and network ones.
    let argv = ["unshare", "--user", "--pid", "--net", "--fork", "true"];
    match sup.run_as_desktop("sandbox-check", &argv, PROBE) {
        Ok(out) if out.status.success() => {
            Sandbox::on("user namespaces work for the browser's user, so Chromium sandboxes")
        }
        Ok(out) => {
            let why = String::from_utf8_lossy(&out.stderr);
            tracing::info!(why = %why.trim(), "unshare --user failed as the browser's user");
            Sandbox::off(
                "user namespaces are refused here, by a seccomp profile or an AppArmor policy \
                 or the kernel",
            )
        }
        // No unshare to ask: Chromium tells at its start instead.
        Err(e) => {
            tracing::info!(%e, "cannot check user namespaces; Chromium will tell");
            Sandbox::on("Chromium sandboxes unless it says it cannot")
        }
    }
}

impl Browsers {
    /// The decision so far; `None` before the first check.
    pub fn sandbox(&self) -> Option<Sandbox> {
        lock(&self.sandbox).decided.clone()
    }

    /// The decision, checked now when there is none yet (this runs `unshare`: call it off
    /// the async workers).
    pub fn check_sandbox(&self) -> Sandbox {
        match self.sandbox() {
            Some(s) => s,
            None => self.decide(probe(&self.supervisor)),
        }
    }

    fn decide(&self, s: Sandbox) -> Sandbox {
        let mut state = lock(&self.sandbox);
        if state.decided.as_ref() != Some(&s) {
            s.log();
            state.decided = Some(s.clone());
        }
        s
    }

    /// Starts the default Chromium with its sandbox when it may have it. The first sandboxed
    /// start is watched until its sandboxed zygote runs; one that dies saying its sandbox
    /// failed is started again at once with `--no-sandbox`, and stays so.
    pub(super) async fn launch_default(
        &self,
        profile: &Path,
        relay: (Arc<tokio::net::TcpListener>, usize),
    ) -> Result<(u32, pipe::Relay), BrowserError> {
        let sandbox = match self.sandbox() {
            Some(s) => s,
            None => {
                let sup = self.supervisor.clone();
                let probed = tokio::task::spawn_blocking(move || probe(&sup)).await;
                self.decide(probed.unwrap_or_else(|_| Sandbox::failed_at_start()))
            }
        };
        let (pid, piped) = self.start_default(profile, &relay, sandbox.on).await?;
        if !sandbox.on || lock(&self.sandbox).confirmed {
            return Ok((pid, piped));
        }
        if sandboxed_start(&self.supervisor, pid).await {
            lock(&self.sandbox).confirmed = true;
            return Ok((pid, piped));
        }
        if !log_says_failed(&last_start(&self.supervisor.log_tail("chromium", 8000))) {
            return Ok((pid, piped)); // it died of something else, which the next call says
        }
        drop(piped);
        let _ = self.supervisor.stop_pid(pid);
        self.decide(Sandbox::failed_at_start());
        self.start_default(profile, &relay, false).await
    }

    async fn start_default(
        &self,
        profile: &Path,
        (listener, limit): &(Arc<tokio::net::TcpListener>, usize),
        sandbox: bool,
    ) -> Result<(u32, pipe::Relay), BrowserError> {
        let program = (self.program.as_str(), sandbox);
        let relay = (listener.clone(), *limit);
        let egress = self.egress().await?;
        launch::start_piped(&self.supervisor, program, profile, &self.env, relay, egress).await
    }
}

/// Waits for the browser `pid` to run a sandboxed zygote (`true`) or to exit (`false`); past
/// the deadline it is taken to have started.
async fn sandboxed_start(sup: &Supervisor, pid: u32) -> bool {
    let deadline = Instant::now() + FIRST_START;
    while Instant::now() < deadline {
        if !sup.is_running(pid) {
            return false;
        }
        if has_sandboxed_zygote(pid) {
            return true;
        }
        tokio::time::sleep(POLL).await;
    }
    true
}

/// Whether a child of `pid` is Chromium's sandboxed zygote (the unsandboxed one says
/// `--no-zygote-sandbox`), which it starts only once its sandbox works.
fn has_sandboxed_zygote(pid: u32) -> bool {
    let Ok(rd) = std::fs::read_dir("/proc") else { return false };
    rd.flatten().any(|e| {
        let child = e.path();
        let Ok(stat) = std::fs::read_to_string(child.join("stat")) else { return false };
        let ppid = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1));
        if ppid != Some(pid.to_string().as_str()) {
            return false;
        }
        // Chromium rewrites its helpers' command lines as one string with spaces.
        let cmdline = std::fs::read(child.join("cmdline")).unwrap_or_default();
        let args: Vec<&[u8]> = cmdline.split(|b| *b == 0 || *b == b' ').collect();
        args.contains(&&b"--type=zygote"[..]) && !args.contains(&&b"--no-zygote-sandbox"[..])
    })
}

/// The part of a child's log written since its last start (the supervisor heads each with
/// `=== ... start:`).
fn last_start(log: &str) -> String {
    log.rsplit_once("=== ").map_or(log, |(_, last)| last).to_owned()
}

/// Whether a Chromium log says the sandbox stopped it.
pub fn log_says_failed(log_tail: &str) -> bool {
    let lower = log_tail.to_ascii_lowercase();
    lower.contains("no usable sandbox")
        || (lower.contains("sandbox")
            && (lower.contains("fatal") || lower.contains("check failed")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sandbox_failure_is_read_from_the_log() {
        let fatal =
            "[1:1:FATAL:zygote_host_impl_linux.cc(127)] No usable sandbox! Update your kernel";
        assert!(log_says_failed(fatal));
        assert!(!log_says_failed("[1:1:ERROR:bus.cc] Failed to connect to the bus"));
    }

    #[test]
    fn reasons_name_no_internals() {
        // `/readyz` drops a reason with digits, slashes or colons.
        for s in [Sandbox::failed_at_start(), Sandbox::off("x"), Sandbox::on("y")] {
            assert!(
                !s.reason.contains(['/', ':']) && !s.reason.chars().any(|c| c.is_ascii_digit())
            );
        }
        let root = Supervisor::new(&std::env::temp_dir().join("glovebox-sandbox-probe"));
        let decided = probe(&root);
        assert!(!decided.reason.contains(['/', ':']), "{decided:?}");
    }
}
