//! `cargo xtask bench settle [--runs N] [--only WORD,..] [--log FILE] [--dump DIR]`: whether the capture
//! an action comes back with shows the final state of what it caused, and how long the
//! daemon's settle waited for it, beside the fixed delays peers use (0.35 s: Agent Zero's
//! click; 0.5 s: Playwright MCP's settle) simulated on the same cases. The corpus, served on
//! loopback from `tests/fixtures/` (`127.0.0.1` and `localhost` on one port are two sites to
//! Chromium): changes by a timer at 0, 50, 150, 400 and 800 ms, a 300 ms transition, a fetch
//! started 100 ms after the click (answered 150 ms later), a click that changes nothing, the
//! same on a page with a clock ticking every second, a navigation to a page with a same-site
//! and with a cross-site iframe, and on the desktop mousepad's Save dialog opened by Ctrl+S
//! and closed by Return, which saves.
//!
//! "Final" (`settle_img.rs`): equal to a reference taken 2 s after a dedicated run's action,
//! masking the pixels where a second reference 1.1 s later differs (caret, clock).
//!
//! `--only`: the cases whose name holds one of the words; `--log`: keep the daemon's log
//! (what it holds: `GLOVEBOX_LOG`); `--dump DIR`: write each case's final image and the first
//! capture per wait that was not final, as PNGs.

use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde_json::{json, Value};

use super::client::Client;
use super::daemon::{self, Daemon};
use super::settle_img::{image_of, Final, Image};
use super::site::Page;
use super::stats::{median, round1};

const FIXED: [u64; 2] = [350, 500];

#[derive(Clone, Copy, PartialEq, Debug)]
enum Case {
    Timer(u64),
    Transition,
    Fetch,
    NoOp,
    Clock,
    FrameSame,
    FrameFar,
    DialogOpen,
    DialogClose,
}

impl Case {
    const ALL: [Case; 13] = [
        Case::DialogOpen,
        Case::DialogClose,
        Case::Timer(0),
        Case::Timer(50),
        Case::Timer(150),
        Case::Timer(400),
        Case::Timer(800),
        Case::Transition,
        Case::Fetch,
        Case::NoOp,
        Case::Clock,
        Case::FrameSame,
        Case::FrameFar,
    ];

    fn name(self) -> String {
        match self {
            Case::Timer(ms) => format!("timer {ms} ms"),
            Case::Transition => "transition 300 ms".into(),
            Case::Fetch => "fetch at 100 ms".into(),
            Case::NoOp => "no-op click".into(),
            Case::Clock => "no-op, clock ticking".into(),
            Case::FrameSame => "navigate, same-site frame".into(),
            Case::FrameFar => "navigate, cross-site frame".into(),
            Case::DialogOpen => "ctrl+s opens dialog".into(),
            Case::DialogClose => "return saves, dialog closes".into(),
        }
    }

    /// When the change is due after the action, for cases that have one.
    fn due(self) -> Option<u64> {
        match self {
            Case::Timer(ms) => Some(ms),
            Case::Transition => Some(300),
            Case::Fetch => Some(250),
            Case::NoOp | Case::Clock => Some(0),
            _ => None,
        }
    }

    fn desktop(self) -> bool {
        matches!(self, Case::DialogOpen | Case::DialogClose)
    }

