//! Element actions that change a value: focus, typing and filling text, native values and
//! selects, checkboxes, text selection, paste and file upload.

use chromiumoxide::cdp::browser_protocol::dom::SetFileInputFilesParams;
use chromiumoxide::cdp::browser_protocol::input::DispatchKeyEventType;
use serde_json::{json, Value};

use glovebox_protocol::results::browser as results;

use super::keyboard::key_params;
use super::{El, Tab};
use crate::browser::cdp::Dialog;
use crate::browser::input;
use crate::browser::BrowserError;

/// What `fill` puts in: text, or the options of a multiple select.
#[derive(Debug, Clone)]
pub enum Fill {
    Text(String),
    Values(Vec<String>),
}

/// What a fill left in the field, read back: the value (a list for a multiple select), the
/// field's kind and how it went in.
#[derive(Debug, Clone)]
pub struct Filled {
    pub value: Value,
    pub kind: String,
    pub via: &'static str,
}

fn not_editable(r: &Value) -> BrowserError {
    BrowserError::NotEditable {
        what: r["what"].as_str().unwrap_or("the element").to_owned(),
        available: r["use"]
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
            .unwrap_or_default(),
    }
}

/// The page's side of `fill` (`this` the element, `a` `{text, values}`): what kind of
/// field it is; text-like ones are focused with their content selected for the trusted
/// insert that follows (`{kind: 'text', type}`); pickers and selects are set here and read
/// back (`{kind: 'native'|'select', type, value, same, hint}`); the rest answer
/// `{kind: 'no', what, use}` naming the action that fits.
const FILL: &str = r#"
const t = this.tagName, ty = (this.type || '').toLowerCase(), what = d(this);
const no = (kind, use) => ({kind: 'no', what: `${what} (${kind})`, use});
if (a.select_only && t !== 'SELECT') return no('not a <select>: fill or type into it', ['fill', 'type']);
const fire = () => { this.dispatchEvent(new Event('input', {bubbles: true, composed: true})); this.dispatchEvent(new Event('change', {bubbles: true})); };
if (t === 'INPUT' || t === 'TEXTAREA' || t === 'SELECT') {
  if (t === 'INPUT' && ty === 'file') return no('a file input: set its files with upload', ['upload']);
  if (t === 'INPUT' && (ty === 'checkbox' || ty === 'radio')) return no(`a ${ty}: use check or uncheck`, ['check', 'uncheck', 'click']);
  if (t === 'INPUT' && ['submit', 'button', 'image', 'reset'].includes(ty)) return no(`a ${ty} button: click it`, ['click']);
  if (t === 'INPUT' && ty === 'hidden') return no('a hidden input: nobody can type into it', ['set_value']);
  if (this.disabled) return no(`a disabled ${t === 'INPUT' ? ty + ' input' : t.toLowerCase()}`, []);
  if (this.readOnly) return no(`a read-only ${t === 'INPUT' ? ty + ' input' : t.toLowerCase()}`, ['click']);
}
if (t === 'SELECT') {
  const want = a.values || [a.text];
  if (want.length > 1 && !this.multiple) return {kind: 'err', message: `${what} takes one option; send text (or values with one item)`};
  const opts = [...this.options];
  const pick = want.map((w) => opts.find((o) => o.value === w) || opts.find((o) => o.label === w || o.text.trim() === w));
  const missing = want.filter((w, i) => !pick[i]);
  if (missing.length) return {kind: 'err', message: `${what} has no option ${JSON.stringify(missing)} by value or label; its options are ${JSON.stringify(opts.slice(0, 50).map((o) => o.value === o.label ? o.value : `${o.value} (${o.label})`))}`};
  const off = pick.filter((o) => o.disabled).map((o) => o.label);
  if (off.length) return {kind: 'err', message: `the option ${JSON.stringify(off)} of ${what} is disabled`};
  this.focus();
  for (const o of opts) o.selected = pick.includes(o);
  fire();
  const got = [...this.selectedOptions];
  const same = got.length === pick.length && pick.every((o) => got.includes(o));
  return {kind: 'select', type: this.multiple ? 'select-multiple' : 'select', value: this.multiple ? got.map((o) => o.value) : this.value, same, hint: 'the page changed the selection'};
}
if (a.values) return {kind: 'err', message: `values fill a <select multiple>; ${what} takes text`};
if (t === 'INPUT' && ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(ty)) {
  this.focus();
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(this, a.text);
  fire();
  const formats = {date: '2012-07-28', time: '13:45 or 13:45:30', 'datetime-local': '2012-07-28T13:45', month: '2012-07', week: '2012-W30', color: '#1a2b3c', range: `a number from ${this.min || 0} to ${this.max || 100} in steps of ${this.step || 1}`};
  const v = this.value;
  const same = ty === 'color' ? v.toLowerCase() === a.text.toLowerCase() : ty === 'range' ? Number(v) === Number(a.text) : v === a.text;
  return {kind: 'native', type: ty, value: v, same, hint: `a ${ty} field takes ${formats[ty]}${this.min || this.max ? ` within ${this.min || '…'} to ${this.max || '…'}` : ''}`};
}
const field = t === 'INPUT' || t === 'TEXTAREA';
if (!field && !this.isContentEditable) return no('not a field: nothing to type into', ['click', 'type']);
this.focus();
if (field) this.select(); else { const r = this.ownerDocument.createRange(); r.selectNodeContents(this); const s = this.ownerDocument.getSelection(); s.removeAllRanges(); s.addRange(r); }
return {kind: 'text', type: t === 'TEXTAREA' ? 'textarea' : field ? (ty || 'text') : 'contenteditable'};
"#;

