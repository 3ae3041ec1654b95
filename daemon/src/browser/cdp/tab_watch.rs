//! What the daemon watches on each tab: main-frame navigations (which make refs stale),
//! JavaScript dialogs, requests in flight and the page's scheduled work (for settling), blocked
//! WebSockets, file choosers and renderer crashes. One task per event stream, owned by the
//! connection.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chromiumoxide::cdp::browser_protocol::dom::EnableParams as DomEnable;
use chromiumoxide::cdp::browser_protocol::inspector::{
    EnableParams as InspectorEnable, EventTargetCrashed, EventTargetReloadedAfterCrash,
};
use chromiumoxide::cdp::browser_protocol::network::{
    EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent, EventWebSocketCreated,
    ResourceType,
};
use chromiumoxide::cdp::browser_protocol::page::{
    EventFileChooserOpened, EventFrameNavigated, EventJavascriptDialogClosed,
    EventJavascriptDialogOpening, FileChooserOpenedMode, SetInterceptFileChooserDialogParams,
};
use chromiumoxide::listeners::EventStream;
use chromiumoxide::Page;
use futures::StreamExt;
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::super::effects::{Effect, Log};
use super::super::settle::instrument::Instrument;
use super::super::settle::work::Work;
use super::super::settle::Net;
use super::super::{lock, tab_id_of, target_key, BrowserError, Invalidator};
use super::{guard, Conn, Dialog};
use crate::events::SinkSlot;

/// What the daemon watches on one tab.
#[derive(Debug)]
pub struct TabWatch {
    /// Main-frame navigations seen so far (bumped after refs were invalidated).
    pub navigations: watch::Receiver<u64>,
    pub dialog: watch::Receiver<Option<Dialog>>,
    /// Whether the tab's renderer died (and was not reloaded since): it answers nothing.
    pub crashed: watch::Receiver<bool>,
    /// Requests in flight, for settling after an action.
    pub net: Arc<Net>,
    /// Timers, animation frames and animations the page scheduled, for the same.
    pub work: Arc<Work>,
    /// The instrumentation that feeds `work`, armed while an action settles.
    pub instrument: Instrument,
    /// The daemon's isolated worlds: frame ("" for the main frame, else a cross-site frame's
    /// target id) -> (main-frame navigations when made, context id).
    pub worlds: tokio::sync::Mutex<HashMap<String, (u64, i64)>>,
    /// Where pointer actions last aimed on an element (its snapshot key), with the
    /// navigations then: the next one on it moves the pointer there while its aim runs.
    pub aims: Mutex<Aims>,
    /// What the snapshot walk last learnt of the page's pointer listeners.
    pub listened: Mutex<Listened>,
}

/// Element key -> (navigations, last aimed point in top-viewport CSS pixels).
pub type Aims = HashMap<String, (u64, (f64, f64))>;

/// Frame slot ("" for the main frame) -> the world's context and the elements with pointer
/// listeners at the last reading, backend node id -> events (`snapshot/listeners.rs`).
pub type Listened = HashMap<String, (i64, std::collections::BTreeMap<i64, Vec<String>>)>;

/// The event streams of one tab, opened before its watch is published.
struct Streams {
    navs: EventStream<EventFrameNavigated>,
    opens: EventStream<EventJavascriptDialogOpening>,
    closes: EventStream<EventJavascriptDialogClosed>,
    sent: EventStream<EventRequestWillBeSent>,
    done: EventStream<EventLoadingFinished>,
    failed: EventStream<EventLoadingFailed>,
    sockets: EventStream<EventWebSocketCreated>,
    choosers: EventStream<EventFileChooserOpened>,
    crashes: EventStream<EventTargetCrashed>,
    revived: EventStream<EventTargetReloadedAfterCrash>,
}

impl Streams {
    async fn open(page: &Page, target_id: &str) -> Result<Streams, BrowserError> {
        let cdp = |e| BrowserError::NotReady(format!("cannot watch tab {target_id}: {e}"));
        Ok(Streams {
            navs: page.event_listener().await.map_err(cdp)?,
            opens: page.event_listener().await.map_err(cdp)?,
            closes: page.event_listener().await.map_err(cdp)?,
            sent: page.event_listener().await.map_err(cdp)?,
            done: page.event_listener().await.map_err(cdp)?,
            failed: page.event_listener().await.map_err(cdp)?,
            sockets: page.event_listener().await.map_err(cdp)?,
            choosers: page.event_listener().await.map_err(cdp)?,
            crashes: page.event_listener().await.map_err(cdp)?,
            revived: page.event_listener().await.map_err(cdp)?,
        })
    }
}

