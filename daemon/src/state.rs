//! The daemon's shared state: configuration, sessions, ops and the event bus.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use glovebox_protocol::wire::BackendStatus;

use crate::auth::Tokens;
use crate::events::EventBus;
use crate::ops::Ops;
use crate::session::Sessions;

/// Reports each backend's current state (`session.hello`, `/healthz`, `context.get_state`).
pub type BackendProbe = Arc<dyn Fn() -> BTreeMap<String, BackendStatus> + Send + Sync>;

/// What `run` needs; `Config::from_cli` (`cli.rs`) builds it from the command line.
pub struct Config {
    pub tokens: Tokens,
    /// Where `tokens` came from; SIGHUP reads it again.
    pub token_file: Option<PathBuf>,
    /// Browser origins allowed to open the WebSocket (others get 403).
    pub allowed_origins: Vec<String>,
    /// Host names `/healthz` answers beside loopback and the listen address.
    pub allowed_hosts: Vec<String>,
    pub max_message_bytes: u32,
    /// The largest answer frame; a larger one becomes `RESULT_TOO_LARGE`.
    pub max_response_bytes: usize,
    /// The most calls in one batch; a longer batch is refused whole (`BATCH_TOO_LARGE`).
    pub max_batch: usize,
    /// Approvals one token may have waiting, and ask for a minute (all its sessions).
    pub max_pending_approvals: usize,
    pub max_asks_per_minute: usize,
    /// Open WebSocket connections in all, and per token (over it: HTTP 429).
    pub max_connections: u32,
    pub max_connections_per_token: usize,
    pub max_in_flight: usize,
    /// Ops a session may start per second (bursts up to one second's worth) before BUSY.
    pub max_ops_per_sec: u32,
    /// The most characters `evaluate`, `get_content` and `get_html` return; the page cuts
    /// longer ones and the result says `truncated` and `total_chars`.
    pub max_text_chars: usize,
    /// The largest full-page capture Chromium is asked to render.
    pub max_capture: crate::browser::ShotLimit,
    /// The most ref tags one `screenshot_annotate` draws.
    pub max_labels: usize,
    /// The bytes the state dir's `downloads/` may hold (downloads and PDFs); the oldest
    /// files go first.
    pub downloads_quota_bytes: u64,
    /// How long a session nobody is attached to can still be resumed.
    pub session_ttl: std::time::Duration,
    pub state_dir: PathBuf,
    pub backends: BackendProbe,
    /// The desktop backend (AT-SPI, X11, clipboard): none, starting, or up.
    pub desktop: crate::desktop::Slot,
    /// Rules deciding which calls run, are refused or wait for an approver.
    pub policy: crate::approval::policy::Policy,
    /// The browser backend (Chromium over CDP).
    pub browser: Option<Arc<crate::browser::Browsers>>,
    /// The quiet window and caps of settling after an action.
    pub settle: crate::settle::Policy,
    /// Where client-named files may be read from (uploads).
    pub files: crate::files::FileRoots,
    /// How long running ops get to finish once the daemon drains (SIGTERM).
    pub shutdown_grace: std::time::Duration,
    /// How the desktop is kept out of the state dir: `user` (a uid of its own), `landlock`
    /// (confined, `process/confine.rs`) or `none`.
    pub desktop_isolation: crate::process::confine::Isolation,
    /// The view page's codes and cookies (`main` mints the code of the link it prints).
    pub view_access: Arc<crate::people::Access>,
    /// View pages one token may have open at once (over it: HTTP 429).
    pub max_view_pages_per_token: usize,
    /// MCP sessions one token may hold over HTTP (one more closes its oldest).
    pub max_mcp_sessions_per_token: usize,
    /// Sessions one token may keep (one more ends its idlest; none idle: `BUSY`).
    pub max_sessions_per_token: usize,
    /// Named secrets (`--secrets`) and the redactor every answer, event and log line passes.
    pub secrets: Arc<crate::secrets::Vault>,
}

