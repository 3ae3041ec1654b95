//! The methods that run or follow ops: `tools.list`, `tools.call`, the direct
//! `<tool>.<action>` methods, `op.*`, `capture.get`, and the `events.subscribe` stream.

use std::sync::Arc;

use glovebox_protocol::contract::{self, schema, validate_direct, validate_tool_call, TOOLS};
use glovebox_protocol::methods::capture::CaptureRef;
use glovebox_protocol::methods::events::SubscribeParams;
use glovebox_protocol::methods::op::{Cancelled, OpRef};
use glovebox_protocol::methods::tools::{ListParams, ToolList};
use glovebox_protocol::wire::Captured;
use glovebox_protocol::wire::{OpStatus, ToolCallParams, ToolInfo};
use jsonrpsee::types::{ErrorObjectOwned, Params};
use jsonrpsee::Extensions;
use serde_json::Value;

use super::errors::to_rpc_error;
use super::methods::{conn_of, err, params_json, Cx};
use crate::dispatch::{self, Caller, OpOptions};
use crate::error::DaemonError;
use crate::events::{next_event, TOPICS};
use crate::live::Conn;
use crate::session::Session;
use crate::state::Daemon;

/// `tools.list`: the same for the daemon's life, so built once (the schemas cost ms, and the
/// call is not an op: no rate limit keeps a client from repeating it). With `per_action`, each
/// tool also lists its actions with their own input and output schemas.
pub(super) async fn tools_list(_: Cx, p: ListParams) -> Result<ToolList, DaemonError> {
    static LIST: std::sync::OnceLock<ToolList> = std::sync::OnceLock::new();
    static PER_ACTION: std::sync::OnceLock<ToolList> = std::sync::OnceLock::new();
    let build = |per_action: bool| {
        let tools: Vec<ToolInfo> = TOOLS
            .iter()
            .filter(|t| t.listed)
            .map(|t| ToolInfo {
                name: t.name.into(),
                description: schema::tool_description(t),
                input_schema: schema::tool_schema(t),
                output_schema: Some(schema::tool_output_schema(t)),
                actions: per_action.then(|| schema::action_infos(t)),
            })
            .collect();
        ToolList { tools }
    };
    let list = if p.per_action { &PER_ACTION } else { &LIST };
    Ok(list.get_or_init(|| build(p.per_action)).clone())
}

fn caller<'a>(conn: &'a Conn, session: &'a Arc<Session>, ext: &Extensions) -> Caller<'a> {
    let admitted = ext.get::<dispatch::Admitted>().is_some();
    Caller {
        role: conn.role,
        session,
        in_flight: &conn.in_flight,
        token_rate: None,
        admitted,
        channel: crate::error::Channel::Rpc,
        wait_for_hand_back: false,
    }
}

/// `tools.call`: the outcome as MCP content; an action's failure is `isError: true` with the
/// error data in `structuredContent.error`, so the model sees it.
pub(super) async fn tools_call(cx: Cx, params: ToolCallParams) -> Result<Value, DaemonError> {
    let (conn, session) = cx.session()?;
    let Some(tool) = contract::tool(&params.name) else {
        let v = contract::Violation::new(
            "name",
            format!(
                "unknown tool {:?}; tools.list names context, browser and computer",
                params.name
            ),
        );
        return Err(DaemonError::Contract(v));
    };
    // Op keys may come beside `arguments` or inside them (as an MCP host sends them); the
    // outer ones win.
    let mut arguments = params.arguments;
    let inner = dispatch::split_op_keys(&mut arguments).map_err(DaemonError::Contract)?;
    let options = OpOptions {
        op_id: params.op_id.or(inner.op_id),
        timeout_ms: params.timeout_ms.or(inner.timeout_ms),
        // A model reads this result: an image only when the text misses what changed.
        capture: params.capture.or(inner.capture).or(Some(glovebox_protocol::wire::Capture::Auto)),
        follow: params.follow.or(inner.follow),
        session: inner.session,
    };
    let checked = validate_tool_call(tool, &arguments).map_err(DaemonError::from);
    let outcome = dispatch::call(&cx.d, caller(&conn, &session, &cx.ext), checked, options).await;
    let shaped = dispatch::shape::mcp(outcome);
    serde_json::to_value(shaped).map_err(|e| DaemonError::ActionFailed(e.to_string()))
}