/// What typing left: the field's value read back (null for an element that is no field),
/// whether it holds the text where it was typed, why not, the characters sent, and a dialog
/// the typing opened.
#[derive(Debug, Clone)]
pub struct Typed {
    pub value: Value,
    pub verified: bool,
    pub why: Option<&'static str>,
    pub sent: usize,
    pub dialog: Option<Dialog>,
}

/// Focus for typing (`a`: strict, refuse what takes no text); `{ok, before, start, end}`,
/// the field's value and selection before (null for an element that is no field).
const PREPARE: &str = r#"
const t = this.tagName; const bad = ['checkbox', 'radio', 'file', 'submit', 'button', 'image', 'reset', 'range', 'color', 'hidden'];
const field = (t === 'INPUT' && !bad.includes(this.type)) || t === 'TEXTAREA';
if (a && !field && !this.isContentEditable) return {ok: false, what: d(this)};
const active = this.ownerDocument.activeElement;
if (active !== this && !this.contains(active)) {
  this.focus();
  if (field) { try { const n = this.value.length; this.setSelectionRange(n, n); } catch (e) {} }
}
if (!field) return {ok: true, before: this.isContentEditable ? this.innerText : null};
let start = null, end = null;
try { start = this.selectionStart; end = this.selectionEnd; } catch (e) {}
if (start == null) { start = this.value.length; end = start; }
return {ok: true, before: this.value, start, end};
"#;

/// After typing (`a`: PREPARE's answer and the text): `{value, same}`: the value now, and
/// whether it is the value before with the text at the caret (for contenteditable: whether
/// its text contains it); line ends compared as `\n`.
const READ_BACK: &str = r#"
const field = this.tagName === 'INPUT' || this.tagName === 'TEXTAREA';
const v = field ? this.value : (this.isContentEditable ? this.innerText : null);
if (v === null || a.before == null) return {value: v, same: false};
const norm = (s) => s.replace(/\r\n?/g, '\n');
if (!field) return {value: v, same: norm(v).includes(norm(a.text))};
const want = a.before.slice(0, a.start) + a.text + a.before.slice(a.end);
return {value: v, same: norm(v) === norm(want)};
"#;

