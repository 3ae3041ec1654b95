//! Typed params of the `context` tool's actions, generated from the contract table
//! (`protocol/src/contract/context.rs`) by `cargo xtask codegen`; do not edit.
//!
//! Discover and select apps, windows, browsers and tabs. Start here; ids come from these answers,
//! never guesses.

// The contract's docs quote URLs as examples, not as links.
#![allow(rustdoc::bare_urls)]

use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::{keys, Element, Missing, Params, Region};

/// `context.get_state`: apps, browsers, windows and the session's selection; each domain reports
/// its own error. Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GetState", into = "wire::GetState")]
pub struct GetState {}

impl Default for GetState {
    /// Every param at the table's default.
    fn default() -> Self {
        GetState {}
    }
}

impl Params for GetState {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "get_state";
    type Result = crate::results::context::GetState;
}

/// `context.list_apps`: apps on the accessibility bus; returns app_id, pid, toolkit, windows and
/// responding (false: the app did not answer in time and is listed as last seen). Observes only
/// (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::ListApps", into = "wire::ListApps")]
pub struct ListApps {}

impl Default for ListApps {
    /// Every param at the table's default.
    fn default() -> Self {
        ListApps {}
    }
}

impl Params for ListApps {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "list_apps";
    type Result = crate::results::context::ListApps;
}

/// `context.get_app`: select an app and return its snapshot; several matches give candidates; a
/// launched app's window is waited for and made active (window_id, window_active) unless
/// background. Starts processes (actor role; the approval policy treats it as exec).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GetApp", into = "wire::GetApp")]
pub struct GetApp {
    /// **Required.** app id (app:\<pid\>), name, desktop entry, or executable name or path. Not
    /// empty.
    pub app: String,
    /// start the app when it is not running (argv, never a shell). Default false.
    pub launch: bool,
    /// with launch: leave the new window inactive (where the window manager put it). Default false.
    pub background: bool,
}

impl GetApp {
    /// The required params; every other one at the table's default.
    pub fn new(app: impl Into<String>) -> Self {
        GetApp { app: app.into(), launch: false, background: false }
    }
}

impl Params for GetApp {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "get_app";
    type Result = crate::results::context::GetApp;
}

/// `context.list_windows`: top-level windows; returns window_id, app_id, pid, title, frame and
/// state. Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::ListWindows", into = "wire::ListWindows")]
pub struct ListWindows {
    /// app id app:\<pid\> from list_apps.
    pub app_id: Option<String>,
}

impl Default for ListWindows {
    /// Every param at the table's default.
    fn default() -> Self {
        ListWindows { app_id: None }
    }
}

impl Params for ListWindows {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "list_windows";
    type Result = crate::results::context::ListWindows;
}

/// `context.focus_window`: activate a window; focus_verified is true only when it really is active.
/// Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::FocusWindow", into = "wire::FocusWindow")]
pub struct FocusWindow {
    /// **Required.** window id from list_windows.
    pub window_id: String,
}

impl FocusWindow {
    /// The required params; every other one at the table's default.
    pub fn new(window_id: impl Into<String>) -> Self {
        FocusWindow { window_id: window_id.into() }
    }
}

impl Params for FocusWindow {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "focus_window";
    type Result = crate::results::context::FocusWindow;
}

/// `context.list_browsers`: the Chromiums this daemon drives (its own, --browser-allow ones:
/// browser_id, pid, default, status, tabs). Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::ListBrowsers", into = "wire::ListBrowsers")]
pub struct ListBrowsers {}

impl Default for ListBrowsers {
    /// Every param at the table's default.
    fn default() -> Self {
        ListBrowsers {}
    }
}

impl Params for ListBrowsers {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "list_browsers";
    type Result = crate::results::context::ListBrowsers;
}

/// `context.get_browser`: select a browser (the default one starts on demand) or the one tab with a
/// URL. Mutating (actor role); a capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::GetBrowser", into = "wire::GetBrowser")]
pub struct GetBrowser {
    /// browser id chrome-\<port\> from list_browsers.
    pub browser_id: Option<String>,
    /// the one tab whose URL is this (or starts with it and / ? #).
    pub url: Option<String>,
}

impl Default for GetBrowser {
    /// Every param at the table's default.
    fn default() -> Self {
        GetBrowser { browser_id: None, url: None }
    }
}

impl Params for GetBrowser {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "get_browser";
    type Result = crate::results::context::GetBrowser;
}

/// `context.request_human`: ask a person for help (login, CAPTCHA, 2FA) on the view page; waits for
/// the hand-back. Asks a person (actor and admin roles); runs while a person is in control.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::RequestHuman", into = "wire::RequestHuman")]
pub struct RequestHuman {
    /// **Required.** what to do. Not empty.
    pub reason: String,
    /// the tab (from tab_list) the person should look at.
    pub tab_id: Option<String>,
    /// window id from list_windows.
    pub window_id: Option<String>,
}