    fn page(self) -> &'static str {
        match self {
            Case::Clock => "clock.html",
            Case::FrameSame | Case::FrameFar => "refs.html",
            _ => "late.html",
        }
    }

    fn button(self) -> Option<String> {
        match self {
            Case::Timer(ms) => Some(format!("t{ms}")),
            Case::Transition => Some("css".into()),
            Case::Fetch => Some("fetch".into()),
            Case::NoOp => Some("noop".into()),
            _ => None,
        }
    }
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
            Wait::Fixed(ms) => format!("fixed {:.2} s", ms as f64 / 1000.0),
        }
    }
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let mut runs = 10usize;
    let mut keep_log = None;
    let mut dump = None;
    let mut only: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--runs" | "--iterations" => runs = it.next().context("--runs needs N")?.parse()?,
            "--log" => keep_log = Some(it.next().context("--log needs a file")?.clone()),
            "--dump" => {
                dump = Some(std::path::PathBuf::from(it.next().context("--dump needs a dir")?))
            }
            "--only" => {
                let words = it.next().context("--only needs words")?;
                only.extend(words.split(',').map(str::to_owned));
            }
            _ => bail!(
                "unknown argument {a:?}; usage: cargo xtask bench settle [--runs N] \
                 [--only WORD,..] [--log FILE] [--dump DIR]"
            ),
        }
    }
    let bin = daemon::build()?;
    let mut d = Daemon::start(&bin)?;
    eprintln!("bench: gloveboxd pid {} at {} (DISPLAY={})", d.pid, d.url, d.display);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let result = rt.block_on(measure(&d, runs, &only, dump.as_deref()));
    let log = if result.is_err() { d.log_tail(20) } else { String::new() };
    // The daemon's log (GLOVEBOX_LOG sets what it holds) goes with its state dir.
    if let Some(to) = &keep_log {
        std::fs::copy(d.log(), to).with_context(|| format!("copying the daemon log to {to}"))?;
    }
    d.stop()?;
    let rows = result.with_context(|| format!("the daemon log ends with:\n{log}"))?;
    print(&rows, runs)
}

struct Row {
    case: Case,
    wait: Wait,
    waited_ms: Vec<f64>,
    final_state: usize,
    caps: usize,
}

/// What the cases act on.
struct Setup {
    site: String,
    app: String,
    refs: Vec<(String, String)>,
    /// Where the dialog case saves.
    saves: std::path::PathBuf,
}

/// `only`: the cases whose name holds one of these words (all when empty).
async fn measure(
    d: &Daemon,
    runs: usize,
    only: &[String],
    dump: Option<&std::path::Path>,
) -> anyhow::Result<Vec<Row>> {
    let site = serve().await?;
    let mut c = Client::connect(&d.url, &d.token).await?;
    c.hello().await?;
    let got = call(&mut c, "context.get_app", json!({"app": "mousepad", "launch": true})).await?;
    let app = got["result"]["app_id"].as_str().context("no app_id")?.to_owned();
    let saves = std::env::temp_dir().join(format!("glovebox-bench-saves-{}", std::process::id()));
    let mut s = Setup { site, app, refs: Vec::new(), saves };
    let mut rows = Vec::new();
    let mut page = "";
    let chosen = |case: Case| only.is_empty() || only.iter().any(|w| case.name().contains(w));
    for case in Case::ALL.into_iter().filter(|c| chosen(*c)) {
        if !case.desktop() && case.page() != page {
            page = case.page();
            let url = format!("{}/{page}", s.site);
            call(&mut c, "browser.navigate", json!({"url": url, "capture": false})).await?;
            s.refs = refs(&mut c).await?;
        }
        // A warm-up run first, so the reference starts from the state every run starts
        // from (the first dialog of an app differs from later ones, a first save names the
        // document), then the final state, from a dedicated run.
        reset(&mut c, &s, case).await?;
        act(&mut c, &s, case, Wait::Settle).await?;
        tokio::time::sleep(Duration::from_millis(case.due().unwrap_or(0) + 1000)).await;
        reset(&mut c, &s, case).await?;
        let started = Instant::now();
        act(&mut c, &s, case, Wait::Settle).await?;
        tokio::time::sleep_until((started + Duration::from_millis(2000)).into()).await;
        let first = shot(&mut c, case).await?;
        tokio::time::sleep(Duration::from_millis(1100)).await;
        let reference = Final::new(first, &shot(&mut c, case).await?);
        eprintln!("bench: {}: {} pixels change on their own", case.name(), reference.masked);
        let file = |what: &str| {
            let name = format!("{}-{what}.png", case.name().replace([' ', ','], "-"));
            dump.map(|d| d.join(name))
        };
        if let Some(f) = file("final") {
            std::fs::create_dir_all(f.parent().unwrap_or(&f))?;
            reference.reference.save(&f)?;
        }
        for wait in [Wait::Settle, Wait::Fixed(FIXED[0]), Wait::Fixed(FIXED[1])] {
            let mut row = Row { case, wait, waited_ms: Vec::new(), final_state: 0, caps: 0 };
            for _ in 0..runs {
                reset(&mut c, &s, case).await?;
                let started = Instant::now();
                let (img, waited, reason) = act(&mut c, &s, case, wait).await?;
                match reference.difference(&img) {
                    None => row.final_state += 1,
                    Some((at, n)) if row.waited_ms.is_empty() => {
                        eprintln!(
                            "bench: {} / {}: not final, {n} pixels differ in [x, y, w, h] {at:?}",
                            case.name(),
                            wait.label()
                        );
                        if let Some(f) = file(&wait.label().replace(' ', "-")) {
                            img.save(&f)?;
                        }
                    }
                    Some(_) => {}
                }
                row.waited_ms.push(waited);
                row.caps += usize::from(reason == "cap");
                // What the action set off is over before the next run.
                let over = started + Duration::from_millis(case.due().unwrap_or(0) + 500);
                tokio::time::sleep_until(over.into()).await;
            }
            eprintln!(
                "bench: {} / {}: median {:.0} ms, {}/{runs} final",
                case.name(),
                wait.label(),
                median(&row.waited_ms),
                row.final_state
            );
            rows.push(row);
        }
    }
    let _ = std::fs::remove_dir_all(&s.saves);
    Ok(rows)
}

