//! `wait` with `duration_ms`: a fixed pause that a cancel or the op deadline cuts short, the
//! same for `browser.wait` and `computer.wait`.

use std::time::{Duration, Instant};

use super::Ctx;
use crate::error::DaemonError;

/// Pause `ms`; the ms waited.
pub async fn pause(ctx: &Ctx, ms: u32) -> Result<u64, DaemonError> {
    let started = Instant::now();
    // The timer's granularity is a millisecond: a sleep of 0 would still wait for its tick.
    if ms > 0 {
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(u64::from(ms))) => {}
            _ = ctx.op.cancel.cancelled() => return Err(DaemonError::Cancelled),
        }
    }
    Ok(started.elapsed().as_millis() as u64)
}
