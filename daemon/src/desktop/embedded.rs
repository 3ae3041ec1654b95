//! Brings up, or adopts, the desktop the daemon drives: an X display, a session D-Bus, the
//! AT-SPI accessibility bus and (when embedded) a window manager.
//!
//! Runs on a blocking thread while the daemon already answers (`desktop/slot.rs`). The daemon
//! process's own environment is left alone: the returned environment goes to every child
//! through the supervisor, and the backends are handed their display and buses explicitly.

mod a11y;
mod bus;
mod dirs;
#[cfg(test)]
mod tests;
mod xserver;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::process::{ProcessError, Supervisor};
use dirs::RunDirs;

const POLL: Duration = Duration::from_millis(50);
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
const LOG_TAIL: usize = 1500;

/// Switches that make GTK, Qt and Chromium-hosted toolkits talk to the AT-SPI bus.
const A11Y_SWITCHES: [(&str, &str); 5] = [
    ("NO_AT_BRIDGE", "0"),
    ("GTK_MODULES", "gail:atk-bridge"),
    ("GNOME_ACCESSIBILITY", "1"),
    ("QT_ACCESSIBILITY", "1"),
    ("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1"),
];

/// What `--desktop` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DesktopMode {
    /// Use `$DISPLAY` if an X server answers there, else start an embedded one.
    Auto,
    /// Start Xvfb, a session bus, the AT-SPI bus and openbox, all private to this daemon.
    Embedded,
    /// Use the X server at `$DISPLAY`; fail if none answers.
    Existing,
}

