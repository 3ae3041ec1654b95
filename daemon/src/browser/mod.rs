//! The browser backend: Chromium instances over the Chrome DevTools Protocol.
//!
//! The daemon drives its own default Chromium, started on first use and again if it died,
//! whose DevTools are on a pipe only ([`pipe`]), plus the browsers an operator names with
//! `--browser-allow chrome-<port>`; no other Chromium on the host is listed or reachable.
//! One CDP connection per browser ([`cdp::Conn`]), each with the policy's [`cdp::guard::Guard`] on
//! every navigation; tabs are named by a stable id taken from their CDP target id, so a tab
//! keeps its id for its whole life, across daemon restarts too (tab marks rely on that).
//!
//! Here: the [`Browsers`] handle and its wiring. `error.rs` the backend's errors;
//! `registry.rs` browsers and tabs by id; `default.rs` the daemon's own Chromium; `hold.rs`
//! what an action caused (effects, downloads) and the input holds around it; `marks.rs` tab
//! marks.

pub mod actions;
pub mod annotate;
pub mod cdp;
mod contexts;
mod default;
pub mod discovery;
mod downloads;
pub mod effects;
mod egress;
mod error;
mod hold;
pub mod input;
pub mod launch;
mod marks;
pub mod mouse;
pub mod pipe;
mod profiles;
mod ready;
mod registry;
pub mod sandbox;
pub mod settle;
pub mod snapshot;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;

use crate::process::Supervisor;

pub use actions::{ShotLimit, Tab};
use cdp::Conn;
pub use contexts::Lane;
use default::DefaultChrome;
pub use downloads::partial as partial_download;
pub use error::BrowserError;
pub use hold::{EffectsMark, InputHold};
pub use marks::Mark;
pub use profiles::{Profile, StorageState};
pub use registry::{parse_browser_id, url_matches, BrowserInfo, TabInfo};

/// Called with (target key, reason) whenever a tab's refs go stale (navigation, reload, a
/// restarted browser); dispatch points it at every session's snapshot registry.
pub type Invalidate = Arc<dyn Fn(&str, &str) + Send + Sync>;

/// The shared slot of the [`Invalidate`] hook.
pub type Invalidator = Arc<Mutex<Option<Invalidate>>>;

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
    /// Tab marks (`marks.rs`).
    marks: marks::Marks,
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
            marks: marks::Marks::new(&state_dir),
            state_dir,
            supervisor,
            env,
            program,
            default: tokio::sync::Mutex::new(None),
            conns: tokio::sync::Mutex::new(BTreeMap::new()),
            invalidator: Arc::new(Mutex::new(None)),
            events: crate::events::SinkSlot::default(),
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

    /// Tell an event to the sessions of the browser's events (`navigation_blocked`).
    pub fn emit(&self, kind: &'static str, data: Value) {
        self.events.emit(kind, data);
    }

    pub fn state_dir(&self) -> &std::path::Path {
        &self.state_dir
    }
}
