//! One browser context per party in the daemon's own browser: a party's cookies, storage,
//! cache, permissions and downloads are its own, and so are its tabs. A lane is a party (the
//! tokens whose token file lines name it, else one token) or a session that asked for a
//! context of its own. Tabs of Chromium's default context (the person's, on the desktop)
//! belong to no lane: admins and the view page see them. Browsers the operator allowed
//! (`--browser-allow`) are shared as they are: their profile is why they were allowed.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use chromiumoxide::cdp::browser_protocol::browser::{
    SetDownloadBehaviorBehavior, SetDownloadBehaviorParams,
};
use chromiumoxide::cdp::browser_protocol::target::CreateBrowserContextParams;

use super::cdp::TargetInfo;
use super::profiles::{Profile, StorageState};
use super::{BrowserError, Browsers, Conn};

/// The lane a caller browses in, and whether it sees every lane's tabs (admins).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lane {
    /// 16 hex digits: the party's, the profile's or the session's short hash.
    pub key: String,
    pub all: bool,
    /// The party's named profile it is, kept on disk (`profiles.rs`).
    pub profile: Option<Profile>,
}

/// The contexts of one connection to the daemon's own browser (a restarted browser starts
/// with none), and the context of each page it has open.
#[derive(Debug, Default)]
pub struct Contexts {
    /// Lane key -> context id.
    ids: Mutex<HashMap<String, String>>,
    /// Page target id -> context id, from the browser's target events.
    targets: Mutex<HashMap<String, String>>,
    /// One context made at a time, so two first calls of a lane share one.
    turn: tokio::sync::Mutex<()>,
    /// Origins whose localStorage a lane's state holds (saved or loaded), by lane.
    origins: Mutex<HashMap<String, BTreeSet<String>>>,
    /// The lanes that are profiles, with their context.
    profiles: Mutex<HashMap<String, (Lane, String)>>,
    /// A profile's saved localStorage, set through its context's first tab.
    pending: Mutex<HashMap<String, StorageState>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Contexts {
    /// The lane whose context `context` is, if it is one of the lanes'.
    pub fn lane_of_context(&self, context: &str) -> Option<String> {
        lock(&self.ids).iter().find(|(_, c)| *c == context).map(|(l, _)| l.clone())
    }

    /// The lane of page `target`'s context (`None`: the default context, or not known).
    pub fn lane_of_target(&self, target: &str) -> Option<String> {
        let context = lock(&self.targets).get(target).cloned()?;
        self.lane_of_context(&context)
    }

    /// The lane of the tab `tab` (a tab id: its target's first 8 characters).
    pub fn lane_of_tab(&self, tab: &str) -> Option<String> {
        let targets = lock(&self.targets);
        let context = targets.iter().find(|(t, _)| super::tab_id_of(t) == tab)?.1.clone();
        drop(targets);
        self.lane_of_context(&context)
    }

    /// A page target was seen in `context`.
    pub fn note_target(&self, target: &str, context: Option<&str>) {
        if let Some(c) = context {
            lock(&self.targets).insert(target.to_owned(), c.to_owned());
        }
    }

    pub fn forget_target(&self, target: &str) {
        lock(&self.targets).remove(target);
    }

    /// Where the downloads of a page of lane `lane` go under the browser's downloads root.
    pub fn dir_of(root: &Path, lane: Option<&str>) -> PathBuf {
        match lane {
            Some(l) => root.join(l),
            None => root.to_path_buf(),
        }
    }

    /// Every downloads dir of this browser: the root's and each lane's.
    pub fn dirs(&self, root: &Path) -> Vec<PathBuf> {
        let mut dirs = vec![root.to_path_buf()];
        dirs.extend(lock(&self.ids).keys().map(|l| root.join(l)));
        dirs
    }

    /// The origins a lane's state held.
    pub fn origins(&self, lane: &str) -> BTreeSet<String> {
        lock(&self.origins).get(lane).cloned().unwrap_or_default()
    }

    pub fn add_origins(&self, lane: &str, origins: impl Iterator<Item = String>) {
        lock(&self.origins).entry(lane.to_owned()).or_default().extend(origins);
    }

    /// Every profile lane with its context.
    pub fn profiles(&self) -> Vec<(Lane, String)> {
        lock(&self.profiles).values().cloned().collect()
    }

    /// The saved localStorage still to set in `lane`'s context, once.
    pub fn take_pending(&self, lane: &str) -> Option<StorageState> {
        lock(&self.pending).remove(lane)
    }

    /// Every lane's context.
    pub fn all(&self) -> Vec<String> {
        lock(&self.ids).values().cloned().collect()
    }

    /// The context of lane `lane`, if it has one yet.
    pub fn context_of_lane(&self, lane: &str) -> Option<String> {
        self.known(lane)
    }

    fn known(&self, lane: &str) -> Option<String> {
        lock(&self.ids).get(lane).cloned()
    }
}

impl TargetInfo {
    /// Whether `lane` sees this tab: its own lane's, or every tab for admins.
    pub fn seen_by(&self, conn: &Conn, lane: &Lane) -> bool {
        lane.all || !conn.has_lanes() || self.lane(conn).as_deref() == Some(lane.key.as_str())
    }