/// The action result (`result` of the JSON-RPC answer), or an error with the answer.
async fn call(c: &mut Client, method: &str, params: Value) -> anyhow::Result<Value> {
    c.outcome(method, &params).await
}

/// The buttons' refs on the page shown: (name, ref).
async fn refs(c: &mut Client) -> anyhow::Result<Vec<(String, String)>> {
    let snap = call(c, "browser.snapshot", json!({"disable_diffing": true})).await?;
    let outline = snap["result"]["snapshot"].as_str().unwrap_or_default();
    Ok(outline
        .lines()
        .filter_map(|l| {
            let name = l.split("button \"").nth(1)?.split('"').next()?.to_owned();
            Some((name, glovebox_protocol::outline::line_ref(l)?.to_owned()))
        })
        .collect())
}

async fn shot(c: &mut Client, case: Case) -> anyhow::Result<Image> {
    let method = if case.desktop() { "computer.screenshot" } else { "browser.screenshot" };
    image_of(&call(c, method, json!({})).await?)
}

/// Puts the screen back to the case's start.
async fn reset(c: &mut Client, s: &Setup, case: Case) -> anyhow::Result<()> {
    let key = |k: &str| json!({"key": k, "app_id": s.app});
    match case {
        // The key settles (and waits for the dialog to go).
        Case::DialogOpen => drop(call(c, "computer.key", key("Escape")).await?),
        Case::DialogClose => {
            // A dialog the last case left open goes first. Save As opens whether the
            // document has a name yet or not; the name field has the focus, and a whole path
            // in it names the folder too. The same file each time (gone before, so nothing
            // asks to replace it), since the window's title shows its path.
            call(c, "computer.key", json!({"key": "Escape", "app_id": s.app, "capture": false}))
                .await?;
            std::fs::create_dir_all(&s.saves)?;
            let file = s.saves.join("saved.txt");
            let _ = std::fs::remove_file(&file);
            let name = file.display().to_string();
            call(c, "computer.key", key("ctrl+shift+s")).await?;
            // Each settles: the name field's completion runs a moment after the text comes.
            call(c, "computer.key", key("ctrl+a")).await?;
            call(c, "computer.type", json!({"text": name, "app_id": s.app})).await?;
        }
        Case::FrameSame | Case::FrameFar => {
            call(c, "browser.navigate", json!({"url": "about:blank", "capture": false})).await?;
        }
        Case::Clock => {}
        _ => {
            let script = "document.getElementById('box').className = ''; true";
            call(c, "browser.evaluate", json!({"script": script, "capture": false})).await?;
        }
    }
    Ok(())
}

