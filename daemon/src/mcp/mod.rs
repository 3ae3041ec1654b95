//! Glovebox as an MCP server: the same three tools with the same input schemas as
//! `tools.list`, every call through the same op pipeline (validation before side effects,
//! approval policy, deadlines, idempotency, settle and capture). Two transports serve it:
//! Streamable HTTP at `/mcp` beside `/rpc` (mounted in `front/mod.rs`, which checks the bearer
//! token and `Origin` before rmcp sees a request) and stdio (`stdio.rs`, `gloveboxd mcp`).
//! `bridge.rs` serves stdio for a daemon elsewhere, over its WebSocket.
//!
//! Sessions: over HTTP, a client that holds an `Mcp-Session-Id` gets one Glovebox session for
//! it, and one without (the stateless revision) its token's default session; the stdio
//! client has one session of its own. Either way refs and selections persist across calls.

pub mod bridge;
mod elicit;
pub(crate) mod resources;
pub mod stdio;
pub mod streamable;

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use glovebox_protocol::contract::{self, validate_tool_call};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{json, Value};

use crate::auth::Role;
use crate::dispatch::shape::Shaped;
use crate::dispatch::{self, Caller};
use crate::error::DaemonError;
use crate::session::{Owner, Session};
use crate::state::Daemon;

/// Errors here read as an MCP host reads them.
const MCP: crate::error::Channel = crate::error::Channel::Mcp;

/// How often a running call reports progress to a host that asked for it.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Who the calls of one handler come from.
#[derive(Clone)]
enum Who {
    /// Streamable HTTP: each request's bearer token (checked before rmcp saw it).
    Http,
    /// The stdio client of an in-process daemon: one role and one session name.
    Local { role: Role, owner: Owner, session: String },
}

/// One MCP session's handler (rmcp makes one per `Mcp-Session-Id`, or per request when the
/// client holds none).
#[derive(Clone)]
pub struct Handler {
    daemon: Arc<Daemon>,
    /// The stdio client's calls in flight and rate (over HTTP, each token has its lane).
    lane: Arc<crate::live::Lane>,
    who: Who,
}

impl Handler {
    /// The handler of Streamable HTTP requests.
    pub fn new(daemon: Arc<Daemon>) -> Handler {
        Handler { daemon, lane: Arc::default(), who: Who::Http }
    }

    /// The handler of the one stdio client of an in-process daemon: it acts as `role`, in a
    /// session of its own that no token owns.
    pub fn local(daemon: Arc<Daemon>, role: Role) -> Result<Handler, DaemonError> {
        let secret = crate::session::mint_id()?;
        let owner = Owner::of_token(&secret, false);
        let session = format!("mcp-stdio-{}", owner.short());
        Ok(Handler { daemon, lane: Arc::default(), who: Who::Local { role, owner, session } })
    }

    /// The caller's role, session and lane: the local client's, or from the HTTP request
    /// rmcp hands over. Over HTTP, `named` is the `session` argument of a stateless client: a
    /// handle an earlier result gave, or `new` for a session of its own; whichever it names,
    /// its calls share its token's lane.
    fn caller(
        &self,
        ctx: &RequestContext<RoleServer>,
        named: Option<&str>,
    ) -> Result<(Role, Arc<Session>, Arc<crate::live::Lane>), DaemonError> {
        if let Who::Local { role, owner, session } = &self.who {
            let (session, _) = self.daemon.sessions.attach(Some(session), 0, *owner, false)?;
            return Ok((*role, session, self.lane.clone()));
        }
        let parts = ctx.extensions.get::<http::request::Parts>();
        let headers = parts.map(|p| &p.headers);
        // `?token=` too: a proxy in front (agent-sandbox's router) may drop `Authorization`.
        let query = parts.and_then(|p| p.uri.query());
        let token = headers.and_then(|h| crate::auth::presented_token(h, query));
        // `http/mod.rs` answered 401 already when there is no valid token.
        let Some((token, role)) = token.and_then(|t| self.daemon.role_of(&t).map(|r| (t, r)))
        else {
            return Err(DaemonError::HandshakeRequired);
        };
        let owner = self.daemon.owner_of(crate::auth::digest(&token), role);
        // The session's name tells its MCP session by a hash: the id itself is a bearer of
        // that session, and the name shows in approvals and on the view page.
        let mcp_session = headers
            .and_then(|h| h.get("mcp-session-id"))
            .and_then(|v| v.to_str().ok())
            .filter(|s| !s.is_empty())
            .map(|s| crate::session::Owner::of_token(s, false).short());
        // Names are the token's own (`Sessions::id_for`): another token's handle names a
        // session of this token's, never that one.
        let name = match named {
            Some("new") => format!("mcp-{}", crate::session::mint_id()?),
            Some(handle) => handle.to_owned(),
            None => format!("mcp-{}", mcp_session.as_deref().unwrap_or("default")),
        };
        // MCP calls do not drive a session the way a WebSocket does: no connection holds it.
        let (session, _) = self.daemon.sessions.attach(Some(&name), 0, owner, false)?;
        Ok((role, session, self.daemon.mcp_sessions.lane(&owner.digest())))
    }
}

