//! One tab and everything the daemon does on it: navigation, elements, trusted input,
//! screenshots. Commands race the tab's dialog watch, so an `alert()` never blocks a call.
//!
//! This module holds the tab handle and its command primitives (`cmd`, `eval`, `call`); the
//! actions live by kind in `world` (the isolated worlds), `elements`, `pointer`, `keyboard`,
//! `navigation`, `forms`, `capture` and `settle`, each one more `impl Tab` block; `trace`
//! runs an action's input under a trace for its settle; `witness` tells whether the page
//! heard an input.

mod capture;
mod elements;
mod forms;
mod keyboard;
mod navigation;
mod pointer;
mod raw;
mod secrets;
pub mod settle;
pub mod trace;
mod witness;
pub mod world;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::page::HandleJavaScriptDialogParams;
use chromiumoxide::cdp::js_protocol::runtime::{
    CallArgument, CallFunctionOnParams, ExceptionDetails, RemoteObject, RemoteObjectType,
};
use chromiumoxide::Page;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use super::cdp::{Conn, Dialog, TabWatch};
use super::{tab_id_of, target_key, BrowserError};
pub use glovebox_protocol::results::browser::Evaluate as Evaluated;

pub use capture::{image_size, Probed, Ranged, ShotLimit};
pub use elements::{Aim, Press};
pub use forms::{Fill, Filled, Typed};
pub use pointer::Pressed;
pub use secrets::{Place, Shown};
pub use witness::{Input, Witness};

/// An element resolved for one action: a JS handle on it, and the cross-site frame whose
/// session the handle belongs to (None: the tab's own).
#[derive(Debug, Clone)]
pub struct El {
    pub object_id: String,
    pub frame: Option<String>,
}

/// A handle on one tab for the length of an action.
#[derive(Clone)]
pub struct Tab {
    pub conn: Arc<Conn>,
    pub browser_id: String,
    pub tab_id: String,
    pub target_id: String,
    page: Page,
    pub(super) watch: Arc<TabWatch>,
    /// Where a printed PDF goes (`Browsers::downloads_dir`).
    downloads: PathBuf,
}

/// Returns a short description of an element: `tag#id.class "text"`. Its text is the
/// textContent: innerText lays out the whole document first (9 ms on a 5,000-element page).
const DESCRIBE: &str = r#"function d(e){ if(!e||!e.tagName) return String(e&&e.nodeName||e); let s=e.tagName.toLowerCase(); if(e.id) s+='#'+e.id; if(typeof e.className==='string'&&e.className.trim()) s+='.'+e.className.trim().split(/\s+/).slice(0,3).join('.'); const t=(e.getAttribute('aria-label')||(e.textContent||'').slice(0,200)||e.value||'').toString().trim().replace(/\s+/g,' ').slice(0,40); if(t) s+=' "'+t+'"'; return s; }"#;

/// Scrolls an element to the middle of what shows of it. In the tab's own process that is
/// `scrollIntoView`; inside a cross-site frame only that process's documents are scrolled,
/// because `scrollIntoView` would also ask the processes above to scroll, later, and move a
/// frame whose origin the daemon has just measured.
const REVEAL: &str = r#"function reveal(t){ let top = t.ownerDocument.defaultView; while (top.frameElement) top = top.parent; if (top === top.top) { t.scrollIntoView({block:'center', inline:'center', behavior:'instant'}); return; } for (let e = t; e; ) { const w = e.ownerDocument.defaultView; for (let p = e.parentElement; p; p = p.parentElement) { if (p.scrollHeight <= p.clientHeight && p.scrollWidth <= p.clientWidth) continue; const cs = w.getComputedStyle(p); if (!/(auto|scroll|overlay)/.test(cs.overflowX + cs.overflowY)) continue; const pr = p.getBoundingClientRect(), r = e.getBoundingClientRect(); p.scrollLeft += r.left + r.width / 2 - (pr.left + pr.width / 2); p.scrollTop += r.top + r.height / 2 - (pr.top + pr.height / 2); } const r = e.getBoundingClientRect(); w.scrollBy({left: r.left + r.width / 2 - w.innerWidth / 2, top: r.top + r.height / 2 - w.innerHeight / 2, behavior: 'instant'}); e = w.frameElement; } }"#;

