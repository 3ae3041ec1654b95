//! `Client`: one WebSocket to gloveboxd, the handshake, every method, and reconnecting to the
//! same session.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock as StdRwLock};
use std::time::{Duration, Instant};

use glovebox_protocol::methods::op::OpRef;
use glovebox_protocol::methods::{capture, events, op, rpc, session, tools, Method, NoParams};
use glovebox_protocol::wire::{
    Event, HelloParams, HelloResult, OpOutcome, OpStatus, PeerInfo, ToolCallParams, ToolInfo,
    MAX_TIMEOUT_MS,
};
use glovebox_protocol::PROTOCOL_VERSION;
use jsonrpsee::core::client::{ClientT, Subscription, SubscriptionClientT};
use jsonrpsee::ws_client::{HeaderMap, HeaderValue, WsClient, WsClientBuilder};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use tokio::sync::{Mutex, RwLock};

use crate::error::map_rpc_error;
use crate::options::TIMEOUT_MARGIN;
use crate::{CallOptions, ClientError, ClientOptions};

/// A connection to gloveboxd bound to one session.
///
/// Calls may run concurrently from many tasks (`&self` everywhere). [`Client::reconnect`]
/// swaps the WebSocket and resumes the same session; subscriptions opened before it end.
#[derive(Debug)]
pub struct Client {
    url: String,
    token: String,
    options: ClientOptions,
    /// `None` only after a reconnect failed.
    conn: RwLock<Option<Conn>>,
    hello: StdRwLock<Arc<HelloResult>>,
    /// Serializes reconnects so concurrent failures reconnect once.
    reconnecting: Mutex<()>,
    op_prefix: String,
    op_counter: AtomicU64,
}

#[derive(Debug, Clone)]
struct Conn {
    ws: Arc<WsClient>,
    /// Bumped by every successful (re)connect.
    generation: u64,
}

impl Client {
    /// Open `url` (`ws://HOST:PORT/rpc`) with `token` and say `session.hello`.
    pub async fn connect(
        url: impl Into<String>,
        token: impl Into<String>,
        options: ClientOptions,
    ) -> Result<Client, ClientError> {
        let (url, token) = (url.into(), token.into());
        let (ws, hello) = open(&url, &token, &options, options.session.as_deref()).await?;
        let op_prefix = op_prefix(&options.client_name);
        Ok(Client {
            url,
            token,
            options,
            conn: RwLock::new(Some(Conn { ws: Arc::new(ws), generation: 1 })),
            hello: StdRwLock::new(Arc::new(hello)),
            reconnecting: Mutex::new(()),
            op_prefix,
            op_counter: AtomicU64::new(0),
        })
    }

