//! What an error says on the wire: its message (and the MCP host's wording of it), its
//! details and its remedy, one arm per variant.

use serde_json::{json, Value};

use super::DaemonError;

impl DaemonError {
    /// One sentence saying what to do next.
    // tidy: table
    pub(super) fn message(&self) -> String {
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
            NotJson => format!("{self}; send one JSON-RPC 2.0 request object (or an array of them)"),
            NotARequest => {
                format!("{self}: it needs \"jsonrpc\":\"2.0\", a string \"method\" and an id")
            }
            TooManySubscriptions { .. } => format!("{self}; unsubscribe one first"),
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

    pub(super) fn details(&self) -> Option<Value> {
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
            TooManySubscriptions { limit } => Some(json!({"limit": limit})),
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
            NotJson | NotARequest => None,
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

    /// The sentence an MCP host reads where `message` would name a method of `/rpc`.
    pub(super) fn mcp_message(&self) -> Option<String> {
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
