//! The trace an action's input runs under, to see what the page scheduled meanwhile (read
//! by `settle/trace.rs`).
//!
//! The instrumentation of `instrument.rs` pauses the page, and Chromium drops input that
//! arrives while a page is paused (measured: a click sent during a pause never happens), so
//! it is armed only once the action's input is done. The input itself runs under a trace
//! (category `devtools.timeline` alone: 10-16 ms to start, 20-27 ms to end and hand over,
//! measured here), whose `TimerInstall` and `RequestAnimationFrame` events say what the
//! input's handlers scheduled. A trace is browser-wide, so one action traces at a time; an
//! action that finds the browser's trace taken goes without.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::tracing::{
    EndParams, EventDataCollected, EventTracingComplete, StartParams, StartTransferMode,
    TraceConfig,
};
use futures::{FutureExt as _, StreamExt};
use serde_json::Value;

use crate::browser::cdp::Conn;
use crate::browser::settle::trace::TraceEvent;

/// How long the end of a trace may take to arrive.
const END: Duration = Duration::from_millis(800);

/// A trace running over one action's input; dropped unfinished (the action failed), it is
/// ended in the background so the browser can trace the next one.
pub struct ActionTrace {
    conn: Arc<Conn>,
    turn: Option<tokio::sync::OwnedMutexGuard<()>>,
    data: futures::stream::BoxStream<'static, Vec<Value>>,
    complete: futures::stream::BoxStream<'static, ()>,
}

impl std::fmt::Debug for ActionTrace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ActionTrace").field("browser", &self.conn.browser_id).finish()
    }
}

impl ActionTrace {
    /// Starts a trace in `conn`'s browser, unless another action's is running.
    pub async fn start(conn: Arc<Conn>) -> Option<ActionTrace> {
        let turn = conn.trace_turn().try_lock_owned().ok()?;
        let data = conn.browser().event_listener::<EventDataCollected>().await.ok()?;
        let complete = conn.browser().event_listener::<EventTracingComplete>().await.ok()?;
        let config = TraceConfig {
            included_categories: Some(vec!["devtools.timeline".into()]),
            excluded_categories: Some(vec!["*".into()]),
            ..TraceConfig::default()
        };
        let start = StartParams {
            transfer_mode: Some(StartTransferMode::ReportEvents),
            trace_config: Some(config),
            ..StartParams::default()
        };
        match tokio::time::timeout(END, conn.browser().execute(start)).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                tracing::debug!(%e, "cannot trace an action's input");
                return None;
            }
            Err(_) => return None,
        }
        Some(ActionTrace {
            conn,
            turn: Some(turn),
            data: data.map(|e| e.value.clone()).boxed(),
            complete: complete.map(|_| ()).boxed(),
        })
    }

    pub fn conn(&self) -> &Arc<Conn> {
        &self.conn
    }

    /// Ends the trace: its events, and when the end was asked for. Empty when the end did not
    /// come in time.
    pub async fn finish(mut self) -> (Vec<TraceEvent>, Instant) {
        let _turn = self.turn.take();
        let asked = Instant::now();
        let mut events = Vec::new();
        let end = tokio::time::timeout(END, self.conn.browser().execute(EndParams::default()));
        if !matches!(end.await, Ok(Ok(_))) {
            return (events, asked);
        }
        let collect = async {
            loop {
                tokio::select! {
                    biased;
                    Some(chunk) = self.data.next() => events.extend(chunk.iter().map(TraceEvent::read)),
                    _ = self.complete.next() => break,
                }
            }
            // Chunks sent before the end may still be queued.
            while let Some(Some(chunk)) = self.data.next().now_or_never() {
                events.extend(chunk.iter().map(TraceEvent::read));
            }
        };
        let _ = tokio::time::timeout(END, collect).await;
        (events, asked)
    }
}

impl Drop for ActionTrace {
    fn drop(&mut self) {
        let Some(turn) = self.turn.take() else { return };
        let conn = self.conn.clone();
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move {
                let _ =
                    tokio::time::timeout(END, conn.browser().execute(EndParams::default())).await;
                drop(turn);
            });
        }
    }
}
