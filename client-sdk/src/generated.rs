//! Typed params and calls for every contract action, generated from the contract table by `cargo
//! xtask codegen`; do not edit.
//!
//! Each action has a params struct (`BrowserClick` for `browser.click`) whose fields are all
//! `Option` and skipped when `None`, and a method on [`Client`] returning a [`PendingCall`] to
//! await. Params the action requires say so in their docs; the daemon refuses a call without them
//! (`CONTRACT_VIOLATION`) before any side effect.

// The contract's docs quote URLs as examples, not as links.
#![allow(rustdoc::bare_urls)]

use serde::Serialize;

#[allow(unused_imports)]
use crate::{ActionArgs, Client, PendingCall, Region};

/// `context.get_state`: apps, browsers, windows and the session's selection; each domain reports
/// its own error. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ContextGetState {}

impl ActionArgs for ContextGetState {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "get_state";
}

/// `context.list_apps`: apps on the accessibility bus with app_id, pid, toolkit, windows and
/// responding (false: the app did not answer in time and is listed as last seen). Observes only
/// (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ContextListApps {}

impl ActionArgs for ContextListApps {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "list_apps";
}

/// `context.get_app`: select an app and return its snapshot; several matches give candidates; a
/// launched app's window is waited for and made active (window_id, window_active) unless
/// background. Starts processes (actor role; the approval policy treats it as exec).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ContextGetApp {
    /// **Required.** app id (app:\<pid\>), name, desktop entry, or executable name or path. Not
    /// empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
    /// start the app when it is not running (argv, never a shell). Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch: Option<bool>,
    /// with launch: leave the new window where the window manager put it instead of making it the
    /// active window. Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<bool>,
}

impl ActionArgs for ContextGetApp {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "get_app";
}

/// `context.list_windows`: top-level windows with window_id, app_id, pid, title, frame and state.
/// Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ContextListWindows {
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
}

impl ActionArgs for ContextListWindows {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "list_windows";
}

/// `context.focus_window`: activate a window; focus_verified is true only when it really is active.
/// Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ContextFocusWindow {
    /// **Required.** window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
}

impl ActionArgs for ContextFocusWindow {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "focus_window";
}

/// `context.list_browsers`: Chromium instances with a debugging port: browser_id, pid, default,
/// status, tabs. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ContextListBrowsers {}

impl ActionArgs for ContextListBrowsers {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "list_browsers";
}

/// `context.get_browser`: select a browser (the default one starts on demand) or the one tab with a
/// URL. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ContextGetBrowser {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// select the one tab whose URL is this, or starts with it followed by / ? #.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

impl ActionArgs for ContextGetBrowser {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "get_browser";
}

/// `context.documentation`: this contract: every action's parameters, identity, coordinate and
/// timing rules, and each backend's capabilities. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ContextDocumentation {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
}

impl ActionArgs for ContextDocumentation {
    const TOOL: &'static str = "context";
    const ACTION: &'static str = "documentation";
}

/// Typed calls of the `context` tool.
impl Client {
    /// `context.get_state`: apps, browsers, windows and the session's selection; each domain
    /// reports its own error. Observes only (observer tokens may call it).
    pub fn context_get_state(&self, args: ContextGetState) -> PendingCall<'_, ContextGetState> {
        PendingCall::new(self, args)
    }

    /// `context.list_apps`: apps on the accessibility bus with app_id, pid, toolkit, windows and
    /// responding (false: the app did not answer in time and is listed as last seen). Observes only
    /// (observer tokens may call it).
    pub fn context_list_apps(&self, args: ContextListApps) -> PendingCall<'_, ContextListApps> {
        PendingCall::new(self, args)
    }

    /// `context.get_app`: select an app and return its snapshot; several matches give candidates; a
    /// launched app's window is waited for and made active (window_id, window_active) unless
    /// background. Starts processes (actor role; the approval policy treats it as exec).
    pub fn context_get_app(&self, args: ContextGetApp) -> PendingCall<'_, ContextGetApp> {
        PendingCall::new(self, args)
    }

    /// `context.list_windows`: top-level windows with window_id, app_id, pid, title, frame and
    /// state. Observes only (observer tokens may call it).
    pub fn context_list_windows(
        &self,
        args: ContextListWindows,
    ) -> PendingCall<'_, ContextListWindows> {
        PendingCall::new(self, args)
    }

    /// `context.focus_window`: activate a window; focus_verified is true only when it really is
    /// active. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn context_focus_window(
        &self,
        args: ContextFocusWindow,
    ) -> PendingCall<'_, ContextFocusWindow> {
        PendingCall::new(self, args)
    }

    /// `context.list_browsers`: Chromium instances with a debugging port: browser_id, pid, default,
    /// status, tabs. Observes only (observer tokens may call it).
    pub fn context_list_browsers(
        &self,
        args: ContextListBrowsers,
    ) -> PendingCall<'_, ContextListBrowsers> {
        PendingCall::new(self, args)
    }

    /// `context.get_browser`: select a browser (the default one starts on demand) or the one tab
    /// with a URL. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn context_get_browser(
        &self,
        args: ContextGetBrowser,
    ) -> PendingCall<'_, ContextGetBrowser> {
        PendingCall::new(self, args)
    }

    /// `context.documentation`: this contract: every action's parameters, identity, coordinate and
    /// timing rules, and each backend's capabilities. Observes only (observer tokens may call it).
    pub fn context_documentation(
        &self,
        args: ContextDocumentation,
    ) -> PendingCall<'_, ContextDocumentation> {
        PendingCall::new(self, args)
    }
}

/// `browser.navigate`: open url in the tab and wait until it is interactive; returns the final url.
/// Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserNavigate {
    /// **Required.** the address to open, e.g. https://example.com/ (a bare host means http://).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// readiness deadline in ms for a state or an element. Range 1..=60000. Default 30000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<i64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserNavigate {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "navigate";
}

/// `browser.click`: click an element or a viewport point; returns what was clicked and where.
/// Target: ref|selector or x,y / nx,ny. Mutating (actor role); a capture follows unless
/// `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserClick {
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button: Option<String>,
    /// 1 single, 2 double, 3 triple click. Range 1..=3. Default 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub click_count: Option<i64>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// viewport x in CSS pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// viewport y in CSS pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserClick {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "click";
}

/// `browser.double_click`: double-click an element or a viewport point; returns what was clicked
/// and where. Target: ref|selector or x,y / nx,ny. Mutating (actor role); a capture follows unless
/// `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserDoubleClick {
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button: Option<String>,
    /// always 2 for double_click; omit it. Range 1..=3. Default 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub click_count: Option<i64>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// viewport x in CSS pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// viewport y in CSS pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserDoubleClick {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "double_click";
}

/// `browser.hover`: move the mouse over an element or a viewport point; returns the point. Target:
/// ref|selector or x,y / nx,ny. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserHover {
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// viewport x in CSS pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// viewport y in CSS pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserHover {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "hover";
}

/// `browser.focus`: focus an element; returns the element that really has focus. Target:
/// ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserFocus {
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserFocus {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "focus";
}

