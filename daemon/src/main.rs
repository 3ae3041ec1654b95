//! `gloveboxd`: parse the command line, listen, bring up (or adopt) the desktop while the port
//! already answers, serve until SIGTERM or Ctrl-C, drain, and stop everything it started.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use clap::Parser;
use glovebox_daemon::auth::Tokens;
use glovebox_daemon::desktop::embedded::{self, DesktopMode};
use glovebox_daemon::desktop::Slot;
use glovebox_daemon::process::Supervisor;
use glovebox_daemon::Config;
use glovebox_protocol::wire::BackendStatus;
use tokio::signal::unix::{signal, Signal, SignalKind};

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
struct Cli {
    /// Address to listen on (port 0 picks a free one; the banner prints it). Default
    /// 127.0.0.1:7788; `gloveboxd mcp` listens only when it is given.
    #[arg(long, global = true)]
    listen: Option<SocketAddr>,
    /// Token file: one line per token, `sha256:<hex of the token's SHA-256>`, optionally
    /// followed by a role (actor, observer, approver, admin); `gloveboxd token add` appends
    /// one. Created, mode 0600, with the hash of a fresh token (printed once, on a terminal)
    /// when it does not exist. Default: the state dir's token; $GLOVEBOX_TOKEN, when set, is
    /// used instead.
    #[arg(long, global = true)]
    token_file: Option<PathBuf>,
    /// Where logs, tokens and per-run desktop directories live.
    #[arg(long, global = true, default_value_os_t = default_state_dir())]
    state_dir: PathBuf,
    /// auto: use $DISPLAY when an X server answers there, else start one;
    /// embedded: always start a private Xvfb + D-Bus + AT-SPI + window manager;
    /// existing: require $DISPLAY.
    #[arg(long, global = true, value_enum, default_value_t = DesktopMode::Auto)]
    desktop: DesktopMode,
    /// When gloveboxd runs as root: the user its desktop runs as (Xvfb, the buses, the
    /// window manager, Chromium and every launched app), a name or a uid, so nothing on the
    /// desktop can read the state dir. Default: the user glovebox-desktop where it exists,
    /// else nobody (65534). As root, auto means embedded; with existing, the children stay
    /// root. Not root: the desktop runs as the daemon's own user and this is ignored.
    #[arg(long, global = true, value_name = "NAME|UID")]
    desktop_user: Option<String>,
    /// The desktop user's dir when gloveboxd runs as root: its HOME, runtime dirs, Chromium
    /// profile, downloads and the copies of uploaded files (root's, 0711; the parts the
    /// user's, 0700). Every dir above it must let that user through. Default:
    /// <tmp>/glovebox-desktop-<hash of the state dir>.
    #[arg(long, global = true, value_name = "DIR")]
    desktop_dir: Option<PathBuf>,
    /// Browser origin allowed to open the WebSocket (repeatable); others get 403.
    #[arg(long = "allow-origin", global = true)]
    allow_origin: Vec<String>,
    /// Host name /healthz and /readyz answer for beside localhost, 127.0.0.1, [::1] and the
    /// listen address (repeatable); other Host headers get 403.
    #[arg(long = "allow-host", global = true)]
    allow_host: Vec<String>,
    /// Largest accepted message in bytes (over it: REQUEST_TOO_LARGE).
    #[arg(long, global = true, default_value_t = 16 * 1024 * 1024)]
    max_message_bytes: u32,
    /// Largest answer frame in bytes (over it: RESULT_TOO_LARGE); a browser capture larger
    /// than this is refused the same way before the daemon reads it, over MCP too.
    #[arg(long, global = true, default_value_t = 16 * 1024 * 1024)]
    max_response_bytes: usize,
    /// Most calls in one JSON-RPC batch (over it: BATCH_TOO_LARGE, nothing runs).
    #[arg(long, global = true, default_value_t = 64)]
    max_batch: usize,
    /// Approvals one token may have waiting at once, over all its sessions (over it:
    /// TOO_MANY_APPROVALS).
    #[arg(long, global = true, default_value_t = 16)]
    max_pending_approvals: usize,
    /// New approvals one token may ask for in a minute, over all its sessions (over it:
    /// TOO_MANY_APPROVALS).
    #[arg(long, global = true, default_value_t = 30)]
    max_asks_per_minute: usize,
    /// Open WebSocket connections in all (over it: HTTP 429).
    #[arg(long, global = true, default_value_t = 1024)]
    max_connections: u32,
    /// Open WebSocket connections per token (over it: HTTP 429 naming the limit).
    #[arg(long, global = true, default_value_t = 64)]
    max_connections_per_token: usize,
    /// Open view pages per token (over it: HTTP 429 naming the limit).
    #[arg(long, global = true, default_value_t = 8)]
    max_view_pages_per_token: usize,
    /// MCP sessions (Streamable HTTP) one token may hold; opening one more ends its oldest.
    #[arg(long, global = true, default_value_t = 32)]
    max_mcp_sessions_per_token: usize,
    /// Glovebox sessions one token may keep (hello's, an MCP call's `"session": "new"`); one
    /// more ends the token's session idle the longest (none idle: BUSY).
    #[arg(long, global = true, default_value_t = 128)]
    max_sessions_per_token: usize,
    /// Print the view page's link (its code logs in once) in the banner even when stdout is
    /// not a terminal, e.g. a pod's log; by default it shows only on a terminal.
    #[arg(long, global = true)]
    print_view_link: bool,
    /// Ops in flight per connection before BUSY.
    #[arg(long, global = true, default_value_t = 32)]
    max_in_flight: usize,
    /// Ops a session may start per second before BUSY.
    #[arg(long, global = true, default_value_t = 50)]
    max_ops_per_sec: u32,
    /// Most characters evaluate, get_content and get_html return (the page cuts the rest;
    /// the result says truncated and total_chars).
    #[arg(long, global = true, default_value_t = 1024 * 1024)]
    max_text_chars: usize,
    /// Longest side of a browser capture in image pixels; a larger page is cut before
    /// Chromium renders it (the answer says truncated).
    #[arg(long, global = true, default_value_t = 16_384)]
    max_capture_side: u32,
    /// Most pixels of a browser capture (default 64 Mpx, 2^26); the height gives way.
    #[arg(long, global = true, default_value_t = 64 * 1024 * 1024)]
    max_capture_pixels: u64,
    /// Most ref tags one screenshot_annotate draws (the answer says how many it left out).
    #[arg(long, global = true, default_value_t = 500)]
    max_annotate_labels: usize,
    /// Bytes the state dir's downloads/ may hold (downloads and PDFs); the oldest files go
    /// first.
    #[arg(long, global = true, default_value_t = 1024 * 1024 * 1024)]
    downloads_quota_bytes: u64,
    /// Bytes the state dir's files/ may hold of what clients stored (files.put); a file
    /// that would go over it is refused (REQUEST_TOO_LARGE).
    #[arg(long, global = true, default_value_t = glovebox_daemon::files::FILES_QUOTA)]
    files_quota_bytes: u64,
    /// Approval policy file (JSON rules: allow, deny or ask per action class and arguments).
    /// Without it only the defaults apply: no file:, chrome:, chrome-extension: or javascript:
    /// navigation.
    #[arg(long, global = true)]
    policy: Option<PathBuf>,
    /// Secrets file (0600; JSON: a list of {name, value, origins, apps?, totp?}): values the
    /// agent names (`secret`, `secret_totp`) and the daemon types only into those origins
    /// and apps, and hides in every answer, event, log line and capture. Read again on SIGHUP.
    #[arg(long, global = true, value_name = "FILE")]
    secrets: Option<PathBuf>,
    /// Also drive the Chromium on this debugging port, as chrome-<port> (repeatable). The
    /// daemon drives only its own browser otherwise; an allowed one keeps its own settings.
    #[arg(long = "browser-allow", global = true, value_name = "chrome-PORT", value_parser = browser_port)]
    browser_allow: Vec<u16>,
    /// A directory whose files a client may hand to a page (browser.upload); repeatable.
    /// Default: the state dir's files/ and downloads/. The token file, the policy file and
    /// the state dir's other files are never reachable, whatever the roots.
    #[arg(long = "files-root", global = true, value_name = "DIR")]
    files_root: Vec<PathBuf>,
    /// Seconds a session with no connection stays resumable; an MCP session (Streamable
    /// HTTP) with no request for this long ends (its Glovebox session stays resumable by
    /// its handle for as long again).
    #[arg(long, global = true, default_value_t = 600)]
    session_ttl_secs: u64,
    /// How long the screen (or page) must stay unchanged after an action before it counts
    /// as settled and is captured.
    #[arg(long, global = true, default_value_t = 80)]
    settle_quiet_ms: u64,
    /// The longest settle for one kind of action, as kind=ms (repeatable); kinds: pointer,
    /// type, key, scroll, navigate, window.
    #[arg(long = "settle-cap", global = true, value_name = "KIND=MS")]
    settle_cap: Vec<String>,
    /// Seconds the ops running at SIGTERM get to finish (new ones are refused meanwhile);
    /// then they are cancelled, held input is released, the children stop and the daemon
    /// exits 0. Give an orchestrator's kill timeout a few seconds more than this.
    #[arg(long, global = true, default_value_t = 10)]
    shutdown_grace_secs: u64,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
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
    /// Manage the token file (--token-file, default the state dir's token).
    Token {
        #[command(subcommand)]
        action: TokenAction,
    },
}

