//! One tab and everything the daemon does on it: navigation, elements, trusted input,
//! screenshots. Commands race the tab's dialog watch, so an `alert()` never blocks a call.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use chromiumoxide::Page;
use serde_json::{json, Value};

use super::cdp::{Conn, Dialog, Raw, TabWatch};
use super::input::{self, KeyDef};
use super::{tab_id_of, target_key, BrowserError};

/// An element resolved for one action: its backend node id and a JS handle.
#[derive(Debug, Clone)]
pub struct El {
    pub backend_id: i64,
    pub object_id: String,
}

/// A handle on one tab for the length of an action.
pub struct Tab {
    pub conn: Arc<Conn>,
    pub browser_id: String,
    pub tab_id: String,
    pub target_id: String,
    page: Page,
    watch: Arc<TabWatch>,
    state_dir: PathBuf,
}

/// Returns a short description of an element: `tag#id.class "text"`.
const DESCRIBE: &str = r#"function d(e){ if(!e||!e.tagName) return String(e&&e.nodeName||e); let s=e.tagName.toLowerCase(); if(e.id) s+='#'+e.id; if(typeof e.className==='string'&&e.className.trim()) s+='.'+e.className.trim().split(/\s+/).slice(0,3).join('.'); const t=(e.getAttribute('aria-label')||e.innerText||e.value||'').toString().trim().replace(/\s+/g,' ').slice(0,40); if(t) s+=' "'+t+'"'; return s; }"#;

fn js(body: &str) -> String {
    format!("function(a,b,c,d2){{ {DESCRIBE} {body} }}")
}

