//! The browser backend: Chromium instances over the Chrome DevTools Protocol.
//!
//! The daemon drives its own default Chromium, started on first use and again if it died,
//! whose DevTools are on a pipe only ([`pipe`]), plus the browsers an operator names with
//! `--browser-allow chrome-<port>`; no other Chromium on the host is listed or reachable.
//! One CDP connection per browser ([`cdp::Conn`]), each with the policy's [`cdp::guard::Guard`] on
//! every navigation; tabs are named by a stable id taken from their CDP target id, so a tab
//! keeps its id for its whole life, across daemon restarts too (tab marks rely on that).

pub mod actions;
pub mod annotate;
pub mod cdp;
mod contexts;
pub mod discovery;
mod downloads;
pub mod effects;
mod egress;
pub mod input;
pub mod launch;
pub mod pipe;
mod profiles;
mod ready;
pub mod sandbox;
pub mod settle;
pub mod snapshot;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;
use serde_json::{json, Value};

use crate::error::DaemonError;
use crate::process::Supervisor;

pub use actions::{ShotLimit, Tab};
use cdp::{Conn, TargetInfo};
pub use contexts::Lane;
pub use downloads::partial as partial_download;
pub use profiles::{Profile, StorageState};

/// Called with (target key, reason) whenever a tab's refs go stale (navigation, reload, a
/// restarted browser); dispatch points it at every session's snapshot registry.
pub type Invalidate = Arc<dyn Fn(&str, &str) + Send + Sync>;

/// The shared slot of the [`Invalidate`] hook.
pub type Invalidator = Arc<Mutex<Option<Invalidate>>>;

