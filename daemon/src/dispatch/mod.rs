//! One pipeline for every tool call: validate -> authorize -> run as an op.
//!
//! `tools.call` and the direct `<tool>.<action>` methods both land here with the same
//! contract entry, so they validate, refuse and run identically.

mod auto;
mod browser;
mod computer;
mod context;
mod context_browser;
mod context_desktop;
mod effects;
pub(crate) mod native;
pub mod ops;
mod results;
mod secrets;
mod settle;
pub(crate) mod shape;
mod table;
mod text;
mod wait;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use glovebox_protocol::contract::{Backend, Checked, Tool};
use glovebox_protocol::error::ErrorData;
use glovebox_protocol::wire::{
    Capture, OpOutcome, Timing, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, OP_KEYS,
};
use serde_json::{json, Value};

use crate::approval::policy::Verdict;
use crate::approval::store::Gate;
use crate::auth::Role;
use crate::error::DaemonError;
use crate::session::Session;
use crate::state::Daemon;
use ops::{OpContext, Started};

pub use table::implemented;

/// What a handler returns: the action's result (its typed `R`, the JSON the wire carries once
/// the table wrote it) and the target it acted on.
pub struct Output<R = Value> {
    pub result: R,
    pub target: Option<Value>,
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

struct InFlight<'a>(&'a AtomicUsize);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Run a checked call as an op and wait for its outcome.
pub async fn call(
    daemon: &Arc<Daemon>,
    caller: Caller<'_>,
    checked: Result<Checked, DaemonError>,
    options: OpOptions,
) -> Result<OpOutcome, ErrorData> {
    let on = caller.channel;
    let checked = checked.map_err(|e| e.to_data_on(on))?;
    let tool: &'static Tool = checked.tool;
    let action = checked.action;
    let method = tool.method(action);
    if action.class.actor_only() && !caller.role.can_act() {
        return Err(DaemonError::Forbidden { role: caller.role.as_str(), method }.to_data_on(on));
    }
    if let Some(named) = options.session.as_deref().filter(|s| *s != caller.session.id) {
        let v = glovebox_protocol::contract::Violation::new(
            "session",
            format!(
                "this call runs in session {:?}, not {named:?}: a WebSocket chooses its \
                 session at hello, and a stateless MCP client passes a handle a result gave",
                caller.session.id
            ),
        );
        return Err(DaemonError::Contract(v).to_data_on(on));
    }
    let mut timeout_ms = options.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
    if !(1..=MAX_TIMEOUT_MS).contains(&timeout_ms) {
        let v = glovebox_protocol::contract::Violation::new(
            "timeout_ms",
            format!("timeout_ms must be between 1 and {MAX_TIMEOUT_MS}, got {timeout_ms}"),
        );
        return Err(DaemonError::Contract(v).to_data_on(on));
    }
    if let Some(id) = &options.op_id {
        if id.is_empty() || id.len() > 128 || id.chars().any(char::is_whitespace) {
            let v = glovebox_protocol::contract::Violation::new(
                "op_id",
                "op_id must be 1 to 128 characters without spaces",
            );
            return Err(DaemonError::Contract(v).to_data_on(on));
        }
    }
    if action.class.mutating() {
        let until = Instant::now() + Duration::from_millis(timeout_ms);
        if caller.wait_for_hand_back {
            wait_for_hand_back(daemon, caller.session, until)
                .await
                .map_err(|e| e.to_data_on(on))?;
            // The wait used part of the call's deadline; the op gets what is left.
            let left = until.saturating_duration_since(Instant::now()).as_millis() as u64;
            timeout_ms = left.max(1);
        } else if let Some(by) = daemon.view.human_in_control(&caller.session.creator) {
            let session = caller.session.id.clone();
            return Err(DaemonError::HumanInControl { session, by }.to_data_on(on));
        }
        if caller.session.is_paused() {
            return Err(DaemonError::Paused(caller.session.id.clone()).to_data_on(on));
        }
    }
    let op_id = options.op_id.clone().unwrap_or_else(|| daemon.ops.mint_id());
    let fingerprint = fingerprint(&method, &checked.args);
    // A known op id joins or replays its op: it was approved when it first ran, and it is
    // answered while the daemon drains or before the desktop is up.
    if daemon.ops.get(&caller.session.id, &op_id).is_none() {
        if daemon.ops.is_closed() {
            return Err(DaemonError::ShuttingDown.to_data_on(on));
        }
        if daemon.config.desktop.is_starting() {
            return Err(DaemonError::DesktopStarting.to_data_on(on));
        }
        approve(daemon, caller.session, &checked, &op_id, &fingerprint)
            .map_err(|e| e.to_data_on(on))?;
    }

    let Some(route) = table::route(tool.name, action.name) else {
        return Err(DaemonError::Unsupported {
            tool: tool.name.into(),
            action: action.name.into(),
            reason: format!("this daemon has no handler for {}.{}", tool.name, action.name),
            available: implemented(tool.name),
        }
        .to_data_on(on));
    };

    let per_sec = daemon.config.max_ops_per_sec;
    let fresh = daemon.ops.get(&caller.session.id, &op_id).is_none();
    let token_ok = |b: &crate::session::Budget| b.admit(1, per_sec);
    if !caller.admitted
        && fresh
        && !(caller.token_rate.is_none_or(token_ok) && caller.session.admit_op(per_sec))
    {
        return Err(DaemonError::RateLimited { per_sec }.to_data_on(on));
    }

    let limit = daemon.config.max_in_flight;
    let _in_flight = if caller.admitted {
        None
    } else {
        if caller.in_flight.fetch_add(1, Ordering::SeqCst) >= limit {
            caller.in_flight.fetch_sub(1, Ordering::SeqCst);
            return Err(DaemonError::Busy { limit }.to_data_on(on));
        }
        Some(InFlight(caller.in_flight))
    };

    let session = caller.session.clone();
    let d = daemon.clone();
    // A direct call captures unless told not to; `tools.call` and MCP pass `auto`.
    let mode = options.capture.unwrap_or(Capture::Always);
    let want_capture = mode != Capture::Never;
    let aimed = auto::Aimed::of(&checked.args);
    let follow = options.follow == Some(true);
    let summary = summarize(tool.name, &checked.args);
    let body = move |op: OpContext| {
        let op_id = op.op_id.clone();
        d.events.publish_for(
            session.creator,
            "ops",
            "started",
            json!({"op_id": op_id, "session": session.id, "method": method,
                   "summary": summary}),
        );
        let (daemon, session_id, deadline) = (d.clone(), session.id.clone(), op.deadline);
        let session_of_op = session.clone();
        let ctx = Ctx { daemon: d, session, op };
        let started = Instant::now();
        let browsers = daemon.config.browser.clone();
        let fut = route.run(ctx, checked);
        // The outcome, kept for replays and read by every channel, hides secret values.
        let redactor = daemon.config.secrets.redactor().clone();
        let run = async move {
            // The windows a desktop action opens or closes are named from the bus.
            let windows = (action.backend == Backend::Desktop && want_capture && action.captures())
                .then(|| daemon.events.subscribe());
            let mark = match &browsers {
                Some(b) if action.backend != Backend::Desktop => Some(b.effects_mark().await),
                _ => None,
            };
            // What the page schedules during the action counts for its settle: its input
            // runs under a trace.
            let trace = match &browsers {
                Some(b)
                    if action.backend == Backend::Browser && want_capture && action.captures() =>
                {
                    b.trace_action().await
                }
                _ => None,
            };
            // No instrumentation pause may drop the input this action sends.
            let hold = match &browsers {
                Some(b) if action.backend == Backend::Browser && action.captures() => {
                    Some(b.hold_input().await)
                }
                _ => None,
            };
            let out = fut.await;
            if let Some(hold) = hold {
                hold.release().await;
            }
            let mut out = out.map_err(|e| e.to_data_on(on))?;
            let exec_ms = started.elapsed().as_secs_f64() * 1000.0;
            let acted_on = effects::tab_of(&out);
            // A tab the action opened may have taken the front: the capture shows the
            // session's tab, brought back to the front, or with `follow` the new tab, which
            // the session moves to.
            let opened = match (&browsers, &mark) {
                (Some(b), Some(m)) => effects::opened_tab(b, m, &out),
                _ => None,
            };
            if let (Some(new), true, Some(t)) = (&opened, follow, out.target.as_mut()) {
                t["tab_id"] = json!(new);
                t["tab_source"] = json!("followed");
                if let Ok(mut sel) = session_of_op.selection.lock() {
                    sel.tab_id = Some(new.clone());
                }
            }
            let span = settle::Span { started, ended: Instant::now() };
            let pending = if want_capture {
                let front = opened.is_some();
                let target = out.target.as_ref();
                let acted = settle::Acted { target, result: &out.result, trace };
                settle::settle(&daemon, action, acted, span, deadline, front).await
            } else {
                settle::requests_only(&daemon, action, out.target.as_ref(), span, deadline).await;
                Err(settle::After::default())
            };
            let pending = pending.map(|mut p| {
                if let Some(rx) = windows {
                    settle::name_windows(p.settle_mut(), rx, session_of_op.creator);
                }
                p
            });
            // Desktop captures from now on cover where the tab shows a secret's value.
            if let (Some(b), Some(tab)) = (&browsers, &acted_on) {
                secrets::cover_screen(&daemon, b, tab).await;
            }
            if let (Some(b), Some(mark), Some(tab)) = (&browsers, &mark, &acted_on) {
                effects::name(
                    b,
                    mark,
                    tab,
                    &mut out,
                    (&daemon.config.secrets.followed, &session_id),
                );
                for path in effects::downloaded(&out) {
                    session_of_op.downloaded(path);
                }
            }
            let mut changes = None;
            let after = match pending {
                Err(after) => after,
                Ok(mut p) if mode == Capture::Auto => {
                    let settle = p.settle_mut().clone();
                    let choice =
                        auto::choose(&daemon, &session_of_op, action, &out, &settle, &aimed).await;
                    changes = choice.changes;
                    let mut after = if choice.send {
                        p.capture(&daemon, &session_id, deadline).await
                    } else {
                        p.skip()
                    };
                    let sent = after.capture.is_some();
                    let why = match &after.no_capture {
                        Some(failed) if !sent => format!("{}, but {failed}", choice.why),
                        _ => choice.why,
                    };
                    let said = json!({"sent": sent, "why": why});
                    match after.capture.as_mut().and_then(Value::as_object_mut) {
                        Some(c) => {
                            c.insert("sent".into(), json!(true));
                            c.insert("why".into(), said["why"].clone());
                        }
                        None => after.capture = Some(said),
                    }
                    after
                }
                Ok(p) => p.capture(&daemon, &session_id, deadline).await,
            };
            let tokens = shape::tokens(&out.result, after.capture.as_ref(), changes.as_ref());
            Ok(OpOutcome {
                op_id,
                tool: tool.name.to_owned(),
                action: action.name.to_owned(),
                target: out.target,
                result: out.result,
                settle: after.settle,
                capture: after.capture,
                no_capture: after.no_capture,
                changes,
                tokens: Some(tokens),
                timing: Timing {
                    exec_ms,
                    settle_ms: after.settle_ms,
                    capture_ms: after.capture_ms,
                },
            })
        };
        async move {
            match run.await {
                Ok(o) => Ok(redactor.value(o)),
                Err(e) => Err(redactor.value(e)),
            }
        }
    };
    let events = daemon.clone();
    let session_id = caller.session.id.clone();
    let owner = caller.session.creator;
    let (held_daemon, held_session) = (daemon.clone(), caller.session.clone());
    // An op that failed, timed out or was cancelled releases every key and button the
    // session holds before its answer goes out, so nothing stays pressed behind an error.
    let release = move |out: &ops::Outcome| {
        if out.is_err() {
            release_held(&held_daemon, &held_session);
        }
    };
    let on_done = move |entry: &ops::OpEntry| {
        let status = entry.status();
        events.events.publish_for(
            owner,
            "ops",
            "finished",
            json!({"op_id": status.op_id, "session": session_id, "state": status.state,
                   "elapsed_ms": status.elapsed_ms,
                   "capture_id": status.outcome.as_ref().and_then(|o| o.capture.as_ref())
                       .and_then(|c| c.get("capture_id")).cloned()}),
        );
    };
    let started = daemon
        .ops
        .start(
            &caller.session.id,
            op_id,
            tool.name,
            action.name,
            fingerprint,
            Duration::from_millis(timeout_ms),
            body,
            release,
            on_done,
        )
        .map_err(|e| e.to_data_on(on))?;
    let entry = match started {
        Started::New(e) | Started::Existing(e) => e,
    };
    entry.wait().await
}

