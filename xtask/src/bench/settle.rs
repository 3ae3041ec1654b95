//! `cargo xtask bench settle`: how long the daemon's event-driven settle waits after an
//! action and whether its capture shows the final screen, against the fixed delays peers
//! use (0.35 s and 2 s), side by side on the same actions: a click that opens a menu, a
//! click that changes nothing, typing into an entry (mousepad) and navigating to a local
//! page (the default Chromium).
//!
//! "Final" means: the capture matches a screenshot taken `FINAL_AFTER` later on all but a
//! sliver of the pixels (a blinking caret is allowed to differ).

use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use base64::Engine as _;
use serde_json::{json, Value};

use super::client::Client;
use super::daemon::{self, Daemon};
use super::site::Page;
use super::stats::{median, round1};

/// How much later the reference screenshot is taken.
const FINAL_AFTER: Duration = Duration::from_millis(1500);
/// The share of pixels allowed to differ from the reference (caret, cursor).
const SAME_BELOW: f64 = 0.002;
const FIXED: [u64; 2] = [350, 2000];

#[derive(Clone, Copy)]
enum Scenario {
    MenuClick,
    NoOpClick,
    TypeIntoEntry,
    Navigate,
}

impl Scenario {
    const ALL: [Scenario; 4] =
        [Scenario::MenuClick, Scenario::NoOpClick, Scenario::TypeIntoEntry, Scenario::Navigate];

    fn name(self) -> &'static str {
        match self {
            Scenario::MenuClick => "click-opens-menu",
            Scenario::NoOpClick => "click-does-nothing",
            Scenario::TypeIntoEntry => "type-into-entry",
            Scenario::Navigate => "navigate-local-page",
        }
    }

    fn screenshot(self) -> &'static str {
        match self {
            Scenario::Navigate => "browser.screenshot",
            _ => "computer.screenshot",
        }
    }
}

/// Refs and urls the scenarios act on.
struct Setup {
    app: String,
    menu: String,
    text: String,
    site: String,
}

/// One way of waiting after an action: the daemon's settle, or a fixed delay in ms.
#[derive(Clone, Copy, PartialEq)]
enum Wait {
    Settle,
    Fixed(u64),
}

impl Wait {
    fn label(self) -> String {
        match self {
            Wait::Settle => "glovebox settle".into(),
            Wait::Fixed(0) => "no wait (control)".into(),
            Wait::Fixed(ms) => format!("fixed {:.2} s", ms as f64 / 1000.0),
        }
    }
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let mut iterations = 10usize;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--iterations" => iterations = it.next().context("--iterations needs N")?.parse()?,
            _ => bail!("unknown argument {a:?}; usage: cargo xtask bench settle [--iterations N]"),
        }
    }
    let bin = daemon::build()?;
    let mut d = Daemon::start(&bin)?;
    eprintln!("bench: gloveboxd pid {} at {} (DISPLAY={})", d.pid, d.url, d.display);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let result = rt.block_on(measure(&d, iterations));
    let log = if result.is_err() { d.log_tail(20) } else { String::new() };
    d.stop()?;
    let rows = result.with_context(|| format!("the daemon log ends with:\n{log}"))?;
    print(&rows, iterations)
}

struct Row {
    scenario: &'static str,
    wait: Wait,
    waited_ms: Vec<f64>,
    final_state: usize,
    reasons: Vec<String>,
}

