//! The event bus: every subscriber reads a bounded queue; a slow one loses the oldest events
//! and is told how many, memory never grows without bound.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use glovebox_protocol::wire::Event;
use serde_json::Value;
use tokio::sync::broadcast;

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

#[derive(Debug)]
pub struct EventBus {
    tx: broadcast::Sender<Event>,
    seq: AtomicU64,
}

impl EventBus {
    /// `capacity` is each subscriber's queue length.
    pub fn new(capacity: usize) -> Self {
        let (tx, _) = broadcast::channel(capacity.max(1));
        EventBus { tx, seq: AtomicU64::new(0) }
    }

    pub fn publish(&self, topic: &str, kind: &str, data: Value) {
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
        let _ = self.tx.send(event);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.tx.subscribe()
    }
}

/// Read the next event of `topics`, folding a lag into the event's `dropped` count.
pub async fn next_event(rx: &mut broadcast::Receiver<Event>, topics: &[String]) -> Option<Event> {
    let mut dropped = 0u64;
    loop {
        match rx.recv().await {
            Ok(mut ev) if topics.contains(&ev.topic) => {
                ev.dropped = dropped;
                return Some(ev);
            }
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(n)) => dropped += n,
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}
