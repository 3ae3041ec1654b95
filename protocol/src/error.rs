//! Stable error codes: the `data.code` string a client branches on, and its JSON-RPC number.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Every error the daemon answers with carries one of these in `error.data.code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum ErrorCode {
    ParseError,
    InvalidRequest,
    RequestTooLarge,
    BatchTooLarge,
    ResultTooLarge,
    MethodNotFound,
    ContractViolation,
    HandshakeRequired,
    ProtocolMismatch,
    Forbidden,
    SessionBusy,
    SessionNotFound,
    Paused,
    TargetNotFound,
    AmbiguousTarget,
    NoSnapshot,
    StaleRef,
    SnapshotMismatch,
    NoGeometry,
    NotEditable,
    NotFocused,
    WindowRequired,
    Unsupported,
    ApprovalRequired,
    ApprovalDenied,
    TooManyApprovals,
    Timeout,
    Cancelled,
    Busy,
    BackendUnavailable,
    ActionFailed,
}

impl ErrorCode {
    /// Every code, for docs and exhaustive tests.
    pub const ALL: [ErrorCode; 31] = [
        ErrorCode::ParseError,
        ErrorCode::InvalidRequest,
        ErrorCode::RequestTooLarge,
        ErrorCode::BatchTooLarge,
        ErrorCode::ResultTooLarge,
        ErrorCode::MethodNotFound,
        ErrorCode::ContractViolation,
        ErrorCode::HandshakeRequired,
        ErrorCode::ProtocolMismatch,
        ErrorCode::Forbidden,
        ErrorCode::SessionBusy,
        ErrorCode::SessionNotFound,
        ErrorCode::Paused,
        ErrorCode::TargetNotFound,
        ErrorCode::AmbiguousTarget,
        ErrorCode::NoSnapshot,
        ErrorCode::StaleRef,
        ErrorCode::SnapshotMismatch,
        ErrorCode::NoGeometry,
        ErrorCode::NotEditable,
        ErrorCode::NotFocused,
        ErrorCode::WindowRequired,
        ErrorCode::Unsupported,
        ErrorCode::ApprovalRequired,
        ErrorCode::ApprovalDenied,
        ErrorCode::TooManyApprovals,
        ErrorCode::Timeout,
        ErrorCode::Cancelled,
        ErrorCode::Busy,
        ErrorCode::BackendUnavailable,
        ErrorCode::ActionFailed,
    ];

