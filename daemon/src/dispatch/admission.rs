//! Admission: every refusal that changes nothing, for a single call and for a batch, before
//! the approval step (the one that writes) may use up a grant.
//!
//! A single call is checked in this order: role, the session it names, `timeout_ms`, `op_id`,
//! a handler for the action, a person in control or a paused session (mutating calls), an
//! `op_id` in use for another call, the drain, the desktop starting, the op rate, the
//! in-flight limit. A call whose `op_id` names a known op joins or replays it and skips the
//! drain, the desktop starting and the op rate (it still holds an in-flight slot). A batch is checked once for its length, its in-flight slots and its share of
//! the rate; its calls then skip those two checks.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use glovebox_protocol::contract::{Checked, Violation};
use glovebox_protocol::wire::{DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS};
use serde_json::Value;

use super::table::{self, Route};
use super::{Caller, OpOptions};
use crate::error::DaemonError;
use crate::session::{Budget, Session};
use crate::state::Daemon;

/// An in-flight counter: a connection's.
pub trait Counter {
    fn counter(&self) -> &AtomicUsize;
}

impl Counter for &AtomicUsize {
    fn counter(&self) -> &AtomicUsize {
        self
    }
}

/// `n` in-flight slots held on a counter, given back when dropped.
pub struct Slots<C: Counter> {
    on: C,
    n: usize,
}

impl<C: Counter> Drop for Slots<C> {
    fn drop(&mut self) {
        self.on.counter().fetch_sub(self.n, Ordering::SeqCst);
    }
}

/// Takes `n` slots under `limit`, or answers how many were in flight before.
fn take_slots<C: Counter>(on: C, n: usize, limit: usize) -> Result<Slots<C>, usize> {
    let before = on.counter().fetch_add(n, Ordering::SeqCst);
    let slots = Slots { on, n };
    if before + n > limit {
        return Err(before);
    }
    Ok(slots)
}

/// Takes `n` ops from the op rate: the caller token's budget (if it has one) and its
/// session's.
fn take_rate(session: &Session, token: Option<&Budget>, n: usize, per_sec: u32) -> bool {
    token.is_none_or(|b| b.admit(n, per_sec)) && session.admit_ops(n, per_sec)
}

/// What admission settled for a call that may run.
pub struct Admitted<'a> {
    pub route: &'static Route,
    pub op_id: String,
    pub fingerprint: String,
    pub timeout: Duration,
    /// No op has this id yet: the call starts one (and the approval step applies).
    pub fresh: bool,
    /// The call's in-flight slot, held until its answer (none for a batch's call).
    pub _slot: Option<Slots<&'a AtomicUsize>>,
}

/// Admits a single call, or says why not. A mutating call made with `wait_for_hand_back`
/// waits here for a person to hand the desktop back (within its deadline).
pub async fn admit<'a>(
    daemon: &Daemon,
    caller: &Caller<'a>,
    checked: &Checked,
    options: &OpOptions,
) -> Result<Admitted<'a>, DaemonError> {
    let (tool, action) = (checked.tool, checked.action);
    if action.class.actor_only() && !caller.role.can_act() {
        let method = tool.method(action);
        return Err(DaemonError::Forbidden { role: caller.role.as_str(), method });
    }
    named_session(caller.session, options.session.as_deref())?;
    let mut timeout_ms = timeout_ms(options.timeout_ms)?;
    op_id_shape(options.op_id.as_deref())?;
    let route = table::route(tool.name, action.name).ok_or_else(|| DaemonError::Unsupported {
        tool: tool.name.into(),
        action: action.name.into(),
        reason: format!("this daemon has no handler for {}.{}", tool.name, action.name),
        available: table::implemented(tool.name),
    })?;
    if action.class.mutating() {
        timeout_ms = in_control(daemon, caller, timeout_ms).await?;
    }
    let op_id = options.op_id.clone().unwrap_or_else(|| daemon.ops.mint_id());
    let fingerprint = fingerprint(&tool.method(action), &checked.args);
    // A known op id joins or replays its op: it was admitted and approved when it first ran,
    // and it is answered while the daemon drains or before the desktop is up.
    let fresh = match daemon.ops.get(&caller.session.id, &op_id) {
        Some(op) if !op.is_call(&fingerprint) => return Err(DaemonError::OpIdReused(op_id)),
        Some(_) => false,
        None => true,
    };
    if fresh {
        if daemon.ops.is_closed() {
            return Err(DaemonError::ShuttingDown);
        }
        if daemon.config.desktop.is_starting() {
            return Err(DaemonError::DesktopStarting);
        }
    }
    let per_sec = daemon.config.max_ops_per_sec;
    if !caller.admitted && fresh && !take_rate(caller.session, caller.token_rate, 1, per_sec) {
        return Err(DaemonError::RateLimited { per_sec });
    }
    let limit = daemon.config.max_in_flight;
    let slot = match caller.admitted {
        true => None,
        false => {
            Some(take_slots(caller.in_flight, 1, limit).map_err(|_| DaemonError::Busy { limit })?)
        }
    };
    let timeout = Duration::from_millis(timeout_ms);
    Ok(Admitted { route, op_id, fingerprint, timeout, fresh, _slot: slot })
}

