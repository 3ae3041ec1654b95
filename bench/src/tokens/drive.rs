//! The two ways a flow is driven, counting what a model would read: Glovebox through
//! `tools.call` (its MCP-shaped content: text blocks by bytes / 4, image blocks by width x
//! height / 750, as Anthropic counts them), with `capture` left to its default (`auto`) or
//! `true`; and Playwright MCP over stdio with its defaults (its text content by bytes / 4).
//! Refs are looked up in the outlines read so far, and a snapshot is taken (and counted)
//! only when the element is not in them.

use std::collections::HashMap;
use std::time::Instant;

use anyhow::{bail, Context as _};
use base64::Engine as _;
use serde_json::{json, Value};

use crate::browser::mcp::Mcp;
use crate::client::Client;

/// What a flow cost: tokens read (text, image), calls and wall time.
#[derive(Debug, Default, Clone, Copy)]
pub struct Cost {
    pub text: u64,
    pub image: u64,
    pub calls: u32,
    pub images: u32,
    pub ms: f64,
}

impl Cost {
    pub fn total(&self) -> u64 {
        self.text + self.image
    }
}

/// Width and height of a base64 PNG, from its header.
fn png_size(data: &str) -> Option<(u64, u64)> {
    let head = base64::engine::general_purpose::STANDARD.decode(data.get(..32)?).ok()?;
    let be = |i: usize| u32::from_be_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
    (head.len() >= 24 && &head[1..4] == b"PNG").then(|| (u64::from(be(16)), u64::from(be(20))))
}

/// `role "name" [ref]` lines of an outline (Glovebox's or Playwright's) into name -> ref.
fn learn(known: &mut HashMap<String, String>, outline: &str) {
    for line in outline.lines() {
        let r = glovebox_protocol::outline::line_ref(line)
            .or_else(|| crate::browser::mcp::line_ref(line));
        let Some(r) = r else { continue };
        let t = line.trim_start().trim_start_matches(['+', '~', '-', ' ']);
        let (role, rest) = t.split_once(' ').unwrap_or((t, ""));
        let name = rest.split('"').nth(1).unwrap_or_default();
        known.insert(format!("{role} {name}"), r.to_owned());
    }
}

/// Glovebox through `tools.call`.
pub struct Glovebox<'a> {
    pub c: &'a mut Client,
    /// `None`: the default (`auto`); `Some(true)`: a capture after every change.
    pub capture: Option<bool>,
    pub cost: Cost,
    pub tab: Option<String>,
    known: HashMap<String, String>,
}

impl<'a> Glovebox<'a> {
    pub fn new(c: &'a mut Client, capture: Option<bool>, tab: Option<String>) -> Self {
        Glovebox { c, capture, cost: Cost::default(), tab, known: HashMap::new() }
    }

    /// One `tools.call`; its structuredContent, counted.
    pub async fn call(&mut self, tool: &str, mut args: Value) -> anyhow::Result<Value> {
        if let (Some(tab), "browser") = (&self.tab, tool) {
            args["tab_id"] = json!(tab);
        }
        let mut params = json!({"name": tool, "arguments": args, "timeout_ms": 60000});
        if let Some(c) = self.capture {
            params["capture"] = json!(c);
        }
        let started = Instant::now();
        let (text, _) = self.c.call("tools.call", &params.to_string()).await?;
        self.cost.ms += started.elapsed().as_secs_f64() * 1e3;
        let v: Value = serde_json::from_str(&text)?;
        let r = &v["result"];
        if r["isError"] != json!(false) {
            bail!("{tool} {args} failed: {}", text.chars().take(600).collect::<String>());
        }
        self.cost.calls += 1;
        for block in r["content"].as_array().into_iter().flatten() {
            match block["type"].as_str() {
                Some("text") => {
                    let t = block["text"].as_str().unwrap_or_default();
                    self.cost.text += (t.len() as u64).div_ceil(4);
                }
                Some("image") => {
                    let (w, h) = png_size(block["data"].as_str().unwrap_or_default())
                        .context("an image block that is no PNG")?;
                    self.cost.image += (w * h).div_ceil(750);
                    self.cost.images += 1;
                }
                _ => {}
            }
        }
        let s = r["structuredContent"].clone();
        if std::env::var_os("GLOVEBOX_BENCH_VERBOSE").is_some() {
            let head = r["content"][0]["text"].as_str().unwrap_or_default();
            eprintln!("  {tool} {}: {}", args["action"], head.lines().next().unwrap_or_default());
        }
        if s["result"]["navigated_to"].is_string() || args["action"] == "navigate" {
            self.known.clear();
        }
        let r = &s["result"];
        for outline in [&r["snapshot"], &r["snapshot"]["snapshot"], &s["changes"]["snapshot"]] {
            learn(&mut self.known, outline.as_str().unwrap_or_default());
        }
        Ok(s)
    }

    /// The ref of `role "name"`, from what was read, else from a fresh snapshot.
    pub async fn find(
        &mut self,
        tool: &str,
        scope: Value,
        role: &str,
        name: &str,
    ) -> anyhow::Result<String> {
        let key = format!("{role} {name}");
        if let Some(r) = self.known.get(&key) {
            return Ok(r.clone());
        }
        let mut args = scope;
        args["action"] = json!("snapshot");
        let s = self.call(tool, args.clone()).await?;
        if let Some(r) = self.known.get(&key) {
            return Ok(r.clone());
        }
        // An incremental snapshot shows only what changed: the whole one, then.
        args["disable_diffing"] = json!(true);
        let s2 = self.call(tool, args).await?;
        let outline = s2["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
        let _ = s;
        self.known.get(&key).cloned().with_context(|| format!("no {key} in\n{outline}"))
    }
}

/// Playwright MCP with its defaults.
pub struct Playwright<'a> {
    pub pw: &'a mut Mcp,
    pub cost: Cost,
    known: HashMap<String, String>,
}

impl<'a> Playwright<'a> {
    pub fn new(pw: &'a mut Mcp) -> Self {
        Playwright { pw, cost: Cost::default(), known: HashMap::new() }
    }

    pub fn call(&mut self, tool: &str, args: &Value) -> anyhow::Result<String> {
        let started = Instant::now();
        let (text, _) = self.pw.tool(tool, args)?;
        self.cost.ms += started.elapsed().as_secs_f64() * 1e3;
        self.cost.calls += 1;
        self.cost.text += (text.len() as u64).div_ceil(4);
        if text.contains("Page Snapshot") {
            self.known.clear();
        }
        learn(&mut self.known, &text);
        Ok(text)
    }

    /// `tool` on `role "name"`: the ref read so far, else from a fresh snapshot, and once
    /// more from a fresh snapshot when Playwright says the ref is gone.
    pub fn act(&mut self, tool: &str, role: &str, name: &str, extra: &Value) -> anyhow::Result<()> {
        for attempt in 0..2 {
            if attempt == 1 {
                self.known.clear();
            }
            let r = self.find(role, name)?;
            let mut args = json!({"element": name, "target": r, "ref": r});
            for (k, v) in extra.as_object().into_iter().flatten() {
                args[k] = v.clone();
            }
            match self.call(tool, &args) {
                Ok(_) => return Ok(()),
                Err(e) if attempt == 0 && e.to_string().contains("not found") => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    pub fn find(&mut self, role: &str, name: &str) -> anyhow::Result<String> {
        let key = format!("{role} {name}");
        if let Some(r) = self.known.get(&key) {
            return Ok(r.clone());
        }
        let text = self.call("browser_snapshot", &json!({}))?;
        self.known.get(&key).cloned().with_context(|| format!("no {key} in\n{text}"))
    }
}
