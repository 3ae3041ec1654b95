//! `gloveboxd mcp --url ws://HOST:PORT/rpc --token-file PATH`: MCP on stdio for a daemon that
//! runs elsewhere, over its WebSocket (the Rust SDK). One stdio host is one Glovebox
//! session, so refs and selections persist across its calls. A lost connection is
//! reconnected to the same session and the call re-sent with the same op id, which the
//! daemon never runs twice; a cancelled call cancels its op there.

use std::time::Duration;

use glovebox_client::{CallOptions, Client, ClientError, ClientOptions};
use glovebox_protocol::error::{ErrorCode, ErrorData};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, Resource,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde::Deserialize;
use serde_json::Value;

use super::{as_result, server_info};
use crate::dispatch;
use crate::dispatch::shape::Shaped;

/// Sends of one call in all when the connection drops under it.
const ATTEMPTS: u32 = 3;

/// The stdio side of the bridge: every request goes to the daemon at the other end.
pub struct Bridge {
    client: Client,
    /// Captures the forwarded results named (id, mime), newest last: this host's resources.
    captures: std::sync::Mutex<std::collections::VecDeque<(String, String)>>,
}

/// Captures remembered for `resources/list` (the daemon may have let older ones go).
const KEPT: usize = 64;

/// Why the bridge could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BridgeError {
    #[error("cannot reach the daemon at {url}: {source}")]
    Connect { url: String, source: ClientError },
    #[error(transparent)]
    Stdio(#[from] super::stdio::StdioError),
}

/// Connect to `url` with `token`, then serve stdio until the host closes it.
pub async fn serve(url: &str, token: &str) -> Result<(), BridgeError> {
    let options = ClientOptions::new("gloveboxd-mcp", env!("CARGO_PKG_VERSION"));
    let client = Client::connect(url, token, options)
        .await
        .map_err(|source| BridgeError::Connect { url: url.to_owned(), source })?;
    tracing::info!(session = %client.session_id(), "bridging MCP on stdio to {url}");
    super::stdio::serve_handler(Bridge { client, captures: Default::default() }).await?;
    Ok(())
}

impl Bridge {
    /// `tools.call`, re-sent with the same op id after a lost connection.
    async fn call(
        &self,
        name: &str,
        args: Value,
        options: CallOptions,
    ) -> Result<Value, ClientError> {
        let mut left = ATTEMPTS;
        loop {
            match self.client.tools_call(name, args.clone(), options.clone()).await {
                Err(e) if e.is_connection_lost() && left > 1 => {
                    left -= 1;
                    tracing::info!("the connection to the daemon dropped ({e}); resuming");
                    self.client.reconnect().await?;
                }
                other => return other,
            }
        }
    }

    /// Progress every second to a host that asked, read from the daemon's `op.status`.
    async fn report_progress(
        &self,
        op_id: &str,
        ctx: &RequestContext<RoleServer>,
    ) -> std::convert::Infallible {
        let status =
            || async { self.client.op_status(op_id).await.ok().map(|s| super::status_line(&s)) };
        super::progress_every_second(ctx, op_id, status).await
    }
}

/// A daemon error (or a lost daemon) as the `isError` result a model can read.
fn failure(e: &ClientError) -> Shaped {
    let data = match e {
        ClientError::Rpc { code, message, details, .. } => {
            ErrorData { code: *code, message: message.clone(), details: details.clone() }
        }
        other => ErrorData {
            code: ErrorCode::BackendUnavailable,
            message: format!("the daemon behind this bridge cannot be reached: {other}"),
            details: None,
        },
    };
    dispatch::shape::mcp(Err(data))
}

/// The daemon's `tools.call` answer, read as the MCP result it is.
fn read(answer: Value) -> Shaped {
    serde_json::from_value(answer).unwrap_or_else(|e| {
        let text = format!("ACTION_FAILED: the result could not be shaped for MCP: {e}");
        let content = vec![rmcp::model::ContentBlock::text(text)];
        Shaped { content, structured_content: Value::Null, is_error: true }
    })
}