/// The senders behind a [`TabWatch`]'s receivers.
struct Senders {
    navigations: watch::Sender<u64>,
    dialog: watch::Sender<Option<Dialog>>,
    crashed: watch::Sender<bool>,
}

/// Who a tab is, for its tasks: its ids and the connection's shared sinks.
#[derive(Clone)]
struct Who {
    browser_id: String,
    tab_id: String,
    target_id: String,
    events: SinkSlot,
    log: Arc<Log>,
}

impl Who {
    fn json(&self) -> Value {
        json!({"browser_id": self.browser_id, "tab_id": self.tab_id})
    }

    fn push(&self, effect: Effect) {
        self.log.push(&self.browser_id, Some(self.tab_id.clone()), effect);
    }
}

impl Conn {
    /// Starts watching tab `target_id` (or answers the watch another call started first).
    pub(super) async fn watch(
        &self,
        page: &Page,
        target_id: &str,
    ) -> Result<Arc<TabWatch>, BrowserError> {
        let streams = Streams::open(page, target_id).await?;
        let (crashed, crash_rx) = watch::channel(false);
        let (navigations, nav_rx) = watch::channel(0u64);
        let (dialog, dialog_rx) = watch::channel(None);
        let net = Arc::new(Net::default());
        let work = Arc::new(Work::default());
        let (instrument, instrument_tasks) = Instrument::start(page, work.clone()).await;
        let w = Arc::new(TabWatch {
            navigations: nav_rx,
            dialog: dialog_rx,
            crashed: crash_rx,
            net: net.clone(),
            work,
            instrument,
            worlds: tokio::sync::Mutex::new(HashMap::new()),
            aims: Mutex::new(HashMap::new()),
            listened: Mutex::new(HashMap::new()),
        });
        {
            let mut watches = lock(&self.watches);
            if let Some(other) = watches.get(target_id) {
                instrument_tasks.iter().for_each(JoinHandle::abort);
                return Ok(other.clone());
            }
            watches.insert(target_id.to_owned(), w.clone());
        }
        lock(&self.tasks).extend(instrument_tasks);
        let who = Who {
            browser_id: self.browser_id.clone(),
            tab_id: tab_id_of(target_id),
            target_id: target_id.to_owned(),
            events: self.events.clone(),
            log: self.effects.clone(),
        };
        let senders = Senders { navigations, dialog, crashed };
        let tasks = self.spawn_watchers(streams, senders, who, net);
        lock(&self.tasks).extend(tasks);
        enable(page).await;
        Ok(w)
    }

    fn spawn_watchers(
        &self,
        s: Streams,
        tx: Senders,
        who: Who,
        net: Arc<Net>,
    ) -> Vec<JoinHandle<()>> {
        vec![
            on_navigations(s.navs, tx.navigations, who.clone(), self.invalidator.clone()),
            on_dialogs(s.opens, s.closes, tx.dialog, who.clone()),
            on_requests(s.sent, s.done, s.failed, net, who.target_id.clone()),
            on_sockets(s.sockets, self.guard.clone(), who.clone()),
            on_choosers(s.choosers, who),
            on_crashes(s.crashes, s.revived, tx.crashed),
        ]
    }
}

/// The agents a watched tab needs on.
async fn enable(page: &Page) {
    let _ = page.execute(InspectorEnable::default()).await;
    // The DOM agent lets DOM.* calls address nodes by backend id.
    let _ = page.execute(DomEnable::default()).await;
    // A file chooser the page opens is reported, not shown: a native dialog on the desktop
    // would sit outside every tab capture and every result.
    let _ = page.execute(SetInterceptFileChooserDialogParams::new(true)).await;
}

