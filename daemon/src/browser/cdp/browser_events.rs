//! Events of the whole browser: tabs opened and closed (kept in the connection's live set,
//! told to sessions, logged as effects), and the daemon's own browser's downloads: each
//! saved under its guid in its lane's dir, moved to a name of its own when it ends
//! (`downloads.rs`), canceled as soon as its size is over the whole quota.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::browser::{
    CancelDownloadParams, DownloadProgressState, EventDownloadProgress, EventDownloadWillBegin,
    SetDownloadBehaviorBehavior, SetDownloadBehaviorParams,
};
use chromiumoxide::cdp::browser_protocol::target::{EventTargetCreated, EventTargetDestroyed};
use futures::StreamExt;
use serde_json::json;
use tokio::task::JoinHandle;

use super::super::contexts::Contexts;
use super::super::effects::{Effect, Log};
use super::super::{downloads, lock, tab_id_of};
use super::Conn;
use crate::events::SinkSlot;

/// A download the browser announced: its URL, the path reserved for it and the tab that
/// started it.
type Started = (String, PathBuf, Option<String>);

/// How long the end of a download waits for its start to be handled (the two come on two
/// event streams).
const START_WAIT: Duration = Duration::from_secs(2);

impl Conn {
    /// Tab and download events of the whole browser. Downloads are allowed into `downloads`
    /// (the daemon's own browser; another's download settings are left alone).
    pub(super) async fn watch_browser(self: &Arc<Self>, downloads: Option<&Path>, quota: u64) {
        let open = self.targets().await.unwrap_or_default();
        lock(&self.live).extend(open.into_iter().map(|t| t.target_id));
        let mut tasks = self.watch_targets().await;
        if let Some(dir) = downloads {
            tasks.extend(self.watch_downloads(dir, quota).await);
        }
        lock(&self.tasks).extend(tasks);
    }

    /// Pages created and destroyed: `tab.created` / `tab.closed`, and an `Opened` effect.
    async fn watch_targets(&self) -> Vec<JoinHandle<()>> {
        let created = self.browser.event_listener::<EventTargetCreated>().await;
        let destroyed = self.browser.event_listener::<EventTargetDestroyed>().await;
        let (Ok(mut created), Ok(mut destroyed)) = (created, destroyed) else { return Vec::new() };
        let (id, pages, log) = (self.browser_id.clone(), self.live.clone(), self.effects.clone());
        let (contexts, slot) = (self.contexts.clone(), self.events.clone());
        let on_created = tokio::spawn(async move {
            while let Some(ev) = created.next().await {
                let t = &ev.target_info;
                let target: &str = t.target_id.as_ref();
                if t.r#type != "page" {
                    continue;
                }
                contexts.note_target(target, t.browser_context_id.as_ref().map(|c| c.as_ref()));
                if lock(&pages).insert(target.to_owned()) {
                    log.push(&id, Some(tab_id_of(target)), Effect::Opened { url: t.url.clone() });
                    let opener = t.opener_id.as_ref().map(|o| tab_id_of(o.as_ref()));
                    slot.emit(
                        "tab.created",
                        json!({"browser_id": id, "tab_id": tab_id_of(target),
                        "url": t.url, "opener_tab_id": opener}),
                    );
                }
            }
        });
        let (id, pages) = (self.browser_id.clone(), self.live.clone());
        let (contexts, slot) = (self.contexts.clone(), self.events.clone());
        let on_destroyed = tokio::spawn(async move {
            while let Some(ev) = destroyed.next().await {
                let target: &str = ev.target_id.as_ref();
                if lock(&pages).remove(target) {
                    slot.emit("tab.closed", json!({"browser_id": id, "tab_id": tab_id_of(target)}));
                }
                // After the event, which names the tab's lane.
                contexts.forget_target(target);
            }
        });
        vec![on_created, on_destroyed]
    }

    /// Downloads into `dir` (each lane's in its own dir under it), at most `quota` bytes.
    async fn watch_downloads(self: &Arc<Self>, dir: &Path, quota: u64) -> Vec<JoinHandle<()>> {
        let _ = std::fs::create_dir_all(dir);
        // Saved under its guid, then moved to a name of its own (`downloads.rs`).
        let allow = SetDownloadBehaviorParams::builder()
            .behavior(SetDownloadBehaviorBehavior::AllowAndName)
            .download_path(dir.display().to_string())
            .events_enabled(true)
            .build();
        let Ok(allow) = allow else { return Vec::new() };
        if self.run(allow).await.is_err() {
            return Vec::new();
        }
        let begins = self.browser.event_listener::<EventDownloadWillBegin>().await;
        let progress = self.browser.event_listener::<EventDownloadProgress>().await;
        let (Ok(mut begins), Ok(mut progress)) = (begins, progress) else { return Vec::new() };
        let w = Arc::new(Downloads {
            root: dir.to_path_buf(),
            quota,
            names: Mutex::default(),
            started: tokio::sync::Notify::new(),
            browser_id: self.browser_id.clone(),
            log: self.effects.clone(),
            events: self.events.clone(),
            live: self.live.clone(),
            contexts: self.contexts.clone(),
            conn: Arc::downgrade(self),
        });
        let w2 = w.clone();
        let on_begin = tokio::spawn(async move {
            while let Some(ev) = begins.next().await {
                w.begun(&ev).await;
            }
        });
        let on_progress = tokio::spawn(async move {
            // Downloads canceled for being larger than the whole quota.
            let mut over = HashSet::new();
            while let Some(ev) = progress.next().await {
                if ev.state == DownloadProgressState::InProgress {
                    w2.check_size(&ev, &mut over).await;
                } else {
                    w2.ended(&ev, over.remove(&ev.guid)).await;
                }
            }
        });
        vec![on_begin, on_progress]
    }
}

