//! MCP over Streamable HTTP at `/mcp` (the official SDK, `rmcp`, mounted beside `/rpc` on the
//! same port): the same three tools with the same input schemas as `tools.list`, every call
//! through the same op pipeline (validation before side effects, approval policy, deadlines,
//! settle and capture). The bearer token and `Origin` are checked before rmcp sees a request
//! (`rpc/mod.rs`); here each call finds its caller's role and Glovebox session.
//!
//! Sessions: a client that holds an `Mcp-Session-Id` gets one Glovebox session for it; a
//! client without one (the stateless revision) gets its token's default session. Either way
//! refs and selections persist across its calls, and the session belongs to the token.

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use glovebox_protocol::contract::{self, validate_tool_call};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{json, Value};

use super::auth::{self, Role};
use crate::dispatch::{self, Caller, OpOptions};
use crate::error::DaemonError;
use crate::session::{Owner, Session};
use crate::state::Daemon;

/// One MCP session's handler (rmcp makes one per `Mcp-Session-Id`, or per request when the
/// client holds none).
#[derive(Clone)]
pub struct Handler {
    daemon: Arc<Daemon>,
    in_flight: Arc<AtomicUsize>,
}

impl Handler {
    pub fn new(daemon: Arc<Daemon>) -> Handler {
        Handler { daemon, in_flight: Arc::default() }
    }

    /// The caller's role, owner and session, from the HTTP request rmcp hands over.
    fn caller(
        &self,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<(Role, Arc<Session>), DaemonError> {
        let parts = ctx.extensions.get::<http::request::Parts>();
        let headers = parts.map(|p| &p.headers);
        let token = headers.and_then(|h| auth::presented_token(h, None));
        // `rpc/mod.rs` answered 401 already when there is no valid token.
        let Some((token, role)) = token.and_then(|t| self.daemon.role_of(&t).map(|r| (t, r)))
        else {
            return Err(DaemonError::HandshakeRequired);
        };
        let owner = Owner::of_token(&token, role == Role::Admin);
        let mcp_session = headers
            .and_then(|h| h.get("mcp-session-id"))
            .and_then(|v| v.to_str().ok())
            .filter(|s| !s.is_empty() && s.len() <= 64 && s.chars().all(|c| c.is_ascii_graphic()));
        let name = format!("mcp-{}-{}", owner.short(), mcp_session.unwrap_or("default"));
        // MCP calls do not drive a session the way a WebSocket does: no connection holds it.
        let (session, _) = self.daemon.sessions.attach(Some(&name), 0, owner, false)?;
        Ok((role, session))
    }
}

/// The three tools as `tools.list` gives them.
fn tools() -> Vec<Tool> {
    contract::TOOLS
        .iter()
        .filter_map(|t| {
            let schema = contract::schema::tool_schema(t);
            let Value::Object(schema) = schema else { return None };
            let mut tool = Tool::default();
            tool.name = t.name.into();
            tool.description = Some(contract::schema::tool_description(t).into());
            tool.input_schema = Arc::new(schema);
            Some(tool)
        })
        .collect()
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_tools().build();
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
        let Some(tool) = contract::tool(&request.name) else {
            return Err(McpError::invalid_params(
                format!(
                    "unknown tool {:?}; the tools are context, browser and computer",
                    request.name
                ),
                None,
            ));
        };
        let (role, session) = match self.caller(&ctx) {
            Ok(c) => c,
            Err(e) => return Ok(as_result(dispatch::shape::mcp(Err(e.to_data())))),
        };
        let arguments = Value::Object(request.arguments.clone().unwrap_or_default());
        let checked = validate_tool_call(tool, &arguments).map_err(DaemonError::from);
        // The op id is known up front so a cancelled request cancels its op.
        let op_id = self.daemon.ops.mint_id();
        let options = OpOptions { op_id: Some(op_id.clone()), ..OpOptions::default() };
        let caller =
            Caller { role, session: &session, in_flight: &self.in_flight, admitted: false };
        let outcome = tokio::select! {
            o = dispatch::call(&self.daemon, caller, checked, options) => o,
            _ = ctx.ct.cancelled() => {
                if let Some(op) = self.daemon.ops.get(&session.id, &op_id) {
                    op.cancel();
                }
                Err(DaemonError::Cancelled.to_data())
            }
        };
        Ok(as_result(dispatch::shape::mcp(outcome)))
    }
}

/// The shaped JSON as rmcp's result type (the shapes are the same by construction).
fn as_result(v: Value) -> CallToolResponse {
    let result: CallToolResult = serde_json::from_value(v).unwrap_or_else(|e| {
        let text = format!("ACTION_FAILED: the result could not be shaped for MCP: {e}");
        serde_json::from_value(
            json!({"content": [{"type": "text", "text": text}], "isError": true}),
        )
        .unwrap_or_default()
    });
    result.into()
}
