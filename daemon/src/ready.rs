//! Readiness (`GET /readyz`): whether this daemon can take work now, check by check.
//!
//! Ready when it is not draining; its desktop is up (the X server answers, the backend is
//! connected); the accessibility bus answers and the backend holds a live connection to it;
//! and the default browser runs or can start (`browser/ready.rs`: its program is an
//! executable, nothing is launched to find out). The desktop's probe is kept for a second and
//! the browser's for a few, so a probe every second costs next to nothing.
//!
//! Two lines never fail: `desktop_isolation` says how the desktop is kept out of the state
//! dir (`user`: a uid of its own; `landlock`: confined, `process/confine.rs`; `none`), and
//! `browser_sandbox` whether the default Chromium has its own sandbox and why
//! (`browser/sandbox.rs`, decided once).

use crate::error::DESKTOP_STARTING as STARTING;
use crate::state::Daemon;

/// One check and, when it fails, why.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub name: &'static str,
    pub failure: Option<String>,
    /// What the check says besides passing (fields beside `ok`).
    pub note: Option<serde_json::Map<String, serde_json::Value>>,
}

impl Check {
    pub fn new(name: &'static str, failure: Option<String>) -> Check {
        Check { name, failure, note: None }
    }
}

/// Every check, in the order a failure is reported. Blocking: run it off the async workers.
pub fn checks(daemon: &Daemon) -> Vec<Check> {
    let check = Check::new;
    let daemon_check = daemon.ops.is_closed().then(|| "the daemon is shutting down".to_owned());
    let (desktop, a11y) = desktop(daemon);
    let browser = match &daemon.config.browser {
        Some(b) => b.can_start().err(),
        None => Some("this daemon has no browser backend".into()),
    };
    let mut all = vec![
        check("daemon", daemon_check),
        check("desktop", desktop),
        check("accessibility_bus", a11y),
        check("browser", browser),
    ];
    let mut note = serde_json::Map::new();
    note.insert("isolation".into(), daemon.config.desktop_isolation.as_str().into());
    all.push(Check { name: "desktop_isolation", failure: None, note: Some(note) });
    if let Some(b) = &daemon.config.browser {
        let s = b.check_sandbox();
        let mut note = serde_json::Map::new();
        note.insert("sandbox".into(), s.on.into());
        note.insert("reason".into(), s.reason.into());
        all.push(Check { name: "browser_sandbox", failure: None, note: Some(note) });
    }
    all
}

/// Why the desktop, and why the accessibility bus, cannot take work (`None`: it can).
fn desktop(daemon: &Daemon) -> (Option<String>, Option<String>) {
    let slot = &daemon.config.desktop;
    if slot.is_starting() {
        return (Some(STARTING.into()), Some(STARTING.into()));
    }
    let Some(backend) = slot.backend() else {
        let reason = slot
            .status()
            .and_then(|s| s.reason)
            .unwrap_or_else(|| "this daemon has no desktop backend".into());
        return (Some(reason.clone()), Some(reason));
    };
    let probed = slot.env().map(|env| env.status());
    let display = probed
        .as_ref()
        .filter(|p| p.status == crate::desktop::embedded::Readiness::Down)
        .map(|p| p.reason.clone().unwrap_or_else(|| "the X display does not answer".into()));
    let a11y = match (&probed, backend.a11y()) {
        (Some(p), _) if !p.accessibility_bus => {
            Some("the accessibility bus does not answer".into())
        }
        (_, Err(e)) => Some(e.to_string()),
        _ => None,
    };
    (display, a11y)
}
