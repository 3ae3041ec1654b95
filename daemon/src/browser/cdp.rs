//! The CDP plumbing: one long-lived chromiumoxide connection per browser, raw commands by
//! method name, per-tab watchers for navigations, JavaScript dialogs and network activity, and
//! the browser's tab and download events.

pub mod frames;
pub mod guard;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::browser::{
    DownloadProgressState, EventDownloadProgress, EventDownloadWillBegin,
};
use chromiumoxide::cdp::browser_protocol::inspector::{
    EnableParams as InspectorEnable, EventTargetCrashed, EventTargetReloadedAfterCrash,
};
use chromiumoxide::cdp::browser_protocol::network::{
    EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent, EventWebSocketCreated,
    ResourceType,
};
use chromiumoxide::cdp::browser_protocol::page::{
    EventFileChooserOpened, EventFrameNavigated, EventJavascriptDialogClosed,
    EventJavascriptDialogOpening, FileChooserOpenedMode,
};
use chromiumoxide::cdp::browser_protocol::target::{
    EventTargetCreated, EventTargetDestroyed, TargetId,
};
use chromiumoxide::handler::HandlerConfig;
use chromiumoxide::types::{Command, Method, MethodId};
use chromiumoxide::Page;
use futures::StreamExt;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::watch;

use super::effects::Effect;
use super::settle::instrument::Instrument;
use super::settle::work::Work;
use super::settle::Net;
use super::{lock, tab_id_of, BrowserError, Invalidator};
use crate::events::SinkSlot;
use frames::Frames;

/// A download the browser announced: its URL, the path reserved for it and the tab that
/// started it.
type Started = (String, std::path::PathBuf, Option<String>);

/// How long the end of a download waits for its start to be handled (the two come on two
/// event streams).
const START_WAIT: Duration = Duration::from_secs(2);

/// The start of download `guid` as handled, waiting (bounded) for it; empty when it never
/// came.
async fn started_entry(
    names: &Mutex<HashMap<String, Started>>,
    started: &tokio::sync::Notify,
    guid: &str,
) -> Started {
    let deadline = tokio::time::Instant::now() + START_WAIT;
    loop {
        let told = started.notified();
        if let Some(s) = lock(names).remove(guid) {
            return s;
        }
        if tokio::time::timeout_at(deadline, told).await.is_err() {
            return Started::default();
        }
    }
}

/// A CDP command given by method name and JSON params; its response is the raw JSON result.
#[derive(Debug, Clone)]
pub struct Raw {
    method: &'static str,
    params: Value,
}

impl Raw {
    pub fn new(method: &'static str, params: Value) -> Self {
        Raw { method, params }
    }
}

impl Serialize for Raw {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.params.serialize(s)
    }
}

impl Method for Raw {
    fn identifier(&self) -> MethodId {
        self.method.into()
    }
}

impl Command for Raw {
    type Response = Value;
}

/// An open JavaScript dialog: the protocol's result type, as results name it.
pub use glovebox_protocol::results::browser::JsDialog as Dialog;

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

/// One browser connection.
pub struct Conn {
    pub port: u16,
    pub browser_id: String,
    browser: chromiumoxide::Browser,
    alive: Arc<AtomicBool>,
    /// Target ids in the order the daemon first saw them (tab_index order).
    order: Mutex<Vec<String>>,
    watches: Mutex<HashMap<String, Arc<TabWatch>>>,
    invalidator: Invalidator,
    events: SinkSlot,
    tasks: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    /// Sessions on cross-site frames (`frames.rs`).
    frames: Frames,
    /// The page targets the browser has open, kept by its target events.
    live: Arc<Mutex<std::collections::HashSet<String>>>,
    /// The policy inside the browser.
    guard: Arc<guard::Guard>,
    /// One action's input traced at a time (a trace is browser-wide).
    trace_turn: Arc<tokio::sync::Mutex<()>>,
    /// What happened in the browser, for the results of the actions that caused it.
    effects: Arc<super::effects::Log>,
    /// Each lane's context and each page's context (`contexts.rs`); used only in a browser
    /// with lanes (the daemon's own).
    contexts: Arc<super::contexts::Contexts>,
    lanes: bool,
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conn").field("port", &self.port).finish_non_exhaustive()
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        for t in lock(&self.tasks).drain(..) {
            t.abort();
        }
    }
}

