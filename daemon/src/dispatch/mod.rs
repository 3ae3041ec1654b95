//! One pipeline for every tool call: admission -> approval -> the op (before, handler, after).
//!
//! `tools.call` and the direct `<tool>.<action>` methods both land here with the same
//! contract entry, so they validate, refuse and run identically.

pub(crate) mod admission;
mod approve;
mod auto;
mod browser;
mod computer;
mod context;
mod context_browser;
mod context_desktop;
mod done;
mod effects;
pub(crate) mod native;
mod op;
mod pixels;
mod results;
mod secrets;
mod settle;
pub(crate) mod shape;
mod table;
mod text;
mod wait;

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use glovebox_protocol::contract::Checked;
use glovebox_protocol::error::ErrorData;
use glovebox_protocol::wire::{Capture, OpOutcome, Target, OP_KEYS};
use serde_json::{json, Value};

use crate::auth::Role;
use crate::error::DaemonError;
use crate::ops;
use crate::session::Session;
use crate::state::Daemon;
use ops::{OpContext, Started};

pub use table::implemented;

/// What a handler returns: the action's typed result (`P::Result`, which the table writes as
/// the wire's JSON into a [`done::Done`]) and the target it acted on.
pub struct Output<R> {
    pub result: R,
    pub target: Option<Target>,
}

impl<R> Output<R> {
    pub fn new(result: R) -> Self {
        Output { result, target: None }
    }
}

/// Everything a handler may use.
pub struct Ctx {
    pub daemon: Arc<Daemon>,
    pub session: Arc<Session>,
    pub op: OpContext,
}

/// Op keys given with a call.
#[derive(Debug, Default, Clone)]
pub struct OpOptions {
    pub op_id: Option<String>,
    pub timeout_ms: Option<u64>,
    pub capture: Option<Capture>,
    /// When the action opens a tab, the session moves to it.
    pub follow: Option<bool>,
    /// The session a stateless MCP client names (or `new`); elsewhere the connection's.
    pub session: Option<String>,
}

/// Take the op keys (`op_id`, `timeout_ms`, `capture`, `follow`, `session`) out of a call's params: a
/// direct call's, or a tool call's arguments (MCP hosts can pass nothing else).
pub fn split_op_keys(
    args: &mut Value,
) -> Result<OpOptions, glovebox_protocol::contract::Violation> {
    let Some(obj) = args.as_object_mut() else { return Ok(OpOptions::default()) };
    let mut o = OpOptions::default();
    for key in OP_KEYS {
        let Some(v) = obj.remove(key) else { continue };
        match (key, &v) {
            (_, Value::Null) => {}
            ("op_id", Value::String(s)) => o.op_id = Some(s.clone()),
            ("timeout_ms", v) if v.as_u64().is_some() => o.timeout_ms = v.as_u64(),
            ("capture", v) if Capture::of(v).is_some() => o.capture = Capture::of(v),
            ("follow", Value::Bool(b)) => o.follow = Some(*b),
            ("session", Value::String(s)) => {
                crate::session::check_name("session", s)?;
                o.session = Some(s.clone());
            }
            _ => {
                let want = match key {
                    "op_id" | "session" => "a string",
                    "timeout_ms" => "a whole number of milliseconds",
                    "capture" => "true, false or \"auto\"",
                    _ => "true or false",
                };
                return Err(glovebox_protocol::contract::Violation::new(
                    key,
                    format!("{key} must be {want}"),
                ));
            }
        }
    }
    Ok(o)
}

/// Who is calling: the connection's role, session and in-flight counter.
pub struct Caller<'a> {
    pub role: Role,
    pub session: &'a Arc<Session>,
    pub in_flight: &'a AtomicUsize,
    /// A budget of the caller's token besides its session's (MCP calls, whose session may be
    /// a fresh one each time).
    pub token_rate: Option<&'a crate::session::Budget>,
    /// The call came in a batch that already took its in-flight slot and rate share.
    pub admitted: bool,
    /// Where the caller reads its errors.
    pub channel: crate::error::Channel,
    /// A mutating call made while a person is in control waits for the hand-back (up to
    /// its deadline) instead of answering `PAUSED`: an MCP host that hears progress.
    pub wait_for_hand_back: bool,
}

/// Marks a batch's calls in their request extensions: the gate admitted the batch as a
/// whole (in-flight slots and op rate), so its calls do not count a second time.
#[derive(Debug, Clone, Copy)]
pub struct Admitted;

