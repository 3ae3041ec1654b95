//! Typed shapes of the non-tool methods and of every tool call's result.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Keys a direct `<tool>.<action>` call may carry beside the action's own params.
pub const OP_KEYS: [&str; 5] = ["op_id", "timeout_ms", "capture", "follow", "session"];

/// A call's `capture`: `true` a screenshot after every state-changing action, `false` none,
/// `auto` (the default of `tools.call` and MCP) one only when the action caused what its text
/// does not show (a navigation, a new tab, window or dialog, a change outside the acted
/// element, a desktop action by coordinates); the outcome's `capture` says which and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    Always,
    Never,
    Auto,
}

impl From<bool> for Capture {
    fn from(b: bool) -> Self {
        if b {
            Capture::Always
        } else {
            Capture::Never
        }
    }
}

impl Capture {
    /// `true`, `false` or `"auto"`; anything else is not a capture mode.
    pub fn of(v: &Value) -> Option<Capture> {
        match v {
            Value::Bool(b) => Some((*b).into()),
            Value::String(s) if s == "auto" => Some(Capture::Auto),
            _ => None,
        }
    }
}

impl Serialize for Capture {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Capture::Always => s.serialize_bool(true),
            Capture::Never => s.serialize_bool(false),
            Capture::Auto => s.serialize_str("auto"),
        }
    }
}

impl<'de> Deserialize<'de> for Capture {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Capture::of(&v)
            .ok_or_else(|| serde::de::Error::custom("capture is true, false or \"auto\""))
    }
}

/// Default and largest op deadline.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;
pub const MAX_TIMEOUT_MS: u64 = 180_000;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PeerInfo {
    pub name: String,
    #[serde(default)]
    pub version: String,
}

/// `session.hello` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelloParams {
    pub protocol: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<PeerInfo>,
    /// Name of the logical agent conversation; omitted: a fresh one is minted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The session's browser context: `shared` (omitted: its party's) or `own` (a fresh one
    /// of its own, for a new session).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser_context: Option<String>,
    /// A named profile of the token's party to browse in (a new session): its cookies and
    /// localStorage are kept on disk and outlive the daemon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
}

/// One backend's state as reported in `session.hello`, `session.status` and the context
/// results that list backends.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BackendStatus {
    /// `ready`, `degraded`, `starting`, `down` or `not_implemented`.
    pub status: String,
    /// Why it is not ready; absent when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What else the backend reports about itself (display, screen, versions, ...).
    #[serde(default, flatten)]
    pub extra: BTreeMap<String, Value>,
}

/// `session.hello` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HelloResult {
    pub protocol: u32,
    pub daemon: PeerInfo,
    pub session_id: String,
    pub resumed: bool,
    pub role: String,
    pub contract_version: String,
    pub capabilities: Value,
    pub features: Vec<String>,
    pub backends: BTreeMap<String, BackendStatus>,
}

/// `tools.call` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolCallParams {
    pub name: String,
    #[serde(default)]
    pub arguments: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture: Option<Capture>,
    /// `true`: when the action opens a tab, the session moves to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follow: Option<bool>,
}

/// One entry of `tools.list`, shaped the way MCP clients expect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ToolInfo {
    pub name: String,
    pub description: String,
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
    /// What `structuredContent` holds, compact.
    #[serde(rename = "outputSchema", default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// With `tools.list {per_action: true}`: every action, its own input schema and the
    /// schema of its outcome with its typed result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<ActionInfo>>,
}

/// One action as `tools.list {per_action: true}` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ActionInfo {
    pub name: String,
    pub description: String,
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
    /// The op's outcome, its `result` the action's typed result.
    #[serde(rename = "outputSchema")]
    pub output_schema: Value,
}

