//! `cargo xtask bench browser`: the browser tool against issue 3's goals, side by side with
//! Playwright MCP on the same Chromium in one run. Two generated pages (5,001 interactive
//! elements; a 60-field form) are served on loopback; each round measures Playwright MCP's
//! `browser_snapshot`, then ours (full and default views), click by ref, fill of 1,000
//! characters, typing 1,000 characters key by key (beside Playwright MCP's `browser_type`
//! with `slowly: true`), and our screenshot beside a bare CDP `Page.captureScreenshot`.
//! With `--cdp` it measures a code client's round trip instead (`code.rs`).

pub(super) mod cdp;
pub(super) mod chromium;
mod code;
pub(super) mod mcp;
mod measure;
pub(super) mod pages;
mod report;

use std::collections::HashMap;
use std::time::Duration;

use anyhow::{bail, Context as _};
use serde_json::{json, Value};

use super::client::Client;
use super::daemon::{self, Daemon};
use super::stats::Summary;
use pages::Expected;

pub struct Options {
    pub rounds: usize,
    pub snapshots: usize,
    pub clicks: usize,
    pub fills: usize,
    pub shots: usize,
    /// Keys-mode typings of 1,000 characters per page and round.
    pub keys: usize,
    pub peer: bool,
    /// Only the code client's round trip, endpoint beside direct (`code.rs`), with this many
    /// samples per round.
    pub cdp: Option<usize>,
}

const USAGE: &str = "usage: cargo xtask bench browser [--rounds R] [--snapshots N] [--clicks N] [--fills N] [--shots N] [--keys N] [--no-peer] | --cdp [--rounds R] [--samples N] | --sessions 2 [--rounds R] [--clicks N]";

impl Options {
    fn parse(args: &[String]) -> anyhow::Result<Options> {
        let mut o = Options {
            rounds: 3,
            snapshots: 5,
            clicks: 30,
            fills: 10,
            shots: 10,
            keys: 3,
            peer: true,
            cdp: None,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if arg == "--no-peer" {
                o.peer = false;
                continue;
            }
            if arg == "--cdp" {
                o.cdp = Some(o.cdp.unwrap_or(200));
                continue;
            }
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) => (f, Some(v.to_owned())),
                None => (arg.as_str(), None),
            };
            let value: usize = inline
                .or_else(|| it.next().cloned())
                .with_context(|| format!("{flag} needs a value; {USAGE}"))?
                .parse()?;
            match flag {
                "--rounds" => o.rounds = value,
                "--snapshots" => o.snapshots = value,
                "--clicks" => o.clicks = value,
                "--fills" => o.fills = value,
                "--shots" => o.shots = value,
                "--keys" => o.keys = value,
                "--samples" => o.cdp = Some(value),
                _ => bail!("unknown argument {arg:?}; {USAGE}"),
            }
        }
        if [o.rounds, o.snapshots, o.clicks, o.fills, o.shots, o.keys].contains(&0) {
            bail!("every count must be positive; {USAGE}");
        }
        Ok(o)
    }
}

/// One test page and what the bench does on it.
pub struct Page {
    pub name: &'static str,
    pub path: &'static str,
    pub expected: Expected,
    /// The outline line of the element clicked by ref, and the script that proves the click.
    pub click: (&'static str, &'static str),
    /// The outline line of the text field filled.
    pub fill: &'static str,
}

pub const PAGES: [Page; 2] = [
    Page {
        name: "big (5,001 interactive)",
        path: "big.html",
        expected: pages::BIG_EXPECTED,
        click: ("button \"Button 25.2.2\"", "document.getElementById('out').textContent"),
        fill: "textbox \"Big input\"",
    },
    Page {
        name: "form (60 fields)",
        path: "form.html",
        expected: pages::FORM_EXPECTED,
        click: ("checkbox \"Checkbox 3\"", "document.querySelector('[name=checkbox3]').checked"),
        fill: "textbox \"Text field 0\"",
    },
];

