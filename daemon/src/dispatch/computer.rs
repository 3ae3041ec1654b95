//! `computer` actions: arguments from the contract -> the desktop backend (`crate::desktop`).
//! Every acting result says `via` and `actual_dispatch`; every result names its target.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use glovebox_protocol::contract::Checked;
use serde_json::{json, Map, Value};

use super::table::Entries;
use super::{wait, Ctx, Handler, Output};
use crate::desktop::x11::{ImageFormat, WindowOp};
use crate::desktop::{Acted, Desktop, Dispatch, El};
use crate::error::DaemonError;
use crate::registry::snapshots::{Budget, View};

pub static HANDLERS: Entries = &[
    ("wait", wait_for as Handler),
    ("snapshot", snapshot),
    ("click", click),
    ("double_click", click),
    ("type", type_text),
    ("fill", fill),
    ("set_value", set_value),
    ("paste", paste),
    ("select_text", select_text),
    ("secondary_action", secondary_action),
    ("get_text", get_text),
    ("key", key),
    ("keydown", keydown),
    ("keyup", keyup),
    ("scroll", scroll),
    ("drag", drag),
    ("mouse_move", mouse_move),
    ("mouse_down", mouse_down),
    ("mouse_up", mouse_up),
    ("window", window),
    ("screenshot", screenshot),
    ("get_window_state", get_window_state),
    ("state_and_screenshot", state_and_screenshot),
    ("clipboard_get", clipboard_get),
    ("clipboard_set", clipboard_set),
    ("probe", probe),
];

type Fut = BoxFuture<'static, Result<Output, DaemonError>>;
type Args = Map<String, Value>;

/// The desktop backend, or why it is not there.
pub(super) fn desktop(ctx: &Ctx) -> Result<Arc<Desktop>, DaemonError> {
    ctx.daemon.config.desktop.clone().ok_or_else(|| {
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
    let mut pid =
        app_id.as_deref().and_then(|id| id.strip_prefix("app:")).and_then(|p| p.parse().ok());
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

fn budget(a: &Args) -> Budget {
    Budget {
        limit: int(a, "limit").unwrap_or(300) as usize,
        query: s(a, "query").map(String::from),
        disable_diffing: a.get("disable_diffing").and_then(Value::as_bool).unwrap_or(false),
        ..Budget::default()
    }
}

/// Walks an app and records the observation in the session's snapshots.
pub(super) async fn snapshot_app(
    ctx: &Ctx,
    d: &Desktop,
    pid: u32,
    scope: Option<&El>,
    window_title: Option<&str>,
    max_depth: u16,
    budget: &Budget,
) -> Result<View, DaemonError> {
    let started = Instant::now();
    let key = format!("app:{pid}");
    let elems = match d.observe_app(pid, scope, window_title, max_depth).await {
        Ok(e) => e,
        Err(e @ crate::desktop::Error::NotFound { .. }) => {
            // The app is gone: its refs go stale with the reason.
            if let Ok(mut snaps) = ctx.session.snapshots.lock() {
                snaps.invalidate(&key, "the app exited");
            }
            return Err(e.into());
        }
        Err(e) => return Err(e.into()),
    };
    let nodes = crate::desktop::nodes(&elems);
    let mut snaps = ctx
        .session
        .snapshots
        .lock()
        .map_err(|_| DaemonError::ActionFailed("snapshot registry poisoned".into()))?;
    let view = snaps.record(&key, scope.map(|e| e.label.as_str()), &nodes, budget);
    tracing::debug!(
        pid,
        nodes = nodes.len(),
        ms = started.elapsed().as_millis() as u64,
        "desktop snapshot"
    );
    Ok(view)
}

async fn take_snapshot(ctx: &Ctx, d: &Desktop, t: &Target, a: &Args) -> Result<View, DaemonError> {
    let b = budget(a);
    let scope = element(ctx, t, a, "scope_ref")?;
    match t.pid {
        Some(pid) => {
            let depth = int(a, "max_depth").unwrap_or(60) as u16;
            snapshot_app(ctx, d, pid, scope.as_ref(), t.window_title.as_deref(), depth, &b).await
        }
        None => {
            let depth = int(a, "max_depth").unwrap_or(3) as u16;
            let elems = d.observe_desktop(depth).await?;
            let nodes = crate::desktop::nodes(&elems);
            let mut snaps = ctx
                .session
                .snapshots
                .lock()
                .map_err(|_| DaemonError::ActionFailed("snapshot registry poisoned".into()))?;
            Ok(snaps.record("desktop", None, &nodes, &b))
        }
    }
}

fn snapshot(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        if let Some(cursor) = s(&a, "cursor") {
            let snaps = ctx
                .session
                .snapshots
                .lock()
                .map_err(|_| DaemonError::ActionFailed("snapshot registry poisoned".into()))?;
            let v = snaps.continue_from(cursor, &budget(&a))?;
            return Ok(Output::new(v.to_json()));
        }
        let t = target(&ctx, &d, &a).await?;
        let started = Instant::now();
        let v = take_snapshot(&ctx, &d, &t, &a).await?;
        let mut r = v.to_json();
        r["elapsed_ms"] = json!(started.elapsed().as_millis() as u64);
        Ok(out(&t, r))
    })
}

fn click(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let count = int(&a, "click_count").unwrap_or(if call.action.name == "double_click" {
            2
        } else {
            1
        }) as u8;
        let b = button(&a);
        let dispatch = Dispatch::parse(s(&a, "dispatch"));
        let r = match element(&ctx, &t, &a, "ref")? {
            Some(el) => d.click(&el, b, count, dispatch).await?,
            None => {
                let (x, y) = point(&d, &a, "x", "y", "nx", "ny").ok_or_else(|| {
                    DaemonError::ActionFailed("click needs a ref or a point".into())
                })?;
                d.click_at(x, y, b, count).await?
            }
        };
        Ok(acted(&t, r, json!({"button": s(&a, "button").unwrap_or("left"), "click_count": count})))
    })
}