#[derive(Debug, clap::Subcommand)]
enum TokenAction {
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
    glovebox_daemon::browser::parse_browser_id(id)
        .map_err(|_| format!("{id:?} is not a browser id; give chrome-<port>, e.g. chrome-9222"))
}

fn default_state_dir() -> PathBuf {
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("glovebox")
}

/// Where the tokens came from, for the banner.
struct TokenSource {
    /// `$GLOVEBOX_TOKEN` or the token file's path.
    name: String,
    /// A token made just now for a new token file: shown once, on a terminal.
    created: Option<String>,
}

/// The tokens, where they came from, and the file to reload on SIGHUP.
fn tokens(cli: &Cli) -> anyhow::Result<(Tokens, TokenSource, Option<PathBuf>)> {
    if let Ok(t) = std::env::var("GLOVEBOX_TOKEN") {
        if !t.trim().is_empty() {
            let tokens = glovebox_daemon::auth::from_env(&t)?;
            return Ok((
                tokens,
                TokenSource { name: "$GLOVEBOX_TOKEN".into(), created: None },
                None,
            ));
        }
    }
    let path = token_file(cli);
    let loaded = Tokens::load_or_create(&path)?;
    if !loaded.plain_lines.is_empty() {
        tracing::warn!(
            lines = ?loaded.plain_lines,
            "the token file {} holds plain tokens, which anything that reads the file can use; \
             keep a sha256:<hex> line each instead (`gloveboxd token add` makes new ones)",
            path.display()
        );
    }
    let source = TokenSource { name: path.display().to_string(), created: loaded.created };
    Ok((loaded.tokens, source, Some(path)))
}

