//! One WebSocket connection: its role, its session once `session.hello` answered, and the
//! ops it has in flight. Handed to every method through the request extensions.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use super::auth::Role;
use crate::session::{Owner, Session};

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

#[derive(Debug)]
pub struct Conn {
    pub id: u64,
    pub role: Role,
    /// The token it presented, hashed: the sessions it may use.
    pub owner: Owner,
    session: OnceLock<Arc<Session>>,
    pub in_flight: AtomicUsize,
}

impl Conn {
    pub fn new(role: Role, owner: Owner) -> Arc<Self> {
        Arc::new(Conn {
            id: NEXT_ID.fetch_add(1, Ordering::SeqCst),
            role,
            owner,
            session: OnceLock::new(),
            in_flight: AtomicUsize::new(0),
        })
    }

    pub fn session(&self) -> Option<&Arc<Session>> {
        self.session.get()
    }

    /// Bind the session after a successful hello; false if one is bound already.
    pub fn bind(&self, session: Arc<Session>) -> bool {
        self.session.set(session).is_ok()
    }
}
