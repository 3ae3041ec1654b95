//! One WebSocket connection: its role, its session once `session.hello` answered, and the
//! ops it has in flight. Handed to every method through the request extensions. Also the
//! count of open connections per token.

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

/// Open connections per token, so one token cannot take every connection the daemon allows,
/// and in all.
#[derive(Debug, Default)]
pub struct PerToken {
    open: std::sync::Mutex<(std::collections::HashMap<String, usize>, usize)>,
}

/// Which limit a refused connection ran into (its name is the flag's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    PerToken,
    Total,
}

impl Limit {
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::PerToken => "max_connections_per_token",
            Limit::Total => "max_connections",
        }
    }
}

/// One connection's place in [`PerToken`], given back when dropped.
#[derive(Debug)]
pub struct TokenSlot {
    of: Arc<PerToken>,
    token: String,
}

impl PerToken {
    /// A place for one more connection of `token`, unless it has `per_token` open already or
    /// the daemon has `total`.
    pub fn acquire(
        self: &Arc<Self>,
        token: &str,
        per_token: usize,
        total: usize,
    ) -> Result<TokenSlot, Limit> {
        let mut open = self.open.lock().map_err(|_| Limit::Total)?;
        if open.1 >= total {
            return Err(Limit::Total);
        }
        let n = open.0.entry(token.to_owned()).or_default();
        if *n >= per_token {
            return Err(Limit::PerToken);
        }
        *n += 1;
        open.1 += 1;
        Ok(TokenSlot { of: self.clone(), token: token.to_owned() })
    }
}

impl Drop for TokenSlot {
    fn drop(&mut self) {
        let Ok(mut open) = self.of.open.lock() else { return };
        open.1 = open.1.saturating_sub(1);
        if let Some(n) = open.0.get_mut(&self.token) {
            *n -= 1;
            if *n == 0 {
                open.0.remove(&self.token);
            }
        }
    }
}
