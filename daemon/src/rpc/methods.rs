//! The JSON-RPC method table: every method name -> the code that answers it. Tool actions all
//! go through `dispatch::call`; the rest are small and answered here, an operator's or an
//! approver's in `admin.rs`.

use std::sync::Arc;

use glovebox_protocol::contract::{self, docs, schema, validate_direct, validate_tool_call, TOOLS};
use glovebox_protocol::methods::{EVENT_NOTIFICATION, METHODS};
use glovebox_protocol::wire::{HelloParams, HelloResult, PeerInfo, ToolCallParams, ToolInfo};
use glovebox_protocol::PROTOCOL_VERSION;
use jsonrpsee::types::{ErrorObjectOwned, Params};
use jsonrpsee::{Extensions, RpcModule};
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

use super::admin::{answer, approval_list, files_put, secrets_delete, secrets_put};
use super::errors::to_rpc_error;
use crate::dispatch::{self, Caller, OpOptions};
use crate::error::DaemonError;
use crate::events::{next_event, TOPICS};
use crate::live::Conn;
use crate::session::Session;
use crate::state::Daemon;

pub(super) type RpcResult = Result<Value, ErrorObjectOwned>;

/// How long a hello waits for the connection that drives its session to go (see
/// [`crate::session::Sessions::attach_waiting`]).
const RESUME_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

// By value so it reads as `.map_err(err)` and `err(DaemonError::..)` at every call site.
#[allow(clippy::needless_pass_by_value)]
pub(super) fn err(e: DaemonError) -> ErrorObjectOwned {
    to_rpc_error(&e.to_data())
}

pub(super) fn conn_of(ext: &Extensions) -> Result<Arc<Conn>, ErrorObjectOwned> {
    ext.get::<Arc<Conn>>().cloned().ok_or_else(|| err(DaemonError::HandshakeRequired))
}

fn session_of(conn: &Conn) -> Result<Arc<Session>, ErrorObjectOwned> {
    conn.session().cloned().ok_or_else(|| err(DaemonError::HandshakeRequired))
}

/// The params as JSON (`{}` when absent), or what is wrong with their text: jsonrpsee only
/// checked the syntax, so a number out of range or a lone surrogate shows up here.
fn params_json(params: &Params<'_>) -> Result<Value, String> {
    let Some(text) = params.as_str() else { return Ok(Value::Object(Map::new())) };
    serde_json::from_str(text).map_err(|e| {
        let said = e.to_string();
        if said.contains("number out of range") {
            format!("number out of range ({said}); numbers must fit a 64-bit float")
        } else if said.contains("surrogate") || said.contains("escape") || said.contains("unicode")
        {
            format!("invalid unicode / lone surrogate in a string ({said}); pair every \\ud800-\\udbff with a \\udc00-\\udfff")
        } else {
            format!("params are not JSON: {said}")
        }
    })
}

pub(super) fn parse<T: DeserializeOwned>(
    method: &str,
    params: &Params<'_>,
) -> Result<T, ErrorObjectOwned> {
    let value = params_json(params)
        .map_err(|reason| err(DaemonError::InvalidParams { method: method.into(), reason }))?;
    serde_json::from_value(value).map_err(|e| {
        err(DaemonError::InvalidParams { method: method.into(), reason: e.to_string() })
    })
}