impl Config {
    /// Defaults for tests and embedding: given tokens, no backends.
    pub fn new(tokens: Tokens, state_dir: PathBuf) -> Self {
        Config {
            tokens,
            token_file: None,
            allowed_origins: Vec::new(),
            allowed_hosts: Vec::new(),
            max_message_bytes: 16 * 1024 * 1024,
            max_response_bytes: 16 * 1024 * 1024,
            max_batch: 64,
            max_pending_approvals: crate::approval::store::MAX_PENDING_PER_TOKEN,
            max_asks_per_minute: crate::approval::store::MAX_ASKS_PER_MINUTE,
            max_connections: 1024,
            max_connections_per_token: 64,
            max_in_flight: 32,
            max_ops_per_sec: 50,
            max_text_chars: 1024 * 1024,
            max_capture: crate::browser::ShotLimit::default(),
            max_labels: 500,
            downloads_quota_bytes: crate::files::DOWNLOADS_QUOTA,
            session_ttl: std::time::Duration::from_secs(600),
            backends: Arc::new(BTreeMap::new),
            policy: crate::approval::policy::Policy::default(),
            desktop: crate::desktop::Slot::default(),
            browser: None,
            settle: crate::settle::Policy::default(),
            files: crate::files::FileRoots::new(&state_dir, Vec::new(), Vec::new()),
            shutdown_grace: std::time::Duration::from_secs(10),
            desktop_isolation: crate::process::confine::Isolation::None,
            view_access: Arc::default(),
            max_view_pages_per_token: 8,
            max_mcp_sessions_per_token: 32,
            max_sessions_per_token: 128,
            secrets: Arc::default(),
            state_dir,
        }
    }
}

pub struct Daemon {
    pub config: Config,
    pub sessions: Sessions,
    pub ops: Ops,
    pub events: EventBus,
    pub approvals: crate::approval::store::Approvals,
    /// Screenshots taken after actions, for `capture.get`.
    pub captures: crate::capture::Captures,
    pub started: Instant,
    /// The accepted tokens now (the config's, or the token file's after a reload).
    tokens: std::sync::RwLock<Tokens>,
    /// Open connections, re-checked against the tokens on every reload.
    pub(crate) live: crate::live::Live,
    /// The people in the loop: who is in control, requests for a person, the ops feed, the
    /// view page's codes and open pages.
    pub people: crate::people::People,
    /// Which token opened each MCP session over HTTP.
    pub mcp_sessions: crate::live::Bindings,
    /// Code clients' DevTools endpoints on tabs (`browser.cdp_session`).
    pub code: crate::live::Code,
}

