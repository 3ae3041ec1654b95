//! The open MCP sessions: which token opened each (only it may use the session), each
//! token's lane of calls, and the closing of those a token reload revokes or a token's cap
//! pushes out. Below the transport, like the JSON-RPC connections: `/mcp` is served in
//! `mcp/streamable.rs`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::SessionManager as _;

use crate::auth::{Digest, Role, Tokens};

/// How long a revoked token's sessions stay open for the answers of its cancelled calls.
const REVOKED_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

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
    /// rmcp's sessions, once `/mcp` is served.
    pub(crate) fn set_manager(&self, manager: Arc<LocalSessionManager>) {
        let _ = self.manager.set(manager);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Bound>> {
        self.by_id.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The lane of `token`'s calls.
    pub fn lane(&self, token: &Digest) -> Arc<Lane> {
        let mut lanes = self.lanes.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        lanes.entry(*token).or_default().clone()
    }

    /// Whether `id` is a session `token` opened.
    pub(crate) fn belongs(&self, id: &str, token: &Digest) -> bool {
        self.lock().get(id).is_some_and(|b| b.token == *token)
    }

    /// Record a session `token` opened; the ones of the same token it pushes over `max`
    /// (its oldest), to close.
    pub(crate) fn record(&self, id: String, token: Digest, role: Role, max: usize) -> Vec<String> {
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

    /// Forget a session its host deleted.
    pub(crate) fn forget(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Forget sessions rmcp no longer has (ended idle, or deleted).
    pub(crate) async fn prune(&self) {
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
    pub(crate) fn close(&self, ids: Vec<String>, grace: std::time::Duration) {
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
