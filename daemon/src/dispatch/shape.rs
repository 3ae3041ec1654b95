//! How an outcome is shaped for a model: its token estimate, and the MCP `tools/call` result
//! (`tools.call` here, and MCP's `tools/call` over `/mcp` and stdio). An image is any object
//! with an `image/*` `mime` and base64 `data`, in the result (a screenshot) or the capture:
//! each goes out once, as an `image` content block, while text and `structuredContent` keep
//! its metadata, never its data. What the text says of the outcome it reads from typed facts;
//! the result is JSON once, in `structuredContent`, where it leaves.

use glovebox_protocol::error::ErrorData;
use glovebox_protocol::results::browser::JsDialog;
use glovebox_protocol::results::{Blocked, Downloaded, Opened};
use glovebox_protocol::wire::{Captured, Changes, OpOutcome, Shot, Tokens};
use rmcp::model::{ContentBlock, Resource};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::mcp::resources::{mime_of, CAPTURE, DOWNLOAD};

/// An MCP `tools/call` result: rmcp's content blocks (the text, then images and resource
/// links), `structuredContent` and whether the call failed. `tools.call` answers it as JSON;
/// MCP hands it to rmcp as it is.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shaped {
    pub content: Vec<ContentBlock>,
    #[serde(default)]
    pub structured_content: Value,
    pub is_error: bool,
}

/// The images of `v` taken out: their data (with mime and size) in order, `v` without it.
fn take_images(v: &mut Value, out: &mut Vec<(String, String, u64, u64)>) {
    match v {
        Value::Object(m) => {
            let is_image =
                m.get("mime").and_then(Value::as_str).is_some_and(|s| s.starts_with("image/"))
                    && m.get("data").is_some_and(Value::is_string);
            if is_image {
                let mime = m.get("mime").and_then(Value::as_str).unwrap_or_default().to_owned();
                let dim = |k: &str| m.get(k).and_then(Value::as_u64).unwrap_or(0);
                let (w, h) = (dim("width"), dim("height"));
                if let Some(Value::String(data)) = m.remove("data") {
                    out.push((mime, data, w, h));
                }
            }
            for child in m.values_mut() {
                take_images(child, out);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| take_images(i, out)),
        _ => {}
    }
}

/// What `result`, `capture` and `changes` cost a model: every image by its pixels, the result
/// and the outline of changes as the text an MCP host shows (without image data, long texts
/// cut beside an image).
pub fn tokens(result: &Value, capture: Option<&Captured>, changes: Option<&Changes>) -> Tokens {
    let mut images = Vec::new();
    if let Some(shot) = capture.and_then(|c| c.image.as_ref()) {
        let (mime, w, h) = shot.size();
        images.push((mime.to_owned(), String::new(), u64::from(w), u64::from(h)));
    }
    let mut result = result.clone();
    take_images(&mut result, &mut images);
    let bytes = body(&result, !images.is_empty()).len() + changes.map_or(0, |c| changed(c).len());
    Tokens {
        text: crate::settle::text_tokens(bytes),
        image: images.iter().map(|(_, _, w, h)| crate::settle::image_tokens(*w, *h)).sum(),
    }
}

/// The MCP `tools/call` result of an outcome: a compact text, one image block per image,
/// `structuredContent` the outcome without image data; a failure is `isError: true` with the
/// error data in `structuredContent.error`, so the model sees it.
pub fn mcp(outcome: Result<OpOutcome, ErrorData>) -> Shaped {
    let mut o = match outcome {
        Ok(o) => o,
        Err(e) => {
            let text = format!("{}: {}", e.code.as_str(), e.message);
            let structured_content = json!({"error": e});
            return Shaped {
                content: vec![ContentBlock::text(text)],
                structured_content,
                is_error: true,
            };
        }
    };
    // In the order the outcome's JSON has them: the capture's, then the result's.
    let mut images = Vec::new();
    if let Some(shot) = o.capture.as_mut().and_then(|c| c.image.as_mut()) {
        let data = std::mem::take(shot.data_mut());
        let (mime, w, h) = shot.size();
        images.push((mime.to_owned(), data, u64::from(w), u64::from(h)));
    }
    take_images(&mut o.result, &mut images);
    let mut content = vec![ContentBlock::text(summary(&o, images.len()))];
    content.extend(images.into_iter().map(|(mime, data, _, _)| ContentBlock::image(data, mime)));
    // The capture stays readable as a resource of the session, by this link.
    let kept = o.capture.as_ref().and_then(|c| Some((c.capture_id.as_ref()?, c.image.as_ref()?)));
    if let Some((id, shot)) = kept {
        let link = Resource::new(format!("{CAPTURE}{id}"), format!("capture {id}"));
        content.push(ContentBlock::resource_link(link.with_mime_type(shot.size().0)));
    }
    // So are the files the action downloaded.
    for d in Caused::of(&o.result).downloads {
        let path = std::path::PathBuf::from(d.path);
        let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            continue;
        };
        let link = Resource::new(format!("{DOWNLOAD}{name}"), name);
        content.push(ContentBlock::resource_link(link.with_mime_type(mime_of(&path))));
    }
    let structured_content = serde_json::to_value(&o).unwrap_or_default();
    Shaped { content, structured_content, is_error: false }
}