/// Waits until no person controls the desktop for `session`'s token, or answers
/// `HumanInControl` at `until` (nothing ran).
async fn wait_for_hand_back(
    daemon: &Daemon,
    session: &Session,
    until: Instant,
) -> Result<(), DaemonError> {
    let mut ended = daemon.view.handbacks();
    loop {
        ended.borrow_and_update();
        let Some(by) = daemon.view.human_in_control(&session.creator) else { return Ok(()) };
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

/// What the call's parameters stand for, for the policy: a launch's `app` by every name the
/// desktop's launcher resolves it to (so a rule cannot be dodged by spelling).
fn resolve_for_policy(daemon: &Daemon, checked: &Checked) -> crate::approval::policy::Resolved {
    let mut r = crate::approval::policy::Resolved::default();
    type GetApp = glovebox_protocol::actions::context::GetApp;
    if !checked.is::<GetApp>() {
        return r;
    }
    if let (Ok(p), Some(d)) = (checked.params::<GetApp>(), daemon.desktop()) {
        if p.launch {
            r.app = d.launch_names(&p.app);
        }
    }
    r
}

/// Apply the approval policy to a call about to run.
fn approve(
    daemon: &Daemon,
    session: &Session,
    checked: &Checked,
    op_id: &str,
    fingerprint: &str,
) -> Result<(), DaemonError> {
    let resolved = resolve_for_policy(daemon, checked);
    let decision = daemon.config.policy.decide_resolved(checked.action, &checked.args, &resolved);
    let rule = decision.rule.unwrap_or_default();
    match decision.verdict {
        Verdict::Allow => Ok(()),
        Verdict::Deny => {
            tracing::info!(session = ?session.id, rule = ?rule, method = %checked.tool.method(checked.action), "policy denied a call");
            Err(DaemonError::ApprovalDenied { rule, by: "the policy".into() })
        }
        Verdict::Ask => {
            let method = checked.tool.method(checked.action);
            let args = Value::Object(checked.args.clone());
            match daemon.approvals.check(
                &session.creator.short(),
                &session.id,
                op_id,
                fingerprint,
                &method,
                &rule,
                &args,
            )? {
                Gate::Run => Ok(()),
                Gate::Pending(approval) => {
                    Err(DaemonError::ApprovalRequired { rule, approval, resent: true })
                }
                Gate::Wait(approval) => {
                    daemon.events.publish_for(
                        session.creator,
                        "approvals",
                        "requested",
                        approval.clone(),
                    );
                    Err(DaemonError::ApprovalRequired { rule, approval, resent: false })
                }
            }
        }
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