/// A main-frame navigation: refs go stale, the effect is logged, sessions hear `navigated`.
fn on_navigations(
    mut navs: EventStream<EventFrameNavigated>,
    tx: watch::Sender<u64>,
    who: Who,
    invalidator: Invalidator,
) -> JoinHandle<()> {
    let key = target_key(&who.browser_id, &who.tab_id);
    tokio::spawn(async move {
        while let Some(ev) = navs.next().await {
            if ev.frame.parent_id.is_some() {
                continue;
            }
            who.push(Effect::Navigated { url: ev.frame.url.clone() });
            let reason = format!("the tab navigated to {}", ev.frame.url);
            if let Some(f) = lock(&invalidator).clone() {
                f(&key, &reason);
            }
            tx.send_modify(|n| *n += 1);
            let mut tab = who.json();
            tab["url"] = json!(ev.frame.url);
            who.events.emit("navigated", tab);
        }
    })
}

/// The tab's JavaScript dialog, open or not; sessions hear `dialog.opened`.
fn on_dialogs(
    mut opens: EventStream<EventJavascriptDialogOpening>,
    mut closes: EventStream<EventJavascriptDialogClosed>,
    tx: watch::Sender<Option<Dialog>>,
    who: Who,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            tokio::select! {
                ev = opens.next() => {
                    let Some(ev) = ev else { break };
                    let d = Dialog {
                        kind: format!("{:?}", ev.r#type).to_lowercase(),
                        message: ev.message.clone(),
                        default_prompt: ev.default_prompt.clone(),
                    };
                    let mut tab = who.json();
                    tab["dialog"] = json!(d);
                    who.events.emit("dialog.opened", tab);
                    tx.send_replace(Some(d));
                }
                ev = closes.next() => {
                    let Some(_) = ev else { break };
                    tx.send_replace(None);
                }
            }
        }
    })
}

/// Requests in flight, for settling; a frame's document is told apart from the tab's own
/// (whose frame id is its target id).
fn on_requests(
    mut sent: EventStream<EventRequestWillBeSent>,
    mut done: EventStream<EventLoadingFinished>,
    mut failed: EventStream<EventLoadingFailed>,
    net: Arc<Net>,
    main_frame: String,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            tokio::select! {
                ev = sent.next() => {
                    let Some(ev) = ev else { break };
                    let document = ev.r#type == Some(ResourceType::Document);
                    let frame = ev.frame_id.as_ref().map(|f| f.inner().clone());
                    let frame = frame.filter(|f| document && *f != main_frame);
                    net.started(ev.request_id.inner().clone(), &ev.request.url, frame, false);
                }
                ev = done.next() => {
                    let Some(ev) = ev else { break };
                    net.finished(ev.request_id.inner());
                }
                ev = failed.next() => {
                    let Some(ev) = ev else { break };
                    net.finished(ev.request_id.inner());
                }
            }
        }
    })
}

/// A WebSocket the egress proxy refuses (its handshake never reaches `Fetch`) is named here,
/// where its tab is known, judged as the proxy judges its connection.
fn on_sockets(
    mut sockets: EventStream<EventWebSocketCreated>,
    guard: Arc<guard::Guard>,
    who: Who,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(ev) = sockets.next().await {
            let Some(judged) = super::super::egress::judged_url(&ev.url) else { continue };
            let guard::Verdict::Deny { rule } = guard.verdict(&judged) else { continue };
            let url = ev.url.clone();
            who.events.emit(
                "navigation_blocked",
                json!({"browser_id": who.browser_id, "tab_id": who.tab_id, "url": url,
                       "rule": rule, "kind": "websocket"}),
            );
            who.push(Effect::Blocked { url, rule, channel: Some("websocket") });
        }
    })
}

/// A file chooser the page opened (intercepted, so none shows).
fn on_choosers(mut choosers: EventStream<EventFileChooserOpened>, who: Who) -> JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(ev) = choosers.next().await {
            let multiple = ev.mode == FileChooserOpenedMode::SelectMultiple;
            who.push(Effect::FileChooser { multiple });
        }
    })
}

/// A dead renderer answers no command: waiting ones end at once (`Tab::cmd`).
fn on_crashes(
    mut crashes: EventStream<EventTargetCrashed>,
    mut revived: EventStream<EventTargetReloadedAfterCrash>,
    tx: watch::Sender<bool>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let dead = tokio::select! {
                c = crashes.next() => c.map(|_| true),
                r = revived.next() => r.map(|_| false),
            };
            let Some(dead) = dead else { break };
            tx.send_replace(dead);
        }
    })
}
