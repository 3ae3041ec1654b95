//! The event bus: every subscriber reads a bounded queue; a slow one loses the oldest events
//! and is told how many, memory never grows without bound. An event about a session carries
//! the session's creator and reaches only subscribers of that token, admins, and (for
//! approvals) approvers. An event about a tab of a party's browser context reaches only
//! that party's tokens, the tokens with a session browsing in that context, admins and the
//! view page; an event about a shared tab reaches everyone. Either comes whole only to the
//! tokens whose sessions have that tab (or the tab that opened it) selected, and admins:
//! the rest get it without its URLs, titles, paths and texts.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use glovebox_protocol::wire::Event;
use serde_json::Value;
use tokio::sync::broadcast;

use crate::session::Owner;

/// Which tab opened which (a popup, `target=_blank`), from `tab.created`: a popup's events
/// belong to the owners of the tab that opened it too. Bounded: a browser opening tabs
/// without end forgets the oldest pairs.
#[derive(Debug, Default)]
pub struct Openers(Mutex<std::collections::HashMap<String, String>>);

impl Openers {
    const KEPT: usize = 1024;

    /// Learns or forgets a pair from a tab event.
    pub fn note(&self, kind: &str, data: &Value) {
        let Some(tab) = data["tab_id"].as_str() else { return };
        let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        match (kind, data["opener_tab_id"].as_str()) {
            ("tab.created", Some(opener)) => {
                if map.len() >= Self::KEPT {
                    map.clear();
                }
                map.insert(tab.to_owned(), opener.to_owned());
            }
            ("tab.closed", _) => drop(map.remove(tab)),
            _ => {}
        }
    }

    /// `tab`, the tab that opened it, that one's opener, and so on (at most 8).
    pub fn chain(&self, tab: &str) -> Vec<String> {
        let map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let mut chain = vec![tab.to_owned()];
        while let Some(up) = chain.last().and_then(|t| map.get(t)) {
            if chain.len() >= 8 || chain.contains(up) {
                break;
            }
            chain.push(up.clone());
        }
        chain
    }
}

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

    /// A slot that passes each event through `f` on its way to this one.
    pub fn through(&self, f: impl Fn(&mut Value) + Send + Sync + 'static) -> SinkSlot {
        let (outer, slot) = (self.clone(), SinkSlot::default());
        slot.set(Arc::new(move |kind: &'static str, mut data: Value| {
            f(&mut data);
            outer.emit(kind, data);
        }));
        slot
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
    /// An event about a tab of a party's browser context: whose lane it is.
    lane: Option<LaneScope>,
    /// An event about a tab or a window: the tokens that see it whole (their sessions have
    /// it, or its app, selected).
    tab_owners: Option<Vec<Owner>>,
    event: Event,
}

/// The browser lane a tab event happened in (`browser/contexts.rs`): only the tokens of
/// that party, those with a session browsing in that lane, and admins get it at all.
#[derive(Debug, Clone)]
pub struct LaneScope {
    pub key: String,
    /// The creators of the sessions browsing in the lane (`browser_context: "own"`, a
    /// profile), besides the party's own tokens.
    pub sessions: Vec<Owner>,
}

/// What a tab event says that belongs to whoever drives the tab: where it is and what it shows.
const TAB_PRIVATE: &[&str] = &["url", "title", "path", "message", "default_prompt", "filename"];

/// What a window's or a focus event says that belongs to whoever works in that app: the
/// window's title and the focused element's name, text and value.
const WINDOW_PRIVATE: &[&str] = &["title", "name", "text", "value", "description"];

/// A tab or window event for a viewer who does not work there: its ids and kinds stay, what
/// it shows goes.
fn redact(v: &mut Value, private: &[&str]) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| !private.contains(&k.as_str()));
            m.values_mut().for_each(|v| redact(v, private));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact(v, private)),
        _ => {}
    }
}

/// Who reads a subscription.
#[derive(Debug, Clone, Copy)]
pub struct Viewer {
    pub owner: Owner,
    /// Approvers (and admins) see every approval event with its `args`; others see their
    /// own sessions' approvals without them.
    pub approver: bool,
    /// Sees the tab events of every party's lane (the view page, which shows every tab);
    /// otherwise only its own lanes'.
    pub all_lanes: bool,
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

impl Scoped {
    /// The event itself, as every viewer allowed the whole of it reads it.
    pub fn event(&self) -> &Event {
        &self.event
    }
}

impl Viewer {
    fn sees(&self, s: &Scoped) -> bool {
        let mine = match &s.owner {
            None => true,
            Some(o) => self.owner.may_use(o) || (self.approver && s.event.topic == "approvals"),
        };
        let in_lane = |l: &LaneScope| {
            self.all_lanes
                || self.owner.admin
                || self.owner.lane() == l.key
                || l.sessions.iter().any(|o| self.owner.may_use(o))
        };
        mine && s.lane.as_ref().is_none_or(in_lane)
    }
}

#[derive(Debug)]
pub struct EventBus {
    tx: broadcast::Sender<Scoped>,
    seq: AtomicU64,
    /// Hides secret values in every event before anyone reads it.
    redactor: crate::secrets::Redactor,
}

impl EventBus {
    /// `capacity` is each subscriber's queue length.
    pub fn new(capacity: usize, redactor: crate::secrets::Redactor) -> Self {
        let (tx, _) = broadcast::channel(capacity.max(1));
        EventBus { tx, seq: AtomicU64::new(0), redactor }
    }

    /// A workspace event (a tab, a window, a browser): every subscriber gets it.
    pub fn publish(&self, topic: &str, kind: &str, data: Value) {
        self.send(None, topic, kind, data);
    }

