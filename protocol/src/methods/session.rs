//! `session.*`: the handshake, the session's state, pausing, closing, asking a person.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{mp, Access, Method, MethodParam, NoParams};
use crate::wire::{BackendStatus, HelloParams, HelloResult};

/// `session.hello`.
pub struct Hello;

impl Method for Hello {
    const NAME: &'static str = "session.hello";
    const SUMMARY: &'static str =
        "handshake: protocol major, client info and the session to start or resume";
    const ACCESS: Access = Access::Open;
    const PARAMS: &'static [MethodParam] = &[
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
    ];
    type Params = HelloParams;
    type Result = HelloResult;
}

/// `session.status`.
pub struct Status;

/// `session.status` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StatusResult {
    pub session_id: String,
    pub role: String,
    pub paused: bool,
    /// Who controls the desktop from the view page, while a person does.
    pub human_in_control: Option<String>,
    /// Ids of this session's requests for a person still pending.
    pub human_requests: Vec<String>,
    /// The session's selected browser, tab, app and window.
    pub selection: Value,
    pub in_flight: usize,
    pub uptime_ms: u64,
    pub backends: BTreeMap<String, BackendStatus>,
}

impl Method for Status {
    const NAME: &'static str = "session.status";
    const SUMMARY: &'static str =
        "this session: id, role, selection, paused, ops in flight, backends";
    const ACCESS: Access = Access::Read;
    const PARAMS: &'static [MethodParam] = &[];
    type Params = NoParams;
    type Result = StatusResult;
}

/// `session.pause` and `session.resume` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Paused {
    pub session_id: String,
    pub paused: bool,
}

/// `session.pause`.
pub struct Pause;

impl Method for Pause {
    const NAME: &'static str = "session.pause";
    const SUMMARY: &'static str =
        "refuse every mutating op with PAUSED until session.resume; observing still works";
    const ACCESS: Access = Access::Write;
    const PARAMS: &'static [MethodParam] = &[];
    type Params = NoParams;
    type Result = Paused;
}

/// `session.resume`.
pub struct Resume;

impl Method for Resume {
    const NAME: &'static str = "session.resume";
    const SUMMARY: &'static str = "lift session.pause";
    const ACCESS: Access = Access::Write;
    const PARAMS: &'static [MethodParam] = &[];
    type Params = NoParams;
    type Result = Paused;
}

/// `session.close`.
pub struct Close;

/// `session.close` result: `closed` is false for an observer, which only detaches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Closed {
    pub session_id: String,
    pub closed: bool,
}

impl Method for Close {
    const NAME: &'static str = "session.close";
    const SUMMARY: &'static str =
        "end the session: cancel its ops, release held input, forget its state";
    const ACCESS: Access = Access::Read;
    const PARAMS: &'static [MethodParam] = &[];
    type Params = NoParams;
    type Result = Closed;
}

/// `session.request_human`.
pub struct RequestHuman;

/// `session.request_human` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestHumanParams {
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
}

/// `session.request_human` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HumanRequested {
    pub request_id: String,
    /// `pending`, later `handed_back`.
    pub state: String,
    pub view_pages_open: usize,
}

impl Method for RequestHuman {
    const NAME: &'static str = "session.request_human";
    const SUMMARY: &'static str =
        "ask a person for help (a login, a CAPTCHA, a 2FA code): shown on the view page \
         and as the session event human.requested; answers at once with a request_id; \
         wait for the takeover.ended event or poll session.status";
    const ACCESS: Access = Access::Write;
    const PARAMS: &'static [MethodParam] = &[
        mp("reason", "string", true, "what the person should do, 1 to 500 characters"),
        mp("tab_id", "string", false, "the tab it is about"),
        mp("window_id", "string", false, "the window it is about"),
    ];
    type Params = RequestHumanParams;
    type Result = HumanRequested;
}