/// What was actually used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DesktopKind {
    Embedded,
    Existing,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ScreenSize {
    pub width: u16,
    pub height: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Readiness {
    Ready,
    Down,
}

/// The desktop backend's health, as reported by `session.hello` and `/healthz`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DesktopStatus {
    pub status: Readiness,
    pub display: String,
    pub screen: ScreenSize,
    pub accessibility_bus: bool,
    pub mode: DesktopKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DesktopError {
    #[error("no usable X display: {reason}; {remedy}")]
    NoDisplay { reason: String, remedy: &'static str },
    #[error(
        "no free X display in :{first}..:{last}; stop stale Xvfb servers or remove /tmp/.X<n>-lock"
    )]
    NoFreeDisplay { first: u32, last: u32 },
    #[error("{what} exited during start-up ({status}); log {log}:\n{tail}")]
    Exited { what: &'static str, status: String, log: PathBuf, tail: String },
    #[error("{what} was not ready within {timeout:?}; log {log}:\n{tail}")]
    NotReady { what: &'static str, timeout: Duration, log: PathBuf, tail: String },
    #[error("the {0} was not started by this daemon; restart it where it was started")]
    NotOurs(&'static str),
    #[error("cannot prepare directory {path}: {source}")]
    Dir { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Process(#[from] ProcessError),
    #[error("the desktop's start-up was stopped: {0}")]
    StartAborted(String),
}

impl DesktopError {
    fn exited(what: &'static str, log: &str, status: String, sup: &Supervisor) -> Self {
        Self::Exited { what, status, log: sup.log_path(log), tail: sup.log_tail(log, LOG_TAIL) }
    }

    fn not_ready(what: &'static str, timeout: Duration, log: &str, sup: &Supervisor) -> Self {
        Self::NotReady { what, timeout, log: sup.log_path(log), tail: sup.log_tail(log, LOG_TAIL) }
    }
}

/// A running desktop. Dropping it does not stop anything; call [`DesktopEnv::stop`].
#[derive(Debug)]
pub struct DesktopEnv {
    kind: DesktopKind,
    display: String,
    screen: ScreenSize,
    env: Vec<(String, String)>,
    /// The AT-SPI bus: its address and, when we launched it, the launcher's pid (it may be
    /// stopped and started again, see `embedded/a11y.rs`).
    a11y: Mutex<a11y::A11yBus>,
    /// Whether we launched the a11y bus (and so own its D-Bus-activated registry daemon).
    owns_a11y_bus: bool,
    runtime_dir: Option<PathBuf>,
    started: Vec<u32>,
    supervisor: Supervisor,
    /// The last probe and when it ran: `status()` is on every hello, status and health call,
    /// and a probe costs an X connection and a bus round trip.
    last_status: Mutex<Option<(Instant, DesktopStatus)>>,
}

/// How long a probed status is reused.
const STATUS_FRESH: Duration = Duration::from_secs(1);

/// Starts or adopts a desktop according to `mode`; children log under `<state_dir>/logs`.
pub fn start(
    mode: DesktopMode,
    state_dir: &Path,
    supervisor: &Supervisor,
) -> Result<DesktopEnv, DesktopError> {
    match mode {
        DesktopMode::Embedded => start_embedded(state_dir, supervisor),
        DesktopMode::Existing => adopt_existing(state_dir, supervisor, existing_display()?),
        DesktopMode::Auto => match existing_display() {
            Ok(found) => adopt_existing(state_dir, supervisor, found),
            Err(err) => {
                tracing::info!(%err, "no existing display; starting an embedded desktop");
                start_embedded(state_dir, supervisor)
            }
        },
    }
}

impl DesktopEnv {
    pub fn kind(&self) -> DesktopKind {
        self.kind
    }

    /// The X display name, e.g. `:90`.
    pub fn display(&self) -> &str {
        &self.display
    }

    pub fn screen(&self) -> ScreenSize {
        self.screen
    }

    /// The Xauthority file of an embedded display (clients present its cookie).
    pub fn xauthority(&self) -> Option<&str> {
        self.env.iter().find(|(k, _)| k == "XAUTHORITY").map(|(_, v)| v.as_str())
    }

    /// Variables for the daemon process and every child (DISPLAY, XAUTHORITY, D-Bus, XDG
    /// dirs, a11y).
    pub fn env(&self) -> &[(String, String)] {
        &self.env
    }

    /// The AT-SPI bus address, when one is known.
    pub fn a11y_bus(&self) -> Option<String> {
        self.a11y.lock().ok()?.address.clone()
    }

    /// Pids of the processes this desktop started, oldest first (the X server, when embedded).
    pub fn started_pids(&self) -> &[u32] {
        &self.started
    }

    /// Live check: the X server answers and the a11y bus socket accepts connections.
    pub fn status(&self) -> DesktopStatus {
        if let Ok(last) = self.last_status.lock() {
            if let Some((_, status)) = last.as_ref().filter(|(at, _)| at.elapsed() < STATUS_FRESH) {
                return status.clone();
            }
        }
        let status = self.probe();
        if let Ok(mut last) = self.last_status.lock() {
            *last = Some((Instant::now(), status.clone()));
        }
        status
    }

    fn probe(&self) -> DesktopStatus {
        let accessibility_bus = self.a11y_bus().is_some_and(|a| bus::socket_answers(&a));
        let (status, screen, reason) = match xserver::probe(&self.display, PROBE_TIMEOUT) {
            Ok(screen) if accessibility_bus => (Readiness::Ready, screen, None),
            Ok(screen) => (Readiness::Ready, screen, Some("accessibility bus unavailable".into())),
            Err(reason) => (Readiness::Down, self.screen, Some(reason)),
        };
        let display = self.display.clone();
        DesktopStatus { status, display, screen, accessibility_bus, mode: self.kind, reason }
    }

    /// The next `status()` probes afresh.
    fn forget_status(&self) {
        if let Ok(mut last) = self.last_status.lock() {
            *last = None;
        }
    }

    /// Stops every supervised child, newest first (apps and browsers before the X server and
    /// buses they use), then the D-Bus-activated AT-SPI registry daemon if we own its bus.
    pub fn stop(&self) {
        self.forget_status();
        let registry = match (self.a11y_bus(), self.owns_a11y_bus) {
            (Some(a11y), true) => bus::registry_pid(&self.supervisor, &a11y),
            _ => None,
        };
        self.supervisor.stop_all();
        if let Some(pid) = registry {
            if let Err(err) = self.supervisor.stop_pid(pid) {
                tracing::warn!(pid, %err, "stopping at-spi2-registryd failed");
            }
        }
        if let Some(dir) = &self.runtime_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
        // The cookie of a display that is gone opens nothing; it goes with it.
        if let (DesktopKind::Embedded, Some(xauth)) = (self.kind, self.xauthority()) {
            let _ = std::fs::remove_file(xauth);
        }
    }
}

/// Stops what a failed start-up already started, newest first.
struct StartGuard<'a> {
    sup: &'a Supervisor,
    pids: Vec<u32>,
}

impl StartGuard<'_> {
    fn finish(mut self) -> Vec<u32> {
        std::mem::take(&mut self.pids)
    }
}

impl Drop for StartGuard<'_> {
    fn drop(&mut self) {
        for pid in self.pids.iter().rev() {
            let _ = self.sup.stop_pid(*pid);
        }
    }
}

fn start_embedded(state_dir: &Path, sup: &Supervisor) -> Result<DesktopEnv, DesktopError> {
    let mut guard = StartGuard { sup, pids: Vec::new() };
    // A desktop user of its own keeps its dirs and cookie in its desktop dir, out of the
    // state dir it may not read; its session bus lets the daemon in.
    let user = sup.desktop_user();
    let root = user.as_ref().map_or_else(|| state_dir.to_owned(), |u| u.dir().to_owned());
    let owner = user.as_ref().map(|u| (u.id.uid, u.id.gid));
    let bus_config = user.as_ref().map(|u| u.bus_config());
    let x = xserver::start_xvfb(sup, &root, owner)?;
    guard.pids.push(x.pid);
    let dirs = RunDirs::create(&root, &dirs::tag(&x.display), owner)?;
    let mut env = vec![
        ("DISPLAY".to_owned(), x.display.clone()),
        ("XAUTHORITY".to_owned(), x.xauthority.display().to_string()),
    ];
    env.extend(dirs.env());
    env.extend(A11Y_SWITCHES.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));

    let (session, bus_pid) =
        bus::start_session_bus(sup, &dirs.runtime, &env, bus_config.as_deref())?;
    guard.pids.push(bus_pid);
    env.push(("DBUS_SESSION_BUS_ADDRESS".to_owned(), session.clone()));
    let (a11y, launcher_pid) = bus::start_a11y_bus(sup, &session, &env)?;
    guard.pids.push(launcher_pid);

    let wm_pid = sup.spawn("openbox", &["openbox", "--sm-disable"], &env)?;
    guard.pids.push(wm_pid);
    if !xserver::wait_for_wm(sup, wm_pid, &x.display) {
        let log = sup.log_path("openbox");
        tracing::warn!(log = %log.display(), "openbox did not come up; windows stay unmanaged");
    }
    let user = user.map(|u| u.id.name.clone());
    tracing::info!(display = x.display, a11y, user, "embedded desktop ready");
    sup.extend_env(&env);
    Ok(DesktopEnv {
        kind: DesktopKind::Embedded,
        display: x.display,
        screen: x.screen,
        env,
        a11y: Mutex::new(a11y::A11yBus { address: Some(a11y), launcher: Some(launcher_pid) }),
        owns_a11y_bus: true,
        runtime_dir: Some(dirs.runtime),
        started: guard.finish(),
        supervisor: sup.clone(),
        last_status: Mutex::new(None),
    })
}

/// `$DISPLAY` and its screen size, if an X server answers there.
fn existing_display() -> Result<(String, ScreenSize), DesktopError> {
    const REMEDY: &str = "start an X server and export DISPLAY, or use --desktop embedded";
    let display = std::env::var("DISPLAY").unwrap_or_default();
    if display.is_empty() {
        return Err(DesktopError::NoDisplay {
            reason: "DISPLAY is not set".into(),
            remedy: REMEDY,
        });
    }
    match xserver::probe(&display, PROBE_TIMEOUT) {
        Ok(screen) => Ok((display, screen)),
        Err(reason) => Err(DesktopError::NoDisplay { reason, remedy: REMEDY }),
    }
}

/// Uses the given display; uses the session bus from the environment if it answers, else starts
/// a private session bus and AT-SPI bus (in a private runtime dir, so as not to clash with any
/// launcher already serving this display).
fn adopt_existing(
    state_dir: &Path,
    sup: &Supervisor,
    (display_name, screen): (String, ScreenSize),
) -> Result<DesktopEnv, DesktopError> {
    let mut env = vec![("DISPLAY".to_owned(), display_name.clone())];
    env.extend(A11Y_SWITCHES.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
    let inherited = std::env::var("DBUS_SESSION_BUS_ADDRESS").ok().filter(|a| bus::ping(sup, a));
    let mut guard = StartGuard { sup, pids: Vec::new() };
    let (a11y, launcher, runtime_dir) = match inherited {
        Some(session) => {
            env.push(("DBUS_SESSION_BUS_ADDRESS".to_owned(), session.clone()));
            let a11y = bus::a11y_address(sup, &session);
            if a11y.is_none() {
                tracing::warn!(
                    "the session bus offers no AT-SPI bus; accessibility is unavailable"
                );
            }
            (a11y, None, None)
        }
        None => {
            let dirs = RunDirs::runtime_only(state_dir, &dirs::tag(&display_name))?;
            env.extend(dirs.env());
            let (session, bus_pid) = bus::start_session_bus(sup, &dirs.runtime, &env, None)?;
            guard.pids.push(bus_pid);
            env.push(("DBUS_SESSION_BUS_ADDRESS".to_owned(), session.clone()));
            let (a11y, launcher_pid) = bus::start_a11y_bus(sup, &session, &env)?;
            guard.pids.push(launcher_pid);
            (Some(a11y), Some(launcher_pid), Some(dirs.runtime))
        }
    };
    tracing::info!(display_name, a11y, "using existing display");
    sup.extend_env(&env);
    Ok(DesktopEnv {
        kind: DesktopKind::Existing,
        display: display_name,
        screen,
        env,
        a11y: Mutex::new(a11y::A11yBus { address: a11y, launcher }),
        owns_a11y_bus: launcher.is_some(),
        runtime_dir,
        started: guard.finish(),
        supervisor: sup.clone(),
        last_status: Mutex::new(None),
    })
}