impl Bridge {
    /// Remember the capture a forwarded result links.
    fn remember(&self, shaped: &Shaped) {
        /// The capture a result links, as its `structuredContent` names it.
        #[derive(Deserialize)]
        struct Linked<'a> {
            capture_id: &'a str,
            mime: &'a str,
        }
        #[derive(Deserialize)]
        struct Outcome<'a> {
            #[serde(borrow)]
            capture: Linked<'a>,
        }
        let Ok(Outcome { capture: Linked { capture_id: id, mime } }) =
            Outcome::deserialize(&shaped.structured_content)
        else {
            return;
        };
        let mut kept = self.captures.lock().unwrap_or_else(|p| p.into_inner());
        kept.push_back((id.to_owned(), mime.to_owned()));
        while kept.len() > KEPT {
            kept.pop_front();
        }
    }
}

impl ServerHandler for Bridge {
    fn get_info(&self) -> ServerConfig {
        server_info()
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let kept = self.captures.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let resources = kept
            .iter()
            .map(|(id, mime)| {
                let uri = format!("{}{id}", super::resources::CAPTURE);
                Resource::new(uri, format!("capture {id}")).with_mime_type(mime)
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri;
        let not_found =
            |why: String| McpError::resource_not_found(why, Some(serde_json::json!({"uri": uri})));
        let Some(id) = uri.strip_prefix(super::resources::CAPTURE) else {
            return Err(not_found(format!(
                "no resource {uri}; resources/list names the ones kept"
            )));
        };
        let captured = self.client.capture_get(id).await.map_err(|e| not_found(e.to_string()))?;
        let Some(mut shot) = captured.image else {
            return Err(McpError::internal_error(format!("the capture {id} has no image"), None));
        };
        let data = std::mem::take(shot.data_mut());
        Ok(super::resources::blob(&uri, shot.size().0, data).into())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let tools = match self.client.tools_list().await {
            Ok(t) => t,
            Err(e) if e.is_connection_lost() => {
                self.client
                    .reconnect()
                    .await
                    .map_err(|e| McpError::internal_error(e.to_string(), None))?;
                self.client
                    .tools_list()
                    .await
                    .map_err(|e| McpError::internal_error(e.to_string(), None))?
            }
            Err(e) => return Err(McpError::internal_error(e.to_string(), None)),
        };
        let tools = tools
            .into_iter()
            .filter_map(|t| {
                let Value::Object(schema) = t.input_schema else { return None };
                let mut tool = Tool::default();
                tool.name = t.name.into();
                tool.description = Some(t.description.into());
                tool.input_schema = std::sync::Arc::new(schema);
                if let Some(Value::Object(out)) = t.output_schema {
                    tool.output_schema = Some(std::sync::Arc::new(out));
                }
                Some(tool)
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if glovebox_protocol::contract::tool(&request.name).is_none() {
            return Err(McpError::invalid_params(
                format!(
                    "unknown tool {:?}; the tools are context, browser and computer",
                    request.name
                ),
                None,
            ));
        }
        let mut args = Value::Object(request.arguments.clone().unwrap_or_default());
        // The op keys go beside the arguments, so the client knows the deadline and the op id.
        let keys = match dispatch::split_op_keys(&mut args) {
            Ok(k) => k,
            Err(v) => {
                return Ok(as_result(dispatch::shape::mcp(Err(
                    crate::error::DaemonError::from(v).to_data()
                ))))
            }
        };
        let mut options = CallOptions::new();
        options.op_id = Some(keys.op_id.unwrap_or_else(|| self.client.new_op_id()));
        options.timeout_ms = keys.timeout_ms;
        options.capture = keys.capture;
        options.follow = keys.follow;
        let op_id = options.op_id.clone().unwrap_or_default();
        let shaped = tokio::select! {
            r = self.call(&request.name, args, options) => match r {
                Ok(v) => read(v),
                Err(e) => failure(&e),
            },
            never = self.report_progress(&op_id, &ctx) => match never {},
            _ = ctx.ct.cancelled() => {
                let cancel = self.client.op_cancel(&op_id);
                if tokio::time::timeout(Duration::from_secs(5), cancel).await.is_err() {
                    tracing::warn!(op_id, "the daemon did not confirm the cancel within 5 s");
                }
                failure(&ClientError::Rpc {
                    code: ErrorCode::Cancelled,
                    rpc_code: 0,
                    message: "cancelled by the MCP host".into(),
                    details: None,
                })
            }
        };
        self.remember(&shaped);
        Ok(as_result(shaped))
    }
}
