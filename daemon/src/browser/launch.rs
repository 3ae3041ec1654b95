//! Starting Chromium (Debian's `chromium`) through the supervisor: the daemon's default one
//! with its DevTools on a pipe only ([`start_piped`]), or, for tests and for browsers an
//! operator names with `--browser-allow`, one on a debugging port ([`start`]).

use std::path::Path;
use std::time::{Duration, Instant};

use super::{discovery, BrowserError};
use crate::process::Supervisor;

/// How long a fresh Chromium gets to answer on its debugging port.
const READY: Duration = Duration::from_secs(30);

/// Flags that keep it quiet offline, work under Xvfb and expose the page on AT-SPI; DevTools
/// on `port`, or on the pipe when `None`; `--no-sandbox` only when `sandbox` is false
/// (`sandbox.rs` decides); `extra` before the first page.
pub fn argv(
    program: &str,
    profile: &Path,
    port: Option<u16>,
    sandbox: bool,
    extra: &[String],
) -> Vec<String> {
    let devtools = match port {
        Some(port) => vec![
            format!("--remote-debugging-port={port}"),
            "--remote-debugging-address=127.0.0.1".into(),
        ],
        None => vec!["--remote-debugging-pipe".into()],
    };
    let mut argv = vec![program.to_owned()];
    argv.extend(devtools);
    if !sandbox {
        argv.push("--no-sandbox".into());
    }
    argv.extend([
        "--test-type".into(),
        "--disable-gpu".into(),
        "--no-first-run".into(),
        "--no-default-browser-check".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--disable-quic".into(),
        // The two WebUI omnibox popups cost a renderer per window (each party's first tab
        // opens in a window of its own); the address bar keeps its native popup.
        "--disable-features=Translate,MediaRouter,OptimizationHints,BackForwardCache,\
         WebUIOmniboxPopup,WebUIOmniboxAimPopup"
            .into(),
        // Each party's tabs open in a window of their own, all at the same place: one that
        // another covers must not count as hidden, or its input waits for throttled frames
        // (a covered party's click took 50 ms more to be acknowledged).
        "--disable-backgrounding-occluded-windows".into(),
        "--password-store=basic".into(),
        "--force-renderer-accessibility".into(),
        format!("--user-data-dir={}", profile.display()),
        "--window-position=0,0".into(),
        "--window-size=1280,800".into(),
    ]);
    argv.extend(extra.iter().cloned());
    argv.push("about:blank".into());
    argv
}

/// Spawn the daemon's own Chromium with DevTools on its pipe and relay that pipe on
/// `listener`, captures bounded at `capture_limit` bytes; returns its pid and the relay. It
/// is ready: the relay answers once the browser reads its pipe.
pub async fn start_piped(
    supervisor: &Supervisor,
    (program, sandbox): (&str, bool),
    profile: &Path,
    env: &[(String, String)],
    (listener, capture_limit): (std::sync::Arc<tokio::net::TcpListener>, usize),
    egress: &super::egress::Egress,
) -> Result<(u32, super::pipe::Relay), BrowserError> {
    clear_locks(profile);
    let argv = argv(program, profile, None, sandbox, &egress.flags());
    let (pid, to_browser, from_browser) = supervisor
        .spawn_piped("chromium", &argv, env)
        .map_err(|e| BrowserError::Unavailable(format!("cannot start chromium: {e}")))?;
    match super::pipe::Relay::start(listener, to_browser, from_browser, capture_limit).await {
        Ok(relay) => Ok((pid, relay)),
        Err(e) => {
            let _ = supervisor.stop_pid(pid);
            Err(e)
        }
    }
}

fn clear_locks(profile: &Path) {
    let _ = std::fs::create_dir_all(profile);
    // A profile left locked by a killed browser would make the new one hand over and exit.
    // (Unlinking a name never follows it, should the profile be a desktop user's.)
    for f in ["SingletonLock", "SingletonSocket", "SingletonCookie"] {
        let _ = std::fs::remove_file(profile.join(f));
    }
}

/// Spawn one on a debugging port and wait (bounded) until `/json/version` answers; returns its
/// pid. The daemon drives such a browser only when it is allowed by `--browser-allow`.
pub async fn start(
    supervisor: &Supervisor,
    program: &str,
    profile: &Path,
    port: u16,
    env: &[(String, String)],
) -> Result<u32, BrowserError> {
    clear_locks(profile);
    let name = format!("chromium-{port}");
    let sandbox = super::sandbox::probe(supervisor).on;
    let pid = supervisor
        .spawn(&name, &argv(program, profile, Some(port), sandbox, &[]), env)
        .map_err(|e| BrowserError::Unavailable(format!("cannot start chromium: {e}")))?;
    let deadline = Instant::now() + READY;
    loop {
        if discovery::version(port).await.is_ok() {
            return Ok(pid);
        }
        if !supervisor.is_running(pid) {
            return Err(BrowserError::Unavailable(format!(
                "chromium exited at start: {}",
                supervisor.log_tail(&name, 600)
            )));
        }
        if Instant::now() > deadline {
            let _ = supervisor.stop_pid(pid);
            return Err(BrowserError::Unavailable(format!(
                "chromium did not answer on port {port} within {READY:?}"
            )));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