/// Bounds an `evaluate` value in the page: `{value}`, or `{value: cut, truncated: true,
/// total_chars}` for a string longer than `max`, or for a value whose JSON text is (its cut
/// JSON text is the value then, `as_json_text: true`).
const BOUND: &str = "(v, max) => { if (typeof v === 'string') return v.length > max ? {value: v.slice(0, max), truncated: true, total_chars: v.length} : {value: v}; if (v === null || typeof v !== 'object') return {value: v}; let s; try { s = JSON.stringify(v); } catch (e) { return {value: v}; } if (typeof s !== 'string' || s.length <= max) return {value: v}; return {value: s.slice(0, max), truncated: true, total_chars: s.length, as_json_text: true}; }";

/// The same bound for a value that arrived whole (statements' completion value).
fn bound_here(v: &Value, max: usize) -> Value {
    let text = match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let total = text.encode_utf16().count();
    if total <= max {
        return json!({"value": v});
    }
    let cut: String = text
        .chars()
        .scan(0usize, |n, c| {
            *n += c.len_utf16();
            (*n <= max).then_some(c)
        })
        .collect();
    let mut out = json!({"value": cut, "truncated": true, "total_chars": total});
    if !v.is_string() {
        out["as_json_text"] = json!(true);
    }
    out
}

pub(super) fn js(body: &str) -> String {
    format!("async function(a,b,c,d2){{ {DESCRIBE} {REVEAL} {body} }}")
}

impl Tab {
    pub async fn open(
        conn: Arc<Conn>,
        target_id: &str,
        downloads: PathBuf,
    ) -> Result<Tab, BrowserError> {
        let (page, watch) = conn.page(target_id).await?;
        Ok(Tab::from_parts(conn, target_id, page, watch, downloads))
    }

    pub fn from_parts(
        conn: Arc<Conn>,
        target_id: &str,
        page: Page,
        watch: Arc<TabWatch>,
        downloads: PathBuf,
    ) -> Tab {
        Tab {
            browser_id: conn.browser_id.clone(),
            tab_id: tab_id_of(target_id),
            target_id: target_id.to_owned(),
            conn,
            page,
            watch,
            downloads,
        }
    }

    /// The tab's chromiumoxide page (the settle's trace reads its frame tree in the
    /// background).
    pub(in crate::browser) fn page(&self) -> &Page {
        &self.page
    }

    /// The key of this tab's snapshots and refs.
    pub fn key(&self) -> String {
        target_key(&self.browser_id, &self.tab_id)
    }

    pub fn dialog(&self) -> Option<Dialog> {
        self.watch.dialog.borrow().clone()
    }

    pub fn navigations(&self) -> u64 {
        *self.watch.navigations.borrow()
    }

    /// A page-level command. A dialog already open refuses it; one that opens meanwhile
    /// ends the wait with `DialogOpened`; a renderer that dies ends it with `Crashed`.
    pub async fn run<C>(&self, cmd: C) -> Result<C::Response, BrowserError>
    where
        C: chromiumoxide::types::Command + Send,
        C::Response: Send,
    {
        let method = cmd.identifier();
        let fail = |e| BrowserError::from_cdp(&method, &e, self.conn.is_alive(), &self.browser_id);
        let fut = self.page.execute(cmd);
        if method == "Page.handleJavaScriptDialog" {
            return fut.await.map(|r| r.result).map_err(fail);
        }
        if let Some(d) = self.dialog() {
            return Err(BrowserError::DialogOpen(d));
        }
        // A crashed tab takes only what brings it back.
        let revives = matches!(&*method, "Page.reload" | "Page.navigate");
        if *self.watch.crashed.borrow() && !revives {
            return Err(BrowserError::Crashed);
        }
        let mut rx = self.watch.dialog.clone();
        let mut crashed = self.watch.crashed.clone();
        tokio::select! {
            r = fut => r.map(|r| r.result).map_err(fail),
            d = async { rx.wait_for(|d| d.is_some()).await.map(|d| d.clone()) } => match d {
                Ok(Some(d)) => Err(BrowserError::DialogOpened(d)),
                _ => Err(self.conn.gone()),
            },
            _ = async { crashed.wait_for(|c| *c && !revives).await.map(|_| ()) } => {
                Err(BrowserError::Crashed)
            }
        }
    }

