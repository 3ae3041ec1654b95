//! The CDP plumbing: one long-lived chromiumoxide connection per browser ([`Conn`]): its
//! commands, targets and pages. `handler.rs` drives chromiumoxide's handler (and reads what
//! it cannot parse); `tab_watch.rs` the per-tab watchers; `browser_events.rs` the browser's
//! tab and download events; `raw.rs` commands the crate lacks; `frames.rs` cross-site frames;
//! `guard.rs` the policy inside the browser.

mod browser_events;
pub mod frames;
pub mod guard;
mod handler;
mod raw;
mod tab_watch;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::GetFrameTreeParams;
use chromiumoxide::cdp::browser_protocol::target::{GetTargetsParams, TargetId};
use chromiumoxide::types::Command;
use chromiumoxide::Page;
use tokio::sync::watch;

use super::{lock, tab_id_of, BrowserError, Invalidator};
use crate::events::SinkSlot;
use frames::Frames;
pub use raw::Raw;
pub use tab_watch::{Aims, Listened, TabWatch};

/// An open JavaScript dialog: the protocol's result type, as results name it.
pub use glovebox_protocol::results::browser::JsDialog as Dialog;

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
        let connect =
            chromiumoxide::Browser::connect_with_config(endpoint.url.clone(), handler::config());
        let (browser, handler) = tokio::time::timeout(Duration::from_secs(10), connect)
            .await
            .map_err(|_| BrowserError::Unavailable(format!("chrome-{port} did not answer CDP")))?
            .map_err(|e| BrowserError::Unavailable(format!("chrome-{port}: {e}")))?;
        let alive = Arc::new(AtomicBool::new(true));
        let liveness = endpoint.liveness.clone();
        let browser_id = format!("chrome-{port}");
        let task = handler::drive(handler, liveness, alive.clone(), events.clone(), browser_id);
        let contexts: Arc<super::contexts::Contexts> = Arc::default();
        // A tab's event names its lane, so only that lane's tokens (and admins) get it.
        let lanes = contexts.clone();
        let events = events.through(move |data| {
            let tab = data.get("tab_id").and_then(|t| t.as_str());
            if let Some(lane) = tab.and_then(|t| lanes.lane_of_tab(t)) {
                data["lane"] = lane.into();
            }
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
            contexts,
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
            let tree = page.execute(GetFrameTreeParams::default()).await;
            let mut ids = std::collections::HashSet::new();
            if let Ok(tree) = tree {
                guard::frame_ids(&tree.result.frame_tree, &mut ids);
            }
            if ids.contains(frame_id) {
                return Some(target);
            }
        }
        None
    }

    /// A browser-level command, typed; at most 20 s.
    pub async fn run<C>(&self, cmd: C) -> Result<C::Response, BrowserError>
    where
        C: Command + Send,
        C::Response: Send,
    {
        if !self.is_alive() {
            return Err(self.gone());
        }
        let method = cmd.identifier();
        let fut = self.browser.execute(cmd);
        match tokio::time::timeout(Duration::from_secs(20), fut).await {
            Ok(Ok(r)) => Ok(r.result),
            Ok(Err(e)) => {
                Err(BrowserError::from_cdp(&method, &e, self.is_alive(), &self.browser_id))
            }
            Err(_) => Err(BrowserError::Timeout(format!("{method} got no answer in 20 s"))),
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
        let r = self.run(GetTargetsParams::default()).await?;
        let mut tabs: Vec<TargetInfo> = r
            .target_infos
            .into_iter()
            .filter(|t| t.r#type == "page")
            .map(|t| TargetInfo {
                target_id: t.target_id.into(),
                url: t.url,
                title: t.title,
                context: t.browser_context_id.map(Into::into),
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
                    return Err(BrowserError::NotReady(format!(
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