    /// The stable string form, e.g. `CONTRACT_VIOLATION`.
    pub fn as_str(self) -> &'static str {
        use ErrorCode::*;
        match self {
            ParseError => "PARSE_ERROR",
            InvalidRequest => "INVALID_REQUEST",
            RequestTooLarge => "REQUEST_TOO_LARGE",
            BatchTooLarge => "BATCH_TOO_LARGE",
            ResultTooLarge => "RESULT_TOO_LARGE",
            MethodNotFound => "METHOD_NOT_FOUND",
            ContractViolation => "CONTRACT_VIOLATION",
            HandshakeRequired => "HANDSHAKE_REQUIRED",
            ProtocolMismatch => "PROTOCOL_MISMATCH",
            Forbidden => "FORBIDDEN",
            SessionBusy => "SESSION_BUSY",
            SessionNotFound => "SESSION_NOT_FOUND",
            Paused => "PAUSED",
            TargetNotFound => "TARGET_NOT_FOUND",
            AmbiguousTarget => "AMBIGUOUS_TARGET",
            NoSnapshot => "NO_SNAPSHOT",
            StaleRef => "STALE_REF",
            SnapshotMismatch => "SNAPSHOT_MISMATCH",
            NoGeometry => "NO_GEOMETRY",
            NotEditable => "NOT_EDITABLE",
            NotFocused => "NOT_FOCUSED",
            WindowRequired => "WINDOW_REQUIRED",
            Unsupported => "UNSUPPORTED",
            ApprovalRequired => "APPROVAL_REQUIRED",
            ApprovalDenied => "APPROVAL_DENIED",
            TooManyApprovals => "TOO_MANY_APPROVALS",
            Timeout => "TIMEOUT",
            Cancelled => "CANCELLED",
            Busy => "BUSY",
            BackendUnavailable => "BACKEND_UNAVAILABLE",
            ActionFailed => "ACTION_FAILED",
        }
    }

    /// The JSON-RPC `error.code` number: the standard ones for the envelope, -320xx otherwise.
    pub fn rpc_code(self) -> i32 {
        use ErrorCode::*;
        match self {
            ParseError => -32700,
            InvalidRequest => -32600,
            // The numbers jsonrpsee gives these two limits, kept for clients that read them.
            RequestTooLarge => -32007,
            BatchTooLarge => -32600,
            ResultTooLarge => -32008,
            MethodNotFound => -32601,
            ContractViolation => -32602,
            HandshakeRequired => -32001,
            ProtocolMismatch => -32002,
            Forbidden => -32003,
            SessionBusy => -32004,
            SessionNotFound => -32005,
            Paused => -32006,
            TargetNotFound => -32010,
            AmbiguousTarget => -32011,
            NoSnapshot => -32012,
            StaleRef => -32013,
            SnapshotMismatch => -32014,
            NoGeometry => -32015,
            NotEditable => -32016,
            NotFocused => -32017,
            WindowRequired => -32018,
            Unsupported => -32020,
            ApprovalRequired => -32030,
            ApprovalDenied => -32031,
            TooManyApprovals => -32032,
            Timeout => -32040,
            Cancelled => -32041,
            Busy => -32042,
            BackendUnavailable => -32050,
            ActionFailed => -32060,
        }
    }

    /// When a client sees this code, what it means (for the docs).
    pub fn meaning(self) -> &'static str {
        use ErrorCode::*;
        match self {
            ParseError => "the frame is not JSON; the connection stays usable",
            InvalidRequest => {
                "not a JSON-RPC 2.0 request (or a binary frame); data.message says what is wrong"
            }
            RequestTooLarge => "the message is over --max-message-bytes; details.limit",
            BatchTooLarge => "the batch has more calls than --max-batch; nothing in it ran",
            ResultTooLarge => {
                "the answer is over --max-response-bytes; details.size and details.limit"
            }
            MethodNotFound => "no such method; rpc.discover lists them",
            ContractViolation => "the call breaks the contract; details.field names the parameter",
            HandshakeRequired => "call session.hello first",
            ProtocolMismatch => "client and daemon speak different major versions",
            Forbidden => "the token's role may not call this",
            SessionBusy => "another connection drives this session",
            SessionNotFound => "no such session",
            Paused => "session.pause is in force; session.resume lifts it",
            TargetNotFound => "unknown app, browser, tab, window or op",
            AmbiguousTarget => "several targets match; details.candidates lists them",
            NoSnapshot => "a ref was used before any snapshot of the target",
            StaleRef => "the element is gone or the page navigated; take a new snapshot",
            SnapshotMismatch => "the ref comes from another snapshot than the one named",
            NoGeometry => "the element has no on-screen box for a pointer action",
            NotEditable => "the element cannot take text or a value",
            NotFocused => "verified typing refused: the window is not active",
            WindowRequired => "this action needs a window_id",
            Unsupported => "the backend cannot do this; details.available lists what it can",
            ApprovalRequired => "the policy asks for a grant; details.approval_id",
            ApprovalDenied => "the policy refused the call",
            TooManyApprovals => {
                "the session has too many approvals waiting or asked too many this minute; details.limit"
            }
            Timeout => "the op's deadline passed; its cleanup ran",
            Cancelled => "the op was cancelled; its cleanup ran",
            Busy => "too many ops in flight; retry later",
            BackendUnavailable => {
                "the display, accessibility bus or browser is down, the desktop is still starting, or the daemon is shutting down; details.backend"
            }
            ActionFailed => "the backend tried and failed; details say how",
        }
    }
}

/// The `error.data` object of every error response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ErrorData {
    pub code: ErrorCode,
    /// One sentence: what went wrong and what to do next.
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
}
