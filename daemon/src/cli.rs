//! The command line of `gloveboxd` (clap), and the configuration it makes:
//! [`Config::from_cli`]. The binary reads it; tests that start the binary speak it.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;

use crate::auth::Tokens;
use crate::desktop::embedded::DesktopMode;
use crate::Config;

/// The environment variables the daemon reads, in `--help` (children never see them).
const ENVIRONMENT: &str = "\
Environment:
  GLOVEBOX_TOKEN     one actor token (32 characters or more) instead of the token file; a
                     Kubernetes Secret can fill it (env valueFrom secretKeyRef)
  GLOVEBOX_LOG       log filter, e.g. info, debug, glovebox_daemon=trace (default info)
  GLOVEBOX_CHROMIUM  the Chromium program to start (default: chromium on PATH)";

#[derive(Debug, Parser)]
#[command(
    name = "gloveboxd",
    version,
    about = "Hands and eyes on a virtual desktop and Chromium for AI agents, over JSON-RPC on WebSocket",
    after_help = ENVIRONMENT
)]
pub struct Cli {
    /// Address to listen on (port 0 picks a free one; the banner prints it). Default
    /// 127.0.0.1:7788; `gloveboxd mcp` listens only when it is given.
    #[arg(long, global = true)]
    pub listen: Option<SocketAddr>,
    /// Token file: one line per token, `sha256:<hex of the token's SHA-256>`, optionally
    /// followed by a role (actor, observer, approver, admin); `gloveboxd token add` appends
    /// one. Created, mode 0600, with the hash of a fresh token (printed once, on a terminal)
    /// when it does not exist. Default: the state dir's token; $GLOVEBOX_TOKEN, when set, is
    /// used instead.
    #[arg(long, global = true)]
    pub token_file: Option<PathBuf>,
    /// Where logs, tokens and per-run desktop directories live.
    #[arg(long, global = true, default_value_os_t = default_state_dir())]
    pub state_dir: PathBuf,
    /// auto: use $DISPLAY when an X server answers there, else start one;
    /// embedded: always start a private Xvfb + D-Bus + AT-SPI + window manager;
    /// existing: require $DISPLAY.
    #[arg(long, global = true, value_enum, default_value_t = DesktopMode::Auto)]
    pub desktop: DesktopMode,
    /// When gloveboxd runs as root: the user its desktop runs as (Xvfb, the buses, the
    /// window manager, Chromium and every launched app), a name or a uid, so nothing on the
    /// desktop can read the state dir. Default: the user glovebox-desktop where it exists,
    /// else nobody (65534). As root, auto means embedded; with existing, the children stay
    /// root. Not root: the desktop runs as the daemon's own user and this is ignored.
    #[arg(long, global = true, value_name = "NAME|UID")]
    pub desktop_user: Option<String>,
    /// The desktop user's dir when gloveboxd runs as root: its HOME, runtime dirs, Chromium
    /// profile, downloads and the copies of uploaded files (root's, 0711; the parts the
    /// user's, 0700). Every dir above it must let that user through. Default:
    /// <tmp>/glovebox-desktop-<hash of the state dir>.
    #[arg(long, global = true, value_name = "DIR")]
    pub desktop_dir: Option<PathBuf>,
    /// Browser origin allowed to open the WebSocket (repeatable); others get 403.
    #[arg(long = "allow-origin", global = true)]
    pub allow_origin: Vec<String>,
    /// Host name /healthz and /readyz answer for beside localhost, 127.0.0.1, [::1] and the
    /// listen address (repeatable); other Host headers get 403.
    #[arg(long = "allow-host", global = true)]
    pub allow_host: Vec<String>,
    /// Largest accepted message in bytes (over it: REQUEST_TOO_LARGE).
    #[arg(long, global = true, default_value_t = 16 * 1024 * 1024)]
    pub max_message_bytes: u32,
    /// Largest answer frame in bytes (over it: RESULT_TOO_LARGE); a browser capture larger
    /// than this is refused the same way before the daemon reads it, over MCP too.
    #[arg(long, global = true, default_value_t = 16 * 1024 * 1024)]
    pub max_response_bytes: usize,
    /// Most calls in one JSON-RPC batch (over it: BATCH_TOO_LARGE, nothing runs).
    #[arg(long, global = true, default_value_t = 64)]
    pub max_batch: usize,
    /// Approvals one token may have waiting at once, over all its sessions (over it:
    /// TOO_MANY_APPROVALS).
    #[arg(long, global = true, default_value_t = 16)]
    pub max_pending_approvals: usize,
    /// New approvals one token may ask for in a minute, over all its sessions (over it:
    /// TOO_MANY_APPROVALS).
    #[arg(long, global = true, default_value_t = 30)]
    pub max_asks_per_minute: usize,
    /// Open WebSocket connections in all (over it: HTTP 429).
    #[arg(long, global = true, default_value_t = 1024)]
    pub max_connections: u32,
    /// Open WebSocket connections per token (over it: HTTP 429 naming the limit).
    #[arg(long, global = true, default_value_t = 64)]
    pub max_connections_per_token: usize,
    /// Open view pages per token (over it: HTTP 429 naming the limit).
    #[arg(long, global = true, default_value_t = 8)]
    pub max_view_pages_per_token: usize,
    /// MCP sessions (Streamable HTTP) one token may hold; opening one more ends its oldest.
    #[arg(long, global = true, default_value_t = 32)]
    pub max_mcp_sessions_per_token: usize,
    /// Glovebox sessions one token may keep (hello's, an MCP call's `"session": "new"`); one
    /// more ends the token's session idle the longest (none idle: BUSY).
    #[arg(long, global = true, default_value_t = 128)]
    pub max_sessions_per_token: usize,
    /// Print the view page's link (its code logs in once) in the banner even when stdout is
    /// not a terminal, e.g. a pod's log; by default it shows only on a terminal.
    #[arg(long, global = true)]
    pub print_view_link: bool,
    /// Ops in flight per connection before BUSY.
    #[arg(long, global = true, default_value_t = 32)]
    pub max_in_flight: usize,
    /// Ops a session may start per second before BUSY.
    #[arg(long, global = true, default_value_t = 50)]
    pub max_ops_per_sec: u32,
    /// Most characters evaluate, get_content and get_html return (the page cuts the rest;
    /// the result says truncated and total_chars).
    #[arg(long, global = true, default_value_t = 1024 * 1024)]
    pub max_text_chars: usize,
    /// Longest side of a browser capture in image pixels; a larger page is cut before
    /// Chromium renders it (the answer says truncated).
    #[arg(long, global = true, default_value_t = 16_384)]
    pub max_capture_side: u32,
    /// Most pixels of a browser capture (default 64 Mpx, 2^26); the height gives way.
    #[arg(long, global = true, default_value_t = 64 * 1024 * 1024)]
    pub max_capture_pixels: u64,
    /// Most ref tags one screenshot_annotate draws (the answer says how many it left out).
    #[arg(long, global = true, default_value_t = 500)]
    pub max_annotate_labels: usize,
    /// Bytes the state dir's downloads/ may hold (downloads and PDFs); the oldest files go
    /// first.
    #[arg(long, global = true, default_value_t = 1024 * 1024 * 1024)]
    pub downloads_quota_bytes: u64,
    /// Bytes the state dir's files/ may hold of what clients stored (files.put); a file
    /// that would go over it is refused (REQUEST_TOO_LARGE).
    #[arg(long, global = true, default_value_t = crate::files::FILES_QUOTA)]
    pub files_quota_bytes: u64,
    /// Approval policy file (JSON rules: allow, deny or ask per action class and arguments).
    /// Without it only the defaults apply: no file:, chrome:, chrome-extension: or javascript:
    /// navigation.
    #[arg(long, global = true)]
    pub policy: Option<PathBuf>,
    /// Secrets file (0600; JSON: a list of {name, value, origins, apps?, totp?}): values the
    /// agent names (`secret`, `secret_totp`) and the daemon types only into those origins
    /// and apps, and hides in every answer, event, log line and capture. Read again on SIGHUP.
    #[arg(long, global = true, value_name = "FILE")]
    pub secrets: Option<PathBuf>,
    /// Also drive the Chromium on this debugging port, as chrome-<port> (repeatable). The
    /// daemon drives only its own browser otherwise; an allowed one keeps its own settings.
    #[arg(long = "browser-allow", global = true, value_name = "chrome-PORT", value_parser = browser_port)]
    pub browser_allow: Vec<u16>,
    /// A directory whose files a client may hand to a page (browser.upload); repeatable.
    /// Default: the state dir's files/ and downloads/. The token file, the policy file and
    /// the state dir's other files are never reachable, whatever the roots.
    #[arg(long = "files-root", global = true, value_name = "DIR")]
    pub files_root: Vec<PathBuf>,
    /// Seconds a session with no connection stays resumable; an MCP session (Streamable
    /// HTTP) with no request for this long ends (its Glovebox session stays resumable by
    /// its handle for as long again).
    #[arg(long, global = true, default_value_t = 600)]
    pub session_ttl_secs: u64,
    /// How long the screen (or page) must stay unchanged after an action before it counts
    /// as settled and is captured.
    #[arg(long, global = true, default_value_t = 80)]
    pub settle_quiet_ms: u64,
    /// The longest settle for one kind of action, as kind=ms (repeatable); kinds: pointer,
    /// type, key, scroll, navigate, window.
    #[arg(long = "settle-cap", global = true, value_name = "KIND=MS")]
    pub settle_cap: Vec<String>,
    /// Seconds the ops running at SIGTERM get to finish (new ones are refused meanwhile);
    /// then they are cancelled, held input is released, the children stop and the daemon
    /// exits 0. Give an orchestrator's kill timeout a few seconds more than this.
    #[arg(long, global = true, default_value_t = 10)]
    pub shutdown_grace_secs: u64,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Speak MCP on stdin/stdout for a local MCP host (Claude Desktop, Claude Code, Cursor…).
    /// Without --url it runs the daemon in this process, on its own desktop unless $DISPLAY
    /// answers; the host acts as an actor. Logs go to stderr.
    Mcp {
        /// Bridge to a running daemon instead, e.g. ws://127.0.0.1:7788/rpc, with the token
        /// in --token-file (its first line) or $GLOVEBOX_TOKEN.
        #[arg(long)]
        url: Option<String>,
    },
    /// Print a fresh link to the view page of the daemon at --listen (default
    /// 127.0.0.1:7788) for the token in --token-file (its first line) or $GLOVEBOX_TOKEN: a
    /// printed link's code works once. The daemon must be running.
    ViewLink,
    /// Run PROGRAM under a Landlock ruleset that hides the given paths (but the open ones
    /// inside them): how the daemon starts a desktop of its own uid (process/confine.rs).
    #[command(hide = true)]
    Confine {
        #[arg(long)]
        hide: Vec<PathBuf>,
        #[arg(long)]
        open: Vec<PathBuf>,
        #[arg(last = true, required = true)]
        argv: Vec<std::ffi::OsString>,
    },
    /// Manage the token file (--token-file, default the state dir's token).
    Token {
        #[command(subcommand)]
        action: TokenAction,
    },
}

