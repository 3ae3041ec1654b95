//! Typed results of the `context` tool's actions.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::computer::{App, WindowInfo};
use super::Outline;

// ---- Parts the results share ----

/// What the session has chosen to work on; omitted ids in calls fall back to these.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct Selection {
    /// The selected browser (`chrome-<port>`); null when none.
    pub browser_id: Option<String>,
    /// The selected tab; null when none.
    pub tab_id: Option<String>,
    /// The selected app (`app:<pid>`); null when none.
    pub app_id: Option<String>,
    /// The selected window (`win:0x...`); null when none.
    pub window_id: Option<String>,
}

/// One backend's state, as `session.hello` reports it.
pub use crate::wire::BackendStatus;

/// Why a domain lists nothing.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct DomainError {
    /// The error code (`BACKEND_UNAVAILABLE`, ...).
    pub code: String,
    /// What went wrong and what to do.
    pub message: String,
}

/// A Chromium this daemon drives.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct Browser {
    /// The browser (`chrome-<port>`).
    pub browser_id: String,
    /// Its DevTools port.
    pub port: u16,
    /// Its process id; null when unknown.
    pub pid: Option<u32>,
    /// It is the daemon's own browser, used when a call names none.
    pub default: bool,
    /// `up`, or `down` (the default browser when it is not running).
    pub status: String,
    /// Its product version (`Chrome/126.0...`); empty when down.
    pub version: String,
    /// How many tabs it has.
    pub tabs: usize,
}

/// One tab of a browser.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Tab {
    /// The tab, stable for its life.
    pub tab_id: String,
    /// Its place in the browser's tab order, from 0.
    pub tab_index: usize,
    /// Its URL.
    pub url: String,
    /// Its title.
    pub title: String,
    /// Its mark (`{kind, note, marked_at}`); absent when unmarked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<Value>,
    /// The lane (party) whose tab it is, shown to admins only; absent for the desktop's own
    /// tabs and for a shared browser's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

// ---- Overview and desktop ----

/// `context.get_state`: the selection, apps, windows and browsers, each domain with its error.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct GetState {
    /// The session's selection.
    pub selection: Selection,
    /// This session.
    pub session_id: String,
    /// Mutating calls answer `PAUSED` now: a person paused the session or controls the
    /// desktop.
    pub paused: bool,
    /// Who controls the desktop for this session (`actor 1a2b3c4d`); null when nobody does.
    #[serde(default)]
    pub human_in_control: Option<String>,
    /// This session's calls waiting for an approver, oldest first.
    #[serde(default)]
    pub pending_approvals: Vec<PendingApproval>,
    /// This session's requests for a person (`h-...`) not yet handed back.
    #[serde(default)]
    pub human_requests: Vec<String>,
    /// Apps on the accessibility bus; null when they could not be listed (see apps_error).
    pub apps: Option<Vec<App>>,
    /// Top-level windows; null when they could not be listed (see windows_error).
    pub windows: Option<Vec<WindowInfo>>,
    /// Why apps is null; null when listed.
    pub apps_error: Option<DomainError>,
    /// Why windows is null; null when listed.
    pub windows_error: Option<DomainError>,
    /// The browsers driven; null when they could not be listed (see browsers_error).
    pub browsers: Option<Vec<Browser>>,
    /// Why browsers is null; null when listed.
    pub browsers_error: Option<DomainError>,
    /// Each backend's state, by name.
    pub backends: BTreeMap<String, BackendStatus>,
}

/// A call of the session that an `ask` rule parked for an approver.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct PendingApproval {
    /// The approval (`ap-...`).
    pub approval_id: String,
    /// The op it runs as once granted: re-send the same call with this op_id.
    pub op_id: String,
    /// The call (`browser.navigate`).
    pub method: String,
    /// The policy rule that asks.
    pub rule: String,
    /// When it was asked (UTC, RFC 3339).
    pub since: String,
    /// How long it has waited, in milliseconds.
    pub age_ms: u64,
}

/// `context.list_apps`: the apps on the accessibility bus.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct ListApps {
    /// The apps.
    pub apps: Vec<App>,
    /// How many.
    pub count: usize,
}

