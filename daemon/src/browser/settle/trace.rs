//! What the page scheduled while an action's input was delivered, read from the trace the
//! input ran under (`actions/trace.rs` runs it): its `TimerInstall` and
//! `RequestAnimationFrame` events, the tab's frames only.

use std::collections::HashSet;

use serde_json::Value;

use super::work::Install;

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
