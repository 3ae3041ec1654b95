//! The ops feed kept up to date from the bus: `ops` events, a code session's `cdp.*`
//! events, and sessions that closed (`people/feed.rs` keeps the lists).

use std::sync::Weak;

use tokio::sync::broadcast;

use crate::events::Scoped;
use crate::state::Daemon;

/// Reads the bus until the daemon is gone.
pub async fn follow(daemon: Weak<Daemon>, mut rx: broadcast::Receiver<Scoped>) {
    loop {
        let scoped = match rx.recv().await {
            Ok(s) => s,
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Some(d) = daemon.upgrade() else { return };
        let ev = scoped.event();
        match (ev.topic.as_str(), ev.kind.as_str()) {
            ("ops", kind) => d.people.feed.note(kind, &ev.data),
            ("browser", kind) if kind.starts_with("cdp.") => {
                d.people.feed.note_code(kind, &ev.data)
            }
            ("session", "closed") => {
                let alive: Vec<String> = d.sessions.all().iter().map(|s| s.id.clone()).collect();
                d.people.feed.retain(&alive);
            }
            _ => {}
        }
    }
}
