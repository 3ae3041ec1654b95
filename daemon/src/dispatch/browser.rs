//! `browser` actions: arguments from the contract -> the CDP backend (`crate::browser`).
//!
//! Every call freezes its target first (explicit ids, else the session's selection, else the
//! browser's active tab) and echoes it with `tab_source`; refs resolve through the session's
//! snapshot registry before the backend sees a backend node key.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use glovebox_protocol::contract::Checked;
use serde_json::{json, Map, Value};

use super::table::Entries;
use super::{wait, Ctx, Output};
use crate::browser::actions::El;
use crate::browser::{input, snapshot, BrowserError, Browsers, Tab};
use crate::error::DaemonError;
use crate::registry::snapshots::Budget;
use crate::state::Daemon;

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

/// The frozen target of one call.
pub(super) struct Frozen {
    pub browser_id: String,
    pub tab_id: String,
    pub source: &'static str,
}

impl Frozen {
    fn json(&self) -> Value {
        json!({"browser_id": self.browser_id, "tab_id": self.tab_id, "tab_source": self.source})
    }
}

/// The browser of a call: explicit, else the session's, else the default (started on demand).
pub(super) async fn browser_of(
    ctx: &Ctx,
    b: &Browsers,
    args: &Map<String, Value>,
) -> Result<String, DaemonError> {
    if let Some(id) = s(args, "browser_id") {
        return Ok(id.to_owned());
    }
    if let Some(id) = ctx.session.selection().browser_id {
        return Ok(id);
    }
    Ok(b.ensure_default().await?)
}

async fn freeze(ctx: &Ctx, b: &Browsers, args: &Map<String, Value>) -> Result<Frozen, DaemonError> {
    let browser_id = browser_of(ctx, b, args).await?;
    let sel = ctx.session.selection();
    if let Some(t) = s(args, "tab_id") {
        return Ok(Frozen { browser_id, tab_id: t.to_owned(), source: "explicit" });
    }
    if let Some(i) = u(args, "tab_index") {
        let tabs = b.tabs(&browser_id).await?;
        let Some(t) = tabs.get(i as usize) else {
            return Err(DaemonError::TargetNotFound { kind: "tab", id: format!("tab_index {i}") });
        };
        return Ok(Frozen { browser_id, tab_id: t.tab_id.clone(), source: "explicit" });
    }
    if let (Some(sb), Some(st)) = (&sel.browser_id, &sel.tab_id) {
        if *sb == browser_id {
            let alive = b.tabs(&browser_id).await?.iter().any(|t| t.tab_id == *st);
            if alive {
                return Ok(Frozen { browser_id, tab_id: st.clone(), source: "session" });
            }
            // The session's tab is gone (closed, or its browser restarted): its refs are
            // stale; a call without refs moves on to the active tab.
            if let Some(r) = s(args, "ref") {
                let key = crate::browser::target_key(&browser_id, st);
                let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
                snaps.resolve(&key, r, s(args, "snapshot_id"))?;
                return Err(DaemonError::StaleRef {
                    r#ref: crate::registry::snapshots::normalize_ref(r),
                    reason: format!("the session's tab {st} is gone"),
                });
            }
        }
    }
    let tab_id = b.active_tab(&browser_id).await?;
    // The session adopts it, unless the call named another browser than the session's.
    if !args.contains_key("browser_id") || sel.browser_id.is_none() {
        select(ctx, &browser_id, &tab_id);
    }
    Ok(Frozen { browser_id, tab_id, source: "active" })
}

pub(super) fn select(ctx: &Ctx, browser_id: &str, tab_id: &str) {
    if let Ok(mut sel) = ctx.session.selection.lock() {
        sel.browser_id = Some(browser_id.to_owned());
        sel.tab_id = Some(tab_id.to_owned());
    }
}