/// The daemon's own browser's downloads, as its two download event streams tell them.
struct Downloads {
    root: PathBuf,
    quota: u64,
    /// Downloads begun and not ended, by guid.
    names: Mutex<HashMap<String, Started>>,
    /// Told when a start is handled: an end may come before its start was.
    started: tokio::sync::Notify,
    browser_id: String,
    log: Arc<Log>,
    events: SinkSlot,
    live: Arc<Mutex<HashSet<String>>>,
    contexts: Arc<Contexts>,
    conn: Weak<Conn>,
}

impl Downloads {
    /// A download begins: a name is reserved for it in its tab's lane's dir.
    async fn begun(&self, ev: &EventDownloadWillBegin) {
        // A tab's own frame id is its target id; a frame inside it is looked for in the tabs'
        // frame trees.
        let frame: &str = ev.frame_id.as_ref();
        let here = lock(&self.live).contains(frame);
        let target = match (here, self.conn.upgrade()) {
            (true, _) => Some(frame.to_owned()),
            (false, Some(conn)) => conn.target_of_frame(frame).await,
            (false, None) => None,
        };
        let tab = target.as_deref().map(tab_id_of);
        // Saved in the dir of its tab's lane (`contexts.rs`).
        let lane = target.as_deref().and_then(|t| self.contexts.lane_of_target(t));
        let dir = Contexts::dir_of(&self.root, lane.as_deref());
        let reserved = downloads::reserve(&dir, &ev.suggested_filename, &ev.guid);
        let path = reserved.display().to_string();
        lock(&self.names).insert(ev.guid.clone(), (ev.url.clone(), reserved, tab.clone()));
        self.started.notify_waiters();
        let d = Effect::Download {
            guid: ev.guid.clone(),
            url: ev.url.clone(),
            path,
            state: "in_progress".into(),
            bytes: 0,
            reason: None,
        };
        self.log.push(&self.browser_id, tab, d);
    }

    /// The start of download `guid` as handled, waiting (bounded) for it; empty when it never
    /// came.
    async fn started_entry(&self, guid: &str) -> Started {
        let deadline = tokio::time::Instant::now() + START_WAIT;
        loop {
            let told = self.started.notified();
            if let Some(s) = lock(&self.names).remove(guid) {
                return s;
            }
            if tokio::time::timeout_at(deadline, told).await.is_err() {
                return Started::default();
            }
        }
    }