/// `browser.type`: type text at the caret of an element (mode insert, or keys: key events per
/// character); read back; returns the text typed, the value and verified. Target: ref|selector.
/// Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserType {
    /// **Required.** the text, exactly as it should appear. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// insert: one insertText; keys: key events per character, for pages that listen to keys
    /// (terminals, editors, games: keydown/keypress/input/keyup as a US keyboard sends them, with
    /// key, code, keyCode and shift; characters beyond the US layout as keydown/keyup whose key and
    /// text are the character; insert is fast and sends no key events). One of `insert`, `keys`.
    /// Default `insert`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserType {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "type";
}

/// `browser.fill`: replace the value of any field a person types into or picks in (text-like
/// inputs, textarea, contenteditable, number, date, time, datetime-local, month, week, color,
/// range, \<select\> by value or label, values for a multiple select) and read it back; returns the
/// value; NOT_EDITABLE names what fits instead (upload for a file input, check for a checkbox).
/// Target: ref|selector. Mutating (actor role); a capture follows unless `capture(false)`. `text`
/// and `values` are exclusive.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserFill {
    /// the new content ("" clears the field): text for text-like fields and contenteditable, the
    /// ISO value for date (2012-07-28), time (13:45), datetime-local (2012-07-28T13:45), month
    /// (2012-07), week (2012-W30), #rrggbb for color, a number for number and range, an option's
    /// value or label for a \<select\>; exclusive with values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// for a \<select multiple\>: every option to select (each by value, else by label; the rest
    /// are deselected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserFill {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "fill";
}

/// `browser.set_value`: set a field's value (the native setter, then input/change); returns the
/// value. Target: ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserSetValue {
    /// **Required.** the value to set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserSetValue {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "set_value";
}

/// `browser.select`: choose the option with this value, else this label (in a \<select\>; it must
/// exist; option lines show value="..." where it differs from the label; or several with values in
/// a multiple one); returns the value. Target: ref|selector. Mutating (actor role); a capture
/// follows unless `capture(false)`. `value` and `values` are exclusive.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserSelect {
    /// the option's value, else its label (its visible text); exclusive with values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// for a \<select multiple\>: every option to select (each by value, else by label; the rest
    /// are deselected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserSelect {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "select";
}

/// `browser.check`: check a checkbox or radio button; returns the verified final state. Target:
/// ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserCheck {
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserCheck {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "check";
}

/// `browser.uncheck`: uncheck a checkbox; returns the verified final state. Target: ref|selector.
/// Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserUncheck {
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserUncheck {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "uncheck";
}

/// `browser.paste`: paste text as a real paste event into an element or the focus; returns how it
/// landed. Optional target: ref|selector. Mutating (actor role); a capture follows unless
/// `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserPaste {
    /// **Required.** what to paste. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// paste: text, html or markdown (default text); screenshots: png, jpeg or webp (default png).
    /// One of `png`, `jpeg`, `webp`, `text`, `html`, `markdown`. Default `text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserPaste {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "paste";
}

/// `browser.select_text`: select the unique match of text in an element, or put the caret next to
/// it; returns the offsets. Target: ref|selector. Mutating (actor role); a capture follows unless
/// `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserSelectText {
    /// **Required.** the text to find; it must match exactly once. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// text right before the match, to make it unique. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// text right after the match, to make it unique. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
    /// select the match, or put the caret before or after it. One of `select`, `cursor_before`,
    /// `cursor_after`. Default `select`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection_type: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserSelectText {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "select_text";
}

/// `browser.secondary_action`: run a named element action; the DOM has none, so this returns
/// UNSUPPORTED with the reason. Target: ref|selector. Mutating (actor role); a capture follows
/// unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserSecondaryAction {
    /// **Required.** the action's name; the DOM has no such actions, so this is UNSUPPORTED. Not
    /// empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserSecondaryAction {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "secondary_action";
}

/// `browser.press`: press a key or chord (releasing modifiers even on failure); returns the chord.
/// Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserPress {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserPress {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "press";
}

/// `browser.keyboard_type`: type text into the focused element, or into ref/selector focused first
/// (mode insert, or keys: key events per character); returns the text. Optional target:
/// ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserKeyboardType {
    /// **Required.** the text, exactly as it should appear. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// insert: one insertText; keys: key events per character, for pages that listen to keys
    /// (terminals, editors, games: keydown/keypress/input/keyup as a US keyboard sends them, with
    /// key, code, keyCode and shift; characters beyond the US layout as keydown/keyup whose key and
    /// text are the character; insert is fast and sends no key events). One of `insert`, `keys`.
    /// Default `insert`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserKeyboardType {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "keyboard_type";
}

/// `browser.keydown`: hold a key down; later presses include it; returns the keys held. Mutating
/// (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserKeydown {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserKeydown {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "keydown";
}

/// `browser.keyup`: release a held key; returns the keys still held. Mutating (actor role); a
/// capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserKeyup {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserKeyup {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "keyup";
}

/// `browser.scroll`: scroll an element, at a point or the page (by pixels or pages); returns the
/// position before and after. Optional target: ref|selector or x,y / nx,ny. Mutating (actor role);
/// a capture follows unless `capture(false)`. `amount` and `pages` are exclusive.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserScroll {
    /// scroll direction. One of `up`, `down`, `left`, `right`. Default `down`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    /// distance in pixels (exclusive with pages). Range 1..=10000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    /// distance in pages of the scrolled box. Range 0.1..=20.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<f64>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// viewport x in CSS pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// viewport y in CSS pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserScroll {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "scroll";
}

/// `browser.scroll_into_view`: scroll an element to the middle of the viewport; returns its box.
/// Target: ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserScrollIntoView {
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserScrollIntoView {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "scroll_into_view";
}

/// `browser.drag`: drag from an element or point to a drop target (releasing the button on
/// failure); returns both points. Target: ref|selector or x,y / nx,ny. Mutating (actor role); a
/// capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserDrag {
    /// drop on this element ref from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_ref: Option<String>,
    /// drop on the first match of this CSS selector. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_selector: Option<String>,
    /// drop point x in CSS viewport pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_x: Option<f64>,
    /// drop point y in CSS viewport pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_y: Option<f64>,
    /// drop point x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_nx: Option<f64>,
    /// drop point y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_ny: Option<f64>,
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// viewport x in CSS pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// viewport y in CSS pixels. Range 0.0..=100000.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserDrag {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "drag";
}

/// `browser.upload`: set the files of a file input; returns the files set. Target: ref|selector.
/// Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserUpload {
    /// **Required.** paths inside the workspace; each must exist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserUpload {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "upload";
}

/// `browser.wait`: wait for an element (timeout, state) or pause for duration_ms; returns what was
/// waited for and how long. Optional target: ref|selector. Observes only (observer tokens may call
/// it). `timeout` and `duration_ms` are exclusive.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserWait {
    /// how long to wait in ms (30000 when omitted) (exclusive with duration_ms). Range 1..=60000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<i64>,
    /// a fixed pause in ms (exclusive with timeout). Range 0..=60000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<i64>,
    /// what the target should become (visible when omitted); needs ref or selector. One of
    /// `visible`, `hidden`, `attached`, `detached`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserWait {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "wait";
}