/// Everything the browser backend can fail with.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum BrowserError {
    #[error("{0}")]
    Unavailable(String),
    #[error("no {kind} {id}")]
    NotFound { kind: &'static str, id: String },
    #[error("{kind}s match {query:?}")]
    Ambiguous { kind: &'static str, query: String, candidates: Vec<Value> },
    #[error("{0}")]
    Failed(String),
    /// The tab's renderer process died: it answers nothing until reloaded.
    #[error("the tab's page crashed (its renderer process died)")]
    Crashed,
    #[error("{what} has no on-screen box")]
    NoGeometry { what: String },
    #[error("{what} cannot take text or a value")]
    NotEditable { what: String, available: Vec<String> },
    /// A press on a file input, which would open the file chooser.
    #[error("{what} is a file input")]
    FileInput { what: String },
    #[error("the element is gone: {0}")]
    Gone(String),
    /// The execution context a command named is gone (its document was replaced).
    #[error("{0}")]
    ContextGone(String),
    #[error("{action} is not possible: {reason}")]
    Unsupported { action: String, reason: String },
    /// The policy inside the browser stopped a load the action led to (a redirect, say).
    #[error("the browser's guard blocked {url}")]
    Blocked { url: String, rule: String },
    /// A JavaScript dialog was already open, so the command was not sent.
    #[error("a JavaScript {} dialog is open ({:?}); answer it with browser.dialog first", .0.kind, .0.message)]
    DialogOpen(cdp::Dialog),
    /// The answer was longer than the daemon may send (the relay let it go by unread).
    #[error("the answer has {size} bytes, over the limit of {limit}")]
    TooLarge { size: usize, limit: usize },
    /// A JavaScript dialog opened while the command ran (the command may still be pending).
    #[error("a JavaScript {} dialog opened: {:?}", .0.kind, .0.message)]
    DialogOpened(cdp::Dialog),
}

impl BrowserError {
    pub fn from_cdp(
        method: &str,
        e: &chromiumoxide::error::CdpError,
        alive: bool,
        browser_id: &str,
    ) -> Self {
        if !alive {
            return BrowserError::Unavailable(format!("{browser_id} is gone ({e})"));
        }
        // The relay's stand-in for an answer it let go by (`pipe/split.rs`), known by its code.
        if let chromiumoxide::error::CdpError::Chrome(c) = e {
            if let Some((size, limit)) = pipe::too_large(c) {
                return BrowserError::TooLarge { size, limit };
            }
        }
        BrowserError::answered(method, &e.to_string())
    }

    /// An error Chromium answered `method` with. A node or an execution context that is gone
    /// it says only in words: read here, once (for the tab's session and for a frame's), and
    /// typed from here on.
    pub fn answered(method: &str, text: &str) -> Self {
        if text.contains("No node with given id") || text.contains("Could not find node") {
            return BrowserError::Gone(text.to_owned());
        }
        if text.contains("Cannot find context") {
            return BrowserError::ContextGone(format!("{method}: {text}"));
        }
        BrowserError::Failed(format!("{method}: {text}"))
    }
}

impl From<BrowserError> for DaemonError {
    fn from(e: BrowserError) -> Self {
        match e {
            BrowserError::Unavailable(reason) => DaemonError::BackendUnavailable {
                backend: "browser",
                reason,
                remedy: "retry: the daemon's default browser restarts on the next call; a \
                         browser named by --browser-allow must be started again on its port"
                    .into(),
            },
            BrowserError::NotFound { kind, id } => DaemonError::TargetNotFound { kind, id },
            BrowserError::Ambiguous { kind, query, candidates } => {
                DaemonError::Ambiguous { kind, query, candidates }
            }
            BrowserError::Failed(m) | BrowserError::ContextGone(m) => DaemonError::ActionFailed(m),
            e @ BrowserError::Crashed => DaemonError::ActionFailed(format!(
                "{e}; browser.reload loads it again, browser.tab_close closes it"
            )),
            BrowserError::DialogOpen(d) => {
                DaemonError::DialogOpen { kind: d.kind, message: d.message }
            }
            BrowserError::TooLarge { size, limit } => DaemonError::ResultTooLarge { size, limit },
            e @ BrowserError::DialogOpened(_) => {
                DaemonError::ActionFailed(format!("{e}; answer it with browser.dialog"))
            }
            BrowserError::Blocked { url, rule } => DaemonError::ApprovalDenied {
                rule,
                by: format!("the policy inside the browser, which blocked {url}"),
            },
            BrowserError::NoGeometry { what } => DaemonError::NoGeometry { what },
            BrowserError::NotEditable { what, available } => {
                DaemonError::NotEditable { what, available }
            }
            BrowserError::FileInput { what } => DaemonError::FileInput { what },
            BrowserError::Gone(m) => DaemonError::StaleRef {
                r#ref: String::new(),
                reason: format!("the element is no longer in the page ({m})"),
                by: None,
            },
            BrowserError::Unsupported { action, reason } => DaemonError::Unsupported {
                tool: "browser".into(),
                action,
                reason,
                available: Vec::new(),
            },
        }
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The tab id of a CDP target id: its first 8 hex digits, stable for the tab's life.
pub fn tab_id_of(target_id: &str) -> String {
    target_id.chars().take(8).collect()
}

/// The key under which a session keeps a tab's snapshots and refs.
pub fn target_key(browser_id: &str, tab_id: &str) -> String {
    format!("{browser_id}/{tab_id}")
}

/// What was open and blocked before an action, to tell what the action caused.
#[derive(Debug, Clone, Default)]
pub struct EffectsMark {
    seq: u64,
    tabs: Vec<String>,
}

/// One browser as `list_browsers` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct BrowserInfo {
    pub browser_id: String,
    pub port: u16,
    pub pid: Option<u32>,
    pub default: bool,
    pub status: &'static str,
    pub version: String,
    pub tabs: usize,
}

/// One tab as `tab_list` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct TabInfo {
    pub tab_id: String,
    pub tab_index: usize,
    pub url: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<Value>,
    /// The lane whose tab it is, shown to admins (who see every lane's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

/// The daemon's own browser: its relay's port names it.
#[derive(Debug, Clone)]
struct DefaultChrome {
    port: u16,
    pid: u32,
    relay: Arc<pipe::Relay>,
}

/// Every Chromium the daemon knows, the default one started on demand.
pub struct Browsers {
    state_dir: PathBuf,
    supervisor: Supervisor,
    env: Vec<(String, String)>,
    program: String,
    default: tokio::sync::Mutex<Option<DefaultChrome>>,
    conns: tokio::sync::Mutex<BTreeMap<u16, Arc<Conn>>>,
    invalidator: Invalidator,
    events: crate::events::SinkSlot,
    marks: Mutex<()>,
    /// Restarts of the default browser so far.
    restarts: std::sync::atomic::AtomicU32,
    /// The policy inside every browser the daemon drives.
    guard: Arc<cdp::guard::Guard>,
    /// What happened in them, for results.
    effects: Arc<effects::Log>,
    /// Where the default browser's relay listens, kept across restarts (its id stays).
    relay_listener: tokio::sync::OnceCell<Arc<tokio::net::TcpListener>>,
    /// The proxy every connection of the default browser goes through (`egress.rs`).
    egress: tokio::sync::OnceCell<egress::Egress>,
    /// Debugging ports of browsers the operator allowed (`--browser-allow`).
    allowed: Mutex<Vec<u16>>,
    /// The bytes the state dir's `downloads/` may hold (downloads and PDFs).
    downloads_quota: std::sync::atomic::AtomicU64,
    /// The last look for the default browser's program (`ready.rs`).
    start_check: Mutex<Option<(std::time::Instant, Result<(), String>)>>,
    /// The longest answer the daemon sends (`--max-response-bytes`): the relay of the default
    /// browser lets a longer capture go by unread.
    max_answer: std::sync::atomic::AtomicUsize,
    /// Whether the default browser has its own sandbox (`sandbox.rs`).
    sandbox: Mutex<sandbox::State>,
}

impl std::fmt::Debug for Browsers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Browsers").field("state_dir", &self.state_dir).finish_non_exhaustive()
    }
}