/// `context.get_app`: the app selected (or launched) and its outline; an app that never
/// appeared on the accessibility bus has no name, toolkit or snapshot but a reason.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct GetApp {
    /// The app (`app:<pid>`).
    pub app_id: String,
    /// Its process id.
    pub pid: u32,
    /// Its accessible name; absent when it is not accessible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its toolkit (without version); absent when it is not accessible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toolkit: Option<String>,
    /// It is on the accessibility bus (false: use screenshots and real input).
    pub accessible: bool,
    /// This call started it.
    pub launched: bool,
    /// The command line it was started with; null when it was already running.
    pub argv: Option<Vec<String>>,
    /// Its window, now selected; null when it has none.
    pub window_id: Option<String>,
    /// A launched app's window is active; null when not launched.
    pub window_active: Option<bool>,
    /// Why there is no outline; absent when it is accessible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Its outline; absent when it is not accessible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<Outline>,
}

/// `context.list_windows`: the top-level windows (of app_id when given).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct ListWindows {
    /// The windows.
    pub windows: Vec<WindowInfo>,
    /// How many.
    pub count: usize,
}

/// `context.focus_window`: whether the window really is active now.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct FocusWindow {
    /// The window asked for.
    pub window_id: String,
    /// True only when it is the active window now.
    pub focus_verified: bool,
    /// Its state afterwards; null when it is gone.
    pub window: Option<WindowInfo>,
}

// ---- Browsers ----

/// `context.list_browsers`: the browsers this daemon drives.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct ListBrowsers {
    /// The browsers.
    pub browsers: Vec<Browser>,
    /// The session's selected browser; null when none.
    pub selected: Option<String>,
}

/// `context.get_browser`: the browser selected with its tabs, or (with url) the one tab.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct GetBrowser {
    /// The browser, now selected.
    pub browser_id: String,
    /// With url: the tab found, now selected; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<Tab>,
    /// Without url: the browser's tabs; absent with url.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tabs: Option<Vec<Tab>>,
    /// Without url: its front tab, now selected; absent with url.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected_tab: Option<String>,
}

// ---- People and the contract ----

/// A window that opened or closed during a takeover.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct WindowChange {
    /// The window; null when the event did not say.
    pub window_id: Option<String>,
    /// Its title; null when the event did not say.
    pub title: Option<String>,
    /// Its app; null when unknown.
    pub app_id: Option<String>,
}

/// A tab that opened, navigated or closed during a takeover.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct TabChange {
    /// The tab; null when the event did not say.
    pub tab_id: Option<String>,
    /// Its URL; null for a closed tab.
    pub url: Option<String>,
}

/// What changed while a person had control, grouped the way an agent looks again.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct TakeoverChanges {
    /// Windows opened.
    pub windows_opened: Vec<WindowChange>,
    /// Windows closed.
    pub windows_closed: Vec<WindowChange>,
    /// Tabs opened.
    pub tabs_opened: Vec<TabChange>,
    /// Tabs navigated.
    pub tabs_navigated: Vec<TabChange>,
    /// Tabs closed.
    pub tabs_closed: Vec<TabChange>,
}

/// A takeover that ended: who had control, for how long, and what changed.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct Takeover {
    /// Who had control (`actor 1a2b3c4d`).
    pub by: String,
    /// It covered every session (an admin's takeover).
    pub all_sessions: bool,
    /// How long it lasted, in milliseconds.
    pub duration_ms: u64,
    /// What changed meanwhile.
    pub changed: TakeoverChanges,
    /// The help requests the hand-back answered.
    pub requests: Vec<String>,
}

/// `context.request_human`: the hand-back, or that the request is still pending.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct RequestHuman {
    /// The request (`h-...`).
    pub request_id: String,
    /// The person handed control back, answering it.
    pub handed_back: bool,
    /// Handed back: the takeover that ended; absent while pending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeover: Option<Takeover>,
    /// Pending: `pending`; absent when handed back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Pending: what to do next; absent when handed back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// `context.put_file`: the file stored.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct PutFile {
    /// Its name: what `browser.upload`'s files take.
    pub name: String,
    /// Where it is (under the first file root).
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
}

/// An error code the daemon may answer with.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct ErrorDoc {
    /// The code in `error.data.code`.
    pub code: String,
    /// The JSON-RPC error code.
    pub rpc_code: i32,
    /// What it means.
    pub meaning: String,
}

/// The actions of a backend that cannot run now, and why.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct Unavailable {
    /// Why the backend cannot run them.
    pub reason: String,
    /// The actions.
    pub actions: Vec<String>,
}

/// Which of a tool's actions can run now.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
pub struct Capabilities {
    /// Actions that can run now.
    pub available: Vec<String>,
    /// The others, by backend.
    pub unavailable: BTreeMap<String, Unavailable>,
}