/// `browser.dialog`: accept or dismiss the open dialog (alert, confirm, prompt, beforeunload);
/// returns its type and message. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserDialog {
    /// accept (OK) or dismiss (Cancel) the dialog. Default true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accept: Option<bool>,
    /// the answer to a prompt() dialog.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_text: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserDialog {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "dialog";
}

/// `browser.go_back`: go one step back in the tab's history and wait until ready; returns the url.
/// Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserGoBack {
    /// readiness deadline in ms for a state or an element. Range 1..=60000. Default 30000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<i64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserGoBack {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "go_back";
}

/// `browser.go_forward`: go one step forward in the tab's history and wait until ready; returns the
/// url. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserGoForward {
    /// readiness deadline in ms for a state or an element. Range 1..=60000. Default 30000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<i64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserGoForward {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "go_forward";
}

/// `browser.reload`: reload the tab and wait until ready; returns the url. Mutating (actor role); a
/// capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserReload {
    /// readiness deadline in ms for a state or an element. Range 1..=60000. Default 30000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<i64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserReload {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "reload";
}

/// `browser.tab_new`: open a tab (about:blank without url) and make it the session's tab; returns
/// its tab_id. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserTabNew {
    /// the address to open, e.g. https://example.com/ (a bare host means http://).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// open in the foreground; false opens it in the background. Default true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visible: Option<bool>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserTabNew {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_new";
}

/// `browser.tab_select`: bring a tab to the front and make it the session's tab; returns its
/// identity. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserTabSelect {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserTabSelect {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_select";
}

/// `browser.tab_get`: describe a tab without selecting it: url, title, state, mark, latest
/// snapshot. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserTabGet {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserTabGet {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_get";
}

/// `browser.tab_close`: close a tab (default: the session's tab) and forget its refs; returns what
/// was closed. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserTabClose {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserTabClose {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_close";
}

/// `browser.tab_mark`: mark a tab deliverable or handoff with a note, or clear the mark; marks
/// outlive the session. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserTabMark {
    /// deliverable: a result to show the user; handoff: a tab the user should take over. One of
    /// `deliverable`, `handoff`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// why the tab is marked, shown with the mark. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// remove the tab's mark instead of setting one. Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clear: Option<bool>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserTabMark {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_mark";
}

/// `browser.snapshot`: ref-annotated accessibility outline of the page (with its open shadow roots
/// and iframes) (cross-site ones too); returns snapshot_id, mode full/incremental/continued,
/// counts, truncation. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserSnapshot {
    /// lines per page of the outline. Range 1..=5000. Default 300.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// observe only the subtree of this ref.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope_ref: Option<String>,
    /// next_cursor of the previous page to continue it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// always return the full outline instead of what changed. Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disable_diffing: Option<bool>,
    /// words in any order, any case (snapshot keeps the lines holding them, every word in the line
    /// or its ancestors, else any word, query_match says which, with their ancestors and row
    /// controls, as a view that moves no baseline; wait looks for one line holding every word). Not
    /// empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserSnapshot {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "snapshot";
}

/// `browser.get_content`: the whole visible text of the page or an element, a form control's whole
/// value; offset and length read a range; returns text, total_chars, truncated and next_offset when
/// more follows. Optional target: ref|selector. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserGetContent {
    /// the first character to return (Unicode characters, counted from 0). Range 0..=2147483647.
    /// Default 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<i64>,
    /// at most this many characters from offset (default: to the end; the daemon's --max-text-chars
    /// cuts longer answers, which say truncated and next_offset). Range 1..=2147483647.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<i64>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserGetContent {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "get_content";
}

/// `browser.get_html`: the HTML of the page or of an element. Optional target: ref|selector.
/// Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserGetHtml {
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// CSS selector; the first match is used (prefer ref). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserGetHtml {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "get_html";
}

/// `browser.get_url`: the tab's current URL. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserGetUrl {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserGetUrl {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "get_url";
}

/// `browser.get_title`: the tab's current title. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserGetTitle {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserGetTitle {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "get_title";
}

/// `browser.screenshot`: capture the viewport or the full page; returns the image with width,
/// height and scale. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserScreenshot {
    /// capture the whole page, not just the viewport. Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_page: Option<bool>,
    /// paste: text, html or markdown (default text); screenshots: png, jpeg or webp (default png).
    /// One of `png`, `jpeg`, `webp`, `text`, `html`, `markdown`. Default `png`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// jpeg/webp quality; only with format jpeg or webp. Range 1..=100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quality: Option<i64>,
    /// scale the image down to at most this width; scale says by how much. Range 16..=8192.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_width: Option<i64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserScreenshot {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "screenshot";
}

/// `browser.screenshot_annotate`: a screenshot with ref labels drawn over the elements of a full
/// snapshot; returns image and labels. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserScreenshotAnnotate {
    /// scale the image down to at most this width; scale says by how much. Range 16..=8192.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_width: Option<i64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserScreenshotAnnotate {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "screenshot_annotate";
}

/// `browser.state_and_screenshot`: a snapshot and a screenshot together; returns both and a
/// consistent flag. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserStateAndScreenshot {
    /// lines per page of the outline. Range 1..=5000. Default 300.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// observe only the subtree of this ref.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope_ref: Option<String>,
    /// always return the full outline instead of what changed. Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disable_diffing: Option<bool>,
    /// words in any order, any case (snapshot keeps the lines holding them, every word in the line
    /// or its ancestors, else any word, query_match says which, with their ancestors and row
    /// controls, as a view that moves no baseline; wait looks for one line holding every word). Not
    /// empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// capture the whole page, not just the viewport. Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_page: Option<bool>,
    /// paste: text, html or markdown (default text); screenshots: png, jpeg or webp (default png).
    /// One of `png`, `jpeg`, `webp`, `text`, `html`, `markdown`. Default `png`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// jpeg/webp quality; only with format jpeg or webp. Range 1..=100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quality: Option<i64>,
    /// scale the image down to at most this width; scale says by how much. Range 16..=8192.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_width: Option<i64>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserStateAndScreenshot {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "state_and_screenshot";
}

/// `browser.evaluate`: run JavaScript in the page (it may change it); returns the JSON value,
/// exceptions as ACTION_FAILED. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserEvaluate {
    /// **Required.** a JavaScript expression or function body; await is allowed. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserEvaluate {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "evaluate";
}

/// `browser.pdf`: print the page to PDF; returns an artifact, not inline data. Observes only
/// (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserPdf {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserPdf {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "pdf";
}

/// `browser.tab_list`: the browser's tabs with tab_id, url, title, selected and mark. Observes only
/// (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserTabList {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserTabList {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "tab_list";
}

/// `browser.downloads`: the browser's recent downloads, oldest first: path (under the state dir's
/// downloads/), url, bytes, state in_progress/completed/canceled, tab_id. Observes only (observer
/// tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserDownloads {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserDownloads {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "downloads";
}

