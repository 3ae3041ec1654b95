//! The daemon's own Chromium: started on first use, again on the same relay port (so its id
//! stays) when it died; its profile and downloads dir; its egress proxy; code clients' lanes
//! on its pipe.

use std::path::PathBuf;
use std::sync::Arc;

use super::{egress, parse_browser_id, pipe, tab_id_of, target_key, BrowserError, Browsers};

/// The daemon's own browser: its relay's port names it.
#[derive(Debug, Clone)]
pub(super) struct DefaultChrome {
    pub(super) port: u16,
    pub(super) pid: u32,
    pub(super) relay: Arc<pipe::Relay>,
}

impl Browsers {
    /// Status for the backend probe: never blocks, never starts anything, names no port or
    /// pid (it is answered without a token).
    pub fn status(&self) -> (&'static str, String) {
        match self.default.try_lock() {
            Ok(d) => match &*d {
                Some(c) if self.supervisor.is_running(c.pid) && c.relay.is_alive() => {
                    ("up", "the default browser runs".into())
                }
                Some(_) => {
                    ("degraded", "the default browser exited; it restarts on the next call".into())
                }
                None => match self.can_start() {
                    Ok(()) => ("up", "the default browser starts on first use".into()),
                    Err(why) => ("down", why),
                },
            },
            Err(_) => ("up", "the default browser is starting".into()),
        }
    }

    /// The default browser's id, starting it (again) when it is not running.
    pub async fn ensure_default(&self) -> Result<String, BrowserError> {
        let mut d = self.default.lock().await;
        if let Some(c) = d.clone() {
            let conn_ok = self.conns.lock().await.get(&c.port).is_none_or(|x| x.is_alive());
            if self.supervisor.is_running(c.pid) && c.relay.is_alive() && conn_ok {
                return Ok(format!("chrome-{}", c.port));
            }
            // It died: forget its connection and refs, and start it again on the same port.
            let _ = self.supervisor.stop_pid(c.pid);
            if let Some(conn) = self.conns.lock().await.remove(&c.port) {
                let reason = "the browser exited and was restarted; take a new snapshot";
                for id in conn.known_tabs() {
                    self.invalidate(&target_key(&conn.browser_id, &tab_id_of(&id)), reason);
                }
            }
            self.restarts.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        let profile = self.profile_dir();
        let listener = self.relay_listener.get_or_try_init(pipe::Relay::listener).await?.clone();
        // The old relay stops taking connections before the new one starts.
        *d = None;
        let limit = self.max_answer.load(std::sync::atomic::Ordering::SeqCst);
        let (pid, relay) = self.launch_default(&profile, (listener, limit)).await?;
        let port = relay.port;
        *d = Some(DefaultChrome { port, pid, relay: Arc::new(relay) });
        Ok(format!("chrome-{port}"))
    }

    /// The egress proxy's address for a browser context (`contexts.rs`), once it runs.
    pub(super) fn egress_proxy(&self) -> Option<String> {
        self.egress.get().map(|e| format!("socks5://{}", e.addr))
    }

    /// The egress proxy the default browser's connections go through, started on first use.
    pub(super) async fn egress(&self) -> Result<&egress::Egress, BrowserError> {
        self.egress
            .get_or_try_init(|| egress::Egress::start(self.guard.clone()))
            .await
            .map_err(|e| BrowserError::Unavailable(format!("cannot start the egress proxy: {e}")))
    }

    pub(super) fn default_port(&self) -> Option<u16> {
        self.default.try_lock().ok().and_then(|d| d.as_ref().map(|c| c.port))
    }

    /// A code client's lane on the pipe of `browser_id`, which must be the daemon's own
    /// browser (another's DevTools are not the daemon's to share).
    pub async fn code_lane(&self, browser_id: &str) -> Result<pipe::Lane, BrowserError> {
        let port = parse_browser_id(browser_id)?;
        let d = self.default.lock().await;
        match d.as_ref().filter(|c| c.port == port) {
            Some(c) if c.relay.is_alive() => Ok(c.relay.lane()),
            Some(_) => Err(BrowserError::Unavailable("the browser exited".into())),
            None => Err(BrowserError::Unavailable(format!(
                "{browser_id} is not the daemon's own browser; code sessions are on its tabs only"
            ))),
        }
    }

    /// The default browser's profile: the desktop user's when there is one (the state dir
    /// is not its to write), else in the state dir.
    fn profile_dir(&self) -> PathBuf {
        self.supervisor
            .desktop_user()
            .map_or_else(|| self.state_dir.join("chromium-profile"), |u| u.profile())
    }

    /// Where the default browser's downloads and the printed PDFs go, in the same way.
    pub fn downloads_dir(&self) -> PathBuf {
        self.supervisor
            .desktop_user()
            .map_or_else(|| self.state_dir.join("downloads"), |u| u.downloads())
    }
}
