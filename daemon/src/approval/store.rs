//! Calls waiting for a human: an `ask` rule parks the call under an approval id; an approver
//! grants or denies it; the same call re-sent with its op_id then runs once, or is refused.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use dashmap::DashMap;
use serde::Serialize;
use serde_json::{json, Value};

use crate::error::DaemonError;

/// How long an unanswered or unused approval lives.
pub const TTL: Duration = Duration::from_secs(600);

/// Approvals one token may have waiting at once by default (`--max-pending-approvals`);
/// one more ask is `TOO_MANY_APPROVALS`.
pub const MAX_PENDING_PER_TOKEN: usize = 16;

/// New approvals one token may ask for in a minute by default (`--max-asks-per-minute`; a
/// flood would bury the approver).
pub const MAX_ASKS_PER_MINUTE: usize = 30;

/// Where an approval is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Pending,
    Granted,
    Denied,
}

#[derive(Debug)]
struct Entry {
    id: String,
    session: String,
    /// The token whose session asked (a short hash): the caps are per token.
    owner: String,
    op_id: String,
    fingerprint: String,
    method: String,
    rule: String,
    args: Value,
    created: Instant,
    /// When it was asked, as the wall clock had it (milliseconds since the epoch).
    since_ms: u64,
    state: Mutex<State>,
}

impl Entry {
    fn state(&self) -> State {
        self.state.lock().map(|s| *s).unwrap_or(State::Denied)
    }

    fn public(&self) -> Asked {
        Asked {
            approval_id: self.id.clone(),
            session: self.session.clone(),
            op_id: self.op_id.clone(),
            method: self.method.clone(),
            rule: self.rule.clone(),
            arguments: self.args.clone(),
            state: self.state(),
            since: crate::clock::utc(self.since_ms),
            age_ms: self.created.elapsed().as_millis() as u64,
        }
    }
}

/// An approval as its lists, events and answers show it.
#[derive(Debug, Clone, Serialize)]
pub struct Asked {
    pub approval_id: String,
    /// The session whose call asked.
    pub session: String,
    pub op_id: String,
    pub method: String,
    pub rule: String,
    /// The call's arguments: only approvers and admins see them (`events::approval_for`).
    pub arguments: Value,
    pub state: State,
    /// When it was asked (UTC).
    pub since: String,
    pub age_ms: u64,
}

impl Asked {
    /// As it goes out (an event, an answer, `approval.list`).
    pub fn json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// What a call needing approval learns.
pub enum Gate {
    /// Granted: run it (the grant is used up).
    Run,
    /// Newly parked.
    Wait(Value),
    /// Parked before and still waiting (the same call re-sent).
    Pending(Value),
}

#[derive(Debug)]
pub struct Approvals {
    by_id: DashMap<String, Entry>,
    minted: AtomicU64,
    /// When each token asked for its approvals of the last minute.
    asks: Mutex<HashMap<String, VecDeque<Instant>>>,
    max_pending: usize,
    max_asks_per_minute: usize,
}

impl Default for Approvals {
    fn default() -> Self {
        Approvals::with_limits(MAX_PENDING_PER_TOKEN, MAX_ASKS_PER_MINUTE)
    }
}

impl Approvals {
    /// A store where a token may have `max_pending` approvals waiting and ask for
    /// `max_asks_per_minute` new ones a minute, across all its sessions.
    pub fn with_limits(max_pending: usize, max_asks_per_minute: usize) -> Self {
        Approvals {
            by_id: DashMap::new(),
            minted: AtomicU64::new(0),
            asks: Mutex::default(),
            max_pending,
            max_asks_per_minute,
        }
    }