fn type_text(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = element(&ctx, &t, &a, "ref")?;
        let text = s(&a, "text").unwrap_or_default();
        let r = d
            .type_text(el.as_ref(), text, Dispatch::parse(s(&a, "dispatch")), s(&a, "window_id"))
            .await?;
        Ok(acted(&t, r, json!({"typed_chars": text.chars().count()})))
    })
}

fn fill(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = element(&ctx, &t, &a, "ref")?;
        if el.is_none() {
            if let Some(w) = s(&a, "window_id") {
                d.verify_active(w).await?;
            }
        }
        let r = d
            .fill(
                el.as_ref(),
                s(&a, "text").unwrap_or_default(),
                Dispatch::parse(s(&a, "dispatch")),
            )
            .await?;
        Ok(acted(&t, r, json!({})))
    })
}

fn set_value(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = need(element(&ctx, &t, &a, "ref")?)?;
        let r = d
            .set_value(&el, s(&a, "value").unwrap_or_default(), Dispatch::parse(s(&a, "dispatch")))
            .await?;
        Ok(acted(&t, r, json!({})))
    })
}

fn paste(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = element(&ctx, &t, &a, "ref")?;
        let html = s(&a, "format") == Some("html");
        let r = d
            .paste(el.as_ref(), s(&a, "text").unwrap_or_default(), html, s(&a, "window_id"))
            .await?;
        Ok(out(&t, r))
    })
}

fn select_text(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = need(element(&ctx, &t, &a, "ref")?)?;
        let kind = s(&a, "selection_type").unwrap_or("select");
        let (start, end) = d
            .select_text(
                &el,
                s(&a, "text").unwrap_or_default(),
                s(&a, "prefix").unwrap_or(""),
                s(&a, "suffix").unwrap_or(""),
                kind,
            )
            .await?;
        Ok(out(
            &t,
            json!({"start": start, "end": end, "selection_type": kind,
                          "via": "accessibility:text", "actual_dispatch": "background"}),
        ))
    })
}

fn secondary_action(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = need(element(&ctx, &t, &a, "ref")?)?;
        let r = d.secondary_action(&el, s(&a, "name").unwrap_or_default()).await?;
        Ok(acted(&t, r, json!({"name": s(&a, "name")})))
    })
}

fn get_text(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = need(element(&ctx, &t, &a, "ref")?)?;
        let r = d.get_text(&el).await?;
        Ok(out(&t, serde_json::to_value(r).unwrap_or_default()))
    })
}

fn key(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let chord = s(&a, "key").unwrap_or_default();
        if let Some(w) = s(&a, "window_id") {
            d.verify_active(w).await?;
        }
        let r = d.key(chord).await?;
        Ok(acted(&t, r, json!({"key": chord})))
    })
}

