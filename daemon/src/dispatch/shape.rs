//! How an outcome is shaped for a model: its token estimate, and the MCP `tools/call` result
//! (`tools.call` here, and MCP's `tools/call` over `/mcp` and stdio). An image is any object
//! with an `image/*` `mime` and base64 `data`, in the result (a screenshot) or the capture:
//! each goes out once, as an `image` content block, while text and `structuredContent` keep
//! its metadata, never its data.

use glovebox_protocol::error::ErrorData;
use glovebox_protocol::wire::{OpOutcome, Tokens};
use serde_json::{json, Value};

/// The images of `v` taken out: their data (with mime and size) in order, `v` without it.
fn take_images(v: &mut Value, out: &mut Vec<(String, String, u64, u64)>) {
    match v {
        Value::Object(m) => {
            let is_image =
                m.get("mime").and_then(Value::as_str).is_some_and(|s| s.starts_with("image/"))
                    && m.get("data").is_some_and(Value::is_string);
            if is_image {
                let mime = m["mime"].as_str().unwrap_or_default().to_owned();
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
pub fn tokens(result: &Value, capture: Option<&Value>, changes: Option<&Value>) -> Tokens {
    let mut images = Vec::new();
    let mut text = json!({"result": result, "capture": capture});
    take_images(&mut text, &mut images);
    let bytes =
        body(&text["result"], !images.is_empty()).len() + changes.map_or(0, |c| changed(c).len());
    Tokens {
        text: crate::settle::text_tokens(bytes),
        image: images.iter().map(|(_, _, w, h)| crate::settle::image_tokens(*w, *h)).sum(),
    }
}

/// The MCP `tools/call` result of an outcome: a compact text, one image block per image,
/// `structuredContent` the outcome without image data; a failure is `isError: true` with the
/// error data in `structuredContent.error`, so the model sees it.
pub fn mcp(outcome: Result<OpOutcome, ErrorData>) -> Value {
    match outcome {
        Ok(o) => {
            let mut structured = serde_json::to_value(&o).unwrap_or_default();
            let mut images = Vec::new();
            take_images(&mut structured, &mut images);
            let text = summary(&structured, images.len());
            let mut content = vec![json!({"type": "text", "text": text})];
            for (mime, data, _, _) in images {
                content.push(json!({"type": "image", "data": data, "mimeType": mime}));
            }
            // The capture stays readable as a resource of the session, by this link.
            if let Some(id) = structured["capture"]["capture_id"].as_str() {
                content.push(json!({"type": "resource_link",
                    "uri": format!("{}{id}", crate::mcp::resources::CAPTURE),
                    "name": format!("capture {id}"), "mimeType": structured["capture"]["mime"]}));
            }
            // So are the files the action downloaded.
            let downloads = structured["result"]["downloads"].as_array().cloned();
            for path in downloads
                .into_iter()
                .flatten()
                .filter_map(|d| d["path"].as_str().map(std::path::PathBuf::from))
            {
                let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
                    continue;
                };
                content.push(json!({"type": "resource_link",
                    "uri": format!("{}{name}", crate::mcp::resources::DOWNLOAD),
                    "name": name, "mimeType": crate::mcp::resources::mime_of(&path)}));
            }
            json!({"content": content, "structuredContent": structured, "isError": false})
        }
        Err(e) => {
            let text = format!("{}: {}", e.code.as_str(), e.message);
            json!({"content": [{"type": "text", "text": text}], "structuredContent": {"error": e}, "isError": true})
        }
    }
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
fn summary(structured: &Value, images: usize) -> String {
    let outline = is_outline(&structured["result"]);
    let mut head = format!(
        "{}.{} succeeded (op {})",
        structured["tool"].as_str().unwrap_or_default(),
        structured["action"].as_str().unwrap_or_default(),
        structured["op_id"].as_str().unwrap_or_default()
    );
    if let Some(t) = structured["target"].as_object() {
        let named: Vec<String> = t
            .iter()
            .filter(|(_, v)| v.is_string() || v.is_number())
            // An outline's header stays short: where the target came from is in
            // structuredContent.
            .filter(|(k, _)| !outline || !k.ends_with("source"))
            .map(|(k, v)| {
                format!("{k}={}", v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            })
            .collect();
        head.push_str(&format!(" on {}", named.join(" ")));
    }
    if outline {
        let r = &structured["result"];
        head.push_str(&format!(
            ": {} {}, {} lines",
            r["snapshot_id"].as_str().unwrap_or_default(),
            r["mode"].as_str().unwrap_or_default(),
            r["lines"]
        ));
    }
    let settle = &structured["settle"];
    if let Some(reason) = settle["reason"].as_str() {
        head.push_str(&format!("; settle {reason} after {} ms", settle["waited_ms"]));
    }
    head.push_str(&caused(structured));
    let capture = &structured["capture"];
    if let Some(id) = capture["capture_id"].as_str() {
        head.push_str(&format!(
            "; capture {id} {}x{} {}",
            capture["width"],
            capture["height"],
            capture["mime"].as_str().unwrap_or_default()
        ));
    } else if let Some(why) = structured["no_capture"].as_str() {
        head.push_str(&format!("; no capture: {why}"));
    }
    if let Some(why) = capture["why"].as_str() {
        let said = if capture["sent"] == json!(true) { "image" } else { "no image" };
        head.push_str(&format!(" ({said}: {why})"));
    }
    if images > 0 {
        head.push_str(&format!("; {images} image block(s) follow"));
    }
    let changes = &structured["changes"];
    let changes = if changes.is_object() { changed(changes) } else { String::new() };
    format!("{head}\n{}{changes}", body(&structured["result"], images > 0))
}

/// The outline of what an action changed (`capture: "auto"`), as the text shows it: the
/// snapshot id it is, then its lines raw.
fn changed(changes: &Value) -> String {
    let text = changes["snapshot"].as_str().unwrap_or_default();
    let mut out = format!("\nchanges ({}):\n{text}", changes["snapshot_id"].as_str().unwrap_or(""));
    if let Some(gone) = changes["removed_refs"].as_array() {
        let gone: Vec<&str> = gone.iter().filter_map(Value::as_str).collect();
        out.push_str(&format!("removed: {}\n", gone.join(", ")));
    }
    out
}

/// What the action caused besides its answer, for the first line: windows it opened or
/// closed, a dialog it raised, tabs it opened, downloads, loads the policy blocked.
fn caused(structured: &Value) -> String {
    let list = |v: &Value| v.as_array().cloned().unwrap_or_default();
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let mut out = String::new();
    let settle = &structured["settle"];
    for (key, verb) in [("windows_opened", "opened"), ("windows_closed", "closed")] {
        for w in list(&settle[key]) {
            out.push_str(&format!(
                "; {verb} window {:?} ({})",
                text(&w["title"]),
                text(&w["window_id"])
            ));
        }
    }
    let result = &structured["result"];
    if let Some(kind) = result["dialog"]["type"].as_str() {
        let message = text(&result["dialog"]["message"]);
        out.push_str(&format!("; {kind} dialog {message:?} open (browser.dialog answers it)"));
    }
    for t in list(&result["opened_tabs"]) {
        out.push_str(&format!("; opened tab {} {}", text(&t["tab_id"]), text(&t["url"])));
    }
    for d in list(&result["downloads"]) {
        out.push_str(&format!("; download {} {}", text(&d["path"]), text(&d["state"])));
    }
    for b in list(&result["navigation_blocked"]) {
        out.push_str(&format!("; blocked {} (rule {})", text(&b["url"]), text(&b["rule"])));
    }
    out
}

/// A snapshot's result: an outline page at its top level.
fn is_outline(result: &Value) -> bool {
    result["snapshot"].is_string() && result["snapshot_id"].is_string()
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
    let outline = is_outline(&result);
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
        let r = mcp(Ok(o));
        let content = r["content"].as_array().expect("content");
        assert_eq!(content.iter().filter(|c| c["type"] == "image").count(), 1, "{r}");
        assert!(content[0]["text"].as_str().is_some_and(|t| t.len() < 4_000));
        assert!(content[0]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("browser.state_and_screenshot succeeded")));
        assert!(!r["structuredContent"].to_string().contains(&big[..100]));
        assert_eq!(r["structuredContent"]["result"]["screenshot"]["width"], 1280);
        let with_capture = outcome(
            json!({"clicked": true}),
            Some(json!({"mime": "image/jpeg", "width": 10, "height": 10, "data": "QQ=="})),
        );
        let r = mcp(Ok(with_capture));
        assert_eq!(r["content"][1]["mimeType"], "image/jpeg", "{r}");
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
        let r = mcp(Ok(o));
        let first = r["content"][0]["text"].as_str().and_then(|t| t.lines().next()).expect("text");
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
        let r = mcp(Ok(look));
        let text = r["content"][0]["text"].as_str().expect("text");
        assert!(text.len() < 4_000, "{} characters", text.len());
        assert!(text.contains("\nbutton \"b0\" [e0]\nbutton \"b1\" [e1]\n"), "raw lines: {text}");
        assert!(
            text.contains("more characters in")
                && text.contains("structuredContent.result.snapshot.snapshot"),
            "{text}"
        );
        assert_eq!(
            r["structuredContent"]["result"]["snapshot"]["snapshot"],
            json!(outline),
            "whole there"
        );
        let alone = outcome(json!({"snapshot": {"snapshot": outline}}), None);
        let r = mcp(Ok(alone));
        let text = r["content"][0]["text"].as_str().expect("text");
        assert!(
            text.contains("button \"b399\" [e399]") && !text.contains("cut here"),
            "whole without an image"
        );
        let t = tokens(&json!({"snapshot": {"snapshot": outline}, "screenshot": shot}), None, None);
        assert!(t.text <= 4_000 / 4, "{t:?}");
    }
}