/// As root, the desktop gets a user of its own (`process/user.rs`); the desktop mode to use.
fn desktop_user(cli: &Cli, supervisor: &Supervisor) -> anyhow::Result<DesktopMode> {
    use glovebox_daemon::process::user::{self, DesktopUser};
    if !nix::unistd::geteuid().is_root() {
        if cli.desktop_user.is_some() {
            tracing::warn!("--desktop-user needs a daemon started as root; the desktop runs as this daemon's user");
        }
        return Ok(cli.desktop);
    }
    if cli.desktop == DesktopMode::Existing {
        tracing::warn!(
            "as root with --desktop existing, the apps and Chromium the daemon starts run as root and can read the state dir; --desktop embedded runs them as the desktop user"
        );
        return Ok(cli.desktop);
    }
    let id = user::resolve(cli.desktop_user.as_deref())?;
    if id.uid == 0 {
        tracing::warn!("--desktop-user is root: the desktop can read the state dir");
        return Ok(cli.desktop);
    }
    let dir = cli.desktop_dir.clone().unwrap_or_else(|| user::default_dir(&cli.state_dir));
    let prepared = DesktopUser::prepare(id, &dir)?;
    tracing::info!(
        user = prepared.id.name,
        uid = prepared.id.uid,
        dir = %prepared.dir().display(),
        "the desktop runs as its own user, who cannot read the state dir"
    );
    supervisor.set_desktop_user(Some(prepared));
    // Adopting a display would hand root's X and D-Bus sessions to that user's programs.
    Ok(DesktopMode::Embedded)
}

