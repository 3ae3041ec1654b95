//! X server plumbing: probing a display with x11rb, picking a free display number, running Xvfb.

use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt as _};

use super::{DesktopError, ScreenSize, POLL};
use crate::desktop::xauth;
use crate::process::{is_alive, Supervisor};

/// Display numbers tried for an embedded server; high enough to stay clear of real desktops.
pub(super) const FIRST_DISPLAY: u32 = 90;
pub(super) const LAST_DISPLAY: u32 = 189;
/// Start attempts that may be lost to other servers racing for the same number.
const MAX_RACES: u32 = 8;
const XVFB_READY: Duration = Duration::from_secs(20);
const WM_READY: Duration = Duration::from_secs(10);
const SCREEN: &str = "1280x800x24";

pub(super) struct Xvfb {
    pub(super) display: String,
    pub(super) pid: u32,
    pub(super) screen: ScreenSize,
    /// The Xauthority file with the display's cookie.
    pub(super) xauthority: PathBuf,
}

/// Connects to `display` and reads the first screen's size; gives up after `timeout` (a hung
/// server would otherwise block the connection handshake forever).
pub(super) fn probe(display: &str, timeout: Duration) -> Result<ScreenSize, String> {
    let (tx, rx) = mpsc::channel();
    let name = display.to_owned();
    thread::spawn(move || {
        let _ = tx.send(connect_and_measure(&name));
    });
    rx.recv_timeout(timeout)
        .unwrap_or_else(|_| Err(format!("X server on {display} did not answer within {timeout:?}")))
}

fn connect_and_measure(display: &str) -> Result<ScreenSize, String> {
    let (conn, screen_num) = xauth::connect(display).map_err(|e| e.to_string())?;
    let screen = conn.setup().roots.get(screen_num).ok_or("X server reports no screens")?;
    Ok(ScreenSize { width: screen.width_in_pixels, height: screen.height_in_pixels })
}

/// Starts `Xvfb` on a free display number, with a fresh cookie in `state_dir` that clients
/// must present, and waits until it answers.
///
/// Racing servers are sorted out by Xvfb's own lock file, but a lost race costs Xvfb ~2 s of
/// retrying: starts within this process take turns, and each process scans from its own offset.
pub(super) fn start_xvfb(
    sup: &Supervisor,
    state_dir: &Path,
    owner: super::dirs::Owner,
) -> Result<Xvfb, DesktopError> {
    static TURN: Mutex<()> = Mutex::new(());
    let _turn = TURN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let span = LAST_DISPLAY - FIRST_DISPLAY + 1;
    let offset = std::process::id() % span;
    let mut races = 0;
    for number in (0..span).map(|i| FIRST_DISPLAY + (offset + i) % span) {
        if !is_free(number) {
            continue;
        }
        match try_start(sup, state_dir, number, owner)? {
            Some(xvfb) => return Ok(xvfb),
            None if races < MAX_RACES => races += 1,
            None => break,
        }
    }
    Err(DesktopError::NoFreeDisplay { first: FIRST_DISPLAY, last: LAST_DISPLAY })
}