/// `browser.probe`: what works on this tab: CDP, input, accessibility and screenshots. Observes
/// only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct BrowserProbe {
    /// browser id chrome-\<port\> from list_browsers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub browser_id: Option<String>,
    /// stable tab id from tab_list; default: the session's tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<String>,
    /// legacy position of the tab in tab_list; exclusive with tab_id. Range 0..=999.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_index: Option<i64>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for BrowserProbe {
    const TOOL: &'static str = "browser";
    const ACTION: &'static str = "probe";
}

/// Typed calls of the `browser` tool.
impl Client {
    /// `browser.navigate`: open url in the tab and wait until it is interactive; returns the final
    /// url. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_navigate(&self, args: BrowserNavigate) -> PendingCall<'_, BrowserNavigate> {
        PendingCall::new(self, args)
    }

    /// `browser.click`: click an element or a viewport point; returns what was clicked and where.
    /// Target: ref|selector or x,y / nx,ny. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn browser_click(&self, args: BrowserClick) -> PendingCall<'_, BrowserClick> {
        PendingCall::new(self, args)
    }

    /// `browser.double_click`: double-click an element or a viewport point; returns what was
    /// clicked and where. Target: ref|selector or x,y / nx,ny. Mutating (actor role); a capture
    /// follows unless `capture(false)`.
    pub fn browser_double_click(
        &self,
        args: BrowserDoubleClick,
    ) -> PendingCall<'_, BrowserDoubleClick> {
        PendingCall::new(self, args)
    }

    /// `browser.hover`: move the mouse over an element or a viewport point; returns the point.
    /// Target: ref|selector or x,y / nx,ny. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn browser_hover(&self, args: BrowserHover) -> PendingCall<'_, BrowserHover> {
        PendingCall::new(self, args)
    }

    /// `browser.focus`: focus an element; returns the element that really has focus. Target:
    /// ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_focus(&self, args: BrowserFocus) -> PendingCall<'_, BrowserFocus> {
        PendingCall::new(self, args)
    }

    /// `browser.type`: type text at the caret of an element (mode insert, or keys: key events per
    /// character); read back; returns the text typed, the value and verified. Target: ref|selector.
    /// Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_type(&self, args: BrowserType) -> PendingCall<'_, BrowserType> {
        PendingCall::new(self, args)
    }

    /// `browser.fill`: replace the value of any field a person types into or picks in (text-like
    /// inputs, textarea, contenteditable, number, date, time, datetime-local, month, week, color,
    /// range, \<select\> by value or label, values for a multiple select) and read it back; returns
    /// the value; NOT_EDITABLE names what fits instead (upload for a file input, check for a
    /// checkbox). Target: ref|selector. Mutating (actor role); a capture follows unless
    /// `capture(false)`. `text` and `values` are exclusive.
    pub fn browser_fill(&self, args: BrowserFill) -> PendingCall<'_, BrowserFill> {
        PendingCall::new(self, args)
    }

    /// `browser.set_value`: set a field's value (the native setter, then input/change); returns the
    /// value. Target: ref|selector. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn browser_set_value(&self, args: BrowserSetValue) -> PendingCall<'_, BrowserSetValue> {
        PendingCall::new(self, args)
    }

    /// `browser.select`: choose the option with this value, else this label (in a \<select\>; it
    /// must exist; option lines show value="..." where it differs from the label; or several with
    /// values in a multiple one); returns the value. Target: ref|selector. Mutating (actor role); a
    /// capture follows unless `capture(false)`. `value` and `values` are exclusive.
    pub fn browser_select(&self, args: BrowserSelect) -> PendingCall<'_, BrowserSelect> {
        PendingCall::new(self, args)
    }

    /// `browser.check`: check a checkbox or radio button; returns the verified final state. Target:
    /// ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_check(&self, args: BrowserCheck) -> PendingCall<'_, BrowserCheck> {
        PendingCall::new(self, args)
    }

    /// `browser.uncheck`: uncheck a checkbox; returns the verified final state. Target:
    /// ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_uncheck(&self, args: BrowserUncheck) -> PendingCall<'_, BrowserUncheck> {
        PendingCall::new(self, args)
    }

    /// `browser.paste`: paste text as a real paste event into an element or the focus; returns how
    /// it landed. Optional target: ref|selector. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn browser_paste(&self, args: BrowserPaste) -> PendingCall<'_, BrowserPaste> {
        PendingCall::new(self, args)
    }

    /// `browser.select_text`: select the unique match of text in an element, or put the caret next
    /// to it; returns the offsets. Target: ref|selector. Mutating (actor role); a capture follows
    /// unless `capture(false)`.
    pub fn browser_select_text(
        &self,
        args: BrowserSelectText,
    ) -> PendingCall<'_, BrowserSelectText> {
        PendingCall::new(self, args)
    }

    /// `browser.secondary_action`: run a named element action; the DOM has none, so this returns
    /// UNSUPPORTED with the reason. Target: ref|selector. Mutating (actor role); a capture follows
    /// unless `capture(false)`.
    pub fn browser_secondary_action(
        &self,
        args: BrowserSecondaryAction,
    ) -> PendingCall<'_, BrowserSecondaryAction> {
        PendingCall::new(self, args)
    }

    /// `browser.press`: press a key or chord (releasing modifiers even on failure); returns the
    /// chord. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_press(&self, args: BrowserPress) -> PendingCall<'_, BrowserPress> {
        PendingCall::new(self, args)
    }

    /// `browser.keyboard_type`: type text into the focused element, or into ref/selector focused
    /// first (mode insert, or keys: key events per character); returns the text. Optional target:
    /// ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_keyboard_type(
        &self,
        args: BrowserKeyboardType,
    ) -> PendingCall<'_, BrowserKeyboardType> {
        PendingCall::new(self, args)
    }

    /// `browser.keydown`: hold a key down; later presses include it; returns the keys held.
    /// Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_keydown(&self, args: BrowserKeydown) -> PendingCall<'_, BrowserKeydown> {
        PendingCall::new(self, args)
    }

    /// `browser.keyup`: release a held key; returns the keys still held. Mutating (actor role); a
    /// capture follows unless `capture(false)`.
    pub fn browser_keyup(&self, args: BrowserKeyup) -> PendingCall<'_, BrowserKeyup> {
        PendingCall::new(self, args)
    }

    /// `browser.scroll`: scroll an element, at a point or the page (by pixels or pages); returns
    /// the position before and after. Optional target: ref|selector or x,y / nx,ny. Mutating (actor
    /// role); a capture follows unless `capture(false)`. `amount` and `pages` are exclusive.
    pub fn browser_scroll(&self, args: BrowserScroll) -> PendingCall<'_, BrowserScroll> {
        PendingCall::new(self, args)
    }

    /// `browser.scroll_into_view`: scroll an element to the middle of the viewport; returns its
    /// box. Target: ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_scroll_into_view(
        &self,
        args: BrowserScrollIntoView,
    ) -> PendingCall<'_, BrowserScrollIntoView> {
        PendingCall::new(self, args)
    }

    /// `browser.drag`: drag from an element or point to a drop target (releasing the button on
    /// failure); returns both points. Target: ref|selector or x,y / nx,ny. Mutating (actor role); a
    /// capture follows unless `capture(false)`.
    pub fn browser_drag(&self, args: BrowserDrag) -> PendingCall<'_, BrowserDrag> {
        PendingCall::new(self, args)
    }

    /// `browser.upload`: set the files of a file input; returns the files set. Target:
    /// ref|selector. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_upload(&self, args: BrowserUpload) -> PendingCall<'_, BrowserUpload> {
        PendingCall::new(self, args)
    }

    /// `browser.wait`: wait for an element (timeout, state) or pause for duration_ms; returns what
    /// was waited for and how long. Optional target: ref|selector. Observes only (observer tokens
    /// may call it). `timeout` and `duration_ms` are exclusive.
    pub fn browser_wait(&self, args: BrowserWait) -> PendingCall<'_, BrowserWait> {
        PendingCall::new(self, args)
    }

    /// `browser.dialog`: accept or dismiss the open dialog (alert, confirm, prompt, beforeunload);
    /// returns its type and message. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn browser_dialog(&self, args: BrowserDialog) -> PendingCall<'_, BrowserDialog> {
        PendingCall::new(self, args)
    }

    /// `browser.go_back`: go one step back in the tab's history and wait until ready; returns the
    /// url. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_go_back(&self, args: BrowserGoBack) -> PendingCall<'_, BrowserGoBack> {
        PendingCall::new(self, args)
    }

    /// `browser.go_forward`: go one step forward in the tab's history and wait until ready; returns
    /// the url. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_go_forward(&self, args: BrowserGoForward) -> PendingCall<'_, BrowserGoForward> {
        PendingCall::new(self, args)
    }

    /// `browser.reload`: reload the tab and wait until ready; returns the url. Mutating (actor
    /// role); a capture follows unless `capture(false)`.
    pub fn browser_reload(&self, args: BrowserReload) -> PendingCall<'_, BrowserReload> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_new`: open a tab (about:blank without url) and make it the session's tab;
    /// returns its tab_id. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_tab_new(&self, args: BrowserTabNew) -> PendingCall<'_, BrowserTabNew> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_select`: bring a tab to the front and make it the session's tab; returns its
    /// identity. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_tab_select(&self, args: BrowserTabSelect) -> PendingCall<'_, BrowserTabSelect> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_get`: describe a tab without selecting it: url, title, state, mark, latest
    /// snapshot. Observes only (observer tokens may call it).
    pub fn browser_tab_get(&self, args: BrowserTabGet) -> PendingCall<'_, BrowserTabGet> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_close`: close a tab (default: the session's tab) and forget its refs; returns
    /// what was closed. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_tab_close(&self, args: BrowserTabClose) -> PendingCall<'_, BrowserTabClose> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_mark`: mark a tab deliverable or handoff with a note, or clear the mark; marks
    /// outlive the session. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn browser_tab_mark(&self, args: BrowserTabMark) -> PendingCall<'_, BrowserTabMark> {
        PendingCall::new(self, args)
    }

    /// `browser.snapshot`: ref-annotated accessibility outline of the page (with its open shadow
    /// roots and iframes) (cross-site ones too); returns snapshot_id, mode
    /// full/incremental/continued, counts, truncation. Observes only (observer tokens may call it).
    pub fn browser_snapshot(&self, args: BrowserSnapshot) -> PendingCall<'_, BrowserSnapshot> {
        PendingCall::new(self, args)
    }

    /// `browser.get_content`: the whole visible text of the page or an element, a form control's
    /// whole value; offset and length read a range; returns text, total_chars, truncated and
    /// next_offset when more follows. Optional target: ref|selector. Observes only (observer tokens
    /// may call it).
    pub fn browser_get_content(
        &self,
        args: BrowserGetContent,
    ) -> PendingCall<'_, BrowserGetContent> {
        PendingCall::new(self, args)
    }

    /// `browser.get_html`: the HTML of the page or of an element. Optional target: ref|selector.
    /// Observes only (observer tokens may call it).
    pub fn browser_get_html(&self, args: BrowserGetHtml) -> PendingCall<'_, BrowserGetHtml> {
        PendingCall::new(self, args)
    }

    /// `browser.get_url`: the tab's current URL. Observes only (observer tokens may call it).
    pub fn browser_get_url(&self, args: BrowserGetUrl) -> PendingCall<'_, BrowserGetUrl> {
        PendingCall::new(self, args)
    }

    /// `browser.get_title`: the tab's current title. Observes only (observer tokens may call it).
    pub fn browser_get_title(&self, args: BrowserGetTitle) -> PendingCall<'_, BrowserGetTitle> {
        PendingCall::new(self, args)
    }

    /// `browser.screenshot`: capture the viewport or the full page; returns the image with width,
    /// height and scale. Observes only (observer tokens may call it).
    pub fn browser_screenshot(
        &self,
        args: BrowserScreenshot,
    ) -> PendingCall<'_, BrowserScreenshot> {
        PendingCall::new(self, args)
    }

    /// `browser.screenshot_annotate`: a screenshot with ref labels drawn over the elements of a
    /// full snapshot; returns image and labels. Observes only (observer tokens may call it).
    pub fn browser_screenshot_annotate(
        &self,
        args: BrowserScreenshotAnnotate,
    ) -> PendingCall<'_, BrowserScreenshotAnnotate> {
        PendingCall::new(self, args)
    }

    /// `browser.state_and_screenshot`: a snapshot and a screenshot together; returns both and a
    /// consistent flag. Observes only (observer tokens may call it).
    pub fn browser_state_and_screenshot(
        &self,
        args: BrowserStateAndScreenshot,
    ) -> PendingCall<'_, BrowserStateAndScreenshot> {
        PendingCall::new(self, args)
    }

    /// `browser.evaluate`: run JavaScript in the page (it may change it); returns the JSON value,
    /// exceptions as ACTION_FAILED. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn browser_evaluate(&self, args: BrowserEvaluate) -> PendingCall<'_, BrowserEvaluate> {
        PendingCall::new(self, args)
    }

    /// `browser.pdf`: print the page to PDF; returns an artifact, not inline data. Observes only
    /// (observer tokens may call it).
    pub fn browser_pdf(&self, args: BrowserPdf) -> PendingCall<'_, BrowserPdf> {
        PendingCall::new(self, args)
    }

    /// `browser.tab_list`: the browser's tabs with tab_id, url, title, selected and mark. Observes
    /// only (observer tokens may call it).
    pub fn browser_tab_list(&self, args: BrowserTabList) -> PendingCall<'_, BrowserTabList> {
        PendingCall::new(self, args)
    }

    /// `browser.downloads`: the browser's recent downloads, oldest first: path (under the state
    /// dir's downloads/), url, bytes, state in_progress/completed/canceled, tab_id. Observes only
    /// (observer tokens may call it).
    pub fn browser_downloads(&self, args: BrowserDownloads) -> PendingCall<'_, BrowserDownloads> {
        PendingCall::new(self, args)
    }

    /// `browser.probe`: what works on this tab: CDP, input, accessibility and screenshots. Observes
    /// only (observer tokens may call it).
    pub fn browser_probe(&self, args: BrowserProbe) -> PendingCall<'_, BrowserProbe> {
        PendingCall::new(self, args)
    }
}