async fn measure(d: &Daemon, iterations: usize) -> anyhow::Result<Vec<Row>> {
    let site = serve().await?;
    let mut c = Client::connect(&d.url, &d.token).await?;
    c.hello().await?;
    let setup = prepare(&mut c, site).await?;
    let mut rows = Vec::new();
    for scenario in Scenario::ALL {
        if let Scenario::Navigate = scenario {
            // The browser's first start is not what is measured (and its window stays off
            // the desktop scenarios, which come first).
            let url = format!("{}/page?n=0", setup.site);
            call(&mut c, "browser.navigate", json!({"url": url, "capture": false})).await?;
        }
        // No wait at all is the control: it shows what a capture taken too early looks like.
        for wait in [Wait::Settle, Wait::Fixed(0), Wait::Fixed(FIXED[0]), Wait::Fixed(FIXED[1])] {
            let mut row = Row {
                scenario: scenario.name(),
                wait,
                waited_ms: Vec::new(),
                final_state: 0,
                reasons: Vec::new(),
            };
            for i in 0..iterations {
                reset(&mut c, &setup, scenario).await?;
                let (image, waited, reason) = act(&mut c, &setup, scenario, wait, i).await?;
                tokio::time::sleep(FINAL_AFTER).await;
                let reference = image_of(&call(&mut c, scenario.screenshot(), json!({})).await?)?;
                if differing(&image, &reference) < SAME_BELOW {
                    row.final_state += 1;
                }
                row.waited_ms.push(waited);
                row.reasons.push(reason);
            }
            eprintln!(
                "bench: {} / {}: median {:.0} ms, {}/{} final",
                row.scenario,
                row.wait.label(),
                median(&row.waited_ms),
                row.final_state,
                iterations
            );
            rows.push(row);
        }
    }
    Ok(rows)
}

/// The action result (`result` of the JSON-RPC answer), or an error with the answer.
async fn call(c: &mut Client, method: &str, params: Value) -> anyhow::Result<Value> {
    let (text, _) = c.call(method, &params.to_string()).await?;
    let v: Value = serde_json::from_str(&text)?;
    match v.get("result") {
        Some(r) => Ok(r.clone()),
        None => bail!("{method} failed: {}", text.chars().take(600).collect::<String>()),
    }
}