/// Build the module with every method of the protocol.
pub fn module(
    daemon: Arc<Daemon>,
) -> Result<RpcModule<Arc<Daemon>>, jsonrpsee::core::RegisterMethodError> {
    let mut m = RpcModule::new(daemon);
    m.register_async_method("session.hello", |p, d, ext| async move { hello(&d, &p, &ext).await })?;
    m.register_async_method("session.status", |_, d, ext| async move { status(&d, &ext) })?;
    m.register_async_method("session.pause", |_, d, ext| async move { pause(&d, &ext, true) })?;
    m.register_async_method("session.resume", |_, d, ext| async move { pause(&d, &ext, false) })?;
    m.register_async_method("session.close", |_, d, ext| async move { close(&d, &ext) })?;
    m.register_async_method("session.request_human", |p, d, ext| async move {
        request_human(&d, &p, &ext)
    })?;
    m.register_async_method("view.link", |_, d, ext| async move { view_link(&d, &ext) })?;
    m.register_async_method("tools.list", |p, _, _| async move { tools_list(&p) })?;
    m.register_async_method(
        "tools.call",
        |p, d, ext| async move { tools_call(&d, &p, &ext).await },
    )?;
    m.register_async_method("op.status", |p, d, ext| async move { op_status(&d, &p, &ext) })?;
    m.register_async_method("op.cancel", |p, d, ext| async move { op_cancel(&d, &p, &ext) })?;
    m.register_async_method("capture.get", |p, d, ext| async move { capture_get(&d, &p, &ext) })?;
    m.register_async_method("approval.list", |_, d, ext| async move { approval_list(&d, &ext) })?;
    m.register_async_method("approval.grant", |p, d, _| async move { answer(&d, &p, true) })?;
    m.register_async_method("approval.deny", |p, d, _| async move { answer(&d, &p, false) })?;
    m.register_async_method("files.put", |p, d, _| async move { files_put(&d, &p) })?;
    m.register_async_method("secrets.put", |p, d, _| async move { secrets_put(&d, &p) })?;
    m.register_async_method("secrets.delete", |p, d, _| async move { secrets_delete(&d, &p) })?;
    m.register_async_method("rpc.discover", |_, _, _| async move {
        Ok::<_, ErrorObjectOwned>(docs::openrpc(env!("CARGO_PKG_VERSION")))
    })?;
    m.register_subscription(
        "events.subscribe",
        EVENT_NOTIFICATION,
        "events.unsubscribe",
        |p, pending, d, ext| async move {
            let viewer = ext.get::<Arc<Conn>>().map(|c| crate::events::Viewer {
                owner: c.owner,
                approver: c.role.can_approve(),
                all_lanes: false,
            });
            match viewer {
                Some(viewer) => subscribe((*d).clone(), p, pending, viewer).await,
                None => pending.reject(err(DaemonError::HandshakeRequired)).await,
            }
        },
    )?;
    for tool in TOOLS {
        for action in tool.actions {
            // Registered once at start: the leak is bounded by the contract table.
            let name: &'static str = Box::leak(tool.method(action).into_boxed_str());
            m.register_async_method(name, move |p, d, ext| async move {
                direct(&d, tool, action, &p, &ext).await
            })?;
        }
    }
    debug_assert!(METHODS.iter().all(|x| m.method(x.name).is_some()));
    Ok(m)
}

async fn hello(d: &Arc<Daemon>, p: &Params<'_>, ext: &Extensions) -> RpcResult {
    let conn = conn_of(ext)?;
    let params: HelloParams = parse("session.hello", p)?;
    if params.protocol != PROTOCOL_VERSION {
        return Err(err(DaemonError::ProtocolMismatch {
            client: params.protocol,
            daemon: PROTOCOL_VERSION,
        }));
    }
    if conn.session().is_some() {
        return Err(err(DaemonError::AlreadyHello));
    }
    if let Some(name) = &params.session {
        crate::session::check_name("session", name).map_err(|v| err(DaemonError::Contract(v)))?;
    }
    if let Some(name) = &params.profile {
        crate::auth::check_profile(name).map_err(|v| err(DaemonError::Contract(v)))?;
    }
    let own_context = match params.browser_context.as_deref() {
        None | Some("shared") => false,
        Some("own") => true,
        Some(other) => {
            let msg = format!("browser_context is shared or own, not {other:?}");
            let v = glovebox_protocol::contract::Violation::new("browser_context", msg);
            return Err(err(DaemonError::Contract(v)));
        }
    };
    let actor = conn.role.can_act();
    let (session, resumed) = d
        .sessions
        .attach_waiting(params.session.as_deref(), conn.id, conn.owner, actor, RESUME_GRACE)
        .await
        .map_err(err)?;
    if !conn.bind(session.clone()) {
        session.detach(conn.id);
        return Err(err(DaemonError::AlreadyHello));
    }
    if !resumed {
        if own_context {
            session.use_own_context();
        }
        if let Some(name) = &params.profile {
            session.use_profile(name);
        }
    }
    let client = params.client.unwrap_or_default();
    tracing::info!(session = ?session.id, resumed, role = conn.role.as_str(), client = ?client.name, "hello");
    d.events.publish_for(
        session.creator,
        "session",
        "attached",
        json!({"session": session.id, "resumed": resumed}),
    );
    let result = HelloResult {
        protocol: PROTOCOL_VERSION,
        daemon: PeerInfo { name: "gloveboxd".into(), version: env!("CARGO_PKG_VERSION").into() },
        session_id: session.id.clone(),
        resumed,
        role: conn.role.as_str().into(),
        contract_version: docs::contract_version(),
        capabilities: capabilities(d),
        features: [
            "ops",
            "idempotent-op-ids",
            "op-cancel",
            "events",
            "tools-call-mcp",
            "openrpc",
            "batch",
        ]
        .map(String::from)
        .to_vec(),
        backends: d.backends(),
    };
    serde_json::to_value(result).map_err(|e| err(DaemonError::ActionFailed(e.to_string())))
}

