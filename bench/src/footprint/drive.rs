//! Bringing one workspace up and driving it: `/readyz` polled until 200, the first browser
//! snapshot, then the short agent loop (navigate to a loopback page, browser snapshot, click
//! by ref, mousepad launched and snapshotted, typing into it by ref, a screenshot) with the
//! tree's CPU time and sampled PSS around it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use super::tree::Tree;
use crate::client::Client;
use crate::daemon::{ticks_per_second, Daemon};

/// Every wait here ends: the daemon's own op timeouts are 30 s, a cold start a few.
const READY_DEADLINE: Duration = Duration::from_secs(60);
const CALL_DEADLINE: Duration = Duration::from_secs(90);
const SAMPLE_EVERY: Duration = Duration::from_millis(100);

/// From the spawn: to `/readyz` 200 and to the first browser snapshot, in ms.
#[derive(Debug, Clone, Copy)]
pub struct Startup {
    pub ready_ms: f64,
    pub first_snapshot_ms: f64,
}

/// What driving one workspace cost.
#[derive(Debug, Clone, Copy)]
pub struct Drive {
    /// The highest tree PSS sampled (every 100 ms and after each step) from the spawn to
    /// the end of the loops and at the first idle read, in KiB.
    pub peak_pss_kib: u64,
    /// CPU of the tree over the warm loops (all but the first, which launches mousepad)
    /// divided by their wall time, in thousandths of a core.
    pub driven_millicores: f64,
    /// The tree's CPU per warm loop, in ms.
    pub cpu_ms_per_loop: f64,
    /// Wall time of one warm loop (median), in ms.
    pub loop_ms: f64,
}