fn token_file(cli: &Cli) -> PathBuf {
    cli.token_file.clone().unwrap_or_else(|| cli.state_dir.join("token"))
}

/// `gloveboxd token add`: a fresh token, its hash appended to the token file.
fn token_add(cli: &Cli, role: &str, party: Option<&str>) -> anyhow::Result<()> {
    let Some(role) = glovebox_daemon::auth::Role::parse(role) else {
        anyhow::bail!("unknown role {role:?}: use observer, actor, approver or admin");
    };
    if let Some(p) = party.filter(|p| !glovebox_daemon::auth::party_name(p)) {
        anyhow::bail!("bad party {p:?}: use 1 to 64 letters, digits, '-' or '_'");
    }
    nix::sys::stat::umask(nix::sys::stat::Mode::from_bits_truncate(0o077));
    let path = token_file(cli);
    let token = glovebox_daemon::auth::add(&path, role, party)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{token}")?;
    eprintln!(
        "gloveboxd: a new {} token; {} keeps only its hash, so keep the token now (a running daemon takes it at its next SIGHUP)",
        role.as_str(),
        path.display()
    );
    Ok(())
}

fn main() -> anyhow::Result<()> {
    use glovebox_daemon::secrets::{LogWriter, Redactor, Vault};
    // Every log line passes it: a secret's value never reaches the log.
    let redactor = Redactor::default();
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::EnvFilter::try_from_env("GLOVEBOX_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with(tracing_subscriber::filter::filter_fn(|meta| {
            glovebox_daemon::auth::may_log(meta.target(), *meta.level())
        }))
        .with(tracing_subscriber::fmt::layer().with_writer(LogWriter(redactor.clone())))
        .init();
    let mut cli = Cli::parse();
    let stdio = matches!(cli.command, Some(Command::Mcp { .. }));
    if let Some(Command::Mcp { url: Some(url) }) = &cli.command {
        return bridge(&cli, url);
    }
    if let Some(Command::ViewLink) = &cli.command {
        return view_link(&cli);
    }
    if let Some(Command::Token { action: TokenAction::Add { role, party } }) = &cli.command {
        return token_add(&cli, role, party.as_deref());
    }
    // What the daemon and its children write (logs, cookies, PDFs, downloads, profiles) is
    // the user's alone: files 0600, dirs 0700.
    nix::sys::stat::umask(nix::sys::stat::Mode::from_bits_truncate(0o077));
    std::fs::create_dir_all(&cli.state_dir)
        .and_then(|()| {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&cli.state_dir, std::fs::Permissions::from_mode(0o700))
        })
        .with_context(|| format!("cannot create the state dir {}", cli.state_dir.display()))?;
    let (tokens, token_source, token_file) = tokens(&cli)?;
    let vault = match &cli.secrets {
        Some(path) => Vault::load(path.clone(), redactor)?,
        None => Vault::new(redactor),
    };

    // Bind first: a taken port fails fast, before any desktop is started. On stdio the
    // daemon listens only when asked to.
    let listen = match (cli.listen, stdio) {
        (Some(addr), _) => Some(addr),
        (None, false) => Some(SocketAddr::from(([127, 0, 0, 1], 7788))),
        (None, true) => None,
    };
    let listener = match listen {
        Some(addr) => {
            let l = std::net::TcpListener::bind(addr)
                .with_context(|| format!("cannot listen on {addr}"))?;
            l.set_nonblocking(true)?;
            Some(l)
        }
        None => None,
    };

    let supervisor = Supervisor::new(&cli.state_dir);
    cli.desktop = desktop_user(&cli, &supervisor)?;
    let desktop = Slot::starting();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let served = runtime.block_on(serve(
        &cli,
        listener,
        (tokens, token_file),
        (&token_source, vault),
        desktop.clone(),
        &supervisor,
    ));
    // Waits for a desktop start still under way, so what it started is stopped below.
    drop(runtime);
    if let Some(env) = desktop.env() {
        env.stop();
    }
    supervisor.stop_all();
    served
}

