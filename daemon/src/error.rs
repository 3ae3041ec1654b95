//! The daemon's typed errors and their one mapping to wire error data.

use glovebox_protocol::contract::Violation;
use glovebox_protocol::error::{ErrorCode, ErrorData};

mod wording;

/// What a call, `/readyz` and the backend status say while the desktop comes up.
pub const DESKTOP_STARTING: &str = "the desktop is starting";

/// Everything a call can fail with. Backends convert their own errors into these.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum DaemonError {
    #[error("{}", .0.message)]
    Contract(Violation),
    #[error("invalid params for {method}: {reason}")]
    InvalidParams { method: String, reason: String },
    #[error("call session.hello first")]
    HandshakeRequired,
    #[error("this connection already said session.hello")]
    AlreadyHello,
    #[error("client speaks protocol {client}, daemon speaks {daemon}")]
    ProtocolMismatch { client: u32, daemon: u32 },
    #[error("the {role} role may not call {method}")]
    Forbidden { role: &'static str, method: String },
    #[error("this connection's token was revoked or its role changed")]
    Revoked,
    #[error("{path} {why}")]
    OutsideFiles { path: String, why: String, roots: Vec<String> },
    #[error("this token holds {max} sessions, each driven by a connection")]
    TooManySessions { max: usize },
    #[error("the file is {size} bytes and files/ holds {used} of its {quota}")]
    FilesFull { size: u64, used: u64, quota: u64 },
    #[error("session {0} belongs to another token")]
    NotOwner(String),
    #[error("session {0} is driven by another connection")]
    SessionBusy(String),
    #[error("session {0} does not exist")]
    SessionNotFound(String),
    #[error("session {0} is paused")]
    Paused(String),
    #[error("session {session} is paused: a person ({by}) has taken over the desktop")]
    HumanInControl { session: String, by: String },
    #[error("no {kind} {id}")]
    TargetNotFound { kind: &'static str, id: String },
    /// A secret that may not go where the call would type it; nothing was typed.
    #[error("secret {secret} is not typed into {place}")]
    SecretRefused { secret: String, place: String, origins: Vec<String> },
    #[error("{kind}s match {query:?}")]
    Ambiguous { kind: &'static str, query: String, candidates: Vec<serde_json::Value> },
    #[error("no snapshot of {target} in this session yet")]
    NoSnapshot { target: String },
    #[error("ref {ref} is stale: {reason}")]
    /// `by`: the other session whose action made it stale, when one did.
    StaleRef { r#ref: String, reason: String, by: Option<String> },
    #[error("ref {ref} does not belong to that snapshot: {reason}")]
    SnapshotMismatch { r#ref: String, reason: String },
    #[error("{what} has no on-screen box")]
    NoGeometry { what: String },
    #[error("{what} cannot take text or a value")]
    NotEditable { what: String, available: Vec<String> },
    /// A click on a file input would open the file chooser, a dialog outside the page.
    #[error("{what} is a file input: a click opens the file chooser")]
    FileInput { what: String },
    #[error("input refused: {window_id} is not the active window: {reason}")]
    NotFocused { window_id: String, active: serde_json::Value, reason: String },
    #[error("{action} needs a window_id")]
    WindowRequired { action: String },
    #[error("the policy rule \"{rule}\" asks an approver first")]
    ApprovalRequired {
        rule: String,
        approval: serde_json::Value,
        /// The same call was sent before and still waits (its approval says since when).
        resent: bool,
    },
    #[error("refused by {by} under the policy rule \"{rule}\"")]
    ApprovalDenied { rule: String, by: String },
    #[error("this token already has {pending} approvals waiting, the limit is {limit}")]
    TooManyPending { pending: usize, limit: usize },
    #[error("this token asked for {limit} approvals in the last minute, the limit")]
    TooManyAsks { limit: usize },
    #[error("{tool}.{action} is not available: {reason}")]
    Unsupported { tool: String, action: String, reason: String, available: Vec<String> },
    #[error("the op passed its {ms} ms deadline")]
    Timeout { ms: u64 },
    #[error("the op was cancelled")]
    Cancelled,
    #[error("{limit} ops are already in flight on this connection")]
    Busy { limit: usize },
    #[error("this session may start {per_sec} ops a second and is over that")]
    RateLimited { per_sec: u32 },
    #[error("the {backend} backend is unavailable: {reason}")]
    BackendUnavailable { backend: &'static str, reason: String, remedy: String },
    /// SIGTERM: the daemon drains and starts no new op.
    #[error("the daemon is shutting down")]
    ShuttingDown,
    /// The port answers before the desktop is up; calls wait for nothing.
    #[error("the desktop backend is unavailable: {}", DESKTOP_STARTING)]
    DesktopStarting,
    #[error(
        "a JavaScript {kind} dialog is open ({message:?}); answer it with browser.dialog first"
    )]
    DialogOpen { kind: String, message: String },
    #[error("{key} is not held down on this tab")]
    NotHeld { key: String },
    #[error("the element did not become {state} within {ms} ms")]
    NotReached { state: &'static str, ms: u64 },
    /// A lock a panic left poisoned: the state behind it is unusable.
    #[error("{0} is unusable after a panic")]
    Poisoned(&'static str),
    /// The backend answered something the action's typed result cannot hold: a bug, named
    /// rather than passed on as a result the schema does not describe.
    #[error("{method}'s answer does not fit its result type: {reason}")]
    ResultShape { method: String, reason: String },
    #[error("{0}")]
    ActionFailed(String),
    #[error("op {0} was already used for a different call")]
    OpIdReused(String),
    #[error("the frame is not JSON")]
    NotJson,
    #[error("not a JSON-RPC 2.0 request")]
    NotARequest,
    #[error("this connection holds {limit} subscriptions already")]
    TooManySubscriptions { limit: usize },
    #[error("binary frames are not read ({bytes} bytes refused)")]
    BinaryFrame { bytes: usize },
    #[error(
        "the request's id is {got}; an id is a string, a whole number from 0 to 2^64-1, or null"
    )]
    BadId { got: &'static str },
    #[error("the message has {size} bytes, over the limit of {limit}")]
    RequestTooLarge { size: usize, limit: usize },
    #[error("the batch has {len} calls, over the limit of {limit}")]
    BatchTooLarge { len: usize, limit: usize },
    #[error("the answer has {size} bytes, over the limit of {limit}")]
    ResultTooLarge { size: usize, limit: usize },
    #[error(
        "the batch's {ops} tool calls do not fit the {limit} in-flight slots ({in_flight} taken)"
    )]
    BatchBusy { ops: usize, in_flight: usize, limit: usize },
    #[error("the batch's {ops} tool calls are more than the {per_sec} a second this session may start now")]
    BatchRateLimited { ops: usize, per_sec: u32 },
}

impl DaemonError {
    pub fn code(&self) -> ErrorCode {
        use DaemonError::*;
        match self {
            Contract(_) | InvalidParams { .. } | OpIdReused(_) => ErrorCode::ContractViolation,
            HandshakeRequired => ErrorCode::HandshakeRequired,
            AlreadyHello => ErrorCode::SessionBusy,
            ProtocolMismatch { .. } => ErrorCode::ProtocolMismatch,
            Forbidden { .. }
            | OutsideFiles { .. }
            | NotOwner(_)
            | Revoked
            | SecretRefused { .. } => ErrorCode::Forbidden,
            FilesFull { .. } => ErrorCode::RequestTooLarge,
            TooManySessions { .. } => ErrorCode::Busy,
            SessionBusy(_) => ErrorCode::SessionBusy,
            SessionNotFound(_) => ErrorCode::SessionNotFound,
            Paused(_) | HumanInControl { .. } => ErrorCode::Paused,
            TargetNotFound { .. } => ErrorCode::TargetNotFound,
            Ambiguous { .. } => ErrorCode::AmbiguousTarget,
            NoSnapshot { .. } => ErrorCode::NoSnapshot,
            StaleRef { .. } => ErrorCode::StaleRef,
            SnapshotMismatch { .. } => ErrorCode::SnapshotMismatch,
            NoGeometry { .. } => ErrorCode::NoGeometry,
            NotEditable { .. } | FileInput { .. } => ErrorCode::NotEditable,
            NotFocused { .. } => ErrorCode::NotFocused,
            WindowRequired { .. } => ErrorCode::WindowRequired,
            ApprovalRequired { .. } => ErrorCode::ApprovalRequired,
            ApprovalDenied { .. } => ErrorCode::ApprovalDenied,
            TooManyPending { .. } | TooManyAsks { .. } => ErrorCode::TooManyApprovals,
            Unsupported { .. } => ErrorCode::Unsupported,
            Timeout { .. } => ErrorCode::Timeout,
            Cancelled => ErrorCode::Cancelled,
            Busy { .. } | RateLimited { .. } => ErrorCode::Busy,
            BackendUnavailable { .. } | ShuttingDown | DesktopStarting => {
                ErrorCode::BackendUnavailable
            }
            ActionFailed(_)
            | DialogOpen { .. }
            | NotHeld { .. }
            | NotReached { .. }
            | Poisoned(_)
            | ResultShape { .. } => ErrorCode::ActionFailed,
            NotJson => ErrorCode::ParseError,
            NotARequest | BinaryFrame { .. } | BadId { .. } => ErrorCode::InvalidRequest,
            TooManySubscriptions { .. } => ErrorCode::Busy,
            RequestTooLarge { .. } => ErrorCode::RequestTooLarge,
            BatchTooLarge { .. } => ErrorCode::BatchTooLarge,
            ResultTooLarge { .. } => ErrorCode::ResultTooLarge,
            BatchBusy { .. } | BatchRateLimited { .. } => ErrorCode::Busy,
        }
    }

    /// The one mapping to what goes on the wire.
    pub fn to_data(&self) -> ErrorData {
        ErrorData { code: self.code(), message: self.message(), details: self.details() }
    }

    /// The wire's error data as `channel` reads it: over MCP, a remedy names only what an MCP
    /// host can do (its tools, its own re-send), never a method of `/rpc`.
    pub fn to_data_on(&self, channel: Channel) -> ErrorData {
        let mut data = self.to_data();
        if channel == Channel::Mcp {
            if let Some(message) = self.mcp_message() {
                data.message = message;
            }
        }
        data
    }
}

/// Where a caller reads an error: the remedy names what that channel offers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Channel {
    /// JSON-RPC on `/rpc` (and the SDK): every method.
    #[default]
    Rpc,
    /// MCP (`/mcp`, stdio): the three tools and what the host itself does.
    Mcp,
}

impl From<Violation> for DaemonError {
    fn from(v: Violation) -> Self {
        DaemonError::Contract(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What the typed variants decided in the backends and handlers say on the wire: the code
    /// and the sentence `ActionFailed(String)` carried before them.
    #[test]
    fn typed_failures_keep_their_wire_form() {
        let cases = [
            (
                DaemonError::DialogOpen { kind: "alert".into(), message: "hi".into() },
                "a JavaScript alert dialog is open (\"hi\"); answer it with browser.dialog first",
            ),
            (DaemonError::NotHeld { key: "Shift".into() }, "Shift is not held down on this tab"),
            (
                DaemonError::NotReached { state: "visible", ms: 500 },
                "the element did not become visible within 500 ms",
            ),
        ];
        for (e, message) in cases {
            let data = e.to_data();
            assert_eq!(
                (data.code, data.message.as_str(), data.details),
                (ErrorCode::ActionFailed, message, None)
            );
        }
    }

    /// Over MCP no remedy names a method only `/rpc` has.
    #[test]
    fn mcp_remedies_name_only_what_an_mcp_host_can_call() {
        let rpc_only = ["session.", "approval.", "events.", "rpc.discover", "files.put"];
        let approval = json!({"approval_id": "ap-1", "op_id": "o", "since": "2026-07-28T09:41:07Z",
                              "age_ms": 4000});
        let cases = [
            DaemonError::HandshakeRequired,
            DaemonError::InvalidParams { method: "m".into(), reason: "r".into() },
            DaemonError::SessionNotFound("s".into()),
            DaemonError::Paused("s".into()),
            DaemonError::HumanInControl { session: "s".into(), by: "actor 1a2b3c4d".into() },
            DaemonError::ApprovalRequired {
                rule: "r".into(),
                approval: approval.clone(),
                resent: true,
            },
            DaemonError::TooManyPending { pending: 16, limit: 16 },
            DaemonError::TooManyAsks { limit: 30 },
            DaemonError::OutsideFiles { path: "p".into(), why: "w".into(), roots: vec![] },
        ];
        for e in cases {
            let m = e.to_data_on(Channel::Mcp).message;
            assert!(!rpc_only.iter().any(|r| m.contains(r)), "{m}");
        }
        let again = DaemonError::ApprovalRequired { rule: "r".into(), approval, resent: true };
        let m = again.to_data_on(Channel::Mcp).message;
        assert!(m.contains("pending since 2026-07-28T09:41:07Z, 4 s ago"), "{m}");
    }
}
