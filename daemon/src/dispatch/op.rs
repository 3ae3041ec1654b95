//! The op an admitted, approved call runs: before (what the action's settle and effects need
//! watched from the start), the handler, after (follow, settle, effects, capture), then the
//! outcome, redacted once for every channel and every replay.

use std::sync::Arc;
use std::time::Instant;

use glovebox_protocol::contract::{Action, Backend, Checked, Tool};
use glovebox_protocol::error::ErrorData;
use glovebox_protocol::wire::{Capture, Captured, Changes, OpOutcome, TabSource, Target, Timing};
use serde_json::json;

use super::done::Done;
use super::table::Route;
use super::{auto, effects, secrets, settle, shape, Ctx};
use crate::browser::actions::trace::ActionTrace;
use crate::browser::{Browsers, EffectsMark};
use crate::error::Channel;
use crate::events::Scoped;
use crate::ops::OpContext;
use crate::session::Session;
use crate::state::Daemon;

/// What the op needs besides its call, fixed before it runs.
pub struct Plan {
    pub tool: &'static Tool,
    pub action: &'static Action,
    pub method: String,
    pub route: &'static Route,
    /// A direct call captures unless told not to; `tools.call` and MCP pass `auto`.
    pub mode: Capture,
    /// When the action opens a tab, the session moves to it.
    pub follow: bool,
    pub on: Channel,
}

impl Plan {
    fn wants_capture(&self) -> bool {
        self.mode != Capture::Never
    }
}

/// Runs the op: its body, for [`crate::ops::Ops::start`].
pub async fn run(
    daemon: Arc<Daemon>,
    session: Arc<Session>,
    op: OpContext,
    checked: Checked,
    plan: Plan,
) -> Result<OpOutcome, ErrorData> {
    let redactor = daemon.config.secrets.redactor().clone();
    match outcome(daemon, session, op, checked, plan).await {
        Ok(o) => Ok(redactor.value(o)),
        Err(e) => Err(redactor.value(e)),
    }
}

async fn outcome(
    daemon: Arc<Daemon>,
    session: Arc<Session>,
    op: OpContext,
    checked: Checked,
    plan: Plan,
) -> Result<OpOutcome, ErrorData> {
    let (op_id, deadline) = (op.op_id.clone(), op.deadline);
    let summary = super::summarize(plan.tool.name, &checked.args);
    daemon.events.publish_for(
        session.creator,
        "ops",
        "started",
        json!({"op_id": op_id, "session": session.id, "method": plan.method,
               "summary": summary}),
    );
    let mut aimed = auto::Aimed::of(&checked.args);
    let ctx = Ctx { daemon: daemon.clone(), session: session.clone(), op };
    let started = Instant::now();
    let fut = plan.route.run(ctx, checked);
    let mut before = Before::take(&daemon, &plan, &session.id).await;
    aimed.screen = before.screen.take();
    let (hold, watched) = before.split();
    let out = fut.await;
    if let Some(hold) = hold {
        hold.release().await;
    }
    let out = out.map_err(|e| e.to_data_on(plan.on))?;
    let exec_ms = started.elapsed().as_secs_f64() * 1000.0;
    let span = settle::Span { started, ended: Instant::now() };
    let after = after(&daemon, &session, &plan, out, watched, span, deadline, &aimed).await;
    let (out, after, changes) = after;
    let tokens = shape::tokens(&out.result, after.capture.as_ref(), changes.as_ref());
    Ok(OpOutcome {
        op_id,
        tool: plan.tool.name.to_owned(),
        action: plan.action.name.to_owned(),
        target: out.target,
        result: out.result,
        settle: after.settle,
        capture: after.capture,
        no_capture: after.no_capture,
        changes,
        tokens: Some(tokens),
        timing: Timing { exec_ms, settle_ms: after.settle_ms, capture_ms: after.capture_ms },
    })
}

/// What is watched from before the handler runs.
#[derive(Default)]
struct Before {
    /// The windows a desktop action opens or closes are named from the bus.
    windows: Option<tokio::sync::broadcast::Receiver<Scoped>>,
    /// Where the browser's effects log stood.
    mark: Option<EffectsMark>,
    /// What the page schedules during the action counts for its settle: its input runs
    /// under a trace.
    trace: Option<ActionTrace>,
    /// No instrumentation pause may drop the input this action sends.
    hold: Option<crate::browser::InputHold>,
    /// Which secrets typed into tabs their pages still held.
    held: secrets::Held,
    /// Under `auto`, the screen before a desktop action: which pixels it changed.
    screen: Option<super::pixels::Screen>,
}

/// [`Before`] less the hold, released once the handler is done.
struct Watched {
    windows: Option<tokio::sync::broadcast::Receiver<Scoped>>,
    mark: Option<EffectsMark>,
    trace: Option<ActionTrace>,
    held: secrets::Held,
}

