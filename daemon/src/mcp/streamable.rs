//! MCP's Streamable HTTP at `/mcp`, each MCP session bound to the token that opened it.
//!
//! rmcp hands out an `Mcp-Session-Id` and serves whoever presents it; here every request
//! that carries one (a POST, a `GET` that resumes a stream with `Last-Event-ID`, a `DELETE`,
//! the POST that answers an elicitation) must come with the same token as the `initialize`
//! that made it, or it is answered `404` exactly as an unknown session is. A token keeps at
//! most `--max-mcp-sessions-per-token` sessions (opening one more closes its own oldest,
//! never another token's); sessions end after `--session-ttl-secs` without a request; a
//! reload that revokes a token or changes its role closes its sessions.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use http::{Request, Response, StatusCode};
use jsonrpsee::server::HttpBody;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::SessionManager as _;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tower::Service as _;

use crate::auth::{Digest, Role, Tokens};
use crate::state::Daemon;

/// How long a revoked token's sessions stay open for the answers of its cancelled calls.
const REVOKED_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

/// The header naming an MCP session.
const SESSION_HEADER: &str = "mcp-session-id";

pub type Service = StreamableHttpService<super::Handler, LocalSessionManager>;

/// Which token opened each MCP session, and each token's lane of calls.
#[derive(Default)]
pub struct Bindings {
    by_id: Mutex<HashMap<String, Bound>>,
    lanes: Mutex<HashMap<Digest, Arc<Lane>>>,
    /// rmcp's sessions, to close those a reload revokes or a token's cap pushes out.
    manager: OnceLock<Arc<LocalSessionManager>>,
}

impl std::fmt::Debug for Bindings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a session id: it is a bearer of its session.
        write!(f, "Bindings({} sessions)", self.lock().len())
    }
}

/// What one token's MCP calls share, whatever sessions they name: the calls in flight and
/// the rate of new ops (`--max-in-flight`, `--max-ops-per-sec`), as one WebSocket has.
#[derive(Debug, Default)]
pub struct Lane {
    pub in_flight: std::sync::atomic::AtomicUsize,
    pub rate: crate::session::Budget,
}

#[derive(Debug, Clone, Copy)]
struct Bound {
    token: Digest,
    role: Role,
    opened: Instant,
}

impl Bindings {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Bound>> {
        self.by_id.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The lane of `token`'s calls.
    pub fn lane(&self, token: &Digest) -> Arc<Lane> {
        let mut lanes = self.lanes.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        lanes.entry(*token).or_default().clone()
    }

    /// Whether `id` is a session `token` opened.
    fn belongs(&self, id: &str, token: &Digest) -> bool {
        self.lock().get(id).is_some_and(|b| b.token == *token)
    }

    /// Record a session `token` opened; the ones of the same token it pushes over `max`
    /// (its oldest), to close.
    fn record(&self, id: String, token: Digest, role: Role, max: usize) -> Vec<String> {
        let mut by_id = self.lock();
        by_id.insert(id, Bound { token, role, opened: Instant::now() });
        let mut own: Vec<(String, Instant)> = by_id
            .iter()
            .filter(|(_, b)| b.token == token)
            .map(|(id, b)| (id.clone(), b.opened))
            .collect();
        own.sort_by_key(|(_, at)| *at);
        let over = own.len().saturating_sub(max.max(1));
        let out: Vec<String> = own.into_iter().take(over).map(|(id, _)| id).collect();
        for id in &out {
            by_id.remove(id);
        }
        out
    }

    /// Forget sessions rmcp no longer has (ended idle, or deleted).
    async fn prune(&self) {
        let Some(manager) = self.manager.get() else { return };
        let live = manager.sessions.read().await;
        self.lock().retain(|id, _| live.contains_key(id.as_str()));
    }

    /// Close every session whose token `tokens` no longer holds with the same role, and
    /// forget the lanes of tokens it no longer holds; how many sessions.
    pub fn recheck(&self, tokens: &Tokens) -> usize {
        self.lanes
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .retain(|token, _| tokens.role_of_digest(token).is_some());
        let stale: Vec<String> = {
            let mut by_id = self.lock();
            let stale: Vec<String> = by_id
                .iter()
                .filter(|(_, b)| tokens.role_of_digest(&b.token) != Some(b.role))
                .map(|(id, _)| id.clone())
                .collect();
            for id in &stale {
                by_id.remove(id);
            }
            stale
        };
        let n = stale.len();
        // Their running calls are cancelled now (`Daemon::set_tokens`): their `CANCELLED`
        // answers go out on the sessions' streams before the sessions close.
        self.close(stale, REVOKED_GRACE);
        n
    }

    /// Close these rmcp sessions after `grace` (in the background: closing waits on their
    /// workers).
    fn close(&self, ids: Vec<String>, grace: std::time::Duration) {
        let Some(manager) = self.manager.get().cloned() else { return };
        if ids.is_empty() {
            return;
        }
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            for id in ids {
                if let Err(e) = manager.close_session(&Arc::from(id.as_str())).await {
                    tracing::debug!("cannot close an MCP session: {e}");
                }
            }
        });
    }
}

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
    let _ = daemon.mcp_sessions.manager.set(manager.clone());
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
            bindings.lock().remove(id);
        }
        _ => {}
    }
    resp.map(HttpBody::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_is_its_token_s_and_a_token_keeps_its_newest() {
        let b = Bindings::default();
        let (a, z) = (crate::auth::digest("a"), crate::auth::digest("z"));
        assert!(b.record("z1".into(), z, Role::Actor, 2).is_empty());
        assert!(b.record("a1".into(), a, Role::Actor, 2).is_empty());
        assert!(b.record("a2".into(), a, Role::Actor, 2).is_empty());
        assert_eq!(b.record("a3".into(), a, Role::Actor, 2), vec!["a1".to_owned()]);
        assert!(b.belongs("a3", &a) && !b.belongs("a3", &z) && !b.belongs("a1", &a));
        assert!(b.belongs("z1", &z), "another token's sessions never go for this one's");
        let now = Tokens::new([("a".into(), Role::Observer), ("z".into(), Role::Actor)]);
        assert_eq!(b.recheck(&now), 2, "a's role changed: both its sessions close");
        assert!(b.belongs("z1", &z) && !b.belongs("a2", &a));
    }
}