/// Runs the case's action and waits as `wait` says: the image that would go to the agent,
/// how long the wait took and why it ended.
async fn act(
    c: &mut Client,
    s: &Setup,
    case: Case,
    wait: Wait,
) -> anyhow::Result<(Image, f64, String)> {
    let (method, mut params) = match case {
        Case::DialogOpen => ("computer.key", json!({"key": "ctrl+s", "app_id": s.app})),
        Case::DialogClose => ("computer.key", json!({"key": "Return", "app_id": s.app})),
        Case::FrameSame => {
            ("browser.navigate", json!({"url": format!("{}/frame-same.html", s.site)}))
        }
        Case::FrameFar => {
            ("browser.navigate", json!({"url": format!("{}/frame-far.html", s.site)}))
        }
        Case::Clock => ("browser.click", json!({"x": 600, "y": 500})),
        _ => {
            let want = case.button().unwrap_or_default();
            let r = s.refs.iter().find(|(n, _)| *n == want).context("no such button")?;
            ("browser.click", json!({"ref": r.1}))
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
            Ok((shot(c, case).await?, ms as f64, "fixed".into()))
        }
    }
}

/// `tests/fixtures/` on a loopback port; `?delay=<ms>` answers late.
async fn serve() -> anyhow::Result<String> {
    let root = super::root().join("tests/fixtures");
    super::site::serve(move |path| {
        let delay = path
            .split("delay=")
            .nth(1)
            .and_then(|d| d.split('&').next())
            .and_then(|d| d.parse::<u64>().ok())
            .unwrap_or(0);
        let file = path.split(['?', '#']).next().unwrap_or("/").trim_start_matches('/');
        let body = if file.contains("..") {
            String::new()
        } else {
            std::fs::read_to_string(root.join(file)).unwrap_or_default()
        };
        let mime = if file.ends_with(".js") { "text/javascript" } else { "text/html" };
        Page { delay: Duration::from_millis(delay.min(5000)), mime, body }
    })
    .await
}

/// The case's goal and whether the settle row met it.
fn verdict(r: &Row, rows: &[Row], runs: usize) -> (String, bool) {
    let all = r.final_state == runs;
    let m = median(&r.waited_ms);
    match r.case {
        Case::NoOp | Case::Clock => ("final, <= 120 ms".into(), all && m <= 120.0),
        Case::FrameFar => {
            let same = rows
                .iter()
                .find(|x| x.case == Case::FrameSame && x.wait == Wait::Settle)
                .map_or(f64::MAX, |x| median(&x.waited_ms));
            (format!("final, <= 1.5x same ({:.0})", 1.5 * same), all && m <= 1.5 * same)
        }
        case => match case.due() {
            Some(due) => (format!("final, <= {} ms", due + 150), all && m <= (due + 150) as f64),
            None => ("final".into(), all),
        },
    }
}

fn print(rows: &[Row], runs: usize) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    writeln!(out, "settle after an action vs fixed delays ({runs} runs each)")?;
    writeln!(
        out,
        "{:<27} {:<16} {:>7} {:>9} {:>9}  {:<26} verdict",
        "case", "wait", "final", "p50 ms", "p90 ms", "goal"
    )?;
    let mut met = 0;
    let mut goals = 0;
    for r in rows {
        let mut w = r.waited_ms.clone();
        w.sort_by(f64::total_cmp);
        let p90 = w[((0.9 * w.len() as f64).ceil() as usize).clamp(1, w.len()) - 1];
        let (goal, ok) = if r.wait == Wait::Settle {
            goals += 1;
            met += usize::from(verdict(r, rows, runs).1);
            let (g, ok) = verdict(r, rows, runs);
            (g, if ok { "met" } else { "missed" })
        } else {
            (String::new(), "")
        };
        writeln!(
            out,
            "{:<27} {:<16} {:>4}/{:<2} {:>9} {:>9}  {:<26} {}",
            r.case.name(),
            r.wait.label(),
            r.final_state,
            runs,
            round1(median(&r.waited_ms)),
            round1(p90),
            goal,
            ok
        )?;
        if r.caps > 0 {
            writeln!(out, "{:<27} ({} of {runs} settles ended at the cap)", "", r.caps)?;
        }
    }
    writeln!(out, "goals met: {met} of {goals}")?;
    Ok(())
}