impl Tab {
    /// Focus it; returns a description of what really has focus.
    pub async fn focus(&self, el: &El) -> Result<results::Focus, BrowserError> {
        self.call(el, "this.focus(); let e = document.activeElement; while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement; return {focused: e === this, element: d(e)};", ()).await
    }

    /// Focus an element for typing, its caret at the end of a field that had no focus;
    /// `strict` refuses what takes no text. What it held before, to read the typing back.
    async fn prepare_text(&self, el: &El, strict: bool) -> Result<Value, BrowserError> {
        let r = self.call::<Value>(el, PREPARE, &[json!(strict)]).await?;
        if r["ok"] != true {
            return Err(BrowserError::NotEditable {
                what: r["what"].as_str().unwrap_or("the element").to_owned(),
                available: vec![
                    "click".into(),
                    "check".into(),
                    "select".into(),
                    "set_value".into(),
                    "keyboard_type".into(),
                ],
            });
        }
        Ok(r)
    }

    async fn read_value(&self, el: &El) -> Result<String, BrowserError> {
        let v = self.call::<Value>(el, "return (this.tagName === 'INPUT' || this.tagName === 'TEXTAREA' || this.tagName === 'SELECT') ? this.value : this.innerText;", ()).await?;
        Ok(v.as_str().unwrap_or_default().to_owned())
    }

    /// Type at the caret of `el` (`strict`: refuse what takes no text), as one insertText
    /// or key by key (`keys`, with `held` modifier bits), and read it back.
    pub async fn type_text(
        &self,
        el: &El,
        text: &str,
        keys: bool,
        held: u32,
        strict: bool,
    ) -> Result<Typed, BrowserError> {
        let before = self.prepare_text(el, strict).await?;
        let (sent, dialog) = if keys {
            self.type_keys(text, held).await?
        } else {
            (text.chars().count(), self.insert_text(text).await?)
        };
        if dialog.is_some() {
            let why = "a dialog opened while typing; the field is read once it is answered";
            return Ok(Typed { value: Value::Null, verified: false, why: Some(why), sent, dialog });
        }
        let mut back = before.clone();
        back["text"] = json!(text);
        let r = self.call::<Value>(el, READ_BACK, &[back]).await?;
        let (verified, why) = match (&r["value"], r["same"] == true) {
            (Value::Null, _) => (false, Some("the element is no text field; its text is the page's own, so typing is not read back")),
            (_, true) => (true, None),
            (_, false) => (false, Some("the field does not read back the text typed at the caret: the page handled the input itself (or the field dropped characters)")),
        };
        Ok(Typed { value: r["value"].clone(), verified, why, sent, dialog: None })
    }

    /// Replace what a field holds and read it back: text-like fields and contenteditable by
    /// trusted editing (select all, insertText; Delete for ""), the pickers (date, time,
    /// datetime-local, month, week, color, range) by the native setter and input/change as
    /// their own UI does, a select's options by value or label. What cannot be filled is
    /// `NotEditable` naming its kind and what fits instead.
    /// `select_only`: refuse anything but a `<select>` (the `select` action).
    pub async fn fill(
        &self,
        el: &El,
        with: &Fill,
        select_only: bool,
    ) -> Result<Filled, BrowserError> {
        let (text, values) = match with {
            Fill::Text(t) => (Some(t.as_str()), None),
            Fill::Values(v) => (None, Some(v)),
        };
        let args = json!({"text": text, "values": values, "select_only": select_only});
        let r = self.call::<Value>(el, FILL, &[args]).await?;
        let kind = r["kind"].as_str().unwrap_or_default().to_owned();
        match kind.as_str() {
            "no" => Err(not_editable(&r)),
            "err" => Err(BrowserError::Refused(
                r["message"].as_str().unwrap_or("the field refused the value").to_owned(),
            )),
            "native" | "select" => {
                let got = r["value"].clone();
                if r["same"] != true {
                    return Err(BrowserError::Refused(format!(
                        "the {} field reads back {got} instead of {} ({})",
                        r["type"].as_str().unwrap_or("field"),
                        json!(text.map(String::from).or_else(|| values.map(|v| v.join(", ")))),
                        r["hint"].as_str().unwrap_or("the page changed or rejected it")
                    )));
                }
                let via = if kind == "select" { "options" } else { "native_setter" };
                Ok(Filled { value: got, kind: r["type"].as_str().unwrap_or(&kind).into(), via })
            }
            _ => {
                let Some(text) = text else {
                    return Err(BrowserError::Refused(
                        "values fill a <select multiple>; give text for this field".into(),
                    ));
                };
                let ty = r["type"].as_str().unwrap_or("text").to_owned();
                if text.is_empty() {
                    let del = input::key_def("Delete").ok_or_else(|| {
                        BrowserError::NotReady("the key map has no Delete".into())
                    })?;
                    self.press(&[del], 0).await?;
                } else {
                    self.insert_text(text).await?;
                }
                let got = self.read_value(el).await?;
                let same = |g: &str| g == text || g.trim_end_matches('\n') == text;
                if same(&got) {
                    return Ok(Filled { value: json!(got), kind: ty, via: "insert_text" });
                }
                Err(BrowserError::Refused(format!(
                    "the field reads back {got:?} instead of {text:?} (the page changed or \
                     rejected it)"
                )))
            }
        }
    }

