//! `gloveboxd`: parse the command line, listen, bring up (or adopt) the desktop while the port
//! already answers, serve until SIGTERM or Ctrl-C, drain, and stop everything it started.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use clap::Parser;
use glovebox_daemon::auth::Tokens;
use glovebox_daemon::cli::{Cli, Command, TokenAction};
use glovebox_daemon::desktop::embedded::{DesktopEnv, DesktopError, DesktopMode};
use glovebox_daemon::desktop::Slot;
use glovebox_daemon::process::Supervisor;
use glovebox_daemon::Config;
use tokio::signal::unix::{signal, Signal, SignalKind};

mod banner;
mod client;

/// The tokens, where they came from, and the file to reload on SIGHUP.
fn tokens(cli: &Cli) -> anyhow::Result<(Tokens, banner::TokenSource, Option<PathBuf>)> {
    if let Ok(t) = std::env::var("GLOVEBOX_TOKEN") {
        if !t.trim().is_empty() {
            let tokens = glovebox_daemon::auth::from_env(&t)?;
            return Ok((
                tokens,
                banner::TokenSource { name: "$GLOVEBOX_TOKEN".into(), created: None },
                None,
            ));
        }
    }
    let path = cli.token_file();
    let loaded = Tokens::load_or_create(&path)?;
    if !loaded.plain_lines.is_empty() {
        tracing::warn!(
            lines = ?loaded.plain_lines,
            "the token file {} holds plain tokens, which anything that reads the file can use; \
             keep a sha256:<hex> line each instead (`gloveboxd token add` makes new ones)",
            path.display()
        );
    }
    let source = banner::TokenSource { name: path.display().to_string(), created: loaded.created };
    Ok((loaded.tokens, source, Some(path)))
}

/// As root, the desktop gets a user of its own (`process/user.rs`); the desktop mode to use.
/// A desktop of the daemon's own uid starts confined out of the state dir and the token,
/// secrets and policy files when this machine allows it (`process/confine.rs`); the log says
/// which, and `/readyz` too (`desktop_isolation`).
fn confine_desktop(cli: &Cli, token_file: Option<&std::path::Path>, supervisor: &Supervisor) {
    let private: Vec<PathBuf> = token_file
        .map(PathBuf::from)
        .into_iter()
        .chain(cli.secrets.clone())
        .chain(cli.policy.clone())
        .collect();
    match glovebox_daemon::process::confine::for_state_dir(&cli.state_dir, &private) {
        Ok(c) => {
            tracing::info!("the desktop runs as this daemon's user, confined (Landlock) out of the state dir");
            supervisor.set_confinement(Some(c));
        }
        Err(e) => tracing::warn!(
            "the desktop runs as this daemon's user and can read the state dir: {e}; start the daemon as root to give the desktop a user of its own"
        ),
    }
}

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

/// Logs to stderr through `redactor`, so a secret's value never reaches the log.
fn init_logging(redactor: &glovebox_daemon::secrets::Redactor) {
    use glovebox_daemon::secrets::LogWriter;
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
}

/// The state dir, made the user's alone, as is everything the daemon and its children write
/// from here on (logs, cookies, PDFs, downloads, profiles): files 0600, dirs 0700.
fn make_state_dir(cli: &Cli) -> anyhow::Result<()> {
    nix::sys::stat::umask(nix::sys::stat::Mode::from_bits_truncate(0o077));
    std::fs::create_dir_all(&cli.state_dir)
        .and_then(|()| {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&cli.state_dir, std::fs::Permissions::from_mode(0o700))
        })
        .with_context(|| format!("cannot create the state dir {}", cli.state_dir.display()))
}

