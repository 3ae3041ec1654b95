//! Stopping without dropping work (SIGTERM): new ops are refused with `BACKEND_UNAVAILABLE`,
//! running ones get the grace period (`--shutdown-grace-secs`) to finish and are cancelled at
//! its end, and every key and button a session holds goes up before the connections close.
//! The children are stopped after that, by whoever started them (`main`).

use std::sync::Arc;
use std::time::Duration;

use crate::state::Daemon;

/// How long cancelled ops get to hand their answers over: a cancel drops an op's future at
/// once, so this is only ever waited out by a bug.
const CANCEL_WAIT: Duration = Duration::from_secs(2);
/// How long releasing held input may take (a key-up per held browser key, over CDP).
const RELEASE_WAIT: Duration = Duration::from_secs(2);

/// Drains `daemon`; returns when no op runs and nothing is held.
pub async fn drain(daemon: &Arc<Daemon>) {
    daemon.ops.close();
    let grace = daemon.config.shutdown_grace;
    tracing::info!(
        running = daemon.ops.running(),
        grace_ms = grace.as_millis() as u64,
        "draining: new ops are refused, running ones may finish"
    );
    if tokio::time::timeout(grace, daemon.ops.idle()).await.is_err() {
        tracing::warn!(
            running = daemon.ops.running(),
            "the grace period is over; cancelling the ops still running"
        );
        daemon.ops.cancel_all();
        if tokio::time::timeout(CANCEL_WAIT, daemon.ops.idle()).await.is_err() {
            tracing::warn!("ops still running after their cancel; stopping anyway");
        }
    }
    if tokio::time::timeout(RELEASE_WAIT, crate::dispatch::release_all_held(daemon)).await.is_err()
    {
        tracing::warn!("releasing held keys took over {RELEASE_WAIT:?}; stopping anyway");
    }
    if let Some(b) = &daemon.config.browser {
        if tokio::time::timeout(RELEASE_WAIT, b.save_profiles()).await.is_err() {
            tracing::warn!(
                "saving the browser profiles took over {RELEASE_WAIT:?}; stopping anyway"
            );
        }
    }
    tracing::info!("drained");
}
