//! Element actions that change a value: focus, typing and filling text, native values and
//! selects, checkboxes, text selection, paste and file upload.

use serde_json::{json, Value};

use super::{El, Tab};
use crate::browser::cdp::Dialog;
use crate::browser::input;
use crate::browser::BrowserError;

impl Tab {
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

    /// The element a paste goes to: the one named, else what has focus.
    async fn paste_target(&self, el: Option<&El>) -> Result<El, BrowserError> {
        match el {
            Some(e) => Ok(e.clone()),
            None => self
                .focused()
                .await?
                .ok_or_else(|| BrowserError::Failed("nothing has focus to paste into".into())),
        }
    }

    /// A real paste: the element focused, then Ctrl+V with the browser's own paste command,
    /// which reads the system clipboard (the caller has put the content there) and fires a
    /// trusted paste event; the page's handlers or the browser's editing insert it. Whether
    /// the event fired and whether the page consumed it; None when no paste event came.
    pub async fn paste_trusted(&self, el: Option<&El>) -> Result<Option<bool>, BrowserError> {
        let target = self.paste_target(el).await?;
        // The watch lives on the document as seen from the element's world (the daemon's own
        // for refs), so the page sees nothing of it.
        let watch = "if (this.focus) this.focus(); const st = {seen: false, prevented: false}; \
            this.ownerDocument.__gloveboxPaste = st; \
            this.ownerDocument.addEventListener('paste', (e) => { st.seen = true; \
            setTimeout(() => { st.prevented = e.defaultPrevented; }, 0); }, {capture: true, once: true}); \
            return true;";
        self.call(&target, watch, &[]).await?;
        let v = input::key_def("v").ok_or_else(|| BrowserError::Failed("no key v".into()))?;
        let ctrl = input::CTRL;
        let down = json!({"type": "rawKeyDown", "key": v.key, "code": v.code,
                          "windowsVirtualKeyCode": v.key_code, "nativeVirtualKeyCode": v.key_code,
                          "modifiers": ctrl, "commands": ["paste"]});
        let up = json!({"type": "keyUp", "key": v.key, "code": v.code,
                        "windowsVirtualKeyCode": v.key_code, "nativeVirtualKeyCode": v.key_code,
                        "modifiers": ctrl});
        let pressed = self.cmd("Input.dispatchKeyEvent", down).await;
        let released = self.cmd("Input.dispatchKeyEvent", up).await;
        pressed.and(released)?;
        let read = "await new Promise((r) => setTimeout(r, 0)); \
            const st = this.ownerDocument.__gloveboxPaste; delete this.ownerDocument.__gloveboxPaste; \
            return st || {seen: false};";
        let st = self.call(&target, read, &[]).await?;
        Ok((st["seen"] == true).then_some(st["prevented"] == true))
    }

    /// A synthetic paste event carrying text/plain (and text/html) where no system clipboard
    /// is at hand; unconsumed, insertHTML or insertText.
    pub async fn paste(
        &self,
        el: Option<&El>,
        text: &str,
        html: Option<&str>,
    ) -> Result<&'static str, BrowserError> {
        let target = self.paste_target(el).await?;
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

    pub async fn upload(&self, el: &El, files: &[String]) -> Result<(), BrowserError> {
        let params = json!({"files": files, "objectId": el.object_id});
        self.cmd_in(el.frame.as_deref(), "DOM.setFileInputFiles", params).await.map(|_| ())
    }
}
