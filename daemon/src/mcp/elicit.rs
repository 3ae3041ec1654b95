//! Approvals a policy rule leaves to the MCP host's user (`"approve": "elicitation"`): a call
//! that rule catches answers with an input request (the 2026-07-28 revision's multi-round
//! tools/call) asking the user to allow it; the host's retry carries the answer, which grants
//! or denies the approval, and the call runs once under its first op id. Any other `ask` rule
//! stays with approver and admin tokens, and a host on an older revision gets
//! `APPROVAL_REQUIRED` as over `/rpc`.
//!
//! `requestState` comes back from the host untrusted: it names the approval and op, and the
//! approval must be this session's, still pending, under an elicitation rule, for that op.

use glovebox_protocol::error::{ErrorCode, ErrorData};
use rmcp::model::{
    CallToolRequestParams, ElicitRequest, ElicitResult, ElicitationAction, InputRequest,
    InputRequiredResult,
};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::approval::policy::Approve;
use crate::approval::store::State;
use crate::error::DaemonError;
use crate::session::Session;
use crate::state::Daemon;

/// The key of the one input request.
const KEY: &str = "approve";

/// The approval and op of an `APPROVAL_REQUIRED` failure whose rule the host's user may
/// answer.
pub fn elicitable(daemon: &Daemon, e: &ErrorData) -> Option<(String, String)> {
    if e.code != ErrorCode::ApprovalRequired {
        return None;
    }
    let d = Asking::deserialize(e.details.as_ref()?).ok()?;
    if daemon.config.policy.approve_of(&d.rule) != Approve::Elicitation {
        return None;
    }
    Some((d.approval_id, d.op_id))
}

/// What an `APPROVAL_REQUIRED` failure's details name.
#[derive(Deserialize)]
struct Asking {
    rule: String,
    approval_id: String,
    op_id: String,
}

/// The question to the user about `e`'s call: an `elicitation/create` request's params.
fn question(daemon: &Daemon, e: &ErrorData, approval_id: &str) -> Value {
    let rule = e.details.as_ref().and_then(|d| Asking::deserialize(d).ok()).map(|d| d.rule);
    let approval = daemon.approvals.get(approval_id);
    let (method, arguments) = approval
        .as_ref()
        .map_or(("this call", String::new()), |a| (a.method.as_str(), a.arguments.to_string()));
    let message = format!(
        "Glovebox asks: allow {method} {arguments} (policy rule \"{}\")?",
        rule.unwrap_or_default()
    );
    json!({"mode": "form", "message": message,
           "requestedSchema": {"type": "object", "required": [KEY], "properties": {
               KEY: {"type": "boolean", "title": "Allow", "description": "true runs the call once"}}}})
}

/// Whether the host's user said yes to `e`'s call.
fn said_yes(answer: &ElicitResult) -> bool {
    let allowed = answer.content.as_ref().and_then(|c| c.get(KEY));
    answer.action == ElicitationAction::Accept && allowed == Some(&Value::Bool(true))
}

/// Before 2026-07-28: ask the host's user now, over the request's own stream, and answer the
/// approval. True when they allowed it (the caller runs the call again, once).
pub async fn ask_now(
    daemon: &Daemon,
    ctx: &rmcp::service::RequestContext<rmcp::RoleServer>,
    e: &ErrorData,
    approval_id: &str,
) -> bool {
    let Ok(params) = serde_json::from_value(question(daemon, e, approval_id)) else { return false };
    let answer = match ctx.peer.create_elicitation(params).await {
        Ok(a) => a,
        Err(err) => {
            tracing::info!("the MCP host cannot ask its user ({err}); an approver may answer");
            return false;
        }
    };
    let grant = said_yes(&answer);
    tracing::info!(approval_id, grant, "the MCP host's user answered an approval");
    daemon.approvals.answer(approval_id, grant).is_ok() && grant
}

/// From 2026-07-28: the input request asking the user about `e`'s call.
pub fn ask(
    daemon: &Daemon,
    e: &ErrorData,
    approval_id: &str,
    op_id: &str,
) -> Option<InputRequiredResult> {
    let params = serde_json::from_value(question(daemon, e, approval_id))
        .map_err(|err| tracing::warn!("cannot build the elicitation: {err}"))
        .ok()?;
    let request = InputRequest::Elicitation(ElicitRequest::new(params));
    let requests = [(KEY.to_owned(), request)].into();
    Some(InputRequiredResult::new(Some(requests), Some(format!("{approval_id} {op_id}"))))
}

/// A retry's answer, applied: the approval granted or denied, and the op id the call runs
/// under. `None` when the request carries no answer.
pub fn apply(
    daemon: &Daemon,
    session: &Session,
    request: &CallToolRequestParams,
) -> Option<Result<String, DaemonError>> {
    let state = request.request_state.as_deref()?;
    let responses = request.input_responses.as_ref()?;
    let refuse = |why: &str| {
        let v = glovebox_protocol::contract::Violation::new("requestState", why.to_owned());
        Err(DaemonError::Contract(v))
    };
    let Some((approval_id, op_id)) = state.split_once(' ') else {
        return Some(refuse("the request state is not one this daemon sent"));
    };
    let Some(approval) = daemon.approvals.get(approval_id) else {
        return Some(refuse("no such approval (it may have expired)"));
    };
    let ours = approval.session == session.id
        && approval.op_id == op_id
        && approval.state == State::Pending
        && daemon.config.policy.approve_of(&approval.rule) == Approve::Elicitation;
    if !ours {
        return Some(refuse("the approval is not this session's pending elicitation"));
    }
    let answer = responses.get(KEY).and_then(|a| ElicitResult::deserialize(a).ok());
    let grant = answer.is_some_and(|a| said_yes(&a));
    tracing::info!(approval_id, grant, "the MCP host's user answered an approval");
    Some(daemon.approvals.answer(approval_id, grant).map(|_| op_id.to_owned()))
}
