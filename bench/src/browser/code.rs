//! `cargo xtask bench browser --cdp`: what a code client pays for going through
//! `browser.cdp_session`'s endpoint instead of a direct DevTools connection. The same
//! round trip, `Runtime.evaluate('1')` on a flattened page session and Playwright's
//! `page.evaluate('1')` (when Playwright for Python is installed), is timed side by side:
//! through the daemon's endpoint on a tab of its own Chromium, and straight to a Chromium
//! the bench starts on a debugging port with the same flags. Rounds alternate the two; each
//! row is the median of the rounds' medians. Issue 36's bound (at most 1.3x) is on what a
//! code client sees, Playwright's `page.evaluate('1')`; the bare DevTools row is the floor,
//! where the endpoint's own hops (the socket, the lane, the pipe) show undiluted.

use std::collections::HashMap;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use futures::{SinkExt as _, StreamExt as _};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::super::client::Client;
use super::super::daemon::{self, Daemon};
use super::super::stats::{median, Summary};
use super::chromium;

/// The bound of issue 36: the endpoint's round trip over the direct one.
const BOUND: f64 = 1.3;

pub struct Options {
    pub rounds: usize,
    pub samples: usize,
}

/// A browser-level DevTools connection with one flattened page session.
struct Flat {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    session: String,
}

impl Flat {
    async fn connect(url: &str) -> anyhow::Result<Flat> {
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
            .await
            .with_context(|| format!("connecting to {url}"))?;
        let mut f = Flat { ws, next_id: 1, session: String::new() };
        let targets = f.call("Target.getTargets", json!({}), false).await?.0;
        let infos = targets["targetInfos"].as_array().cloned().unwrap_or_default();
        let Some(page) = infos.iter().find(|t| t["type"] == "page") else {
            bail!("no page at {url}: {targets}");
        };
        let p = json!({"targetId": page["targetId"], "flatten": true});
        let attached = f.call("Target.attachToTarget", p, false).await?.0;
        f.session = attached["sessionId"].as_str().context("no session")?.to_owned();
        Ok(f)
    }

    async fn call(
        &mut self,
        method: &str,
        params: Value,
        in_page: bool,
    ) -> anyhow::Result<(Value, Duration)> {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if in_page {
            msg["sessionId"] = json!(self.session);
        }
        let start = Instant::now();
        self.ws.send(Message::text(msg.to_string())).await?;
        let head = format!("{{\"id\":{id},");
        loop {
            let m = self.ws.next().await.context("DevTools closed")??;
            let Message::Text(t) = m else { continue };
            if !t.as_str().starts_with(&head) {
                continue;
            }
            let took = start.elapsed();
            let v: Value = serde_json::from_str(t.as_str())?;
            if let Some(e) = v.get("error") {
                bail!("{method} failed: {e}");
            }
            return Ok((v["result"].clone(), took));
        }
    }

    /// `samples` evaluations of `1`, after a few to warm up.
    async fn evaluate(&mut self, samples: usize) -> anyhow::Result<Summary> {
        let p = json!({"expression": "1", "returnByValue": true});
        for _ in 0..5 {
            self.call("Runtime.evaluate", p.clone(), true).await?;
        }
        let mut times = Vec::with_capacity(samples);
        for _ in 0..samples {
            times.push(self.call("Runtime.evaluate", p.clone(), true).await?.1);
        }
        Ok(Summary::of(&mut times))
    }
}

/// Playwright's `page.evaluate('1')` through `url`: the median of `samples`, in µs.
fn playwright(url: &str, samples: usize) -> anyhow::Result<f64> {
    let script = crate::root().join("tests").join("mcp").join("cdp_bench.py");
    let out = Command::new("python3").arg(script).arg(url).arg(samples.to_string()).output()?;
    if !out.status.success() {
        bail!("{}", String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("failed"));
    }
    let v: Value = serde_json::from_slice(&out.stdout)?;
    v["median_us"].as_f64().context("no median")
}