    /// An event about a session `owner` created: its token's subscribers get it.
    pub fn publish_for(&self, owner: Owner, topic: &str, kind: &str, data: Value) {
        self.send(Some(owner), topic, kind, data);
    }

    /// An event about a browser tab or a desktop window: whole for `owners` (and admins),
    /// without its URLs, titles and texts for everyone else.
    pub fn publish_tab(&self, owners: Vec<Owner>, topic: &str, kind: &str, data: Value) {
        self.send_scoped((None, None), Some(owners), topic, kind, data);
    }

    /// [`EventBus::publish_tab`] for a tab of `lane`, which only that lane's viewers get.
    pub fn publish_in_lane(
        &self,
        (owners, lane): (Vec<Owner>, Option<LaneScope>),
        topic: &str,
        kind: &str,
        data: Value,
    ) {
        self.send_scoped((None, lane), Some(owners), topic, kind, data);
    }

    fn send(&self, owner: Option<Owner>, topic: &str, kind: &str, data: Value) {
        self.send_scoped((owner, None), None, topic, kind, data);
    }

    fn send_scoped(
        &self,
        (owner, lane): (Option<Owner>, Option<LaneScope>),
        tab_owners: Option<Vec<Owner>>,
        topic: &str,
        kind: &str,
        mut data: Value,
    ) {
        self.redactor.json(&mut data);
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
        let _ = self.tx.send(Scoped { owner, lane, tab_owners, event });
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
            Ok(s) => {
                if let Some(mut ev) = as_seen(s, topics, viewer) {
                    ev.dropped = dropped;
                    return Some(ev);
                }
            }
            Err(broadcast::error::RecvError::Lagged(n)) => dropped += n,
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

/// The events of `topics` `viewer` may see that are queued in `rx` now, without waiting.
pub fn queued_events(
    rx: &mut broadcast::Receiver<Scoped>,
    topics: &[String],
    viewer: &Viewer,
) -> Vec<Event> {
    let mut out = Vec::new();
    loop {
        match rx.try_recv() {
            Ok(s) => out.extend(as_seen(s, topics, viewer)),
            Err(broadcast::error::TryRecvError::Lagged(_)) => {}
            Err(_) => return out,
        }
    }
}

/// An event as `viewer` reads it, or `None` when it is not for them.
fn as_seen(s: Scoped, topics: &[String], viewer: &Viewer) -> Option<Event> {
    if !topics.contains(&s.event.topic) || !viewer.sees(&s) {
        return None;
    }
    let mut ev = s.event;
    if ev.topic == "approvals" {
        approval_for(&mut ev.data, viewer.approver);
    }
    let owners = s.tab_owners.as_deref();
    // Admins read every event whole, also one no session works in.
    if !viewer.owner.admin && owners.is_some_and(|o| !o.iter().any(|t| viewer.owner.may_use(t))) {
        let private = if ev.topic == "desktop" { WINDOW_PRIVATE } else { TAB_PRIVATE };
        redact(&mut ev.data, private);
        if let Some(m) = ev.data.as_object_mut() {
            m.insert("redacted".into(), Value::Bool(true));
        }
    }
    Some(ev)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_windows_title_and_the_focused_name_reach_only_the_sessions_working_there() {
        let bus = EventBus::new(8, crate::secrets::Redactor::default());
        let (mut rx, mut rx2) = (bus.subscribe(), bus.subscribe());
        let (a, b) = (Owner::of_token("a", false), Owner::of_token("b", false));
        let opened = json!({"window_id": "x:7", "app_id": "app:42", "title": "VICTIM-SECRET"});
        bus.publish_tab(vec![a], "desktop", "window.opened", opened);
        let focus = json!({"app_id": "app:42", "element": {"role": "text", "name": "Card number"}});
        bus.publish_tab(vec![a], "desktop", "focus.changed", focus);
        let topics = vec!["desktop".to_owned()];
        let seen = |who: Owner, rx: &mut broadcast::Receiver<Scoped>| -> Vec<Value> {
            let viewer = Viewer { owner: who, approver: false, all_lanes: false };
            queued_events(rx, &topics, &viewer).into_iter().map(|e| e.data).collect()
        };
        let theirs = seen(b, &mut rx);
        assert_eq!(theirs.len(), 2);
        let text = serde_json::to_string(&theirs).expect("json");
        assert!(!text.contains("VICTIM-SECRET") && !text.contains("Card number"), "{text}");
        assert_eq!(theirs[0]["window_id"], "x:7", "ids stay: {text}");
        let mine = serde_json::to_string(&seen(a, &mut rx2)).expect("json");
        assert!(mine.contains("VICTIM-SECRET") && mine.contains("Card number"), "{mine}");
    }

    #[test]
    fn a_popup_s_chain_leads_to_its_opener_until_closed() {
        let o = Openers::default();
        o.note("tab.created", &json!({"tab_id": "b", "opener_tab_id": "a"}));
        o.note("tab.created", &json!({"tab_id": "c", "opener_tab_id": "b"}));
        o.note("tab.created", &json!({"tab_id": "d", "opener_tab_id": null}));
        assert_eq!(o.chain("c"), ["c", "b", "a"]);
        assert_eq!(o.chain("d"), ["d"]);
        // A loop cannot hold the chain.
        o.note("tab.created", &json!({"tab_id": "a", "opener_tab_id": "c"}));
        assert_eq!(o.chain("c"), ["c", "b", "a"]);
        // A closed tab's own link goes; its popups still lead to it.
        o.note("tab.closed", &json!({"tab_id": "b"}));
        assert_eq!(o.chain("c"), ["c", "b"]);
    }
}
