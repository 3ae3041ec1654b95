//! What agents ask a person for (`session.request_human`, `context.request_human`): a reason
//! and the tab or window it is about, kept and shown on the page until a hand-back answers
//! it (the oldest answered ones go first).

use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::{json, Value};

use crate::error::DaemonError;
use crate::events::EventBus;
use crate::session::Session;

/// Requests kept at most (the oldest answered ones go first, then the oldest).
const KEPT: usize = 64;
/// The longest reason kept.
pub const MAX_REASON: usize = 500;

#[derive(Debug, Clone, Serialize)]
pub struct Request {
    pub request_id: String,
    pub session: String,
    pub reason: String,
    pub tab_id: Option<String>,
    pub window_id: Option<String>,
    pub requested_at_ms: u64,
    /// `pending`, then `handed_back`.
    pub state: &'static str,
    #[serde(skip)]
    pub creator: crate::session::Owner,
}

impl super::People {
    /// Keeps `req`, dropping the oldest answered one (else the oldest) past [`KEPT`].
    pub(crate) fn file_request(&self, req: Request) {
        let mut all = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        if all.len() >= KEPT {
            let drop_at = all.iter().position(|r| r.state != "pending").unwrap_or(0);
            all.remove(drop_at);
        }
        all.push(req);
    }

    /// The requests a viewer who may use `owner`'s sessions sees, newest last.
    pub fn requests_for(&self, owner: &crate::session::Owner) -> Vec<Value> {
        let all = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        all.iter().filter(|r| owner.may_use(&r.creator)).map(|r| json!(r)).collect()
    }

    /// The pending requests of `session`.
    pub fn pending_of(&self, session: &str) -> Vec<String> {
        let all = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        all.iter()
            .filter(|r| r.session == session && r.state == "pending")
            .map(|r| r.request_id.clone())
            .collect()
    }

    /// Marks the pending requests a hand-back by `owner` answers; their ids.
    pub(crate) fn answer_requests(&self, owner: &crate::session::Owner) -> Vec<String> {
        let mut all = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        let mut ids = Vec::new();
        for r in all.iter_mut().filter(|r| r.state == "pending" && owner.may_use(&r.creator)) {
            r.state = "handed_back";
            ids.push(r.request_id.clone());
        }
        ids
    }

    /// The pending request of `session` that asks for `reason`, if there is one.
    pub fn pending_with(&self, session: &str, reason: &str) -> Option<String> {
        let all = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        all.iter()
            .rev()
            .find(|r| r.session == session && r.state == "pending" && r.reason == reason)
            .map(|r| r.request_id.clone())
    }

    /// The state of request `id`, if it is kept.
    pub fn request_state(&self, id: &str) -> Option<&'static str> {
        let all = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        all.iter().find(|r| r.request_id == id).map(|r| r.state)
    }

    /// Waits for the next hand-back after the one counted in `seen`.
    pub fn handbacks(&self) -> tokio::sync::watch::Receiver<u64> {
        self.ended.subscribe()
    }
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

impl super::People {
    /// Files a request of `session`, tells the page and the session's token (`session`
    /// event `human.requested` on `events`), and answers at once.
    pub fn request_human(
        &self,
        events: &EventBus,
        session: &Session,
        reason: &str,
        tab_id: Option<String>,
        window_id: Option<String>,
    ) -> Result<Request, DaemonError> {
        let reason = reason.trim();
        if reason.is_empty() || reason.chars().count() > MAX_REASON {
            let v = glovebox_protocol::contract::Violation::new(
                "reason",
                format!(
                    "reason must say in 1 to {MAX_REASON} characters what the person should do"
                ),
            );
            return Err(DaemonError::Contract(v));
        }
        let id = format!("h-{}", &crate::session::mint_id()?[2..18]);
        let req = Request {
            request_id: id,
            session: session.id.clone(),
            reason: reason.to_owned(),
            tab_id,
            window_id,
            requested_at_ms: now_ms(),
            state: "pending",
            creator: session.creator,
        };
        self.file_request(req.clone());
        events.publish_for(session.creator, "session", "human.requested", json!(req));
        self.bump();
        Ok(req)
    }
}
