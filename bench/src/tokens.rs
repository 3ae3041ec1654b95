//! `cargo xtask bench tokens` (issue 35): what a model reads per task, and the wall time.
//! Four flows over a corpus served on loopback (`tokens/site.rs`): the trial's form flow
//! (sign in, a table, an edit page, save), a five-page browse, a gnome-calculator sum and a
//! mousepad save through its Save As dialog; each through `tools.call` with `capture`
//! left to its default (`auto`) and with `capture: true` (the old default), and the browser
//! flows through Playwright MCP's defaults in the same Chromium. Every flow's success is
//! checked (the server's log, the calculator's display, the saved file). The browser flows'
//! wall times are the scripted loop whose ratio to Playwright's the table prints.

mod drive;
mod site;

use std::time::Duration;

use anyhow::{bail, Context as _};
use serde_json::{json, Value};

use super::browser::chromium::{self, Chromium};
use super::browser::mcp::{self, Mcp};
use super::client::Client;
use super::daemon::{self, Daemon};
use drive::{Cost, Glovebox, Playwright};
use site::Log;

const USAGE: &str =
    "usage: cargo xtask bench tokens [--rounds N] [--no-peer] [--no-desktop] [--only flow,...]";

const FLOWS: [&str; 4] = ["form", "browse", "mousepad", "calculator"];

struct Options {
    rounds: usize,
    peer: bool,
    desktop: bool,
    /// The flows to run (all by default).
    only: Vec<String>,
}

impl Options {
    fn runs(&self, flow: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|f| f == flow)
    }
}

/// One flow's runs by one driver: a cost per round, and whether every round succeeded.
#[derive(Default)]
struct Runs {
    costs: Vec<Cost>,
    failed: Option<String>,
}

struct Row {
    flow: &'static str,
    auto: Runs,
    always: Runs,
    playwright: Option<Runs>,
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let mut o = Options { rounds: 3, peer: true, desktop: true, only: Vec::new() };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--no-peer" => o.peer = false,
            "--no-desktop" => o.desktop = false,
            "--rounds" => o.rounds = it.next().context(USAGE)?.parse()?,
            "--only" => {
                let only = it.next().context(USAGE)?;
                o.only = only.split(',').map(str::to_owned).collect();
                if let Some(f) = o.only.iter().find(|f| !FLOWS.contains(&f.as_str())) {
                    bail!("unknown flow {f:?}; flows: {}", FLOWS.join(", "));
                }
            }
            _ => bail!("unknown argument {a:?}; {USAGE}"),
        }
    }
    let peer =
        if o.peer { mcp::install().map_err(|e| format!("{e:#}")) } else { Err("--no-peer".into()) };
    let bin = daemon::build()?;
    let (site, log) = site::serve()?;
    let port = chromium::free_port()?;
    let allow = ["--browser-allow".to_owned(), format!("chrome-{port}")];
    let mut d = Daemon::start_with(&bin, "embedded", &allow)?;
    eprintln!(
        "bench: gloveboxd pid {} at {} (DISPLAY={}), corpus at {site}",
        d.pid, d.url, d.display
    );
    let browser = Chromium::start(&d.display, port, &d.state);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let measured = match &browser {
        Ok(_) => rt.block_on(measure(&d, port, &site, &log, &o, peer.as_ref().ok())),
        Err(e) => Err(anyhow::anyhow!("{e:#}")),
    };
    drop(browser);
    let tail = if measured.is_err() { d.log_tail(30) } else { String::new() };
    let exit = d.stop();
    let rows = measured.with_context(|| format!("the daemon log ends with:\n{tail}"))?;
    exit?;
    print(&rows, o.rounds)?;
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
    log: &Log,
    o: &Options,
    peer: Option<&std::path::PathBuf>,
) -> anyhow::Result<Vec<Row>> {
    let mut c = Client::connect(&d.url, &d.token).await?;
    c.hello().await?;
    ok(&mut c, "context.get_browser", json!({"browser_id": format!("chrome-{port}")})).await?;
    let mut pw = match peer {
        Some(cli) => {
            let mut pw = Mcp::start(cli, port)?;
            pw.tool("browser_tabs", &json!({"action": "new"}))?;
            Some(pw)
        }
        None => None,
    };
    let mut rows = Vec::new();
    for flow in ["form", "browse"].into_iter().filter(|f| o.runs(f)) {
        let mut row =
            Row { flow, auto: Runs::default(), always: Runs::default(), playwright: None };
        for round in 0..o.rounds {
            for capture in [None, Some(true)] {
                let tag = format!("{}{round}", if capture.is_some() { "t" } else { "a" });
                let t = ok(&mut c, "browser.tab_new", json!({})).await?;
                let tab = t["tab_id"].as_str().context("tab_id")?.to_owned();
                ok(&mut c, "browser.tab_select", json!({"tab_id": tab})).await?;
                let mut g = Glovebox::new(&mut c, capture, Some(tab.clone()));
                let done = browser_flow(&mut g, flow, site, log, &tag).await;
                let cost = g.cost;
                ok(&mut c, "browser.tab_close", json!({"tab_id": tab})).await?;
                let runs = if capture.is_some() { &mut row.always } else { &mut row.auto };
                record(runs, flow, done, cost);
            }
            if let Some(pw) = pw.as_mut() {
                let mut p = Playwright::new(pw);
                let done = playwright_flow(&mut p, flow, site, log, &format!("p{round}"));
                let cost = p.cost;
                record(row.playwright.get_or_insert_with(Runs::default), flow, done, cost);
            }
        }
        rows.push(row);
    }
    if let Some(pw) = pw.as_mut() {
        let _ = pw.tool("browser_tabs", &json!({"action": "close"}));
    }
    if o.desktop {
        for flow in ["mousepad", "calculator"].into_iter().filter(|f| o.runs(f)) {
            let mut row =
                Row { flow, auto: Runs::default(), always: Runs::default(), playwright: None };
            for round in 0..o.rounds {
                for capture in [None, Some(true)] {
                    let tag = format!("{}{round}", if capture.is_some() { "t" } else { "a" });
                    // A session of its own: nothing selected from the round before.
                    let mut c = Client::connect(&d.url, &d.token).await?;
                    c.hello().await?;
                    let mut g = Glovebox::new(&mut c, capture, None);
                    let done = desktop_flow(&mut g, flow, &tag).await;
                    let cost = g.cost;
                    let runs = if capture.is_some() { &mut row.always } else { &mut row.auto };
                    record(runs, flow, done, cost);
                }
            }
            rows.push(row);
        }
    }
    Ok(rows)
}