fn held_keys(ctx: &Ctx) -> Vec<String> {
    ctx.session.held.lock().map(|h| h.desktop_keys.clone()).unwrap_or_default()
}

fn keydown(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let chord = s(&a, "key").unwrap_or_default().to_owned();
        crate::desktop::keys::parse_chord(&chord).map_err(|reason| DaemonError::Unsupported {
            tool: "computer".into(),
            action: "keydown".into(),
            reason,
            available: vec![],
        })?;
        // Track first, so a failure half-way still releases what went down.
        let names: Vec<String> = chord_words(&chord);
        if let Ok(mut h) = ctx.session.held.lock() {
            for n in &names {
                if !h.desktop_keys.contains(n) {
                    h.desktop_keys.push(n.clone());
                }
            }
        }
        d.key_toggle(&chord, true).await?;
        Ok(acted(&t, real_input(), json!({"held": held_keys(&ctx)})))
    })
}

/// What keyboard and pointer actions report: real input through XTest.
fn real_input() -> Acted {
    Acted { via: "xtest".into(), actual_dispatch: "foreground", at: None, value: None }
}

/// The words of a chord as held-key names (`Control+Shift+T` -> Control, Shift, T).
fn chord_words(chord: &str) -> Vec<String> {
    if chord.trim() == "+" {
        return vec!["+".into()];
    }
    let mut words: Vec<String> =
        chord.split('+').filter(|w| !w.is_empty()).map(String::from).collect();
    if chord.ends_with("++") {
        words.push("+".into());
    }
    words
}

fn keyup(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let chord = s(&a, "key").unwrap_or_default().to_owned();
        let r = d.key_toggle(&chord, false).await;
        if let Ok(mut h) = ctx.session.held.lock() {
            let names = chord_words(&chord);
            h.desktop_keys.retain(|k| !names.iter().any(|n| n.eq_ignore_ascii_case(k)));
        }
        r?;
        Ok(acted(&t, real_input(), json!({"held": held_keys(&ctx)})))
    })
}

fn scroll(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let (x, y) = match element(&ctx, &t, &a, "ref")? {
            Some(el) => d.center(&el).await?,
            None => point(&d, &a, "x", "y", "nx", "ny").unwrap_or_else(|| {
                let (w, h) = d.screen();
                (i32::from(w) / 2, i32::from(h) / 2)
            }),
        };
        let direction = s(&a, "direction").unwrap_or("down");
        let clicks = match (int(&a, "amount"), a.get("pages").and_then(Value::as_f64)) {
            (Some(px), _) => (px as u32).div_ceil(50),
            (None, Some(p)) => (p * 8.0).ceil() as u32,
            _ => 3,
        };
        let r = d.scroll(x, y, direction, clicks).await?;
        Ok(acted(&t, r, json!({"direction": direction, "wheel_clicks": clicks})))
    })
}

fn drag(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let from = point(&d, &a, "x", "y", "nx", "ny")
            .ok_or_else(|| DaemonError::ActionFailed("drag needs a start point".into()))?;
        let to = match element(&ctx, &t, &a, "target_ref")? {
            Some(el) => d.center(&el).await?,
            None => point(&d, &a, "to_x", "to_y", "to_nx", "to_ny")
                .ok_or_else(|| DaemonError::ActionFailed("drag needs a drop point".into()))?,
        };
        let r = d.drag(from, to, button(&a)).await?;
        Ok(acted(&t, r, json!({"from": {"x": from.0, "y": from.1}, "to": {"x": to.0, "y": to.1}})))
    })
}

fn held_buttons(ctx: &Ctx) -> Vec<u8> {
    ctx.session.held.lock().map(|h| h.desktop_buttons.iter().copied().collect()).unwrap_or_default()
}

fn mouse_move(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let (x, y) = point(&d, &a, "x", "y", "nx", "ny")
            .ok_or_else(|| DaemonError::ActionFailed("mouse_move needs a point".into()))?;
        d.mouse_move(x, y).await?;
        let mut r = real_input();
        r.at = Some(crate::desktop::ops_types::Point { x, y });
        Ok(acted(&t, r, json!({"buttons_held": held_buttons(&ctx)})))
    })
}

fn mouse_down(ctx: Ctx, call: Checked) -> Fut {
    mouse_updown(ctx, call, true)
}