/// Per page, per round: what was measured.
#[derive(Default)]
pub struct PageRounds {
    pub peer_snapshot: Vec<Summary>,
    pub peer_bytes: Vec<usize>,
    pub peer_refs: Vec<usize>,
    pub full_snapshot: Vec<Summary>,
    pub full_bytes: Vec<usize>,
    pub full_pages: Vec<usize>,
    /// role -> count of outline lines with a ref, in the last full snapshot.
    pub addressable: HashMap<String, usize>,
    pub default_ms: Vec<f64>,
    pub default_bytes: Vec<usize>,
    pub default_cursor: Vec<bool>,
    pub click: Vec<Summary>,
    /// The same click as three pipelined CDP mouse events from the bench's own socket.
    pub bare_click: Vec<Summary>,
    /// A bare client that looks first: one evaluate (hit test and box), then the events.
    pub bare_looked_click: Vec<Summary>,
    pub fill: Vec<Summary>,
    /// `keyboard_type` of 1,000 characters in keys mode, read back whole each time.
    pub keys: Vec<Summary>,
    /// Playwright MCP's `browser_type` with `slowly: true` (key by key) of the same text:
    /// its time, or its error and how long it took to fail.
    pub peer_keys: Vec<Result<Duration, (String, Duration)>>,
    /// The same with 100 characters, which it finishes: its rate.
    pub peer_keys_short: Vec<Duration>,
    pub shot: Vec<Summary>,
    pub bare_shot: Vec<Summary>,
    pub shot_bytes: Vec<usize>,
    /// The last texts, written beside the JSON report for reading.
    pub peer_text: String,
    pub full_text: String,
    pub default_text: String,
}

pub struct Results {
    pub options: Options,
    pub chromium: String,
    pub peer: Result<String, String>,
    pub pages: Vec<PageRounds>,
    pub loadavg: (String, String),
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    if args.iter().any(|a| a == "--sessions") {
        return super::parties::sessions(args);
    }
    let options = Options::parse(args)?;
    if let Some(samples) = options.cdp {
        return code::run(&code::Options { rounds: options.rounds.max(1), samples });
    }
    let peer = if options.peer {
        mcp::install().map_err(|e| format!("{e:#}"))
    } else {
        Err("--no-peer".into())
    };
    if let Err(why) = &peer {
        eprintln!("bench: Playwright MCP skipped: {why}; only our own numbers are measured");
    }
    let bin = daemon::build()?;
    let site =
        pages::serve(HashMap::from([("big.html", pages::big()), ("form.html", pages::form())]))?;
    let load_before = super::report::loadavg();
    let port = chromium::free_port()?;
    let allow = ["--browser-allow".to_owned(), format!("chrome-{port}")];
    let mut d = Daemon::start_with(&bin, "auto", &allow)?;
    eprintln!(
        "bench: gloveboxd pid {} at {} (DISPLAY={}), pages at {site}",
        d.pid, d.url, d.display
    );
    let browser = chromium::Chromium::start(&d.display, port, &d.state);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let measured = match &browser {
        Ok(_) => rt.block_on(measure::all(&d, port, &site, &options, peer.as_ref().ok())),
        Err(e) => Err(anyhow::anyhow!("{e:#}")),
    };
    drop(browser);
    let log = if measured.is_err() { d.log_tail(30) } else { String::new() };
    let exit = d.stop();
    let (chromium, pages) =
        measured.with_context(|| format!("the daemon log ends with:\n{log}"))?;
    exit?;
    let results = Results {
        options,
        chromium,
        peer: peer.map(|_| mcp::PACKAGE.to_owned()),
        pages,
        loadavg: (load_before, super::report::loadavg()),
    };
    report::print(&results)?;
    let path = super::target_dir()?.join("bench").join("browser.json");
    report::write_json(&results, &path)?;
    eprintln!("bench: wrote {}", path.display());
    Ok(())
}

/// A daemon call that must succeed: the whole response and its round trip.
async fn ok(c: &mut Client, method: &str, params: Value) -> anyhow::Result<(Value, Duration)> {
    let (text, took) = c.call(method, &params.to_string()).await?;
    let v: Value = serde_json::from_str(&text)?;
    if v.get("result").is_none() {
        let short: String = text.chars().take(600).collect();
        bail!("{method} {params} failed: {short}");
    }
    Ok((v, took))
}

/// `params` plus the tab it acts on and `capture: false` (mutating calls would otherwise
/// attach a screenshot).
fn on(tab: &str, mut params: Value) -> Value {
    params["tab_id"] = json!(tab);
    params
}

fn no_capture(tab: &str, params: Value) -> Value {
    let mut p = on(tab, params);
    p["capture"] = json!(false);
    p
}
