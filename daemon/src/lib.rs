//! gloveboxd: hands and eyes on a virtual desktop and Chromium for a remote agent, over
//! versioned JSON-RPC 2.0 on WebSocket.
//!
//! `run` takes a bound listener, the configuration and a shutdown signal, so tests run the
//! real daemon on port 0. When the signal comes the daemon drains (`drain.rs`) before it
//! closes its connections.

mod answer;
pub mod approval;
pub mod auth;
pub mod browser;
mod capture;
pub mod cli;
mod clock;
pub mod code;
pub mod compose;
pub mod desktop;
mod dispatch;
mod drain;
pub mod error;
mod events;
pub mod files;
mod front;
mod live;
pub mod mcp;
mod ops;
mod people;
pub mod process;
pub mod ready;
pub mod registry;
pub mod rpc;
pub mod secrets;
mod session;
pub mod settle;
pub mod state;
mod upgrade;
pub mod view;

use std::future::Future;

use tokio::net::TcpListener;

pub use front::ServeError;
pub use state::{BackendProbe, Config};

/// Serve `listener` until `shutdown` resolves, then drain: the port keeps answering (new ops
/// are refused) while running ops finish within the grace period.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    let daemon = state::Daemon::new(config);
    if daemon.config.token_file.is_some() {
        tokio::spawn(reload_on_sighup(daemon.clone()));
    }
    let drained = {
        let daemon = daemon.clone();
        async move {
            shutdown.await;
            drain::drain(&daemon).await;
        }
    };
    front::serve(listener, daemon, drained).await
}

/// `gloveboxd mcp`: serve MCP on stdin/stdout to the host that started the process, acting
/// as an actor, until the host closes stdin or `shutdown` resolves; `listener`, when given,
/// serves `/rpc` and `/mcp` beside it (a person watching, another client).
pub async fn run_mcp_stdio(
    listener: Option<TcpListener>,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> Result<(), mcp::stdio::StdioError> {
    let daemon = state::Daemon::new(config);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = listener.map(|l| {
        let daemon = daemon.clone();
        tokio::spawn(async move {
            if let Err(e) = front::serve(l, daemon, async { drop(stopped.await) }).await {
                tracing::warn!("the listener stopped: {e}");
            }
        })
    });
    let drained = {
        let daemon = daemon.clone();
        async move {
            shutdown.await;
            drain::drain(&daemon).await;
        }
    };
    let result = tokio::select! {
        r = mcp::stdio::serve(daemon, auth::Role::Actor) => r,
        () = drained => Ok(()),
    };
    let _ = stop.send(());
    if let Some(task) = served {
        drop(task.await);
    }
    result
}

/// SIGHUP re-reads the token file: new connections see the new tokens, open ones whose
/// token was revoked or whose role changed are closed; the secrets file is read again too.
async fn reload_on_sighup(daemon: std::sync::Arc<state::Daemon>) {
    use tokio::signal::unix::{signal, SignalKind};
    let Ok(mut hup) = signal(SignalKind::hangup()) else {
        tracing::warn!("cannot watch SIGHUP; token reloads are off");
        return;
    };
    while hup.recv().await.is_some() {
        match daemon.reload_tokens() {
            Ok((n, closed)) => tracing::info!(tokens = n, closed, "SIGHUP: token file reloaded"),
            Err(e) => tracing::warn!("SIGHUP: {e}; the previous tokens stay in force"),
        }
        match daemon.config.secrets.reload() {
            Ok(n) => tracing::info!(secrets = n, "SIGHUP: secrets file reloaded"),
            Err(e) => tracing::warn!("SIGHUP: {e}; the previous secrets stay in force"),
        }
    }
}
