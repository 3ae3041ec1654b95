//! `browser` actions: arguments from the contract -> the CDP backend (`crate::browser`).
//!
//! Every call freezes its target first (explicit ids, else the session's selection, else the
//! browser's active tab) and echoes it with `tab_source`; refs resolve through the session's
//! snapshot registry before the backend sees a backend node key.
//!
//! This module holds the table, the shared pipeline (`run`) and the router from an action to
//! the module that runs it: `target` (what a call acts on), `tabs`, `navigation`, `pointer`,
//! `keyboard`, `forms`, `observe` and `waiting`.

mod forms;
mod keyboard;
mod navigation;
mod observe;
mod pointer;
mod tabs;
mod target;
mod waiting;

use std::sync::Arc;

use futures::future::BoxFuture;
use glovebox_protocol::contract::Checked;
use serde_json::{json, Map, Value};

use super::table::Entries;
use super::{Ctx, Output};
use crate::browser::actions::El;
use crate::browser::{Browsers, Tab};
use crate::error::DaemonError;
use crate::state::Daemon;
use target::{browser_of, freeze, Frozen};
use waiting::wait_for;

pub static HANDLERS: Entries = &[
    ("navigate", run),
    ("click", run),
    ("double_click", run),
    ("hover", run),
    ("focus", run),
    ("type", run),
    ("fill", run),
    ("set_value", run),
    ("select", run),
    ("check", run),
    ("uncheck", run),
    ("paste", run),
    ("select_text", run),
    ("secondary_action", run),
    ("press", run),
    ("keyboard_type", run),
    ("keydown", run),
    ("keyup", run),
    ("scroll", run),
    ("scroll_into_view", run),
    ("drag", run),
    ("upload", run),
    ("wait", wait_for),
    ("dialog", run),
    ("go_back", run),
    ("go_forward", run),
    ("reload", run),
    ("tab_new", run),
    ("tab_select", run),
    ("tab_get", run),
    ("tab_close", run),
    ("tab_mark", run),
    ("snapshot", run),
    ("get_content", run),
    ("get_html", run),
    ("get_url", run),
    ("get_title", run),
    ("screenshot", run),
    ("screenshot_annotate", run),
    ("state_and_screenshot", run),
    ("evaluate", run),
    ("pdf", run),
    ("tab_list", run),
    ("probe", run),
];

/// The backend, with ref invalidation pointed at every session of this daemon.
pub(super) fn backend(daemon: &Arc<Daemon>) -> Result<Arc<Browsers>, DaemonError> {
    let Some(b) = daemon.config.browser.clone() else {
        return Err(DaemonError::BackendUnavailable {
            backend: "browser",
            reason: "this daemon runs without the browser backend".into(),
            remedy: "start gloveboxd with a display so Chromium can run".into(),
        });
    };
    let weak = Arc::downgrade(daemon);
    b.set_invalidator(Arc::new(move |key: &str, reason: &str| {
        if let Some(d) = weak.upgrade() {
            for s in d.sessions.all() {
                if let Ok(mut snaps) = s.snapshots.lock() {
                    snaps.invalidate(key, reason);
                }
            }
        }
    }));
    Ok(b)
}

fn s<'a>(args: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    args.get(k).and_then(Value::as_str)
}

fn n(args: &Map<String, Value>, k: &str) -> Option<f64> {
    args.get(k).and_then(Value::as_f64)
}

fn u(args: &Map<String, Value>, k: &str) -> Option<u64> {
    args.get(k).and_then(Value::as_u64)
}

pub(super) fn select(ctx: &Ctx, browser_id: &str, tab_id: &str) {
    if let Ok(mut sel) = ctx.session.selection.lock() {
        sel.browser_id = Some(browser_id.to_owned());
        sel.tab_id = Some(tab_id.to_owned());
    }
}

fn poisoned() -> DaemonError {
    DaemonError::ActionFailed("the session's state is unusable after a panic".into())
}

fn with_dialog(mut v: Value, d: Option<crate::browser::cdp::Dialog>) -> Value {
    if let Some(d) = d {
        v["dialog"] = json!(d);
    }
    v
}

fn need(e: Option<El>) -> Result<El, DaemonError> {
    e.ok_or_else(|| DaemonError::ActionFailed("this action needs ref or selector".into()))
}