/// What the text says of a kept capture: its id, type and size, and where a desktop capture
/// lies on the screen when it is framed (only part of it).
fn shown(c: &Captured) -> Option<String> {
    let (id, shot) = (c.capture_id.as_ref()?, c.image.as_ref()?);
    let (mime, w, h) = shot.size();
    let mut said = format!("; capture {id} {w}x{h} {mime}");
    if let Shot::Screen(i) = shot {
        if i.region.x != 0 || i.region.y != 0 {
            said.push_str(&format!(" at {},{} on the screen", i.region.x, i.region.y));
        }
    }
    Some(said)
}

/// What an action caused beside its answer, as its result names it: a dialog it raised and
/// the browser's effects (`effects.rs`).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Caused {
    dialog: Option<JsDialog>,
    opened_tabs: Vec<Opened>,
    downloads: Vec<Downloaded>,
    navigation_blocked: Vec<Blocked>,
}

impl Caused {
    fn of(result: &Value) -> Caused {
        Caused::deserialize(result).unwrap_or_default()
    }
}

/// An outline as the text shows it (a snapshot's result, or the changes `capture: "auto"`
/// names), borrowed from the outcome.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Lines<'a> {
    #[serde(borrow)]
    snapshot: Option<&'a str>,
    #[serde(borrow)]
    snapshot_id: Option<&'a str>,
    #[serde(borrow)]
    mode: Option<&'a str>,
    lines: Option<u64>,
    #[serde(borrow)]
    removed_refs: Option<Vec<&'a str>>,
}