fn record(runs: &mut Runs, flow: &str, done: anyhow::Result<()>, cost: Cost) {
    match done {
        Ok(()) => runs.costs.push(cost),
        Err(e) => {
            eprintln!("bench: {flow} failed: {e:#}");
            runs.failed.get_or_insert_with(|| format!("{e:#}"));
        }
    }
}

/// A browser flow through Glovebox, checked by the server's log.
async fn browser_flow(
    g: &mut Glovebox<'_>,
    flow: &str,
    site: &str,
    log: &Log,
    tag: &str,
) -> anyhow::Result<()> {
    let none = json!({});
    if flow == "browse" {
        g.call(
            "browser",
            json!({"action": "navigate", "url": format!("{site}/page-1.html?{tag}")}),
        )
        .await?;
        for _ in 0..4 {
            let next = g.find("browser", none.clone(), "link", "Next").await?;
            g.call("browser", json!({"action": "click", "ref": next})).await?;
        }
        let title = g.call("browser", json!({"action": "get_title"})).await?;
        if title["result"]["title"] != "Chapter 5" || !log.has("page-5.html") {
            bail!("the browse did not reach chapter 5: {title}");
        }
        return Ok(());
    }
    g.call("browser", json!({"action": "navigate", "url": format!("{site}/login.html?{tag}")}))
        .await?;
    let user = g.find("browser", none.clone(), "textbox", "User").await?;
    g.call("browser", json!({"action": "fill", "ref": user, "text": "ada"})).await?;
    let pass = g.find("browser", none.clone(), "textbox", "Password").await?;
    g.call("browser", json!({"action": "fill", "ref": pass, "text": "lovelace"})).await?;
    let sign = g.find("browser", none.clone(), "button", "Sign in").await?;
    g.call("browser", json!({"action": "click", "ref": sign})).await?;
    let edit = g.find("browser", none.clone(), "link", "Edit Grace Murray").await?;
    g.call("browser", json!({"action": "click", "ref": edit})).await?;
    let name = g.find("browser", none.clone(), "textbox", "Name").await?;
    let new = format!("Grace Hopper {tag}");
    g.call("browser", json!({"action": "fill", "ref": name, "text": new})).await?;
    let save = g.find("browser", none.clone(), "button", "Save").await?;
    g.call("browser", json!({"action": "click", "ref": save})).await?;
    let saved = format!("saved/2/Grace%20Hopper%20{tag}");
    if !log.has(&saved) {
        bail!("the server never saw {saved}");
    }
    Ok(())
}