    /// Check a call that an `ask` rule caught. The key is (session, op_id, what was asked);
    /// `owner` names the session's token.
    #[allow(clippy::too_many_arguments)]
    pub fn check(
        &self,
        owner: &str,
        session: &str,
        op_id: &str,
        fingerprint: &str,
        method: &str,
        rule: &str,
        args: &Value,
    ) -> Result<Gate, DaemonError> {
        self.by_id.retain(|_, e| e.created.elapsed() < TTL);
        let found = self
            .by_id
            .iter()
            .find(|e| e.session == session && e.op_id == op_id && e.fingerprint == fingerprint)
            .map(|e| e.id.clone());
        if let Some(id) = found {
            let Some((_, entry)) = self.by_id.remove(&id) else { return Ok(Gate::Wait(json!({}))) };
            return match entry.state() {
                State::Granted => Ok(Gate::Run),
                State::Denied => {
                    Err(DaemonError::ApprovalDenied { rule: entry.rule, by: "an approver".into() })
                }
                State::Pending => {
                    let public = entry.public().json();
                    self.by_id.insert(id, entry);
                    Ok(Gate::Pending(public))
                }
            };
        }
        self.admit_ask(owner)?;
        let id = format!("ap-{}", self.minted.fetch_add(1, Ordering::SeqCst) + 1);
        let entry = Entry {
            id: id.clone(),
            session: session.to_owned(),
            owner: owner.to_owned(),
            op_id: op_id.to_owned(),
            fingerprint: fingerprint.to_owned(),
            method: method.to_owned(),
            rule: rule.to_owned(),
            args: args.clone(),
            created: Instant::now(),
            since_ms: crate::clock::now_ms(),
            state: Mutex::new(State::Pending),
        };
        let public = entry.public().json();
        self.by_id.insert(id, entry);
        Ok(Gate::Wait(public))
    }

    /// Whether `owner`'s token may park one more call: under the pending cap and the
    /// minute's, whichever of its sessions asks.
    fn admit_ask(&self, owner: &str) -> Result<(), DaemonError> {
        let pending =
            self.by_id.iter().filter(|e| e.owner == owner && e.state() == State::Pending).count();
        if pending >= self.max_pending {
            return Err(DaemonError::TooManyPending { pending, limit: self.max_pending });
        }
        let mut asks = self.asks.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        asks.retain(|_, q| {
            while q.front().is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(60)) {
                q.pop_front();
            }
            !q.is_empty()
        });
        let q = asks.entry(owner.to_owned()).or_default();
        if q.len() >= self.max_asks_per_minute {
            return Err(DaemonError::TooManyAsks { limit: self.max_asks_per_minute });
        }
        q.push_back(now);
        Ok(())
    }

    /// Every approval still waiting for an answer.
    pub fn pending(&self) -> Vec<Asked> {
        let mut out: Vec<Asked> =
            self.by_id.iter().filter(|e| e.state() == State::Pending).map(|e| e.public()).collect();
        out.sort_by(|a, b| a.approval_id.cmp(&b.approval_id));
        out
    }

    /// The approvals of `session` still waiting for an answer, oldest first.
    pub fn pending_of(&self, session: &str) -> Vec<Asked> {
        let mut out: Vec<(Instant, Asked)> = self
            .by_id
            .iter()
            .filter(|e| e.session == session && e.state() == State::Pending)
            .map(|e| (e.created, e.public()))
            .collect();
        out.sort_by_key(|(at, _)| *at);
        out.into_iter().map(|(_, v)| v).collect()
    }

    /// One approval as its lists show it.
    pub fn get(&self, id: &str) -> Option<Asked> {
        self.by_id.get(id).map(|e| e.public())
    }

