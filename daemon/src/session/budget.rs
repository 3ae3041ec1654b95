//! The op rate: ops one may start per second, a session's or a token's.

use std::sync::Mutex;
use std::time::Instant;

/// Ops one may start per second, in bursts of up to a second's worth: a session's, or (over
/// MCP, where a call may name a fresh session) a token's.
#[derive(Debug)]
pub struct Budget(Mutex<(f64, Instant)>);

impl Default for Budget {
    fn default() -> Self {
        Budget(Mutex::new((f64::MAX, Instant::now())))
    }
}

impl Budget {
    /// Take `n` ops at once, or none of them.
    pub fn admit(&self, n: usize, per_sec: u32) -> bool {
        let Ok(mut rate) = self.0.lock() else { return false };
        let n = n as f64;
        let cap = f64::from(per_sec.max(1));
        let now = Instant::now();
        let refill = now.duration_since(rate.1).as_secs_f64() * cap;
        rate.0 = (rate.0.min(cap) + refill).min(cap);
        rate.1 = now;
        if rate.0 < n {
            return false;
        }
        rate.0 -= n;
        true
    }
}