fn has_playwright() -> bool {
    Command::new("python3")
        .args(["-c", "import playwright"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// One row: the two medians of round medians (µs) and their ratio.
struct Row {
    what: &'static str,
    /// Held to [`BOUND`].
    bounded: bool,
    direct: f64,
    endpoint: f64,
}

impl Row {
    fn ratio(&self) -> f64 {
        self.endpoint / self.direct
    }
}

pub fn run(o: &Options) -> anyhow::Result<()> {
    let bin = daemon::build()?;
    let page = "<!doctype html><title>bench</title><p>evaluate</p>".to_owned();
    let site = super::pages::serve(HashMap::from([("blank.html", page)]))?;
    let dir = std::env::temp_dir().join(format!("gb-bench-cdp-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let policy = dir.join("policy.json");
    let allow = json!({"rules": [{"name": "bench", "class": "cdp", "decision": "allow"}]});
    std::fs::write(&policy, allow.to_string())?;
    let mut d =
        Daemon::start_with(&bin, "auto", &["--policy".into(), policy.display().to_string()])?;
    let port = chromium::free_port()?;
    let browser = chromium::Chromium::start(&d.display, port, &d.state);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let rows = match &browser {
        Ok(_) => rt.block_on(measure(&d, port, &format!("{site}/blank.html"), o)),
        Err(e) => Err(anyhow::anyhow!("{e:#}")),
    };
    drop(browser);
    let log = if rows.is_err() { d.log_tail(30) } else { String::new() };
    let exit = d.stop();
    let _ = std::fs::remove_dir_all(&dir);
    let rows = rows.with_context(|| format!("the daemon log ends with:\n{log}"))?;
    exit?;
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    writeln!(out, "code client round trip ({} rounds; medians of round medians):", o.rounds)?;
    let mut ok = true;
    for r in &rows {
        let verdict = match (r.bounded, r.ratio() <= BOUND) {
            (false, _) => "the floor, not bounded".to_owned(),
            (true, true) => format!("≤ {BOUND}: ok"),
            (true, false) => format!("≤ {BOUND}: OVER"),
        };
        ok &= !r.bounded || r.ratio() <= BOUND;
        writeln!(
            out,
            "  {:<42} direct {:>8.1} µs   endpoint {:>8.1} µs   ratio {:.2} ({verdict})",
            r.what,
            r.direct,
            r.endpoint,
            r.ratio()
        )?;
    }
    let json: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({"what": r.what, "direct_us": r.direct, "endpoint_us": r.endpoint,
                        "ratio": r.ratio(), "bound": r.bounded.then_some(BOUND)})
        })
        .collect();
    let path = super::super::target_dir()?.join("bench").join("browser-cdp.json");
    std::fs::create_dir_all(path.parent().context("dir")?)?;
    std::fs::write(&path, serde_json::to_string_pretty(&json)?)?;
    eprintln!("bench: wrote {}", path.display());
    if !ok {
        bail!("the endpoint's round trip is over {BOUND}x the direct one");
    }
    Ok(())
}

async fn measure(d: &Daemon, port: u16, page: &str, o: &Options) -> anyhow::Result<Vec<Row>> {
    let mut c = Client::connect(&d.url, &d.token).await?;
    c.hello().await?;
    let call = |text: String| -> anyhow::Result<Value> {
        let v: Value = serde_json::from_str(&text)?;
        if v.get("result").is_none() {
            bail!("{text}");
        }
        Ok(v["result"]["result"].clone())
    };
    let nav = json!({"url": page}).to_string();
    call(c.call("browser.navigate", &nav).await?.0)?;
    let got = call(c.call("browser.cdp_session", r#"{"ttl_s": 3600}"#).await?.0)?;
    let endpoint = got["url"].as_str().context("no url")?.to_owned();
    let version = super::cdp::get(port, "/json/version")?;
    // Chromium names its socket by the Host it was asked with, which had no port.
    let ws = version["webSocketDebuggerUrl"].as_str().context("no ws url")?;
    let path = ws.split_once("/devtools/").map(|(_, p)| p).context("no path")?;
    let direct = format!("ws://127.0.0.1:{port}/devtools/{path}");
    {
        let mut f = Flat::connect(&direct).await?;
        f.call("Page.navigate", json!({"url": page}), true).await?;
    }
    let (mut raw_direct, mut raw_endpoint) = (Vec::new(), Vec::new());
    let (mut pw_direct, mut pw_endpoint) = (Vec::new(), Vec::new());
    let pw = has_playwright();
    if !pw {
        eprintln!("bench: Playwright for Python is not installed (pip install -r tests/mcp/requirements.txt); only the bare DevTools row, without a verdict");
    }
    for round in 0..o.rounds {
        // Alternate which goes first, so neither always runs on a warmer machine.
        let order = if round % 2 == 0 { [false, true] } else { [true, false] };
        for through in order {
            let url = if through { &endpoint } else { &direct };
            let s = Flat::connect(url).await?.evaluate(o.samples).await?;
            if through {
                raw_endpoint.push(s.p50)
            } else {
                raw_direct.push(s.p50)
            }
            if pw {
                let url = url.clone();
                let samples = o.samples;
                let m = tokio::task::spawn_blocking(move || playwright(&url, samples)).await??;
                if through {
                    pw_endpoint.push(m)
                } else {
                    pw_direct.push(m)
                }
            }
        }
    }
    let mut rows = vec![Row {
        what: "Runtime.evaluate('1'), flattened session",
        bounded: false,
        direct: median(&raw_direct),
        endpoint: median(&raw_endpoint),
    }];
    if pw {
        rows.push(Row {
            what: "Playwright page.evaluate('1')",
            bounded: true,
            direct: median(&pw_direct),
            endpoint: median(&pw_endpoint),
        });
    }
    Ok(rows)
}