/// `computer.click`: click an element (its accessibility action when plain) or a screen point;
/// returns via and where. Target: ref or x,y / nx,ny. Mutating (actor role); a capture follows
/// unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerClick {
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button: Option<String>,
    /// 1 single, 2 double, 3 triple click. Range 1..=3. Default 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub click_count: Option<i64>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// screen x in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    /// screen y in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerClick {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "click";
}

/// `computer.double_click`: double-click an element or a screen point; returns via and where.
/// Target: ref or x,y / nx,ny. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerDoubleClick {
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button: Option<String>,
    /// always 2 for double_click; omit it. Range 1..=3. Default 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub click_count: Option<i64>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// screen x in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    /// screen y in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerDoubleClick {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "double_click";
}

/// `computer.type`: type any Unicode text into an element (EditableText, replacing its selection)
/// or as keystrokes into the named target (its window activated first) (else NOT_FOCUSED); read
/// back with a ref; returns via, value, delivered_to. Optional target: ref. Mutating (actor role);
/// a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerType {
    /// **Required.** the text, exactly as it should appear. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerType {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "type";
}

/// `computer.fill`: replace an element's or the focused widget's text ("" clears it); returns the
/// value and via. Optional target: ref. Mutating (actor role); a capture follows unless
/// `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerFill {
    /// **Required.** the new content; "" clears the field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerFill {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "fill";
}

