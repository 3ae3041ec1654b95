//! The `context` tool: discovery and selection of apps, windows, browsers and tabs, and the
//! contract itself as documentation.

use super::params::{APP_ID, BROWSER_ID, WINDOW_ID};
use super::rules::action;
use super::spec::LAUNCH_EVENTS;
use super::spec::{
    Action, Backend, Class, DefaultValue as D, Gate, IdKind, Locator, Param, Settle, Tool, Ty,
};

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
    doc: "with launch: leave the new window inactive (where the window manager put it)",
    default: Some(D::Bool(false)),
};
const URL_MATCH: Param = Param {
    name: "url",
    ty: Ty::Url,
    doc: "the one tab whose URL is this (or starts with it and / ? #)",
    default: None,
};
const WINDOW_ID_REQUIRED: Param = WINDOW_ID;
const HANDOFF_TAB: Param = Param {
    name: "tab_id",
    ty: Ty::Id(IdKind::Token),
    doc: "the tab (from tab_list) the person should look at",
    default: None,
};
const REASON: Param =
    Param { name: "reason", ty: Ty::Str { allow_empty: false }, doc: "what to do", default: None };

const FILE_NAME: Param =
    Param { name: "name", ty: Ty::Str { allow_empty: false }, doc: "file name", default: None };
const FILE_DATA: Param = Param {
    name: "data",
    ty: Ty::Str { allow_empty: true },
    doc: "base64, up to 8 MiB",
    default: None,
};

/// A context action that only reads, from `backend`.
const fn observe(name: &'static str, summary: &'static str, backend: Backend) -> Action {
    action(name, summary, Class::Observe, Locator::None).on(backend, &[])
}

pub static CONTEXT: Tool = Tool {
    name: "context",
    description: "Discover and select apps, windows, browsers and tabs. Start here; ids \
                  come from these answers, never guesses.",
    element_keys: &[],
    point_keys: &[],
    common: &[],
    actions: &[
        observe(
            "get_state",
            "apps, browsers, windows and the session's selection; each domain reports its own error",
            Backend::Daemon,
        ),
        observe("list_apps", "apps on the accessibility bus; returns app_id, pid, toolkit, windows and responding (false: the app did not answer in time and is listed as last seen)", Backend::Desktop),
        action(
            "get_app",
            "select an app and return its snapshot; several matches give candidates; a launched \
             app's window is waited for and made active (window_id, window_active) unless \
             background",
            Class::Exec,
            Locator::None,
        )
        .req(&[APP])
        .opt(&[LAUNCH, BACKGROUND])
        .gated(Gate::Launch { flag: LAUNCH.name })
        .on(Backend::Desktop, LAUNCH_EVENTS),
        observe(
            "list_windows",
            "top-level windows; returns window_id, app_id, pid, title, frame and state",
            Backend::Desktop,
        )
        .opt(&[APP_ID]),
        action(
            "focus_window",
            "activate a window; focus_verified is true only when it really is active",
            Class::Act,
            Locator::None,
        )
        .req(&[WINDOW_ID_REQUIRED])
        .settles(Settle::Window)
        .on(Backend::Desktop, &["window.focused", "focus.changed"]),
        observe(
            "list_browsers",
            "the Chromiums this daemon drives (its own, --browser-allow ones: browser_id, pid, default, status, tabs)",
            Backend::Browser,
        ),
        action(
            "get_browser",
            "select a browser (the default one starts on demand) or the one tab with a URL",
            Class::Act,
            Locator::None,
        )
        .opt(&[BROWSER_ID, URL_MATCH])
        .on(Backend::Browser, &[]),
        action(
            "request_human",
            "ask a person for help (login, CAPTCHA, 2FA) on the view page; waits for the hand-back",
            Class::AskHuman,
            Locator::None,
        )
        .req(&[REASON])
        .opt(&[HANDOFF_TAB, WINDOW_ID])
        .on(Backend::Daemon, &["human.requested", "takeover.started", "takeover.ended"]),
        action(
            "put_file",
            "store a file to upload",
            Class::Act,
            Locator::None,
        )
        .req(&[FILE_NAME, FILE_DATA])
        .on(Backend::Daemon, &[]),
        action(
            "list_secrets",
            "named secrets (never a value); returns name, origins (and apps) each may be typed into, totp",
            Class::Private,
            Locator::None,
        )
        .on(Backend::Daemon, &[]),
        observe(
            "documentation",
            "this contract (every action's parameters, identity, coordinate and timing rules, \
             and each backend's capabilities)",
            Backend::Daemon,
        )
        .opt(&[BROWSER_ID, APP_ID]),
    ],
    listed: true,
};