    /// Native value setter plus input/change (a select's option must exist).
    pub async fn set_value(
        &self,
        el: &El,
        value: &str,
        select_only: bool,
    ) -> Result<String, BrowserError> {
        let body = "const t = this.tagName; \
            if (b && t !== 'SELECT') return {err: 'noteditable', what: d(this)}; \
            if (t === 'SELECT') { const o = [...this.options].find(o => o.value === a) || [...this.options].find(o => o.label === a || o.text.trim() === a); \
              if (!o) return {err: 'nooption', options: [...this.options].map(o => o.value)}; a = o.value; } \
            const proto = t === 'INPUT' ? HTMLInputElement.prototype : t === 'TEXTAREA' ? HTMLTextAreaElement.prototype : t === 'SELECT' ? HTMLSelectElement.prototype : null; \
            if (!proto) { if (this.isContentEditable) { this.textContent = a; this.dispatchEvent(new InputEvent('input', {bubbles: true})); return {value: this.textContent}; } return {err: 'noteditable', what: d(this)}; } \
            Object.getOwnPropertyDescriptor(proto, 'value').set.call(this, a); \
            this.dispatchEvent(new Event('input', {bubbles: true})); this.dispatchEvent(new Event('change', {bubbles: true})); \
            return {value: this.value};";
        let r = self.call::<Value>(el, body, &[json!(value), json!(select_only)]).await?;
        match r["err"].as_str() {
            Some("nooption") => Err(BrowserError::OutOfRange(format!(
                "the select has no option {value:?}; its options are {}",
                r["options"]
            ))),
            Some(_) => Err(BrowserError::NotEditable {
                what: r["what"].as_str().unwrap_or("the element").to_owned(),
                available: vec!["fill".into(), "type".into(), "click".into()],
            }),
            None => super::page_json(r["value"].clone()),
        }
    }

