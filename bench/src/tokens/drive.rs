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

/// The ref of a `role` line next to `label "<label>"` at the same depth (a field its label
/// names only on screen), in `outline`.
fn beside(outline: &str, role: &str, label: &str) -> Option<String> {
    let lines: Vec<&str> = outline.lines().collect();
    let depth = |l: &str| l.len() - l.trim_start_matches([' ', '+', '~', '-']).len();
    let is_role = |l: &str| {
        let t = l.trim_start_matches([' ', '+', '~', '-']);
        t.starts_with(&format!("{role} ")) || t.starts_with(&format!("{role} \""))
    };
    let want = format!("label \"{label}\"");
    for (i, l) in lines.iter().enumerate().filter(|(_, l)| l.contains(&want)) {
        let near = [i.checked_sub(1), Some(i + 1)].into_iter().flatten();
        for j in near.filter(|j| *j < lines.len()) {
            let other = lines[j];
            if depth(other) == depth(l) && is_role(other) {
                let r = glovebox_protocol::outline::line_ref(other);
                if let Some(r) = r {
                    return Some(r.to_owned());
                }
            }
        }
    }
    None
}

/// Glovebox through `tools.call`.
pub struct Glovebox<'a> {
    pub c: &'a mut Client,
    /// `None`: the default (`auto`); `Some(true)`: a capture after every change.
    pub capture: Option<bool>,
    pub cost: Cost,
    pub tab: Option<String>,
    known: HashMap<String, String>,
    /// The outlines read, newest last.
    read: Vec<String>,
}

impl<'a> Glovebox<'a> {
    pub fn new(c: &'a mut Client, capture: Option<bool>, tab: Option<String>) -> Self {
        let (cost, known, read) = (Cost::default(), HashMap::new(), Vec::new());
        Glovebox { c, capture, cost, tab, known, read }
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
        // GLOVEBOX_BENCH_VERBOSE: each call's first line; `=2`: its whole text.
        if let Some(v) = std::env::var_os("GLOVEBOX_BENCH_VERBOSE") {
            let text = r["content"][0]["text"].as_str().unwrap_or_default();
            let shown = if v == "2" { text } else { text.lines().next().unwrap_or_default() };
            eprintln!("  {tool} {}: {shown}", args["action"]);
        }
        if s["result"]["navigated_to"].is_string() || args["action"] == "navigate" {
            self.known.clear();
        }
        let r = &s["result"];
        for outline in [&r["snapshot"], &r["snapshot"]["snapshot"], &s["changes"]["snapshot"]] {
            let Some(outline) = outline.as_str() else { continue };
            learn(&mut self.known, outline);
            self.read.push(outline.to_owned());
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

impl Glovebox<'_> {
    /// The ref of the `role` element beside the label `label`, from what was read, else from
    /// a fresh snapshot (incremental, then whole).
    pub async fn find_beside(
        &mut self,
        tool: &str,
        scope: Value,
        role: &str,
        label: &str,
    ) -> anyhow::Result<String> {
        let seen = |g: &Self| g.read.iter().rev().find_map(|o| beside(o, role, label));
        if let Some(r) = seen(self) {
            return Ok(r);
        }
        let mut args = scope;
        args["action"] = json!("snapshot");
        for whole in [false, true] {
            args["disable_diffing"] = json!(whole);
            self.call(tool, args.clone()).await?;
            if let Some(r) = seen(self) {
                return Ok(r);
            }
        }
        let last = self.read.last().cloned().unwrap_or_default();
        bail!("no {role} beside label {label:?} in\n{last}")
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
