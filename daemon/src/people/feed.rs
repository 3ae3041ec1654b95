//! The recent ops of every session as the page lists them (method, a summary of the
//! params, state, duration, the capture taken after it), kept from the `ops` events of the
//! bus: the last [`KEPT`] per session. What a code session (`browser.cdp_session`) did on a
//! tab joins its session's list from the `cdp.*` browser events, named as its actor
//! (`by: "cdp:<cdp_id>"`).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use serde_json::{json, Value};

/// Ops kept per session.
const KEPT: usize = 12;

#[derive(Debug, Default)]
pub struct Feed {
    by_session: Mutex<HashMap<String, VecDeque<Value>>>,
}

impl Feed {
    /// Takes an `ops` event in.
    pub(crate) fn note(&self, kind: &str, data: &Value) {
        let Some(session) = data["session"].as_str() else { return };
        let mut map = self.by_session.lock().unwrap_or_else(|p| p.into_inner());
        let ops = map.entry(session.to_owned()).or_default();
        match kind {
            "started" => {
                if ops.len() == KEPT {
                    ops.pop_front();
                }
                ops.push_back(json!({
                    "op_id": data["op_id"], "method": data["method"],
                    "summary": data["summary"], "state": "running",
                }));
            }
            "finished" => {
                if let Some(op) = ops.iter_mut().rev().find(|o| o["op_id"] == data["op_id"]) {
                    op["state"] = data["state"].clone();
                    op["elapsed_ms"] = data["elapsed_ms"].clone();
                    op["capture_id"] = data["capture_id"].clone();
                }
            }
            _ => {}
        }
    }

    /// Takes a code session's `cdp.*` event in: a line of its session's list.
    pub(crate) fn note_code(&self, kind: &str, data: &Value) {
        let Some(session) = data["session"].as_str() else { return };
        let (method, summary) = match kind {
            "cdp.act" => (data["method"].clone(), data["tab_id"].clone()),
            "cdp.closed" => (json!(kind), data["reason"].clone()),
            _ => (json!(kind), data["tab_id"].clone()),
        };
        let mut map = self.by_session.lock().unwrap_or_else(|p| p.into_inner());
        let ops = map.entry(session.to_owned()).or_default();
        if ops.len() == KEPT {
            ops.pop_front();
        }
        let by = format!("cdp:{}", data["cdp_id"].as_str().unwrap_or_default());
        ops.push_back(json!({"op_id": null, "method": method, "summary": summary,
                             "state": "done", "by": by}));
    }

    /// The recent ops of `session`, oldest first.
    pub fn of(&self, session: &str) -> Vec<Value> {
        let map = self.by_session.lock().unwrap_or_else(|p| p.into_inner());
        map.get(session).map(|o| o.iter().cloned().collect()).unwrap_or_default()
    }

    /// Forgets the sessions that are gone.
    pub(crate) fn retain(&self, alive: &[String]) {
        let mut map = self.by_session.lock().unwrap_or_else(|p| p.into_inner());
        map.retain(|k, _| alive.contains(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_are_kept_per_session_with_their_outcome() {
        let f = Feed::default();
        f.note(
            "started",
            &json!({"session": "s", "op_id": "o1", "method": "computer.click", "summary": "{}"}),
        );
        f.note("finished", &json!({"session": "s", "op_id": "o1", "state": "succeeded", "elapsed_ms": 12, "capture_id": "c1"}));
        for i in 0..KEPT + 3 {
            f.note("started", &json!({"session": "t", "op_id": format!("x{i}"), "method": "m"}));
        }
        let s = f.of("s");
        assert_eq!(s.len(), 1);
        assert_eq!(s[0]["state"], "succeeded");
        assert_eq!(s[0]["capture_id"], "c1");
        assert_eq!(f.of("t").len(), KEPT);
        f.retain(&["s".to_owned()]);
        assert!(f.of("t").is_empty());
    }
}
