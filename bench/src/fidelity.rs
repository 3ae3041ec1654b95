//! `cargo xtask bench fidelity`: issue 32's corpus of real widgets no one here wrote (jQuery
//! UI, Bootstrap, Tom Select, flatpickr, SortableJS, Quill, Font Awesome, Tabulator), npm
//! packages installed by name and served on loopback inside small host pages. On each page a
//! scripted agent acting only through snapshot refs does the page's task, once through
//! Glovebox and once through Playwright MCP in the same Chromium; the bench counts the
//! page's controls that are named lines with refs, the tasks the page's own check finds
//! done, and the snapshots' round trips, with the 5,001-element page's snapshot beside.

mod agent;
mod corpus;
mod pages;
mod report;
mod solve;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context as _};
use serde_json::{json, Value};

use super::browser::chromium::{self, Chromium};
use super::browser::mcp::{self, Mcp};
use super::client::Client;
use super::daemon::{self, Daemon};
use agent::{Agent as _, Glovebox, Playwright};
use solve::Episode;

const USAGE: &str = "usage: cargo xtask bench fidelity [--snapshots N] [--big N] [--big-baseline MS] [--only PAGE,...] [--no-peer]";

pub struct Options {
    /// Timed snapshots of each page before its task.
    pub snapshots: usize,
    /// Full snapshots of the 5,001-element page (0: none).
    pub big: usize,
    /// Our full snapshot of that page before this work, in ms, for the 1.3x goal.
    pub big_baseline: Option<f64>,
    pub only: Vec<String>,
    pub peer: bool,
}

impl Options {
    fn parse(args: &[String]) -> anyhow::Result<Options> {
        let mut o =
            Options { snapshots: 3, big: 3, big_baseline: None, only: Vec::new(), peer: true };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if arg == "--no-peer" {
                o.peer = false;
                continue;
            }
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) => (f, Some(v.to_owned())),
                None => (arg.as_str(), None),
            };
            let value = inline
                .or_else(|| it.next().cloned())
                .with_context(|| format!("{flag} needs a value; {USAGE}"))?;
            match flag {
                "--snapshots" => o.snapshots = value.parse()?,
                "--big" => o.big = value.parse()?,
                "--big-baseline" => o.big_baseline = Some(value.parse()?),
                "--only" => o.only = value.split(',').map(String::from).collect(),
                _ => bail!("unknown argument {arg:?}; {USAGE}"),
            }
        }
        if let Some(unknown) =
            o.only.iter().find(|n| !pages::PAGES.iter().any(|p| p.name == n.as_str()))
        {
            bail!("no page {unknown:?}; the pages: {}", page_names());
        }
        Ok(o)
    }
}