/// Samples the tree's PSS on a thread until dropped; the highest seen.
pub struct PeakSampler {
    stop: Arc<AtomicBool>,
    peak: Arc<AtomicU64>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl PeakSampler {
    pub fn start(root: u32) -> PeakSampler {
        let stop = Arc::new(AtomicBool::new(false));
        let peak = Arc::new(AtomicU64::new(0));
        let (s, p) = (stop.clone(), peak.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                p.fetch_max(Tree::read(root).pss_kib(), Ordering::SeqCst);
                std::thread::sleep(SAMPLE_EVERY);
            }
        });
        PeakSampler { stop, peak, thread: Some(thread) }
    }

    /// Sample now too (after a step, when a peak is likeliest).
    pub fn sample(&self, root: u32) {
        self.peak.fetch_max(Tree::read(root).pss_kib(), Ordering::SeqCst);
    }

    pub fn finish(mut self) -> u64 {
        self.halt();
        self.peak.load(Ordering::SeqCst)
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for PeakSampler {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Polls `GET /readyz` (Host: localhost) until it answers 200; when, since `t0`.
pub async fn ready(d: &Daemon, t0: Instant) -> anyhow::Result<Duration> {
    let addr = d
        .url
        .strip_prefix("ws://")
        .and_then(|r| r.strip_suffix("/rpc"))
        .with_context(|| format!("odd url {}", d.url))?
        .to_owned();
    let deadline = Instant::now() + READY_DEADLINE;
    loop {
        let last =
            match tokio::time::timeout(Duration::from_secs(5), status_of(&addr, "/readyz")).await {
                Ok(Ok(200)) => return Ok(t0.elapsed()),
                Ok(Ok(code)) => format!("HTTP {code}"),
                Ok(Err(e)) => format!("{e:#}"),
                Err(_) => "no answer within 5 s".to_owned(),
            };
        if Instant::now() > deadline {
            bail!("/readyz was not 200 within {READY_DEADLINE:?}; last: {last}");
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// One HTTP/1.1 GET with `Host: localhost`; the status code.
async fn status_of(addr: &str, path: &str) -> anyhow::Result<u16> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await?;
    let mut head = Vec::new();
    let mut buf = [0u8; 512];
    while !head.windows(2).any(|w| w == b"\r\n") {
        let n = s.read(&mut buf).await?;
        if n == 0 {
            bail!("closed before a status line");
        }
        head.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&head);
    let code = text.split_whitespace().nth(1).and_then(|c| c.parse().ok());
    code.with_context(|| format!("odd status line {text:?}"))
}

/// One workspace's session: the client, the loopback site, the app once launched.
pub struct Agent {
    c: Client,
    site: String,
    root: u32,
    /// mousepad's app id and its text view's ref.
    app: Option<(String, String)>,
}

impl Agent {
    /// Connect, say hello and take the first browser snapshot (which starts Chromium); the
    /// time from `t0` to its answer.
    pub async fn connect(d: &Daemon, site: &str, t0: Instant) -> anyhow::Result<(Agent, Duration)> {
        let mut c = Client::connect(&d.url, &d.token).await?;
        c.hello().await?;
        let mut a = Agent { c, site: site.to_owned(), root: d.pid, app: None };
        a.call("browser.snapshot", json!({})).await?;
        Ok((a, t0.elapsed()))
    }

    /// `loops` rounds of the agent loop, PSS sampled by `peak`; the first loop launches
    /// mousepad and is left out of the CPU figures.
    pub async fn drive(&mut self, loops: usize, peak: &PeakSampler) -> anyhow::Result<Drive> {
        self.one_loop(0, peak).await?;
        let t = Tree::ticks(self.root);
        let start = Instant::now();
        let mut walls = Vec::new();
        for i in 1..loops.max(2) {
            let s = Instant::now();
            self.one_loop(i, peak).await?;
            walls.push(s.elapsed().as_secs_f64() * 1000.0);
        }
        let wall = start.elapsed().as_secs_f64();
        let cpu_s = Tree::ticks(self.root).saturating_sub(t) as f64 / ticks_per_second();
        Ok(Drive {
            peak_pss_kib: 0,
            driven_millicores: cpu_s / wall * 1000.0,
            cpu_ms_per_loop: cpu_s * 1000.0 / walls.len() as f64,
            loop_ms: crate::stats::median(&walls),
        })
    }

    async fn one_loop(&mut self, i: usize, peak: &PeakSampler) -> anyhow::Result<()> {
        let url = format!("{}/page-{i}.html", self.site);
        self.call("browser.navigate", json!({"url": url, "capture": false})).await?;
        peak.sample(self.root);
        let snap = self.call("browser.snapshot", json!({"disable_diffing": true})).await?;
        let text = snap["snapshot"].as_str().unwrap_or_default();
        let button = ref_on(text, &["button", "Press"])
            .with_context(|| format!("no button \"Press\" in:\n{text}"))?;
        self.call("browser.click", json!({"ref": button, "capture": false})).await?;
        peak.sample(self.root);
        let (app, view) = match self.app.clone() {
            Some(a) => a,
            None => self.launch().await?,
        };
        self.call("computer.snapshot", json!({"app_id": app, "disable_diffing": true})).await?;
        let typed = format!("loop {i} ");
        let params = json!({"app_id": app, "ref": view, "text": typed, "capture": false});
        self.call("computer.type", params).await?;
        peak.sample(self.root);
        self.call("computer.screenshot", json!({})).await?;
        peak.sample(self.root);
        Ok(())
    }

    /// mousepad through `context.get_app`, then snapshots until its text view shows.
    async fn launch(&mut self) -> anyhow::Result<(String, String)> {
        let got = self
            .call(
                "context.get_app",
                json!({"app": "mousepad", "launch": true, "timeout_ms": 60000}),
            )
            .await?;
        let app = got["app_id"].as_str().context("no app_id")?.to_owned();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let params = json!({"app_id": app, "disable_diffing": true, "limit": 5000});
            let snap = self.call("computer.snapshot", params).await?;
            let text = snap["snapshot"].as_str().unwrap_or_default();
            if let Some(view) = ref_on(text, &["text", "editable"]) {
                self.app = Some((app.clone(), view.clone()));
                return Ok((app, view));
            }
            if Instant::now() > deadline {
                bail!("mousepad shows no editable text within 30 s:\n{text}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// One call that must succeed (a BUSY is sent again after a pause); the action's result.
    async fn call(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        let text = params.to_string();
        let deadline = Instant::now() + CALL_DEADLINE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (answer, _) = tokio::time::timeout(left, self.c.call(method, &text))
                .await
                .with_context(|| format!("{method} did not answer within {CALL_DEADLINE:?}"))??;
            let v: Value = serde_json::from_str(&answer)?;
            if v["error"]["data"]["code"] == "BUSY" && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            if v.get("result").is_none() {
                let short: String = answer.chars().take(600).collect();
                bail!("{method} {params} failed: {short}");
            }
            return Ok(v["result"]["result"].clone());
        }
    }
}

/// The ref on the first outline line holding every word.
fn ref_on(text: &str, words: &[&str]) -> Option<String> {
    let line = text.lines().find(|l| words.iter().all(|w| l.contains(w)))?;
    glovebox_protocol::outline::line_ref(line).map(str::to_owned)
}

/// The loopback page every loop navigates to (a fresh path each loop: a real navigation).
pub fn page(path: &str) -> crate::site::Page {
    let body = format!(
        "<!doctype html><title>footprint</title><h1>Footprint {path}</h1>\
         <p>A short page for the agent loop.</p><input aria-label=\"Name\">\
         <button onclick=\"document.getElementById('out').textContent='pressed'\">Press</button>\
         <p id=\"out\"></p>"
    );
    crate::site::Page { delay: Duration::ZERO, mime: "text/html", body }
}