/// `computer.set_value`: set an element's text or numeric value (range-checked); returns the value
/// and via. Target: ref. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerSetValue {
    /// **Required.** the value to set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerSetValue {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "set_value";
}

/// `computer.paste`: paste through the clipboard (saved and restored) into an element or the
/// target's focus (its window activated first), replacing a selection; ACTION_FAILED when it did
/// not land; returns value, delivered_to and the clipboard outcome. Optional target: ref. Mutating
/// (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerPaste {
    /// **Required.** what to paste. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// paste and clipboard: text or html (default text); screenshots: png, jpeg or webp (default
    /// png). One of `png`, `jpeg`, `webp`, `text`, `html`. Default `text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerPaste {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "paste";
}

/// `computer.select_text`: select the unique match of text in an element, or put the caret next to
/// it; returns the offsets. Target: ref. Mutating (actor role); a capture follows unless
/// `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerSelectText {
    /// **Required.** the text to find; it must match exactly once. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// text right before the match, to make it unique. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// text right after the match, to make it unique. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
    /// select the match, or put the caret before or after it. One of `select`, `cursor_before`,
    /// `cursor_after`. Default `select`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection_type: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerSelectText {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "select_text";
}

/// `computer.secondary_action`: run an action the snapshot listed for the element (actions=...);
/// returns what ran. Target: ref. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerSecondaryAction {
    /// **Required.** an action name the snapshot listed for the element. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerSecondaryAction {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "secondary_action";
}

/// `computer.key`: press a key or chord (any key: F1-F24, Insert, media keys, +) in the named
/// target (activated first) or the active window; returns the chord and delivered_to. Mutating
/// (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerKey {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerKey {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "key";
}

/// `computer.keydown`: hold a key down; later keys include it; returns the keys held. Mutating
/// (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerKeydown {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerKeydown {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "keydown";
}

/// `computer.keyup`: release a held key; returns the keys still held. Mutating (actor role); a
/// capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerKeyup {
    /// **Required.** a key or chord such as Enter, Control+Shift+T, F5, PageDown or +. Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerKeyup {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "keyup";
}

/// `computer.scroll`: scroll an element, at a point or at the screen centre (by pixels or pages);
/// returns where and how far. Optional target: ref or x,y / nx,ny. Mutating (actor role); a capture
/// follows unless `capture(false)`. `amount` and `pages` are exclusive.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerScroll {
    /// scroll direction. One of `up`, `down`, `left`, `right`. Default `down`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    /// distance in pixels (exclusive with pages). Range 1..=10000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    /// distance in pages of the scrolled box. Range 0.1..=20.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<f64>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// screen x in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    /// screen y in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerScroll {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "scroll";
}

/// `computer.drag`: press at a point, move to the drop target and release (also on failure);
/// returns both points. Target: x,y / nx,ny. Mutating (actor role); a capture follows unless
/// `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerDrag {
    /// drop point x in screen pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_x: Option<i64>,
    /// drop point y in screen pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_y: Option<i64>,
    /// drop point x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_nx: Option<f64>,
    /// drop point y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_ny: Option<f64>,
    /// drop on this element ref from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_ref: Option<String>,
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// screen x in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    /// screen y in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerDrag {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "drag";
}

/// `computer.mouse_move`: move the pointer to a point; returns it and the buttons held. Target: x,y
/// / nx,ny. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerMouseMove {
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// screen x in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    /// screen y in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerMouseMove {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "mouse_move";
}

/// `computer.mouse_down`: press a mouse button, at a point or where the pointer is; held until
/// mouse_up or an error. Optional point: x,y / nx,ny. Mutating (actor role); a capture follows
/// unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerMouseDown {
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// screen x in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    /// screen y in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerMouseDown {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "mouse_down";
}

/// `computer.mouse_up`: release a held mouse button, at a point or where the pointer is; returns
/// the buttons held. Optional point: x,y / nx,ny. Mutating (actor role); a capture follows unless
/// `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerMouseUp {
    /// mouse button. One of `left`, `middle`, `right`. Default `left`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button: Option<String>,
    /// auto picks; background acts through accessibility only and never moves the pointer or focus;
    /// foreground uses real input. One of `auto`, `background`, `foreground`. Default `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<String>,
    /// screen x in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    /// screen y in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i64>,
    /// x as a fraction of the width, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nx: Option<f64>,
    /// y as a fraction of the height, 0..1. Range 0.0..=1.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ny: Option<f64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerMouseUp {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "mouse_up";
}

/// `computer.window`: minimize, maximize, restore, close, move or resize a window (window_id);
/// returns its new state. Mutating (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerWindow {
    /// **Required.** what to do; move takes x,y and resize takes width,height. One of `minimize`,
    /// `maximize`, `restore`, `close`, `move`, `resize`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// screen x in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    /// screen y in pixels. Range 0..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i64>,
    /// new width in screen pixels. Range 1..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<i64>,
    /// new height in screen pixels. Range 1..=65535.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<i64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerWindow {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "window";
}

/// `computer.wait`: pause for duration_ms, or wait until an element appears/disappears or a window
/// opens; returns what happened. Observes only (observer tokens may call it). `timeout` and
/// `duration_ms` are exclusive.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerWait {
    /// a fixed pause in ms (exclusive with timeout). Range 0..=60000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<i64>,
    /// the event to wait for, up to timeout. One of `element_appears`, `element_disappears`,
    /// `window_opens`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// words matched against role, name or value (wait: the element or window title to wait for;
    /// snapshot: the lines to keep). Not empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// how long to wait in ms (30000 when omitted) (exclusive with duration_ms). Range 1..=60000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<i64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerWait {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "wait";
}