/// The element a call names by `ref_key` or `sel_key`, if any.
async fn element(
    ctx: &Ctx,
    tab: &Tab,
    args: &Map<String, Value>,
    ref_key: &str,
    sel_key: &str,
) -> Result<Option<El>, DaemonError> {
    if let Some(r) = s(args, ref_key) {
        let key = {
            let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
            snaps.resolve(&tab.key(), r, s(args, "snapshot_id"))?
        };
        return match tab.element_by_key(&key).await {
            Ok(el) => Ok(Some(el)),
            Err(BrowserError::Gone(why)) => Err(DaemonError::StaleRef {
                r#ref: crate::registry::snapshots::normalize_ref(r),
                reason: format!("the element is no longer in the page ({why})"),
            }),
            Err(e) => Err(e.into()),
        };
    }
    if let Some(sel) = s(args, sel_key) {
        return Ok(Some(tab.element_by_selector(sel).await?));
    }
    Ok(None)
}

fn poisoned() -> DaemonError {
    DaemonError::ActionFailed("the session's state is unusable after a panic".into())
}

/// A viewport point from x,y or nx,ny (with the given key names).
async fn point(
    tab: &Tab,
    args: &Map<String, Value>,
    keys: [&str; 4],
) -> Result<Option<(f64, f64)>, DaemonError> {
    if let (Some(x), Some(y)) = (n(args, keys[0]), n(args, keys[1])) {
        return Ok(Some((x, y)));
    }
    if let (Some(nx), Some(ny)) = (n(args, keys[2]), n(args, keys[3])) {
        let (w, h) = tab.viewport().await?;
        return Ok(Some((nx * w, ny * h)));
    }
    Ok(None)
}

/// Modifier bits of the keys this session holds on this tab.
fn held_modifiers(ctx: &Ctx, tab_id: &str) -> u32 {
    ctx.session
        .held
        .lock()
        .map(|h| {
            h.browser_keys
                .iter()
                .filter(|(t, _)| t == tab_id)
                .filter_map(|(_, k)| input::modifier_bit(k))
                .fold(0, |a, b| a | b)
        })
        .unwrap_or(0)
}

fn budget(args: &Map<String, Value>) -> Budget {
    Budget {
        limit: u(args, "limit").unwrap_or(300) as usize,
        query: s(args, "query").map(String::from),
        disable_diffing: args.get("disable_diffing") == Some(&Value::Bool(true)),
        ..Budget::default()
    }
}

fn timeout(args: &Map<String, Value>) -> Duration {
    Duration::from_millis(u(args, "timeout").unwrap_or(30_000))
}