impl RequestHuman {
    /// The required params; every other one at the table's default.
    pub fn new(reason: impl Into<String>) -> Self {
        RequestHuman { reason: reason.into(), tab_id: None, window_id: None }
    }
}

impl Params for RequestHuman {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "request_human";
    type Result = crate::results::context::RequestHuman;
}

/// `context.put_file`: store a file to upload. Mutating (actor role); a capture follows unless the
/// call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::PutFile", into = "wire::PutFile")]
pub struct PutFile {
    /// **Required.** file name. Not empty.
    pub name: String,
    /// **Required.** base64, up to 8 MiB.
    pub data: String,
}

impl PutFile {
    /// The required params; every other one at the table's default.
    pub fn new(name: impl Into<String>, data: impl Into<String>) -> Self {
        PutFile { name: name.into(), data: data.into() }
    }
}

impl Params for PutFile {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "put_file";
    type Result = crate::results::context::PutFile;
}

/// `context.list_secrets`: named secrets (never a value); returns name, origins (and apps) each may
/// be typed into, totp. Reads what observers may not (actor and admin roles).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::ListSecrets", into = "wire::ListSecrets")]
pub struct ListSecrets {}

impl Default for ListSecrets {
    /// Every param at the table's default.
    fn default() -> Self {
        ListSecrets {}
    }
}

impl Params for ListSecrets {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "list_secrets";
    type Result = crate::results::context::ListSecrets;
}

/// `context.documentation`: this contract (every action's parameters, identity, coordinate and
/// timing rules, and each backend's capabilities). Observes only (observer tokens may call it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Documentation", into = "wire::Documentation")]
pub struct Documentation {
    /// browser id chrome-\<port\> from list_browsers.
    pub browser_id: Option<String>,
    /// app id app:\<pid\> from list_apps.
    pub app_id: Option<String>,
}

impl Default for Documentation {
    /// Every param at the table's default.
    fn default() -> Self {
        Documentation { browser_id: None, app_id: None }
    }
}

impl Params for Documentation {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "documentation";
    type Result = crate::results::context::Documentation;
}

/// Every action's params struct by action name, read from a checked call and written back (for the tests).
pub static ROUND_TRIPS: &[(&str, super::RoundTrip)] = &[
    ("get_state", super::round_trip::<GetState>),
    ("list_apps", super::round_trip::<ListApps>),
    ("get_app", super::round_trip::<GetApp>),
    ("list_windows", super::round_trip::<ListWindows>),
    ("focus_window", super::round_trip::<FocusWindow>),
    ("list_browsers", super::round_trip::<ListBrowsers>),
    ("get_browser", super::round_trip::<GetBrowser>),
    ("request_human", super::round_trip::<RequestHuman>),
    ("put_file", super::round_trip::<PutFile>),
    ("list_secrets", super::round_trip::<ListSecrets>),
    ("documentation", super::round_trip::<Documentation>),
];

/// Every action's result schema by action name (`crate::results::context`).
pub static RESULT_SCHEMAS: &[(&str, super::ResultSchema)] = &[
    ("get_state", <GetState as Params>::result_schema),
    ("list_apps", <ListApps as Params>::result_schema),
    ("get_app", <GetApp as Params>::result_schema),
    ("list_windows", <ListWindows as Params>::result_schema),
    ("focus_window", <FocusWindow as Params>::result_schema),
    ("list_browsers", <ListBrowsers as Params>::result_schema),
    ("get_browser", <GetBrowser as Params>::result_schema),
    ("request_human", <RequestHuman as Params>::result_schema),
    ("put_file", <PutFile as Params>::result_schema),
    ("list_secrets", <ListSecrets as Params>::result_schema),
    ("documentation", <Documentation as Params>::result_schema),
];

/// The flat JSON shape of each action's params, as the wire has it: what the typed structs serialize to and deserialize from.
#[doc(hidden)]
pub mod wire {
    use serde::{Deserialize, Serialize};

    #[allow(unused_imports)]
    use super::super::{keys, Element, Missing, Region};
    #[allow(unused_imports)]
    use super::*;

    #[derive(Serialize, Deserialize, Default)]
    pub struct GetState {}

    impl From<super::GetState> for GetState {
        fn from(_: super::GetState) -> Self {
            GetState {}
        }
    }

    impl TryFrom<GetState> for super::GetState {
        type Error = Missing;