/// Where the target of a call came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Settle {
    pub waited_ms: u64,
    /// `quiet`, `cap` or `none`.
    pub reason: String,
    /// What the wait covered: one-shot timers and animation frames the page scheduled since
    /// the action (and those they scheduled), CSS animations and transitions, requests, and
    /// windows mapped or unmapped (desktop).
    #[serde(default)]
    pub timers: u64,
    #[serde(default)]
    pub animations: u64,
    #[serde(default)]
    pub requests: u64,
    #[serde(default)]
    pub windows: u64,
    /// On `cap`: what was still busy (`request <url>`, `setTimeout 400 ms`, `animation ...`,
    /// `damage`, `window mapped, not painted`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub busy: Vec<String>,
    /// What was not waited for: recurring timers (`setInterval`, a timer re-armed by its own
    /// callback), infinite animations, work due after the cap.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
    /// Requests of cross-site frames still running 2 s after they started, not waited for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames_loading: Vec<String>,
    /// Desktop windows that appeared from the action's start to the settle's end (a dialog
    /// a key opened: "Save As").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub windows_opened: Vec<SettledWindow>,
    /// Desktop windows that went away meanwhile.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub windows_closed: Vec<SettledWindow>,
    /// The wait stopped at what a tab's next outline needs (its requests, timers and
    /// animation frames done, the DOM quiet), not its animations and paint: `capture:
    /// "auto"` sent no image. An image, when one is sent, waits for those first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lean: bool,
}

/// A window a settle saw open or close.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SettledWindow {
    pub window_id: String,
    pub title: String,
    #[serde(default)]
    pub app_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Timing {
    pub exec_ms: f64,
    #[serde(default)]
    pub settle_ms: f64,
    #[serde(default)]
    pub capture_ms: f64,
}

/// What an outcome costs an LLM, estimated: the result's text (about 4 bytes per token) and
/// the capture (about 750 pixels per token).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Tokens {
    pub text: u64,
    pub image: u64,
}

/// What an action acted on, frozen before it ran: a browser's tab, or a desktop app and
/// window. Each field is absent when the action did not name or use it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Target {
    Tab(TabTarget),
    Desktop(DesktopTarget),
}

/// A browser action's target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TabTarget {
    /// The models' computer tools: the screen the call drove, `browser`.
    #[serde(rename = "target", default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<Screen>,
    pub browser_id: String,
    /// Absent for an action on the browser as a whole (`tab_list`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab_source: Option<TabSource>,
}

/// How a browser action's tab was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TabSource {
    /// The call named it (`tab_id` or `tab_index`).
    Explicit,
    /// The session's tab.
    Session,
    /// The tab in front, which the session adopts.
    Active,
    /// The tab in front was another session's: the session got a tab of its own.
    New,
    /// With `follow`: the tab the action opened, which the session moved to.
    Followed,
}

/// A desktop action's target.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DesktopTarget {
    /// The models' computer tools: the screen the call drove, `desktop`.
    #[serde(rename = "target", default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<Screen>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// `explicit` (the call named it) or `session` (the session's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<DesktopSource>,
}

/// How a desktop action's app or window was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DesktopSource {
    Explicit,
    Session,
}

/// The screen a native computer-tool call drove.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Screen {
    Browser,
    Desktop,
}

impl Target {
    /// A browser action's tab, chosen as `source` says.
    pub fn of_tab(
        browser_id: impl Into<String>,
        tab_id: impl Into<String>,
        source: TabSource,
    ) -> Self {
        let (browser_id, tab_id) = (browser_id.into(), Some(tab_id.into()));
        Target::Tab(TabTarget { screen: None, browser_id, tab_id, tab_source: Some(source) })
    }

    /// An action on a browser as a whole.
    pub fn of_browser(browser_id: impl Into<String>) -> Self {
        let browser_id = browser_id.into();
        Target::Tab(TabTarget { screen: None, browser_id, tab_id: None, tab_source: None })
    }

    /// A desktop action's app and window, chosen as `source` says.
    pub fn of_desktop(
        app_id: Option<String>,
        window_id: Option<String>,
        source: DesktopSource,
    ) -> Self {
        Target::Desktop(DesktopTarget { screen: None, app_id, window_id, source: Some(source) })
    }

    /// The browser and tab, for a browser action on one tab.
    pub fn tab(&self) -> Option<(&str, &str)> {
        match self {
            Target::Tab(t) => Some((&t.browser_id, t.tab_id.as_deref()?)),
            Target::Desktop(_) => None,
        }
    }

    /// The app, for a desktop action that named one.
    pub fn app_id(&self) -> Option<&str> {
        match self {
            Target::Desktop(d) => d.app_id.as_deref(),
            Target::Tab(_) => None,
        }
    }
}

/// An outcome's capture: the image taken once the screen settled, kept for `capture.get`
/// by its `capture_id`; under `capture: "auto"`, whether it was sent and why (no image
/// when it was not).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Captured {
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Shot>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// A capture's image: a tab's viewport or (part of) the desktop's screen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Shot {
    Tab(crate::results::browser::Image),
    Screen(crate::results::computer::Image),
}