    /// Answer a pending approval.
    pub fn answer(&self, id: &str, grant: bool) -> Result<Asked, DaemonError> {
        let entry = self
            .by_id
            .get(id)
            .ok_or_else(|| DaemonError::TargetNotFound { kind: "approval", id: id.to_owned() })?;
        let mut state =
            entry.state.lock().map_err(|_| DaemonError::Poisoned("the approval store"))?;
        if *state != State::Pending {
            return Err(DaemonError::TargetNotFound {
                kind: "pending approval",
                id: id.to_owned(),
            });
        }
        *state = if grant { State::Granted } else { State::Denied };
        drop(state);
        Ok(entry.public())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grant_runs_once_and_deny_refuses() {
        let a = Approvals::default();
        let args = json!({"url": "x"});
        let Ok(Gate::Wait(v)) = a.check("tok-s", "s", "op1", "f", "m", "r", &args) else {
            panic!("parks")
        };
        let id = v["approval_id"].as_str().expect("id").to_owned();
        assert_eq!(a.pending().len(), 1);
        let Ok(Gate::Pending(again)) = a.check("tok-s", "s", "op1", "f", "m", "r", &args) else {
            panic!("still waiting")
        };
        assert_eq!(again["since"], v["since"], "asked once, when first sent");
        assert_eq!(a.pending_of("s").len(), 1);
        assert!(a.pending_of("s2").is_empty());
        assert_eq!(a.pending().len(), 1, "no duplicate");
        a.answer(&id, true).expect("granted");
        assert!(matches!(a.check("tok-s", "s", "op1", "f", "m", "r", &args), Ok(Gate::Run)));
        assert!(a.pending().is_empty());
        let Ok(Gate::Wait(v)) = a.check("tok-s", "s", "op2", "f", "m", "r", &args) else {
            panic!("parks")
        };
        let id = v["approval_id"].as_str().expect("id").to_owned();
        a.answer(&id, false).expect("denied");
        assert!(matches!(
            a.check("tok-s", "s", "op2", "f", "m", "r", &args),
            Err(DaemonError::ApprovalDenied { .. })
        ));
        assert!(a.answer(&id, true).is_err(), "gone once used");
        assert!(a.answer("ap-99", true).is_err());
    }

    #[test]
    fn a_token_cannot_bury_the_approver() {
        let a = Approvals::default();
        let args = json!({});
        for i in 0..MAX_PENDING_PER_TOKEN {
            let op = format!("op{i}");
            assert!(matches!(a.check("tok-s", "s", &op, "f", "m", "r", &args), Ok(Gate::Wait(_))));
        }
        let over = a.check("tok-s", "s", "one-more", "f", "m", "r", &args);
        assert!(matches!(over, Err(DaemonError::TooManyPending { pending: 16, limit: 16 })));
        // Another session of the same token is held back as well.
        let over = a.check("tok-s", "s2", "op0", "f", "m", "r", &args);
        assert!(matches!(over, Err(DaemonError::TooManyPending { .. })), "per token");
        // Another token is not, and an answer frees a place.
        assert!(matches!(a.check("tok-t", "t", "op0", "f", "m", "r", &args), Ok(Gate::Wait(_))));
        a.answer("ap-1", false).expect("answered");
        assert!(matches!(
            a.check("tok-s", "s", "one-more", "f", "m", "r", &args),
            Ok(Gate::Wait(_))
        ));
        // Asks per minute count answered ones too.
        for i in 0..MAX_ASKS_PER_MINUTE {
            let op = format!("u{i}");
            if let Ok(Gate::Wait(v)) = a.check("tok-u", "u", &op, "f", "m", "r", &args) {
                a.answer(v["approval_id"].as_str().expect("id"), false).expect("answered");
            }
        }
        let over = a.check("tok-u", "u", "late", "f", "m", "r", &args);
        assert!(matches!(over, Err(DaemonError::TooManyAsks { limit: 30 })), "{:?}", over.err());
    }

    #[test]
    fn the_caps_are_the_daemon_s_flags() {
        let a = Approvals::with_limits(2, 3);
        let args = json!({});
        for op in ["a", "b"] {
            assert!(matches!(a.check("tok-s", "s", op, "f", "m", "r", &args), Ok(Gate::Wait(_))));
        }
        let over = a.check("tok-s", "s", "c", "f", "m", "r", &args);
        assert!(matches!(over, Err(DaemonError::TooManyPending { pending: 2, limit: 2 })));
        a.answer("ap-1", false).expect("denied");
        assert!(matches!(a.check("tok-s", "s", "d", "f", "m", "r", &args), Ok(Gate::Wait(_))));
        a.answer("ap-2", false).expect("denied");
        let over = a.check("tok-s", "s", "e", "f", "m", "r", &args);
        assert!(matches!(over, Err(DaemonError::TooManyAsks { limit: 3 })), "{:?}", over.err());
    }
}
