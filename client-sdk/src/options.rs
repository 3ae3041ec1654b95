//! Settings of a connection (`ClientOptions`) and of one call (`CallOptions`).

use std::time::Duration;

use glovebox_protocol::wire::DEFAULT_TIMEOUT_MS;
use serde::Serialize;

/// The daemon's default message limit; the client uses the same for requests and responses.
pub const DEFAULT_MAX_MESSAGE_BYTES: u32 = 16 * 1024 * 1024;

/// How long the client waits beyond an op's own deadline before it gives up on the answer.
pub const TIMEOUT_MARGIN: Duration = Duration::from_secs(5);

/// How to connect and say hello.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ClientOptions {
    /// `client.name` in `session.hello`; also the prefix of minted op ids.
    pub client_name: String,
    /// `client.version` in `session.hello`.
    pub client_version: String,
    /// The session to start or resume; `None` lets the daemon mint one.
    pub session: Option<String>,
    /// Least time to wait for any answer. A call with `timeout_ms` waits at least that plus
    /// [`TIMEOUT_MARGIN`]; one without waits at least the daemon's default op deadline plus
    /// the margin, so the client never gives up before the daemon does.
    pub request_timeout: Duration,
    /// Deadline for opening the WebSocket.
    pub connect_timeout: Duration,
    /// Largest request and response frame, 16 MiB like the daemon by default.
    pub max_message_bytes: u32,
    /// How long [`Client::reconnect`](crate::Client::reconnect) keeps trying (the daemon may
    /// still hold the session for the lost connection for a moment: `SESSION_BUSY`).
    pub reconnect_deadline: Duration,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            client_name: "glovebox-client".into(),
            client_version: env!("CARGO_PKG_VERSION").into(),
            session: None,
            request_timeout: Duration::from_millis(DEFAULT_TIMEOUT_MS) + TIMEOUT_MARGIN,
            connect_timeout: Duration::from_secs(10),
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            reconnect_deadline: Duration::from_secs(10),
        }
    }
}

impl ClientOptions {
    /// Defaults with this client name (and version).
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        ClientOptions {
            client_name: name.into(),
            client_version: version.into(),
            ..ClientOptions::default()
        }
    }

    pub fn session(mut self, session: impl Into<String>) -> Self {
        self.session = Some(session.into());
        self
    }

    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    pub fn max_message_bytes(mut self, bytes: u32) -> Self {
        self.max_message_bytes = bytes;
        self
    }

    pub fn reconnect_deadline(mut self, deadline: Duration) -> Self {
        self.reconnect_deadline = deadline;
        self
    }
}

/// The op keys of one call: idempotency key, deadline, capture, follow.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CallOptions {
    /// Idempotency key: re-sent within 10 minutes, the daemon returns the first outcome (or
    /// joins the op still running) and never runs it twice. `None`: the daemon mints one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op_id: Option<String>,
    /// The op's deadline in ms (daemon default 30 000, max 180 000).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// `Some(false)`: no screenshot after a state-changing action; `auto`: one only when the
    /// action caused what its text does not show. `None`: a direct call's default (`true`),
    /// `tools.call`'s (`auto`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture: Option<glovebox_protocol::wire::Capture>,
    /// `Some(true)`: when the action opens a tab, the session moves to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub follow: Option<bool>,
}

impl CallOptions {
    pub fn new() -> Self {
        CallOptions::default()
    }

    pub fn op_id(mut self, op_id: impl Into<String>) -> Self {
        self.op_id = Some(op_id.into());
        self
    }

    pub fn timeout_ms(mut self, ms: u64) -> Self {
        self.timeout_ms = Some(ms);
        self
    }

    pub fn capture(mut self, capture: impl Into<glovebox_protocol::wire::Capture>) -> Self {
        self.capture = Some(capture.into());
        self
    }

    pub fn follow(mut self, follow: bool) -> Self {
        self.follow = Some(follow);
        self
    }

    /// How long the client waits for this call's answer.
    pub(crate) fn client_deadline(&self, options: &ClientOptions) -> Duration {
        let op = Duration::from_millis(self.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS));
        options.request_timeout.max(op.saturating_add(TIMEOUT_MARGIN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_deadline_covers_the_op_deadline() {
        let o = ClientOptions::default().request_timeout(Duration::from_secs(1));
        assert_eq!(CallOptions::new().client_deadline(&o), Duration::from_secs(35));
        let long = CallOptions::new().timeout_ms(120_000);
        assert_eq!(long.client_deadline(&o), Duration::from_secs(125));
        let o = o.request_timeout(Duration::from_secs(300));
        assert_eq!(long.client_deadline(&o), Duration::from_secs(300));
    }
}
