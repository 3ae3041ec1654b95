//! What the page scheduled while an action's input was delivered, read from the trace the
//! input ran under (`actions/trace.rs` runs it): its `TimerInstall` and
//! `RequestAnimationFrame` events, the tab's frames only.

use std::collections::HashSet;

use serde_json::Value;

use super::work::Install;

/// One install the trace saw: what, when (trace µs), and whether the callback of a timer or
/// frame the action did not set made it (a ticker re-arming; not the input, nor a chain the
/// input started).
#[derive(Debug, Clone, PartialEq)]
pub struct Traced {
    pub install: Install,
    pub at_us: i64,
    pub from_callback: bool,
    /// It fired (or was removed) before the trace ended.
    pub over: bool,
}

/// One trace event, the parts of it read here (Chromium's trace events come as JSON of many
/// shapes; what a part does not hold reads as absent).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TraceEvent {
    pub name: String,
    /// When, in trace µs.
    pub ts: i64,
    /// How long, in µs (complete events).
    pub dur: i64,
    /// The frame its `args.data` names.
    pub frame: Option<String>,
    /// The timer's (`timerId`) or animation frame's (`id`) id.
    pub id: Option<i64>,
    /// A timer's delay, in ms.
    pub timeout: Option<f64>,
    /// A timer's `singleShot`: false for an interval.
    pub single_shot: Option<bool>,
}

impl TraceEvent {
    pub fn read(e: &Value) -> TraceEvent {
        let d = &e["args"]["data"];
        TraceEvent {
            name: e["name"].as_str().unwrap_or_default().to_owned(),
            ts: e["ts"].as_i64().unwrap_or(0),
            dur: e["dur"].as_i64().unwrap_or(0),
            frame: d["frame"].as_str().map(str::to_owned),
            id: d["timerId"].as_i64().or(d["id"].as_i64()),
            timeout: d["timeout"].as_f64(),
            single_shot: d["singleShot"].as_bool(),
        }
    }
}

/// A timer's or an animation frame's identity in a trace: ("timer" | "frame", its id).
type Key = (&'static str, i64);

/// The installs of `frames` (a tab's frame ids) in trace `events`, and the trace's last
/// timestamp (when the end was asked, near enough).
pub fn installs(events: &[TraceEvent], frames: &HashSet<String>) -> (Vec<Traced>, i64) {
    let ts = |e: &TraceEvent| e.ts;
    let key = |e: &TraceEvent| -> Option<Key> {
        let id = e.id?;
        match e.name.as_str() {
            "TimerInstall" | "TimerFire" | "TimerRemove" => Some(("timer", id)),
            "RequestAnimationFrame" | "FireAnimationFrame" | "CancelAnimationFrame" => {
                Some(("frame", id))
            }
            _ => None,
        }
    };
    let last = events.iter().map(ts).max().unwrap_or(0);
    // Callbacks running: (start, end, whose) of TimerFire and FireAnimationFrame.
    let callbacks: Vec<(i64, i64, Option<Key>)> = events
        .iter()
        .filter(|e| matches!(e.name.as_str(), "TimerFire" | "FireAnimationFrame"))
        .map(|e| (e.ts, e.ts + e.dur, key(e)))
        .collect();
    let ended: HashSet<Key> = events
        .iter()
        .filter(|e| {
            matches!(
                e.name.as_str(),
                "TimerFire" | "TimerRemove" | "FireAnimationFrame" | "CancelAnimationFrame"
            )
        })
        .filter_map(key)
        .collect();
    // In time order, so a timer the input set is known as the action's before its callback
    // runs: what that callback sets is the action's too (a chain), unlike what a ticker that
    // was there before re-arms.
    let mut sorted: Vec<&TraceEvent> = events.iter().collect();
    sorted.sort_by_key(|e| e.ts);
    let mut ours: HashSet<Key> = HashSet::new();
    let mut out = Vec::new();
    for e in sorted {
        if !e.frame.as_ref().is_some_and(|f| frames.contains(f)) {
            continue;
        }
        let install = match e.name.as_str() {
            "TimerInstall" if e.single_shot == Some(false) => Install::Interval(e.timeout),
            "TimerInstall" => Install::Timeout(e.timeout),
            "RequestAnimationFrame" => Install::Frame,
            _ => continue,
        };
        let Some(k) = key(e) else { continue };
        let at = ts(e);
        let inside = callbacks.iter().filter(|(s, end, _)| *s <= at && at <= *end);
        let mut whose = inside.map(|(_, _, whose)| whose).peekable();
        // A frame asked for from a frame's callback is a loop, whoever started it.
        let chained = |w: &Option<Key>| {
            w.is_some_and(|w| ours.contains(&w) && !(w.0 == "frame" && install == Install::Frame))
        };
        let from_callback = whose.peek().is_some() && !whose.any(chained);
        if !from_callback {
            ours.insert(k);
        }
        out.push(Traced { install, at_us: at, from_callback, over: ended.contains(&k) });
    }
    (out, last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn installs_by_the_input_and_its_chains_are_told_from_those_other_timers_made() {
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
            // The click's 0 ms timer fires within the trace and sets the next of its chain.
            json!({"name": "TimerInstall", "ph": "I", "ts": 410,
                   "args": {"data": {"frame": "F", "timerId": 5, "timeout": 0, "singleShot": true}}}),
            json!({"name": "TimerFire", "ph": "X", "ts": 420, "dur": 10,
                   "args": {"data": {"frame": "F", "timerId": 5}}}),
            json!({"name": "TimerInstall", "ph": "I", "ts": 425,
                   "args": {"data": {"frame": "F", "timerId": 6, "timeout": 300, "singleShot": true}}}),
        ];
        let frames = HashSet::from(["F".to_owned()]);
        let events: Vec<TraceEvent> = events.iter().map(TraceEvent::read).collect();
        let (got, last) = installs(&events, &frames);
        assert_eq!(last, 425);
        let t =
            |install, at_us, from_callback, over| Traced { install, at_us, from_callback, over };
        assert_eq!(
            got,
            vec![
                t(Install::Timeout(Some(100.0)), 120, true, false),
                t(Install::Timeout(Some(400.0)), 300, false, false),
                t(Install::Frame, 310, false, true),
                t(Install::Interval(Some(0.0)), 320, false, false),
                t(Install::Timeout(Some(0.0)), 410, false, true),
                t(Install::Timeout(Some(300.0)), 425, false, false),
            ]
        );
    }
}