/// What the server says of itself at `initialize`, on every transport.
fn server_info() -> ServerConfig {
    let capabilities = ServerCapabilities::builder().enable_tools().enable_resources().build();
    let mut info = ServerConfig::new(capabilities);
    info.server_info = Implementation::new("gloveboxd", env!("CARGO_PKG_VERSION"));
    info.instructions = Some(
        "Glovebox: a desktop and a Chromium. Tools: context (discover and select apps, \
         windows, browsers, tabs), browser (Chromium), computer (desktop apps). Take a \
         snapshot, then act by its refs."
            .into(),
    );
    info
}

/// The three tools as `tools.list` gives them, built once (see `rpc::methods::tools_list`).
fn tools() -> Vec<Tool> {
    static TOOLS: std::sync::OnceLock<Vec<Tool>> = std::sync::OnceLock::new();
    TOOLS.get_or_init(build_tools).clone()
}

fn build_tools() -> Vec<Tool> {
    contract::TOOLS
        .iter()
        .filter(|t| t.listed)
        .filter_map(|t| {
            let schema = contract::schema::tool_schema(t);
            let Value::Object(schema) = schema else { return None };
            let mut tool = Tool::default();
            tool.name = t.name.into();
            tool.description = Some(contract::schema::tool_description(t).into());
            tool.input_schema = Arc::new(schema);
            if let Value::Object(out) = contract::schema::tool_output_schema(t) {
                tool.output_schema = Some(Arc::new(out));
            }
            Some(tool)
        })
        .collect()
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        server_info()
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let (_, session, _) =
            self.caller(&ctx, None).map_err(|e| McpError::invalid_request(e.to_string(), None))?;
        Ok(resources::list(&self.daemon, &session))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let (_, session, _) =
            self.caller(&ctx, None).map_err(|e| McpError::invalid_request(e.to_string(), None))?;
        resources::read(&self.daemon, &session, &request.uri).map(Into::into)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(tool) = contract::tool(&request.name).filter(|t| t.listed) else {
            return Err(McpError::invalid_params(
                format!(
                    "unknown tool {:?}; the tools are context, browser and computer",
                    request.name
                ),
                None,
            ));
        };
        let mut arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        // An MCP host can pass nothing beside the arguments: the op keys travel in them.
        let mut options = match dispatch::split_op_keys(&mut arguments) {
            Ok(o) => o,
            Err(v) => {
                return Ok(as_result(dispatch::shape::mcp(Err(
                    DaemonError::from(v).to_data_on(MCP)
                ))))
            }
        };
        // A model reads this result: an image only when the text misses what changed.
        options.capture.get_or_insert(glovebox_protocol::wire::Capture::Auto);
        let http = matches!(self.who, Who::Http);
        let named = if http { options.session.take() } else { None };
        let (role, session, lane) = match self.caller(&ctx, named.as_deref()) {
            Ok(c) => c,
            Err(e) => return Ok(as_result(dispatch::shape::mcp(Err(e.to_data_on(MCP))))),
        };
        // Over HTTP every result names its session: a host whose MCP session ended passes it
        // as `session` to go on with the same refs and selection.
        let handle = http.then(|| session.id.clone());
        // A retry that carries the host user's answer to an approval runs under its op id.
        if let Some(answered) = elicit::apply(&self.daemon, &session, &request) {
            match answered {
                Ok(op_id) => options.op_id = Some(op_id),
                Err(e) => return Ok(as_result(dispatch::shape::mcp(Err(e.to_data_on(MCP))))),
            }
        }
        // The op id is known up front so a cancelled request cancels its op.
        let op_id = options.op_id.get_or_insert_with(|| self.daemon.ops.mint_id()).clone();
        let run = Run {
            tool,
            arguments: &arguments,
            role,
            session: &session,
            lane: &lane,
            op_id: &op_id,
        };
        let outcome = self.run(&run, options.clone(), &ctx).await;
        // An approval the policy leaves to the host's user: ask them, in the request's own
        // revision (an input request from 2026-07-28 on, an elicitation request before).
        if let Err(e) = &outcome {
            if let Some((id, op)) = elicit::elicitable(&self.daemon, e) {
                let modern = ctx.protocol_version().is_some_and(|v| v.as_str() >= "2026-07-28");
                if modern {
                    if let Some(ask) = elicit::ask(&self.daemon, e, &id, &op) {
                        return Ok(ask.into());
                    }
                } else if elicit::ask_now(&self.daemon, &ctx, e, &id).await {
                    let again = self.run(&run, options, &ctx).await;
                    return Ok(as_result(in_session(dispatch::shape::mcp(again), handle)));
                }
            }
        }
        Ok(as_result(in_session(dispatch::shape::mcp(outcome), handle)))
    }
}