    /// Evaluate an expression in the main frame; its value read as `T`, exceptions as
    /// failures.
    pub async fn eval<T: Serialize + DeserializeOwned>(
        &self,
        expr: &str,
    ) -> Result<T, BrowserError> {
        let r = self.run(world::evaluate(expr, None, world::Answer::Awaited)).await?;
        page_json(value_of(r.result, r.exception_details)?)
    }

    /// `evaluate`: an expression (top-level await allowed) or else a function body. The
    /// value is cut to `max` characters inside the page (a string by its length, anything
    /// else by its JSON text, which then stands in for it): `{value, truncated, total_chars}`.
    pub async fn evaluate(&self, script: &str, max: usize) -> Result<Evaluated, BrowserError> {
        let params = |expr: String, repl: bool| {
            let mut p = world::evaluate(&expr, None, world::Answer::Awaited);
            p.repl_mode = Some(repl);
            p.user_gesture = Some(true);
            p
        };
        // As an expression, else as a function body, else as statements (REPL mode gives
        // their completion value); top-level await works in all three. The first two are
        // bounded in the page; statements' completion value cannot be wrapped, so it is cut
        // here after it came (the rare third form).
        let forms = [
            format!("(async () => ({BOUND})(await (async () => (\n{script}\n))(), {max}))()"),
            format!("(async () => ({BOUND})(await (async () => {{\n{script}\n}})(), {max}))()"),
            script.to_owned(),
        ];
        let mut last = None;
        for (i, form) in forms.into_iter().enumerate() {
            let r = self.run(params(form, i == 2)).await?;
            let thrown = r.exception_details.as_ref().and_then(|ex| ex.exception.as_ref());
            let syntax = thrown.is_some_and(|ex| {
                ex.class_name.as_deref() == Some("SyntaxError")
                    || ex.description.as_deref().is_some_and(|d| d.starts_with("SyntaxError"))
            });
            if !syntax {
                let v = value_of(r.result, r.exception_details)?;
                return page_json(match v {
                    _ if i == 2 => bound_here(&v, max),
                    // `undefined` drops out of the bound's object.
                    Value::Object(m) if !m.contains_key("value") => json!({"value": null}),
                    v => v,
                });
            }
            last = Some(r);
        }
        let last = last.ok_or_else(|| BrowserError::BadAnswer("nothing was evaluated".into()))?;
        page_json(bound_here(&value_of(last.result, last.exception_details)?, max))
    }

    /// Call `func` (see [`js`]) on an element with `args` (written as JSON: an array or a
    /// tuple gives one argument each, `()` none); its result read as `T`.
    pub async fn call<T: Serialize + DeserializeOwned>(
        &self,
        el: &El,
        body: &str,
        args: impl Serialize,
    ) -> Result<T, BrowserError> {
        let args = match serde_json::to_value(args) {
            Ok(Value::Array(a)) => a,
            Ok(Value::Null) => Vec::new(),
            Ok(one) => vec![one],
            Err(e) => return Err(BrowserError::BadAnswer(format!("unwritable arguments: {e}"))),
        };
        let args = args.into_iter().map(|a| CallArgument { value: Some(a), ..Default::default() });
        page_json(self.call_with(el, body, args.collect()).await?)
    }

