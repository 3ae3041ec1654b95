//! The one layer that hides secret values: every answer, event and log line leaving the
//! daemon passes through a [`Redactor`], which replaces each value (as typed, JSON-escaped or
//! URL-encoded) by `[secret:<name>]`.

use std::io::Write;
use std::sync::{Arc, RwLock};

use serde_json::Value;

/// The values to hide and their markers, longest first (a value inside another is found
/// after it). Clones share the list.
#[derive(Clone, Default)]
pub struct Redactor(Arc<RwLock<Vec<(String, String)>>>);

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Redactor")
    }
}

/// A one-time code stays hidden for this many codes after it.
const KEPT_CODES: usize = 16;

/// Base64 image data: long, never text a page wrote, and a chance match would break it.
const IMAGE_KEYS: &[&str] = &["data", "image", "png", "jpeg"];

impl Redactor {
    /// Hide `value` from now on as `[secret:<name>]`.
    pub fn add(&self, name: &str, value: &str) {
        self.insert(&format!("[secret:{name}]"), value);
    }

    /// Hide a one-time code typed for `name` (the last few codes only).
    pub fn add_code(&self, name: &str, code: &str) {
        let marker = format!("[secret:{name}:totp]");
        let mut list = self.0.write().unwrap_or_else(|p| p.into_inner());
        let codes = list.iter().filter(|(_, m)| m.ends_with(":totp]")).count();
        if codes >= KEPT_CODES {
            if let Some(i) = list.iter().position(|(_, m)| m.ends_with(":totp]")) {
                list.remove(i);
            }
        }
        drop(list);
        self.insert(&marker, code);
    }

    fn insert(&self, marker: &str, value: &str) {
        if value.is_empty() {
            return;
        }
        let json = serde_json::to_string(value).unwrap_or_default();
        let json = json.trim_matches('"').to_owned();
        let url: String = url_encode(value);
        let mut list = self.0.write().unwrap_or_else(|p| p.into_inner());
        for needle in [value.to_owned(), json, url] {
            if !needle.is_empty() && !list.iter().any(|(n, _)| *n == needle) {
                list.push((needle, marker.to_owned()));
            }
        }
        list.sort_by_key(|(needle, _)| std::cmp::Reverse(needle.len()));
    }

    pub fn is_empty(&self) -> bool {
        self.0.read().map(|l| l.is_empty()).unwrap_or(true)
    }

    /// `text` with every value replaced; `None` when it holds none.
    pub fn text(&self, text: &str) -> Option<String> {
        let list = self.0.read().ok()?;
        let mut out: Option<String> = None;
        for (needle, marker) in list.iter() {
            let cur = out.as_deref().unwrap_or(text);
            if cur.contains(needle.as_str()) {
                out = Some(cur.replace(needle.as_str(), marker));
            }
        }
        out
    }

    /// The marker of the first value `text` holds, if any.
    pub fn marker_in(&self, text: &str) -> Option<String> {
        let list = self.0.read().ok()?;
        list.iter().find(|(n, _)| text.contains(n.as_str())).map(|(_, m)| m.clone())
    }

    /// Every string in `v` with its values replaced (image data left alone).
    pub fn json(&self, v: &mut Value) {
        if self.is_empty() {
            return;
        }
        self.walk(v);
    }

    fn walk(&self, v: &mut Value) {
        match v {
            Value::String(s) => {
                if let Some(r) = self.text(s) {
                    *s = r;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.walk(v)),
            Value::Object(m) => {
                for (k, v) in m.iter_mut() {
                    let image = IMAGE_KEYS.contains(&k.as_str())
                        && v.as_str().is_some_and(|s| s.len() > 1024);
                    if !image {
                        self.walk(v);
                    }
                }
            }
            _ => {}
        }
    }

    /// A value that serializes to JSON, redacted: read back from its redacted JSON when it
    /// held a secret, else unchanged.
    pub fn value<T>(&self, t: T) -> T
    where
        T: serde::Serialize + serde::de::DeserializeOwned,
    {
        if self.is_empty() {
            return t;
        }
        let Ok(mut v) = serde_json::to_value(&t) else { return t };
        let before = v.clone();
        self.walk(&mut v);
        if v == before {
            return t;
        }
        serde_json::from_value(v).unwrap_or(t)
    }
}

/// What a form sends: `application/x-www-form-urlencoded` bytes of `value`.
fn url_encode(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The daemon's log on stderr, each line redacted before it is written (the fmt layer
/// writes a whole event per writer).
#[derive(Clone, Debug)]
pub struct LogWriter(pub Redactor);

pub struct Line {
    buf: Vec<u8>,
    redactor: Redactor,
}

impl Write for Line {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        let text = String::from_utf8_lossy(&self.buf);
        let out = self.redactor.text(&text);
        let bytes = out.as_deref().map_or(&self.buf[..], str::as_bytes);
        let _ = std::io::stderr().lock().write_all(bytes);
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for LogWriter {
    type Writer = Line;

    fn make_writer(&'a self) -> Line {
        Line { buf: Vec::with_capacity(256), redactor: self.0.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_go_in_every_spelling_and_images_stay() {
        let r = Redactor::default();
        r.add("github", "hu\"nt er2");
        let mut v = json!({
            "snapshot": "textbox \"Password\" value=\"hu\\\"nt er2\"",
            "typed": "hu\"nt er2",
            "url": "http://x/login?pass=hu%22nt+er2&u=a",
            "capture": {"data": "x".repeat(2000) + "hu\"nt er2"},
        });
        r.json(&mut v);
        let text = v.to_string();
        assert_eq!(v["typed"], "[secret:github]");
        assert_eq!(v["url"], "http://x/login?pass=[secret:github]&u=a");
        assert!(
            v["snapshot"].as_str().is_some_and(|s| s.contains("value=\"[secret:github]\"")),
            "{text}"
        );
        assert!(v["capture"]["data"].as_str().is_some_and(|s| s.ends_with("hu\"nt er2")));
        r.add_code("github", "123456");
        assert_eq!(r.text("code 123456").as_deref(), Some("code [secret:github:totp]"));
    }
}