impl<'a> Lines<'a> {
    fn of(v: &'a Value) -> Lines<'a> {
        Lines::deserialize(v).unwrap_or_default()
    }

    /// A snapshot's result: an outline page at its top level.
    fn page(result: &'a Value) -> Option<Lines<'a>> {
        Some(Lines::of(result)).filter(|l| l.snapshot.is_some() && l.snapshot_id.is_some())
    }
}

/// A number the text names, `null` when the outcome left it out.
fn number(n: Option<u64>) -> String {
    n.map_or_else(|| "null".to_owned(), |n| n.to_string())
}

/// Beside an image, the text keeps at most this much of the long texts (an outline) the
/// outcome carries, so a look at the screen stays under 4,000 characters; the rest is in
/// `structuredContent`, and the cut says so.
const TEXT_BESIDE_IMAGE: usize = 3_000;

/// A long text of the outcome (an outline, a page's text) is shown raw below the JSON
/// rather than escaped inside it: from this many characters, or any with a line break.
const RAW_FROM: usize = 200;

/// The outcome as a model reads it, images already taken out: one line naming the op, its
/// target, settle and capture; the result as compact JSON with its long texts replaced by a
/// pointer; then those texts raw, cut beside an image. `structuredContent` has it all.
fn summary(o: &OpOutcome, images: usize) -> String {
    let page = Lines::page(&o.result);
    let mut head = format!("{}.{} succeeded (op {})", o.tool, o.action, o.op_id);
    if let Some(Value::Object(t)) = o.target.as_ref().and_then(|t| serde_json::to_value(t).ok()) {
        let named: Vec<String> = t
            .iter()
            .filter(|(_, v)| v.is_string() || v.is_number())
            // An outline's header stays short: where the target came from is in
            // structuredContent.
            .filter(|(k, _)| page.is_none() || !k.ends_with("source"))
            .map(|(k, v)| {
                format!("{k}={}", v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            })
            .collect();
        head.push_str(&format!(" on {}", named.join(" ")));
    }
    if let Some(r) = &page {
        let (id, mode) = (r.snapshot_id.unwrap_or_default(), r.mode.unwrap_or_default());
        head.push_str(&format!(": {id} {mode}, {} lines", number(r.lines)));
    }
    if let Some(settle) = &o.settle {
        head.push_str(&format!("; settle {} after {} ms", settle.reason, settle.waited_ms));
    }
    head.push_str(&caused(o));
    let capture = o.capture.clone().unwrap_or_default();
    if let Some(said) = shown(&capture) {
        head.push_str(&said);
    } else if let Some(why) = &o.no_capture {
        head.push_str(&format!("; no capture: {why}"));
    }
    if let Some(why) = &capture.why {
        let said = if capture.sent == Some(true) { "image" } else { "no image" };
        head.push_str(&format!(" ({said}: {why})"));
    }
    if images > 0 {
        head.push_str(&format!("; {images} image block(s) follow"));
    }
    let changes = o.changes.as_ref().map_or_else(String::new, changed);
    format!("{head}\n{}{changes}", body(&o.result, images > 0))
}

/// The outline of what an action changed (`capture: "auto"`), as the text shows it: the
/// snapshot id it is, then its lines raw.
fn changed(c: &Changes) -> String {
    let mut out = format!("\nchanges ({}):\n{}", c.snapshot_id, c.snapshot);
    if !c.removed_refs.is_empty() {
        out.push_str(&format!("removed: {}\n", c.removed_refs.join(", ")));
    }
    out
}

/// What the action caused besides its answer, for the first line: windows it opened or
/// closed, a dialog it raised, tabs it opened, downloads, loads the policy blocked.
fn caused(o: &OpOutcome) -> String {
    let mut out = String::new();
    if let Some(settle) = &o.settle {
        for (list, verb) in [(&settle.windows_opened, "opened"), (&settle.windows_closed, "closed")]
        {
            for w in list {
                out.push_str(&format!("; {verb} window {:?} ({})", w.title, w.window_id));
            }
        }
    }
    let c = Caused::of(&o.result);
    if let Some(d) = &c.dialog {
        let (kind, message) = (&d.kind, &d.message);
        out.push_str(&format!("; {kind} dialog {message:?} open (browser.dialog answers it)"));
    }
    for t in &c.opened_tabs {
        out.push_str(&format!(
            "; opened tab {} {}",
            t.tab_id.as_deref().unwrap_or_default(),
            t.url
        ));
    }
    for d in &c.downloads {
        out.push_str(&format!("; download {} {}", d.path, d.state));
    }
    for b in &c.navigation_blocked {
        out.push_str(&format!("; blocked {} (rule {})", b.url, b.rule));
    }
    out
}

/// What an outline's header leaves to structuredContent: its counts and ids, said on the
/// first line or of no use to a model reading the lines.
const OUTLINE_QUIET: &[&str] = &[
    "snapshot_id",
    "mode",
    "lines",
    "ref_count",
    "token_estimate",
    "full_because",
    "elapsed_ms",
    "added",
    "updated",
    "unchanged",
    "removed_count",
];

/// The result part of the text: compact JSON, then its long texts raw (cut beside an image).
/// An outline's JSON keeps only what its first line does not say (nothing, mostly).
fn body(result: &Value, beside_image: bool) -> String {
    let mut result = result.clone();
    let outline = Lines::page(&result).is_some();
    if let Some(obj) = result.as_object_mut().filter(|_| outline) {
        obj.retain(|k, v| !OUTLINE_QUIET.contains(&k.as_str()) && *v != Value::Bool(false));
    }
    let mut texts = Vec::new();
    // The outline follows raw; its place in the JSON needs no pointer.
    if let Some(Value::String(lines)) =
        result.as_object_mut().filter(|_| outline).and_then(|o| o.remove("snapshot"))
    {
        texts.push(("result.snapshot".to_owned(), lines));
    }
    take_texts(&mut result, "result", &mut texts);
    let mut out = match result.as_object() {
        Some(obj) if outline && obj.is_empty() => String::new(),
        _ => format!("result: {result}"),
    };
    let mut room = if beside_image { TEXT_BESIDE_IMAGE } else { usize::MAX };
    for (path, text) in texts {
        let shown = cut_at_line(&text, room);
        room -= shown.len();
        if outline && path == "result.snapshot" {
            out.push_str(&format!("{}{shown}", if out.is_empty() { "" } else { "\n" }));
        } else {
            out.push_str(&format!("\n{path}:\n{shown}"));
        }
        if shown.len() < text.len() {
            let left = &text[shown.len()..];
            out.push_str(&format!(
                "\n… cut here beside the image: {} more characters in {} lines; \
                 structuredContent.{path} has them all, or take the snapshot alone",
                left.chars().count(),
                left.lines().count()
            ));
        }
    }
    out
}

/// The long strings of `v` (at `path`) taken out, each replaced by a pointer to where the
/// text shows it.
fn take_texts(v: &mut Value, path: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::String(s) if s.contains('\n') || s.chars().count() >= RAW_FROM => {
            let text = std::mem::take(s);
            *s = format!("<{} characters, below>", text.chars().count());
            out.push((path.to_owned(), text));
        }
        Value::Object(m) => {
            for (k, child) in m.iter_mut() {
                take_texts(child, &format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

/// At most `room` bytes of `text`, ending at a line break when there is one to end at.
fn cut_at_line(text: &str, room: usize) -> &str {
    if text.len() <= room {
        return text;
    }
    let mut end = room;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    head.rfind('\n').map_or(head, |i| &head[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outcome's MCP result.
    fn shaped(o: OpOutcome) -> Shaped {
        mcp(Ok(o))
    }

    /// The text block's text (the first block).
    fn text(s: &Shaped) -> &str {
        s.content.first().and_then(ContentBlock::as_text).map_or("", |t| t.text.as_str())
    }

    /// The image blocks: their type and data.
    fn images(s: &Shaped) -> Vec<(&str, &str)> {
        s.content
            .iter()
            .filter_map(ContentBlock::as_image)
            .map(|i| (i.mime_type.as_str(), i.data.as_str()))
            .collect()
    }

    /// A field of `structuredContent`, by its JSON pointer.
    fn structured<'a>(s: &'a Shaped, pointer: &str) -> &'a Value {
        s.structured_content.pointer(pointer).unwrap_or(&Value::Null)
    }

    #[allow(clippy::needless_pass_by_value)] // reads as the outcome it builds
    fn outcome(result: Value, capture: Option<Value>) -> OpOutcome {
        serde_json::from_value(json!({
            "op_id": "o", "tool": "browser", "action": "state_and_screenshot",
            "result": result, "capture": capture,
            "timing": {"exec_ms": 1.0, "settle_ms": 0.0, "capture_ms": 0.0}
        }))
        .expect("outcome")
    }

    #[test]
    fn every_image_goes_out_once_as_an_image_block() {
        let big = "A".repeat(60_000);
        let shot = json!({"mime": "image/png", "width": 1280, "height": 800, "data": big});
        let o = outcome(json!({"snapshot": "- button \"Go\" [ref=e1]", "screenshot": shot}), None);
        let t = tokens(&o.result, o.capture.as_ref(), None);
        assert_eq!(t.image, 1366, "1280x800 / 750");
        assert!(t.text < 100, "{t:?}");
        let r = shaped(o);
        assert_eq!(images(&r).len(), 1, "{r:?}");
        assert!(text(&r).len() < 4_000);
        assert!(text(&r).starts_with("browser.state_and_screenshot succeeded"));
        assert!(!r.structured_content.to_string().contains(&big[..100]));
        assert_eq!(structured(&r, "/result/screenshot/width"), 1280);
        let with_capture = outcome(
            json!({"clicked": true}),
            Some(json!({"mime": "image/jpeg", "width": 10, "height": 10, "scale": 1.0,
                        "coordinate_space": "viewport", "full_page": false, "bytes": 1,
                        "data": "QQ==", "capture_id": "c1"})),
        );
        let r = shaped(with_capture);
        assert_eq!(images(&r), [("image/jpeg", "QQ==")], "{r:?}");
        assert!(structured(&r, "/capture/data").is_null(), "{r:?}");
        assert!(text(&r).contains("; capture c1 10x10 image/jpeg"), "{}", text(&r));
    }

    #[test]
    fn the_first_line_names_windows_dialogs_and_downloads_the_action_caused() {
        let mut o = outcome(
            json!({"key": "ctrl+s", "dialog": {"type": "alert", "message": "Saved?"},
                   "downloads": [{"path": "/d/report.csv", "url": "u", "bytes": 9,
                                  "state": "completed"}]}),
            None,
        );
        o.settle = serde_json::from_value(json!({"waited_ms": 80, "reason": "quiet",
            "windows": 1, "windows_opened": [{"window_id": "win:0x5", "title": "Save As",
                                               "app_id": "app:7"}]}))
        .expect("settle");
        let r = shaped(o);
        let first = text(&r).lines().next().expect("text");
        assert!(first.contains("opened window \"Save As\" (win:0x5)"), "{first}");
        assert!(first.contains("alert dialog \"Saved?\" open"), "{first}");
        assert!(first.contains("download /d/report.csv completed"), "{first}");
    }

    #[test]
    fn long_texts_show_raw_and_are_cut_only_beside_an_image() {
        let outline: String = (0..400).map(|i| format!("button \"b{i}\" [e{i}]\n")).collect();
        let shot = json!({"mime": "image/png", "width": 10, "height": 10, "data": "QQ=="});
        let look = outcome(
            json!({"snapshot": {"snapshot": outline, "lines": 400}, "screenshot": shot}),
            None,
        );
        let r = shaped(look);
        let text = text(&r);
        assert!(text.len() < 4_000, "{} characters", text.len());
        assert!(text.contains("\nbutton \"b0\" [e0]\nbutton \"b1\" [e1]\n"), "raw lines: {text}");
        assert!(
            text.contains("more characters in")
                && text.contains("structuredContent.result.snapshot.snapshot"),
            "{text}"
        );
        assert_eq!(structured(&r, "/result/snapshot/snapshot"), &json!(outline), "whole there");
        let alone = outcome(json!({"snapshot": {"snapshot": outline}}), None);
        let r = shaped(alone);
        let text = self::text(&r);
        assert!(
            text.contains("button \"b399\" [e399]") && !text.contains("cut here"),
            "whole without an image"
        );
        let t = tokens(&json!({"snapshot": {"snapshot": outline}, "screenshot": shot}), None, None);
        assert!(t.text <= 4_000 / 4, "{t:?}");
    }
}