/// Binds first: a taken port fails fast, before any desktop is started. On stdio the daemon
/// listens only when asked to.
fn bind(cli: &Cli, stdio: bool) -> anyhow::Result<Option<std::net::TcpListener>> {
    let listen = match (cli.listen, stdio) {
        (Some(addr), _) => Some(addr),
        (None, false) => Some(SocketAddr::from(([127, 0, 0, 1], 7788))),
        (None, true) => None,
    };
    let Some(addr) = listen else { return Ok(None) };
    let l =
        std::net::TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    l.set_nonblocking(true)?;
    Ok(Some(l))
}

fn main() -> anyhow::Result<()> {
    use glovebox_daemon::secrets::{Redactor, Vault};
    // Every log line passes it: a secret's value never reaches the log.
    let redactor = Redactor::default();
    init_logging(&redactor);
    let mut cli = Cli::parse();
    if let Some(Command::Confine { hide, open, argv }) = &cli.command {
        return Err(glovebox_daemon::process::confine::exec(hide, open, argv));
    }
    let stdio = matches!(cli.command, Some(Command::Mcp { .. }));
    if let Some(Command::Mcp { url: Some(url) }) = &cli.command {
        return client::bridge(&cli, url);
    }
    if let Some(Command::ViewLink) = &cli.command {
        return client::view_link(&cli);
    }
    if let Some(Command::Token { action: TokenAction::Add { role, party } }) = &cli.command {
        return client::token_add(&cli, role, party.as_deref());
    }
    make_state_dir(&cli)?;
    let (tokens, token_source, token_file) = tokens(&cli)?;
    let vault = match &cli.secrets {
        Some(path) => Vault::load(path.clone(), redactor)?,
        None => Vault::new(redactor),
    };
    let listener = bind(&cli, stdio)?;
    let supervisor = Supervisor::new(&cli.state_dir);
    cli.desktop = desktop_user(&cli, &supervisor)?;
    if supervisor.desktop_user().is_none() {
        confine_desktop(&cli, token_file.as_deref(), &supervisor);
    }
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
    (token_source, vault): (&banner::TokenSource, glovebox_daemon::secrets::Vault),
    desktop: Slot,
    supervisor: &Supervisor,
) -> anyhow::Result<()> {
    // From here on SIGTERM drains, even while the desktop is still starting.
    let signals = (signal(SignalKind::terminate()), signal(SignalKind::interrupt()));
    let listener = listener.map(tokio::net::TcpListener::from_std).transpose()?;
    let mut config = Config::from_cli(cli, tokens, token_file)?;
    config.secrets = Arc::new(vault);
    glovebox_daemon::compose::backends(
        &mut config,
        supervisor,
        desktop.clone(),
        &cli.browser_allow,
    );

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
            serve_port(cli, listener, config, token_source, up, shutdown).await?
        }
        (None, None) => anyhow::bail!("nothing to serve: no listener and no stdio"),
        (_, Some(Command::ViewLink | Command::Token { .. } | Command::Confine { .. })) => {
            unreachable!("view-link and token return before serving")
        }
    }
    tracing::info!("stopped");
    Ok(())
}

/// Serves the port: it answers at once (`/readyz`: 503 while the desktop starts); a desktop
/// that cannot start stops the daemon with its error.
async fn serve_port(
    cli: &Cli,
    listener: tokio::net::TcpListener,
    config: Config,
    token_source: &banner::TokenSource,
    up: impl std::future::Future<Output = Result<Arc<DesktopEnv>, DesktopError>> + Send + 'static,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let addr = listener.local_addr()?;
    use std::io::IsTerminal as _;
    let terminal = std::io::stdout().is_terminal();
    let shown = terminal || cli.print_view_link;
    let code = config.tokens.first().filter(|_| shown);
    let code = code.and_then(|t| config.view_access.mint(&t));
    banner::head(addr, token_source, code.as_deref(), terminal);
    let failed = Arc::new(Mutex::new(None));
    let (fail, failure) = tokio::sync::oneshot::channel();
    let wscat = banner::wscat_token(token_source, terminal);
    tokio::spawn(async move {
        match up.await {
            Ok(env) => banner::tail(addr, &wscat, &env),
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
    Ok(())
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
