//! Code clients on a tab (`browser.cdp_session`): a revocable DevTools endpoint that holds one
//! tab, for Playwright's `connect_over_cdp` and Puppeteer's `connect`.
//!
//! An endpoint is `ws://<daemon>/cdp/<128-bit secret>` on the daemon's own port (`http.rs`),
//! taken by one connection at a time. Its connection (`bridge.rs`) is a lane of the browser's
//! pipe (`browser/pipe/lanes.rs`) that shows the client one browser with one page, refuses
//! what reaches beyond it (`rules.rs`) and leaves navigation to the same guard as the agent's
//! own actions. It ends when its time is up, on `browser.cdp_revoke`, when its tab closes,
//! when the session that asked for it closes or when that session's token is revoked: a
//! watcher looks every [`TICK`] and the connection closes at once with the reason.

pub mod bridge;
pub mod http;
pub mod rules;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::watch;

use crate::live::code::{lock, random_hex};
pub use crate::live::code::{Code, Entry, Request};
use crate::state::Daemon;

/// How often the watcher looks at what ends an endpoint (all of them within 1 s).
const TICK: Duration = Duration::from_millis(200);

impl Code {
    /// A new endpoint, watched from now on until it ends. `None` without randomness.
    pub fn create(&self, daemon: &Arc<Daemon>, r: Request) -> Option<Arc<Entry>> {
        let (ended, _) = watch::channel(None);
        let ms = crate::clock::now_ms() + r.ttl.as_millis() as u64;
        let entry = Arc::new(Entry {
            cdp_id: format!("cdp-{}", random_hex(8)?),
            secret: random_hex(16)?,
            browser_id: r.browser_id,
            tab_id: r.tab_id,
            target_id: r.target_id,
            session_id: r.session_id,
            owner: r.owner,
            expires: Instant::now() + r.ttl,
            expires_at: crate::clock::utc(ms),
            connected: AtomicBool::new(false),
            ended,
        });
        lock(&self.by_id).insert(entry.cdp_id.clone(), entry.clone());
        tokio::spawn(watch_entry(Arc::downgrade(daemon), entry.clone()));
        Some(entry)
    }

    /// End `cdp_id` for `reason`; false if it was not live.
    pub fn end(&self, daemon: &Daemon, cdp_id: &str, reason: &str) -> bool {
        let Some(e) = lock(&self.by_id).remove(cdp_id) else { return false };
        e.ended.send_replace(Some(reason.to_owned()));
        tracing::info!(cdp_id, reason, "a code session ended");
        let data = json!({"cdp_id": e.cdp_id, "tab_id": e.tab_id, "browser_id": e.browser_id,
                          "session": e.session_id, "reason": reason});
        daemon.events.publish_for(e.owner, "browser", "cdp.closed", data);
        true
    }

    /// End the endpoints the session `session_id` asked for (it closed).
    pub fn session_closed(&self, daemon: &Daemon, session_id: &str) {
        let ids: Vec<String> = lock(&self.by_id)
            .values()
            .filter(|e| e.session_id == session_id)
            .map(|e| e.cdp_id.clone())
            .collect();
        for id in ids {
            self.end(daemon, &id, "the session closed");
        }
    }

    /// End the endpoints of tokens a reload revoked or gave another role.
    pub fn tokens_changed(&self, daemon: &Daemon, changed: &[crate::auth::Digest]) {
        let ids: Vec<String> = lock(&self.by_id)
            .values()
            .filter(|e| changed.contains(&e.owner.digest()))
            .map(|e| e.cdp_id.clone())
            .collect();
        for id in ids {
            self.end(daemon, &id, "its token was revoked");
        }
    }
}

/// Why `e` should end now, if it should.
async fn reason_to_end(d: &Daemon, e: &Entry) -> Option<&'static str> {
    if Instant::now() >= e.expires {
        return Some("its time (ttl_s) is up");
    }
    if d.sessions.get(&e.session_id).is_none() {
        return Some("the session closed");
    }
    match d.role_of_digest(&e.owner.digest()) {
        Some(role) if role.can_act() => {}
        _ => return Some("its token was revoked"),
    }
    let b = d.config.browser.as_ref()?;
    if !b.is_open(&e.browser_id, &e.target_id).await {
        return Some("its tab closed");
    }
    None
}

async fn watch_entry(daemon: Weak<Daemon>, e: Arc<Entry>) {
    let mut ended = e.ended();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(TICK) => {}
            _ = ended.wait_for(Option::is_some) => return,
        }
        let Some(d) = daemon.upgrade() else { return };
        if let Some(reason) = reason_to_end(&d, &e).await {
            d.code.end(&d, &e.cdp_id, reason);
            return;
        }
    }
}