    /// [`Tab::call`] with DevTools call arguments (handles on other objects among them).
    async fn call_with(
        &self,
        el: &El,
        body: &str,
        args: Vec<CallArgument>,
    ) -> Result<Value, BrowserError> {
        let mut p = CallFunctionOnParams::new(js(body));
        p.object_id = Some(el.object_id.clone().into());
        p.arguments = Some(args);
        p.return_by_value = Some(true);
        p.await_promise = Some(true);
        p.user_gesture = Some(true);
        let r = self.run_in(el.frame.as_deref(), p).await?;
        value_of(r.result, r.exception_details)
    }

    pub async fn answer_dialog(
        &self,
        accept: bool,
        prompt: Option<&str>,
    ) -> Result<Dialog, BrowserError> {
        let Some(d) = self.dialog() else {
            return Err(BrowserError::NotReady("no JavaScript dialog is open on this tab".into()));
        };
        let mut p = HandleJavaScriptDialogParams::new(accept);
        p.prompt_text = prompt.map(str::to_owned);
        self.run(p).await?;
        let mut rx = self.watch.dialog.clone();
        let _ = tokio::time::timeout(Duration::from_secs(5), rx.wait_for(Option::is_none)).await;
        Ok(d)
    }
}

/// The JSON value a script answered (`undefined` as null), or what it threw as a failure.
pub(super) fn value_of(
    result: RemoteObject,
    thrown: Option<ExceptionDetails>,
) -> Result<Value, BrowserError> {
    if let Some(ex) = thrown {
        return Err(BrowserError::Refused(format!("the script threw: {}", threw(&ex))));
    }
    if result.r#type == RemoteObjectType::Undefined {
        return Ok(Value::Null);
    }
    Ok(result.value.unwrap_or(Value::Null))
}

/// A value the page answered, read as `T`. In debug builds it must write back the same, so
/// a field `T` lacks fails the tests instead of vanishing.
fn page_json<T: Serialize + DeserializeOwned>(v: Value) -> Result<T, BrowserError> {
    #[cfg(debug_assertions)]
    let sent = v.clone();
    let typed: T = serde_json::from_value(v)
        .map_err(|e| BrowserError::BadAnswer(format!("the page answered oddly: {e}")))?;
    #[cfg(debug_assertions)]
    {
        let back = serde_json::to_value(&typed)
            .map_err(|e| BrowserError::BadAnswer(format!("the page's answer: {e}")))?;
        if back != sent {
            return Err(BrowserError::BadAnswer(format!(
                "the page's answer reads back as {back}, not {sent}"
            )));
        }
    }
    Ok(typed)
}

/// The first line of what a script threw.
pub(crate) fn threw(ex: &ExceptionDetails) -> String {
    let described = ex.exception.as_ref().and_then(|e| e.description.as_deref());
    let msg = described.unwrap_or(&ex.text);
    let msg = if msg.is_empty() { "exception" } else { msg };
    msg.lines().next().unwrap_or_default().to_owned()
}

#[cfg(test)]
mod bound_tests {
    use super::*;

    #[test]
    fn values_that_came_whole_are_cut_by_their_length_or_json_text() {
        assert_eq!(bound_here(&json!("abc"), 3), json!({"value": "abc"}));
        assert_eq!(
            bound_here(&json!("abcdef"), 4),
            json!({"value": "abcd", "truncated": true, "total_chars": 6})
        );
        // UTF-16 units, as the page counts: an emoji is two.
        assert_eq!(bound_here(&json!("a😀b"), 2)["value"], "a");
        let cut = bound_here(&json!({"k": "vvvvvvvv"}), 5);
        assert_eq!(
            cut,
            json!({"value": "{\"k\":", "truncated": true, "total_chars": 16, "as_json_text": true})
        );
    }
}