/// Where a browser's DevTools are and how to tell it still runs.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// `chrome-<port>`: the relay's port for the daemon's own browser.
    pub port: u16,
    /// What chromiumoxide connects to.
    pub url: String,
    pub liveness: Liveness,
    /// Downloads of the daemon's own browser land here; another browser's settings are left
    /// alone.
    pub downloads: Option<std::path::PathBuf>,
    /// The bytes `downloads` may hold; older files go first when a download finishes.
    pub downloads_quota: u64,
}

#[derive(Debug, Clone)]
pub enum Liveness {
    /// The pipe relay's flag (the daemon's own browser).
    Pipe(watch::Receiver<bool>),
    /// An HTTP answer on the debugging port, not just a connect: a listening socket left in
    /// a dying process still completes handshakes.
    Port(u16),
}

impl Liveness {
    async fn alive(&self) -> bool {
        match self {
            Liveness::Pipe(flag) => *flag.borrow(),
            Liveness::Port(port) => super::discovery::version(*port).await.is_ok(),
        }
    }
}

/// A tab's target as the browser lists it.
#[derive(Debug, Clone)]
pub struct TargetInfo {
    pub target_id: String,
    pub url: String,
    pub title: String,
    /// Its browser context's id.
    pub context: Option<String>,
}

impl Conn {
    /// Connects to the browser at `endpoint`.
    pub async fn connect(
        endpoint: Endpoint,
        invalidator: Invalidator,
        events: SinkSlot,
        guard: Arc<guard::Guard>,
        effects: Arc<super::effects::Log>,
    ) -> Result<Arc<Conn>, BrowserError> {
        let port = endpoint.port;
        let config = HandlerConfig { viewport: None, ..HandlerConfig::default() };
        let connect = chromiumoxide::Browser::connect_with_config(endpoint.url.clone(), config);
        let (browser, mut handler) = tokio::time::timeout(Duration::from_secs(10), connect)
            .await
            .map_err(|_| BrowserError::Unavailable(format!("chrome-{port} did not answer CDP")))?
            .map_err(|e| BrowserError::Unavailable(format!("chrome-{port}: {e}")))?;
        let alive = Arc::new(AtomicBool::new(true));
        let flag = alive.clone();
        let (gone, browser_id) = (events.clone(), format!("chrome-{port}"));
        let task = tokio::spawn(async move {
            // chromiumoxide's handler goes quiet instead of ending when the browser closes the
            // socket cleanly, so the browser is also checked every second.
            let mut probe = tokio::time::interval(Duration::from_secs(1));
            let mut misses = 0;
            let liveness = endpoint.liveness.clone();
            loop {
                tokio::select! {
                    ev = handler.next() => match ev {
                        None | Some(Err(chromiumoxide::error::CdpError::Ws(_))) => break,
                        Some(Err(e)) => tracing::debug!(%e, "cdp handler"),
                        Some(Ok(())) => {}
                    },
                    _ = probe.tick() => {
                        misses = if liveness.alive().await { 0 } else { misses + 1 };
                        if misses >= 2 {
                            break;
                        }
                    }
                }
            }
            flag.store(false, Ordering::SeqCst);
            // Sessions hear of it at once; the default browser restarts on the next call.
            gone.emit("browser.exited", json!({"browser_id": browser_id}));
        });
        let conn = Arc::new(Conn {
            port,
            browser_id: format!("chrome-{port}"),
            browser,
            alive,
            order: Mutex::new(Vec::new()),
            watches: Mutex::new(HashMap::new()),
            invalidator,
            events,
            tasks: Mutex::new(vec![task]),
            frames: Frames::default(),
            live: Arc::default(),
            guard: guard.clone(),
            trace_turn: Arc::default(),
            effects,
            contexts: Arc::default(),
            lanes: endpoint.downloads.is_some(),
        });
        conn.watch_browser(endpoint.downloads.as_deref(), endpoint.downloads_quota).await;
        let guard_tasks = guard.listen(&conn).await?;
        lock(&conn.tasks).extend(guard_tasks);
        let frame_tasks = conn.frames.listen(&conn.browser).await;
        lock(&conn.tasks).extend(frame_tasks);
        if let Some(task) = frames::follow(&conn).await {
            lock(&conn.tasks).push(task);
        }
        Ok(conn)
    }

