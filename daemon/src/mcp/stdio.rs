//! `gloveboxd mcp` without `--url`: MCP on stdin/stdout for the one host that started the
//! process, served by this process's own daemon. stdout carries MCP alone; logs go to stderr
//! and children write to their log files (`process.rs`).

use std::sync::Arc;

use rmcp::ServiceExt as _;

use super::Handler;
use crate::auth::Role;
use crate::error::DaemonError;
use crate::state::Daemon;

/// Why serving MCP on stdio stopped short.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StdioError {
    #[error("cannot start the stdio client's session: {0}")]
    Session(#[from] DaemonError),
    #[error("the MCP host did not initialize: {0}")]
    Initialize(String),
    #[error("the MCP service stopped: {0}")]
    Stopped(String),
}

/// Serve the stdio client as `role` until it closes stdin.
pub async fn serve(daemon: Arc<Daemon>, role: Role) -> Result<(), StdioError> {
    let handler = Handler::local(daemon, role)?;
    serve_handler(handler).await
}

/// Serve any handler on this process's stdin and stdout until the host closes stdin.
pub async fn serve_handler<H: rmcp::ServerHandler>(handler: H) -> Result<(), StdioError> {
    let running = handler
        .serve(rmcp::transport::io::stdio_pipes())
        .await
        .map_err(|e| StdioError::Initialize(e.to_string()))?;
    let reason = running.waiting().await.map_err(|e| StdioError::Stopped(e.to_string()))?;
    tracing::info!(?reason, "the MCP host closed stdio");
    Ok(())
}