fn mouse_up(ctx: Ctx, call: Checked) -> Fut {
    mouse_updown(ctx, call, false)
}

fn mouse_updown(ctx: Ctx, call: Checked, down: bool) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let b = button(&a);
        let at = point(&d, &a, "x", "y", "nx", "ny");
        if down {
            if let Ok(mut h) = ctx.session.held.lock() {
                h.desktop_buttons.insert(b);
            }
        }
        let r = d.mouse_button(at, b, down).await;
        if !down {
            if let Ok(mut h) = ctx.session.held.lock() {
                h.desktop_buttons.remove(&b);
            }
        }
        let (x, y) = r?;
        let mut r = real_input();
        r.at = Some(crate::desktop::ops_types::Point { x, y });
        Ok(acted(&t, r, json!({"buttons_held": held_buttons(&ctx)})))
    })
}

fn window(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let id = s(&a, "window_id").unwrap_or_default().to_owned();
        let op = match s(&a, "operation").unwrap_or_default() {
            "minimize" => WindowOp::Minimize,
            "maximize" => WindowOp::Maximize,
            "restore" => WindowOp::Restore,
            "close" => WindowOp::Close,
            "move" => {
                WindowOp::Move(int(&a, "x").unwrap_or(0) as i32, int(&a, "y").unwrap_or(0) as i32)
            }
            _ => WindowOp::Resize(
                int(&a, "width").unwrap_or(1) as u32,
                int(&a, "height").unwrap_or(1) as u32,
            ),
        };
        let w = d.window_op(&id, op).await?;
        if matches!(op, WindowOp::Close) {
            if let Some(pid) = t.pid {
                if let Ok(mut snaps) = ctx.session.snapshots.lock() {
                    if w.is_none() {
                        snaps.invalidate(&format!("app:{pid}"), "its window was closed");
                    }
                }
            }
        }
        Ok(out(
            &t,
            json!({"window_id": id, "operation": s(&a, "operation"), "closed": w.is_none(),
                          "window": w, "via": "ewmh", "actual_dispatch": "foreground"}),
        ))
    })
}

fn image_json(img: &crate::desktop::x11::Encoded, format: ImageFormat) -> Value {
    json!({"mime": format.mime(), "width": img.width, "height": img.height, "scale": img.scale,
           "coordinate_space": "screen",
           "region": {"x": img.region.0, "y": img.region.1, "width": img.region.2, "height": img.region.3},
           "captured_via": img.via, "data": base64(&img.data)})
}

fn image_format(a: &Args) -> ImageFormat {
    match s(a, "format") {
        Some("jpeg") => ImageFormat::Jpeg,
        Some("webp") => ImageFormat::Webp,
        _ => ImageFormat::Png,
    }
}

async fn capture(d: &Desktop, a: &Args, window: Option<&str>) -> Result<Value, DaemonError> {
    let region = a.get("region").and_then(Value::as_object).map(|r| {
        let g = |k: &str| r.get(k).and_then(Value::as_i64).unwrap_or(0);
        (g("x") as i32, g("y") as i32, g("width") as u32, g("height") as u32)
    });
    let format = image_format(a);
    let quality = int(a, "quality").unwrap_or(80) as u8;
    let max_width = int(a, "max_width").map(|w| w as u32);
    let started = Instant::now();
    let img = d.screenshot(window, region, format, quality, max_width).await?;
    let mut v = image_json(&img, format);
    v["elapsed_ms"] = json!(started.elapsed().as_millis() as u64);
    Ok(v)
}

fn screenshot(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let v = capture(&d, &a, s(&a, "window_id")).await?;
        Ok(out(&t, v))
    })
}

fn get_window_state(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let snap = take_snapshot(&ctx, &d, &t, &a).await?;
        let window =
            d.windows().await?.into_iter().find(|w| Some(&w.window_id) == t.window_id.as_ref());
        let shot = if a.get("include_screenshot").and_then(Value::as_bool).unwrap_or(true) {
            Some(capture(&d, &a, s(&a, "window_id")).await?)
        } else {
            None
        };
        Ok(out(&t, json!({"window": window, "snapshot": snap, "screenshot": shot})))
    })
}

