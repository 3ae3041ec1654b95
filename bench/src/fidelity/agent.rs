//! The two ways the scripted agent acts, behind one trait: Glovebox over its WebSocket
//! (`browser.*` on its own tab) and Playwright MCP over stdio (`browser_*` on its tab, in the
//! same Chromium). Each reads its own snapshot into lines of role, name and ref.

use std::time::Duration;

use anyhow::{bail, Context as _};
use serde_json::{json, Value};

use crate::browser::mcp::Mcp;
use crate::client::Client;

/// One snapshot line that carries a ref.
#[derive(Clone, Debug)]
pub struct Line {
    pub role: String,
    pub name: String,
    pub r#ref: String,
}

pub trait Agent {
    async fn open(&mut self, url: &str) -> anyhow::Result<()>;
    /// A full snapshot's text and its round trip.
    async fn snapshot(&mut self) -> anyhow::Result<(String, Duration)>;
    fn lines(&self, snapshot: &str) -> Vec<Line>;
    async fn click(&mut self, l: &Line) -> anyhow::Result<()>;
    async fn fill(&mut self, l: &Line, text: &str) -> anyhow::Result<()>;
    async fn type_keys(&mut self, l: &Line, text: &str) -> anyhow::Result<()>;
    async fn press(&mut self, key: &str) -> anyhow::Result<()>;
    async fn drag(&mut self, from: &Line, to: &Line) -> anyhow::Result<()>;
    /// A JavaScript expression's value, as text (a string as it is, anything else as JSON).
    async fn evaluate(&mut self, expr: &str) -> anyhow::Result<String>;
}

/// A JSON-quoted string at the start of `s`: its text and what follows.
fn quoted(s: &str) -> Option<(String, &str)> {
    let b = s.as_bytes();
    if b.first() != Some(&b'"') {
        return None;
    }
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => {
                let text = serde_json::from_str(&s[..=i]).ok()?;
                return Some((text, &s[i + 1..]));
            }
            _ => i += 1,
        }
    }
    None
}

fn as_text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), String::from)
}

/// Glovebox: a session on the daemon and the tab it works in.
pub struct Glovebox<'a> {
    pub c: &'a mut Client,
    pub tab: String,
}

impl Glovebox<'_> {
    async fn call(&mut self, method: &str, mut params: Value) -> anyhow::Result<(Value, Duration)> {
        params["tab_id"] = json!(self.tab);
        if method != "browser.snapshot" {
            params["capture"] = json!(false);
        }
        let (text, took) = self.c.call(method, &params.to_string()).await?;
        let v: Value = serde_json::from_str(&text)?;
        if v.get("result").is_none() {
            let short: String = text.chars().take(500).collect();
            bail!("{method} failed: {short}");
        }
        Ok((v["result"]["result"].clone(), took))
    }
}

