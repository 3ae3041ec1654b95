//! Reusing a tree walk while its app is unchanged. Every object, window or document event an
//! app sends bumps that app's change count; a walk is kept with the count it started at and
//! the walked root's children and their boxes (a moved window changes every screen box but
//! sends no event). A later walk of the same subtree reuses it when the count has not moved
//! and the children and boxes read again are the same.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use futures::future::join_all;

use zbus::zvariant::OwnedObjectPath;

use super::tree::{Elem, WalkOptions, Walked};
use super::{iface, A11y, ACCESSIBLE};

const COMPONENT: &str = iface::COMPONENT;

/// The event interfaces whose signals mean "something in this app may look different now".
const EVENT_IFACES: [&str; 3] = [iface::EVENT_OBJECT, iface::EVENT_WINDOW, iface::EVENT_DOCUMENT];
/// The events toolkits are asked to send: what changes a snapshot line (structure, states,
/// names and values, text, boxes) and windows. Not caret, selection or visible-data
/// events: those fire on every keystroke and would only slow the app down.
const REGISTER: [&str; 7] = [
    "object:children-changed",
    "object:state-changed",
    "object:property-change",
    "object:text-changed",
    "object:bounds-changed",
    "window:",
    "document:",
];
/// Walks kept at most (one per app, window or subtree walked recently).
const KEEP: usize = 32;

/// The walked root's children and their boxes: what a move, resize or new window changes.
type Anchors = Vec<(String, Option<(i32, i32, i32, i32)>)>;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct WalkKey {
    bus: String,
    path: String,
    max_depth: u16,
    max_nodes: usize,
    offset: (i32, i32),
    trust_visible: bool,
}

#[derive(Debug)]
struct Kept {
    count: u64,
    anchors: Anchors,
    elems: Arc<Vec<Elem>>,
}

#[derive(Debug, Default)]
pub(super) struct Changes {
    /// Whether the event subscription is in place; without it nothing is reused.
    live: AtomicBool,
    /// Sender (unique bus name) -> events seen from it.
    counts: Mutex<HashMap<String, u64>>,
    walks: Mutex<HashMap<WalkKey, Kept>>,
}

impl Changes {
    fn count(&self, bus: &str) -> u64 {
        self.counts.lock().map(|c| c.get(bus).copied().unwrap_or(0)).unwrap_or(u64::MAX)
    }

    fn bump(&self, bus: &str) {
        if let Ok(mut c) = self.counts.lock() {
            *c.entry(bus.to_owned()).or_default() += 1;
        }
    }
}

/// Subscribes to app events and counts them per sender until the connection closes.
pub(super) async fn watch(conn: zbus::Connection, changes: Arc<Changes>) {
    use futures::StreamExt as _;
    let mut streams = Vec::new();
    for iface in EVENT_IFACES {
        let rule = zbus::MatchRule::builder()
            .msg_type(zbus::message::Type::Signal)
            .interface(iface)
            .map(|b| b.build().to_owned());
        let stream = match rule {
            Ok(rule) => zbus::MessageStream::for_match_rule(rule, &conn, Some(1024)).await,
            Err(e) => Err(e),
        };
        match stream {
            Ok(s) => streams.push(s),
            Err(e) => {
                tracing::warn!(%e, "cannot watch app events; every snapshot walks the tree");
                return;
            }
        }
    }
    for event in REGISTER {
        let registered = conn
            .call_method(
                Some(super::REGISTRY),
                "/org/a11y/atspi/registry",
                Some(iface::REGISTRY),
                "RegisterEvent",
                &(event,),
            )
            .await;
        if let Err(e) = registered {
            tracing::warn!(%e, event, "cannot register for app events; every snapshot walks the tree");
            return;
        }
    }
    changes.live.store(true, Ordering::SeqCst);
    let mut events = futures::stream::select_all(streams);
    while let Some(msg) = events.next().await {
        let Ok(msg) = msg else { continue };
        if let Some(sender) = msg.header().sender() {
            changes.bump(sender.as_str());
        }
    }
    changes.live.store(false, Ordering::SeqCst);
}

impl A11y {
    /// The children of `bus`/`path` with their screen boxes, read concurrently. Asked over
    /// the bus, not a direct connection: the replies then come after any event the app sent
    /// before answering.
    async fn anchors(&self, bus: &str, path: &str) -> Anchors {
        let kids: Vec<(String, OwnedObjectPath)> =
            self.bus_call(bus, path, ACCESSIBLE, "GetChildren", &()).await.unwrap_or_default();
        join_all(kids.iter().map(|(b, p)| async move {
            let extents = self
                .bus_call::<_, (i32, i32, i32, i32)>(
                    b,
                    p.as_str(),
                    COMPONENT,
                    "GetExtents",
                    &(0u32,),
                )
                .await;
            (format!("{b}|{}", p.as_str()), extents.ok())
        }))
        .await
    }

    /// [`A11y::walk`], reusing the last walk of the same subtree when its app sent no event
    /// since and its windows did not move. A walk cut short is not kept.
    pub async fn walk_reusing(&self, bus: &str, path: &str, opts: WalkOptions) -> Walked {
        let changes = &self.changes;
        let key = WalkKey {
            bus: bus.to_owned(),
            path: path.to_owned(),
            max_depth: opts.max_depth,
            max_nodes: opts.max_nodes,
            offset: opts.offset,
            trust_visible: opts.trust_visible,
        };
        let anchors = self.anchors(bus, path).await;
        // Let the watcher count the events that came in before the anchors' replies.
        for _ in 0..3 {
            tokio::task::yield_now().await;
        }
        let count = changes.count(bus);
        if changes.live.load(Ordering::SeqCst) {
            if let Ok(walks) = changes.walks.lock() {
                if let Some(k) = walks.get(&key) {
                    if k.count == count && k.anchors == anchors {
                        return Walked { elems: k.elems.clone(), trouble: Vec::new() };
                    }
                }
            }
        }
        let walked = self.walk(bus, path, opts).await;
        if let (true, Ok(mut walks)) = (walked.trouble.is_empty(), changes.walks.lock()) {
            if walks.len() >= KEEP {
                walks.clear();
            }
            walks.insert(key, Kept { count, anchors, elems: walked.elems.clone() });
        }
        walked
    }
}