/// One tool call, validated and ready to run.
struct Run<'a> {
    tool: &'static contract::Tool,
    arguments: &'a Value,
    role: Role,
    session: &'a Arc<Session>,
    lane: &'a crate::live::Lane,
    op_id: &'a str,
}

impl Handler {
    /// Run the call through the op pipeline, reporting progress, until it ends or the host
    /// cancels it.
    async fn run(
        &self,
        r: &Run<'_>,
        options: dispatch::OpOptions,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<glovebox_protocol::wire::OpOutcome, glovebox_protocol::error::ErrorData> {
        let checked = validate_tool_call(r.tool, r.arguments).map_err(DaemonError::from);
        let caller = Caller {
            role: r.role,
            session: r.session,
            in_flight: &r.lane.in_flight,
            token_rate: Some(&r.lane.rate),
            admitted: false,
            channel: crate::error::Channel::Mcp,
            // A host that hears progress can wait out a person's takeover.
            wait_for_hand_back: ctx.meta.get_progress_token().is_some(),
        };
        let call = dispatch::call(&self.daemon, caller, checked, options);
        let progress = report_progress(&self.daemon, r.session, r.op_id, ctx);
        tokio::select! {
            o = call => o,
            never = progress => match never {},
            _ = ctx.ct.cancelled() => {
                // Cancelling the op releases what it held (keys, buttons) as its own failure does.
                if let Some(op) = self.daemon.ops.get(&r.session.id, r.op_id) {
                    op.cancel();
                }
                Err(DaemonError::Cancelled.to_data_on(MCP))
            }
        }
    }
}

/// While a call runs, a `notifications/progress` every second to a host that sent a
/// progress token: the elapsed time and the op's state, or, before it starts, who it waits
/// for. Never returns.
async fn report_progress(
    daemon: &Daemon,
    session: &Session,
    op_id: &str,
    ctx: &RequestContext<RoleServer>,
) -> Infallible {
    progress_every_second(ctx, op_id, || async {
        if let Some(op) = daemon.ops.get(&session.id, op_id) {
            return Some(status_line(&op.status()));
        }
        daemon
            .people
            .human_in_control(&session.creator)
            .map(|by| format!("waiting for {by} to hand the desktop back; the call runs then"))
    })
    .await
}

/// A running op as a progress message.
fn status_line(s: &glovebox_protocol::wire::OpStatus) -> String {
    format!("{}.{} {} for {} ms", s.tool, s.action, s.state, s.elapsed_ms)
}

/// The progress loop of both handlers: `status` says how the call stands where it runs
/// (here, or over the bridge's WebSocket).
async fn progress_every_second<F, Fut>(
    ctx: &RequestContext<RoleServer>,
    op_id: &str,
    status: F,
) -> Infallible
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Option<String>>,
{
    let Some(token) = ctx.meta.get_progress_token() else {
        return std::future::pending().await;
    };
    let start = tokio::time::Instant::now();
    let mut tick = tokio::time::interval_at(start + PROGRESS_EVERY, PROGRESS_EVERY);
    loop {
        tick.tick().await;
        let message = status().await.unwrap_or_else(|| format!("waiting for {op_id}"));
        let elapsed = start.elapsed().as_millis() as f64;
        let note = ProgressNotificationParam::new(token.clone(), elapsed).with_message(message);
        if let Err(e) = ctx.peer.notify_progress(note).await {
            tracing::debug!("cannot report progress: {e}");
        }
    }
}

/// A shaped result over HTTP: its session's handle, in `structuredContent.session` and in
/// the text the model reads, to pass back (a stateless client on every call, a stateful one
/// when its MCP session ended).
fn in_session(mut shaped: Shaped, handle: Option<String>) -> Shaped {
    let Some(handle) = handle else { return shaped };
    if let Some(ContentBlock::Text(t)) = shaped.content.first_mut() {
        t.text = format!(
            "{}\nsession: {handle} (pass it as session to keep its refs, also from a new MCP \
             session)",
            t.text
        );
    }
    if let Some(structured) = shaped.structured_content.as_object_mut() {
        structured.insert("session".into(), json!(handle));
    }
    shaped
}

/// The shaped result as rmcp's result type, built with its constructors so the result carries
/// what the negotiated revision asks for (`resultType: "complete"` from 2026-07-28 on; rmcp
/// takes it off for older revisions).
fn as_result(shaped: Shaped) -> CallToolResponse {
    let mut result = match shaped.is_error {
        true => CallToolResult::error(shaped.content),
        false => CallToolResult::success(shaped.content),
    };
    let structured = shaped.structured_content;
    result.structured_content = (!structured.is_null()).then_some(structured);
    result.into()
}

#[cfg(test)]
mod tests {
    use glovebox_protocol::error::{ErrorCode, ErrorData};
    use rmcp::model::ResultType;