/// `Ok(None)` when another server took `number` first.
fn try_start(
    sup: &Supervisor,
    state_dir: &Path,
    number: u32,
    owner: super::dirs::Owner,
) -> Result<Option<Xvfb>, DesktopError> {
    let display = format!(":{number}");
    let xauthority = std::path::absolute(xauth::path(state_dir, number))
        .map_err(|source| DesktopError::Dir { path: state_dir.to_owned(), source })?;
    // The X server and its clients run as the desktop's user when there is one: the cookie
    // is theirs to read (its dir is root's, so the name cannot be swapped meanwhile).
    let give = |()| match owner {
        Some((uid, gid)) => std::os::unix::fs::lchown(&xauthority, Some(uid), Some(gid)),
        None => Ok(()),
    };
    let cookie = xauth::new_cookie()
        .and_then(|c| xauth::write(&xauthority, number, &c).and_then(give).map(|()| c))
        .map_err(|source| DesktopError::Dir { path: xauthority.clone(), source })?;
    xauth::remember(&display, cookie);
    let auth = xauthority.display().to_string();
    // -noreset: without it the server resets (dropping properties and selections) whenever its
    // last client disconnects, e.g. between two probes. -auth: only clients with the cookie.
    let argv =
        ["Xvfb", &display, "-screen", "0", SCREEN, "-nolisten", "tcp", "-noreset", "-auth", &auth];
    let pid = sup.spawn("xvfb", &argv, &[])?;
    let deadline = Instant::now() + XVFB_READY;
    loop {
        if let Some(status) = sup.exit_status(pid) {
            let _ = sup.stop_pid(pid);
            if lock_owner(number).is_some_and(|owner| owner != pid && is_alive(owner)) {
                tracing::debug!(number, "display taken by another server; trying the next");
                return Ok(None);
            }
            return Err(DesktopError::exited("Xvfb", "xvfb", status.to_string(), sup));
        }
        // The lock check makes sure the server that answers is ours, not a racing one.
        if lock_owner(number) == Some(pid) {
            if let Ok(screen) = probe(&display, Duration::from_secs(1)) {
                return Ok(Some(Xvfb { display, pid, screen, xauthority }));
            }
        }
        if Instant::now() >= deadline {
            let err = DesktopError::not_ready("Xvfb", XVFB_READY, "xvfb", sup);
            let _ = sup.stop_pid(pid);
            return Err(err);
        }
        thread::sleep(POLL);
    }
}

fn lock_path(number: u32) -> PathBuf {
    PathBuf::from(format!("/tmp/.X{number}-lock"))
}

fn socket_path(number: u32) -> PathBuf {
    PathBuf::from(format!("/tmp/.X11-unix/X{number}"))
}

/// The pid written into the display's lock file (Xvfb writes it atomically, padded).
fn lock_owner(number: u32) -> Option<u32> {
    std::fs::read_to_string(lock_path(number)).ok()?.trim().parse().ok()
}

/// Free = no lock and no socket. A lock whose owner is dead (Xvfb killed with SIGKILL keeps
/// both files) is stale: it and its socket are removed, and the number counts as free.
fn is_free(number: u32) -> bool {
    let lock = lock_path(number);
    if lock.exists() {
        match lock_owner(number) {
            Some(owner) if !is_alive(owner) => {
                tracing::info!(number, owner, "removing stale X lock");
                let _ = std::fs::remove_file(&lock);
                let _ = std::fs::remove_file(socket_path(number));
            }
            _ => return false,
        }
    }
    !socket_path(number).exists()
}

/// Waits until a window manager announces itself (`_NET_SUPPORTING_WM_CHECK` on the root
/// window). Returns false if it does not within the deadline; the desktop still works then.
pub(super) fn wait_for_wm(sup: &Supervisor, wm_pid: u32, display: &str) -> bool {
    let deadline = Instant::now() + WM_READY;
    while Instant::now() < deadline {
        if sup.exit_status(wm_pid).is_some() {
            return false;
        }
        if wm_announced(display).unwrap_or(false) {
            return true;
        }
        thread::sleep(POLL);
    }
    false
}

fn wm_announced(display: &str) -> Result<bool, Box<dyn std::error::Error>> {
    let (conn, screen_num) = xauth::connect(display)?;
    let root = conn.setup().roots.get(screen_num).ok_or("no screen")?.root;
    let atom = conn.intern_atom(true, b"_NET_SUPPORTING_WM_CHECK")?.reply()?.atom;
    if atom == 0 {
        return Ok(false);
    }
    let reply = conn.get_property(false, root, atom, AtomEnum::WINDOW, 0, 1)?.reply()?;
    Ok(reply.value_len > 0)
}
