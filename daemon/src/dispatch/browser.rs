//! `browser` actions: arguments from the contract -> the CDP backend (`crate::browser`).
//!
//! Every call freezes its target first (explicit ids, else the session's selection, else the
//! browser's active tab) and echoes it with `tab_source`; refs resolve through the session's
//! snapshot registry before the backend sees a backend node key.
//!
//! This module holds the table from each action to the module that runs it and the shared
//! pipeline of actions on a tab (`on_tab`): `target` (what a call acts on), `tabs`,
//! `navigation`, `pointer`, `keyboard`, `forms`, `observe` and `waiting`.

mod forms;
mod keyboard;
mod navigation;
mod observe;
mod pointer;
mod tabs;
mod target;
mod waiting;

use std::future::Future;
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
use forms::Forms;
use keyboard::Keyboard;
use navigation::Navigation;
use observe::Observe;
use pointer::Pointer;
use tabs::TabActs;
use target::{browser_of, freeze, Frozen};
use waiting::wait_for;

pub static HANDLERS: Entries = &[
    ("navigate", on_tab::<Navigation>),
    ("click", on_tab::<Pointer>),
    ("double_click", on_tab::<Pointer>),
    ("hover", on_tab::<Pointer>),
    ("focus", on_tab::<Forms>),
    ("type", on_tab::<Forms>),
    ("fill", on_tab::<Forms>),
    ("set_value", on_tab::<Forms>),
    ("select", on_tab::<Forms>),
    ("check", on_tab::<Forms>),
    ("uncheck", on_tab::<Forms>),
    ("paste", on_tab::<Forms>),
    ("select_text", on_tab::<Forms>),
    ("secondary_action", secondary_action),
    ("press", on_tab::<Keyboard>),
    ("keyboard_type", on_tab::<Keyboard>),
    ("keydown", on_tab::<Keyboard>),
    ("keyup", on_tab::<Keyboard>),
    ("scroll", on_tab::<Pointer>),
    ("scroll_into_view", on_tab::<Pointer>),
    ("drag", on_tab::<Pointer>),
    ("upload", on_tab::<Forms>),
    ("wait", wait_for),
    ("dialog", on_tab::<TabActs>),
    ("go_back", on_tab::<Navigation>),
    ("go_forward", on_tab::<Navigation>),
    ("reload", on_tab::<Navigation>),
    ("tab_new", tabs::new),
    ("tab_select", on_tab::<TabActs>),
    ("tab_get", on_tab::<TabActs>),
    ("tab_close", tabs::close),
    ("tab_mark", tabs::mark),
    ("snapshot", on_tab::<Observe>),
    ("get_content", on_tab::<Observe>),
    ("get_html", on_tab::<Observe>),
    ("get_url", on_tab::<Observe>),
    ("get_title", on_tab::<Observe>),
    ("screenshot", on_tab::<Observe>),
    ("screenshot_annotate", on_tab::<Observe>),
    ("state_and_screenshot", on_tab::<Observe>),
    ("evaluate", on_tab::<Observe>),
    ("pdf", on_tab::<Observe>),
    ("tab_list", tabs::list),
    ("downloads", tabs::downloads),
    ("probe", on_tab::<Observe>),
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
    let Some((b, keys)) = take_held(daemon, session) else { return };
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        rt.spawn(async move { b.release_keys(keys).await });
    }
}

/// The same, done when this returns (the daemon is about to exit).
pub(super) async fn release_held_now(daemon: &Daemon, session: &crate::session::Session) {
    if let Some((b, keys)) = take_held(daemon, session) {
        b.release_keys(keys).await;
    }
}

/// Held browser keys as (tab id, key).
type HeldKeys = Vec<(String, String)>;

/// The browser keys `session` holds, forgotten, and the backend to release them on.
fn take_held(
    daemon: &Daemon,
    session: &crate::session::Session,
) -> Option<(Arc<Browsers>, HeldKeys)> {
    let b = daemon.config.browser.clone()?;
    let keys = match session.held.lock() {
        Ok(mut h) if !h.browser_keys.is_empty() => std::mem::take(&mut h.browser_keys),
        _ => return None,
    };
    Some((b, keys))
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

/// What an action on a tab gets once its target is frozen and the tab is open.
struct On<'a> {
    ctx: &'a Ctx,
    b: &'a Browsers,
    tab: &'a Tab,
    f: &'a Frozen,
    action: &'a str,
    args: &'a Map<String, Value>,
}

/// One module's actions on an open tab; `on_tab::<Module>` is their handler in the table.
trait OnTab {
    fn act(on: On<'_>) -> impl Future<Output = Result<Value, DaemonError>> + Send + '_;
}

/// The pipeline of an action on a tab: freeze the target, open the tab, run the module's
/// part; held keys are let go when it fails.
fn on_tab<T: OnTab>(ctx: Ctx, call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async move {
        let b = backend(&ctx.daemon)?;
        let mut guard =
            ReleaseOnFailure { browsers: b.clone(), session: ctx.session.clone(), armed: true };
        let out = open_and_act::<T>(&ctx, &b, &call).await;
        guard.armed = out.is_err();
        out
    })
}

async fn open_and_act<T: OnTab>(
    ctx: &Ctx,
    b: &Browsers,
    call: &Checked,
) -> Result<Output, DaemonError> {
    let args = &call.args;
    let f = freeze(ctx, b, args).await?;
    let tab = match b.tab(&f.browser_id, &f.tab_id).await {
        Ok(t) => t,
        Err(e) => {
            // Refs of a tab that is gone are stale, not unknown.
            if let Some(r) = s(args, "ref") {
                let key = crate::browser::target_key(&f.browser_id, &f.tab_id);
                let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
                snaps.resolve(&key, r, s(args, "snapshot_id"))?;
            }
            return Err(e.into());
        }
    };
    let on = On { ctx, b, tab: &tab, f: &f, action: call.action.name, args };
    let result = T::act(on).await?;
    Ok(Output { result, target: Some(f.json()) })
}

/// `secondary_action`: DOM elements have no named secondary actions.
fn secondary_action(_: Ctx, _: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async {
        Err(DaemonError::Unsupported {
            tool: "browser".into(),
            action: "secondary_action".into(),
            reason: "DOM elements expose no named secondary actions; use click with button \
                     right, press, or evaluate"
                .into(),
            available: vec!["click".into(), "press".into(), "evaluate".into()],
        })
    })
}