    use super::*;

    #[test]
    fn a_shaped_result_is_a_complete_tool_result_of_rmcp_blocks() {
        let shaped = json!({"content": [
            {"type": "text", "text": "browser.click succeeded"},
            {"type": "image", "data": "QQ==", "mimeType": "image/png"},
            {"type": "resource_link", "uri": "glovebox://capture/c1", "name": "capture c1",
             "mimeType": "image/png"}],
            "structuredContent": {"tool": "browser"}, "isError": false});
        let shaped: Shaped = serde_json::from_value(shaped).expect("a shaped result");
        let CallToolResponse::Complete(r) = as_result(shaped) else { panic!("not complete") };
        assert_eq!(r.result_type, Some(ResultType::COMPLETE));
        assert_eq!(r.is_error, Some(false));
        assert_eq!(r.content.len(), 3);
        assert!(matches!(r.content[2], ContentBlock::ResourceLink(_)));
        assert_eq!(r.structured_content, Some(json!({"tool": "browser"})));
        let wire = serde_json::to_value(&r).expect("serializes");
        assert_eq!(wire["resultType"], "complete", "{wire}");

        let failed = ErrorData { code: ErrorCode::Forbidden, message: "no".into(), details: None };
        let CallToolResponse::Complete(r) = as_result(dispatch::shape::mcp(Err(failed))) else {
            panic!("not complete")
        };
        assert_eq!((r.result_type, r.is_error), (Some(ResultType::COMPLETE), Some(true)));
        let structured = r.structured_content.expect("structured");
        assert_eq!(structured.pointer("/error/code"), Some(&serde_json::json!("FORBIDDEN")));
    }
}