impl Tab {
    pub async fn open(
        conn: Arc<Conn>,
        target_id: &str,
        state_dir: PathBuf,
    ) -> Result<Tab, BrowserError> {
        let (page, watch) = conn.page(target_id).await?;
        Ok(Tab {
            browser_id: conn.browser_id.clone(),
            tab_id: tab_id_of(target_id),
            target_id: target_id.to_owned(),
            conn,
            page,
            watch,
            state_dir,
        })
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

    fn dialog_error(d: &Dialog) -> BrowserError {
        BrowserError::Failed(format!(
            "a JavaScript {} dialog is open ({:?}); answer it with browser.dialog first",
            d.kind, d.message
        ))
    }

    /// A page-level command. A dialog already open refuses it; one that opens meanwhile
    /// ends the wait with `DialogOpened`.
    pub async fn cmd(&self, method: &'static str, params: Value) -> Result<Value, BrowserError> {
        let fut = self.page.execute(Raw::new(method, params));
        if method == "Page.handleJavaScriptDialog" {
            return fut.await.map(|r| r.result).map_err(|e| {
                BrowserError::from_cdp(method, &e, self.conn.is_alive(), &self.browser_id)
            });
        }
        if let Some(d) = self.dialog() {
            return Err(Self::dialog_error(&d));
        }
        let mut rx = self.watch.dialog.clone();
        tokio::select! {
            r = fut => r.map(|r| r.result).map_err(|e| {
                BrowserError::from_cdp(method, &e, self.conn.is_alive(), &self.browser_id)
            }),
            d = async { rx.wait_for(|d| d.is_some()).await.map(|d| d.clone()) } => match d {
                Ok(Some(d)) => Err(BrowserError::DialogOpened(d)),
                _ => Err(self.conn.gone()),
            },
        }
    }

    /// Evaluate an expression in the main frame; the JSON value, exceptions as failures.
    pub async fn eval(&self, expr: &str) -> Result<Value, BrowserError> {
        let r = self
            .cmd(
                "Runtime.evaluate",
                json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
            )
            .await?;
        value_of(&r)
    }

    /// `evaluate`: an expression (top-level await allowed) or else a function body.
    pub async fn evaluate(&self, script: &str) -> Result<Value, BrowserError> {
        let params = |expr: String, repl: bool| {
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true,
                   "replMode": repl, "userGesture": true})
        };
        // As an expression, else as a function body, else as statements (REPL mode gives
        // their completion value); top-level await works in all three.
        let forms = [
            format!("(async () => (\n{script}\n))()"),
            format!("(async () => {{\n{script}\n}})()"),
            script.to_owned(),
        ];
        let mut last = Value::Null;
        for (i, form) in forms.into_iter().enumerate() {
            let r = self.cmd("Runtime.evaluate", params(form, i == 2)).await?;
            let ex = &r["exceptionDetails"];
            let syntax = ex["exception"]["className"] == "SyntaxError"
                || ex["exception"]["description"]
                    .as_str()
                    .is_some_and(|d| d.starts_with("SyntaxError"));
            if !syntax {
                return value_of(&r);
            }
            last = r;
        }
        let r = last;
        value_of(&r)
    }

    /// Call `func` (see [`js`]) on an element with JSON arguments; the JSON result.
    pub async fn call(&self, el: &El, body: &str, args: &[Value]) -> Result<Value, BrowserError> {
        let args: Vec<Value> = args.iter().map(|a| json!({"value": a})).collect();
        self.call_raw(el, body, args).await
    }

    async fn call_raw(&self, el: &El, body: &str, args: Vec<Value>) -> Result<Value, BrowserError> {
        let r = self
            .cmd(
                "Runtime.callFunctionOn",
                json!({"functionDeclaration": js(body), "objectId": el.object_id,
                       "arguments": args, "returnByValue": true, "awaitPromise": true,
                       "userGesture": true}),
            )
            .await?;
        value_of(&r)
    }

    /// The element behind a snapshot key `<frame>:<backend node id>`.
    pub async fn element_by_key(&self, key: &str) -> Result<El, BrowserError> {
        let id = key
            .rsplit_once(':')
            .and_then(|(_, n)| n.parse::<i64>().ok())
            .ok_or_else(|| BrowserError::Gone(format!("{key} names no DOM node")))?;
        self.element_by_backend_id(id).await
    }

    pub async fn element_by_backend_id(&self, id: i64) -> Result<El, BrowserError> {
        let r = self.cmd("DOM.resolveNode", json!({"backendNodeId": id})).await.map_err(
            |e| match e {
                BrowserError::Failed(m) => BrowserError::Gone(m),
                other => other,
            },
        )?;
        let object_id = r["object"]["objectId"]
            .as_str()
            .ok_or_else(|| BrowserError::Gone("the node has no JS object".into()))?;
        Ok(El { backend_id: id, object_id: object_id.to_owned() })
    }

    /// The first element matching a CSS selector in the main frame.
    pub async fn element_by_selector(&self, selector: &str) -> Result<El, BrowserError> {
        let expr = format!("document.querySelector({})", json!(selector));
        let r = self.cmd("Runtime.evaluate", json!({"expression": expr})).await?;
        if r.get("exceptionDetails").is_some() {
            return Err(BrowserError::Failed(format!("bad selector {selector:?}")));
        }
        let Some(object_id) = r["result"]["objectId"].as_str() else {
            return Err(BrowserError::NotFound { kind: "element", id: selector.to_owned() });
        };
        let d = self.cmd("DOM.describeNode", json!({"objectId": object_id})).await?;
        let backend_id = d["node"]["backendNodeId"].as_i64().unwrap_or_default();
        Ok(El { backend_id, object_id: object_id.to_owned() })
    }

    /// The focused element (through shadow roots and same-origin frames), if any.
    pub async fn focused(&self) -> Result<Option<El>, BrowserError> {
        let expr = "(() => { let e = document.activeElement; while (e) { const n = e.shadowRoot && e.shadowRoot.activeElement || (e.contentDocument && e.contentDocument.activeElement); if (!n) break; e = n; } return e; })()";
        let r = self.cmd("Runtime.evaluate", json!({"expression": expr})).await?;
        let Some(object_id) = r["result"]["objectId"].as_str() else { return Ok(None) };
        let d = self.cmd("DOM.describeNode", json!({"objectId": object_id})).await?;
        let backend_id = d["node"]["backendNodeId"].as_i64().unwrap_or_default();
        Ok(Some(El { backend_id, object_id: object_id.to_owned() }))
    }

    pub async fn describe(&self, el: &El) -> String {
        self.call(el, "return d(this);", &[])
            .await
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_else(|| "the element".into())
    }

    /// Scroll the element into view and return the centre of its first box, in CSS viewport
    /// pixels.
    pub async fn center(&self, el: &El) -> Result<(f64, f64), BrowserError> {
        let _ =
            self.cmd("DOM.scrollIntoViewIfNeeded", json!({"backendNodeId": el.backend_id})).await;
        let r = self.cmd("DOM.getContentQuads", json!({"backendNodeId": el.backend_id})).await;
        let quads = match r {
            Ok(r) => r["quads"].as_array().cloned().unwrap_or_default(),
            Err(BrowserError::Failed(_)) => Vec::new(),
            Err(e) => return Err(e),
        };
        for q in quads {
            let p: Vec<f64> = q
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_f64).collect())
                .unwrap_or_default();
            if p.len() != 8 {
                continue;
            }
            let xs = [p[0], p[2], p[4], p[6]];
            let ys = [p[1], p[3], p[5], p[7]];
            let w = xs.iter().cloned().fold(f64::MIN, f64::max)
                - xs.iter().cloned().fold(f64::MAX, f64::min);
            let h = ys.iter().cloned().fold(f64::MIN, f64::max)
                - ys.iter().cloned().fold(f64::MAX, f64::min);
            if w >= 1.0 && h >= 1.0 {
                return Ok((xs.iter().sum::<f64>() / 4.0, ys.iter().sum::<f64>() / 4.0));
            }
        }
        Err(BrowserError::NoGeometry { what: self.describe(el).await })
    }

    /// The viewport size in CSS pixels.
    pub async fn viewport(&self) -> Result<(f64, f64), BrowserError> {
        let m = self.cmd("Page.getLayoutMetrics", json!({})).await?;
        let v = &m["cssVisualViewport"];
        Ok((v["clientWidth"].as_f64().unwrap_or(0.0), v["clientHeight"].as_f64().unwrap_or(0.0)))
    }

    /// Refuse a pointer action when another element covers the target's point.
    pub async fn hit_check(&self, el: &El, x: f64, y: f64) -> Result<(), BrowserError> {
        let r = self
            .cmd(
                "DOM.getNodeForLocation",
                json!({"x": x.round() as i64, "y": y.round() as i64,
                       "includeUserAgentShadowDOM": false, "ignorePointerEventsNone": true}),
            )
            .await;
        let Ok(r) = r else { return Ok(()) };
        let Some(hit) = r["backendNodeId"].as_i64() else { return Ok(()) };
        if hit == el.backend_id {
            return Ok(());
        }
        let Ok(hit) = self.element_by_backend_id(hit).await else { return Ok(()) };
        let body = "const h = a; let n = h; while (n) { if (n === this) return null; \
                    let p = n.parentNode || n.host || null; \
                    if (!p && n.nodeType === 9) p = n.defaultView && n.defaultView.frameElement; \
                    n = p; } \
                    if (this.labels && [...this.labels].some(l => l === h || l.contains(h))) return null; \
                    if (h.nodeType === 1 && h.contains(this) && getComputedStyle(h).pointerEvents !== 'none' && h.tagName === 'LABEL') return null; \
                    return d(h.nodeType === 1 ? h : h.parentElement);";
        let covering = self.call_raw(el, body, vec![json!({"objectId": hit.object_id})]).await?;
        match covering.as_str() {
            Some(c) => Err(BrowserError::Failed(format!(
                "{} is covered by {c} at {},{}; close or scroll away what covers it, or click \
                 that element instead",
                self.describe(el).await,
                x.round(),
                y.round()
            ))),
            None => Ok(()),
        }
    }

    async fn mouse(
        &self,
        kind: &str,
        x: f64,
        y: f64,
        button: &str,
        count: u32,
        modifiers: u32,
    ) -> Result<(), BrowserError> {
        let buttons = match (kind, button) {
            ("mousePressed", "left") => 1,
            ("mousePressed", "right") => 2,
            ("mousePressed", "middle") => 4,
            _ => 0,
        };
        let button = if kind == "mouseMoved" && buttons == 0 { "none" } else { button };
        self.cmd(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": button, "buttons": buttons,
                   "clickCount": count, "modifiers": modifiers}),
        )
        .await
        .map(|_| ())
    }

    /// A trusted click (1-3 presses) at a viewport point; the button is released on failure.
    /// Returns a dialog the click opened.
    pub async fn click_at(
        &self,
        x: f64,
        y: f64,
        button: &str,
        count: u32,
        modifiers: u32,
    ) -> Result<Option<Dialog>, BrowserError> {
        // A cancel or deadline drops this future: the guard still lets the button go.
        let mut guard = ButtonGuard::new(&self.page, x, y, button);
        let run = async {
            self.mouse("mouseMoved", x, y, "none", 0, modifiers).await?;
            for i in 1..=count {
                self.mouse("mousePressed", x, y, button, i, modifiers).await?;
                self.mouse("mouseReleased", x, y, button, i, modifiers).await?;
            }
            Ok(())
        };
        let out = run.await;
        guard.armed = false;
        match out {
            Ok(()) => Ok(None),
            Err(BrowserError::DialogOpened(d)) => Ok(Some(d)),
            Err(e) => {
                let _ = self.mouse("mouseReleased", x, y, button, 1, modifiers).await;
                Err(e)
            }
        }
    }

    pub async fn hover_at(&self, x: f64, y: f64, modifiers: u32) -> Result<(), BrowserError> {
        self.mouse("mouseMoved", x, y, "none", 0, modifiers).await
    }

    /// Press at one point, move in steps, release at the other; released on failure.
    pub async fn drag(
        &self,
        from: (f64, f64),
        to: (f64, f64),
        button: &str,
        modifiers: u32,
    ) -> Result<(), BrowserError> {
        self.mouse("mouseMoved", from.0, from.1, "none", 0, modifiers).await?;
        let mut guard = ButtonGuard::new(&self.page, to.0, to.1, button);
        self.mouse("mousePressed", from.0, from.1, button, 1, modifiers).await?;
        let steps = 8;
        let moved = async {
            for i in 1..=steps {
                let t = f64::from(i) / f64::from(steps);
                let (x, y) = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
                let b = match button {
                    "right" => 2,
                    "middle" => 4,
                    _ => 1,
                };
                self.cmd("Input.dispatchMouseEvent", json!({"type": "mouseMoved", "x": x, "y": y, "button": button, "buttons": b, "modifiers": modifiers})).await?;
            }
            Ok::<(), BrowserError>(())
        };
        let r = moved.await;
        let released = self.mouse("mouseReleased", to.0, to.1, button, 1, modifiers).await;
        guard.armed = false;
        r.and(released)
    }

    /// One key event; `modifiers` are the bits held while it happens.
    pub async fn key_event(
        &self,
        down: bool,
        k: &KeyDef,
        modifiers: u32,
    ) -> Result<(), BrowserError> {
        let mut key = k.key.clone();
        let mut text = k.text.clone();
        if modifiers & input::SHIFT != 0
            && key.len() == 1
            && key.chars().all(|c| c.is_ascii_lowercase())
        {
            key = key.to_ascii_uppercase();
            text = Some(key.clone());
        }
        if modifiers & (input::CTRL | input::ALT | input::META) != 0 {
            text = None;
        }
        let kind = match (down, text.is_some()) {
            (false, _) => "keyUp",
            (true, true) => "keyDown",
            (true, false) => "rawKeyDown",
        };
        let mut p = json!({"type": kind, "key": key, "code": k.code,
                           "windowsVirtualKeyCode": k.key_code, "nativeVirtualKeyCode": k.key_code,
                           "modifiers": modifiers, "location": k.location});
        if let (true, Some(t)) = (down, &text) {
            p["text"] = json!(t);
            p["unmodifiedText"] = json!(t);
        }
        self.cmd("Input.dispatchKeyEvent", p).await.map(|_| ())
    }

    /// Press a chord with `held` modifier bits already down; everything this call pressed is
    /// released even on failure. Returns a dialog the keys opened.
    pub async fn press(&self, chord: &[KeyDef], held: u32) -> Result<Option<Dialog>, BrowserError> {
        let mut mods = held;
        let mut pressed: Vec<&KeyDef> = Vec::new();
        let mut result = Ok(None);
        for k in chord {
            let bit = input::modifier_bit(&k.key).unwrap_or(0);
            match self.key_event(true, k, mods | bit).await {
                Ok(()) => {
                    mods |= bit;
                    pressed.push(k);
                }
                Err(BrowserError::DialogOpened(d)) => {
                    result = Ok(Some(d));
                    pressed.push(k);
                    break;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        for k in pressed.into_iter().rev() {
            let bit = input::modifier_bit(&k.key).unwrap_or(0);
            mods &= !bit;
            match self.key_event(false, k, mods).await {
                Err(BrowserError::DialogOpened(d)) if matches!(result, Ok(None)) => {
                    result = Ok(Some(d))
                }
                Err(e) if result.is_ok() && !matches!(e, BrowserError::DialogOpened(_)) => {
                    result = Err(e)
                }
                _ => {}
            }
        }
        result
    }

    pub async fn insert_text(&self, text: &str) -> Result<Option<Dialog>, BrowserError> {
        match self.cmd("Input.insertText", json!({"text": text})).await {
            Ok(_) => Ok(None),
            Err(BrowserError::DialogOpened(d)) => Ok(Some(d)),
            Err(e) => Err(e),
        }
    }

    // Navigation.

    /// Wait (bounded) until a main-frame navigation after `before` was seen and handled.
    async fn wait_navigated(&self, before: u64, deadline: Instant) -> Result<(), BrowserError> {
        let mut rx = self.watch.navigations.clone();
        let left = deadline.saturating_duration_since(Instant::now());
        let r = match tokio::time::timeout(left, rx.wait_for(|n| *n > before)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(_)) => Err(self.conn.gone()),
            Err(_) => Err(BrowserError::Failed("the navigation did not happen in time".into())),
        };
        r
    }

    /// Wait (bounded) until the document is interactive.
    pub async fn wait_ready(&self, timeout: Duration) -> Result<(), BrowserError> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.eval("document.readyState").await {
                Ok(v) if v != "loading" => return Ok(()),
                Err(e @ BrowserError::Unavailable(_)) => return Err(e),
                Err(BrowserError::DialogOpened(_)) => return Ok(()),
                Err(BrowserError::Failed(m)) if m.contains("dialog is open") => return Ok(()),
                _ => {}
            }
            if Instant::now() > deadline {
                return Err(BrowserError::Failed(format!(
                    "the page was not ready within {} ms",
                    timeout.as_millis()
                )));
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    pub async fn navigate(&self, url: &str, timeout: Duration) -> Result<(), BrowserError> {
        let deadline = Instant::now() + timeout;
        let before = self.navigations();
        let r = self.cmd("Page.navigate", json!({"url": url})).await?;
        if let Some(err) = r["errorText"].as_str().filter(|e| !e.is_empty()) {
            return Err(BrowserError::Failed(format!("opening {url} failed: {err}")));
        }
        if r.get("loaderId").is_none_or(Value::is_null) {
            return Ok(()); // same-document navigation
        }
        self.wait_navigated(before, deadline).await?;
        self.wait_ready(deadline.saturating_duration_since(Instant::now())).await
    }

    pub async fn reload(&self, timeout: Duration) -> Result<(), BrowserError> {
        let deadline = Instant::now() + timeout;
        let before = self.navigations();
        self.cmd("Page.reload", json!({})).await?;
        self.wait_navigated(before, deadline).await?;
        self.wait_ready(deadline.saturating_duration_since(Instant::now())).await
    }

    /// One step back (-1) or forward (+1) in the tab's history.
    pub async fn history(&self, step: i64, timeout: Duration) -> Result<(), BrowserError> {
        let deadline = Instant::now() + timeout;
        let h = self.cmd("Page.getNavigationHistory", json!({})).await?;
        let current = h["currentIndex"].as_i64().unwrap_or(0);
        let entries = h["entries"].as_array().cloned().unwrap_or_default();
        let Some(entry) = usize::try_from(current + step).ok().and_then(|i| entries.get(i)) else {
            let which = if step < 0 { "back" } else { "forward" };
            return Err(BrowserError::Failed(format!(
                "there is no page to go {which} to in this tab's history"
            )));
        };
        let before = self.navigations();
        self.cmd("Page.navigateToHistoryEntry", json!({"entryId": entry["id"]})).await?;
        self.wait_navigated(before, deadline).await?;
        self.wait_ready(deadline.saturating_duration_since(Instant::now())).await
    }

    /// URL and title from the browser (works while a dialog is open).
    pub async fn info(&self) -> Result<(String, String), BrowserError> {
        let r = self.conn.call("Target.getTargetInfo", json!({"targetId": self.target_id})).await?;
        let i = &r["targetInfo"];
        Ok((
            i["url"].as_str().unwrap_or_default().to_owned(),
            i["title"].as_str().unwrap_or_default().to_owned(),
        ))
    }

    // Element actions.

    /// Focus it; returns a description of what really has focus.
    pub async fn focus(&self, el: &El) -> Result<Value, BrowserError> {
        self.call(el, "this.focus(); let e = document.activeElement; while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement; return {focused: e === this, element: d(e)};", &[]).await
    }

    /// Check an element takes text; focus it and select its content when `select_all`.
    async fn prepare_text(&self, el: &El, select_all: bool) -> Result<(), BrowserError> {
        let body = "const t = this.tagName; const bad = ['checkbox','radio','file','submit','button','image','reset','range','color','hidden']; \
            const ok = (t === 'INPUT' && !bad.includes(this.type)) || t === 'TEXTAREA' || this.isContentEditable; \
            if (!ok) return {ok: false, what: d(this)}; \
            if (document.activeElement !== this) { this.focus(); if ((t === 'INPUT' || t === 'TEXTAREA') && !a) { try { const n = this.value.length; this.setSelectionRange(n, n); } catch (e) {} } } \
            if (a) { if (t === 'INPUT' || t === 'TEXTAREA') { this.select(); } else { const r = document.createRange(); r.selectNodeContents(this); const s = getSelection(); s.removeAllRanges(); s.addRange(r); } } \
            return {ok: true};";
        let r = self.call(el, body, &[json!(select_all)]).await?;
        if r["ok"] != true {
            return Err(BrowserError::NotEditable {
                what: r["what"].as_str().unwrap_or("the element").to_owned(),
                available: vec![
                    "click".into(),
                    "check".into(),
                    "select".into(),
                    "set_value".into(),
                ],
            });
        }
        Ok(())
    }

    async fn read_value(&self, el: &El) -> Result<String, BrowserError> {
        let v = self.call(el, "return (this.tagName === 'INPUT' || this.tagName === 'TEXTAREA' || this.tagName === 'SELECT') ? this.value : this.innerText;", &[]).await?;
        Ok(v.as_str().unwrap_or_default().to_owned())
    }

    /// Type at the caret.
    pub async fn type_text(
        &self,
        el: &El,
        text: &str,
    ) -> Result<(String, Option<Dialog>), BrowserError> {
        self.prepare_text(el, false).await?;
        let dialog = self.insert_text(text).await?;
        Ok((self.read_value(el).await.unwrap_or_default(), dialog))
    }

    /// Replace the content ("" clears) with trusted editing and read it back.
    pub async fn fill(&self, el: &El, text: &str) -> Result<String, BrowserError> {
        self.prepare_text(el, true).await?;
        if text.is_empty() {
            let del = input::key_def("Delete")
                .ok_or_else(|| BrowserError::Failed("no Delete key".into()))?;
            self.press(&[del], 0).await?;
        } else {
            self.insert_text(text).await?;
        }
        let got = self.read_value(el).await?;
        let same = got == text || got.trim_end_matches('\n') == text;
        if !same {
            return Err(BrowserError::Failed(format!(
                "the field reads back {got:?} instead of {text:?} (the page changed or rejected it)"
            )));
        }
        Ok(got)
    }

    /// Native value setter plus input/change (a select's option must exist).
    pub async fn set_value(
        &self,
        el: &El,
        value: &str,
        select_only: bool,
    ) -> Result<Value, BrowserError> {
        let body = "const t = this.tagName; \
            if (b && t !== 'SELECT') return {err: 'noteditable', what: d(this)}; \
            if (t === 'SELECT') { const o = [...this.options].find(o => o.value === a) || [...this.options].find(o => o.label === a || o.text.trim() === a); \
              if (!o) return {err: 'nooption', options: [...this.options].map(o => o.value)}; a = o.value; } \
            const proto = t === 'INPUT' ? HTMLInputElement.prototype : t === 'TEXTAREA' ? HTMLTextAreaElement.prototype : t === 'SELECT' ? HTMLSelectElement.prototype : null; \
            if (!proto) { if (this.isContentEditable) { this.textContent = a; this.dispatchEvent(new InputEvent('input', {bubbles: true})); return {value: this.textContent}; } return {err: 'noteditable', what: d(this)}; } \
            Object.getOwnPropertyDescriptor(proto, 'value').set.call(this, a); \
            this.dispatchEvent(new Event('input', {bubbles: true})); this.dispatchEvent(new Event('change', {bubbles: true})); \
            return {value: this.value};";
        let r = self.call(el, body, &[json!(value), json!(select_only)]).await?;
        match r["err"].as_str() {
            Some("nooption") => Err(BrowserError::Failed(format!(
                "the select has no option {value:?}; its options are {}",
                r["options"]
            ))),
            Some(_) => Err(BrowserError::NotEditable {
                what: r["what"].as_str().unwrap_or("the element").to_owned(),
                available: vec!["fill".into(), "type".into(), "click".into()],
            }),
            None => Ok(r["value"].clone()),
        }
    }

    /// Check or uncheck, by a trusted click, and verify.
    pub async fn set_checked(&self, el: &El, want: bool) -> Result<bool, BrowserError> {
        let state = "const t = (this.type || '').toLowerCase(); const role = this.getAttribute('role'); \
            if (this.tagName === 'INPUT' && (t === 'checkbox' || t === 'radio')) return {checked: this.checked}; \
            if (role === 'checkbox' || role === 'switch' || role === 'radio' || role === 'menuitemcheckbox') return {checked: this.getAttribute('aria-checked') === 'true'}; \
            return {err: d(this)};";
        let r = self.call(el, state, &[]).await?;
        if let Some(what) = r["err"].as_str() {
            return Err(BrowserError::NotEditable {
                what: what.to_owned(),
                available: vec!["click".into()],
            });
        }
        if r["checked"] != want {
            match self.center(el).await {
                Ok((x, y)) => {
                    self.hit_check(el, x, y).await?;
                    self.click_at(x, y, "left", 1, 0).await?;
                }
                Err(BrowserError::NoGeometry { .. }) => {
                    self.call(el, "this.click(); return null;", &[]).await?;
                }
                Err(e) => return Err(e),
            }
        }
        let r = self.call(el, state, &[]).await?;
        if r["checked"] != want {
            return Err(BrowserError::Failed(format!(
                "{} is still {} after the click",
                self.describe(el).await,
                if want { "unchecked" } else { "checked" }
            )));
        }
        Ok(want)
    }

    /// Select the unique match of `prefix+text+suffix` (UTF-16 offsets) or put the caret
    /// next to it.
    pub async fn select_text(
        &self,
        el: &El,
        text: &str,
        prefix: &str,
        suffix: &str,
        mode: &str,
    ) -> Result<Value, BrowserError> {
        let body = "const text = a, prefix = b || '', suffix = c || '', mode = d2; \
            const field = this.tagName === 'INPUT' || this.tagName === 'TEXTAREA'; \
            let full = '', nodes = []; \
            if (field) full = this.value; else { const w = document.createTreeWalker(this, NodeFilter.SHOW_TEXT); let n; while ((n = w.nextNode())) { nodes.push([n, full.length]); full += n.data; } } \
            const needle = prefix + text + suffix; const hits = []; let i = full.indexOf(needle); \
            while (i >= 0) { hits.push(i); i = full.indexOf(needle, i + 1); } \
            if (hits.length !== 1) return {count: hits.length}; \
            let start = hits[0] + prefix.length, end = start + text.length; \
            if (mode === 'cursor_before') end = start; else if (mode === 'cursor_after') start = end; \
            this.focus(); \
            if (field) { this.setSelectionRange(start, end); } else { \
              const at = (o) => { for (let k = nodes.length - 1; k >= 0; k--) if (nodes[k][1] <= o) return [nodes[k][0], o - nodes[k][1]]; return [this, 0]; }; \
              const r = document.createRange(); const s1 = at(start), e1 = at(end); r.setStart(s1[0], s1[1]); r.setEnd(e1[0], e1[1]); \
              const s = getSelection(); s.removeAllRanges(); s.addRange(r); } \
            return {count: 1, start, end, selected: full.slice(start, end)};";
        let r =
            self.call(el, body, &[json!(text), json!(prefix), json!(suffix), json!(mode)]).await?;
        let count = r["count"].as_u64().unwrap_or(0);
        match count {
            1 => Ok(r),
            0 => Err(BrowserError::Failed(format!(
                "{text:?} (with the given prefix/suffix) occurs 0 times in {}; match count 0",
                self.describe(el).await
            ))),
            n => Err(BrowserError::Ambiguous {
                kind: "text match",
                query: text.to_owned(),
                candidates: vec![
                    json!({"count": n, "hint": "add prefix or suffix to make the match unique"}),
                ],
            }),
        }
    }

    /// A paste event carrying text/plain (and text/html); unconsumed, insertHTML or insertText.
    pub async fn paste(
        &self,
        el: Option<&El>,
        text: &str,
        html: Option<&str>,
    ) -> Result<&'static str, BrowserError> {
        let target = match el {
            Some(e) => e.clone(),
            None => self
                .focused()
                .await?
                .ok_or_else(|| BrowserError::Failed("nothing has focus to paste into".into()))?,
        };
        let body = "if (this.focus) this.focus(); const dt = new DataTransfer(); dt.setData('text/plain', a); if (b) dt.setData('text/html', b); \
            const ev = new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true, composed: true}); \
            const consumed = !this.dispatchEvent(ev); return {consumed, editable: !!this.isContentEditable};";
        let r = self.call(&target, body, &[json!(text), json!(html)]).await?;
        if r["consumed"] == true {
            return Ok("paste_event");
        }
        if let (Some(h), true) = (html, r["editable"] == true) {
            let ok = self
                .call(&target, "return document.execCommand('insertHTML', false, a);", &[json!(h)])
                .await?;
            if ok == true {
                return Ok("insert_html");
            }
        }
        self.insert_text(text).await?;
        Ok("insert_text")
    }

    /// Scroll an element's scroller (or the page) by pixels or pages; before/after positions.
    pub async fn scroll(
        &self,
        el: Option<&El>,
        point: Option<(f64, f64)>,
        direction: &str,
        amount: Option<f64>,
        pages: Option<f64>,
    ) -> Result<Value, BrowserError> {
        let body = "let e = this; \
            const scrollable = (n) => { if (!n || n.nodeType !== 1) return false; const s = getComputedStyle(n); const o = s.overflowY + s.overflowX; return /(auto|scroll|overlay)/.test(o) && (n.scrollHeight > n.clientHeight || n.scrollWidth > n.clientWidth); }; \
            if (c) e = document.elementFromPoint(c[0], c[1]); \
            while (e && e.nodeType === 1 && !scrollable(e) && e !== document.documentElement && e !== document.body) e = e.parentElement; \
            const page = !e || e.nodeType !== 1 || e === document.documentElement || e === document.body; \
            const sc = page ? (document.scrollingElement || document.documentElement) : e; \
            const dir = d2.dir; const vertical = dir === 'up' || dir === 'down'; \
            const size = vertical ? (page ? innerHeight : sc.clientHeight) : (page ? innerWidth : sc.clientWidth); \
            const dist = d2.amount != null ? d2.amount : (d2.pages != null ? d2.pages : 1) * size; \
            const before = {x: sc.scrollLeft, y: sc.scrollTop}; \
            sc.scrollBy({left: dir === 'left' ? -dist : dir === 'right' ? dist : 0, top: dir === 'up' ? -dist : dir === 'down' ? dist : 0, behavior: 'instant'}); \
            return {scrolled: page ? 'page' : d(sc), before, after: {x: sc.scrollLeft, y: sc.scrollTop}, distance: dist};";
        let target = match el {
            Some(e) => e.clone(),
            None => {
                let r = self
                    .cmd("Runtime.evaluate", json!({"expression": "document.documentElement"}))
                    .await?;
                let object_id = r["result"]["objectId"].as_str().unwrap_or_default().to_owned();
                El { backend_id: 0, object_id }
            }
        };
        let opts = json!({"dir": direction, "amount": amount, "pages": pages});
        let pt = point.map(|(x, y)| json!([x, y]));
        self.call(&target, body, &[Value::Null, Value::Null, pt.unwrap_or(Value::Null), opts]).await
    }

    pub async fn scroll_into_view(&self, el: &El) -> Result<Value, BrowserError> {
        self.call(el, "this.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'}); const r = this.getBoundingClientRect(); return {x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height)};", &[]).await
    }

    pub async fn upload(&self, el: &El, files: &[String]) -> Result<(), BrowserError> {
        self.cmd("DOM.setFileInputFiles", json!({"files": files, "backendNodeId": el.backend_id}))
            .await
            .map(|_| ())
    }

    pub async fn answer_dialog(
        &self,
        accept: bool,
        prompt: Option<&str>,
    ) -> Result<Dialog, BrowserError> {
        let Some(d) = self.dialog() else {
            return Err(BrowserError::Failed("no JavaScript dialog is open on this tab".into()));
        };
        let mut p = json!({"accept": accept});
        if let Some(t) = prompt {
            p["promptText"] = json!(t);
        }
        self.cmd("Page.handleJavaScriptDialog", p).await?;
        let mut rx = self.watch.dialog.clone();
        let _ = tokio::time::timeout(Duration::from_secs(5), rx.wait_for(Option::is_none)).await;
        Ok(d)
    }

    pub async fn content(&self, el: Option<&El>, html: bool) -> Result<String, BrowserError> {
        let v = match (el, html) {
            (Some(e), false) => {
                self.call(e, "return this.innerText ?? this.textContent;", &[]).await?
            }
            (Some(e), true) => self.call(e, "return this.outerHTML;", &[]).await?,
            (None, false) => self.eval("document.body ? document.body.innerText : ''").await?,
            (None, true) => self.eval("document.documentElement.outerHTML").await?,
        };
        Ok(v.as_str().unwrap_or_default().to_owned())
    }

    /// Capture the viewport or full page; `max_width` scales it down, and `scale` (image px
    /// per CSS px) is read from the image itself.
    pub async fn screenshot(
        &self,
        full_page: bool,
        format: &str,
        quality: Option<u64>,
        max_width: Option<u64>,
    ) -> Result<Value, BrowserError> {
        let m = self.cmd("Page.getLayoutMetrics", json!({})).await?;
        let vv = &m["cssVisualViewport"];
        let (w, h, x, y) = if full_page {
            let c = &m["cssContentSize"];
            (c["width"].as_f64().unwrap_or(0.0), c["height"].as_f64().unwrap_or(0.0), 0.0, 0.0)
        } else {
            (
                vv["clientWidth"].as_f64().unwrap_or(0.0),
                vv["clientHeight"].as_f64().unwrap_or(0.0),
                vv["pageX"].as_f64().unwrap_or(0.0),
                vv["pageY"].as_f64().unwrap_or(0.0),
            )
        };
        let want_scale = max_width.map(|mw| (mw as f64 / w.max(1.0)).min(1.0)).unwrap_or(1.0);
        let mut p = json!({"format": format, "fromSurface": true, "captureBeyondViewport": full_page,
                           "clip": {"x": x, "y": y, "width": w, "height": h, "scale": want_scale}});
        if let Some(q) = quality.filter(|_| format != "png") {
            p["quality"] = json!(q);
        }
        let r = self.cmd("Page.captureScreenshot", p).await?;
        let data = r["data"].as_str().unwrap_or_default().to_owned();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&data)
            .map_err(|e| BrowserError::Failed(format!("bad screenshot data: {e}")))?;
        let (iw, ih) = image_size(&bytes)
            .unwrap_or(((w * want_scale).round() as u32, (h * want_scale).round() as u32));
        Ok(json!({
            "mime": format!("image/{format}"),
            "width": iw, "height": ih,
            "scale": if w > 0.0 { f64::from(iw) / w } else { 1.0 },
            "coordinate_space": "viewport",
            "full_page": full_page,
            "bytes": bytes.len(),
            "data": data,
        }))
    }

    /// Print to PDF and save it as an artifact under the state dir.
    pub async fn pdf(&self) -> Result<Value, BrowserError> {
        let r = self.cmd("Page.printToPDF", json!({"printBackground": true})).await?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().unwrap_or_default())
            .map_err(|e| BrowserError::Failed(format!("bad PDF data: {e}")))?;
        let dir = self.state_dir.join("artifacts");
        std::fs::create_dir_all(&dir)
            .map_err(|e| BrowserError::Failed(format!("cannot create {}: {e}", dir.display())))?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        let path = dir.join(format!("{}-{}-{stamp}.pdf", self.browser_id, self.tab_id));
        std::fs::write(&path, &bytes)
            .map_err(|e| BrowserError::Failed(format!("cannot write {}: {e}", path.display())))?;
        Ok(json!({"artifact": {"path": path, "mime": "application/pdf", "bytes": bytes.len()}}))
    }
}

