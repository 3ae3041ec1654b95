//! The event bus: every subscriber reads a bounded queue; a slow one loses the oldest events
//! and is told how many, memory never grows without bound. An event about a session carries
//! the session's creator and reaches only subscribers of that token, admins, and (for
//! approvals) approvers.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use glovebox_protocol::wire::Event;
use serde_json::Value;
use tokio::sync::broadcast;

use crate::session::Owner;

/// Topics a client may subscribe to.
pub const TOPICS: [&str; 5] = ["ops", "session", "browser", "desktop", "approvals"];

/// Where a backend sends its events: (kind, data); the daemon points it at the bus under the
/// backend's topic.
pub type Sink = Arc<dyn Fn(&'static str, Value) + Send + Sync>;

/// A backend's slot for its [`Sink`], filled once the bus exists; clones share it.
#[derive(Clone, Default)]
pub struct SinkSlot(Arc<Mutex<Option<Sink>>>);

impl std::fmt::Debug for SinkSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SinkSlot")
    }
}

impl SinkSlot {
    pub fn set(&self, sink: Sink) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(sink);
    }

    /// Sends an event, if a sink is set.
    pub fn emit(&self, kind: &'static str, data: Value) {
        let sink = self.0.lock().ok().and_then(|s| s.clone());
        if let Some(f) = sink {
            f(kind, data);
        }
    }
}

/// An event and whose it is (`None`: the workspace's, for every subscriber).
#[derive(Debug, Clone)]
pub struct Scoped {
    owner: Option<Owner>,
    event: Event,
}

/// Who reads a subscription.
#[derive(Debug, Clone, Copy)]
pub struct Viewer {
    pub owner: Owner,
    /// Approvers (and admins) see every approval event with its `args`; others see their
    /// own sessions' approvals without them.
    pub approver: bool,
}

/// An approval as a viewer may read it: the call's `arguments` (a URL, a script, a file name)
/// reach approvers and admins only.
pub fn approval_for(approval: &mut Value, approver: bool) {
    if !approver {
        if let Some(m) = approval.as_object_mut() {
            m.remove("arguments");
        }
    }
}

impl Viewer {
    fn sees(&self, s: &Scoped) -> bool {
        match &s.owner {
            None => true,
            Some(o) => self.owner.may_use(o) || (self.approver && s.event.topic == "approvals"),
        }
    }
}

#[derive(Debug)]
pub struct EventBus {
    tx: broadcast::Sender<Scoped>,
    seq: AtomicU64,
}

impl EventBus {
    /// `capacity` is each subscriber's queue length.
    pub fn new(capacity: usize) -> Self {
        let (tx, _) = broadcast::channel(capacity.max(1));
        EventBus { tx, seq: AtomicU64::new(0) }
    }

    /// A workspace event (a tab, a window, a browser): every subscriber gets it.
    pub fn publish(&self, topic: &str, kind: &str, data: Value) {
        self.send(None, topic, kind, data);
    }

    /// An event about a session `owner` created: its token's subscribers get it.
    pub fn publish_for(&self, owner: Owner, topic: &str, kind: &str, data: Value) {
        self.send(Some(owner), topic, kind, data);
    }

    fn send(&self, owner: Option<Owner>, topic: &str, kind: &str, data: Value) {
        let ts_ms =
            SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        let event = Event {
            seq: self.seq.fetch_add(1, Ordering::SeqCst) + 1,
            topic: topic.to_owned(),
            kind: kind.to_owned(),
            ts_ms,
            data,
            dropped: 0,
        };
        // No subscriber is fine: events are not stored.
        let _ = self.tx.send(Scoped { owner, event });
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Scoped> {
        self.tx.subscribe()
    }
}

/// Read the next event of `topics` that `viewer` may see, folding a lag into the event's
/// `dropped` count.
pub async fn next_event(
    rx: &mut broadcast::Receiver<Scoped>,
    topics: &[String],
    viewer: &Viewer,
) -> Option<Event> {
    let mut dropped = 0u64;
    loop {
        match rx.recv().await {
            Ok(s) if topics.contains(&s.event.topic) && viewer.sees(&s) => {
                let mut ev = s.event;
                ev.dropped = dropped;
                if ev.topic == "approvals" {
                    approval_for(&mut ev.data, viewer.approver);
                }
                return Some(ev);
            }
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(n)) => dropped += n,
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}