fn with_dialog(mut v: Value, d: Option<crate::browser::cdp::Dialog>) -> Value {
    if let Some(d) = d {
        v["dialog"] = json!(d);
    }
    v
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
        let browser_id = browser_of(ctx, &b, &args).await?;
        let visible = args.get("visible") != Some(&Value::Bool(false));
        let tab_id = b.new_tab(&browser_id, s(&args, "url"), visible).await?;
        select(ctx, &browser_id, &tab_id);
        let tab = b.tab(&browser_id, &tab_id).await?;
        let (url, title) = tab.info().await?;
        let f = Frozen { browser_id, tab_id: tab_id.clone(), source: "explicit" };
        return Ok(Output {
            result: json!({"tab_id": tab_id, "url": url, "title": title, "visible": visible}),
            target: Some(f.json()),
        });
    }
    if action == "tab_list" {
        let browser_id = browser_of(ctx, &b, &args).await?;
        let sel = ctx.session.selection();
        let tabs = b.tabs(&browser_id).await?;
        let list: Vec<Value> = tabs
            .iter()
            .map(|t| {
                let mut v = json!(t);
                v["selected"] = json!(
                    sel.browser_id.as_deref() == Some(browser_id.as_str())
                        && sel.tab_id.as_deref() == Some(t.tab_id.as_str())
                );
                v
            })
            .collect();
        return Ok(Output {
            result: json!({"browser_id": browser_id, "tabs": list}),
            target: Some(json!({"browser_id": browser_id})),
        });
    }
    let f = freeze(ctx, &b, &args).await?;
    let target = Some(f.json());
    if action == "tab_close" {
        let closed = b.close_tab(&f.browser_id, &f.tab_id).await?;
        let sel = ctx.session.selection();
        if sel.tab_id.as_deref() == Some(f.tab_id.as_str()) {
            if let Ok(mut s) = ctx.session.selection.lock() {
                s.tab_id = None;
            }
        }
        return Ok(Output { result: json!({"closed": closed}), target });
    }
    if action == "tab_mark" {
        let mark = if args.get("clear") == Some(&Value::Bool(true)) {
            None
        } else {
            Some((
                s(&args, "kind").unwrap_or("deliverable").to_owned(),
                s(&args, "note").map(String::from),
            ))
        };
        b.tab(&f.browser_id, &f.tab_id).await?;
        let m = b.mark(&f.browser_id, &f.tab_id, mark)?;
        return Ok(Output { result: json!({"tab_id": f.tab_id, "mark": m}), target });
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

async fn act(
    ctx: &Ctx,
    b: &Browsers,
    tab: &Tab,
    f: &Frozen,
    action: &str,
    args: &Map<String, Value>,
) -> Result<Value, DaemonError> {
    let el = || element(ctx, tab, args, "ref", "selector");
    let need = |e: Option<El>| {
        e.ok_or_else(|| DaemonError::ActionFailed("this action needs ref or selector".into()))
    };
    let mods = held_modifiers(ctx, &f.tab_id);
    Ok(match action {
        "navigate" => {
            let url = s(args, "url").unwrap_or_default();
            if !url.contains(':') {
                return Err(DaemonError::Contract(glovebox_protocol::contract::Violation::new(
                    "url",
                    format!("url {url:?} needs a scheme, e.g. https://{url}"),
                )));
            }
            tab.navigate(url, timeout(args)).await?;
            invalidate(ctx, tab, &format!("the tab navigated to {url}"));
            let (url, title) = tab.info().await?;
            json!({"url": url, "title": title})
        }
        "reload" | "go_back" | "go_forward" => {
            match action {
                "reload" => tab.reload(timeout(args)).await?,
                "go_back" => tab.history(-1, timeout(args)).await?,
                _ => tab.history(1, timeout(args)).await?,
            }
            let why = match action {
                "reload" => "the tab reloaded",
                "go_back" => "the tab went back in its history",
                _ => "the tab went forward in its history",
            };
            invalidate(ctx, tab, why);
            let (url, title) = tab.info().await?;
            json!({"url": url, "title": title})
        }
        "click" | "double_click" | "hover" => {
            let target = el().await?;
            let (x, y) = match &target {
                Some(e) => tab.center(e).await?,
                None => point(tab, args, ["x", "y", "nx", "ny"]).await?.ok_or_else(|| {
                    DaemonError::ActionFailed("give ref, selector or a point".into())
                })?,
            };
            if let Some(e) = &target {
                tab.hit_check(e, x, y).await?;
            }
            let what = match &target {
                Some(e) => json!(tab.describe(e).await),
                None => Value::Null,
            };
            if action == "hover" {
                tab.hover_at(x, y, mods).await?;
                json!({"x": x, "y": y, "element": what})
            } else {
                let button = s(args, "button").unwrap_or("left");
                let count = if action == "double_click" {
                    2
                } else {
                    u(args, "click_count").unwrap_or(1) as u32
                };
                let d = tab.click_at(x, y, button, count, mods).await?;
                with_dialog(
                    json!({"x": x, "y": y, "button": button, "click_count": count, "element": what}),
                    d,
                )
            }
        }
        "focus" => tab.focus(&need(el().await?)?).await?,
        "type" => {
            let e = need(el().await?)?;
            let text = s(args, "text").unwrap_or_default();
            let (value, d) = tab.type_text(&e, text).await?;
            with_dialog(json!({"typed": text, "value": value}), d)
        }
        "fill" => {
            let e = need(el().await?)?;
            let value = tab.fill(&e, s(args, "text").unwrap_or_default()).await?;
            json!({"value": value, "verified": true})
        }
        "set_value" | "select" => {
            let e = need(el().await?)?;
            let v =
                tab.set_value(&e, s(args, "value").unwrap_or_default(), action == "select").await?;
            json!({"value": v})
        }
        "check" | "uncheck" => {
            let e = need(el().await?)?;
            let checked = tab.set_checked(&e, action == "check").await?;
            json!({"checked": checked, "verified": true})
        }
        "paste" => {
            let e = el().await?;
            let text = s(args, "text").unwrap_or_default();
            let format = s(args, "format").unwrap_or("text");
            let html = match format {
                "html" => Some(text.to_owned()),
                "markdown" => Some(format!("<p>{}</p>", html_escape(text))),
                _ => None,
            };
            let plain = if format == "html" { strip_tags(text) } else { text.to_owned() };
            let via = tab.paste(e.as_ref(), &plain, html.as_deref()).await?;
            json!({"via": via, "format": format})
        }
        "select_text" => {
            let e = need(el().await?)?;
            tab.select_text(
                &e,
                s(args, "text").unwrap_or_default(),
                s(args, "prefix").unwrap_or_default(),
                s(args, "suffix").unwrap_or_default(),
                s(args, "selection_type").unwrap_or("select"),
            )
            .await?
        }
        "secondary_action" => {
            return Err(DaemonError::Unsupported {
                tool: "browser".into(),
                action: "secondary_action".into(),
                reason: "DOM elements expose no named secondary actions; use click with \
                         button right, press, or evaluate"
                    .into(),
                available: vec!["click".into(), "press".into(), "evaluate".into()],
            })
        }
        "press" => {
            let chord = s(args, "key").unwrap_or_default();
            let keys = input::parse_chord(chord).map_err(|m| {
                DaemonError::Contract(glovebox_protocol::contract::Violation::new("key", m))
            })?;
            let d = tab.press(&keys, mods).await?;
            with_dialog(json!({"pressed": chord, "held_modifiers": mods}), d)
        }
        "keyboard_type" => {
            let text = s(args, "text").unwrap_or_default();
            let d = tab.insert_text(text).await?;
            with_dialog(json!({"typed": text}), d)
        }
        "keydown" | "keyup" => {
            let name = s(args, "key").unwrap_or_default();
            let k = input::key_def(name).ok_or_else(|| {
                DaemonError::Contract(glovebox_protocol::contract::Violation::new(
                    "key",
                    format!("unknown key {name:?}; keydown/keyup take one key such as Shift or a"),
                ))
            })?;
            let bit = input::modifier_bit(&k.key).unwrap_or(0);
            if action == "keydown" {
                tab.key_event(true, &k, mods | bit).await?;
                if let Ok(mut h) = ctx.session.held.lock() {
                    if !h.browser_keys.iter().any(|(t, x)| *t == f.tab_id && *x == k.key) {
                        h.browser_keys.push((f.tab_id.clone(), k.key.clone()));
                    }
                }
            } else {
                let held = ctx
                    .session
                    .held
                    .lock()
                    .map(|h| h.browser_keys.iter().any(|(t, x)| *t == f.tab_id && *x == k.key))
                    .unwrap_or(false);
                if !held {
                    return Err(DaemonError::ActionFailed(format!(
                        "{} is not held down on this tab",
                        k.key
                    )));
                }
                tab.key_event(false, &k, mods & !bit).await?;
                if let Ok(mut h) = ctx.session.held.lock() {
                    h.browser_keys.retain(|(t, x)| !(*t == f.tab_id && *x == k.key));
                }
            }
            let held: Vec<String> = ctx
                .session
                .held
                .lock()
                .map(|h| {
                    h.browser_keys
                        .iter()
                        .filter(|(t, _)| *t == f.tab_id)
                        .map(|(_, k)| k.clone())
                        .collect()
                })
                .unwrap_or_default();
            json!({"key": k.key, "held": held})
        }
        "scroll" => {
            let e = el().await?;
            let pt =
                if e.is_none() { point(tab, args, ["x", "y", "nx", "ny"]).await? } else { None };
            tab.scroll(
                e.as_ref(),
                pt,
                s(args, "direction").unwrap_or("down"),
                n(args, "amount"),
                n(args, "pages"),
            )
            .await?
        }
        "scroll_into_view" => {
            let e = need(el().await?)?;
            json!({"box": tab.scroll_into_view(&e).await?})
        }
        "drag" => {
            let src = el().await?;
            let from = match &src {
                Some(e) => tab.center(e).await?,
                None => point(tab, args, ["x", "y", "nx", "ny"]).await?.ok_or_else(|| {
                    DaemonError::ActionFailed(
                        "give the drag source as ref, selector or a point".into(),
                    )
                })?,
            };
            let dst = element(ctx, tab, args, "target_ref", "target_selector").await?;
            let to = match &dst {
                Some(e) => tab.center(e).await?,
                None => point(tab, args, ["to_x", "to_y", "to_nx", "to_ny"])
                    .await?
                    .ok_or_else(|| DaemonError::ActionFailed("give the drop target".into()))?,
            };
            let button = s(args, "button").unwrap_or("left");
            tab.drag(from, to, button, mods).await?;
            json!({"from": {"x": from.0, "y": from.1}, "to": {"x": to.0, "y": to.1}})
        }
        "upload" => {
            let e = need(el().await?)?;
            let files: Vec<String> = args
                .get("files")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
                .unwrap_or_default();
            let mut abs = Vec::new();
            for p in &files {
                let path = std::path::Path::new(p);
                let path = if path.is_absolute() {
                    path.to_path_buf()
                } else {
                    std::env::current_dir().unwrap_or_default().join(path)
                };
                if !path.is_file() {
                    return Err(DaemonError::ActionFailed(format!(
                        "{p} does not exist or is not a file; nothing was uploaded"
                    )));
                }
                abs.push(path.display().to_string());
            }
            tab.upload(&e, &abs).await?;
            json!({"files": abs})
        }
        "dialog" => {
            let accept = args.get("accept") != Some(&Value::Bool(false));
            let d = tab.answer_dialog(accept, s(args, "prompt_text")).await?;
            json!({"dialog": d, "accepted": accept})
        }
        "tab_select" => {
            b.select_tab(&f.browser_id, &f.tab_id).await?;
            select(ctx, &f.browser_id, &f.tab_id);
            let (url, title) = tab.info().await?;
            json!({"tab_id": f.tab_id, "url": url, "title": title, "selected": true})
        }
        "tab_get" => {
            let (url, title) = tab.info().await?;
            let latest = ctx
                .session
                .snapshots
                .lock()
                .ok()
                .and_then(|s| s.latest(&tab.key()).map(String::from));
            json!({"tab_id": f.tab_id, "url": url, "title": title, "dialog": tab.dialog(),
                   "mark": b.mark_of(&f.browser_id, &f.tab_id), "latest_snapshot": latest})
        }
        "get_url" => {
            let (url, _) = tab.info().await?;
            with_dialog(json!({"url": url}), tab.dialog())
        }
        "get_title" => {
            let (_, title) = tab.info().await?;
            with_dialog(json!({"title": title}), tab.dialog())
        }
        "get_content" | "get_html" => {
            let e = el().await?;
            let text = tab.content(e.as_ref(), action == "get_html").await?;
            let key = if action == "get_html" { "html" } else { "text" };
            json!({key: text})
        }
        "snapshot" => snapshot_of(ctx, tab, args).await?,
        "screenshot" => shot(tab, args).await?,
        "state_and_screenshot" => {
            let before = tab.navigations();
            let snap = snapshot_of(ctx, tab, args).await?;
            let image = shot(tab, args).await?;
            json!({"snapshot": snap, "screenshot": image, "consistent": tab.navigations() == before})
        }
        "evaluate" => json!({"value": tab.evaluate(s(args, "script").unwrap_or_default()).await?}),
        "pdf" => tab.pdf().await?,
        "probe" => {
            let started = Instant::now();
            let cdp = tab.eval("1").await.is_ok();
            let ax = tab.cmd("Accessibility.getFullAXTree", json!({"depth": 1})).await.is_ok();
            let shot = tab.cmd("Page.getLayoutMetrics", json!({})).await.is_ok();
            json!({"cdp": cdp, "input": cdp, "accessibility": ax, "screenshot": shot,
                   "dialog": tab.dialog(), "probe_ms": started.elapsed().as_millis() as u64})
        }
        other => {
            return Err(DaemonError::Unsupported {
                tool: "browser".into(),
                action: other.into(),
                reason: "not implemented by the CDP backend".into(),
                available: super::implemented("browser"),
            })
        }
    })
}

fn invalidate(ctx: &Ctx, tab: &Tab, reason: &str) {
    for s in ctx.daemon.sessions.all() {
        if let Ok(mut snaps) = s.snapshots.lock() {
            snaps.invalidate(&tab.key(), reason);
        }
    }
}

async fn snapshot_of(
    ctx: &Ctx,
    tab: &Tab,
    args: &Map<String, Value>,
) -> Result<Value, DaemonError> {
    let budget = budget(args);
    if let Some(c) = s(args, "cursor") {
        let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
        return Ok(snaps.continue_from(c, &budget)?.to_json());
    }
    let scope = match s(args, "scope_ref") {
        Some(r) => {
            let key = ctx.session.snapshots.lock().map_err(|_| poisoned())?.resolve(
                &tab.key(),
                r,
                s(args, "snapshot_id"),
            )?;
            key.rsplit_once(':').and_then(|(_, n)| n.parse::<i64>().ok())
        }
        None => None,
    };
    let nodes = snapshot::outline(tab, scope).await?;
    let (url, title) = tab.info().await.unwrap_or_default();
    let view = {
        let mut snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
        snaps.record(&tab.key(), s(args, "scope_ref"), &nodes, &budget)
    };
    let mut v = view.to_json();
    v["url"] = json!(url);
    v["title"] = json!(title);
    if let Some(d) = tab.dialog() {
        v["dialog"] = json!(d);
    }
    Ok(v)
}

async fn shot(tab: &Tab, args: &Map<String, Value>) -> Result<Value, DaemonError> {
    // The contract narrows format to an image format for these actions.
    let format = s(args, "format").unwrap_or("png");
    Ok(tab
        .screenshot(
            args.get("full_page") == Some(&Value::Bool(true)),
            format,
            u(args, "quality"),
            u(args, "max_width"),
        )
        .await?)
}

fn html_escape(t: &str) -> String {
    t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// `wait`: duration_ms is a pause; with an element, poll its state until the deadline.
fn wait_for(ctx: Ctx, call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    if call.args.contains_key("duration_ms") {
        return wait::pause(ctx, call);
    }
    Box::pin(async move {
        let b = backend(&ctx.daemon)?;
        let args = call.args;
        let f = freeze(&ctx, &b, &args).await?;
        let target = Some(f.json());
        let tab = b.tab(&f.browser_id, &f.tab_id).await?;
        let limit = Duration::from_millis(u(&args, "timeout").unwrap_or(30_000));
        let started = Instant::now();
        let deadline = started + limit;
        let state = s(&args, "state").unwrap_or("visible");
        if !args.contains_key("ref") && !args.contains_key("selector") {
            tab.wait_ready(limit).await?;
            return Ok(Output {
                result: json!({"waited_for": "page ready", "waited_ms": started.elapsed().as_millis() as u64}),
                target,
            });
        }
        loop {
            let el = match element(&ctx, &tab, &args, "ref", "selector").await {
                Ok(e) => e,
                Err(DaemonError::StaleRef { .. } | DaemonError::TargetNotFound { .. }) => None,
                Err(e) => return Err(e),
            };
            let visible = match &el {
                Some(e) => tab
                    .call(e, "if (!this.isConnected) return false; const r = this.getBoundingClientRect(); const s = getComputedStyle(this); return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';", &[])
                    .await
                    .map(|v| v == true)
                    .unwrap_or(false),
                None => false,
            };
            let attached = match &el {
                Some(e) => tab
                    .call(e, "return this.isConnected;", &[])
                    .await
                    .map(|v| v == true)
                    .unwrap_or(false),
                None => false,
            };
            let done = match state {
                "hidden" => !visible,
                "attached" => attached,
                "detached" => !attached,
                _ => visible,
            };
            if done {
                return Ok(Output {
                    result: json!({"waited_for": state, "waited_ms": started.elapsed().as_millis() as u64}),
                    target,
                });
            }
            if Instant::now() >= deadline {
                return Err(DaemonError::ActionFailed(format!(
                    "the element did not become {state} within {} ms",
                    limit.as_millis()
                )));
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(50)) => {}
                _ = ctx.op.cancel.cancelled() => return Err(DaemonError::Cancelled),
            }
        }
    })
}
