//! MCP's Streamable HTTP at `/mcp`, each MCP session bound to the token that opened it.
//!
//! rmcp hands out an `Mcp-Session-Id` and serves whoever presents it; here every request
//! that carries one (a POST, a `GET` that resumes a stream with `Last-Event-ID`, a `DELETE`,
//! the POST that answers an elicitation) must come with the same token as the `initialize`
//! that made it, or it is answered `404` exactly as an unknown session is. A token keeps at
//! most `--max-mcp-sessions-per-token` sessions (opening one more closes its own oldest,
//! never another token's); sessions end after `--session-ttl-secs` without a request; a
//! reload that revokes a token or changes its role closes its sessions.

use std::sync::Arc;

use http::{Request, Response, StatusCode};
use jsonrpsee::server::HttpBody;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tower::Service as _;

use crate::auth::{Digest, Role};
use crate::state::Daemon;

/// The header naming an MCP session.
const SESSION_HEADER: &str = "mcp-session-id";

pub type Service = StreamableHttpService<super::Handler, LocalSessionManager>;

/// The Streamable HTTP service. rmcp checks `Host` as `/healthz` does (loopback names and
/// `--allow-host`); `Origin` and the token are checked before a request reaches it.
pub fn service(daemon: &Arc<Daemon>) -> Service {
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec();
    hosts.extend(daemon.config.allowed_hosts.iter().cloned());
    let config = StreamableHttpServerConfig::default().with_allowed_hosts(hosts);
    let mut manager = LocalSessionManager::default();
    // A session nobody used for the TTL ends, as a WebSocket session does (rmcp's own
    // default is 5 minutes, which the docs never said).
    manager.session_config.keep_alive = Some(daemon.config.session_ttl);
    let manager = Arc::new(manager);
    daemon.mcp_sessions.set_manager(manager.clone());
    let d = daemon.clone();
    Service::new(move || Ok(super::Handler::new(d.clone())), manager, config)
}

/// 404 as rmcp answers an unknown session: another token's session does not exist.
fn not_found() -> Response<HttpBody> {
    let mut r = Response::new(HttpBody::from("Not Found: Session not found"));
    *r.status_mut() = StatusCode::NOT_FOUND;
    r
}

/// One request to `/mcp` from the token with digest `token` (already checked, with `role`).
pub async fn serve(
    daemon: &Daemon,
    mut service: Service,
    req: Request<hyper::body::Incoming>,
    token: Digest,
    role: Role,
) -> Response<HttpBody> {
    let named =
        req.headers().get(SESSION_HEADER).map(|v| v.to_str().unwrap_or_default().to_owned());
    let bindings = &daemon.mcp_sessions;
    if let Some(id) = &named {
        if !bindings.belongs(id, &token) {
            return not_found();
        }
    }
    let deleting = req.method() == http::Method::DELETE;
    let resp = match service.call(req).await {
        Ok(r) => r,
        Err(never) => match never {},
    };
    match (&named, resp.headers().get(SESSION_HEADER)) {
        (None, Some(made)) => {
            let made = made.to_str().unwrap_or_default().to_owned();
            bindings.prune().await;
            let max = daemon.config.max_mcp_sessions_per_token;
            let over = bindings.record(made, token, role, max);
            if !over.is_empty() {
                tracing::info!(closed = over.len(), max, "closed a token's oldest MCP sessions");
            }
            bindings.close(over, std::time::Duration::ZERO);
        }
        (Some(id), _) if deleting && resp.status().is_success() => {
            bindings.forget(id);
        }
        _ => {}
    }
    resp.map(HttpBody::new)
}