impl Daemon {
    /// The daemon's shared state; the backends' events go to the bus from here on.
    pub fn new(config: Config) -> Arc<Self> {
        let redactor = config.secrets.redactor().clone();
        let approvals = crate::approval::store::Approvals::with_limits(
            config.max_pending_approvals,
            config.max_asks_per_minute,
        );
        let daemon = Arc::new(Daemon {
            tokens: std::sync::RwLock::new(config.tokens.clone()),
            live: crate::live::Live::default(),
            people: crate::people::People::new(config.view_access.clone()),
            mcp_sessions: crate::live::Bindings::default(),
            code: crate::live::Code::default(),
            sessions: Sessions::new(config.session_ttl, config.max_sessions_per_token),
            config,
            ops: Ops::new(4096),
            events: EventBus::new(1024, redactor),
            approvals,
            captures: crate::capture::Captures::default(),
            started: Instant::now(),
        });
        let openers = Arc::new(crate::events::Openers::default());
        let sink = |topic: &'static str| -> crate::events::Sink {
            let weak = Arc::downgrade(&daemon);
            let openers = openers.clone();
            Arc::new(move |kind: &'static str, mut data: serde_json::Value| {
                let Some(d) = weak.upgrade() else { return };
                // A tab's events belong to the sessions that have it, or the tab that opened
                // it, selected; an event with an unknown tab (`tab_id: null`) to none of them.
                // A window's, likewise, to the sessions that have its app or it selected.
                // The lane the browser named (`browser/cdp.rs`) is for the bus, not the reader.
                let lane = data.as_object_mut().and_then(|m| m.remove("lane"));
                let lane = lane.and_then(|l| l.as_str().map(str::to_owned)).map(|key| {
                    let sessions = d.sessions.creators_in_lane(&key);
                    crate::events::LaneScope { key, sessions }
                });
                match data.get("tab_id").filter(|_| topic == "browser") {
                    Some(tab) => {
                        openers.note(kind, &data);
                        let mut owners = Vec::new();
                        for t in tab.as_str().map(|t| openers.chain(t)).unwrap_or_default() {
                            for o in d.sessions.owners_of_tab(&t) {
                                if !owners.contains(&o) {
                                    owners.push(o);
                                }
                            }
                        }
                        d.events.publish_in_lane((owners, lane), topic, kind, data);
                    }
                    // A window's title and the focused element's name are the sessions'
                    // working in that app (`WINDOW_PRIVATE`); apps and the rest are everyone's.
                    None if topic == "desktop"
                        && (kind.starts_with("window.") || kind == "focus.changed") =>
                    {
                        let app = data.get("app_id").and_then(|v| v.as_str());
                        let window = data.get("window_id").and_then(|v| v.as_str());
                        let owners = d.sessions.owners_of_window(app, window);
                        d.events.publish_tab(owners, topic, kind, data);
                    }
                    None => d.events.publish(topic, kind, data),
                }
            })
        };
        daemon.config.desktop.set_event_sink(sink("desktop"));
        if let Some(b) = &daemon.config.browser {
            b.set_event_sink(sink("browser"));
            b.set_downloads_quota(daemon.config.downloads_quota_bytes);
            b.set_max_answer(daemon.config.max_response_bytes);
            let policy = daemon.config.policy.clone();
            let sub_requests = policy.has_host_rules();
            b.guard().set_judge(
                Arc::new(move |url: &str| policy.judge_navigation(url).into()),
                sub_requests,
            );
        }
        daemon
    }

    /// The role of a presented token, if it is accepted.
    pub fn role_of(&self, token: &str) -> Option<crate::auth::Role> {
        self.tokens.read().ok()?.role_of(token)
    }

    /// The role of the token with this digest, if it is accepted.
    pub fn role_of_digest(&self, token: &crate::auth::Digest) -> Option<crate::auth::Role> {
        self.tokens.read().ok()?.role_of_digest(token)
    }

    /// Who a token of `role` with this digest speaks for, in its party's lane.
    pub fn owner_of(
        &self,
        token: crate::auth::Digest,
        role: crate::auth::Role,
    ) -> crate::session::Owner {
        let party = self.tokens.read().ok().and_then(|t| t.party_of_digest(&token));
        crate::session::Owner::of_digest(token, role == crate::auth::Role::Admin)
            .in_party(party.as_deref())
    }

    /// Read the token file again (SIGHUP) and close the open connections whose token it
    /// revoked or whose role it changed: (tokens now, connections closed). On error the old
    /// tokens stay in force and nothing is closed.
    pub fn reload_tokens(&self) -> Result<(usize, usize), crate::auth::TokenError> {
        let Some(path) = &self.config.token_file else { return Ok((0, 0)) };
        let fresh = Tokens::load_or_create(path)?;
        if !fresh.plain_lines.is_empty() {
            tracing::warn!(lines = ?fresh.plain_lines, "the token file holds plain tokens; keep their hashes instead (`gloveboxd token add`, or a sha256:<hex> line each)");
        }
        Ok((fresh.tokens.len(), self.set_tokens(fresh.tokens)))
    }

    /// Put `tokens` in force: new connections see them at once, open ones whose token is
    /// gone or has another role are closed, and the ops running in their sessions cancelled
    /// (a connection closes once its calls end, and their cleanup releases held input); the
    /// number closed.
    pub fn set_tokens(&self, tokens: Tokens) -> usize {
        let changed = self.tokens.read().map(|old| old.changed_in(&tokens)).unwrap_or_default();
        let mut closed = self.live.recheck(&tokens);
        if let Ok(mut t) = self.tokens.write() {
            *t = tokens;
        }
        // A connection admitted under the old tokens but tracked only now is checked again.
        if let Ok(t) = self.tokens.read() {
            closed.extend(self.live.recheck(&t));
            // Every other way in of those tokens: view pages, MCP sessions.
            let pages = self.people.recheck(&t);
            let mcp = self.mcp_sessions.recheck(&t);
            if pages + mcp > 0 {
                tracing::info!(pages, mcp, "closed view pages and MCP sessions of changed tokens");
            }
        }
        // Code sessions of those tokens close too.
        self.code.tokens_changed(self, &changed);
        for conn in &closed {
            if let Some(session) = conn.session() {
                self.ops.cancel_session(&session.id);
            }
        }
        // Ops still running in sessions those tokens made, on any transport (MCP calls hold
        // no connection), end now.
        for session in self.sessions.all() {
            if changed.contains(&session.creator.digest()) {
                self.ops.cancel_session(&session.id);
            }
        }
        closed.len()
    }

    /// Grants or denies a waiting call and tells whoever may hear of it: the session's
    /// token, or (the session gone) admins and approvers only. The answered approval.
    pub fn answer_approval(
        &self,
        id: &str,
        grant: bool,
    ) -> Result<serde_json::Value, crate::error::DaemonError> {
        let answered = self.approvals.answer(id, grant)?;
        let kind = if grant { "granted" } else { "denied" };
        let owner = self.sessions.get(&answered.session);
        let owner = owner.map_or_else(crate::session::Owner::nobody, |s| s.creator);
        let answered = answered.json();
        self.events.publish_for(owner, "approvals", kind, answered.clone());
        Ok(answered)
    }

    /// The desktop backend, once it is connected.
    pub fn desktop(&self) -> Option<Arc<crate::desktop::Desktop>> {
        self.config.desktop.backend()
    }

    pub fn backends(&self) -> BTreeMap<String, BackendStatus> {
        (self.config.backends)()
    }
}
