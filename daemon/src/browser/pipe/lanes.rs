//! The pipe shared between the daemon's own client (chromiumoxide) and code clients' lanes.
//!
//! The browser has one DevTools pipe, so every user of it speaks on it with its own call ids
//! and its own flattened sessions. A lane (one code client, `code/`) writes with ids from
//! [`FIRST_ID`] up, which the daemon's client never reaches, and owns the sessions it opened
//! (`Target.attachToBrowserTarget`, `Target.attachToTarget`) and every session attached below
//! one of them. A message from the browser goes to the lane whose call it answers or whose
//! session it speaks in; everything else goes to the daemon's client as before.
//!
//! Sessions are claimed here, in the one task that reads the pipe, as the message that names
//! them passes: the session's own first event can follow at once and must not be taken for
//! the daemon's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::net::unix::pipe;
use tokio::sync::mpsc;

use super::split::{self, leading_id, Captures};
use crate::browser::{lock, BrowserError};

/// The first call id of lanes; DevTools takes ids as 32-bit signed integers.
pub const FIRST_ID: u64 = 1 << 30;
const LAST_ID: u64 = i32::MAX as u64;

/// The write end of the pipe, shared with the daemon's client's relay.
pub(super) type Writer = Arc<tokio::sync::Mutex<pipe::Sender>>;

#[derive(Default)]
struct Inner {
    next_lane: u64,
    next_id: u64,
    /// Call id on the pipe -> lane.
    calls: HashMap<u64, u64>,
    /// Session id -> lane.
    sessions: HashMap<String, u64>,
    /// Sessions of lanes that closed: what still comes in them is nobody's.
    gone: std::collections::HashSet<String>,
    lanes: HashMap<u64, mpsc::UnboundedSender<String>>,
}

/// Where a message from the browser goes.
#[derive(Debug)]
pub(super) enum Route {
    /// The daemon's own client.
    Daemon,
    Lane(mpsc::UnboundedSender<String>),
    /// A closed lane's: dropped (the daemon's client must not take it for its own).
    Nobody,
}

/// Sessions of closed lanes remembered, at most.
const GONE: usize = 4096;

/// Every lane of one browser's pipe.
pub struct Lanes {
    inner: Mutex<Inner>,
    writer: Writer,
    captures: Captures,
}

impl std::fmt::Debug for Lanes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lanes").finish_non_exhaustive()
    }
}

/// One code client's share of the pipe: what it writes goes to the browser, `rx` gets the
/// answers to its calls and the events of its sessions. Dropping it forgets both.
pub struct Lane {
    id: u64,
    lanes: Arc<Lanes>,
    pub rx: mpsc::UnboundedReceiver<String>,
}

impl std::fmt::Debug for Lane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lane").field("id", &self.id).finish_non_exhaustive()
    }
}

impl Lanes {
    pub(super) fn new(writer: Writer, captures: Captures) -> Arc<Lanes> {
        Arc::new(Lanes { inner: Mutex::new(Inner::default()), writer, captures })
    }

    /// A new lane.
    pub fn open(self: &Arc<Self>) -> Lane {
        let (tx, rx) = mpsc::unbounded_channel();
        let mut i = lock(&self.inner);
        i.next_lane += 1;
        let id = i.next_lane;
        i.lanes.insert(id, tx);
        Lane { id, lanes: self.clone(), rx }
    }

    /// Where a message from the browser goes.
    pub(super) fn route(&self, msg: &str) -> Route {
        let mut i = lock(&self.inner);
        if i.lanes.is_empty() && i.gone.is_empty() {
            return Route::Daemon;
        }
        let lane = match leading_id(msg.as_bytes()) {
            Some(id) if id >= FIRST_ID => {
                let Some(lane) = i.calls.remove(&id) else { return Route::Nobody };
                // An attach answers with the session it opened.
                if let Some(s) = answered_session(msg) {
                    i.sessions.insert(s, lane);
                }
                lane
            }
            Some(_) => return Route::Daemon,
            None => {
                let Some(session) = trailing_session(msg) else { return Route::Daemon };
                if i.gone.contains(session) {
                    return Route::Nobody;
                }
                let Some(lane) = i.sessions.get(session).copied() else { return Route::Daemon };
                if msg.starts_with("{\"method\":\"Target.attachedToTarget\"") {
                    if let Some(s) = event_session(msg) {
                        i.sessions.insert(s, lane);
                    }
                } else if msg.starts_with("{\"method\":\"Target.detachedFromTarget\"") {
                    if let Some(s) = event_session(msg) {
                        i.sessions.remove(&s);
                    }
                }
                lane
            }
        };
        match i.lanes.get(&lane) {
            Some(tx) => Route::Lane(tx.clone()),
            None => Route::Nobody,
        }
    }
}

impl Lane {
    /// Write `msg` to the browser under a fresh call id, which it returns (the answer
    /// carries it).
    pub async fn send(&self, msg: &mut Value) -> Result<u64, BrowserError> {
        let id = {
            let mut i = lock(&self.lanes.inner);
            if i.next_id < FIRST_ID || i.next_id >= LAST_ID {
                i.next_id = FIRST_ID;
            }
            let id = i.next_id;
            i.next_id += 1;
            i.calls.insert(id, self.id);
            id
        };
        msg["id"] = Value::from(id);
        let text = msg.to_string();
        split::note_call(&self.lanes.captures, &text);
        let mut w = self.lanes.writer.lock().await;
        let gone = |e: std::io::Error| BrowserError::Unavailable(format!("DevTools pipe: {e}"));
        w.write_all(text.as_bytes()).await.map_err(gone)?;
        w.write_all(&[0]).await.map_err(gone)?;
        Ok(id)
    }