    /// The latest `session.hello` answer (replaced by a reconnect).
    pub fn hello(&self) -> Arc<HelloResult> {
        self.hello.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The session this client drives; a reconnect resumes it.
    pub fn session_id(&self) -> String {
        self.hello().session_id.clone()
    }

    pub fn options(&self) -> &ClientOptions {
        &self.options
    }

    /// Whether the WebSocket is still open.
    pub async fn is_connected(&self) -> bool {
        self.conn.read().await.as_ref().is_some_and(|c| c.ws.is_connected())
    }

    /// A fresh op id, unique across clients and processes: client name, a per-client nonce
    /// from the clock and the pid, and a counter.
    pub fn new_op_id(&self) -> String {
        let n = self.op_counter.fetch_add(1, Ordering::Relaxed) + 1;
        format!("{}-{n}", self.op_prefix)
    }

    /// Call a non-tool method by its protocol type, with its typed params:
    /// `client.call::<op::Status>(OpRef { op_id })` answers an [`OpStatus`].
    pub async fn call<M: Method>(&self, params: M::Params) -> Result<M::Result, ClientError> {
        self.call_within::<M>(params, self.options.request_timeout).await
    }

    /// [`Client::call`] waiting `deadline` for the answer.
    async fn call_within<M: Method>(
        &self,
        params: M::Params,
        deadline: Duration,
    ) -> Result<M::Result, ClientError> {
        self.request(M::NAME, to_object(&params)?, deadline).await
    }

    /// Run `tool.action` through its direct method; `args` are the action's params.
    pub async fn call_action(
        &self,
        tool: &str,
        action: &str,
        mut args: Map<String, Value>,
        options: CallOptions,
    ) -> Result<OpOutcome, ClientError> {
        let deadline = self.deadline(&options);
        if let Value::Object(keys) = to_value(&options)? {
            args.extend(keys);
        }
        self.request(&format!("{tool}.{action}"), args, deadline).await
    }

    /// [`Client::call_action`] that survives lost connections: it mints an op id when none is set,
    /// and after a connection loss reconnects to the same session and re-sends the same op id,
    /// up to `attempts` sends in all. Safe because the daemon answers a re-sent op id with the
    /// first outcome (or joins the op still running) and never runs it twice.
    pub async fn call_with_retry(
        &self,
        tool: &str,
        action: &str,
        args: Map<String, Value>,
        mut options: CallOptions,
        attempts: u32,
    ) -> Result<OpOutcome, ClientError> {
        if options.op_id.is_none() {
            options.op_id = Some(self.new_op_id());
        }
        let mut left = attempts.max(1);
        loop {
            let generation = self.generation().await;
            match self.call_action(tool, action, args.clone(), options.clone()).await {
                Err(e) if e.is_connection_lost() && left > 1 => {
                    left -= 1;
                    tracing::debug!(error = %e, "connection lost; reconnecting to re-send the op");
                    self.reconnect_after(generation).await?;
                }
                other => return other,
            }
        }
    }

    /// Run a typed action (see [`crate::generated`]) with these op keys.
    pub async fn run<A: crate::ActionArgs>(
        &self,
        args: &A,
        options: CallOptions,
    ) -> Result<OpOutcome, ClientError> {
        self.call_action(A::TOOL, A::ACTION, to_object(args)?, options).await
    }

    /// `tools.call`: the MCP-shaped `{content, structuredContent, isError}`. An action's
    /// failure is `isError: true`, not an `Err`.
    pub async fn tools_call(
        &self,
        name: &str,
        arguments: Value,
        options: CallOptions,
    ) -> Result<Value, ClientError> {
        let deadline = self.deadline(&options);
        let params = ToolCallParams {
            name: name.to_owned(),
            arguments,
            op_id: options.op_id,
            timeout_ms: options.timeout_ms,
            capture: options.capture,
            follow: options.follow,
        };
        self.call_within::<tools::Call>(params, deadline).await
    }

    /// `op.status`: a running or finished op of this session.
    pub async fn op_status(&self, op_id: &str) -> Result<OpStatus, ClientError> {
        self.call::<op::Status>(OpRef { op_id: op_id.into() }).await
    }

    /// `op.cancel`: `cancelled` is false when it had already finished.
    pub async fn op_cancel(&self, op_id: &str) -> Result<op::Cancelled, ClientError> {
        self.call::<op::Cancel>(OpRef { op_id: op_id.into() }).await
    }

    /// `capture.get`: a capture this session's calls took, whole (`data` is base64), while
    /// the daemon still keeps it.
    pub async fn capture_get(
        &self,
        capture_id: &str,
    ) -> Result<glovebox_protocol::wire::Captured, ClientError> {
        self.call::<capture::Get>(capture::CaptureRef { capture_id: capture_id.into() }).await
    }

    /// `session.status`: id, role, paused, selection, ops in flight, backends.
    pub async fn session_status(&self) -> Result<session::StatusResult, ClientError> {
        self.call::<session::Status>(NoParams).await
    }

    /// `session.pause`: mutating ops get `PAUSED` until [`Client::resume`].
    pub async fn pause(&self) -> Result<session::Paused, ClientError> {
        self.call::<session::Pause>(NoParams).await
    }

    pub async fn resume(&self) -> Result<session::Paused, ClientError> {
        self.call::<session::Resume>(NoParams).await
    }

    /// `session.close`: cancel the session's ops and forget it (an observer only detaches).
    pub async fn close(&self) -> Result<session::Closed, ClientError> {
        self.call::<session::Close>(NoParams).await
    }

    /// `tools.list`: the tools as LLM runtimes expect them.
    pub async fn tools_list(&self) -> Result<Vec<ToolInfo>, ClientError> {
        let list = self.call::<tools::List>(tools::ListParams::default()).await?;
        Ok(list.tools)
    }

    /// `tools.list {per_action: true}`: the same, each tool with its actions, each action
    /// with its input schema and the output schema of its typed result.
    pub async fn tools_list_per_action(&self) -> Result<Vec<ToolInfo>, ClientError> {
        let list = self.call::<tools::List>(tools::ListParams { per_action: true }).await?;
        Ok(list.tools)
    }

    /// `rpc.discover`: the OpenRPC document.
    pub async fn discover(&self) -> Result<Value, ClientError> {
        self.call::<rpc::Discover>(NoParams).await
    }

    /// `events.subscribe`: a stream of events of `topics` (`ops`, `session`, `browser`,
    /// `desktop`; empty: all). Read it with `next().await`; it ends when the connection does
    /// (also on [`Client::reconnect`]); dropping it unsubscribes.
    pub async fn subscribe(&self, topics: &[&str]) -> Result<Subscription<Event>, ClientError> {
        let topics = (!topics.is_empty()).then(|| topics.iter().map(|t| (*t).to_owned()).collect());
        let params = to_object(&events::SubscribeParams { topics })?;
        let ws = self.ws().await?;
        let deadline = self.options.request_timeout;
        let sub =
            ws.subscribe::<Event, _>(events::Subscribe::NAME, params, events::Unsubscribe::NAME);
        match tokio::time::timeout(deadline, sub).await {
            Ok(r) => r.map_err(map_rpc_error),
            Err(_) => Err(ClientError::Timeout(deadline)),
        }
    }

    /// Open a new WebSocket and resume this session (`session.hello` with its id), replacing
    /// the current one; calls wait meanwhile. While the daemon still holds the session for the
    /// old connection (`SESSION_BUSY`) or cannot be reached, it retries until
    /// `reconnect_deadline`. Ops keep their ids across it: re-send one to get its outcome.
    pub async fn reconnect(&self) -> Result<Arc<HelloResult>, ClientError> {
        let _one = self.reconnecting.lock().await;
        self.reopen().await
    }

    /// Reconnect unless someone already did since `generation` was current.
    async fn reconnect_after(&self, generation: u64) -> Result<(), ClientError> {
        let _one = self.reconnecting.lock().await;
        if self.generation().await != generation {
            return Ok(());
        }
        self.reopen().await.map(drop)
    }

    async fn reopen(&self) -> Result<Arc<HelloResult>, ClientError> {
        let session = self.session_id();
        let mut slot = self.conn.write().await;
        // Drop this client's hold on the old socket first, so the daemon sees it close and
        // releases the session (calls still running on it keep it until they end).
        let generation = slot.take().map_or(0, |c| c.generation) + 1;
        let stop = Instant::now() + self.options.reconnect_deadline;
        let mut pause = Duration::from_millis(50);
        loop {
            match open(&self.url, &self.token, &self.options, Some(&session)).await {
                Ok((ws, hello)) => {
                    tracing::debug!(session, resumed = hello.resumed, "reconnected");
                    let hello = Arc::new(hello);
                    *self.hello.write().unwrap_or_else(PoisonError::into_inner) = hello.clone();
                    *slot = Some(Conn { ws: Arc::new(ws), generation });
                    return Ok(hello);
                }
                Err(e) if retryable(&e) && Instant::now() + pause < stop => {
                    tracing::debug!(error = %e, "reconnect failed; retrying");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
                Err(e) => return Err(e),
            }
        }
    }

    async fn generation(&self) -> u64 {
        self.conn.read().await.as_ref().map_or(0, |c| c.generation)
    }

    async fn ws(&self) -> Result<Arc<WsClient>, ClientError> {
        match self.conn.read().await.as_ref() {
            Some(c) => Ok(c.ws.clone()),
            None => Err(ClientError::NotConnected),
        }
    }

    /// How long to wait for a call's answer: never less than the op's own deadline plus a
    /// margin, never more than the transport's ceiling.
    fn deadline(&self, options: &CallOptions) -> Duration {
        options.client_deadline(&self.options).min(longest_wait(&self.options))
    }

    async fn request<R: DeserializeOwned>(
        &self,
        method: &str,
        params: Map<String, Value>,
        deadline: Duration,
    ) -> Result<R, ClientError> {
        let ws = self.ws().await?;
        request(&ws, method, params, deadline).await
    }
}

async fn request<R: DeserializeOwned>(
    ws: &WsClient,
    method: &str,
    params: Map<String, Value>,
    deadline: Duration,
) -> Result<R, ClientError> {
    match tokio::time::timeout(deadline, ws.request::<R, _>(method, params)).await {
        Ok(r) => r.map_err(map_rpc_error),
        Err(_) => Err(ClientError::Timeout(deadline)),
    }
}

/// Open the WebSocket and say hello, resuming `session` when given.
async fn open(
    url: &str,
    token: &str,
    options: &ClientOptions,
    session: Option<&str>,
) -> Result<(WsClient, HelloResult), ClientError> {
    let mut headers = HeaderMap::new();
    let bearer = HeaderValue::from_str(&format!("Bearer {token}"))
        .map_err(|_| ClientError::Config("the token is not a valid HTTP header value".into()))?;
    headers.insert("authorization", bearer);
    let ws = WsClientBuilder::new()
        .set_headers(headers)
        // The per-call deadline is enforced above this; the transport's only has to be longer.
        .request_timeout(longest_wait(options) + TIMEOUT_MARGIN)
        .connection_timeout(options.connect_timeout)
        .max_request_size(options.max_message_bytes)
        .max_response_size(options.max_message_bytes)
        .build(url)
        .await
        .map_err(map_rpc_error)?;
    let params = HelloParams {
        protocol: PROTOCOL_VERSION,
        client: Some(PeerInfo {
            name: options.client_name.clone(),
            version: options.client_version.clone(),
        }),
        session: session.map(str::to_owned),
        browser_context: None,
        profile: None,
    };
    let hello: HelloResult =
        request(&ws, session::Hello::NAME, to_object(&params)?, options.request_timeout).await?;
    if hello.protocol != PROTOCOL_VERSION {
        return Err(ClientError::ProtocolMismatch {
            client: PROTOCOL_VERSION,
            daemon: hello.protocol,
            message: "upgrade the client or the daemon".into(),
        });
    }
    Ok((ws, hello))
}

/// The longest any call may wait: the request timeout or the largest op deadline.
fn longest_wait(options: &ClientOptions) -> Duration {
    options.request_timeout.max(Duration::from_millis(MAX_TIMEOUT_MS) + TIMEOUT_MARGIN)
}

fn retryable(e: &ClientError) -> bool {
    use glovebox_protocol::error::ErrorCode;
    e.is_connection_lost()
        || matches!(e, ClientError::Timeout(_))
        || e.code() == Some(ErrorCode::SessionBusy)
}

fn to_value<T: Serialize>(value: &T) -> Result<Value, ClientError> {
    serde_json::to_value(value).map_err(ClientError::Decode)
}

/// Serialize params that must be a JSON object.
pub(crate) fn to_object<T: Serialize>(value: &T) -> Result<Map<String, Value>, ClientError> {
    match to_value(value)? {
        Value::Object(m) => Ok(m),
        other => Err(ClientError::Config(format!("params must be a JSON object, not {other}"))),
    }
}

/// `<name>-<nonce>`: the name made id-safe (no spaces, at most 40 bytes) and a nonce from the
/// clock, the pid and a per-process count, so two clients never mint the same op id.
fn op_prefix(name: &str) -> String {
    static CLIENTS: AtomicU64 = AtomicU64::new(0);
    let mut clean: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '-' })
        .take(40)
        .collect();
    if clean.is_empty() {
        clean.push_str("op");
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let nonce = nanos
        ^ u64::from(std::process::id()).rotate_left(40)
        ^ CLIENTS.fetch_add(1, Ordering::Relaxed).rotate_left(20);
    format!("{clean}-{nonce:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_prefixes_are_id_safe_and_distinct() {
        let a = op_prefix("my agent/β");
        let b = op_prefix("my agent/β");
        assert_ne!(a, b);
        assert!(a.starts_with("my-agent--"), "{a}");
        assert!(!a.contains(char::is_whitespace) && a.len() <= 128, "{a}");
        assert!(op_prefix("").starts_with("op-"));
        assert!(op_prefix(&"x".repeat(300)).len() < 80);
    }

    #[test]
    fn op_keys_join_the_params() {
        let options = CallOptions::new().op_id("o1").timeout_ms(50);
        let Value::Object(keys) = to_value(&options).expect("serializes") else { panic!() };
        assert_eq!(Value::Object(keys), serde_json::json!({"op_id": "o1", "timeout_ms": 50}));
        assert_eq!(to_value(&CallOptions::new()).expect("serializes"), serde_json::json!({}));
    }
}