/// `computer.snapshot`: ref-annotated outline of an app, a window or the desktop; returns
/// snapshot_id, mode, counts, truncation, and warnings naming any app that stopped answering
/// mid-walk. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerSnapshot {
    /// lines per page of the outline. Range 1..=5000. Default 300.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// observe only the subtree of this ref.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope_ref: Option<String>,
    /// next_cursor of the previous page to continue it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// always return the full outline instead of what changed. Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disable_diffing: Option<bool>,
    /// words in any order, any case (snapshot keeps the lines holding them, every word in the line
    /// or its ancestors, else any word, query_match says which, with their ancestors and row
    /// controls, as a view that moves no baseline; wait looks for one line holding every word). Not
    /// empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// deepest tree level to walk. Range 1..=200.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<i64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerSnapshot {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "snapshot";
}

/// `computer.get_window_state`: one window's element tree plus its screenshot (window_id required).
/// Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerGetWindowState {
    /// add a screenshot of the window. Default true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_screenshot: Option<bool>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerGetWindowState {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "get_window_state";
}

/// `computer.screenshot`: capture the screen, a window or a region; returns the image with width,
/// height and scale. Observes only (observer tokens may call it). `window_id` and `region` are
/// exclusive.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerScreenshot {
    /// capture only this screen rectangle {x, y, width, height}.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<Region>,
    /// paste and clipboard: text or html (default text); screenshots: png, jpeg or webp (default
    /// png). One of `png`, `jpeg`, `webp`, `text`, `html`. Default `png`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// jpeg/webp quality; only with format jpeg or webp. Range 1..=100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quality: Option<i64>,
    /// scale the image down to at most this width; scale says by how much. Range 16..=8192.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_width: Option<i64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerScreenshot {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "screenshot";
}

/// `computer.state_and_screenshot`: a snapshot and a screenshot together; returns both and a
/// consistent flag. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerStateAndScreenshot {
    /// lines per page of the outline. Range 1..=5000. Default 300.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// observe only the subtree of this ref.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope_ref: Option<String>,
    /// always return the full outline instead of what changed. Default false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disable_diffing: Option<bool>,
    /// words in any order, any case (snapshot keeps the lines holding them, every word in the line
    /// or its ancestors, else any word, query_match says which, with their ancestors and row
    /// controls, as a view that moves no baseline; wait looks for one line holding every word). Not
    /// empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// deepest tree level to walk. Range 1..=200.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<i64>,
    /// paste and clipboard: text or html (default text); screenshots: png, jpeg or webp (default
    /// png). One of `png`, `jpeg`, `webp`, `text`, `html`. Default `png`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// jpeg/webp quality; only with format jpeg or webp. Range 1..=100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quality: Option<i64>,
    /// scale the image down to at most this width; scale says by how much. Range 16..=8192.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_width: Option<i64>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerStateAndScreenshot {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "state_and_screenshot";
}

/// `computer.get_text`: an element's whole text with its caret and selection; offset and length
/// read a range; returns text, total_chars, truncated and next_offset when more follows. Target:
/// ref. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerGetText {
    /// the first character to return (Unicode characters, counted from 0). Range 0..=2147483647.
    /// Default 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<i64>,
    /// at most this many characters from offset (default: to the end; the daemon's --max-text-chars
    /// cuts longer answers, which say truncated and next_offset). Range 1..=2147483647.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<i64>,
    /// element ref eN from the latest snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#ref: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerGetText {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "get_text";
}

/// `computer.clipboard_get`: the clipboard's content as text or html (actors and admins: it may
/// hold secrets). Reads the clipboard (actor and admin roles; observers may not).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerClipboardGet {
    /// paste and clipboard: text or html (default text); screenshots: png, jpeg or webp (default
    /// png). One of `png`, `jpeg`, `webp`, `text`, `html`. Default `text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerClipboardGet {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "clipboard_get";
}

/// `computer.clipboard_set`: put text or html on the clipboard; returns what was set. Mutating
/// (actor role); a capture follows unless `capture(false)`.
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerClipboardSet {
    /// **Required.** what to put on the clipboard; "" empties it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// paste and clipboard: text or html (default text); screenshots: png, jpeg or webp (default
    /// png). One of `png`, `jpeg`, `webp`, `text`, `html`. Default `text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerClipboardSet {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "clipboard_set";
}

/// `computer.probe`: what works: accessibility, display, input, screenshot and clipboard, each with
/// a reason when not. Observes only (observer tokens may call it).
#[derive(Serialize, Default, Debug, Clone, PartialEq)]
pub struct ComputerProbe {
    /// app id app:\<pid\> from list_apps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_id: Option<String>,
    /// window id from list_windows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<String>,
    /// the snapshot the refs come from; default: the session's latest for the target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
}

impl ActionArgs for ComputerProbe {
    const TOOL: &'static str = "computer";
    const ACTION: &'static str = "probe";
}

