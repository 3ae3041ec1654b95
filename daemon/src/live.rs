//! The open JSON-RPC connections: each one's role, its session once `session.hello`
//! answered, and the ops it has in flight (handed to every method through the request
//! extensions); and the registry of them a token reload (SIGHUP) re-checks: a connection
//! whose token was revoked or whose role changed is closed at once and refused from then on.
//! Below the transport: the transport hands each connection a way to stop it. The open MCP
//! sessions are `live/bindings.rs`, the code clients' endpoints `live/code.rs`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::auth::{Role, Tokens};
use crate::session::{Owner, Session};

mod bindings;
pub(crate) mod code;

pub use bindings::{Bindings, Lane};
pub use code::Code;

/// Closes one connection's transport.
pub type Stop = Box<dyn Fn() + Send + Sync>;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

#[derive(Debug)]
pub struct Conn {
    pub id: u64,
    pub role: Role,
    /// The token it presented, hashed: the sessions it may use.
    pub owner: Owner,
    session: OnceLock<Arc<Session>>,
    pub in_flight: AtomicUsize,
    /// Its token was revoked or its role changed: every call is refused while it closes.
    revoked: AtomicBool,
}

impl Conn {
    pub fn new(role: Role, owner: Owner) -> Arc<Self> {
        Arc::new(Conn {
            id: NEXT_ID.fetch_add(1, Ordering::SeqCst),
            role,
            owner,
            session: OnceLock::new(),
            in_flight: AtomicUsize::new(0),
            revoked: AtomicBool::new(false),
        })
    }

    pub fn is_revoked(&self) -> bool {
        self.revoked.load(Ordering::SeqCst)
    }

    pub fn session(&self) -> Option<&Arc<Session>> {
        self.session.get()
    }

    /// Bind the session after a successful hello; false if one is bound already.
    pub fn bind(&self, session: Arc<Session>) -> bool {
        self.session.set(session).is_ok()
    }
}

struct LiveConn {
    conn: Arc<Conn>,
    /// Stops this connection's transport (its own stop channel, not the server's).
    stop: Stop,
}

/// The open connections, with their tokens, so a reload can close the ones it revokes.
#[derive(Default)]
pub struct Live {
    conns: Mutex<HashMap<u64, LiveConn>>,
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a token.
        let n = self.conns.lock().map_or(0, |c| c.len());
        write!(f, "Live({n} connections)")
    }
}

impl Live {
    /// Track an open connection until [`Live::remove`].
    pub fn add(&self, conn: Arc<Conn>, stop: Stop) {
        if let Ok(mut c) = self.conns.lock() {
            c.insert(conn.id, LiveConn { conn, stop });
        }
    }

    /// Whether connection `id` is still open and in force.
    pub fn holds(&self, id: u64) -> bool {
        self.conns.lock().is_ok_and(|c| c.contains_key(&id))
    }

    pub fn remove(&self, id: u64) {
        if let Ok(mut c) = self.conns.lock() {
            c.remove(&id);
        }
    }

    /// Close every connection whose token `tokens` no longer holds with the same role; the
    /// ones closed.
    pub fn recheck(&self, tokens: &Tokens) -> Vec<Arc<Conn>> {
        let Ok(mut conns) = self.conns.lock() else { return Vec::new() };
        let stale: Vec<u64> = conns
            .values()
            .filter(|l| tokens.role_of_digest(&l.conn.owner.digest()) != Some(l.conn.role))
            .map(|l| l.conn.id)
            .collect();
        let mut closed = Vec::new();
        for id in &stale {
            if let Some(l) = conns.remove(id) {
                l.conn.revoked.store(true, Ordering::SeqCst);
                (l.stop)();
                tracing::info!(
                    conn = id,
                    role = l.conn.role.as_str(),
                    "closed a connection: its token was revoked or its role changed"
                );
                closed.push(l.conn);
            }
        }
        closed
    }
}
