//! The daemon's typed errors and their one mapping to wire error data.

use glovebox_protocol::contract::Violation;
use glovebox_protocol::error::{ErrorCode, ErrorData};
use serde_json::{json, Value};

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
            BinaryFrame { .. } | BadId { .. } => ErrorCode::InvalidRequest,
            RequestTooLarge { .. } => ErrorCode::RequestTooLarge,
            BatchTooLarge { .. } => ErrorCode::BatchTooLarge,
            ResultTooLarge { .. } => ErrorCode::ResultTooLarge,
            BatchBusy { .. } | BatchRateLimited { .. } => ErrorCode::Busy,
        }
    }

    /// One sentence saying what to do next.
    fn message(&self) -> String {
        use DaemonError::*;
        match self {
            Contract(v) => v.message.clone(),
            InvalidParams { .. } => format!("{self}; see rpc.discover for the params"),
            HandshakeRequired => {
                "call session.hello {\"protocol\":1} first on this connection".to_owned()
            }
            AlreadyHello => "session.hello was already answered on this connection; open a new \
                             connection to switch sessions"
                .to_owned(),
            ProtocolMismatch { .. } => format!(
                "{self}: upgrade the client, or rebuild the workspace image with a matching daemon"
            ),
            Forbidden { .. } => format!("{self}; use a token with the actor role"),
            Revoked => format!("{self}; the connection is closing: reconnect with a current token"),
            TooManySessions { .. } => format!(
                "{self}; close one, resume one by name, or start gloveboxd with a larger \
                 --max-sessions-per-token"
            ),
            FilesFull { .. } => format!(
                "{self}; nothing was stored: put a smaller file, or start gloveboxd with a larger \
                 --files-quota-bytes"
            ),
            OutsideFiles { roots, .. } => format!(
                "{self}; nothing was read: give a file under {} (relative paths start at the first)",
                roots.join(" or ")
            ),
            NotOwner(_) => format!(
                "{self}: only the token that created it (or an admin) may use it; pick another \
                 session name or leave it out for a fresh session"
            ),
            SessionBusy(_) => format!(
                "{self}; close that connection, pick another session name, or connect as observer"
            ),
            SessionNotFound(_) => format!("{self}; session.hello starts a new one"),
            Paused(_) => format!("{self}; session.resume lets mutating calls run again"),
            HumanInControl { .. } => format!(
                "{self}; nothing ran: wait for the takeover.ended event (events.subscribe, topic \
                 session), or poll session.status until human_in_control is false, then look again \
                 and retry"
            ),
            TargetNotFound { kind, .. } => format!("{self}; list the {kind}s to get a current id"),
            SecretRefused { origins, .. } if origins.is_empty() => {
                format!("{self}; nothing was sent: name the secret (secret) to have it typed")
            }
            SecretRefused { origins, .. } => format!(
                "{self}; nothing was typed: it goes only to {} (context.list_secrets)",
                origins.join(", ")
            ),
            Ambiguous { .. } => format!("several {self}; pick one of details.candidates by id"),
            NoSnapshot { .. } => format!("{self}; take a snapshot before using refs"),
            StaleRef { .. } | SnapshotMismatch { .. } => format!("{self}"),
            NoGeometry { .. } => format!("{self}; use a semantic action or scroll it into view"),
            NotEditable { .. } => format!("{self}; pick an editable element from the snapshot"),
            FileInput { .. } => format!("{self}; set its files with browser.upload instead"),
            NotFocused { .. } => format!(
                "{self}; nothing more was sent; close what holds the focus, or focus_window the \
                 target, and retry"
            ),
            WindowRequired { .. } => format!("{self}; get one from context.list_windows"),
            ApprovalRequired { .. } => format!(
                "{self}{}; nothing ran; once approval.grant answers details.approval_id, re-send \
                 the same call with details.op_id",
                self.pending_since()
            ),
            ApprovalDenied { .. } => format!("{self}; nothing ran"),
            TooManyPending { .. } | TooManyAsks { .. } => format!(
                "{self}; nothing ran and nothing was asked: wait for an approver to answer \
                 (approval.list) and retry"
            ),
            Unsupported { .. } => format!("{self}; details.available lists what works"),
            Timeout { .. } => format!("{self}; its cleanup ran; retry with a larger timeout_ms"),
            Cancelled => format!("{self}; its cleanup ran"),
            Busy { .. } => format!("{self}; wait for some to finish and retry"),
            RateLimited { .. } => format!("{self}; slow down and retry"),
            BackendUnavailable { remedy, .. } => format!("{self}; {remedy}"),
            ShuttingDown | DesktopStarting => format!("{self}; {}", self.remedy()),
            ActionFailed(_) | DialogOpen { .. } | NotHeld { .. } | NotReached { .. } | Poisoned(_) => {
                self.to_string()
            }
            ResultShape { .. } => format!("{self}; this is a daemon bug: report it"),
            OpIdReused(_) => format!("{self}; use a fresh op_id for a new call"),
            BinaryFrame { .. } => format!("{self}; send each request as a text frame"),
            BadId { .. } => format!("{self}; nothing ran"),
            RequestTooLarge { .. } => {
                format!("{self}; send less (a large paste in parts), or raise --max-message-bytes")
            }
            BatchTooLarge { .. } => format!("{self}; nothing ran; split it into smaller batches"),
            ResultTooLarge { .. } => format!(
                "{self}; the call ran but its answer is not sent: ask for less (capture: false, a \
                 smaller snapshot or screenshot), or raise --max-response-bytes"
            ),
            BatchBusy { .. } | BatchRateLimited { .. } => {
                format!("{self}; nothing ran; send fewer calls at once and retry")
            }
        }
    }

    fn details(&self) -> Option<Value> {
        use DaemonError::*;
        match self {
            Contract(v) => Some(json!({"field": v.field, "fields": v.fields})),
            InvalidParams { method, .. } => Some(json!({"method": method})),
            ProtocolMismatch { client, daemon } => {
                Some(json!({"client": client, "daemon": daemon}))
            }
            Forbidden { role, method } => Some(json!({"role": role, "method": method})),
            SessionBusy(s) | SessionNotFound(s) | Paused(s) | NotOwner(s) => {
                Some(json!({"session": s}))
            }
            HumanInControl { session, by } => {
                Some(json!({"session": session, "reason": "human_in_control", "by": by}))
            }
            OutsideFiles { path, roots, .. } => Some(json!({"path": path, "roots": roots})),
            TooManySessions { max } => Some(json!({"limit": "sessions_per_token", "max": max})),
            FilesFull { size, used, quota } => Some(
                json!({"limit": "files_quota_bytes", "size": size, "used": used, "max": quota}),
            ),
            TargetNotFound { kind, id } => Some(json!({"kind": kind, "id": id})),
            SecretRefused { secret, place, origins } => {
                Some(json!({"secret": secret, "place": place, "origins": origins}))
            }
            Ambiguous { kind, query, candidates } => {
                Some(json!({"kind": kind, "query": query, "candidates": candidates}))
            }
            NoSnapshot { target } => Some(json!({"target": target})),
            StaleRef { r#ref, reason, by: Some(by) } => {
                Some(json!({"ref": r#ref, "reason": reason, "by": by}))
            }
            StaleRef { r#ref, reason, by: None } | SnapshotMismatch { r#ref, reason } => {
                Some(json!({"ref": r#ref, "reason": reason}))
            }
            NoGeometry { what } => Some(json!({"element": what})),
            NotEditable { what, available } => {
                Some(json!({"element": what, "available": available}))
            }
            FileInput { what } => Some(json!({"element": what, "available": ["upload"]})),
            NotFocused { window_id, active, reason } => {
                Some(json!({"window_id": window_id, "active": active, "reason": reason}))
            }
            WindowRequired { action } => Some(json!({"action": action})),
            ApprovalRequired { rule, approval, .. } => Some(json!({"rule": rule,
                "approval_id": approval["approval_id"], "op_id": approval["op_id"],
                "since": approval["since"]})),
            ApprovalDenied { rule, by } => Some(json!({"rule": rule, "by": by})),
            TooManyPending { pending, limit } => {
                Some(json!({"limit": "pending_approvals", "pending": pending, "max": limit}))
            }
            TooManyAsks { limit } => Some(json!({"limit": "asks_per_minute", "max": limit})),
            Unsupported { available, reason, .. } => {
                Some(json!({"available": available, "reason": reason}))
            }
            Timeout { ms } => Some(json!({"timeout_ms": ms})),
            Busy { limit } => Some(json!({"limit": limit})),
            RateLimited { per_sec } => Some(json!({"per_sec": per_sec})),
            BackendUnavailable { backend, remedy, .. } => {
                Some(json!({"backend": backend, "remedy": remedy}))
            }
            ShuttingDown => Some(json!({"backend": "daemon", "remedy": self.remedy()})),
            DesktopStarting => Some(json!({"backend": "desktop", "remedy": self.remedy()})),
            OpIdReused(op) => Some(json!({"field": "op_id", "op_id": op})),
            BinaryFrame { bytes } => Some(json!({"frame": "binary", "bytes": bytes})),
            BadId { got } => Some(json!({"field": "id", "got": got})),
            RequestTooLarge { size, limit } | ResultTooLarge { size, limit } => {
                Some(json!({"size": size, "limit": limit}))
            }
            BatchTooLarge { len, limit } => Some(json!({"len": len, "limit": limit})),
            BatchBusy { ops, in_flight, limit } => {
                Some(json!({"ops": ops, "in_flight": in_flight, "limit": limit}))
            }
            BatchRateLimited { ops, per_sec } => Some(json!({"ops": ops, "per_sec": per_sec})),
            HandshakeRequired | AlreadyHello | Cancelled | ActionFailed(_) | Revoked => None,
            DialogOpen { .. } | NotHeld { .. } | NotReached { .. } | Poisoned(_) => None,
            ResultShape { .. } => None,
        }
    }

    /// What to do about a refusal of the daemon's own state (draining, starting).
    fn remedy(&self) -> &'static str {
        match self {
            DaemonError::ShuttingDown => {
                "calls already running finish within its grace period; call again once it is \
                 back, or on another daemon"
            }
            _ => "retry in a moment: GET /readyz answers 200 once it is up",
        }
    }

    /// `; pending since <time>` for a call re-sent while its approval still waits.
    fn pending_since(&self) -> String {
        match self {
            DaemonError::ApprovalRequired { approval, resent: true, .. } => {
                let age = approval["age_ms"].as_u64().unwrap_or(0) / 1000;
                let since = approval["since"].as_str().unwrap_or("earlier");
                format!(" (asked before: pending since {since}, {age} s ago)")
            }
            _ => String::new(),
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

    /// The sentence an MCP host reads where `message` would name a method of `/rpc`.
    fn mcp_message(&self) -> Option<String> {
        use DaemonError::*;
        Some(match self {
            HandshakeRequired => "the request carries no valid token: send it as \
                                  Authorization: Bearer <token> (or ?token=) with every request"
                .to_owned(),
            InvalidParams { .. } => {
                format!("{self}; context.documentation lists every action's params")
            }
            SessionNotFound(_) => {
                format!("{self}; pass session \"new\" for a fresh one, or leave session out")
            }
            Paused(_) => format!(
                "{self}; nothing ran: a person paused it on the view page; context.get_state \
                 says paused until they resume it, then retry"
            ),
            HumanInControl { .. } => format!(
                "{self}; nothing ran: call context.get_state until human_in_control is false, \
                 or re-send this call with a progress token (_meta.progressToken) and it waits \
                 for the hand-back up to its timeout_ms; then look again before acting"
            ),
            ApprovalRequired { .. } => format!(
                "{self}{}; nothing ran: an approver answers it on the view page; re-send the same \
                 call with op_id details.op_id: it runs once granted and says pending until \
                 then (context.get_state lists this session's pending approvals)",
                self.pending_since()
            ),
            TooManyPending { .. } | TooManyAsks { .. } => format!(
                "{self}; nothing ran and nothing was asked: context.get_state lists this \
                 session's pending approvals; retry once an approver answered them"
            ),
            OutsideFiles { roots, .. } => format!(
                "{self}; nothing was read: give a file under {}, or send it first with \
                 context.put_file and upload it by its name",
                roots.join(" or ")
            ),
            _ => return None,
        })
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