fn capabilities(d: &Daemon) -> Value {
    let tools: Map<String, Value> = TOOLS
        .iter()
        .map(|t| (t.name.to_owned(), json!({"implemented": dispatch::implemented(t.name)})))
        .collect();
    json!({
        "identity": {"browser": "chrome-<port>", "tab": "tab_id", "app": "app:<pid>",
                     "window": "window_id", "element": "ref eN from a snapshot"},
        "ops": {"default_timeout_ms": glovebox_protocol::wire::DEFAULT_TIMEOUT_MS,
                "max_timeout_ms": glovebox_protocol::wire::MAX_TIMEOUT_MS,
                "idempotency_window_s": crate::ops::RETENTION.as_secs(),
                "max_in_flight": d.config.max_in_flight},
        "limits": {"max_message_bytes": d.config.max_message_bytes,
                   "max_response_bytes": d.config.max_response_bytes,
                   "max_batch": d.config.max_batch,
                   "max_ops_per_sec": d.config.max_ops_per_sec},
        "events": {"topics": TOPICS},
        "tools": tools,
    })
}

fn status(d: &Arc<Daemon>, ext: &Extensions) -> RpcResult {
    let conn = conn_of(ext)?;
    let s = session_of(&conn)?;
    Ok(json!({
        "session_id": s.id,
        "role": conn.role.as_str(),
        "paused": s.is_paused(),
        "human_in_control": d.view.human_in_control(&s.creator),
        "human_requests": d.view.pending_of(&s.id),
        "selection": s.selection(),
        "in_flight": conn.in_flight.load(std::sync::atomic::Ordering::SeqCst),
        "uptime_ms": d.started.elapsed().as_millis() as u64,
        "backends": d.backends(),
    }))
}

fn pause(d: &Arc<Daemon>, ext: &Extensions, paused: bool) -> RpcResult {
    let conn = conn_of(ext)?;
    let s = session_of(&conn)?;
    s.set_paused(paused);
    let kind = if paused { "paused" } else { "resumed" };
    d.events.publish_for(s.creator, "session", kind, json!({"session": s.id}));
    Ok(json!({"session_id": s.id, "paused": paused}))
}

fn close(d: &Arc<Daemon>, ext: &Extensions) -> RpcResult {
    let conn = conn_of(ext)?;
    let s = session_of(&conn)?;
    if conn.role.can_act() {
        d.ops.cancel_session(&s.id);
        d.sessions.remove(&s.id);
        d.code.session_closed(d, &s.id);
        d.events.publish_for(s.creator, "session", "closed", json!({"session": s.id}));
    }
    Ok(json!({"session_id": s.id, "closed": conn.role.can_act()}))
}

/// `session.request_human`: shows the request on the view page and answers at once.
fn request_human(d: &Arc<Daemon>, p: &Params<'_>, ext: &Extensions) -> RpcResult {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Ask {
        reason: String,
        tab_id: Option<String>,
        window_id: Option<String>,
    }
    let conn = conn_of(ext)?;
    let s = session_of(&conn)?;
    let a: Ask = parse("session.request_human", p)?;
    let req = crate::view::request_human(d, &s, &a.reason, a.tab_id, a.window_id).map_err(err)?;
    Ok(json!({"request_id": req.request_id, "state": req.state,
              "view_pages_open": d.view.open.load(std::sync::atomic::Ordering::SeqCst)}))
}

/// `view.link`: a fresh single-use code of the view page for this connection's own token.
fn view_link(d: &Arc<Daemon>, ext: &Extensions) -> RpcResult {
    let conn = conn_of(ext)?;
    if !d.live.holds(conn.id) {
        return Err(err(DaemonError::Revoked));
    }
    let code =
        d.view.access.mint(&conn.owner.digest()).ok_or_else(|| {
            err(DaemonError::ActionFailed("no randomness for a view code".into()))
        })?;
    Ok(json!({"path": format!("/view?code={code}"), "role": conn.role.as_str(),
              "expires_in_s": crate::view::access::CODE_TTL.as_secs()}))
}

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ToolsList {
    #[serde(default)]
    per_action: bool,
}