    /// Take `session` for this lane (one it opened by other means than an attach).
    pub fn claim(&self, session: &str) {
        lock(&self.lanes.inner).sessions.insert(session.to_owned(), self.id);
    }
}

impl Drop for Lane {
    fn drop(&mut self) {
        let mut i = lock(&self.lanes.inner);
        i.lanes.remove(&self.id);
        i.calls.retain(|_, l| *l != self.id);
        let mine: Vec<String> =
            i.sessions.iter().filter(|(_, l)| **l == self.id).map(|(s, _)| s.clone()).collect();
        i.sessions.retain(|_, l| *l != self.id);
        if i.gone.len() + mine.len() > GONE {
            i.gone.clear();
        }
        i.gone.extend(mine);
    }
}

/// The top-level `sessionId` of a message: DevTools appends it last,
/// `…,"sessionId":"<id>"}`.
pub(crate) fn trailing_session(msg: &str) -> Option<&str> {
    let body = msg.strip_suffix("\"}")?;
    let from = body.len().saturating_sub(80);
    let tail = body.get(from..)?;
    let at = tail.rfind(",\"sessionId\":\"")?;
    let id = &tail[at + 14..];
    (!id.is_empty() && !id.contains('"') && !id.contains('\\')).then_some(id)
}

/// `params.sessionId` of an attach or detach event.
fn event_session(msg: &str) -> Option<String> {
    let v: Value = serde_json::from_str(msg).ok()?;
    v["params"]["sessionId"].as_str().map(str::to_owned)
}

/// `result.sessionId` of an answer (an attach's).
fn answered_session(msg: &str) -> Option<String> {
    if !msg.contains("\"result\":{\"sessionId\":\"") {
        return None;
    }
    let v: Value = serde_json::from_str(msg).ok()?;
    v["result"]["sessionId"].as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_level_session_is_the_last_member() {
        assert_eq!(
            trailing_session(r#"{"method":"a","params":{},"sessionId":"AB12"}"#),
            Some("AB12")
        );
        assert_eq!(trailing_session(r#"{"id":3,"result":{},"sessionId":"S"}"#), Some("S"));
        // A session named inside params is not the message's.
        let detached = r#"{"method":"Target.detachedFromTarget","params":{"sessionId":"X"}}"#;
        assert_eq!(trailing_session(detached), None);
        assert_eq!(trailing_session(r#"{"method":"a","params":{"v":"x\"}"#), None);
        assert_eq!(trailing_session(r#"{"method":"a","params":{}}"#), None);
    }

    #[test]
    fn answers_and_events_find_their_lane() {
        // The writer is never used here: routing is pure bookkeeping.
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("rt");
        rt.block_on(async {
            let (tx, _rx) = pipe_pair();
            let lanes = Lanes::new(Arc::new(tokio::sync::Mutex::new(tx)), Captures::default());
            let daemons = |r: Route| matches!(r, Route::Daemon);
            let to_lane = |r: Route| match r {
                Route::Lane(tx) => Some(tx),
                _ => None,
            };
            assert!(daemons(lanes.route(r#"{"id":1,"result":{}}"#)), "no lanes: the daemon's");
            let mut lane = lanes.open();
            lock(&lanes.inner).calls.insert(FIRST_ID + 5, lane.id);
            let attach = format!(r#"{{"id":{},"result":{{"sessionId":"B1"}}}}"#, FIRST_ID + 5);
            to_lane(lanes.route(&attach)).expect("its answer").send(attach.clone()).expect("send");
            assert_eq!(lane.rx.recv().await.as_deref(), Some(attach.as_str()));
            assert!(daemons(lanes.route(r#"{"id":7,"result":{}}"#)), "the daemon's call");
            let child = r#"{"method":"Target.attachedToTarget","params":{"sessionId":"P1","targetInfo":{}},"sessionId":"B1"}"#;
            assert!(to_lane(lanes.route(child)).is_some(), "an event of its session");
            let load = r#"{"method":"Page.loadEventFired","params":{},"sessionId":"P1"}"#;
            assert!(to_lane(lanes.route(load)).is_some(), "the child it attached");
            let other = r#"{"method":"Page.loadEventFired","params":{},"sessionId":"Z"}"#;
            assert!(daemons(lanes.route(other)), "the daemon's session");
            let gone = r#"{"method":"Target.detachedFromTarget","params":{"sessionId":"P1"},"sessionId":"B1"}"#;
            assert!(to_lane(lanes.route(gone)).is_some());
            let after = r#"{"method":"x","params":{},"sessionId":"P1"}"#;
            assert!(daemons(lanes.route(after)), "detached");
            drop(lane);
            let late = r#"{"method":"x","params":{},"sessionId":"B1"}"#;
            assert!(matches!(lanes.route(late), Route::Nobody), "the lane closed: nobody's");
            let answer = format!(r#"{{"id":{},"result":{{}}}}"#, FIRST_ID + 9);
            assert!(matches!(lanes.route(&answer), Route::Nobody), "a lane's id, never the daemon's");
        });
    }

    fn pipe_pair() -> (pipe::Sender, pipe::Receiver) {
        let (r, w) = std::io::pipe().expect("pipe");
        let w: std::os::fd::OwnedFd = w.into();
        let r: std::os::fd::OwnedFd = r.into();
        (
            pipe::Sender::from_owned_fd(w).expect("sender"),
            pipe::Receiver::from_owned_fd(r).expect("receiver"),
        )
    }
}
