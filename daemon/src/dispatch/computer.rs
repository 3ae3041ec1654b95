//! `computer` actions: arguments from the contract -> the desktop backend (`crate::desktop`).
//! Every acting result says `via` and `actual_dispatch`; every result names its target.
//! This file holds the table and what every handler shares (target, refs, points); the
//! handlers live in one submodule per group.

mod act;
mod clipboard;
mod input;
mod snapshot;
mod windows;

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{json, Map, Value};

use super::table::Entries;
use super::{Ctx, Handler, Output};
use crate::desktop::{Acted, Aim, Desktop, El};
use crate::error::DaemonError;

pub(super) use snapshot::snapshot_app;
pub(super) use windows::image_json;

pub static HANDLERS: Entries = &[
    ("wait", snapshot::wait_for as Handler),
    ("snapshot", snapshot::snapshot),
    ("click", act::click),
    ("double_click", act::click),
    ("type", act::type_text),
    ("fill", act::fill),
    ("set_value", act::set_value),
    ("paste", clipboard::paste),
    ("select_text", act::select_text),
    ("secondary_action", act::secondary_action),
    ("get_text", act::get_text),
    ("key", input::key),
    ("keydown", input::keydown),
    ("keyup", input::keyup),
    ("scroll", input::scroll),
    ("drag", input::drag),
    ("mouse_move", input::mouse_move),
    ("mouse_down", input::mouse_down),
    ("mouse_up", input::mouse_up),
    ("window", windows::window),
    ("screenshot", windows::screenshot),
    ("get_window_state", windows::get_window_state),
    ("state_and_screenshot", windows::state_and_screenshot),
    ("clipboard_get", clipboard::clipboard_get),
    ("clipboard_set", clipboard::clipboard_set),
    ("probe", windows::probe),
];

type Fut = BoxFuture<'static, Result<Output, DaemonError>>;
type Args = Map<String, Value>;

/// The desktop backend, or why it is not there.
pub(super) fn desktop(ctx: &Ctx) -> Result<Arc<Desktop>, DaemonError> {
    ctx.daemon.desktop().ok_or_else(|| {
        let reason = ctx
            .daemon
            .backends()
            .get("desktop")
            .and_then(|s| s.reason.clone())
            .unwrap_or_else(|| "no desktop backend is connected".into());
        DaemonError::BackendUnavailable {
            backend: "desktop",
            reason,
            remedy: "start the daemon where an X display and the AT-SPI bus are reachable \
                     (--desktop embedded starts both)"
                .into(),
        }
    })
}

fn s<'a>(a: &'a Args, k: &str) -> Option<&'a str> {
    a.get(k).and_then(Value::as_str)
}

fn int(a: &Args, k: &str) -> Option<i64> {
    a.get(k).and_then(Value::as_i64)
}

/// What a call acts on: an app (`app:<pid>`) or the whole desktop.
struct Target {
    key: String,
    pid: Option<u32>,
    window_id: Option<String>,
    window_title: Option<String>,
    source: &'static str,
}

impl Target {
    /// What real input is aimed at: the window the call names, else the app it names or its
    /// ref's app; nothing when it names neither (the session's selection is not a name).
    fn aim(&self, a: &Args, ref_field: &str) -> Aim {
        if let Some(xid) = s(a, "window_id").and_then(crate::desktop::x11::parse_window_id) {
            return Aim::Window(xid);
        }
        let named = s(a, "app_id").is_some() || s(a, ref_field).is_some();
        match self.pid {
            Some(pid) if named => Aim::App(pid),
            _ => Aim::Free,
        }
    }

    fn json(&self) -> Value {
        json!({"app_id": self.pid.map(|p| format!("app:{p}")), "window_id": self.window_id,
               "source": self.source})
    }
}

async fn target(ctx: &Ctx, d: &Desktop, a: &Args) -> Result<Target, DaemonError> {
    let sel = ctx.session.selection();
    let explicit_app = s(a, "app_id").map(String::from);
    let explicit_win = s(a, "window_id").map(String::from);
    let source =
        if explicit_app.is_some() || explicit_win.is_some() { "explicit" } else { "session" };
    let app_id =
        explicit_app.clone().or(if explicit_win.is_none() { sel.app_id.clone() } else { None });
    let window_id =
        explicit_win.clone().or(if explicit_app.is_none() { sel.window_id.clone() } else { None });
    let mut pid = app_id.as_deref().and_then(crate::desktop::atspi::app_pid);
    let mut window_title = None;
    if let Some(w) = &window_id {
        if let Some(win) = d.windows().await?.into_iter().find(|x| &x.window_id == w) {
            if pid.is_none() {
                pid = win.pid;
            }
            if explicit_win.is_some() {
                window_title = Some(win.title);
            }
        } else if explicit_win.is_some() {
            return Err(DaemonError::TargetNotFound { kind: "window", id: w.clone() });
        }
    }
    let key = pid.map(|p| format!("app:{p}")).unwrap_or_else(|| "desktop".into());
    Ok(Target { key, pid, window_id, window_title, source })
}

/// The element named by `field` (a ref), resolved in this session's snapshots of `t`.
fn element(ctx: &Ctx, t: &Target, a: &Args, field: &str) -> Result<Option<El>, DaemonError> {
    let Some(r) = s(a, field) else { return Ok(None) };
    let snaps = ctx
        .session
        .snapshots
        .lock()
        .map_err(|_| DaemonError::ActionFailed("snapshot registry poisoned".into()))?;
    let key = snaps.resolve(&t.key, r, s(a, "snapshot_id"))?;
    Ok(Some(El { key, label: crate::registry::snapshots::normalize_ref(r) }))
}

fn need(el: Option<El>) -> Result<El, DaemonError> {
    el.ok_or_else(|| DaemonError::ActionFailed("this action needs a ref".into()))
}

fn out(t: &Target, result: Value) -> Output {
    Output { result, target: Some(t.json()) }
}

fn acted(t: &Target, a: Acted, extra: Value) -> Output {
    let mut v = serde_json::to_value(a).unwrap_or_default();
    if let (Some(m), Value::Object(e)) = (v.as_object_mut(), extra) {
        m.extend(e);
    }
    out(t, v)
}

fn button(a: &Args) -> u8 {
    match s(a, "button") {
        Some("middle") => 2,
        Some("right") => 3,
        _ => 1,
    }
}

/// A screen point from x,y or nx,ny.
fn point(d: &Desktop, a: &Args, x: &str, y: &str, nx: &str, ny: &str) -> Option<(i32, i32)> {
    if let (Some(x), Some(y)) = (int(a, x), int(a, y)) {
        return Some((x as i32, y as i32));
    }
    let (w, h) = d.screen();
    let fx = a.get(nx).and_then(Value::as_f64)?;
    let fy = a.get(ny).and_then(Value::as_f64)?;
    Some((
        (fx * f64::from(w)).min(f64::from(w) - 1.0) as i32,
        (fy * f64::from(h)).min(f64::from(h) - 1.0) as i32,
    ))
}