/// A direct `<tool>.<action>` method: the op's outcome, or its error as the pipeline wrote it.
pub(super) async fn direct(
    d: &Arc<Daemon>,
    tool: &'static contract::Tool,
    action: &'static contract::Action,
    p: &Params<'_>,
    ext: &Extensions,
) -> Result<Value, ErrorObjectOwned> {
    let conn = conn_of(ext).map_err(err)?;
    let session = conn.session().cloned().ok_or(DaemonError::HandshakeRequired).map_err(err)?;
    let mut args = params_json(p).map_err(|reason| {
        err(DaemonError::Contract(contract::Violation::new("params", format!("params: {reason}"))))
    })?;
    let options = dispatch::split_op_keys(&mut args).map_err(|v| err(DaemonError::Contract(v)))?;
    let checked = validate_direct(tool, action, &args).map_err(DaemonError::from);
    let outcome = dispatch::call(d, caller(&conn, &session, ext), checked, options).await;
    match outcome {
        Ok(o) => serde_json::to_value(o).map_err(|e| err(DaemonError::ActionFailed(e.to_string()))),
        Err(e) => Err(to_rpc_error(&e)),
    }
}

pub(super) async fn op_status(cx: Cx, r: OpRef) -> Result<OpStatus, DaemonError> {
    let (_, s) = cx.session()?;
    let entry =
        cx.d.ops
            .get(&s.id, &r.op_id)
            .ok_or(DaemonError::TargetNotFound { kind: "op", id: r.op_id })?;
    Ok(entry.status())
}

pub(super) async fn op_cancel(cx: Cx, r: OpRef) -> Result<Cancelled, DaemonError> {
    let (_, s) = cx.session()?;
    let entry =
        cx.d.ops
            .get(&s.id, &r.op_id)
            .ok_or_else(|| DaemonError::TargetNotFound { kind: "op", id: r.op_id.clone() })?;
    let was_running = entry.status().state == glovebox_protocol::wire::OpState::Running;
    entry.cancel();
    Ok(Cancelled { op_id: r.op_id, cancelled: was_running })
}

pub(super) async fn capture_get(cx: Cx, r: CaptureRef) -> Result<Captured, DaemonError> {
    let (_, s) = cx.session()?;
    cx.d.captures
        .get(&s.id, &r.capture_id)
        .ok_or(DaemonError::TargetNotFound { kind: "capture", id: r.capture_id })
}

/// `events.subscribe`: the caller's events of `params.topics` until the subscription or the
/// connection ends.
pub(super) async fn subscribe(
    d: Arc<Daemon>,
    params: SubscribeParams,
    pending: jsonrpsee::PendingSubscriptionSink,
    viewer: crate::events::Viewer,
) {
    let topics: Vec<String> = params.topics.unwrap_or_else(|| TOPICS.map(String::from).to_vec());
    if let Some(bad) = topics.iter().find(|t| !TOPICS.contains(&t.as_str())) {
        let v = contract::Violation::new(
            "topics",
            format!("unknown topic {bad:?}; use {}", TOPICS.join(", ")),
        );
        return pending.reject(err(DaemonError::Contract(v))).await;
    }
    let mut rx = d.events.subscribe();
    let Ok(sink) = pending.accept().await else { return };
    loop {
        tokio::select! {
            _ = sink.closed() => return,
            ev = next_event(&mut rx, &topics, &viewer) => {
                let Some(ev) = ev else { return };
                let Ok(msg) = serde_json::value::to_raw_value(&ev) else { continue };
                if sink.send(msg).await.is_err() {
                    return;
                }
            }
        }
    }
}
