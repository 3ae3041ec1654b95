//! Playwright MCP as the peer to beat: installed with npm into a cache dir on first use (no
//! browser download), started over stdio against our Chromium's CDP endpoint, and driven by
//! a minimal MCP client: newline-delimited JSON-RPC, one request at a time.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde_json::{json, Value};

/// The version measured in `peer-measurements.md`.
pub const PACKAGE: &str = "@playwright/mcp@0.0.83";
const CALL_DEADLINE: Duration = Duration::from_secs(120);

fn cache_dir() -> PathBuf {
    let home = std::env::var_os("HOME").map_or_else(std::env::temp_dir, PathBuf::from);
    home.join(".cache").join("glovebox-bench").join("playwright-mcp")
}

/// The installed `cli.js`, installing it first if needed; Err says why it cannot be had.
pub fn install() -> anyhow::Result<PathBuf> {
    let dir = cache_dir();
    let cli = dir.join("node_modules/@playwright/mcp/cli.js");
    if cli.is_file() {
        return Ok(cli);
    }
    for tool in ["node", "npm"] {
        let found = Command::new(tool).arg("--version").stdout(Stdio::null()).status();
        if !found.is_ok_and(|s| s.success()) {
            bail!("`{tool}` is not available");
        }
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    eprintln!("bench: installing {PACKAGE} into {} (no browser download)", dir.display());
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&dir)
        .arg(PACKAGE)
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        .stdout(Stdio::null())
        .status()
        .context("running npm")?;
    if !status.success() || !cli.is_file() {
        bail!("npm install {PACKAGE} failed ({status})");
    }
    Ok(cli)
}

/// One Playwright MCP server process attached to a Chromium.
pub struct Mcp {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    next_id: u64,
    workdir: PathBuf,
}

impl Mcp {
    /// `node cli.js --cdp-endpoint http://127.0.0.1:<port>`, initialized.
    pub fn start(cli: &PathBuf, cdp_port: u16) -> anyhow::Result<Mcp> {
        let workdir =
            std::env::temp_dir().join(format!("glovebox-bench-pw-{}", std::process::id()));
        std::fs::create_dir_all(&workdir)?;
        let mut child = Command::new("node")
            .arg(cli)
            .args(["--cdp-endpoint", &format!("http://127.0.0.1:{cdp_port}")])
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
            .current_dir(&workdir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("starting Playwright MCP")?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut m = Mcp { child, stdin, lines, next_id: 1, workdir };
        m.request(
            "initialize",
            &json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "glovebox-bench", "version": "0"}}),
        )?;
        m.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(m)
    }

    fn send(&mut self, v: &Value) -> anyhow::Result<()> {
        let mut line = serde_json::to_string(v)?;
        line.push('\n');
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.flush()?;
        Ok(())
    }

    /// One request; its result and the time from writing it to reading the answer.
    fn request(&mut self, method: &str, params: &Value) -> anyhow::Result<(Value, Duration)> {
        let id = self.next_id;
        self.next_id += 1;
        let req = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let mut line = serde_json::to_string(&req)?;
        line.push('\n');
        let start = Instant::now();
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.flush()?;
        let deadline = start + CALL_DEADLINE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let text = self
                .lines
                .recv_timeout(left)
                .map_err(|_| anyhow::anyhow!("Playwright MCP gave no answer to {method}"))?;
            let took = start.elapsed();
            let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
            if v["id"] != json!(id) {
                continue; // a notification or a request from the server
            }
            if let Some(e) = v.get("error") {
                bail!("Playwright MCP {method} failed: {e}");
            }
            return Ok((v["result"].clone(), took));
        }
    }

    /// `tools/call`; the joined text content and the round trip.
    pub fn tool(&mut self, name: &str, args: &Value) -> anyhow::Result<(String, Duration)> {
        let (r, took) = self.request("tools/call", &json!({"name": name, "arguments": args}))?;
        let text: String = r["content"]
            .as_array()
            .map(|a| a.iter().filter_map(|c| c["text"].as_str()).collect::<Vec<_>>().join("\n"))
            .unwrap_or_default();
        if r["isError"] == json!(true) {
            bail!(
                "Playwright MCP {name} answered an error: {}",
                text.chars().take(400).collect::<String>()
            );
        }
        Ok((text, took))
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.workdir);
    }
}

/// Refs in a Playwright snapshot (`[ref=...]`).
pub fn ref_count(text: &str) -> usize {
    text.matches("[ref=").count()
}

/// The ref on a Playwright snapshot line (`[ref=e12]`).
pub fn line_ref(line: &str) -> Option<&str> {
    let (_, rest) = line.split_once("[ref=")?;
    rest.split(']').next()
}
