//! The count of open connections per token, so one token cannot take every connection the
//! daemon allows. The connections themselves are `crate::live`'s.

use std::sync::Arc;

use crate::auth::Digest;

/// Open connections per token, so one token cannot take every connection the daemon allows,
/// and in all.
#[derive(Debug, Default)]
pub struct PerToken {
    open: std::sync::Mutex<(std::collections::HashMap<Digest, usize>, usize)>,
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
    token: Digest,
}

impl PerToken {
    /// A place for one more connection of `token`, unless it has `per_token` open already or
    /// the daemon has `total`.
    pub fn acquire(
        self: &Arc<Self>,
        token: Digest,
        per_token: usize,
        total: usize,
    ) -> Result<TokenSlot, Limit> {
        let mut open = self.open.lock().map_err(|_| Limit::Total)?;
        if open.1 >= total {
            return Err(Limit::Total);
        }
        let n = open.0.entry(token).or_default();
        if *n >= per_token {
            return Err(Limit::PerToken);
        }
        *n += 1;
        open.1 += 1;
        Ok(TokenSlot { of: self.clone(), token })
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