fn unsupported(action: &str) -> DaemonError {
    DaemonError::Unsupported {
        tool: "browser".into(),
        action: action.into(),
        reason: "not implemented by the CDP backend".into(),
        available: super::implemented("browser"),
    }
}

/// Release the browser keys `session` holds (a failed op, a closed connection).
pub(super) fn release_held(daemon: &Daemon, session: &crate::session::Session) {
    let Some(b) = daemon.config.browser.clone() else { return };
    let keys = match session.held.lock() {
        Ok(mut h) if !h.browser_keys.is_empty() => std::mem::take(&mut h.browser_keys),
        _ => return,
    };
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        rt.spawn(async move { b.release_keys(keys).await });
    }
}

/// Held browser keys are released when an op fails, times out or is cancelled (its future is
/// dropped before it disarms this).
struct ReleaseOnFailure {
    browsers: Arc<Browsers>,
    session: Arc<crate::session::Session>,
    armed: bool,
}

impl Drop for ReleaseOnFailure {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let keys = match self.session.held.lock() {
            Ok(mut h) if !h.browser_keys.is_empty() => std::mem::take(&mut h.browser_keys),
            _ => return,
        };
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let b = self.browsers.clone();
            rt.spawn(async move { b.release_keys(keys).await });
        }
    }
}

fn run(ctx: Ctx, call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async move {
        let b = backend(&ctx.daemon)?;
        let mut guard =
            ReleaseOnFailure { browsers: b.clone(), session: ctx.session.clone(), armed: true };
        let out = run_checked(&ctx, &b, call).await;
        guard.armed = out.is_err();
        out
    })
}

async fn run_checked(ctx: &Ctx, b: &Arc<Browsers>, call: Checked) -> Result<Output, DaemonError> {
    let b = b.clone();
    let action = call.action.name;
    let args = call.args;
    if action == "tab_new" {
        return tabs::new(ctx, &b, &args).await;
    }
    if action == "tab_list" {
        return tabs::list(ctx, &b, &args).await;
    }
    let f = freeze(ctx, &b, &args).await?;
    let target = Some(f.json());
    if action == "tab_close" {
        return tabs::close(ctx, &b, &f, target).await;
    }
    if action == "tab_mark" {
        return tabs::mark(&b, &f, &args, target).await;
    }
    let tab = match b.tab(&f.browser_id, &f.tab_id).await {
        Ok(t) => t,
        Err(e) => {
            // Refs of a tab that is gone are stale, not unknown.
            if let Some(r) = s(&args, "ref") {
                let key = crate::browser::target_key(&f.browser_id, &f.tab_id);
                let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
                snaps.resolve(&key, r, s(&args, "snapshot_id"))?;
            }
            return Err(e.into());
        }
    };
    let result = act(ctx, &b, &tab, &f, action, &args).await?;
    Ok(Output { result, target })
}

/// The module that runs an action on a resolved tab.
async fn act(
    ctx: &Ctx,
    b: &Browsers,
    tab: &Tab,
    f: &Frozen,
    action: &str,
    args: &Map<String, Value>,
) -> Result<Value, DaemonError> {
    match action {
        "navigate" | "reload" | "go_back" | "go_forward" => {
            navigation::act(ctx, tab, action, args).await
        }
        "click" | "double_click" | "hover" | "scroll" | "scroll_into_view" | "drag" => {
            pointer::act(ctx, tab, f, action, args).await
        }
        "focus" | "type" | "fill" | "set_value" | "select" | "check" | "uncheck" | "paste"
        | "select_text" | "upload" => forms::act(ctx, tab, action, args).await,
        "press" | "keyboard_type" | "keydown" | "keyup" => {
            keyboard::act(ctx, tab, f, action, args).await
        }
        "dialog" | "tab_select" | "tab_get" => tabs::act(ctx, b, tab, f, action, args).await,
        "get_url"
        | "get_title"
        | "get_content"
        | "get_html"
        | "snapshot"
        | "screenshot"
        | "screenshot_annotate"
        | "state_and_screenshot"
        | "evaluate"
        | "pdf"
        | "probe" => observe::act(ctx, tab, action, args).await,
        "secondary_action" => Err(DaemonError::Unsupported {
            tool: "browser".into(),
            action: "secondary_action".into(),
            reason: "DOM elements expose no named secondary actions; use click with button \
                     right, press, or evaluate"
                .into(),
            available: vec!["click".into(), "press".into(), "evaluate".into()],
        }),
        other => Err(unsupported(other)),
    }
}
