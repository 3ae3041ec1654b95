//! The `context` tool: discovery and selection of apps, windows, browsers and tabs, and the
//! contract itself as documentation.

use super::params::{APP_ID, BROWSER_ID, WINDOW_ID};
use super::spec::{Action, Class, DefaultValue as D, Locator, Param, Tool, Ty};

const APP: Param = Param {
    name: "app",
    ty: Ty::Str { allow_empty: false },
    doc: "app id (app:<pid>), name, desktop entry, or executable name or path",
    default: None,
};
const LAUNCH: Param = Param {
    name: "launch",
    ty: Ty::Bool,
    doc: "start the app when it is not running (argv, never a shell)",
    default: Some(D::Bool(false)),
};
const BACKGROUND: Param = Param {
    name: "background",
    ty: Ty::Bool,
    doc: "with launch: leave the new window where the window manager put it, inactive",
    default: Some(D::Bool(false)),
};
const URL_MATCH: Param = Param {
    name: "url",
    ty: Ty::Url,
    doc: "the one tab whose URL is this, or starts with it and / ? #",
    default: None,
};
const WINDOW_ID_REQUIRED: Param = WINDOW_ID;
const REASON: Param =
    Param { name: "reason", ty: Ty::Str { allow_empty: false }, doc: "what to do", default: None };

const fn observe(name: &'static str, summary: &'static str) -> Action {
    Action {
        name,
        summary,
        class: Class::Observe,
        locator: Locator::None,
        required: &[],
        optional: &[],
        exclusive: &[],
        rules: &[],
    }
}

pub static CONTEXT: Tool = Tool {
    name: "context",
    description: "Discover and select apps, windows, browsers and tabs; read this \
                  contract. Start here; ids come from these answers, never guesses.",
    element_keys: &[],
    point_keys: &[],
    common: &[],
    actions: &[
        observe(
            "get_state",
            "apps, browsers, windows and the session's selection; each domain reports its own error",
        ),
        observe("list_apps", "apps on the accessibility bus with app_id, pid, toolkit, windows and responding (false: the app did not answer in time and is listed as last seen)"),
        Action {
            name: "get_app",
            summary: "select an app and return its snapshot; several matches give candidates; \
                      a launched app's window is waited for and made active (window_id, \
                      window_active) unless background",
            class: Class::Exec,
            locator: Locator::None,
            required: &[APP],
            optional: &[LAUNCH, BACKGROUND],
            exclusive: &[],
            rules: &[],
        },
        Action {
            name: "list_windows",
            summary: "top-level windows with window_id, app_id, pid, title, frame and state",
            class: Class::Observe,
            locator: Locator::None,
            required: &[],
            optional: &[APP_ID],
            exclusive: &[],
            rules: &[],
        },
        Action {
            name: "focus_window",
            summary: "activate a window; focus_verified is true only when it really is active",
            class: Class::Act,
            locator: Locator::None,
            required: &[WINDOW_ID_REQUIRED],
            optional: &[],
            exclusive: &[],
            rules: &[],
        },
        observe(
            "list_browsers",
            "Chromium instances with a debugging port: browser_id, pid, default, status, tabs",
        ),
        Action {
            name: "get_browser",
            summary: "select a browser (the default one starts on demand) or the one tab with a URL",
            class: Class::Act,
            locator: Locator::None,
            required: &[],
            optional: &[BROWSER_ID, URL_MATCH],
            exclusive: &[],
            rules: &[],
        },
        Action {
            name: "request_human",
            summary: "ask a person for help (login, CAPTCHA, 2FA) on the view page; waits for the hand-back",
            class: Class::AskHuman,
            locator: Locator::None,
            required: &[REASON],
            optional: &[WINDOW_ID],
            exclusive: &[],
            rules: &[],
        },
        Action {
            name: "documentation",
            summary: "this contract: every action's parameters, identity, coordinate and timing \
                      rules, and each backend's capabilities",
            class: Class::Observe,
            locator: Locator::None,
            required: &[],
            optional: &[BROWSER_ID, APP_ID],
            exclusive: &[],
            rules: &[],
        },
    ],
};
