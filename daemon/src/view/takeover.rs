//! Takeover: one person at a time controls the desktop from the page. Taking over covers
//! the sessions of the person's token (an admin's: every session): their new mutating calls
//! answer `PAUSED` with `details.reason: "human_in_control"` while ops already running
//! finish. Handing back lifts that and emits `takeover.ended` with what changed meanwhile
//! (windows opened and closed, tabs opened, navigated and closed, as the person's token may
//! see them on the bus) and the requests it answered.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{json, Value};

use crate::events::{queued_events, Viewer};
use crate::people::Control;
use crate::session::Owner;
use crate::state::Daemon;

/// Why a takeover or hand-back was refused.
#[derive(Debug, PartialEq)]
pub enum Refused {
    /// Someone else is in control.
    Held(String),
    /// This page is not in control.
    NotYours,
}

/// What a takeover's events are about: an admin's concern every session, so every token
/// hears of it; an actor's its own token's.
fn publish(daemon: &Daemon, owner: Owner, kind: &str, data: Value) {
    if owner.admin {
        daemon.events.publish("session", kind, data);
    } else {
        daemon.events.publish_for(owner, "session", kind, data);
    }
}

/// Takes control for page `socket` of token `owner`.
pub fn take(daemon: &Arc<Daemon>, socket: u64, owner: Owner, by: &str) -> Result<(), Refused> {
    let mut control = daemon.people.control.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(c) = control.as_ref() {
        return if c.socket == socket { Ok(()) } else { Err(Refused::Held(c.by.clone())) };
    }
    // Read at the hand-back: everything queued by then counts, none is lost to a task
    // that has not run yet.
    let changes = Mutex::new(daemon.events.subscribe());
    *control = Some(Control { by: by.to_owned(), owner, socket, started: Instant::now(), changes });
    drop(control);
    tracing::info!(by, "a person took over the desktop");
    publish(daemon, owner, "takeover.started", json!({"by": by, "all_sessions": owner.admin}));
    daemon.people.bump();
    Ok(())
}

/// What changed during a takeover, grouped the way an agent looks again.
fn summarize(changes: &[Value]) -> Value {
    let pick = |kind: &str, f: &dyn Fn(&Value) -> Value| -> Vec<Value> {
        changes.iter().filter(|c| c["kind"] == kind).map(|c| f(&c["data"])).collect()
    };
    let window = |d: &Value| json!({"window_id": d["window_id"], "title": d["title"], "app_id": d["app_id"]});
    let tab = |d: &Value| json!({"tab_id": d["tab_id"], "url": d["url"]});
    json!({
        "windows_opened": pick("window.opened", &window),
        "windows_closed": pick("window.closed", &window),
        "tabs_opened": pick("tab.created", &tab),
        "tabs_navigated": pick("navigated", &tab),
        "tabs_closed": pick("tab.closed", &tab),
    })
}

/// Hands control of page `socket` back: the sessions run again, `takeover.ended` goes out;
/// its data.
pub fn hand_back(daemon: &Daemon, socket: u64) -> Result<Value, Refused> {
    let control = {
        let mut c = daemon.people.control.lock().unwrap_or_else(|p| p.into_inner());
        match c.as_ref() {
            Some(held) if held.socket == socket => c.take(),
            _ => None,
        }
    };
    let Some(control) = control else { return Err(Refused::NotYours) };
    let viewer = Viewer { owner: control.owner, approver: false, all_lanes: true };
    let topics = ["desktop".to_owned(), "browser".to_owned()];
    let changes: Vec<Value> = {
        let mut rx = control.changes.lock().unwrap_or_else(|p| p.into_inner());
        queued_events(&mut rx, &topics, &viewer)
            .into_iter()
            .filter(|ev| {
                matches!(
                    ev.kind.as_str(),
                    "window.opened" | "window.closed" | "navigated" | "tab.created" | "tab.closed"
                )
            })
            .map(|ev| json!({"kind": ev.kind, "data": ev.data}))
            .collect()
    };
    let requests = daemon.people.answer_requests(&control.owner);
    let data = json!({
        "by": control.by,
        "all_sessions": control.owner.admin,
        "duration_ms": control.started.elapsed().as_millis() as u64,
        "changed": summarize(&changes),
        "requests": requests,
    });
    tracing::info!(by = control.by, "the person handed the desktop back");
    publish(daemon, control.owner, "takeover.ended", data.clone());
    *daemon.people.last_ended.lock().unwrap_or_else(|p| p.into_inner()) = Some(data.clone());
    daemon.people.ended.send_modify(|n| *n = n.wrapping_add(1));
    daemon.people.bump();
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_grouped_by_what_an_agent_looks_at_again() {
        let changes = vec![
            json!({"kind": "window.opened", "data": {"window_id": "0x1", "title": "Calc", "app_id": "app:1"}}),
            json!({"kind": "navigated", "data": {"tab_id": "t1", "url": "http://a/"}}),
        ];
        let s = summarize(&changes);
        assert_eq!(s["windows_opened"][0]["title"], "Calc");
        assert_eq!(s["tabs_navigated"][0]["url"], "http://a/");
        assert_eq!(s["windows_closed"], json!([]));
    }
}