/// The same flow through Playwright MCP.
fn playwright_flow(
    p: &mut Playwright<'_>,
    flow: &str,
    site: &str,
    log: &Log,
    tag: &str,
) -> anyhow::Result<()> {
    let click = |p: &mut Playwright<'_>, role: &str, name: &str| -> anyhow::Result<()> {
        p.act("browser_click", role, name, &json!({}))
    };
    let fill = |p: &mut Playwright<'_>, name: &str, text: &str| -> anyhow::Result<()> {
        p.act("browser_type", "textbox", name, &json!({"text": text}))
    };
    if flow == "browse" {
        p.call("browser_navigate", &json!({"url": format!("{site}/page-1.html?{tag}")}))?;
        for _ in 0..4 {
            click(p, "link", "Next")?;
        }
        if !log.has("page-5.html") {
            bail!("the browse did not reach chapter 5");
        }
        return Ok(());
    }
    p.call("browser_navigate", &json!({"url": format!("{site}/login.html?{tag}")}))?;
    fill(p, "User", "ada")?;
    fill(p, "Password", "lovelace")?;
    click(p, "button", "Sign in")?;
    click(p, "link", "Edit Grace Murray")?;
    fill(p, "Name", &format!("Grace Hopper {tag}"))?;
    click(p, "button", "Save")?;
    let saved = format!("saved/2/Grace%20Hopper%20{tag}");
    if !log.has(&saved) {
        bail!("the server never saw {saved}");
    }
    Ok(())
}