fn state_and_screenshot(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let before = d
            .screenshot(None, Some((0, 0, 64, 64)), ImageFormat::Png, 80, None)
            .await
            .ok()
            .map(|i| i.data);
        let snap = take_snapshot(&ctx, &d, &t, &a).await?;
        let shot = capture(&d, &a, t.window_id.as_deref().filter(|_| s(&a, "window_id").is_some()))
            .await?;
        let after = d
            .screenshot(None, Some((0, 0, 64, 64)), ImageFormat::Png, 80, None)
            .await
            .ok()
            .map(|i| i.data);
        Ok(out(
            &t,
            json!({"snapshot": snap, "screenshot": shot, "consistent": before.is_some() && before == after}),
        ))
    })
}

fn clipboard_get(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let html = s(&call.args, "format") == Some("html");
        let text = d.clipboard_get(html).await?;
        Ok(Output::new(
            json!({"text": text, "format": if html { "html" } else { "text" }, "empty": text.is_none()}),
        ))
    })
}

fn clipboard_set(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let html = s(&call.args, "format") == Some("html");
        let text = s(&call.args, "text").unwrap_or_default();
        d.clipboard_set(text, html).await?;
        Ok(Output::new(
            json!({"set": true, "text": text, "format": if html { "html" } else { "text" }}),
        ))
    })
}

fn probe(ctx: Ctx, _call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let apps = d.apps().await;
        let wins = d.windows().await;
        let shot = d.screenshot(None, Some((0, 0, 8, 8)), ImageFormat::Png, 80, None).await;
        let clip = d.clipboard_get(false).await;
        let word = |ok: bool, err: Option<String>| json!({"available": ok, "reason": err});
        let (w, h) = d.screen();
        Ok(Output::new(json!({
            "display": {"available": true, "name": d.display(), "width": w, "height": h},
            "accessibility": word(apps.is_ok(), apps.as_ref().err().map(|e| e.to_string())),
            "apps": apps.map(|a| a.len()).unwrap_or(0),
            "windows": word(wins.is_ok(), wins.err().map(|e| e.to_string())),
            "input": word(true, None),
            "screenshot": word(shot.is_ok(), shot.err().map(|e| e.to_string())),
            "clipboard": word(clip.is_ok(), clip.err().map(|e| e.to_string())),
        })))
    })
}

/// `wait`: a fixed pause, or until an element appears/disappears or a window opens.
fn wait_for(ctx: Ctx, call: Checked) -> Fut {
    let Some(until) = s(&call.args, "until").map(String::from) else {
        return wait::pause(ctx, call);
    };
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let query = s(&a, "query").unwrap_or_default().to_lowercase();
        let timeout = Duration::from_millis(int(&a, "timeout").unwrap_or(30_000) as u64);
        let deadline = (Instant::now() + timeout).min(ctx.op.deadline);
        let started = Instant::now();
        let words: Vec<&str> = query.split_whitespace().collect();
        let hit = |line: &str| {
            let l = line.to_lowercase();
            words.iter().all(|w| l.contains(w))
        };
        loop {
            let found = match until.as_str() {
                "window_opens" => d.windows().await?.iter().any(|w| hit(&w.title)),
                _ => {
                    let elems = match t.pid {
                        Some(pid) => d.observe_app(pid, None, None, 60).await?,
                        None => d.observe_desktop(8).await?,
                    };
                    let nodes = crate::desktop::nodes(&elems);
                    let present = nodes.iter().any(|n| hit(&format!("{} {}", n.head, n.tail)));
                    if until == "element_appears" {
                        present
                    } else {
                        !present
                    }
                }
            };
            if found {
                return Ok(out(
                    &t,
                    json!({"until": until, "query": query, "happened": true,
                                         "waited_ms": started.elapsed().as_millis() as u64}),
                ));
            }
            if Instant::now() >= deadline {
                return Err(DaemonError::Timeout { ms: timeout.as_millis() as u64 });
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(100)) => {}
                _ = ctx.op.cancel.cancelled() => return Err(DaemonError::Cancelled),
            }
        }
    })
}

/// Standard base64 with padding.
fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(T[(n >> 18) as usize & 63] as char);
        out.push(T[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 { T[(n >> 6) as usize & 63] as char } else { '=' });
        out.push(if c.len() > 2 { T[n as usize & 63] as char } else { '=' });
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_pads() {
        assert_eq!(super::base64(b"Ma"), "TWE=");
        assert_eq!(super::base64(b"Man"), "TWFu");
        assert_eq!(super::base64(b"M"), "TQ==");
    }
}