        fn try_from(_: GetState) -> Result<Self, Missing> {
            Ok(super::GetState {})
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct ListApps {}

    impl From<super::ListApps> for ListApps {
        fn from(_: super::ListApps) -> Self {
            ListApps {}
        }
    }

    impl TryFrom<ListApps> for super::ListApps {
        type Error = Missing;

        fn try_from(_: ListApps) -> Result<Self, Missing> {
            Ok(super::ListApps {})
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct GetApp {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub app: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub launch: Option<bool>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub background: Option<bool>,
    }

    impl From<super::GetApp> for GetApp {
        fn from(v: super::GetApp) -> Self {
            GetApp {
                app: Some(v.app),
                launch: v.launch.then_some(true),
                background: v.background.then_some(true),
            }
        }
    }

    impl TryFrom<GetApp> for super::GetApp {
        type Error = Missing;

        fn try_from(w: GetApp) -> Result<Self, Missing> {
            Ok(super::GetApp {
                app: w.app.ok_or(Missing("app"))?,
                launch: w.launch.unwrap_or(false),
                background: w.background.unwrap_or(false),
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct ListWindows {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub app_id: Option<String>,
    }

    impl From<super::ListWindows> for ListWindows {
        fn from(v: super::ListWindows) -> Self {
            ListWindows { app_id: v.app_id }
        }
    }

    impl TryFrom<ListWindows> for super::ListWindows {
        type Error = Missing;

        fn try_from(w: ListWindows) -> Result<Self, Missing> {
            Ok(super::ListWindows { app_id: w.app_id })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct FocusWindow {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub window_id: Option<String>,
    }

    impl From<super::FocusWindow> for FocusWindow {
        fn from(v: super::FocusWindow) -> Self {
            FocusWindow { window_id: Some(v.window_id) }
        }
    }

    impl TryFrom<FocusWindow> for super::FocusWindow {
        type Error = Missing;

        fn try_from(w: FocusWindow) -> Result<Self, Missing> {
            Ok(super::FocusWindow { window_id: w.window_id.ok_or(Missing("window_id"))? })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct ListBrowsers {}

    impl From<super::ListBrowsers> for ListBrowsers {
        fn from(_: super::ListBrowsers) -> Self {
            ListBrowsers {}
        }
    }

    impl TryFrom<ListBrowsers> for super::ListBrowsers {
        type Error = Missing;

        fn try_from(_: ListBrowsers) -> Result<Self, Missing> {
            Ok(super::ListBrowsers {})
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct GetBrowser {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub browser_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub url: Option<String>,
    }

    impl From<super::GetBrowser> for GetBrowser {
        fn from(v: super::GetBrowser) -> Self {
            GetBrowser { browser_id: v.browser_id, url: v.url }
        }
    }

    impl TryFrom<GetBrowser> for super::GetBrowser {
        type Error = Missing;

        fn try_from(w: GetBrowser) -> Result<Self, Missing> {
            Ok(super::GetBrowser { browser_id: w.browser_id, url: w.url })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct RequestHuman {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub reason: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub tab_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub window_id: Option<String>,
    }

    impl From<super::RequestHuman> for RequestHuman {
        fn from(v: super::RequestHuman) -> Self {
            RequestHuman { reason: Some(v.reason), tab_id: v.tab_id, window_id: v.window_id }
        }
    }

    impl TryFrom<RequestHuman> for super::RequestHuman {
        type Error = Missing;

        fn try_from(w: RequestHuman) -> Result<Self, Missing> {
            Ok(super::RequestHuman {
                reason: w.reason.ok_or(Missing("reason"))?,
                tab_id: w.tab_id,
                window_id: w.window_id,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct PutFile {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub name: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub data: Option<String>,
    }

    impl From<super::PutFile> for PutFile {
        fn from(v: super::PutFile) -> Self {
            PutFile { name: Some(v.name), data: Some(v.data) }
        }
    }

    impl TryFrom<PutFile> for super::PutFile {
        type Error = Missing;

        fn try_from(w: PutFile) -> Result<Self, Missing> {
            Ok(super::PutFile {
                name: w.name.ok_or(Missing("name"))?,
                data: w.data.ok_or(Missing("data"))?,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct ListSecrets {}

    impl From<super::ListSecrets> for ListSecrets {
        fn from(_: super::ListSecrets) -> Self {
            ListSecrets {}
        }
    }

    impl TryFrom<ListSecrets> for super::ListSecrets {
        type Error = Missing;

        fn try_from(_: ListSecrets) -> Result<Self, Missing> {
            Ok(super::ListSecrets {})
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Documentation {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub browser_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub app_id: Option<String>,
    }

    impl From<super::Documentation> for Documentation {
        fn from(v: super::Documentation) -> Self {
            Documentation { browser_id: v.browser_id, app_id: v.app_id }
        }
    }

    impl TryFrom<Documentation> for super::Documentation {
        type Error = Missing;

        fn try_from(w: Documentation) -> Result<Self, Missing> {
            Ok(super::Documentation { browser_id: w.browser_id, app_id: w.app_id })
        }
    }
}