/// A desktop flow: the app launched, the task done through refs, the app closed.
async fn desktop_flow(g: &mut Glovebox<'_>, flow: &str, tag: &str) -> anyhow::Result<()> {
    let app_name = if flow == "calculator" { "gnome-calculator" } else { "mousepad" };
    // Launched uncounted (as `bench desktop` does), then the task from a first snapshot.
    let launch = json!({"app": app_name, "launch": true, "timeout_ms": 60000, "capture": false});
    let got = ok(g.c, "context.get_app", launch).await?;
    if got["accessible"] != json!(true) {
        bail!("get_app launched {app_name} but found no accessible app: {got}");
    }
    let app = got["app_id"].as_str().context("no app_id")?.to_owned();
    let scope = json!({"app_id": app});
    g.call("computer", json!({"action": "snapshot", "app_id": app, "disable_diffing": true}))
        .await?;
    let result = if flow == "calculator" {
        calculator(g, &app, scope).await
    } else {
        mousepad(g, &app, scope, tag).await
    };
    // The app's windows close, uncounted, and the app is waited out: the next round
    // launches its own.
    let wins = ok(g.c, "context.list_windows", json!({"app_id": app})).await.unwrap_or_default();
    for w in wins["windows"].as_array().into_iter().flatten() {
        let close = json!({"window_id": w["window_id"], "operation": "close", "capture": false});
        let _ = ok(g.c, "computer.window", close).await;
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let apps = ok(g.c, "context.list_apps", json!({})).await?;
        let listed = apps["apps"].as_array().into_iter().flatten().any(|a| a["app_id"] == app);
        if !listed || std::time::Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = std::fs::remove_file(note_path(tag));
    result
}

/// Where the mousepad flow saves its note.
fn note_path(tag: &str) -> String {
    format!("/tmp/glovebox-bench-tokens-{}-{tag}.txt", std::process::id())
}

/// 12+7 typed into the display, Return, the display read back.
async fn calculator(g: &mut Glovebox<'_>, app: &str, scope: Value) -> anyhow::Result<()> {
    let display = g.find("computer", scope, "text", "GtkSourceView").await?;
    let sum = json!({"action": "fill", "app_id": app, "ref": display, "text": "12+7"});
    g.call("computer", sum).await?;
    g.call("computer", json!({"action": "key", "app_id": app, "key": "Return"})).await?;
    let v =
        g.call("computer", json!({"action": "get_text", "app_id": app, "ref": display})).await?;
    let text = v["result"]["text"].as_str().unwrap_or_default().to_owned();
    if text.trim() != "19" {
        bail!("the calculator shows {text:?}, not 19");
    }
    Ok(())
}

/// A note typed, Ctrl+S, the file's name filled in the Save As dialog (its field is the text
/// beside the label "Name:"), Return; the saved file checked.
async fn mousepad(g: &mut Glovebox<'_>, app: &str, scope: Value, tag: &str) -> anyhow::Result<()> {
    let path = note_path(tag);
    let _ = std::fs::remove_file(&path);
    let view = g.find("computer", scope.clone(), "text", "").await?;
    let note = format!("A note from the tokens bench, {tag}.");
    g.call("computer", json!({"action": "type", "app_id": app, "ref": view, "text": note})).await?;
    g.call("computer", json!({"action": "key", "app_id": app, "key": "ctrl+s"})).await?;
    let name = g.find_beside("computer", scope, "text", "Name:").await?;
    g.call("computer", json!({"action": "fill", "app_id": app, "ref": name, "text": path})).await?;
    g.call("computer", json!({"action": "key", "app_id": app, "key": "Return"})).await?;
    // The dialog closed in the key's settle; the file is written by then or soon after.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        // (Removed once mousepad is closed: it takes a removed file as a changed document.)
        if std::fs::read_to_string(&path).is_ok_and(|t| t.contains(&note)) {
            return Ok(());
        }
        if std::time::Instant::now() > deadline {
            bail!("{path} never held the note");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn print(rows: &[Row], rounds: usize) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "\nbench tokens: medians of {rounds} rounds; tokens = text (bytes/4) + image (w*h/750)"
    )?;
    writeln!(
        out,
        "{:<11} {:>22} {:>22} {:>22} {:>9} {:>9} {:>9}",
        "flow",
        "auto tok (img) ms",
        "capture:true tok (img) ms",
        "Playwright tok ms",
        "auto/true",
        "auto/pw",
        "ms/pw"
    )?;
    for r in rows {
        let cell = |runs: &Runs| -> (f64, f64, f64, String) {
            if let Some(f) = &runs.failed {
                return (
                    f64::NAN,
                    f64::NAN,
                    f64::NAN,
                    format!("FAILED: {}", f.chars().take(60).collect::<String>()),
                );
            }
            let t = median(runs.costs.iter().map(|c| c.total() as f64).collect());
            let i = median(runs.costs.iter().map(|c| c.image as f64).collect());
            let ms = median(runs.costs.iter().map(|c| c.ms).collect());
            (t, i, ms, format!("{t:.0} ({i:.0}) {ms:.0}"))
        };
        let (at, _, ams, a) = cell(&r.auto);
        let (tt, _, _, t) = cell(&r.always);
        let (pt, _, pms, p) =
            r.playwright.as_ref().map_or((f64::NAN, 0.0, f64::NAN, "-".into()), cell);
        writeln!(
            out,
            "{:<11} {a:>22} {t:>22} {p:>22} {:>9.2} {:>9.2} {:>9.2}",
            r.flow,
            at / tt,
            at / pt,
            ams / pms
        )?;
    }
    writeln!(
        out,
        "(capture:true: an image after every change, with today's outlines; the old default's \
         desktop outlines, before the compact rules, were longer, so auto/true overstates)"
    )?;
    let goal = |flow: &str| if flow == "form" { 0.4 } else { 0.5 };
    for r in rows {
        let t = |runs: &Runs| median(runs.costs.iter().map(|c| c.total() as f64).collect());
        let ratio = t(&r.auto) / t(&r.always);
        let lost = r.auto.failed.is_some() || r.always.failed.is_some();
        let mut verdict = format!(
            "{}: auto/true {ratio:.2} (goal <= {}) {}",
            r.flow,
            goal(r.flow),
            if ratio <= goal(r.flow) && !lost { "MET" } else { "NOT MET" }
        );
        if let Some(p) = &r.playwright {
            let vs = t(&r.auto) / t(p);
            let ms = median(r.auto.costs.iter().map(|c| c.ms).collect())
                / median(p.costs.iter().map(|c| c.ms).collect());
            verdict.push_str(&format!(
                "; tokens vs Playwright {vs:.2} (goal <= 1) {}; wall time vs Playwright {ms:.2} (goal <= 1.0) {}",
                if vs <= 1.0 { "MET" } else { "NOT MET" },
                if ms <= 1.0 { "MET" } else { "NOT MET" }
            ));
        }
        if lost {
            verdict.push_str("; a task was lost");
        }
        writeln!(out, "{verdict}")?;
    }
    Ok(())
}
