//! How an outcome is shaped for a model: its token estimate, and the MCP `tools/call` result
//! (`tools.call` here, MCP hosts later). An image is any object with an `image/*` `mime` and
//! base64 `data`, in the result (a screenshot) or the capture: each goes out once, as an
//! `image` content block, while text and `structuredContent` keep its metadata, never its data.

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

/// What `result` and `capture` cost a model: every image by its pixels, the rest as text
/// without the image data.
pub fn tokens(result: &Value, capture: Option<&Value>) -> Tokens {
    let mut images = Vec::new();
    let mut text = json!({"result": result, "capture": capture});
    take_images(&mut text, &mut images);
    let bytes = serde_json::to_string(&text["result"]).map_or(0, |t| t.len());
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
            let mut content = vec![json!({"type": "text", "text": summary(&structured)})];
            for (mime, data, _, _) in images {
                content.push(json!({"type": "image", "data": data, "mimeType": mime}));
            }
            // The capture stays readable as a resource of the session, by this link.
            if let Some(id) = structured["capture"]["capture_id"].as_str() {
                content.push(json!({"type": "resource_link",
                    "uri": format!("{}{id}", crate::mcp::resources::CAPTURE),
                    "name": format!("capture {id}"), "mimeType": structured["capture"]["mime"]}));
            }
            json!({"content": content, "structuredContent": structured, "isError": false})
        }
        Err(e) => {
            let text = format!("{}: {}", e.code.as_str(), e.message);
            json!({"content": [{"type": "text", "text": text}], "structuredContent": {"error": e}, "isError": true})
        }
    }
}

/// The outcome as text, images already taken out.
fn summary(structured: &Value) -> String {
    serde_json::to_string(structured).unwrap_or_default()
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
        let t = tokens(&o.result, o.capture.as_ref());
        assert_eq!(t.image, 1366, "1280x800 / 750");
        assert!(t.text < 100, "{t:?}");
        let r = mcp(Ok(o));
        let content = r["content"].as_array().expect("content");
        assert_eq!(content.iter().filter(|c| c["type"] == "image").count(), 1, "{r}");
        assert!(content[0]["text"].as_str().is_some_and(|t| t.len() < 4_000));
        assert!(!r["structuredContent"].to_string().contains(&big[..100]));
        assert_eq!(r["structuredContent"]["result"]["screenshot"]["width"], 1280);
        let with_capture = outcome(
            json!({"clicked": true}),
            Some(json!({"mime": "image/jpeg", "width": 10, "height": 10, "data": "QQ=="})),
        );
        let r = mcp(Ok(with_capture));
        assert_eq!(r["content"][1]["mimeType"], "image/jpeg", "{r}");
    }
}