    /// A file larger than the quota could never stay: it goes as soon as its size (announced
    /// or received) says so, not once the disk holds it whole.
    async fn check_size(&self, ev: &EventDownloadProgress, over: &mut HashSet<String>) {
        let size = ev.total_bytes.max(ev.received_bytes) as u64;
        if size <= self.quota || !over.insert(ev.guid.clone()) {
            return;
        }
        tracing::info!(size, quota = self.quota, "canceling a download: over the downloads quota");
        let Some(conn) = self.conn.upgrade() else { return };
        // A lane's download is canceled in its context: the one its reserved dir names, else
        // each context in turn (its start may not have been handled yet).
        let lane = lock(&self.names).get(&ev.guid).and_then(|s| {
            let dir = s.1.parent()?;
            (dir != self.root).then(|| dir.file_name())?.map(|n| n.to_string_lossy().into_owned())
        });
        let tries = match lane.and_then(|l| self.contexts.context_of_lane(&l)) {
            Some(c) => vec![Some(c)],
            None => self.contexts.all().into_iter().map(Some).chain([None]).collect(),
        };
        let mut failed = None;
        for context in tries {
            let mut cancel = CancelDownloadParams::new(ev.guid.clone());
            cancel.browser_context_id = context.map(Into::into);
            match conn.run(cancel).await {
                Ok(_) => return,
                Err(e) => failed = Some(e),
            }
        }
        if let Some(e) = failed {
            tracing::warn!(%e, "cannot cancel a download over the quota");
        }
    }

    /// A download ended (completed or canceled): its file gets its reserved name, the quota
    /// is kept, sessions hear `download.finished`.
    async fn ended(&self, ev: &EventDownloadProgress, over_quota: bool) {
        let (url, reserved, tab) = self.started_entry(&ev.guid).await;
        let completed = ev.state == DownloadProgressState::Completed;
        let reserved = match reserved.as_os_str().is_empty() {
            true => self.root.join(&ev.guid),
            false => reserved,
        };
        let dir = self.saved_in(&reserved, &ev.guid);
        let reserved = match reserved.parent() == Some(dir.as_path()) {
            true => reserved,
            false => {
                let name = reserved.file_name().map(|n| n.to_string_lossy().into_owned());
                downloads::release(&reserved);
                downloads::reserve(&dir, &name.unwrap_or_default(), &ev.guid)
            }
        };
        let state = if completed { "completed" } else { "canceled" };
        // Where the file is: its name, or its guid when it could not move.
        let path = match downloads::finish(&dir, &ev.guid, &reserved, completed) {
            Ok(()) => reserved,
            Err(e) => {
                tracing::warn!(%e, "a finished download kept its guid as its name");
                dir.join(&ev.guid)
            }
        };
        let path = path.to_string_lossy().into_owned();
        crate::files::trim_to_quota(&dir, self.quota, Some(Path::new(&path)));
        let reason = over_quota.then_some("over_quota");
        let bytes = ev.received_bytes as u64;
        self.log.download_progress(&ev.guid, state, bytes, Some(&path), reason);
        // The tab (null when a frame started it) scopes who reads the path.
        let mut finished = json!({"browser_id": self.browser_id, "tab_id": tab,
            "url": url, "path": path, "state": state, "bytes": ev.received_bytes});
        if let Some(why) = reason {
            finished["reason"] = json!(why);
        }
        self.events.emit("download.finished", finished);
    }

    /// Where Chromium saved download `guid`: the reserved path's dir, else whichever lane's
    /// dir holds its guid.
    fn saved_in(&self, reserved: &Path, guid: &str) -> PathBuf {
        let at = |d: &Path| d.join(guid).exists();
        let first = reserved.parent().unwrap_or(&self.root).to_path_buf();
        match at(&first) {
            true => first,
            false => self.contexts.dirs(&self.root).into_iter().find(|d| at(d)).unwrap_or(first),
        }
    }
}