impl Agent for Glovebox<'_> {
    async fn open(&mut self, url: &str) -> anyhow::Result<()> {
        self.call("browser.navigate", json!({"url": url})).await.map(drop)
    }

    async fn snapshot(&mut self) -> anyhow::Result<(String, Duration)> {
        let (r, took) =
            self.call("browser.snapshot", json!({"disable_diffing": true, "limit": 5000})).await?;
        Ok((r["snapshot"].as_str().unwrap_or_default().to_owned(), took))
    }

    /// `role "name" [eN] ...`, indented, the name a JSON string.
    fn lines(&self, snapshot: &str) -> Vec<Line> {
        let mut out = Vec::new();
        for text in snapshot.lines() {
            let Some(r) = glovebox_protocol::outline::line_ref(text) else { continue };
            let t = text.trim_start();
            let t = t.strip_prefix("+ ").or_else(|| t.strip_prefix("~ ")).unwrap_or(t);
            let (role, rest) = t.split_once(' ').unwrap_or((t, ""));
            let name = quoted(rest).map(|(n, _)| n).unwrap_or_default();
            out.push(Line { role: role.to_owned(), name, r#ref: r.to_owned() });
        }
        out
    }

    async fn click(&mut self, l: &Line) -> anyhow::Result<()> {
        self.call("browser.click", json!({"ref": l.r#ref})).await.map(drop)
    }

    async fn fill(&mut self, l: &Line, text: &str) -> anyhow::Result<()> {
        self.call("browser.fill", json!({"ref": l.r#ref, "text": text})).await.map(drop)
    }

    async fn type_keys(&mut self, l: &Line, text: &str) -> anyhow::Result<()> {
        let params = json!({"ref": l.r#ref, "text": text, "mode": "keys"});
        self.call("browser.type", params).await.map(drop)
    }

    async fn press(&mut self, key: &str) -> anyhow::Result<()> {
        self.call("browser.press", json!({"key": key})).await.map(drop)
    }

    async fn drag(&mut self, from: &Line, to: &Line) -> anyhow::Result<()> {
        let params = json!({"ref": from.r#ref, "target_ref": to.r#ref});
        self.call("browser.drag", params).await.map(drop)
    }

    async fn evaluate(&mut self, expr: &str) -> anyhow::Result<String> {
        let (r, _) = self.call("browser.evaluate", json!({"script": expr})).await?;
        Ok(as_text(&r["value"]))
    }
}

/// Playwright MCP: its server, and our session to bring its tab to the front (keys and focus
/// go to the front tab of a window).
pub struct Playwright<'a> {
    pub pw: &'a mut Mcp,
    pub c: &'a mut Client,
}

/// The text under `### <section>` of a Playwright MCP answer.
fn section<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let start = text.find(&format!("### {name}"))?;
    let body = &text[start..];
    let body = &body[body.find('\n').map_or(body.len(), |i| i + 1)..];
    Some(body.find("\n### ").map_or(body, |end| &body[..end]))
}

impl Agent for Playwright<'_> {
    async fn open(&mut self, url: &str) -> anyhow::Result<()> {
        self.pw.tool("browser_navigate", &json!({"url": url}))?;
        let (list, _) = self.c.call("browser.tab_list", "{}").await?;
        let list: Value = serde_json::from_str(&list)?;
        let tabs = list["result"]["result"]["tabs"].as_array().cloned().unwrap_or_default();
        let tab = tabs
            .iter()
            .find(|t| t["url"].as_str() == Some(url))
            .with_context(|| format!("no tab at {url}"))?;
        let params = json!({"tab_id": tab["tab_id"]}).to_string();
        self.c.call("browser.tab_select", &params).await?;
        Ok(())
    }

    async fn snapshot(&mut self) -> anyhow::Result<(String, Duration)> {
        self.pw.tool("browser_snapshot", &json!({}))
    }

    /// `- role "name" [ref=eN] [attrs]: text`, the name quoted, inline text after a colon.
    fn lines(&self, snapshot: &str) -> Vec<Line> {
        let mut out = Vec::new();
        for text in snapshot.lines() {
            let Some(r) = crate::browser::mcp::line_ref(text) else { continue };
            let t = text.trim_start().trim_start_matches("- ");
            let end = t.find([' ', ':', '[']).unwrap_or(t.len());
            let (role, rest) = t.split_at(end);
            let rest = rest.trim_start();
            let name = match quoted(rest) {
                Some((n, _)) => n,
                None => {
                    // After the ref and any other bracketed attributes, `: text`.
                    let tail = text.rsplit_once("]: ").map_or("", |(_, t)| t).trim();
                    quoted(tail).map_or_else(|| tail.to_owned(), |(n, _)| n)
                }
            };
            out.push(Line { role: role.to_owned(), name, r#ref: r.to_owned() });
        }
        out
    }

    async fn click(&mut self, l: &Line) -> anyhow::Result<()> {
        self.pw.tool("browser_click", &json!({"element": l.name, "target": l.r#ref})).map(drop)
    }

    async fn fill(&mut self, l: &Line, text: &str) -> anyhow::Result<()> {
        let args = json!({"element": l.name, "target": l.r#ref, "text": text});
        self.pw.tool("browser_type", &args).map(drop)
    }

    async fn type_keys(&mut self, l: &Line, text: &str) -> anyhow::Result<()> {
        let args = json!({"element": l.name, "target": l.r#ref, "text": text, "slowly": true});
        self.pw.tool("browser_type", &args).map(drop)
    }

    async fn press(&mut self, key: &str) -> anyhow::Result<()> {
        self.pw.tool("browser_press_key", &json!({"key": key})).map(drop)
    }

    async fn drag(&mut self, from: &Line, to: &Line) -> anyhow::Result<()> {
        let args = json!({"startElement": from.name, "startTarget": from.r#ref,
                          "endElement": to.name, "endTarget": to.r#ref});
        self.pw.tool("browser_drag", &args).map(drop)
    }

    async fn evaluate(&mut self, expr: &str) -> anyhow::Result<String> {
        let (text, _) =
            self.pw.tool("browser_evaluate", &json!({"function": format!("() => ({expr})")}))?;
        let body = section(&text, "Result").unwrap_or(&text).trim();
        Ok(serde_json::from_str::<Value>(body).map_or_else(|_| body.to_owned(), |v| as_text(&v)))
    }
}