async fn prepare(c: &mut Client, site: String) -> anyhow::Result<Setup> {
    let got = call(c, "context.get_app", json!({"app": "mousepad", "launch": true})).await?;
    let app = got["result"]["app_id"].as_str().context("no app_id")?.to_owned();
    let deadline = Instant::now() + Duration::from_secs(20);
    let (menu, text) = loop {
        let snap =
            call(c, "computer.snapshot", json!({"app_id": app, "disable_diffing": true})).await?;
        let outline = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
        let find = |words: &[&str]| {
            outline
                .lines()
                .find(|l| words.iter().all(|w| l.contains(w)))
                .and_then(glovebox_protocol::outline::line_ref)
                .map(str::to_owned)
        };
        if let (Some(m), Some(t)) = (find(&["menu \"File\"", "@"]), find(&["text", "editable"])) {
            break (m, t);
        }
        if Instant::now() > deadline {
            bail!("mousepad's File menu and text area never showed up:\n{outline}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    Ok(Setup { app, menu, text, site })
}

/// Puts the screen back to its start for `scenario` (and lets it settle).
async fn reset(c: &mut Client, s: &Setup, scenario: Scenario) -> anyhow::Result<()> {
    match scenario {
        Scenario::MenuClick | Scenario::NoOpClick => {
            call(c, "computer.key", json!({"key": "Escape", "app_id": s.app})).await?;
        }
        Scenario::TypeIntoEntry => {
            call(c, "computer.fill", json!({"ref": s.text, "app_id": s.app, "text": ""})).await?;
        }
        Scenario::Navigate => {
            call(c, "browser.navigate", json!({"url": "about:blank"})).await?;
        }
    }
    Ok(())
}

/// Runs the action and waits as `wait` says; the image that would go to the agent, how long
/// the wait took and why it ended.
async fn act(
    c: &mut Client,
    s: &Setup,
    scenario: Scenario,
    wait: Wait,
    i: usize,
) -> anyhow::Result<(Image, f64, String)> {
    let (method, mut params) = match scenario {
        Scenario::MenuClick => ("computer.click", json!({"ref": s.menu, "app_id": s.app})),
        Scenario::NoOpClick => ("computer.click", json!({"x": 1275, "y": 795})),
        Scenario::TypeIntoEntry => {
            ("computer.type", json!({"ref": s.text, "app_id": s.app, "text": "settle bench "}))
        }
        Scenario::Navigate => {
            ("browser.navigate", json!({"url": format!("{}/page?n={i}", s.site)}))
        }
    };
    match wait {
        Wait::Settle => {
            let r = call(c, method, params).await?;
            let waited = r["settle"]["waited_ms"].as_f64().context("no settle")?;
            let reason = r["settle"]["reason"].as_str().unwrap_or_default().to_owned();
            Ok((image_of(&r["capture"])?, waited, reason))
        }
        Wait::Fixed(ms) => {
            params["capture"] = json!(false);
            call(c, method, params).await?;
            tokio::time::sleep(Duration::from_millis(ms)).await;
            let shot = call(c, scenario.screenshot(), json!({})).await?;
            Ok((image_of(&shot)?, ms as f64, "fixed".into()))
        }
    }
}

struct Image {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
    channels: usize,
}

/// Decodes the PNG of a capture or of a screenshot result.
fn image_of(v: &Value) -> anyhow::Result<Image> {
    let data = v["data"].as_str().or(v["result"]["data"].as_str()).context("no image data")?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(data)?;
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info()?;
    let mut buf = vec![0; reader.output_buffer_size().context("image too large")?];
    let info = reader.next_frame(&mut buf)?;
    buf.truncate(info.buffer_size());
    Ok(Image {
        width: info.width,
        height: info.height,
        rgba: buf,
        channels: info.color_type.samples(),
    })
}

/// The share of pixels that differ (1.0 when the sizes differ).
fn differing(a: &Image, b: &Image) -> f64 {
    if (a.width, a.height, a.channels) != (b.width, b.height, b.channels) {
        return 1.0;
    }
    let n = a.rgba.chunks(a.channels).zip(b.rgba.chunks(b.channels)).filter(|(x, y)| x != y);
    n.count() as f64 / (f64::from(a.width) * f64::from(a.height)).max(1.0)
}

/// A loopback site: `/page?n=N` is a small page whose stylesheet answers 150 ms late (so a
/// capture taken too early shows it unstyled).
async fn serve() -> anyhow::Result<String> {
    super::site::serve(|path| {
        if path.starts_with("/style.css") {
            let css = "body{background:#1d4f91;color:#fff;font:24px sans-serif}\
                       h1{border-bottom:8px solid #f5b700}";
            return Page { delay: Duration::from_millis(150), mime: "text/css", body: css.into() };
        }
        let items: String = (0..40).map(|i| format!("<li>item {i} of {path}</li>")).collect();
        let body = format!(
            "<!doctype html><title>bench</title><link rel=stylesheet href=\"/style.css?{path}\">\
             <h1>Settle bench</h1><ul>{items}</ul>"
        );
        Page { delay: Duration::ZERO, mime: "text/html", body }
    })
    .await
}

fn print(rows: &[Row], iterations: usize) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "settle after an action: event-driven settle vs fixed delays ({iterations} runs each)"
    )?;
    writeln!(
        out,
        "{:<22} {:<18} {:>9} {:>9} {:>9} {:>12} {:>10}",
        "scenario", "wait", "p50 ms", "p90 ms", "max ms", "final shown", "vs 0.35 s"
    )?;
    let mut ours = Vec::new();
    let mut all_final = true;
    for r in rows {
        let mut w = r.waited_ms.clone();
        w.sort_by(f64::total_cmp);
        let p = |q: f64| w[((q * w.len() as f64).ceil() as usize).clamp(1, w.len()) - 1];
        let p50 = median(&r.waited_ms);
        let ratio = p50 / FIXED[0] as f64;
        writeln!(
            out,
            "{:<22} {:<18} {:>9} {:>9} {:>9} {:>9}/{:<2} {:>10}",
            r.scenario,
            r.wait.label(),
            round1(p50),
            round1(p(0.9)),
            round1(p(1.0)),
            r.final_state,
            iterations,
            format!("{:.2}x", ratio)
        )?;
        if r.wait == Wait::Settle {
            ours.extend(r.waited_ms.iter().copied());
            all_final &= r.final_state == iterations;
            let caps = r.reasons.iter().filter(|x| *x == "cap").count();
            if caps > 0 {
                writeln!(out, "{:<22} ({caps} of {iterations} settles ended at the cap)", "")?;
            }
        }
    }
    let m = median(&ours);
    writeln!(
        out,
        "goal: median settle <= 0.5x the 0.35 s delay (175 ms) with every capture final: \
         median {:.0} ms = {:.2}x, every capture final: {} -> {}",
        m,
        m / FIXED[0] as f64,
        if all_final { "yes" } else { "no" },
        if m <= 175.0 && all_final { "met" } else { "missed" }
    )?;
    Ok(())
}
