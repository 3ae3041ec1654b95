//! What the page scheduled while the action's input was delivered, from a trace.
//!
//! The instrumentation of `instrument.rs` pauses the page, and Chromium drops input that
//! arrives while a page is paused (measured: a click sent during a pause never happens), so
//! it is armed only once the action's input is done. The input itself runs under a trace
//! (category `devtools.timeline` alone: 10-16 ms to start, 20-27 ms to end and hand over,
//! measured here), whose `TimerInstall` and `RequestAnimationFrame` events say what the
//! input's handlers scheduled. A trace is browser-wide, so one action traces at a time; an
//! action that finds the browser's trace taken goes without.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::tracing::{
    EndParams, EventDataCollected, EventTracingComplete, StartParams, StartTransferMode,
    TraceConfig,
};
use futures::StreamExt;
use serde_json::Value;

use super::super::cdp::Conn;
use super::work::Install;

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

/// One install the trace saw: what, when (trace µs), and whether a timer's or frame's
/// callback made it (not the action's input).
#[derive(Debug, Clone, PartialEq)]
pub struct Traced {
    pub install: Install,
    pub at_us: i64,
    pub from_callback: bool,
    /// It fired (or was removed) before the trace ended.
    pub over: bool,
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
    pub async fn finish(mut self) -> (Vec<Value>, Instant) {
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
                    Some(chunk) = self.data.next() => events.extend(chunk),
                    _ = self.complete.next() => break,
                }
            }
            // Chunks sent before the end may still be queued.
            while let Some(Some(chunk)) = self.data.next().now_or_never() {
                events.extend(chunk);
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

use futures::FutureExt as _;

/// The installs of `frames` (a tab's frame ids) in trace `events`, and the trace's last
/// timestamp (when the end was asked, near enough).
pub fn installs(events: &[Value], frames: &HashSet<String>) -> (Vec<Traced>, i64) {
    let ts = |e: &Value| e["ts"].as_i64().unwrap_or(0);
    let name = |e: &Value| e["name"].as_str().unwrap_or_default().to_owned();
    let data = |e: &Value| e["args"]["data"].clone();
    let last = events.iter().map(ts).max().unwrap_or(0);
    // Callbacks running: (start, end) of TimerFire and FireAnimationFrame.
    let callbacks: Vec<(i64, i64)> = events
        .iter()
        .filter(|e| matches!(name(e).as_str(), "TimerFire" | "FireAnimationFrame"))
        .map(|e| (ts(e), ts(e) + e["dur"].as_i64().unwrap_or(0)))
        .collect();
    let ended: HashSet<(String, i64)> = events
        .iter()
        .filter_map(|e| {
            let n = name(e);
            let id = data(e)["timerId"].as_i64().or(data(e)["id"].as_i64())?;
            match n.as_str() {
                "TimerFire" | "TimerRemove" => Some(("timer".to_owned(), id)),
                "FireAnimationFrame" | "CancelAnimationFrame" => Some(("frame".to_owned(), id)),
                _ => None,
            }
        })
        .collect();
    let mut out = Vec::new();
    for e in events {
        let d = data(e);
        if !d["frame"].as_str().is_some_and(|f| frames.contains(f)) {
            continue;
        }
        let (install, key) = match name(e).as_str() {
            "TimerInstall" => {
                let timeout = d["timeout"].as_f64();
                let install = if d["singleShot"] == false {
                    Install::Interval(timeout)
                } else {
                    Install::Timeout(timeout)
                };
                (install, ("timer".to_owned(), d["timerId"].as_i64().unwrap_or(-1)))
            }
            "RequestAnimationFrame" => {
                (Install::Frame, ("frame".to_owned(), d["id"].as_i64().unwrap_or(-1)))
            }
            _ => continue,
        };
        let at = ts(e);
        let from_callback = callbacks.iter().any(|(s, end)| *s <= at && at <= *end);
        out.push(Traced { install, at_us: at, from_callback, over: ended.contains(&key) });
    }
    (out, last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn installs_by_the_input_are_told_from_those_timers_made() {
        let events = vec![
            // A ticker's callback re-arms it: not the input's.
            json!({"name": "TimerFire", "ph": "X", "ts": 100, "dur": 50,
                   "args": {"data": {"frame": "F", "timerId": 1}}}),
            json!({"name": "TimerInstall", "ph": "I", "ts": 120,
                   "args": {"data": {"frame": "F", "timerId": 2, "timeout": 100, "singleShot": true}}}),
            // The click handler's timer and frame.
            json!({"name": "TimerInstall", "ph": "I", "ts": 300,
                   "args": {"data": {"frame": "F", "timerId": 3, "timeout": 400, "singleShot": true}}}),
            json!({"name": "RequestAnimationFrame", "ph": "I", "ts": 310,
                   "args": {"data": {"frame": "F", "id": 7}}}),
            json!({"name": "TimerInstall", "ph": "I", "ts": 320,
                   "args": {"data": {"frame": "F", "timerId": 4, "timeout": 0, "singleShot": false}}}),
            // Another tab's.
            json!({"name": "TimerInstall", "ph": "I", "ts": 330,
                   "args": {"data": {"frame": "G", "timerId": 9, "timeout": 5, "singleShot": true}}}),
            json!({"name": "FireAnimationFrame", "ph": "X", "ts": 400, "dur": 3,
                   "args": {"data": {"frame": "F", "id": 7}}}),
        ];
        let frames = HashSet::from(["F".to_owned()]);
        let (got, last) = installs(&events, &frames);
        assert_eq!(last, 400);
        let t =
            |install, at_us, from_callback, over| Traced { install, at_us, from_callback, over };
        assert_eq!(
            got,
            vec![
                t(Install::Timeout(Some(100.0)), 120, true, false),
                t(Install::Timeout(Some(400.0)), 300, false, false),
                t(Install::Frame, 310, false, true),
                t(Install::Interval(Some(0.0)), 320, false, false),
            ]
        );
    }
}