/// `tools.list`: the same for the daemon's life, so built once (the schemas cost ms, and the
/// call is not an op: no rate limit keeps a client from repeating it). With `per_action`, each
/// tool also lists its actions with their own input and output schemas.
fn tools_list(p: &Params<'_>) -> RpcResult {
    static LIST: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    static PER_ACTION: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let per_action = p.as_str().is_some() && parse::<ToolsList>("tools.list", p)?.per_action;
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
        json!({"tools": tools})
    };
    let list = if per_action { &PER_ACTION } else { &LIST };
    Ok(list.get_or_init(|| build(per_action)).clone())
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
async fn tools_call(d: &Arc<Daemon>, p: &Params<'_>, ext: &Extensions) -> RpcResult {
    let conn = conn_of(ext)?;
    let session = session_of(&conn)?;
    let params: ToolCallParams = parse("tools.call", p)?;
    let Some(tool) = contract::tool(&params.name) else {
        let v = contract::Violation::new(
            "name",
            format!(
                "unknown tool {:?}; tools.list names context, browser and computer",
                params.name
            ),
        );
        return Err(err(DaemonError::Contract(v)));
    };
    // Op keys may come beside `arguments` or inside them (as an MCP host sends them); the
    // outer ones win.
    let mut arguments = params.arguments;
    let inner =
        dispatch::split_op_keys(&mut arguments).map_err(|v| err(DaemonError::Contract(v)))?;
    let options = OpOptions {
        op_id: params.op_id.or(inner.op_id),
        timeout_ms: params.timeout_ms.or(inner.timeout_ms),
        // A model reads this result: an image only when the text misses what changed.
        capture: params.capture.or(inner.capture).or(Some(glovebox_protocol::wire::Capture::Auto)),
        follow: params.follow.or(inner.follow),
        session: inner.session,
    };
    let checked = validate_tool_call(tool, &arguments).map_err(DaemonError::from);
    let outcome = dispatch::call(d, caller(&conn, &session, ext), checked, options).await;
    let shaped = dispatch::shape::mcp(outcome);
    serde_json::to_value(shaped).map_err(|e| err(DaemonError::ActionFailed(e.to_string())))
}

async fn direct(
    d: &Arc<Daemon>,
    tool: &'static contract::Tool,
    action: &'static contract::Action,
    p: &Params<'_>,
    ext: &Extensions,
) -> RpcResult {
    let conn = conn_of(ext)?;
    let session = session_of(&conn)?;
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

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct OpRef {
    op_id: String,
}

fn op_status(d: &Arc<Daemon>, p: &Params<'_>, ext: &Extensions) -> RpcResult {
    let conn = conn_of(ext)?;
    let s = session_of(&conn)?;
    let r: OpRef = parse("op.status", p)?;
    let entry = d
        .ops
        .get(&s.id, &r.op_id)
        .ok_or_else(|| err(DaemonError::TargetNotFound { kind: "op", id: r.op_id.clone() }))?;
    serde_json::to_value(entry.status()).map_err(|e| err(DaemonError::ActionFailed(e.to_string())))
}

fn op_cancel(d: &Arc<Daemon>, p: &Params<'_>, ext: &Extensions) -> RpcResult {
    let conn = conn_of(ext)?;
    let s = session_of(&conn)?;
    let r: OpRef = parse("op.cancel", p)?;
    let entry = d
        .ops
        .get(&s.id, &r.op_id)
        .ok_or_else(|| err(DaemonError::TargetNotFound { kind: "op", id: r.op_id.clone() }))?;
    let was_running = entry.status().state == glovebox_protocol::wire::OpState::Running;
    entry.cancel();
    Ok(json!({"op_id": r.op_id, "cancelled": was_running}))
}

fn capture_get(d: &Arc<Daemon>, p: &Params<'_>, ext: &Extensions) -> RpcResult {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct CaptureRef {
        capture_id: String,
    }
    let conn = conn_of(ext)?;
    let s = session_of(&conn)?;
    let r: CaptureRef = parse("capture.get", p)?;
    d.captures.get(&s.id, &r.capture_id).ok_or_else(|| {
        err(DaemonError::TargetNotFound { kind: "capture", id: r.capture_id.clone() })
    })
}

#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SubscribeParams {
    #[serde(default)]
    topics: Option<Vec<String>>,
}

async fn subscribe(
    d: Arc<Daemon>,
    p: Params<'static>,
    pending: jsonrpsee::PendingSubscriptionSink,
    viewer: crate::events::Viewer,
) {
    let params: SubscribeParams = match parse("events.subscribe", &p) {
        Ok(v) => v,
        Err(e) => return pending.reject(e).await,
    };
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