async fn serve(
    cli: &Cli,
    listener: Option<std::net::TcpListener>,
    (tokens, token_file): (Tokens, Option<PathBuf>),
    (token_source, vault): (&TokenSource, glovebox_daemon::secrets::Vault),
    desktop: Slot,
    supervisor: &Supervisor,
) -> anyhow::Result<()> {
    // From here on SIGTERM drains, even while the desktop is still starting.
    let signals = (signal(SignalKind::terminate()), signal(SignalKind::interrupt()));
    let listener = listener.map(tokio::net::TcpListener::from_std).transpose()?;
    // The browser backend; the default Chromium starts on first use, not here. It gets the
    // desktop's DISPLAY and buses from the supervisor, which every child's environment comes
    // from once the desktop is up (calls are refused until then).
    let browser = Arc::new(glovebox_daemon::browser::Browsers::new(
        cli.state_dir.clone(),
        supervisor.clone(),
        Vec::new(),
    ));
    for port in &cli.browser_allow {
        browser.allow(*port);
    }
    // Whether Chromium keeps its sandbox is known (and logged) before anyone asks.
    let check = browser.clone();
    tokio::task::spawn_blocking(move || check.check_sandbox());
    let probe_browser = browser.clone();
    let probe_desktop = desktop.clone();
    let backends = Arc::new(move || {
        let mut map = BTreeMap::new();
        if let Some(status) = probe_desktop.status() {
            map.insert("desktop".to_owned(), status);
        }
        let (word, reason) = probe_browser.status();
        let mut extra = BTreeMap::new();
        if let Some(sandbox) = probe_browser.sandbox() {
            extra.insert("sandbox".to_owned(), serde_json::Value::Bool(sandbox.on));
            extra.insert("sandbox_reason".to_owned(), serde_json::Value::String(sandbox.reason));
        }
        map.insert(
            "browser".to_owned(),
            BackendStatus { status: word.into(), reason: Some(reason), extra },
        );
        map
    });
    let mut config = Config::new(tokens, cli.state_dir.clone());
    config.token_file = token_file;
    config.secrets = Arc::new(vault);
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
    config.max_capture = glovebox_daemon::browser::ShotLimit {
        side: cli.max_capture_side,
        pixels: cli.max_capture_pixels,
    };
    config.max_labels = cli.max_annotate_labels;
    config.downloads_quota_bytes = cli.downloads_quota_bytes;
    config.session_ttl = std::time::Duration::from_secs(cli.session_ttl_secs);
    config.settle.quiet = std::time::Duration::from_millis(cli.settle_quiet_ms);
    for spec in &cli.settle_cap {
        config.settle.set_cap(spec).map_err(anyhow::Error::msg)?;
    }
    if let Some(path) = &cli.policy {
        config.policy = glovebox_daemon::approval::policy::Policy::load(path)?;
    }
    let secrets = config
        .token_file
        .iter()
        .chain(cli.policy.iter())
        .chain(cli.secrets.iter())
        .cloned()
        .collect();
    config.files =
        glovebox_daemon::files::FileRoots::new(&cli.state_dir, cli.files_root.clone(), secrets)
            .with_quota(cli.files_quota_bytes);
    if let Some(user) = supervisor.desktop_user() {
        config.files = config.files.with_desktop_user(user);
    }
    config.backends = backends;
    config.browser = Some(browser);
    config.desktop = desktop.clone();
    config.shutdown_grace = std::time::Duration::from_secs(cli.shutdown_grace_secs);

    let up = {
        let (mode, dir, sup) = (cli.desktop, cli.state_dir.clone(), supervisor.clone());
        async move { desktop.bring_up(mode, dir, sup).await }
    };
    let mut shutdown = shutdown_signal(signals);
    match (listener, &cli.command) {
        (listener, Some(Command::Mcp { .. })) => {
            // The MCP host's first calls come at once: stdio is served once the desktop is up.
            let env = tokio::select! {
                r = up => r?,
                () = &mut shutdown => return Ok(()),
            };
            if let Some(l) = &listener {
                tracing::info!("also listening on ws://{}/rpc", l.local_addr()?);
            }
            tracing::info!(display = env.display(), "serving MCP on stdio");
            glovebox_daemon::run_mcp_stdio(listener, config, shutdown).await?;
        }
        (Some(listener), None) => {
            let addr = listener.local_addr()?;
            use std::io::IsTerminal as _;
            let terminal = std::io::stdout().is_terminal();
            let shown = terminal || cli.print_view_link;
            let code = config.tokens.first().filter(|_| shown);
            let code = code.and_then(|t| config.view_access.mint(&t));
            banner_head(addr, token_source, code.as_deref(), terminal);
            // The port answers now (`/readyz`: 503 while the desktop starts); a desktop that
            // cannot start stops the daemon with its error.
            let failed = Arc::new(Mutex::new(None));
            let (fail, failure) = tokio::sync::oneshot::channel();
            let wscat = wscat_token(token_source, terminal);
            tokio::spawn(async move {
                match up.await {
                    Ok(env) => banner_tail(addr, &wscat, &env),
                    Err(e) => drop(fail.send(e)),
                }
            });
            let stop = {
                let failed = failed.clone();
                async move {
                    tokio::select! {
                        () = shutdown => {}
                        Ok(e) = failure => {
                            tracing::error!("the desktop did not start; stopping");
                            *failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                        }
                    }
                }
            };
            glovebox_daemon::run(listener, config, stop).await?;
            let failed = failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
            if let Some(e) = failed {
                return Err(e.into());
            }
        }
        (None, None) => anyhow::bail!("nothing to serve: no listener and no stdio"),
        (_, Some(Command::ViewLink | Command::Token { .. })) => {
            unreachable!("view-link and token return before serving")
        }
    }
    tracing::info!("stopped");
    Ok(())
}