/// `context.documentation`: the contract, with each backend's state and what can run now.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Documentation {
    /// The protocol version.
    pub protocol: u32,
    /// The contract's version (a hash of the table).
    pub contract_version: String,
    /// Every tool: description, common parameters, actions and parameter schemas.
    pub tools: Vec<Value>,
    /// Rules every client must know, by topic.
    pub rules: BTreeMap<String, String>,
    /// Every error code.
    pub errors: Vec<ErrorDoc>,
    /// The op keys a call may carry beside its params.
    pub op_keys: Vec<String>,
    /// Per tool, which actions can run now.
    pub capabilities: BTreeMap<String, Capabilities>,
    /// Each backend's state, by name.
    pub backends: BTreeMap<String, BackendStatus>,
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeOwned;
    use serde::Serialize;
    use serde_json::{json, Value};

    /// `v` read into `T` and written back is `v`.
    fn round_trip<T: Serialize + DeserializeOwned>(v: &Value) {
        let typed: T = serde_json::from_value(v.clone()).expect("reads");
        assert_eq!(&serde_json::to_value(&typed).expect("writes"), v);
    }

    #[test]
    fn get_state_sends_null_domains_with_their_errors() {
        round_trip::<super::GetState>(&json!({
            "selection": {"browser_id": "chrome-9222", "tab_id": null, "app_id": null,
                          "window_id": null},
            "session_id": "s-0123", "paused": true, "human_in_control": "actor 1a2b3c4d",
            "pending_approvals": [{"approval_id": "ap-3", "op_id": "o-1",
                                   "method": "browser.navigate", "rule": "ask-sites",
                                   "since": "2026-07-28T09:41:07Z", "age_ms": 4200}],
            "human_requests": ["h-0123456789abcdef"],
            "apps": null, "windows": null,
            "apps_error": {"code": "BACKEND_UNAVAILABLE", "message": "no desktop"},
            "windows_error": {"code": "BACKEND_UNAVAILABLE", "message": "no desktop"},
            "browsers": [{"browser_id": "chrome-9222", "port": 9222, "pid": 77, "default": true,
                          "status": "up", "version": "Chrome/126.0", "tabs": 2}],
            "browsers_error": null,
            "backends": {"browser": {"status": "ready", "version": "126.0"},
                         "desktop": {"status": "down", "reason": "no display"}},
        }));
    }

    #[test]
    fn get_app_answers_an_inaccessible_launch_and_an_accessible_app() {
        round_trip::<super::GetApp>(&json!({
            "app_id": "app:501", "pid": 501, "accessible": false, "launched": true,
            "argv": ["xterm"], "window_id": "win:0x1e00002", "window_active": true,
            "reason": "the process runs but never appeared on the accessibility bus",
        }));
        round_trip::<super::GetApp>(&json!({
            "app_id": "app:42", "pid": 42, "name": "gedit", "toolkit": "GTK",
            "accessible": true, "launched": false, "argv": null, "window_id": null,
            "window_active": null,
            "snapshot": {"snapshot_id": "s1", "mode": "full", "snapshot": "frame \"gedit\" [e1]",
                         "ref_count": 1, "lines": 1, "truncated": false, "token_estimate": 5},
        }));
    }

    #[test]
    fn request_human_handed_back_and_pending() {
        round_trip::<super::RequestHuman>(&json!({
            "request_id": "h-0123456789abcdef", "handed_back": true,
            "takeover": {"by": "actor 1a2b3c4d", "all_sessions": false, "duration_ms": 5400,
                "changed": {"windows_opened": [{"window_id": "win:0x3", "title": "Login",
                                                 "app_id": null}],
                            "windows_closed": [], "tabs_opened": [],
                            "tabs_navigated": [{"tab_id": "t1", "url": "https://example.com/"}],
                            "tabs_closed": [{"tab_id": "t2", "url": null}]},
                "requests": ["h-0123456789abcdef"]},
        }));
        round_trip::<super::RequestHuman>(&json!({
            "request_id": "h-0123456789abcdef", "handed_back": false, "state": "pending",
            "next": "wait for the takeover.ended event or poll session.status",
        }));
    }
}

/// One named secret as the agent may know it: never its value.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq)]
pub struct SecretInfo {
    /// The name `secret` and `secret_totp` take.
    pub name: String,
    /// The origins (`https://github.com`) a page must have for it to be typed there.
    pub origins: Vec<String>,
    /// The desktop apps (by name) `computer.type` may type it into.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apps: Vec<String>,
    /// Whether it has a TOTP seed (`secret_totp`).
    pub totp: bool,
}

/// `context.list_secrets`: the secrets by name.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Eq)]
pub struct ListSecrets {
    pub secrets: Vec<SecretInfo>,
}