impl Browsers {
    /// The bytes the state dir's `downloads/` may hold; older files go first.
    pub fn set_downloads_quota(&self, bytes: u64) {
        self.downloads_quota.store(bytes, std::sync::atomic::Ordering::SeqCst);
    }

    /// The longest answer the daemon sends; a browser started from now on is held to it.
    pub fn set_max_answer(&self, bytes: usize) {
        self.max_answer.store(bytes, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn downloads_quota(&self) -> u64 {
        self.downloads_quota.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// `env` is given to the default Chromium (DISPLAY and the buses of the desktop).
    pub fn new(state_dir: PathBuf, supervisor: Supervisor, env: Vec<(String, String)>) -> Self {
        let program = std::env::var("GLOVEBOX_CHROMIUM").unwrap_or_else(|_| "chromium".into());
        Browsers {
            state_dir,
            supervisor,
            env,
            program,
            default: tokio::sync::Mutex::new(None),
            conns: tokio::sync::Mutex::new(BTreeMap::new()),
            invalidator: Arc::new(Mutex::new(None)),
            events: crate::events::SinkSlot::default(),
            marks: Mutex::new(()),
            restarts: std::sync::atomic::AtomicU32::new(0),
            downloads_quota: std::sync::atomic::AtomicU64::new(crate::files::DOWNLOADS_QUOTA),
            max_answer: std::sync::atomic::AtomicUsize::new(16 * 1024 * 1024),
            guard: Arc::default(),
            effects: Arc::default(),
            relay_listener: tokio::sync::OnceCell::new(),
            egress: tokio::sync::OnceCell::new(),
            allowed: Mutex::new(Vec::new()),
            start_check: Mutex::new(None),
            sandbox: Mutex::default(),
        }
    }

    /// Let the daemon drive the browser on debugging port `port` too (`--browser-allow`);
    /// its own settings, its download folder included, are left alone.
    pub fn allow(&self, port: u16) {
        let mut a = lock(&self.allowed);
        if !a.contains(&port) {
            a.push(port);
        }
    }

    fn allowed(&self) -> Vec<u16> {
        lock(&self.allowed).clone()
    }

    /// The policy's guard inside the browsers.
    pub fn guard(&self) -> &cdp::guard::Guard {
        &self.guard
    }

    /// The downloads of `browser_id` the effects log still holds that `lane` may see (those
    /// saved in its lane's dir; admins: all), oldest first.
    pub fn downloads(&self, browser_id: &str, lane: &Lane) -> Vec<Value> {
        let own = contexts::Contexts::dir_of(&self.downloads_dir(), Some(&lane.key));
        self.effects
            .since(0, browser_id, |_| true)
            .into_iter()
            .filter_map(|e| match e.effect {
                effects::Effect::Download { url, path, state, bytes, reason, .. }
                    if lane.all || std::path::Path::new(&path).starts_with(&own) =>
                {
                    let mut d = json!({
                        "path": path, "url": url, "bytes": bytes, "state": state,
                        "tab_id": e.tab_id,
                    });
                    if let Some(why) = reason {
                        d["reason"] = json!(why);
                    }
                    Some(d)
                }
                _ => None,
            })
            .collect()
    }

    /// Where the effects log stands and which tabs are open, before an action.
    pub async fn effects_mark(&self) -> EffectsMark {
        let mut tabs = Vec::new();
        for c in self.conns.lock().await.values() {
            tabs.extend(c.live_tabs());
        }
        EffectsMark { seq: self.effects.mark(), tabs }
    }

    /// Before an action sends input: the settle instrumentation of every tab the daemon
    /// watches stays off until the hold is released (a paused page drops input, and another
    /// action may be settling in the tab meanwhile).
    pub async fn hold_input(&self) -> InputHold {
        let mut watches = Vec::new();
        for c in self.conns.lock().await.values() {
            watches.extend(c.watches());
        }
        futures::future::join_all(watches.iter().map(|w| w.instrument.hold_for_input())).await;
        InputHold { watches }
    }

    /// Starts tracing a browser for an action's input (what its handlers schedule): the
    /// browser with the tabs the daemon watches; `None` when it is taken or there is none.
    pub async fn trace_action(&self) -> Option<actions::trace::ActionTrace> {
        let conn = self.conns.lock().await.values().find(|c| !c.watches().is_empty()).cloned()?;
        actions::trace::ActionTrace::start(conn).await
    }

    /// What happened since `mark` that the action on `tab_id` led to: in that tab, in a tab
    /// opened since (a popup, `target=_blank`), or in no tab the daemon could name.
    pub fn effects_since(
        &self,
        mark: &EffectsMark,
        browser_id: &str,
        tab_id: &str,
    ) -> Vec<effects::Entry> {
        self.effects.since(mark.seq, browser_id, |t| {
            t == Some(tab_id) || t.is_none_or(|t| !mark.tabs.iter().any(|m| m == t))
        })
    }

    /// Point ref invalidation at the sessions (set once by dispatch).
    pub fn set_invalidator(&self, f: Invalidate) {
        let mut slot = lock(&self.invalidator);
        if slot.is_none() {
            *slot = Some(f);
        }
    }

    /// Points tab, navigation, dialog and download events at `sink`.
    pub fn set_event_sink(&self, sink: crate::events::Sink) {
        self.events.set(sink);
    }

    fn invalidate(&self, key: &str, reason: &str) {
        if let Some(f) = lock(&self.invalidator).clone() {
            f(key, reason);
        }
    }

    /// Status for the backend probe: never blocks, never starts anything, names no port or
    /// pid (it is answered without a token).
    pub fn status(&self) -> (&'static str, String) {
        match self.default.try_lock() {
            Ok(d) => match &*d {
                Some(c) if self.supervisor.is_running(c.pid) && c.relay.is_alive() => {
                    ("up", "the default browser runs".into())
                }
                Some(_) => {
                    ("degraded", "the default browser exited; it restarts on the next call".into())
                }
                None => match self.can_start() {
                    Ok(()) => ("up", "the default browser starts on first use".into()),
                    Err(why) => ("down", why),
                },
            },
            Err(_) => ("up", "the default browser is starting".into()),
        }
    }

    /// The default browser's id, starting it (again) when it is not running.
    pub async fn ensure_default(&self) -> Result<String, BrowserError> {
        let mut d = self.default.lock().await;
        if let Some(c) = d.clone() {
            let conn_ok = self.conns.lock().await.get(&c.port).is_none_or(|x| x.is_alive());
            if self.supervisor.is_running(c.pid) && c.relay.is_alive() && conn_ok {
                return Ok(format!("chrome-{}", c.port));
            }
            // It died: forget its connection and refs, and start it again on the same port.
            let _ = self.supervisor.stop_pid(c.pid);
            if let Some(conn) = self.conns.lock().await.remove(&c.port) {
                let reason = "the browser exited and was restarted; take a new snapshot";
                for id in conn.known_tabs() {
                    self.invalidate(&target_key(&conn.browser_id, &tab_id_of(&id)), reason);
                }
            }
            self.restarts.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        let profile = self.profile_dir();
        let listener = self.relay_listener.get_or_try_init(pipe::Relay::listener).await?.clone();
        // The old relay stops taking connections before the new one starts.
        *d = None;
        let limit = self.max_answer.load(std::sync::atomic::Ordering::SeqCst);
        let (pid, relay) = self.launch_default(&profile, (listener, limit)).await?;
        let port = relay.port;
        *d = Some(DefaultChrome { port, pid, relay: Arc::new(relay) });
        Ok(format!("chrome-{port}"))
    }

    /// The egress proxy's address for a browser context (`contexts.rs`), once it runs.
    fn egress_proxy(&self) -> Option<String> {
        self.egress.get().map(|e| format!("socks5://{}", e.addr))
    }

    /// The egress proxy the default browser's connections go through, started on first use.
    async fn egress(&self) -> Result<&egress::Egress, BrowserError> {
        self.egress
            .get_or_try_init(|| egress::Egress::start(self.guard.clone()))
            .await
            .map_err(|e| BrowserError::Unavailable(format!("cannot start the egress proxy: {e}")))
    }

    fn default_port(&self) -> Option<u16> {
        self.default.try_lock().ok().and_then(|d| d.as_ref().map(|c| c.port))
    }

    /// The connection to `browser_id`, opened on first use. The default browser is started
    /// (again) when it is the one asked for and does not run.
    pub async fn conn(&self, browser_id: &str) -> Result<Arc<Conn>, BrowserError> {
        let port = parse_browser_id(browser_id)?;
        let is_default = self.default.lock().await.as_ref().is_some_and(|c| c.port == port);
        let not_ours = || BrowserError::NotFound { kind: "browser", id: browser_id.to_owned() };
        if !is_default && !self.allowed().contains(&port) {
            return Err(not_ours());
        }
        if is_default {
            self.ensure_default().await?;
        }
        // Read before taking `conns`: `ensure_default` takes the two the other way round.
        let relay =
            self.default.lock().await.as_ref().filter(|c| c.port == port).map(|c| c.relay.clone());
        let mut conns = self.conns.lock().await;
        if let Some(c) = conns.get(&port) {
            if c.is_alive() {
                return Ok(c.clone());
            }
            conns.remove(&port);
        }
        let endpoint = match relay {
            Some(c) => cdp::Endpoint {
                port,
                url: c.url.clone(),
                liveness: cdp::Liveness::Pipe(c.watch()),
                downloads: Some(self.downloads_dir()),
                downloads_quota: self.downloads_quota(),
            },
            None if discovery::version(port).await.is_ok() => cdp::Endpoint {
                port,
                url: format!("http://127.0.0.1:{port}"),
                liveness: cdp::Liveness::Port(port),
                downloads: None,
                downloads_quota: self.downloads_quota(),
            },
            None => return Err(not_ours()),
        };
        let conn = Conn::connect(
            endpoint,
            self.invalidator.clone(),
            self.events.clone(),
            self.guard.clone(),
            self.effects.clone(),
        )
        .await?;
        conns.insert(port, conn.clone());
        Ok(conn)
    }

    /// A code client's lane on the pipe of `browser_id`, which must be the daemon's own
    /// browser (another's DevTools are not the daemon's to share).
    pub async fn code_lane(&self, browser_id: &str) -> Result<pipe::Lane, BrowserError> {
        let port = parse_browser_id(browser_id)?;
        let d = self.default.lock().await;
        match d.as_ref().filter(|c| c.port == port) {
            Some(c) if c.relay.is_alive() => Ok(c.relay.lane()),
            Some(_) => Err(BrowserError::Unavailable("the browser exited".into())),
            None => Err(BrowserError::Unavailable(format!(
                "{browser_id} is not the daemon's own browser; code sessions are on its tabs only"
            ))),
        }
    }

    /// Whether `target_id` is an open page of `browser_id` (as its connection's events
    /// tell; no round trip).
    pub async fn is_open(&self, browser_id: &str, target_id: &str) -> bool {
        let Ok(port) = parse_browser_id(browser_id) else { return false };
        let conns = self.conns.lock().await;
        conns.get(&port).is_some_and(|c| c.is_alive() && c.has_page(target_id))
    }

    /// Tell an event to the sessions of the browser's events (`navigation_blocked`).
    pub fn emit(&self, kind: &'static str, data: Value) {
        self.events.emit(kind, data);
    }

    /// The browsers the daemon may drive: its own (once started) and the allowed ones.
    fn ours(&self) -> Vec<u16> {
        let mut ports: Vec<u16> = self.default_port().into_iter().collect();
        for p in self.allowed() {
            if !ports.contains(&p) {
                ports.push(p);
            }
        }
        ports
    }

    /// The browsers the daemon drives: its own and those `--browser-allow` names. Other
    /// Chromiums on the host (another daemon's, a user's) are not listed.
    pub async fn list(&self) -> Result<Vec<BrowserInfo>, BrowserError> {
        let default = self.default_port();
        let default_pid = self.default.lock().await.as_ref().map(|c| c.pid);
        let scanned = discovery::scan();
        let mut out = Vec::new();
        for port in self.ours() {
            let is_default = default == Some(port);
            let conn = self.conn(&format!("chrome-{port}")).await;
            let (status, version, tabs) = match &conn {
                Ok(c) => {
                    let v = c.call("Browser.getVersion", json!({})).await.unwrap_or_default();
                    let tabs = c.targets().await.map(|t| t.len()).unwrap_or(0);
                    ("up", v["product"].as_str().unwrap_or_default().to_owned(), tabs)
                }
                Err(_) if is_default => ("down", String::new(), 0),
                Err(_) => continue,
            };
            let pid = if is_default {
                default_pid
            } else {
                scanned.iter().find(|(p, _)| *p == port).and_then(|(_, pid)| *pid)
            };
            out.push(BrowserInfo {
                browser_id: format!("chrome-{port}"),
                port,
                pid,
                default: is_default,
                status,
                version,
                tabs,
            });
        }
        out.sort_by_key(|b| (!b.default, b.port));
        Ok(out)
    }

    /// Tabs whose URL is `url` or starts with it followed by `/`, `?` or `#`, in the
    /// browsers the daemon drives.
    pub async fn find_tabs(
        &self,
        url: &str,
        lane: &Lane,
    ) -> Result<Vec<(String, TabInfo)>, BrowserError> {
        let ids: Vec<String> = self.ours().iter().map(|p| format!("chrome-{p}")).collect();
        let mut out = Vec::new();
        for id in ids {
            let Ok(tabs) = self.tabs(&id, lane).await else { continue };
            for t in tabs {
                if url_matches(&t.url, url) {
                    out.push((id.clone(), t));
                }
            }
        }
        Ok(out)
    }

    /// The tabs of a browser `lane` sees, in tab_index order (an index counts those only).
    pub async fn tabs(&self, browser_id: &str, lane: &Lane) -> Result<Vec<TabInfo>, BrowserError> {
        let conn = self.conn(browser_id).await?;
        let marks = self.load_marks();
        Ok(self
            .targets_of(&conn, lane)
            .await?
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                let tab_id = tab_id_of(&t.target_id);
                TabInfo {
                    mark: marks.get(&target_key(browser_id, &tab_id)).cloned(),
                    owner: lane.all.then(|| t.lane(&conn)).flatten(),
                    tab_id,
                    tab_index: i,
                    url: t.url,
                    title: t.title,
                }
            })
            .collect())
    }

    /// The page targets of `conn` that `lane` sees.
    async fn targets_of(&self, conn: &Conn, lane: &Lane) -> Result<Vec<TargetInfo>, BrowserError> {
        let mut targets = conn.targets().await?;
        targets.retain(|t| t.seen_by(conn, lane));
        Ok(targets)
    }

    /// `NotFound` unless `lane` sees tab `tab_id` of `browser_id` (another lane's tab is not
    /// told apart from one that does not exist).
    pub async fn check_tab(
        &self,
        browser_id: &str,
        tab_id: &str,
        lane: &Lane,
    ) -> Result<(), BrowserError> {
        let conn = self.conn(browser_id).await?;
        let seen = self.targets_of(&conn, lane).await?;
        match seen.iter().any(|t| tab_id_of(&t.target_id) == tab_id) {
            true => Ok(()),
            false => Err(BrowserError::NotFound { kind: "tab", id: tab_id.to_owned() }),
        }
    }

    /// A handle on one tab; `tab_id` must be a current tab of the browser.
    pub async fn tab(&self, browser_id: &str, tab_id: &str) -> Result<Tab, BrowserError> {
        let conn = self.conn(browser_id).await?;
        // A tab already watched and still open needs no round trip to the browser.
        if let Some((target, page, watch)) = conn.watched(tab_id).await {
            return Ok(Tab::from_parts(conn, &target, page, watch, self.downloads_dir()));
        }
        let targets = conn.targets().await?;
        let Some(t) = targets.iter().find(|t| tab_id_of(&t.target_id) == tab_id) else {
            return Err(BrowserError::NotFound { kind: "tab", id: tab_id.to_owned() });
        };
        Tab::open(conn, &t.target_id, self.downloads_dir()).await
    }

    /// The tab the browser shows in front (the first visible one), else its first tab; a
    /// browser without tabs gets a blank one.
    pub async fn active_tab(&self, browser_id: &str, lane: &Lane) -> Result<String, BrowserError> {
        match self.front_tab(browser_id, lane).await? {
            Some(tab) => Ok(tab),
            None => self.new_tab(browser_id, None, (true, true), lane).await,
        }
    }

    /// The tab of `lane` the browser shows in front (see [`Browsers::active_tab`]); `None`
    /// when the lane has no tab.
    pub async fn front_tab(
        &self,
        browser_id: &str,
        lane: &Lane,
    ) -> Result<Option<String>, BrowserError> {
        let conn = self.conn(browser_id).await?;
        let targets = self.targets_of(&conn, lane).await?;
        if targets.is_empty() {
            return Ok(None);
        }
        // The newest visible tab (the one in front); falls back to the newest tab.
        for t in targets.iter().rev() {
            let Ok((page, watch)) = conn.page(&t.target_id).await else { continue };
            // A tab showing a dialog is in front, and would not answer the evaluation.
            if watch.dialog.borrow().is_some() {
                return Ok(Some(tab_id_of(&t.target_id)));
            }
            let vis = tokio::time::timeout(
                std::time::Duration::from_secs(2),
                page.execute(cdp::Raw::new(
                    "Runtime.evaluate",
                    json!({"expression": "document.visibilityState", "returnByValue": true}),
                )),
            )
            .await;
            if vis.is_ok_and(|v| v.is_ok_and(|v| v.result["result"]["value"] == "visible")) {
                return Ok(Some(tab_id_of(&t.target_id)));
            }
        }
        Ok(targets.last().map(|t| tab_id_of(&t.target_id)))
    }

    /// Open a tab in `lane`'s context (in a window of its own with `window`, so that no
    /// other session's tab hides it); returns its tab id.
    pub async fn new_tab(
        &self,
        browser_id: &str,
        url: Option<&str>,
        (visible, window): (bool, bool),
        lane: &Lane,
    ) -> Result<String, BrowserError> {
        let conn = self.conn(browser_id).await?;
        // Blank first, then the URL: the guard must know the tab's id to tell the daemon's
        // own load from one the page starts.
        let mut params = json!({"url": "about:blank", "background": !visible, "newWindow": window});
        if let Some(context) = self.context_of(&conn, lane).await? {
            // A context's first tab opens its first window.
            let targets = conn.targets().await?;
            if !targets.iter().any(|t| t.context.as_deref() == Some(context.as_str())) {
                params["newWindow"] = json!(true);
            }
            params["browserContextId"] = json!(context);
        }
        let r = conn.call("Target.createTarget", params).await?;
        let target = r["targetId"].as_str().unwrap_or_default().to_owned();
        let tab = Tab::open(conn.clone(), &target, self.downloads_dir()).await?;
        if let Some(saved) = conn.contexts().take_pending(&lane.key) {
            saved.write_storage(&tab).await?;
        }
        if let Some(url) = url {
            if let Err(e) = tab.navigate(url, std::time::Duration::from_secs(30)).await {
                let _ = conn.call("Target.closeTarget", json!({"targetId": target})).await;
                return Err(e);
            }
        }
        if visible {
            let _ = conn.call("Target.activateTarget", json!({"targetId": target})).await;
        }
        Ok(tab_id_of(&target))
    }

    pub async fn close_tab(&self, browser_id: &str, tab_id: &str) -> Result<TabInfo, BrowserError> {
        let conn = self.conn(browser_id).await?;
        let targets = conn.targets().await?;
        let Some((i, t)) =
            targets.iter().enumerate().find(|(_, t)| tab_id_of(&t.target_id) == tab_id)
        else {
            return Err(BrowserError::NotFound { kind: "tab", id: tab_id.to_owned() });
        };
        conn.call("Target.closeTarget", json!({"targetId": t.target_id})).await?;
        conn.forget(&t.target_id);
        self.invalidate(&target_key(browser_id, tab_id), "the tab was closed");
        Ok(TabInfo {
            tab_id: tab_id.to_owned(),
            tab_index: i,
            url: t.url.clone(),
            title: t.title.clone(),
            mark: None,
            owner: None,
        })
    }

    pub async fn select_tab(&self, browser_id: &str, tab_id: &str) -> Result<(), BrowserError> {
        let tab = self.tab(browser_id, tab_id).await?;
        tab.conn.call("Target.activateTarget", json!({"targetId": tab.target_id})).await?;
        Ok(())
    }

    /// Send keyUp for held keys `(tab_id, key)` on whichever connected browser has the tab
    /// (after a failed, cancelled or timed-out op).
    pub async fn release_keys(&self, keys: Vec<(String, String)>) {
        let conns: Vec<Arc<Conn>> = self.conns.lock().await.values().cloned().collect();
        for conn in conns {
            let Ok(targets) = conn.targets().await else { continue };
            for (tab_id, key) in keys.iter().rev() {
                let Some(t) = targets.iter().find(|t| tab_id_of(&t.target_id) == *tab_id) else {
                    continue;
                };
                let (Ok(tab), Some(k)) = (
                    Tab::open(conn.clone(), &t.target_id, self.downloads_dir()).await,
                    input::key_def(key),
                ) else {
                    continue;
                };
                let _ = tab.key_event(false, &k, 0).await;
            }
        }
    }

    fn marks_path(&self) -> PathBuf {
        self.state_dir.join("browser-tab-marks.json")
    }

    fn load_marks(&self) -> BTreeMap<String, Value> {
        let _g = lock(&self.marks);
        std::fs::read(self.marks_path())
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// Set or clear a tab's mark; marks live in the state dir and outlive sessions and
    /// daemon restarts.
    pub fn mark(
        &self,
        browser_id: &str,
        tab_id: &str,
        mark: Option<(String, Option<String>)>,
    ) -> Result<Option<Value>, BrowserError> {
        let mut marks = self.load_marks();
        let key = target_key(browser_id, tab_id);
        let value = mark.map(|(kind, note)| {
            let at = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            json!({"kind": kind, "note": note, "marked_at": at})
        });
        match &value {
            Some(v) => marks.insert(key, v.clone()),
            None => marks.remove(&key),
        };
        let _g = lock(&self.marks);
        let _ = std::fs::create_dir_all(&self.state_dir);
        let bytes = serde_json::to_vec_pretty(&marks).unwrap_or_default();
        std::fs::write(self.marks_path(), bytes)
            .map_err(|e| BrowserError::Failed(format!("cannot save the tab mark: {e}")))?;
        Ok(value)
    }

    /// Every tab mark, by `<browser_id>/<tab_id>` (the view page lists them).
    pub fn marks(&self) -> BTreeMap<String, Value> {
        self.load_marks()
    }

    pub fn mark_of(&self, browser_id: &str, tab_id: &str) -> Option<Value> {
        self.load_marks().get(&target_key(browser_id, tab_id)).cloned()
    }

    pub fn state_dir(&self) -> &std::path::Path {
        &self.state_dir
    }

    /// The default browser's profile: the desktop user's when there is one (the state dir
    /// is not its to write), else in the state dir.
    fn profile_dir(&self) -> PathBuf {
        self.supervisor
            .desktop_user()
            .map_or_else(|| self.state_dir.join("chromium-profile"), |u| u.profile())
    }

    /// Where the default browser's downloads and the printed PDFs go, in the same way.
    pub fn downloads_dir(&self) -> PathBuf {
        self.supervisor
            .desktop_user()
            .map_or_else(|| self.state_dir.join("downloads"), |u| u.downloads())
    }
}

/// `chrome-<port>` -> port.
pub fn parse_browser_id(id: &str) -> Result<u16, BrowserError> {
    id.strip_prefix("chrome-")
        .and_then(|p| p.parse::<u16>().ok())
        .ok_or_else(|| BrowserError::NotFound { kind: "browser", id: id.to_owned() })
}

/// Exact, or a prefix followed by `/`, `?` or `#`.
pub fn url_matches(tab_url: &str, wanted: &str) -> bool {
    if tab_url == wanted {
        return true;
    }
    let w = wanted.trim_end_matches('/');
    tab_url
        .strip_prefix(w)
        .is_some_and(|rest| rest.starts_with('/') || rest.starts_with('?') || rest.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_match_exactly_or_by_prefix_at_a_boundary() {
        assert!(url_matches("http://a/x", "http://a/x"));
        assert!(url_matches("http://a/x?q=1", "http://a/x"));
        assert!(url_matches("http://a/x/y", "http://a/x"));
        assert!(url_matches("http://a/x#h", "http://a/x"));
        assert!(!url_matches("http://a/xy", "http://a/x"));
    }
}

/// Instrumentation held off while an action sends input (`Browsers::hold_input`); released
/// by `release`, or in the background when dropped (the op was cancelled).
#[derive(Debug)]
pub struct InputHold {
    watches: Vec<Arc<cdp::TabWatch>>,
}

impl InputHold {
    pub async fn release(mut self) {
        let watches = std::mem::take(&mut self.watches);
        futures::future::join_all(watches.iter().map(|w| w.instrument.input_done())).await;
    }
}

impl Drop for InputHold {
    fn drop(&mut self) {
        let watches = std::mem::take(&mut self.watches);
        if watches.is_empty() {
            return;
        }
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                futures::future::join_all(watches.iter().map(|w| w.instrument.input_done())).await;
            });
        }
    }
}
