//! The methods beside the tool actions: session, tools, ops, events, approvals, discovery.
//!
//! Direct `<tool>.<action>` methods come from the contract table; this table lists the rest so
//! that roles, the handshake rule and `rpc.discover` read one place.

/// Who may call a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Any role, even before `session.hello`.
    Open,
    /// Any role after the handshake.
    Read,
    /// Actors only (changes what the session or the desktop does).
    Write,
    /// Approvers and admins only (answers approvals).
    Approve,
    /// Admins only (the daemon's secrets).
    Admin,
    /// Decided per action by the contract (`tools.call`).
    PerAction,
}

/// A parameter of a non-tool method, for `rpc.discover`.
#[derive(Debug, Clone, Copy)]
pub struct MethodParam {
    pub name: &'static str,
    /// A JSON Schema type word.
    pub json_type: &'static str,
    pub required: bool,
    pub doc: &'static str,
}

#[derive(Debug, Clone, Copy)]
pub struct Method {
    pub name: &'static str,
    pub summary: &'static str,
    pub access: Access,
    pub params: &'static [MethodParam],
}

const fn mp(
    name: &'static str,
    json_type: &'static str,
    required: bool,
    doc: &'static str,
) -> MethodParam {
    MethodParam { name, json_type, required, doc }
}

const OP_ID: MethodParam = mp("op_id", "string", true, "the op's id");

/// Notification method used for `events.subscribe` deliveries.
pub const EVENT_NOTIFICATION: &str = "events.event";

pub static METHODS: &[Method] = &[
    Method {
        name: "session.hello",
        summary: "handshake: protocol major, client info and the session to start or resume",
        access: Access::Open,
        params: &[
            mp("protocol", "integer", true, "protocol major version, 1"),
            mp("client", "object", false, "{name, version} of the client"),
            mp("session", "string", false, "session name to resume; omitted: a fresh id"),
            mp(
                "browser_context",
                "string",
                false,
                "shared (the default: the token's party's cookies, storage, downloads and tabs) or own (a fresh context for a new session)",
            ),
            mp(
                "profile",
                "string",
                false,
                "a named profile of the token's party for a new session: its cookies and localStorage are kept on disk across restarts",
            ),
        ],
    },
    Method {
        name: "session.status",
        summary: "this session: id, role, selection, paused, ops in flight, backends",
        access: Access::Read,
        params: &[],
    },
    Method {
        name: "session.pause",
        summary: "refuse every mutating op with PAUSED until session.resume; observing still works",
        access: Access::Write,
        params: &[],
    },
    Method {
        name: "session.resume",
        summary: "lift session.pause",
        access: Access::Write,
        params: &[],
    },
    Method {
        name: "session.close",
        summary: "end the session: cancel its ops, release held input, forget its state",
        access: Access::Read,
        params: &[],
    },
    Method {
        name: "session.request_human",
        summary: "ask a person for help (a login, a CAPTCHA, a 2FA code): shown on the view page \
                  and as the session event human.requested; answers at once with a request_id; \
                  wait for the takeover.ended event or poll session.status",
        access: Access::Write,
        params: &[
            mp("reason", "string", true, "what the person should do, 1 to 500 characters"),
            mp("tab_id", "string", false, "the tab it is about"),
            mp("window_id", "string", false, "the window it is about"),
        ],
    },
    Method {
        name: "view.link",
        summary: "a fresh single-use code of the view page for this connection's token: open \
                  http://<daemon>/<path> in a browser (gloveboxd view-link prints it)",
        access: Access::Open,
        params: &[],
    },
    Method {
        name: "tools.list",
        summary: "the tools as LLM runtimes expect them: name, description, inputSchema, outputSchema",
        access: Access::Read,
        params: &[mp(
            "per_action",
            "boolean",
            false,
            "also list each tool's actions, each with its inputSchema and the outputSchema of its typed result",
        )],
    },
    Method {
        name: "tools.call",
        summary: "run one tool action; MCP-shaped result",
        access: Access::PerAction,
        params: &[
            mp("name", "string", true, "tool name: context, browser or computer"),
            mp("arguments", "object", true, "the action and its parameters"),
            mp("op_id", "string", false, "idempotency key; re-sent within 10 min: same outcome"),
            mp("timeout_ms", "integer", false, "op deadline in ms (default 30000, max 180000)"),
            mp("capture", "boolean", false, "false: no screenshot after a state change"),
        ],
    },
    Method {
        name: "op.status",
        summary: "state of an op of this session, with its outcome once finished",
        access: Access::Read,
        params: &[OP_ID],
    },
    Method {
        name: "op.cancel",
        summary: "cancel a running op; its cleanup releases what it holds",
        access: Access::Write,
        params: &[OP_ID],
    },
    Method {
        name: "capture.get",
        summary: "a screenshot taken after an action of this session again, by its capture_id",
        access: Access::Read,
        params: &[mp("capture_id", "string", true, "the id in the op outcome's capture")],
    },
    Method {
        name: "files.put",
        summary: "store a file in the workspace's files/ root, where browser.upload takes it from",
        access: Access::Write,
        params: &[
            mp(
                "name",
                "string",
                true,
                "a plain file name (no / or ..); an existing one is replaced",
            ),
            mp("data", "string", true, "the file's bytes, base64; at most 8 MiB once decoded"),
        ],
    },
    Method {
        name: "events.subscribe",
        summary: "push events of the given topics as events.event notifications",
        access: Access::Read,
        params: &[mp(
            "topics",
            "array",
            false,
            "topics: ops, session, browser, desktop, approvals; all if omitted",
        )],
    },
    Method {
        name: "events.unsubscribe",
        summary: "stop a subscription",
        access: Access::Read,
        params: &[mp(
            "subscription",
            "string",
            true,
            "the id events.subscribe returned, as a one-element array: [\"id\"]",
        )],
    },
    Method {
        name: "approval.list",
        summary: "calls waiting for a grant",
        access: Access::Read,
        params: &[],
    },
    Method {
        name: "approval.grant",
        summary: "allow a waiting call; re-send it with its op_id to run it",
        access: Access::Approve,
        params: &[mp("approval_id", "string", true, "id from APPROVAL_REQUIRED")],
    },
    Method {
        name: "approval.deny",
        summary: "refuse a waiting call",
        access: Access::Approve,
        params: &[mp("approval_id", "string", true, "id from APPROVAL_REQUIRED")],
    },
    Method {
        name: "secrets.put",
        summary: "add or replace a named secret (context.list_secrets names it; its value is never shown)",
        access: Access::Admin,
        params: &[
            mp("name", "string", true, "1 to 64 characters without spaces"),
            mp("value", "string", true, "at least 4 characters"),
            mp("origins", "array", false, "origins it may be typed into (https://example.com)"),
            mp("apps", "array", false, "desktop apps computer.type may type it into"),
            mp("totp", "string", false, "a base32 TOTP seed, for secret_totp"),
            mp("persist", "boolean", false, "also write it to the --secrets file (else memory only)"),
        ],
    },
    Method {
        name: "secrets.delete",
        summary: "forget a named secret (its value stays hidden in what the daemon shows)",
        access: Access::Admin,
        params: &[
            mp("name", "string", true, "the secret's name"),
            mp("persist", "boolean", false, "also remove it from the --secrets file"),
        ],
    },
    Method {
        name: "rpc.discover",
        summary: "the OpenRPC document of every method, generated from the contract",
        access: Access::Read,
        params: &[],
    },
];

/// Find a non-tool method by name.
pub fn method(name: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.name == name)
}