    /// Tab and download events of the whole browser. Downloads are allowed into `downloads`
    /// (the daemon's own browser; another's download settings are left alone).
    async fn watch_browser(self: &Arc<Self>, downloads: Option<&std::path::Path>, quota: u64) {
        let id = self.browser_id.clone();
        let (slot, slot2, slot3) = (self.events.clone(), self.events.clone(), self.events.clone());
        let mut tasks = Vec::new();
        let pages = self.live.clone();
        let open = self.targets().await.unwrap_or_default();
        lock(&pages).extend(open.into_iter().map(|t| t.target_id));
        let (contexts, contexts2) = (self.contexts.clone(), self.contexts.clone());
        let created = self.browser.event_listener::<EventTargetCreated>().await;
        let destroyed = self.browser.event_listener::<EventTargetDestroyed>().await;
        if let (Ok(mut created), Ok(mut destroyed)) = (created, destroyed) {
            let (id1, pages1, log) = (id.clone(), pages.clone(), self.effects.clone());
            tasks.push(tokio::spawn(async move {
                while let Some(ev) = created.next().await {
                    let t = &ev.target_info;
                    let target: &str = t.target_id.as_ref();
                    if t.r#type == "page" {
                        let context = t.browser_context_id.as_ref().map(|c| c.as_ref());
                        contexts.note_target(target, context);
                    }
                    if t.r#type == "page" && lock(&pages1).insert(target.to_owned()) {
                        let opened = Effect::Opened { url: t.url.clone() };
                        log.push(&id1, Some(tab_id_of(target)), opened);
                        let opener = t.opener_id.as_ref().map(|o| tab_id_of(o.as_ref()));
                        slot.emit(
                            "tab.created",
                            json!({"browser_id": id1, "tab_id": tab_id_of(target),
                            "url": t.url, "opener_tab_id": opener}),
                        );
                    }
                }
            }));
            let id2 = id.clone();
            tasks.push(tokio::spawn(async move {
                while let Some(ev) = destroyed.next().await {
                    let target: &str = ev.target_id.as_ref();
                    contexts2.forget_target(target);
                    if lock(&pages).remove(target) {
                        slot2.emit(
                            "tab.closed",
                            json!({"browser_id": id2, "tab_id": tab_id_of(target)}),
                        );
                    }
                }
            }));
        }
        let Some(downloads) = downloads else {
            lock(&self.tasks).extend(tasks);
            return;
        };
        let _ = std::fs::create_dir_all(downloads);
        // Saved under its guid, then moved to a name of its own (`downloads.rs`).
        let allow =
            json!({"behavior": "allowAndName", "downloadPath": downloads, "eventsEnabled": true});
        if self.call("Browser.setDownloadBehavior", allow).await.is_ok() {
            let begins = self.browser.event_listener::<EventDownloadWillBegin>().await;
            let progress = self.browser.event_listener::<EventDownloadProgress>().await;
            if let (Ok(mut begins), Ok(mut progress)) = (begins, progress) {
                let names: Arc<Mutex<HashMap<String, Started>>> = Arc::default();
                let names2 = names.clone();
                // Told when a start is handled: an end may come before its start was.
                let started = Arc::new(tokio::sync::Notify::new());
                let started_tx = started.clone();
                let (log, log2, dir2, id2, live) = (
                    self.effects.clone(),
                    self.effects.clone(),
                    downloads.to_path_buf(),
                    id.clone(),
                    self.live.clone(),
                );
                let (contexts3, weak) = (self.contexts.clone(), Arc::downgrade(self));
                tasks.push(tokio::spawn(async move {
                    while let Some(ev) = begins.next().await {
                        // A tab's own frame id is its target id; a frame inside it is looked
                        // for in the tabs' frame trees.
                        let frame: &str = ev.frame_id.as_ref();
                        let target = match lock(&live).contains(frame) {
                            true => Some(frame.to_owned()),
                            false => None,
                        };
                        let target = match (target, weak.upgrade()) {
                            (Some(t), _) => Some(t),
                            (None, Some(conn)) => conn.target_of_frame(frame).await,
                            (None, None) => None,
                        };
                        let tab = target.as_deref().map(tab_id_of);
                        // Saved in the dir of its tab's lane (`contexts.rs`).
                        let lane = target.as_deref().and_then(|t| contexts3.lane_of_target(t));
                        let dir = super::contexts::Contexts::dir_of(&dir2, lane.as_deref());
                        let reserved =
                            super::downloads::reserve(&dir, &ev.suggested_filename, &ev.guid);
                        let path = reserved.display().to_string();
                        lock(&names2)
                            .insert(ev.guid.clone(), (ev.url.clone(), reserved, tab.clone()));
                        started_tx.notify_waiters();
                        let d = Effect::Download {
                            guid: ev.guid.clone(),
                            url: ev.url.clone(),
                            path,
                            state: "in_progress".into(),
                            bytes: 0,
                            reason: None,
                        };
                        log.push(&id2, tab, d);
                    }
                }));
                let (root, contexts4) = (downloads.to_path_buf(), self.contexts.clone());
                let conn = Arc::downgrade(self);
                tasks.push(tokio::spawn(async move {
                    // Downloads canceled for being larger than the whole quota.
                    let mut over = std::collections::HashSet::new();
                    while let Some(ev) = progress.next().await {
                        if ev.state == DownloadProgressState::InProgress {
                            // A file larger than the quota could never stay: it goes as soon
                            // as its size (announced or received) says so, not once the disk
                            // holds it whole.
                            let size = ev.total_bytes.max(ev.received_bytes) as u64;
                            if size > quota && over.insert(ev.guid.clone()) {
                                tracing::info!(size, quota, "canceling a download: over the downloads quota");
                                if let Some(conn) = conn.upgrade() {
                                    // A lane's download is canceled in its context: the one
                                    // its reserved dir names, else each context in turn (its
                                    // start may not have been handled yet).
                                    let lane = lock(&names).get(&ev.guid).and_then(|s| {
                                        let dir = s.1.parent()?;
                                        (dir != root).then(|| dir.file_name())?.map(|n| n.to_string_lossy().into_owned())
                                    });
                                    let tries = match lane.and_then(|l| contexts4.context_of_lane(&l)) {
                                        Some(c) => vec![Some(c)],
                                        None => contexts4.all().into_iter().map(Some).chain(std::iter::once(None)).collect(),
                                    };
                                    let mut failed = None;
                                    for context in tries {
                                        let mut cancel = json!({"guid": ev.guid});
                                        if let Some(c) = context {
                                            cancel["browserContextId"] = json!(c);
                                        }
                                        match conn.call("Browser.cancelDownload", cancel).await {
                                            Ok(_) => {
                                                failed = None;
                                                break;
                                            }
                                            Err(e) => failed = Some(e),
                                        }
                                    }
                                    if let Some(e) = failed {
                                        tracing::warn!(%e, "cannot cancel a download over the quota");
                                    }
                                }
                            }
                            continue;
                        }
                        let (url, reserved, tab) =
                            started_entry(&names, &started, &ev.guid).await;
                        let completed = ev.state == DownloadProgressState::Completed;
                        // Where Chromium saved it: the reserved path's dir, else whichever
                        // lane's dir holds its guid.
                        let reserved =
                            if reserved.as_os_str().is_empty() { root.join(&ev.guid) } else { reserved };
                        let at = |d: &std::path::Path| d.join(&ev.guid).exists();
                        let first = reserved.parent().unwrap_or(&root).to_path_buf();
                        let dir = match at(&first) {
                            true => first,
                            false => contexts4.dirs(&root).into_iter().find(|d| at(d)).unwrap_or(first),
                        };
                        let reserved = match reserved.parent() == Some(dir.as_path()) {
                            true => reserved,
                            false => {
                                let name = reserved.file_name().map(|n| n.to_string_lossy().into_owned());
                                super::downloads::release(&reserved);
                                super::downloads::reserve(&dir, &name.unwrap_or_default(), &ev.guid)
                            }
                        };
                        let state = if completed { "completed" } else { "canceled" };
                        // Where the file is: its name, or its guid when it could not move.
                        let path = match super::downloads::finish(&dir, &ev.guid, &reserved, completed) {
                            Ok(()) => reserved,
                            Err(e) => {
                                tracing::warn!(%e, "a finished download kept its guid as its name");
                                dir.join(&ev.guid)
                            }
                        };
                        let path = path.to_string_lossy().into_owned();
                        let bytes = ev.received_bytes as u64;
                        crate::files::trim_to_quota(&dir, quota, Some(std::path::Path::new(&path)));
                        let reason = over.remove(&ev.guid).then_some("over_quota");
                        log2.download_progress(&ev.guid, state, bytes, Some(&path), reason);
                        // The tab (null when a frame started it) scopes who reads the path.
                        let mut finished = json!({"browser_id": id, "tab_id": tab,
                            "url": url, "path": path, "state": state,
                            "bytes": ev.received_bytes});
                        if let Some(why) = reason {
                            finished["reason"] = json!(why);
                        }
                        slot3.emit("download.finished", finished);
                    }
                }));
            }
        }
        lock(&self.tasks).extend(tasks);
    }

    /// Whether the browser has page `target_id` open, as its target events tell.
    pub fn has_page(&self, target_id: &str) -> bool {
        lock(&self.live).contains(target_id)
    }

    pub fn is_alive(&self) -> bool {
        self.alive.load(Ordering::SeqCst)
    }

    /// Whether the browser keeps each lane in a context of its own (the daemon's own).
    pub fn has_lanes(&self) -> bool {
        self.lanes
    }

    pub fn contexts(&self) -> &super::contexts::Contexts {
        &self.contexts
    }

    pub(super) fn browser(&self) -> &chromiumoxide::Browser {
        &self.browser
    }

    /// Whose turn it is to trace the browser.
    pub(super) fn trace_turn(&self) -> Arc<tokio::sync::Mutex<()>> {
        self.trace_turn.clone()
    }

    pub fn guard(&self) -> &guard::Guard {
        &self.guard
    }

    pub fn effects(&self) -> &super::effects::Log {
        &self.effects
    }

    pub(super) fn events_slot(&self) -> SinkSlot {
        self.events.clone()
    }

    /// The tab a frame belongs to: a tab's own frame id is its target id; a frame inside it
    /// is found in the frame trees of the tabs the daemon watches.
    pub async fn tab_of_frame(&self, frame_id: &str) -> Option<String> {
        self.target_of_frame(frame_id).await.map(|t| tab_id_of(&t))
    }

    /// The page target a frame belongs to (see [`Conn::tab_of_frame`]).
    pub async fn target_of_frame(&self, frame_id: &str) -> Option<String> {
        if let Ok(targets) = self.targets().await {
            if targets.iter().any(|t| t.target_id == frame_id) {
                return Some(frame_id.to_owned());
            }
        }
        let watched: Vec<String> = lock(&self.watches).keys().cloned().collect();
        for target in watched {
            let Ok(page) = self.browser.get_page(TargetId::from(target.clone())).await else {
                continue;
            };
            let tree = page.execute(Raw::new("Page.getFrameTree", json!({}))).await;
            let mut ids = std::collections::HashSet::new();
            if let Ok(tree) = tree {
                guard::frame_ids(&tree.result["frameTree"], &mut ids);
            }
            if ids.contains(frame_id) {
                return Some(target);
            }
        }
        None
    }

    /// A browser-level command.
    pub async fn call(&self, method: &'static str, params: Value) -> Result<Value, BrowserError> {
        if !self.is_alive() {
            return Err(self.gone());
        }
        let fut = self.browser.execute(Raw::new(method, params));
        match tokio::time::timeout(Duration::from_secs(20), fut).await {
            Ok(Ok(r)) => Ok(r.result),
            Ok(Err(e)) => {
                Err(BrowserError::from_cdp(method, &e, self.is_alive(), &self.browser_id))
            }
            Err(_) => Err(BrowserError::Failed(format!("{method} got no answer in 20 s"))),
        }
    }

    pub(super) fn frames(&self) -> &Frames {
        &self.frames
    }

    pub fn gone(&self) -> BrowserError {
        BrowserError::Unavailable(format!("{} closed its DevTools connection", self.browser_id))
    }

    /// The page targets (tabs), in the order the daemon first saw them.
    pub async fn targets(&self) -> Result<Vec<TargetInfo>, BrowserError> {
        let r = self.call("Target.getTargets", json!({})).await?;
        let infos = r["targetInfos"].as_array().cloned().unwrap_or_default();
        let mut tabs: Vec<TargetInfo> = infos
            .iter()
            .filter(|t| t["type"] == "page")
            .map(|t| TargetInfo {
                target_id: t["targetId"].as_str().unwrap_or_default().to_owned(),
                url: t["url"].as_str().unwrap_or_default().to_owned(),
                title: t["title"].as_str().unwrap_or_default().to_owned(),
                context: t["browserContextId"].as_str().map(str::to_owned),
            })
            .collect();
        for t in &tabs {
            self.contexts.note_target(&t.target_id, t.context.as_deref());
        }
        let mut order = lock(&self.order);
        // Newly seen targets are appended in the browser's order (reversed: it lists the
        // newest first).
        for t in tabs.iter().rev() {
            if !order.contains(&t.target_id) {
                order.push(t.target_id.clone());
            }
        }
        order.retain(|id| tabs.iter().any(|t| &t.target_id == id));
        let pos = |id: &str| order.iter().position(|o| o == id).unwrap_or(usize::MAX);
        tabs.sort_by_key(|t| pos(&t.target_id));
        Ok(tabs)
    }

    /// The chromiumoxide page of a target, waiting (bounded) until it is attached, and the
    /// watchers of the tab.
    pub async fn page(&self, target_id: &str) -> Result<(Page, Arc<TabWatch>), BrowserError> {
        let deadline = Instant::now() + Duration::from_secs(10);
        let page = loop {
            if !self.is_alive() {
                return Err(self.gone());
            }
            match self.browser.get_page(TargetId::from(target_id.to_owned())).await {
                Ok(p) => break p,
                Err(_) if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(25)).await;
                }
                Err(e) => {
                    return Err(BrowserError::Failed(format!(
                        "cannot attach to tab {target_id}: {e}"
                    )))
                }
            }
        };
        let existing = lock(&self.watches).get(target_id).cloned();
        let watch = match existing {
            Some(w) => w,
            None => self.watch(&page, target_id).await?,
        };
        Ok((page, watch))
    }

    async fn watch(&self, page: &Page, target_id: &str) -> Result<Arc<TabWatch>, BrowserError> {
        let cdp = |e| BrowserError::Failed(format!("cannot watch tab {target_id}: {e}"));
        let mut navs = page.event_listener::<EventFrameNavigated>().await.map_err(cdp)?;
        let mut opens = page.event_listener::<EventJavascriptDialogOpening>().await.map_err(cdp)?;
        let mut closes = page.event_listener::<EventJavascriptDialogClosed>().await.map_err(cdp)?;
        let mut sent = page.event_listener::<EventRequestWillBeSent>().await.map_err(cdp)?;
        let mut done = page.event_listener::<EventLoadingFinished>().await.map_err(cdp)?;
        let mut failed = page.event_listener::<EventLoadingFailed>().await.map_err(cdp)?;
        let mut sockets = page.event_listener::<EventWebSocketCreated>().await.map_err(cdp)?;
        let mut choosers = page.event_listener::<EventFileChooserOpened>().await.map_err(cdp)?;
        let mut crashes = page.event_listener::<EventTargetCrashed>().await.map_err(cdp)?;
        let mut revived =
            page.event_listener::<EventTargetReloadedAfterCrash>().await.map_err(cdp)?;
        let (crash_tx, crash_rx) = watch::channel(false);
        let (nav_tx, nav_rx) = watch::channel(0u64);
        let (dialog_tx, dialog_rx) = watch::channel(None);
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
                for t in instrument_tasks {
                    t.abort();
                }
                return Ok(other.clone());
            }
            watches.insert(target_id.to_owned(), w.clone());
        }
        lock(&self.tasks).extend(instrument_tasks);
        let tab_id = tab_id_of(target_id);
        let key = super::target_key(&self.browser_id, &tab_id);
        let who = json!({"browser_id": self.browser_id, "tab_id": tab_id});
        let invalidator = self.invalidator.clone();
        let (events, events2) = (self.events.clone(), self.events.clone());
        let (log, browser_id, nav_tab) =
            (self.effects.clone(), self.browser_id.clone(), tab_id.clone());
        let mut tab = who.clone();
        let t1 = tokio::spawn(async move {
            while let Some(ev) = navs.next().await {
                if ev.frame.parent_id.is_some() {
                    continue;
                }
                let url = ev.frame.url.clone();
                log.push(&browser_id, Some(nav_tab.clone()), Effect::Navigated { url });
                let reason = format!("the tab navigated to {}", ev.frame.url);
                if let Some(f) = lock(&invalidator).clone() {
                    f(&key, &reason);
                }
                nav_tx.send_modify(|n| *n += 1);
                tab["url"] = json!(ev.frame.url);
                events.emit("navigated", tab.clone());
            }
        });
        let dtx = dialog_tx.clone();
        let mut tab = who;
        let t2 = tokio::spawn(async move {
            while let Some(ev) = opens.next().await {
                let d = Dialog {
                    kind: format!("{:?}", ev.r#type).to_lowercase(),
                    message: ev.message.clone(),
                    default_prompt: ev.default_prompt.clone(),
                };
                tab["dialog"] = json!(d);
                events2.emit("dialog.opened", tab.clone());
                dtx.send_replace(Some(d));
            }
        });
        let t3 = tokio::spawn(async move {
            while closes.next().await.is_some() {
                dialog_tx.send_replace(None);
            }
        });
        let n1 = net.clone();
        let main_frame = target_id.to_owned();
        let t4 = tokio::spawn(async move {
            while let Some(ev) = sent.next().await {
                // A frame's document (the tab's own frame id is its target id).
                let document = ev.r#type == Some(ResourceType::Document);
                let frame = ev.frame_id.as_ref().map(|f| f.inner().clone());
                let frame = frame.filter(|f| document && *f != main_frame);
                n1.started(ev.request_id.inner().clone(), &ev.request.url, frame, false);
            }
        });
        let n2 = net.clone();
        let t5 = tokio::spawn(async move {
            while let Some(ev) = done.next().await {
                n2.finished(ev.request_id.inner());
            }
        });
        let t6 = tokio::spawn(async move {
            while let Some(ev) = failed.next().await {
                net.finished(ev.request_id.inner());
            }
        });
        // A WebSocket the egress proxy refuses (its handshake never reaches `Fetch`) is named
        // here, where its tab is known, judged as the proxy judges its connection.
        let (guard, log, events) = (self.guard.clone(), self.effects.clone(), self.events.clone());
        let (browser_id, ws_tab) = (self.browser_id.clone(), tab_id.clone());
        let t7 = tokio::spawn(async move {
            while let Some(ev) = sockets.next().await {
                let Some(judged) = super::egress::judged_url(&ev.url) else { continue };
                let guard::Verdict::Deny { rule } = guard.verdict(&judged) else { continue };
                let url = ev.url.clone();
                events.emit(
                    "navigation_blocked",
                    json!({"browser_id": browser_id, "tab_id": ws_tab, "url": url,
                           "rule": rule, "kind": "websocket"}),
                );
                let blocked = Effect::Blocked { url, rule, channel: Some("websocket") };
                log.push(&browser_id, Some(ws_tab.clone()), blocked);
            }
        });
        let (log, browser_id) = (self.effects.clone(), self.browser_id.clone());
        let t8 = tokio::spawn(async move {
            while let Some(ev) = choosers.next().await {
                let multiple = ev.mode == FileChooserOpenedMode::SelectMultiple;
                log.push(&browser_id, Some(tab_id.clone()), Effect::FileChooser { multiple });
            }
        });
        // A dead renderer answers no command: waiting ones end at once (`Tab::cmd`).
        let t9 = tokio::spawn(async move {
            loop {
                let dead = tokio::select! {
                    c = crashes.next() => c.map(|_| true),
                    r = revived.next() => r.map(|_| false),
                };
                let Some(dead) = dead else { break };
                crash_tx.send_replace(dead);
            }
        });
        lock(&self.tasks).extend([t1, t2, t3, t4, t5, t6, t7, t8, t9]);
        let _ = page.execute(InspectorEnable::default()).await;
        // The DOM agent lets DOM.* calls address nodes by backend id.
        let _ = page.execute(Raw::new("DOM.enable", json!({}))).await;
        // A file chooser the page opens is reported, not shown: a native dialog on the
        // desktop would sit outside every tab capture and every result.
        let intercept = json!({"enabled": true});
        let _ = page.execute(Raw::new("Page.setInterceptFileChooserDialog", intercept)).await;
        Ok(w)
    }

    /// Target ids of the tabs seen so far.
    /// A tab the daemon already watches and the browser has not closed, without asking the
    /// browser for its targets: its target id, page handle and watch.
    pub async fn watched(&self, tab_id: &str) -> Option<(String, Page, Arc<TabWatch>)> {
        let target = {
            let live = lock(&self.live);
            let watches = lock(&self.watches);
            watches.keys().find(|t| tab_id_of(t) == tab_id && live.contains(*t)).cloned()
        }?;
        let page = self.browser.get_page(TargetId::from(target.clone())).await.ok()?;
        let watch = lock(&self.watches).get(&target).cloned()?;
        Some((target, page, watch))
    }

    /// Tab ids the browser has open now, from its target events (no round trip).
    pub fn live_tabs(&self) -> Vec<String> {
        lock(&self.live).iter().map(|t| tab_id_of(t)).collect()
    }

    pub fn known_tabs(&self) -> Vec<String> {
        lock(&self.order).clone()
    }

    /// The watches of every tab the daemon watches.
    pub fn watches(&self) -> Vec<Arc<TabWatch>> {
        lock(&self.watches).values().cloned().collect()
    }

    /// The watch of the tab `target_id`, when the daemon watches it.
    pub(super) fn watch_of(&self, target_id: &str) -> Option<Arc<TabWatch>> {
        lock(&self.watches).get(target_id).cloned()
    }

    pub fn forget(&self, target_id: &str) {
        lock(&self.watches).remove(target_id);
    }
}