impl Shot {
    /// Its type, width and height in image pixels.
    pub fn size(&self) -> (&str, u32, u32) {
        match self {
            Shot::Tab(i) => (&i.mime, i.width, i.height),
            Shot::Screen(i) => (&i.mime, i.width, i.height),
        }
    }

    /// Its base64 data (empty once taken out).
    pub fn data(&self) -> &str {
        match self {
            Shot::Tab(i) => &i.data,
            Shot::Screen(i) => &i.data,
        }
    }

    /// Its base64 data, to take out.
    pub fn data_mut(&mut self) -> &mut String {
        match self {
            Shot::Tab(i) => &mut i.data,
            Shot::Screen(i) => &mut i.data,
        }
    }
}

/// With `capture: "auto"`: the incremental outline of what an action changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Changes {
    pub snapshot_id: String,
    /// `full`, `incremental` or `continued`.
    pub mode: String,
    pub snapshot: String,
    /// Refs gone since the session's last outline (the first 50).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed_refs: Vec<String>,
    /// The outline was cut: pass it as `cursor` to read on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// The result of every tool call (direct method or inside `tools.call`'s structuredContent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OpOutcome {
    pub op_id: String,
    pub tool: String,
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    pub result: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle: Option<Settle>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture: Option<Captured>,
    /// Why a state-changing action came back without a capture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_capture: Option<String>,
    /// With `capture: "auto"`: the incremental outline of what the action changed (the
    /// target's snapshot diffed against the session's last one, which it then replaces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Changes>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Tokens>,
    pub timing: Timing,
}

impl OpOutcome {
    /// The result as `P`'s typed result (`crate::results`).
    pub fn result_as<P: crate::actions::Params>(&self) -> Result<P::Result, serde_json::Error> {
        P::Result::deserialize(&self.result)
    }
}

/// Where an op is: running, or how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpState {
    Running,
    Succeeded,
    Failed,
    Cancelled,
    TimedOut,
}

impl OpState {
    /// Its word on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            OpState::Running => "running",
            OpState::Succeeded => "succeeded",
            OpState::Failed => "failed",
            OpState::Cancelled => "cancelled",
            OpState::TimedOut => "timed_out",
        }
    }
}

impl std::fmt::Display for OpState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `op.status` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct OpStatus {
    pub op_id: String,
    pub tool: String,
    pub action: String,
    pub state: OpState,
    pub elapsed_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<OpOutcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<crate::error::ErrorData>,
}

/// One pushed event (`events.event` notifications).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Monotonic per daemon; a gap means events were dropped for this subscriber.
    pub seq: u64,
    pub topic: String,
    pub kind: String,
    pub ts_ms: u64,
    #[serde(default)]
    pub data: Value,
    /// Events dropped for this subscriber since the previous one (slow reader).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Captured, Shot};

    /// A capture reads back as the kind of image it is, and one that sent no image as none.
    #[test]
    fn a_capture_reads_back_as_its_kind() {
        let tab = json!({"mime": "image/png", "width": 1280, "height": 800, "scale": 1.0,
            "coordinate_space": "viewport", "full_page": false, "bytes": 3, "data": "QUJD",
            "capture_id": "c1", "sent": true, "why": "a tab opened"});
        let c: Captured = serde_json::from_value(tab.clone()).expect("a tab's capture");
        assert!(matches!(c.image, Some(Shot::Tab(_))), "{c:?}");
        assert_eq!(serde_json::to_value(&c).expect("written"), tab);
        let screen = json!({"mime": "image/png", "width": 10, "height": 10, "scale": 1.0,
            "coordinate_space": "screen", "region": {"x": 5, "y": 6, "width": 10, "height": 10},
            "captured_via": "mit-shm", "timing": {"grab_ms": 1.0, "encode_ms": 2.0},
            "data": "QUJD", "capture_id": "c2"});
        let c: Captured = serde_json::from_value(screen.clone()).expect("a screen capture");
        assert!(matches!(c.image, Some(Shot::Screen(_))), "{c:?}");
        assert_eq!(serde_json::to_value(&c).expect("written"), screen);
        let none = json!({"sent": false, "why": "verified value, no other change"});
        let c: Captured = serde_json::from_value(none.clone()).expect("no image");
        assert!(c.image.is_none() && c.capture_id.is_none(), "{c:?}");
        assert_eq!(serde_json::to_value(&c).expect("written"), none);
    }
}
