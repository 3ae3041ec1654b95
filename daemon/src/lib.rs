//! gloveboxd: hands and eyes on a virtual desktop and Chromium for a remote agent, over
//! versioned JSON-RPC 2.0 on WebSocket.
//!
//! `run` takes a bound listener, the configuration and a shutdown signal, so tests run the
//! real daemon on port 0.

pub mod approval;
pub mod browser;
pub mod desktop;
mod dispatch;
pub mod error;
mod events;
pub mod process;
pub mod registry;
pub mod rpc;
mod session;
pub mod state;

use std::future::Future;

use tokio::net::TcpListener;

pub use state::{BackendProbe, Config};

/// Serve `listener` until `shutdown` resolves.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> Result<(), rpc::ServeError> {
    let daemon = state::Daemon::new(config);
    rpc::serve(listener, daemon, shutdown).await
}