/// Admits a batch of `len` calls of which `ops` run tool actions, on its connection's
/// counter (if a call carried one) and session (none before `hello`): all of it, or nothing.
pub fn admit_batch<C: Counter>(
    daemon: &Daemon,
    in_flight: Option<C>,
    session: Option<&Arc<Session>>,
    len: usize,
    ops: usize,
) -> Result<Option<Slots<C>>, DaemonError> {
    let max_batch = daemon.config.max_batch;
    if len > max_batch {
        return Err(DaemonError::BatchTooLarge { len, limit: max_batch });
    }
    let Some(in_flight) = in_flight.filter(|_| ops > 0) else { return Ok(None) };
    let limit = daemon.config.max_in_flight;
    let slots = take_slots(in_flight, ops, limit).map_err(|before| DaemonError::BatchBusy {
        ops,
        in_flight: before,
        limit,
    })?;
    let per_sec = daemon.config.max_ops_per_sec;
    if session.is_some_and(|s| !take_rate(s, None, ops, per_sec)) {
        return Err(DaemonError::BatchRateLimited { ops, per_sec });
    }
    Ok(Some(slots))
}

/// The session a call names must be the one it runs in.
fn named_session(session: &Session, named: Option<&str>) -> Result<(), DaemonError> {
    let Some(named) = named.filter(|s| *s != session.id) else { return Ok(()) };
    Err(DaemonError::Contract(Violation::new(
        "session",
        format!(
            "this call runs in session {:?}, not {named:?}: a WebSocket chooses its \
             session at hello, and a stateless MCP client passes a handle a result gave",
            session.id
        ),
    )))
}

fn timeout_ms(given: Option<u64>) -> Result<u64, DaemonError> {
    let ms = given.unwrap_or(DEFAULT_TIMEOUT_MS);
    if (1..=MAX_TIMEOUT_MS).contains(&ms) {
        return Ok(ms);
    }
    let why = format!("timeout_ms must be between 1 and {MAX_TIMEOUT_MS}, got {ms}");
    Err(DaemonError::Contract(Violation::new("timeout_ms", why)))
}

fn op_id_shape(id: Option<&str>) -> Result<(), DaemonError> {
    match id {
        Some(id) if id.is_empty() || id.len() > 128 || id.chars().any(char::is_whitespace) => {
            let why = "op_id must be 1 to 128 characters without spaces";
            Err(DaemonError::Contract(Violation::new("op_id", why)))
        }
        _ => Ok(()),
    }
}

/// A mutating call may not run while a person controls the desktop or its session is
/// paused. With `wait_for_hand_back` it waits for the hand-back instead and answers the
/// part of its timeout that is left.
async fn in_control(daemon: &Daemon, caller: &Caller<'_>, ms: u64) -> Result<u64, DaemonError> {
    let session = caller.session;
    let mut ms = ms;
    if caller.wait_for_hand_back {
        let until = Instant::now() + Duration::from_millis(ms);
        wait_for_hand_back(daemon, session, until).await?;
        ms = (until.saturating_duration_since(Instant::now()).as_millis() as u64).max(1);
    } else if let Some(by) = daemon.people.human_in_control(&session.creator) {
        return Err(DaemonError::HumanInControl { session: session.id.clone(), by });
    }
    if session.is_paused() {
        return Err(DaemonError::Paused(session.id.clone()));
    }
    Ok(ms)
}

/// Waits until no person controls the desktop for `session`'s token, or answers
/// `HumanInControl` at `until` (nothing ran).
async fn wait_for_hand_back(
    daemon: &Daemon,
    session: &Session,
    until: Instant,
) -> Result<(), DaemonError> {
    let mut ended = daemon.people.handbacks();
    loop {
        ended.borrow_and_update();
        let Some(by) = daemon.people.human_in_control(&session.creator) else { return Ok(()) };
        if tokio::time::timeout_at(until.into(), ended.changed()).await.is_err() {
            return Err(DaemonError::HumanInControl { session: session.id.clone(), by });
        }
    }
}

/// What tells one call from another under the same op id: the method and its arguments,
/// by their SHA-256 once long (a file's data is kept for 10 minutes by no op).
fn fingerprint(method: &str, args: &serde_json::Map<String, Value>) -> String {
    let whole = format!("{method} {}", Value::Object(args.clone()));
    if whole.len() <= 1024 {
        return whole;
    }
    use sha2::Digest as _;
    let hash = sha2::Sha256::digest(whole.as_bytes());
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!("{method} sha256:{hex}")
}