fn page_names() -> String {
    pages::PAGES.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

/// One page's two episodes.
pub struct PageRun {
    pub page: &'static pages::Page,
    pub ours: Episode,
    pub theirs: Option<Episode>,
}

/// Round trips of full snapshots of the big page, in ms.
#[derive(Default)]
pub struct Big {
    pub ours: Vec<f64>,
    pub theirs: Vec<f64>,
}

pub struct Results {
    pub options: Options,
    pub chromium: String,
    pub peer: Result<String, String>,
    pub pages: Vec<PageRun>,
    pub big: Big,
    pub loadavg: (String, String),
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let options = Options::parse(args)?;
    let peer = if options.peer {
        mcp::install().map_err(|e| format!("{e:#}"))
    } else {
        Err("--no-peer".into())
    };
    if let Err(why) = &peer {
        eprintln!("bench: Playwright MCP skipped: {why}; only our own numbers are measured");
    }
    let root = corpus::install()?;
    let bin = daemon::build()?;
    let mut served: HashMap<String, String> =
        pages::PAGES.iter().map(|p| (format!("{}.html", p.name), p.html.to_owned())).collect();
    served.insert("big.html".into(), super::browser::pages::big());
    let site = corpus::serve(root, served)?;
    let load_before = super::report::loadavg();
    let port = chromium::free_port()?;
    let allow = ["--browser-allow".to_owned(), format!("chrome-{port}")];
    let mut d = Daemon::start_with(&bin, "auto", &allow)?;
    eprintln!(
        "bench: gloveboxd pid {} at {} (DISPLAY={}), corpus at {site}",
        d.pid, d.url, d.display
    );
    let browser = Chromium::start(&d.display, port, &d.state);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let measured = match &browser {
        Ok(_) => rt.block_on(measure(&d, port, &site, &options, peer.as_ref().ok())),
        Err(e) => Err(anyhow::anyhow!("{e:#}")),
    };
    drop(browser);
    let log = if measured.is_err() { d.log_tail(30) } else { String::new() };
    let exit = d.stop();
    let (chromium, pages, big) =
        measured.with_context(|| format!("the daemon log ends with:\n{log}"))?;
    exit?;
    let results = Results {
        options,
        chromium,
        peer: peer.map(|_| mcp::PACKAGE.to_owned()),
        pages,
        big,
        loadavg: (load_before, super::report::loadavg()),
    };
    report::print(&results)?;
    let dir = super::target_dir()?.join("bench");
    report::write(&results, &dir)?;
    eprintln!("bench: wrote {}", dir.join("fidelity.json").display());
    Ok(())
}

/// An action's own result, out of its outcome.
async fn ok(c: &mut Client, method: &str, params: Value) -> anyhow::Result<Value> {
    Ok(c.outcome(method, &params).await?["result"].take())
}

async fn measure(
    d: &Daemon,
    port: u16,
    site: &str,
    o: &Options,
    peer: Option<&PathBuf>,
) -> anyhow::Result<(String, Vec<PageRun>, Big)> {
    let mut c = Client::connect(&d.url, &d.token).await?;
    c.hello().await?;
    ok(&mut c, "context.get_browser", json!({"browser_id": format!("chrome-{port}")})).await?;
    let chromium = super::browser::cdp::version(port).unwrap_or_else(|e| format!("? ({e})"));
    let mut pw = match peer {
        Some(cli) => {
            let mut pw = Mcp::start(cli, port)?;
            // Its own tab: attached over CDP it would otherwise adopt one of ours.
            pw.tool("browser_tabs", &json!({"action": "new"}))?;
            Some(pw)
        }
        None => None,
    };
    let mut runs = Vec::new();
    for page in pages::PAGES {
        if !o.only.is_empty() && !o.only.iter().any(|n| n == page.name) {
            continue;
        }
        let theirs = match pw.as_mut() {
            Some(pw) => {
                let mut a = Playwright { pw, c: &mut c };
                let url = format!("{site}/{}.html?pw", page.name);
                Some(Episode::run(&mut a, &url, page, o.snapshots).await)
            }
            None => None,
        };
        let tab = new_tab(&mut c).await?;
        let mut a = Glovebox { c: &mut c, tab: tab.clone() };
        let ours =
            Episode::run(&mut a, &format!("{site}/{}.html?gb", page.name), page, o.snapshots).await;
        ok(&mut c, "browser.tab_close", json!({"tab_id": tab})).await?;
        let verdict = |e: &Episode| if e.done { "done" } else { "not done" };
        eprintln!(
            "bench: {}: ours {}, Playwright MCP {}",
            page.name,
            verdict(&ours),
            theirs.as_ref().map_or("-", verdict)
        );
        runs.push(PageRun { page, ours, theirs });
    }
    let mut big = Big::default();
    if o.big > 0 {
        if let Some(pw) = pw.as_mut() {
            let mut a = Playwright { pw, c: &mut c };
            a.open(&format!("{site}/big.html?pw")).await?;
            for _ in 0..=o.big {
                let (_, took) = a.snapshot().await?;
                big.theirs.push(took.as_secs_f64() * 1e3);
            }
            big.theirs.remove(0); // the first warms up
        }
        let tab = new_tab(&mut c).await?;
        ok(
            &mut c,
            "browser.navigate",
            json!({"tab_id": tab, "url": format!("{site}/big.html?gb"), "capture": false}),
        )
        .await?;
        for _ in 0..=o.big {
            big.ours.push(full_snapshot(&mut c, &tab).await?.as_secs_f64() * 1e3);
        }
        big.ours.remove(0);
        ok(&mut c, "browser.tab_close", json!({"tab_id": tab})).await?;
    }
    if let Some(pw) = pw.as_mut() {
        pw.tool("browser_tabs", &json!({"action": "close"}))?;
    }
    Ok((chromium, runs, big))
}

/// A fresh tab of ours, in front.
async fn new_tab(c: &mut Client) -> anyhow::Result<String> {
    let t = ok(c, "browser.tab_new", json!({})).await?;
    let tab = t["tab_id"].as_str().context("no tab_id")?.to_owned();
    ok(c, "browser.tab_select", json!({"tab_id": tab})).await?;
    Ok(tab)
}

/// A full snapshot paged to its end; the summed round trips.
async fn full_snapshot(c: &mut Client, tab: &str) -> anyhow::Result<Duration> {
    let mut params = json!({"tab_id": tab, "disable_diffing": true, "limit": 5000});
    let mut total = Duration::ZERO;
    loop {
        let (text, took) = c.call("browser.snapshot", &params.to_string()).await?;
        total += took;
        let v: Value = serde_json::from_str(&text)?;
        let Some(r) = v.get("result") else { bail!("browser.snapshot failed: {text}") };
        match r["result"]["next_cursor"].as_str() {
            Some(cursor) => params = json!({"tab_id": tab, "cursor": cursor, "limit": 5000}),
            None => return Ok(total),
        }
    }
}