#[derive(Debug, clap::Subcommand)]
pub enum TokenAction {
    /// Make a fresh token, append its hash to the token file (created 0600 when missing) and
    /// print the token once on stdout; a running daemon takes it at its next SIGHUP.
    Add {
        /// observer, actor, approver or admin.
        #[arg(long, default_value = "actor")]
        role: String,
        /// The party the token belongs to: tokens of one party share a browser context
        /// (cookies, storage, downloads, tabs); a token without one is a party of its own.
        #[arg(long)]
        party: Option<String>,
    },
}

fn browser_port(id: &str) -> Result<u16, String> {
    crate::browser::parse_browser_id(id)
        .map_err(|_| format!("{id:?} is not a browser id; give chrome-<port>, e.g. chrome-9222"))
}

fn default_state_dir() -> PathBuf {
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("glovebox")
}

impl Cli {
    /// The token file: --token-file, else the state dir's `token`.
    pub fn token_file(&self) -> PathBuf {
        self.token_file.clone().unwrap_or_else(|| self.state_dir.join("token"))
    }
}

/// A command line that names something the daemon cannot use.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CliError {
    #[error("--settle-cap: {0}")]
    SettleCap(String),
    #[error(transparent)]
    Policy(#[from] crate::approval::policy::PolicyError),
}

