//! `session.*` and `view.link`: the handshake, the session's state, pausing, closing, and
//! bringing in a person.

use std::sync::atomic::Ordering;

use glovebox_protocol::contract::{docs, TOOLS};
use glovebox_protocol::methods::session::{
    Closed, HumanRequested, Paused, RequestHumanParams, StatusResult,
};
use glovebox_protocol::methods::view::ViewLink;
use glovebox_protocol::methods::NoParams;
use glovebox_protocol::wire::{HelloParams, HelloResult, PeerInfo};
use glovebox_protocol::PROTOCOL_VERSION;
use serde_json::{json, Map, Value};

use super::methods::Cx;
use crate::dispatch;
use crate::error::DaemonError;
use crate::events::TOPICS;
use crate::state::Daemon;

/// How long a hello waits for the connection that drives its session to go (see
/// [`crate::session::Sessions::attach_waiting`]).
const RESUME_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

pub(super) async fn hello(cx: Cx, params: HelloParams) -> Result<HelloResult, DaemonError> {
    let (d, conn) = (&cx.d, cx.conn()?);
    if params.protocol != PROTOCOL_VERSION {
        return Err(DaemonError::ProtocolMismatch {
            client: params.protocol,
            daemon: PROTOCOL_VERSION,
        });
    }
    if conn.session().is_some() {
        return Err(DaemonError::AlreadyHello);
    }
    if let Some(name) = &params.session {
        crate::session::check_name("session", name).map_err(DaemonError::Contract)?;
    }
    if let Some(name) = &params.profile {
        crate::auth::check_profile(name).map_err(DaemonError::Contract)?;
    }
    let own_context = match params.browser_context.as_deref() {
        None | Some("shared") => false,
        Some("own") => true,
        Some(other) => {
            let msg = format!("browser_context is shared or own, not {other:?}");
            let v = glovebox_protocol::contract::Violation::new("browser_context", msg);
            return Err(DaemonError::Contract(v));
        }
    };
    let actor = conn.role.can_act();
    let (session, resumed) = d
        .sessions
        .attach_waiting(params.session.as_deref(), conn.id, conn.owner, actor, RESUME_GRACE)
        .await?;
    if !conn.bind(session.clone()) {
        session.detach(conn.id);
        return Err(DaemonError::AlreadyHello);
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
    Ok(HelloResult {
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
    })
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

pub(super) async fn status(cx: Cx, _: NoParams) -> Result<StatusResult, DaemonError> {
    let (d, (conn, s)) = (&cx.d, cx.session()?);
    Ok(StatusResult {
        session_id: s.id.clone(),
        role: conn.role.as_str().into(),
        paused: s.is_paused(),
        human_in_control: d.people.human_in_control(&s.creator),
        human_requests: d.people.pending_of(&s.id),
        selection: serde_json::to_value(s.selection())
            .map_err(|e| DaemonError::ActionFailed(e.to_string()))?,
        in_flight: conn.in_flight.load(Ordering::SeqCst),
        uptime_ms: d.started.elapsed().as_millis() as u64,
        backends: d.backends(),
    })
}

pub(super) async fn pause(cx: Cx, paused: bool) -> Result<Paused, DaemonError> {
    let (_, s) = cx.session()?;
    s.set_paused(paused);
    let kind = if paused { "paused" } else { "resumed" };
    cx.d.events.publish_for(s.creator, "session", kind, json!({"session": s.id}));
    Ok(Paused { session_id: s.id.clone(), paused })
}

pub(super) async fn close(cx: Cx, _: NoParams) -> Result<Closed, DaemonError> {
    let (d, (conn, s)) = (&cx.d, cx.session()?);
    if conn.role.can_act() {
        d.ops.cancel_session(&s.id);
        d.sessions.remove(&s.id);
        d.code.session_closed(d, &s.id);
        d.events.publish_for(s.creator, "session", "closed", json!({"session": s.id}));
    }
    Ok(Closed { session_id: s.id.clone(), closed: conn.role.can_act() })
}

/// `session.request_human`: shows the request on the view page and answers at once.
pub(super) async fn request_human(
    cx: Cx,
    a: RequestHumanParams,
) -> Result<HumanRequested, DaemonError> {
    let (d, (_, s)) = (&cx.d, cx.session()?);
    let req = d.people.request_human(&d.events, &s, &a.reason, a.tab_id, a.window_id)?;
    Ok(HumanRequested {
        request_id: req.request_id,
        state: req.state.into(),
        view_pages_open: d.people.open.load(Ordering::SeqCst),
    })
}

/// `view.link`: a fresh single-use code of the view page for this connection's own token.
pub(super) async fn view_link(cx: Cx, _: NoParams) -> Result<ViewLink, DaemonError> {
    let (d, conn) = (&cx.d, cx.conn()?);
    if !d.live.holds(conn.id) {
        return Err(DaemonError::Revoked);
    }
    let code = d
        .people
        .access
        .mint(&conn.owner.digest())
        .ok_or_else(|| DaemonError::ActionFailed("no randomness for a view code".into()))?;
    Ok(ViewLink {
        path: format!("/view?code={code}"),
        role: conn.role.as_str().into(),
        expires_in_s: crate::people::access::CODE_TTL.as_secs(),
    })
}