    /// The lane whose tab this is (`None`: the default context's, or a shared browser's).
    pub fn lane(&self, conn: &Conn) -> Option<String> {
        self.context.as_deref().and_then(|c| conn.contexts().lane_of_context(c))
    }
}

impl Browsers {
    /// The context of `lane` in the browser of `conn`, made on first use with its own
    /// downloads dir and the daemon's egress proxy; `None` for a browser without lanes.
    pub(super) async fn context_of(
        &self,
        conn: &Conn,
        lane: &Lane,
    ) -> Result<Option<String>, BrowserError> {
        if !conn.has_lanes() || lane.key.is_empty() {
            return Ok(None);
        }
        let contexts = conn.contexts();
        if let Some(id) = contexts.known(&lane.key) {
            return Ok(Some(id));
        }
        let _turn = contexts.turn.lock().await;
        if let Some(id) = contexts.known(&lane.key) {
            return Ok(Some(id));
        }
        let mut params =
            CreateBrowserContextParams { dispose_on_detach: Some(false), ..Default::default() };
        if let Some(proxy) = self.egress_proxy() {
            params.proxy_server = Some(proxy);
            params.proxy_bypass_list = Some("<-loopback>".into());
        }
        let id: String = conn.run(params).await?.browser_context_id.into();
        if id.is_empty() {
            return Err(BrowserError::BadAnswer("the browser made no context id".into()));
        }
        let dir = Contexts::dir_of(&self.downloads_dir(), Some(&lane.key));
        let _ = std::fs::create_dir_all(&dir);
        let mut allow = SetDownloadBehaviorParams::new(SetDownloadBehaviorBehavior::AllowAndName);
        allow.download_path = Some(dir.display().to_string());
        allow.events_enabled = Some(true);
        allow.browser_context_id = Some(id.clone().into());
        conn.run(allow).await?;
        // A profile comes back as it was saved: its cookies now, its localStorage through
        // its first tab.
        if let Some(p) = &lane.profile {
            if let Some(saved) = self.saved_profile(p) {
                saved.write_cookies(conn, &id).await?;
                contexts.add_origins(&lane.key, saved.origin_names());
                lock(&contexts.pending).insert(lane.key.clone(), saved);
            }
            lock(&contexts.profiles).insert(lane.key.clone(), (lane.clone(), id.clone()));
        }
        lock(&contexts.ids).insert(lane.key.clone(), id.clone());
        tracing::debug!(lane = %lane.key, "a browser context for a new lane");
        Ok(Some(id))
    }
}