    /// Check or uncheck, by a trusted click, and verify.
    pub async fn set_checked(&self, el: &El, want: bool) -> Result<bool, BrowserError> {
        let state = "const t = (this.type || '').toLowerCase(); const role = this.getAttribute('role'); \
            if (this.tagName === 'INPUT' && (t === 'checkbox' || t === 'radio')) return {checked: this.checked}; \
            if (role === 'checkbox' || role === 'switch' || role === 'radio' || role === 'menuitemcheckbox') return {checked: this.getAttribute('aria-checked') === 'true'}; \
            return {err: d(this)};";
        let r = self.call::<Value>(el, state, ()).await?;
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
                    self.click_at(x, y, crate::browser::mouse::Button::Left, 1, 0).await?;
                }
                Err(BrowserError::NoGeometry { .. }) => {
                    self.call::<Value>(el, "this.click(); return null;", ()).await?;
                }
                Err(e) => return Err(e),
            }
        }
        let r = self.call::<Value>(el, state, ()).await?;
        if r["checked"] != want {
            return Err(BrowserError::Refused(format!(
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
    ) -> Result<results::SelectText, BrowserError> {
        let body = "const text = a, prefix = b || '', suffix = c || '', mode = d2; \
            const field = this.tagName === 'INPUT' || this.tagName === 'TEXTAREA'; \
            let full = '', nodes = []; \
            if (field) full = this.value; else if (this.nodeType === 3) { nodes.push([this, 0]); full = this.data; } else { const w = document.createTreeWalker(this, NodeFilter.SHOW_TEXT); let n; while ((n = w.nextNode())) { nodes.push([n, full.length]); full += n.data; } } \
            const needle = prefix + text + suffix; const hits = []; let i = full.indexOf(needle); \
            while (i >= 0) { hits.push(i); i = full.indexOf(needle, i + 1); } \
            if (hits.length !== 1) return {count: hits.length}; \
            let start = hits[0] + prefix.length, end = start + text.length; \
            if (mode === 'cursor_before') end = start; else if (mode === 'cursor_after') start = end; \
            if (this.focus) this.focus(); \
            if (field) { this.setSelectionRange(start, end); } else { \
              const at = (o) => { for (let k = nodes.length - 1; k >= 0; k--) if (nodes[k][1] <= o) return [nodes[k][0], o - nodes[k][1]]; return [this, 0]; }; \
              const r = document.createRange(); const s1 = at(start), e1 = at(end); r.setStart(s1[0], s1[1]); r.setEnd(e1[0], e1[1]); \
              const s = getSelection(); s.removeAllRanges(); s.addRange(r); } \
            return {count: 1, start, end, selected: full.slice(start, end)};";
        let r = self
            .call::<Value>(el, body, &[json!(text), json!(prefix), json!(suffix), json!(mode)])
            .await?;
        let count = r["count"].as_u64().unwrap_or(0);
        match count {
            1 => super::page_json(r),
            0 => Err(BrowserError::OutOfRange(format!(
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
                .ok_or_else(|| BrowserError::NotReady("nothing has focus to paste into".into())),
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
        self.call::<Value>(&target, watch, ()).await?;
        let v = input::key_def("v")
            .ok_or_else(|| BrowserError::NotReady("the key map has no v".into()))?;
        let ctrl = input::CTRL;
        let mut down = key_params(DispatchKeyEventType::RawKeyDown, &v.key, &v, ctrl);
        down.commands = Some(vec!["paste".into()]);
        let up = key_params(DispatchKeyEventType::KeyUp, &v.key, &v, ctrl);
        let pressed = self.run(down).await;
        let released = self.run(up).await;
        pressed.and(released)?;
        let read = "await new Promise((r) => setTimeout(r, 0)); \
            const st = this.ownerDocument.__gloveboxPaste; delete this.ownerDocument.__gloveboxPaste; \
            return st || {seen: false};";
        let st = self.call::<Value>(&target, read, ()).await?;
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
        let r = self.call::<Value>(&target, body, &[json!(text), json!(html)]).await?;
        if r["consumed"] == true {
            return Ok("paste_event");
        }
        if let (Some(h), true) = (html, r["editable"] == true) {
            let ok: Value = self
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
        if files.is_empty() {
            // Raw: the typed params leave an empty `files` out, and Chromium then refuses
            // the call instead of clearing the input.
            let clear = json!({"files": [], "objectId": el.object_id});
            let clear = crate::browser::cdp::Raw::new("DOM.setFileInputFiles", clear);
            return self.run_in(el.frame.as_deref(), clear).await.map(|_| ());
        }
        let mut params = SetFileInputFilesParams::new(files.to_vec());
        params.object_id = Some(el.object_id.clone().into());
        self.run_in(el.frame.as_deref(), params).await.map(|_| ())
    }
}