/// The token a client subcommand presents: `$GLOVEBOX_TOKEN`, else the token file's first.
fn client_token(cli: &Cli, what: &str) -> anyhow::Result<String> {
    Ok(match std::env::var("GLOVEBOX_TOKEN") {
        Ok(t) if !t.trim().is_empty() => t.trim().to_owned(),
        _ => {
            let path = cli.token_file.as_ref().with_context(|| {
                format!(
                    "{what} needs the daemon's token: give --token-file PATH or set GLOVEBOX_TOKEN"
                )
            })?;
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the token file {}", path.display()))?;
            let first = text
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty() && !l.starts_with('#'))
                .and_then(|l| l.split_whitespace().next())
                .with_context(|| format!("the token file {} holds no token", path.display()))?;
            if first.starts_with("sha256:") {
                anyhow::bail!(
                    "the token file {} keeps hashes only; {what} needs the token itself in GLOVEBOX_TOKEN",
                    path.display()
                );
            }
            first.to_owned()
        }
    })
}

/// `gloveboxd view-link`: asks the running daemon (`view.link` over `/rpc`) for a fresh
/// single-use code of the token and prints the link.
fn view_link(cli: &Cli) -> anyhow::Result<()> {
    use futures::{SinkExt as _, StreamExt as _};
    use tokio_tungstenite::tungstenite::{client::IntoClientRequest as _, Message};
    let token = client_token(cli, "gloveboxd view-link")?;
    let addr = cli.listen.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 7788)));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let path = runtime.block_on(async {
        let mut req = format!("ws://{addr}/rpc").into_client_request()?;
        req.headers_mut().insert("authorization", format!("Bearer {token}").parse()?);
        let connect = tokio_tungstenite::connect_async(req);
        let (mut ws, _) = tokio::time::timeout(std::time::Duration::from_secs(10), connect)
            .await
            .with_context(|| format!("no answer from a daemon at {addr} within 10 s"))?
            .with_context(|| {
                format!("cannot reach the daemon at ws://{addr}/rpc (is it running? give --listen)")
            })?;
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"view.link"}"#;
        ws.send(Message::text(call)).await?;
        let answer = tokio::time::timeout(std::time::Duration::from_secs(10), async {
            while let Some(m) = ws.next().await {
                if let Message::Text(t) = m? {
                    return Ok::<_, anyhow::Error>(serde_json::from_str::<serde_json::Value>(&t)?);
                }
            }
            anyhow::bail!("the daemon closed the connection")
        })
        .await
        .context("the daemon did not answer view.link within 10 s")??;
        let Some(path) = answer["result"]["path"].as_str() else {
            anyhow::bail!("the daemon refused view.link: {}", answer["error"]);
        };
        Ok::<_, anyhow::Error>(path.to_owned())
    })?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "http://{addr}{path}")?;
    Ok(())
}