/// Runs a checked call as an op and waits for its outcome: admission (every refusal that
/// changes nothing), approval (the one step that writes), then the op.
pub async fn call(
    daemon: &Arc<Daemon>,
    caller: Caller<'_>,
    checked: Result<Checked, DaemonError>,
    options: OpOptions,
) -> Result<OpOutcome, ErrorData> {
    let on = caller.channel;
    let checked = checked.map_err(|e| e.to_data_on(on))?;
    let admitted = admission::admit(daemon, &caller, &checked, &options)
        .await
        .map_err(|e| e.to_data_on(on))?;
    if admitted.fresh {
        approve::approve(daemon, caller.session, &checked, &admitted.op_id, &admitted.fingerprint)
            .map_err(|e| e.to_data_on(on))?;
    }
    let plan = op::Plan {
        tool: checked.tool,
        action: checked.action,
        method: checked.tool.method(checked.action),
        route: admitted.route,
        mode: options.capture.unwrap_or(Capture::Always),
        follow: options.follow == Some(true),
        on,
    };
    let spec = ops::OpSpec {
        session: &caller.session.id,
        op_id: admitted.op_id.clone(),
        tool: plan.tool.name,
        action: plan.action.name,
        fingerprint: admitted.fingerprint.clone(),
        timeout: admitted.timeout,
    };
    let (d, session) = (daemon.clone(), caller.session.clone());
    let body = move |op: OpContext| op::run(d, session, op, checked, plan);
    let started = daemon
        .ops
        .start(
            spec,
            body,
            release_on_error(daemon, caller.session),
            announce_finished(daemon, caller.session),
        )
        .map_err(|e| e.to_data_on(on))?;
    let entry = match started {
        Started::New(e) | Started::Existing(e) => e,
    };
    entry.wait().await
}

/// An op that failed, timed out or was cancelled releases every key and button the session
/// holds before its answer goes out, so nothing stays pressed behind an error.
fn release_on_error(
    daemon: &Arc<Daemon>,
    session: &Arc<Session>,
) -> impl FnOnce(&ops::Outcome) + Send + 'static {
    let (daemon, session) = (daemon.clone(), session.clone());
    move |out: &ops::Outcome| {
        if out.is_err() {
            release_held(&daemon, &session);
        }
    }
}

/// The `ops.finished` event, once the outcome is visible.
fn announce_finished(
    daemon: &Arc<Daemon>,
    session: &Session,
) -> impl FnOnce(&ops::OpEntry) + Send + 'static {
    let (daemon, session_id, owner) = (daemon.clone(), session.id.clone(), session.creator);
    move |entry: &ops::OpEntry| {
        let status = entry.status();
        daemon.events.publish_for(
            owner,
            "ops",
            "finished",
            json!({"op_id": status.op_id, "session": session_id, "state": status.state,
                   "elapsed_ms": status.elapsed_ms,
                   "capture_id": status.outcome.as_ref().and_then(|o| o.capture.as_ref())
                       .and_then(|c| c.capture_id.clone())}),
        );
    }
}

/// A call's arguments in at most 120 characters, for the `ops.started` event (the view
/// page's op list); a native call by its vendor's action names first.
fn summarize(tool: &str, args: &serde_json::Map<String, Value>) -> String {
    let text =
        native::summary(tool, args).unwrap_or_else(|| Value::Object(args.clone()).to_string());
    match text.char_indices().nth(120) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// A drag without a drop target: the contract's rules refuse one before any handler runs, so
/// reaching this names a rule and a handler that disagree.
pub(crate) fn no_drop_target(method: &str) -> DaemonError {
    let reason = "the contract requires a drop target".into();
    DaemonError::InvalidParams { method: method.to_owned(), reason }
}

/// Releases the desktop keys and buttons `session` holds and forgets them (on error, cancel,
/// timeout and when its connection closes).
pub fn release_held(daemon: &Daemon, session: &Session) {
    browser::release_held(daemon, session);
    release_desktop_held(daemon, session);
}

/// Releases what every session holds, the browser's key-ups included before it returns (the
/// drain, before the daemon stops its children).
pub async fn release_all_held(daemon: &Daemon) {
    for session in daemon.sessions.all() {
        browser::release_held_now(daemon, &session).await;
        release_desktop_held(daemon, &session);
    }
}

fn release_desktop_held(daemon: &Daemon, session: &Session) {
    let Some(desktop) = daemon.desktop() else { return };
    let held = match session.held.lock() {
        Ok(mut h) if !h.desktop_keys.is_empty() || !h.desktop_buttons.is_empty() => {
            let out = h.clone();
            h.desktop_keys.clear();
            h.desktop_buttons.clear();
            out
        }
        _ => return,
    };
    desktop.release_held(&held);
}