impl Before {
    async fn take(daemon: &Daemon, plan: &Plan, session: &str) -> Before {
        let action = plan.action;
        let captured = plan.wants_capture() && action.captures();
        let on_desktop = action.backend == Backend::Desktop;
        let windows = (on_desktop && captured).then(|| daemon.events.subscribe());
        let screen = match (on_desktop && captured && plan.mode == Capture::Auto, daemon.desktop())
        {
            (true, Some(d)) => super::pixels::Screen::grab(&d).await,
            _ => None,
        };
        let Some(b) = &daemon.config.browser else {
            return Before { windows, screen, ..Before::default() };
        };
        let on_browser = action.backend == Backend::Browser;
        let (mark, held) = match action.backend != Backend::Desktop {
            true => (Some(b.effects_mark().await), secrets::held_before(daemon, b, session).await),
            false => (None, secrets::Held::default()),
        };
        let trace = match on_browser && captured {
            true => b.trace_action().await,
            false => None,
        };
        let hold = match on_browser && action.captures() {
            true => Some(b.hold_input().await),
            false => None,
        };
        Before { windows, mark, trace, hold, held, screen }
    }

    /// The input hold, released once the handler is done, and the rest (the screen before is
    /// taken out first, for auto).
    fn split(self) -> (Option<crate::browser::InputHold>, Watched) {
        let Before { windows, mark, trace, hold, held, screen: _ } = self;
        (hold, Watched { windows, mark, trace, held })
    }
}

/// After the handler: follow a tab it opened, settle, name its effects, capture.
#[allow(clippy::too_many_arguments)]
async fn after(
    daemon: &Arc<Daemon>,
    session: &Session,
    plan: &Plan,
    mut out: Done,
    watched: Watched,
    span: settle::Span,
    deadline: Instant,
    aimed: &auto::Aimed,
) -> (Done, settle::After, Option<Changes>) {
    let browsers = daemon.config.browser.as_deref();
    let acted_on = effects::tab_of(&out);
    // A tab the action opened may have taken the front: the capture shows the session's tab,
    // brought back to the front, or with `follow` the new tab, which the session moves to.
    let opened = match (browsers, &watched.mark) {
        (Some(b), Some(m)) => effects::opened_tab(b, m, &out),
        _ => None,
    };
    if let (Some(new), true) = (&opened, plan.follow) {
        follow(session, &mut out, new);
    }
    let pending = if plan.wants_capture() {
        // Under `auto` a tab settles only as far as the outline the choice reads needs; the
        // capture, if one is sent, waits for the paint first.
        let how = (opened.is_some(), plan.mode == Capture::Auto);
        let target = out.target.as_ref();
        let acted = settle::Acted { target, facts: &out.facts, trace: watched.trace };
        settle::settle(daemon, plan.action, acted, span, deadline, how).await
    } else {
        settle::requests_only(daemon, plan.action, out.target.as_ref(), span, deadline).await;
        Err(settle::After::default())
    };
    let pending = pending.map(|mut p| {
        if let Some(rx) = watched.windows {
            p.name_windows(rx, session.creator);
        }
        p
    });
    if let (Some(b), Some(tab)) = (browsers, &acted_on) {
        let fx = (watched.mark.as_ref(), &watched.held);
        browser_effects(daemon, session, b, fx, tab, &mut out).await;
    }
    let (after, changes) = match pending {
        Err(after) => (after, None),
        Ok(p) if plan.mode == Capture::Auto => {
            auto_capture(daemon, session, plan.action, &out, p, deadline, aimed).await
        }
        Ok(p) => (p.capture(daemon, &session.id, deadline).await, None),
    };
    (out, after, changes)
}

/// With `follow`, the target names the tab the action opened and the session moves to it.
fn follow(session: &Session, out: &mut Done, new: &str) {
    let Some(Target::Tab(t)) = out.target.as_mut() else { return };
    t.tab_id = Some(new.to_owned());
    t.tab_source = Some(TabSource::Followed);
    if let Ok(mut sel) = session.selection.lock() {
        sel.tab_id = Some(new.to_owned());
    }
}

/// Desktop captures from now on cover where the tab shows a secret's value; the result names
/// what the action caused in the browser, and the session keeps its downloads.
async fn browser_effects(
    daemon: &Daemon,
    session: &Session,
    b: &Browsers,
    (mark, held): (Option<&EffectsMark>, &secrets::Held),
    tab: &(String, String),
    out: &mut Done,
) {
    secrets::cover_screen(daemon, b, tab).await;
    let Some(mark) = mark else { return };
    let followed = &daemon.config.secrets.followed;
    let caused = effects::name(b, mark, tab, out, (followed, &session.id, held));
    for d in caused.downloads {
        session.downloaded(d.path.into());
    }
}

/// `capture: "auto"`: the capture is sent when the settle saw something worth seeing, and
/// says why it was or was not.
async fn auto_capture(
    daemon: &Daemon,
    session: &Session,
    action: &'static Action,
    out: &Done,
    mut p: settle::Pending,
    deadline: Instant,
    aimed: &auto::Aimed,
) -> (settle::After, Option<Changes>) {
    let settle = p.settle_mut().clone();
    let choice = auto::choose(daemon, session, action, out, (&settle, p.closed()), aimed).await;
    let mut after = match choice.send {
        true => p.capture_framed(daemon, &session.id, deadline, choice.frame).await,
        false => p.skip().await,
    };
    let sent = after.capture.is_some();
    let why = match &after.no_capture {
        Some(failed) if !sent => format!("{}, but {failed}", choice.why),
        _ => choice.why,
    };
    let said = after.capture.get_or_insert_with(Captured::default);
    (said.sent, said.why) = (Some(sent), Some(why));
    (after, choice.changes)
}