/// `gloveboxd mcp --url`: MCP on stdio, bridged to the daemon at `url`.
fn bridge(cli: &Cli, url: &str) -> anyhow::Result<()> {
    let token = client_token(cli, "gloveboxd mcp --url")?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(glovebox_daemon::mcp::bridge::serve(url, &token))?;
    Ok(())
}

/// What a person needs to connect, on stdout: the address at once (the first line is what
/// tests parse) ... Secrets (a new token, a view code) only on a terminal, never into a log
/// that stdout may be, unless asked.
fn banner_head(addr: SocketAddr, source: &TokenSource, view_code: Option<&str>, terminal: bool) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "gloveboxd listening on ws://{addr}/rpc");
    let name = &source.name;
    let _ = match (&source.created, terminal) {
        (_, _) if name.starts_with('$') => writeln!(out, "  token: {name}"),
        (Some(t), true) => {
            writeln!(out, "  token: {t} (new, shown once: {name} keeps only its hash)")
        }
        _ => writeln!(out, "  token: hashed in {name}; gloveboxd token add prints a new one"),
    };
    let _ = match view_code {
        Some(code) => writeln!(out, "  view: http://{addr}/view?code={code} (works once; gloveboxd view-link prints another)"),
        None => writeln!(out, "  view: gloveboxd view-link prints a link (not shown off a terminal; --print-view-link)"),
    };
    let _ = out.flush();
}

/// The token as the banner's wscat line writes it.
fn wscat_token(source: &TokenSource, terminal: bool) -> String {
    match &source.created {
        _ if source.name.starts_with('$') => "$GLOVEBOX_TOKEN".to_owned(),
        Some(t) if terminal => t.clone(),
        _ => "$TOKEN".to_owned(),
    }
}

/// ... and the rest once the desktop is up and calls are taken.
fn banner_tail(addr: SocketAddr, token_cmd: &str, desktop: &embedded::DesktopEnv) {
    let mut out = std::io::stdout().lock();
    match desktop.xauthority() {
        Some(xauth) => {
            let _ = writeln!(out, "  desktop: DISPLAY={} XAUTHORITY={xauth}", desktop.display());
        }
        None => {
            let _ = writeln!(out, "  desktop: DISPLAY={}", desktop.display());
        }
    }
    let _ = writeln!(out, "  health: curl http://{addr}/healthz (alive), /readyz (ready)");
    let _ =
        writeln!(out, "  try: wscat -c ws://{addr}/rpc -H \"Authorization: Bearer {token_cmd}\"");
    let _ = writeln!(out, "       then send {{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"session.hello\",\"params\":{{\"protocol\":1}}}}");
    let _ = out.flush();
}

/// Resolves at the first SIGTERM or SIGINT (watched from the moment they were registered).
fn shutdown_signal(
    (term, int): (std::io::Result<Signal>, std::io::Result<Signal>),
) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
    Box::pin(async move {
        let watch = |s: std::io::Result<Signal>, name: &'static str| async move {
            match s {
                Ok(mut s) => drop(s.recv().await),
                Err(e) => {
                    tracing::warn!("cannot watch {name}: {e}");
                    std::future::pending::<()>().await;
                }
            }
        };
        tokio::select! {
            () = watch(term, "SIGTERM") => tracing::info!("SIGTERM: draining, then stopping"),
            () = watch(int, "SIGINT") => tracing::info!("interrupt: draining, then stopping"),
        }
    })
}