/// Releases a mouse button when the action holding it is dropped half-way.
struct ButtonGuard {
    page: Page,
    params: Value,
    armed: bool,
}

impl ButtonGuard {
    fn new(page: &Page, x: f64, y: f64, button: &str) -> Self {
        let params = json!({"type": "mouseReleased", "x": x, "y": y, "button": button,
                            "buttons": 0, "clickCount": 1});
        ButtonGuard { page: page.clone(), params, armed: true }
    }
}

impl Drop for ButtonGuard {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let (page, params) = (self.page.clone(), self.params.clone());
            rt.spawn(async move {
                let _ = page.execute(Raw::new("Input.dispatchMouseEvent", params)).await;
            });
        }
    }
}

fn value_of(r: &Value) -> Result<Value, BrowserError> {
    if let Some(ex) = r.get("exceptionDetails") {
        let msg = ex["exception"]["description"]
            .as_str()
            .or(ex["text"].as_str())
            .unwrap_or("exception")
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned();
        return Err(BrowserError::Failed(format!("the script threw: {msg}")));
    }
    let res = &r["result"];
    if res["type"] == "undefined" {
        return Ok(Value::Null);
    }
    Ok(res.get("value").cloned().unwrap_or(Value::Null))
}

/// Width and height from a PNG, JPEG or WebP header.
pub fn image_size(b: &[u8]) -> Option<(u32, u32)> {
    if b.starts_with(b"\x89PNG") && b.len() >= 24 {
        let w = u32::from_be_bytes(b[16..20].try_into().ok()?);
        let h = u32::from_be_bytes(b[20..24].try_into().ok()?);
        return Some((w, h));
    }
    if b.starts_with(&[0xFF, 0xD8]) {
        let mut i = 2;
        while i + 9 < b.len() {
            if b[i] != 0xFF {
                i += 1;
                continue;
            }
            let marker = b[i + 1];
            let len = usize::from(u16::from_be_bytes([b[i + 2], b[i + 3]]));
            if (0xC0..=0xC3).contains(&marker) {
                let h = u32::from(u16::from_be_bytes([b[i + 5], b[i + 6]]));
                let w = u32::from(u16::from_be_bytes([b[i + 7], b[i + 8]]));
                return Some((w, h));
            }
            i += 2 + len;
        }
        return None;
    }
    if b.len() >= 30 && &b[0..4] == b"RIFF" && &b[8..12] == b"WEBP" {
        match &b[12..16] {
            b"VP8 " => {
                let w = u32::from(u16::from_le_bytes([b[26], b[27]]) & 0x3fff);
                let h = u32::from(u16::from_le_bytes([b[28], b[29]]) & 0x3fff);
                return Some((w, h));
            }
            b"VP8L" => {
                let bits = u32::from_le_bytes(b[21..25].try_into().ok()?);
                return Some(((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1));
            }
            b"VP8X" => {
                let w = u32::from_le_bytes([b[24], b[25], b[26], 0]) + 1;
                let h = u32::from_le_bytes([b[27], b[28], b[29], 0]) + 1;
                return Some((w, h));
            }
            _ => {}
        }
    }
    None
}