/// Typed calls of the `computer` tool.
impl Client {
    /// `computer.click`: click an element (its accessibility action when plain) or a screen point;
    /// returns via and where. Target: ref or x,y / nx,ny. Mutating (actor role); a capture follows
    /// unless `capture(false)`.
    pub fn computer_click(&self, args: ComputerClick) -> PendingCall<'_, ComputerClick> {
        PendingCall::new(self, args)
    }

    /// `computer.double_click`: double-click an element or a screen point; returns via and where.
    /// Target: ref or x,y / nx,ny. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn computer_double_click(
        &self,
        args: ComputerDoubleClick,
    ) -> PendingCall<'_, ComputerDoubleClick> {
        PendingCall::new(self, args)
    }

    /// `computer.type`: type any Unicode text into an element (EditableText, replacing its
    /// selection) or as keystrokes into the named target (its window activated first) (else
    /// NOT_FOCUSED); read back with a ref; returns via, value, delivered_to. Optional target: ref.
    /// Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn computer_type(&self, args: ComputerType) -> PendingCall<'_, ComputerType> {
        PendingCall::new(self, args)
    }

    /// `computer.fill`: replace an element's or the focused widget's text ("" clears it); returns
    /// the value and via. Optional target: ref. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn computer_fill(&self, args: ComputerFill) -> PendingCall<'_, ComputerFill> {
        PendingCall::new(self, args)
    }

    /// `computer.set_value`: set an element's text or numeric value (range-checked); returns the
    /// value and via. Target: ref. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn computer_set_value(&self, args: ComputerSetValue) -> PendingCall<'_, ComputerSetValue> {
        PendingCall::new(self, args)
    }

    /// `computer.paste`: paste through the clipboard (saved and restored) into an element or the
    /// target's focus (its window activated first), replacing a selection; ACTION_FAILED when it
    /// did not land; returns value, delivered_to and the clipboard outcome. Optional target: ref.
    /// Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn computer_paste(&self, args: ComputerPaste) -> PendingCall<'_, ComputerPaste> {
        PendingCall::new(self, args)
    }

    /// `computer.select_text`: select the unique match of text in an element, or put the caret next
    /// to it; returns the offsets. Target: ref. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn computer_select_text(
        &self,
        args: ComputerSelectText,
    ) -> PendingCall<'_, ComputerSelectText> {
        PendingCall::new(self, args)
    }

    /// `computer.secondary_action`: run an action the snapshot listed for the element
    /// (actions=...); returns what ran. Target: ref. Mutating (actor role); a capture follows
    /// unless `capture(false)`.
    pub fn computer_secondary_action(
        &self,
        args: ComputerSecondaryAction,
    ) -> PendingCall<'_, ComputerSecondaryAction> {
        PendingCall::new(self, args)
    }

    /// `computer.key`: press a key or chord (any key: F1-F24, Insert, media keys, +) in the named
    /// target (activated first) or the active window; returns the chord and delivered_to. Mutating
    /// (actor role); a capture follows unless `capture(false)`.
    pub fn computer_key(&self, args: ComputerKey) -> PendingCall<'_, ComputerKey> {
        PendingCall::new(self, args)
    }

    /// `computer.keydown`: hold a key down; later keys include it; returns the keys held. Mutating
    /// (actor role); a capture follows unless `capture(false)`.
    pub fn computer_keydown(&self, args: ComputerKeydown) -> PendingCall<'_, ComputerKeydown> {
        PendingCall::new(self, args)
    }

    /// `computer.keyup`: release a held key; returns the keys still held. Mutating (actor role); a
    /// capture follows unless `capture(false)`.
    pub fn computer_keyup(&self, args: ComputerKeyup) -> PendingCall<'_, ComputerKeyup> {
        PendingCall::new(self, args)
    }

    /// `computer.scroll`: scroll an element, at a point or at the screen centre (by pixels or
    /// pages); returns where and how far. Optional target: ref or x,y / nx,ny. Mutating (actor
    /// role); a capture follows unless `capture(false)`. `amount` and `pages` are exclusive.
    pub fn computer_scroll(&self, args: ComputerScroll) -> PendingCall<'_, ComputerScroll> {
        PendingCall::new(self, args)
    }

    /// `computer.drag`: press at a point, move to the drop target and release (also on failure);
    /// returns both points. Target: x,y / nx,ny. Mutating (actor role); a capture follows unless
    /// `capture(false)`.
    pub fn computer_drag(&self, args: ComputerDrag) -> PendingCall<'_, ComputerDrag> {
        PendingCall::new(self, args)
    }

    /// `computer.mouse_move`: move the pointer to a point; returns it and the buttons held. Target:
    /// x,y / nx,ny. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn computer_mouse_move(
        &self,
        args: ComputerMouseMove,
    ) -> PendingCall<'_, ComputerMouseMove> {
        PendingCall::new(self, args)
    }

    /// `computer.mouse_down`: press a mouse button, at a point or where the pointer is; held until
    /// mouse_up or an error. Optional point: x,y / nx,ny. Mutating (actor role); a capture follows
    /// unless `capture(false)`.
    pub fn computer_mouse_down(
        &self,
        args: ComputerMouseDown,
    ) -> PendingCall<'_, ComputerMouseDown> {
        PendingCall::new(self, args)
    }

    /// `computer.mouse_up`: release a held mouse button, at a point or where the pointer is;
    /// returns the buttons held. Optional point: x,y / nx,ny. Mutating (actor role); a capture
    /// follows unless `capture(false)`.
    pub fn computer_mouse_up(&self, args: ComputerMouseUp) -> PendingCall<'_, ComputerMouseUp> {
        PendingCall::new(self, args)
    }

    /// `computer.window`: minimize, maximize, restore, close, move or resize a window (window_id);
    /// returns its new state. Mutating (actor role); a capture follows unless `capture(false)`.
    pub fn computer_window(&self, args: ComputerWindow) -> PendingCall<'_, ComputerWindow> {
        PendingCall::new(self, args)
    }

    /// `computer.wait`: pause for duration_ms, or wait until an element appears/disappears or a
    /// window opens; returns what happened. Observes only (observer tokens may call it). `timeout`
    /// and `duration_ms` are exclusive.
    pub fn computer_wait(&self, args: ComputerWait) -> PendingCall<'_, ComputerWait> {
        PendingCall::new(self, args)
    }

    /// `computer.snapshot`: ref-annotated outline of an app, a window or the desktop; returns
    /// snapshot_id, mode, counts, truncation, and warnings naming any app that stopped answering
    /// mid-walk. Observes only (observer tokens may call it).
    pub fn computer_snapshot(&self, args: ComputerSnapshot) -> PendingCall<'_, ComputerSnapshot> {
        PendingCall::new(self, args)
    }

    /// `computer.get_window_state`: one window's element tree plus its screenshot (window_id
    /// required). Observes only (observer tokens may call it).
    pub fn computer_get_window_state(
        &self,
        args: ComputerGetWindowState,
    ) -> PendingCall<'_, ComputerGetWindowState> {
        PendingCall::new(self, args)
    }

    /// `computer.screenshot`: capture the screen, a window or a region; returns the image with
    /// width, height and scale. Observes only (observer tokens may call it). `window_id` and
    /// `region` are exclusive.
    pub fn computer_screenshot(
        &self,
        args: ComputerScreenshot,
    ) -> PendingCall<'_, ComputerScreenshot> {
        PendingCall::new(self, args)
    }

    /// `computer.state_and_screenshot`: a snapshot and a screenshot together; returns both and a
    /// consistent flag. Observes only (observer tokens may call it).
    pub fn computer_state_and_screenshot(
        &self,
        args: ComputerStateAndScreenshot,
    ) -> PendingCall<'_, ComputerStateAndScreenshot> {
        PendingCall::new(self, args)
    }

    /// `computer.get_text`: an element's whole text with its caret and selection; offset and length
    /// read a range; returns text, total_chars, truncated and next_offset when more follows.
    /// Target: ref. Observes only (observer tokens may call it).
    pub fn computer_get_text(&self, args: ComputerGetText) -> PendingCall<'_, ComputerGetText> {
        PendingCall::new(self, args)
    }

    /// `computer.clipboard_get`: the clipboard's content as text or html (actors and admins: it may
    /// hold secrets). Reads the clipboard (actor and admin roles; observers may not).
    pub fn computer_clipboard_get(
        &self,
        args: ComputerClipboardGet,
    ) -> PendingCall<'_, ComputerClipboardGet> {
        PendingCall::new(self, args)
    }

    /// `computer.clipboard_set`: put text or html on the clipboard; returns what was set. Mutating
    /// (actor role); a capture follows unless `capture(false)`.
    pub fn computer_clipboard_set(
        &self,
        args: ComputerClipboardSet,
    ) -> PendingCall<'_, ComputerClipboardSet> {
        PendingCall::new(self, args)
    }

    /// `computer.probe`: what works: accessibility, display, input, screenshot and clipboard, each
    /// with a reason when not. Observes only (observer tokens may call it).
    pub fn computer_probe(&self, args: ComputerProbe) -> PendingCall<'_, ComputerProbe> {
        PendingCall::new(self, args)
    }
}