impl Config {
    /// The configuration the command line asks for, with `tokens` in force; the backends
    /// are `compose.rs`'s.
    /// The token file, when the tokens came from one, is what SIGHUP re-reads.
    pub fn from_cli(
        cli: &Cli,
        tokens: Tokens,
        token_file: Option<PathBuf>,
    ) -> Result<Config, CliError> {
        let mut config = Config::new(tokens, cli.state_dir.clone());
        config.token_file = token_file;
        config.allowed_origins = cli.allow_origin.clone();
        config.allowed_hosts = cli.allow_host.clone();
        config.max_message_bytes = cli.max_message_bytes;
        config.max_response_bytes = cli.max_response_bytes;
        config.max_batch = cli.max_batch;
        config.max_pending_approvals = cli.max_pending_approvals;
        config.max_asks_per_minute = cli.max_asks_per_minute;
        config.max_connections = cli.max_connections;
        config.max_connections_per_token = cli.max_connections_per_token;
        config.max_view_pages_per_token = cli.max_view_pages_per_token;
        config.max_mcp_sessions_per_token = cli.max_mcp_sessions_per_token;
        config.max_sessions_per_token = cli.max_sessions_per_token;
        config.max_in_flight = cli.max_in_flight;
        config.max_ops_per_sec = cli.max_ops_per_sec;
        config.max_text_chars = cli.max_text_chars;
        config.max_capture = crate::browser::ShotLimit {
            side: cli.max_capture_side,
            pixels: cli.max_capture_pixels,
        };
        config.max_labels = cli.max_annotate_labels;
        config.downloads_quota_bytes = cli.downloads_quota_bytes;
        config.session_ttl = std::time::Duration::from_secs(cli.session_ttl_secs);
        config.settle.quiet = std::time::Duration::from_millis(cli.settle_quiet_ms);
        for spec in &cli.settle_cap {
            config.settle.set_cap(spec).map_err(CliError::SettleCap)?;
        }
        if let Some(path) = &cli.policy {
            config.policy = crate::approval::policy::Policy::load(path)?;
        }
        // The files that hold credentials are never served as files.
        let secrets = config
            .token_file
            .iter()
            .chain(cli.policy.iter())
            .chain(cli.secrets.iter())
            .cloned()
            .collect();
        config.files =
            crate::files::FileRoots::new(&cli.state_dir, cli.files_root.clone(), secrets)
                .with_quota(cli.files_quota_bytes);
        config.shutdown_grace = std::time::Duration::from_secs(cli.shutdown_grace_secs);
        Ok(config)
    }
}
