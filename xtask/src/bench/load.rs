//! `cargo xtask bench load`: many sessions at once (100 by default, for 60 s), each on its
//! own connection, mixing observing and acting on the real desktop (mousepad) and the real
//! browser. Every answer must be a success or `BUSY`; afterwards no key or mouse button may
//! be held in the X server. Prints latency percentiles per kind of call, the error count by
//! code and the daemon's peak memory.
//!
//! With `--faults` (`load/faults.rs`) the browser and the app are killed at random moments,
//! sessions drop their connection mid-call and resume, and pastes run beside it all. Then
//! every answer must be a success or an error with a code and a message, every session must
//! answer again once the faults stop, nothing may be held, and the user's clipboard must be
//! what it was.

mod faults;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde_json::{json, Value};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::ConnectionExt as _;

use super::client::Client;
use super::daemon::{self, Daemon};
use super::stats::Summary;

struct Options {
    sessions: usize,
    seconds: u64,
    faults: bool,
}

/// How long the faults stop before the end, for the sessions to show they recovered.
const CALM: Duration = Duration::from_secs(8);
/// A call that takes longer than this never answered (ops time out at 30 s).
const NO_ANSWER: Duration = Duration::from_secs(60);

/// What a session may call: (label, observe?, method, params); `{app}` is the app id.
const MIX: &[(&str, bool, &str, &str)] = &[
    ("session.status", true, "session.status", "{}"),
    ("computer.screenshot", true, "computer.screenshot", r#"{"max_width":320,"format":"jpeg"}"#),
    ("computer.snapshot", true, "computer.snapshot", r#"{"app_id":"{app}","limit":200}"#),
    ("context.list_windows", true, "context.list_windows", "{}"),
    ("browser.snapshot", true, "browser.snapshot", r#"{"limit":200}"#),
    ("browser.get_url", true, "browser.get_url", "{}"),
    ("computer.mouse_move", false, "computer.mouse_move", r#"{"x":1200,"y":780,"capture":false}"#),
    ("computer.key Shift", false, "computer.key", r#"{"key":"Shift","capture":false}"#),
    (
        "browser.scroll",
        false,
        "browser.scroll",
        r#"{"direction":"down","amount":120,"capture":false}"#,
    ),
    ("computer.mouse_move + capture", false, "computer.mouse_move", r#"{"x":1210,"y":790}"#),
];

/// Added to the mix under `--faults`: pastes, which borrow the user's clipboard.
const FAULT_MIX: &[(&str, bool, &str, &str)] = &[(
    "computer.paste",
    false,
    "computer.paste",
    r#"{"app_id":"{app}","text":"pasted ","capture":false}"#,
)];

#[derive(Default)]
struct Tally {
    samples: BTreeMap<&'static str, Vec<Duration>>,
    errors: BTreeMap<String, u64>,
    busy: u64,
    calls: u64,
    /// Errors without a code or a message.
    unclear: u64,
    /// Calls that never answered.
    unanswered: u64,
    /// Connections dropped mid-call (and resumed).
    dropped: u64,
    /// Sessions that answered every probe after the faults stopped.
    recovered: u64,
}

impl Tally {
    /// Add one session's counts to these.
    fn absorb(&mut self, t: Tally) {
        for (k, v) in t.samples {
            self.samples.entry(k).or_default().extend(v);
        }
        for (k, v) in t.errors {
            *self.errors.entry(k).or_default() += v;
        }
        self.busy += t.busy;
        self.calls += t.calls;
        self.unclear += t.unclear;
        self.unanswered += t.unanswered;
        self.dropped += t.dropped;
        self.recovered += t.recovered;
    }
}

/// What `--faults` adds to the report.
struct FaultReport {
    injected: faults::Injected,
    clipboard_kept: bool,
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let mut o = Options { sessions: 100, seconds: 60, faults: false };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--sessions" => o.sessions = value()?.parse()?,
            "--seconds" => o.seconds = value()?.parse()?,
            "--faults" => o.faults = true,
            _ => bail!("unknown argument {a:?}; usage: cargo xtask bench load [--sessions N] [--seconds S] [--faults]"),
        }
    }
    let bin = daemon::build()?;
    let mut d = Daemon::start(&bin)?;
    eprintln!("bench: gloveboxd pid {} at {} (DISPLAY={})", d.pid, d.url, d.display);
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let result = rt.block_on(measure(&d, &o));
    let log = if result.is_err() { d.log_tail(20) } else { String::new() };
    let held = held_input(&d.display);
    let stop = d.stop();
    let (tally, peak_kib, elapsed, faults) =
        result.with_context(|| format!("the daemon log ends with:\n{log}"))?;
    let stop = stop?;
    print(&o, &tally, peak_kib, elapsed, &held, &stop.to_string(), faults.as_ref())
}

type Measured = (Tally, u64, Duration, Option<FaultReport>);

async fn measure(d: &Daemon, o: &Options) -> anyhow::Result<Measured> {
    let site = serve().await?;
    let mut setup = Client::connect(&d.url, &d.token).await?;
    setup.hello().await?;
    let got = call(&mut setup, "context.get_app", r#"{"app":"mousepad","launch":true}"#).await?;
    let app = got["result"]["app_id"].as_str().context("no app_id")?.to_owned();
    call(&mut setup, "browser.navigate", &json!({"url": site, "capture": false}).to_string())
        .await?;
    if o.faults {
        let preset = json!({"text": faults::USER_CLIPBOARD}).to_string();
        call(&mut setup, "computer.clipboard_set", &preset).await?;
    }
    let app = Arc::new(std::sync::Mutex::new(app));

    let peak = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let (p, dn, pid) = (peak.clone(), done.clone(), d.pid);
    let sampler = tokio::spawn(async move {
        while !dn.load(Ordering::SeqCst) {
            if let Some(kib) = rss_kib(pid) {
                p.fetch_max(kib, Ordering::SeqCst);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let started = Instant::now();
    let until = started + Duration::from_secs(o.seconds);
    let injector = o.faults.then(|| {
        let (url, token, app) = (d.url.clone(), d.token.clone(), app.clone());
        tokio::spawn(async move { faults::inject(&url, &token, app, until - CALM).await })
    });
    let mut tasks = tokio::task::JoinSet::new();
    for s in 0..o.sessions {
        let (url, token, app) = (d.url.clone(), d.token.clone(), app.clone());
        let faulty = o.faults;
        tasks.spawn(async move { session(&url, &token, app, s as u64, until, faulty).await });
    }
    let mut tally = Tally::default();
    while let Some(r) = tasks.join_next().await {
        tally.absorb(r??);
    }
    let elapsed = started.elapsed();
    done.store(true, Ordering::SeqCst);
    let _ = sampler.await;
    let hwm = hwm_kib(d.pid).unwrap_or(0);
    let report = match injector {
        Some(task) => {
            let injected = task.await??;
            let clip = call(&mut setup, "computer.clipboard_get", "{}").await?;
            let clipboard_kept = clip["result"]["text"] == faults::USER_CLIPBOARD;
            Some(FaultReport { injected, clipboard_kept })
        }
        None => None,
    };
    Ok((tally, peak.load(Ordering::SeqCst).max(hwm), elapsed, report))
}

/// One session: calls from the mix, picked by a per-session generator, until `until`. Under
/// faults it also drops its connection mid-call now and then (and resumes by name), and
/// ends with probes that must all answer.
async fn session(
    url: &str,
    token: &str,
    app: Arc<std::sync::Mutex<String>>,
    seed: u64,
    until: Instant,
    faulty: bool,
) -> anyhow::Result<Tally> {
    let name = format!("load-{seed}");
    let mut c = Client::connect(url, token).await?;
    c.hello_as(Some(&name)).await?;
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut t = Tally::default();
    let extra = if faulty { FAULT_MIX.len() } else { 0 };
    while Instant::now() < until {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let k = (rng % (MIX.len() + extra) as u64) as usize;
        let (label, _, method, params) =
            MIX.get(k).copied().unwrap_or_else(|| FAULT_MIX[k - MIX.len()]);
        let params = params.replace("{app}", &faults::lock(&app));
        if faulty && (rng >> 20).is_multiple_of(40) && Instant::now() + CALM < until {
            c.send_and_drop(method, &params).await?;
            c = Client::connect(url, token).await?;
            c.hello_as(Some(&name)).await?;
            t.dropped += 1;
            continue;
        }
        let Ok(answer) = tokio::time::timeout(NO_ANSWER, c.call(method, &params)).await else {
            t.unanswered += 1;
            break;
        };
        let (text, took) = answer?;
        t.calls += 1;
        let v: Value = serde_json::from_str(&text)?;
        match v["error"]["data"]["code"].as_str() {
            None if v.get("error").is_some() => t.unclear += 1,
            None => t.samples.entry(label).or_default().push(took),
            Some("BUSY") => t.busy += 1,
            Some(code) => {
                if v["error"]["message"].as_str().is_none_or(str::is_empty) {
                    t.unclear += 1;
                }
                *t.errors.entry(format!("{label}: {code}")).or_default() += 1;
                if !faulty && t.errors.len() == 1 && t.errors.values().sum::<u64>() == 1 {
                    eprintln!("bench: first error: {}", text.chars().take(400).collect::<String>());
                }
            }
        }
    }
    if faulty {
        let app = faults::lock(&app).clone();
        let probes = [
            ("session.status", "{}".to_owned()),
            ("browser.get_url", "{}".to_owned()),
            ("computer.snapshot", json!({"app_id": app, "limit": 20}).to_string()),
        ];
        let mut all = true;
        for (method, params) in probes {
            let answered = tokio::time::timeout(NO_ANSWER, c.call(method, &params)).await;
            let ok = matches!(&answered, Ok(Ok((text, _))) if text.contains("\"result\""));
            if !ok {
                eprintln!("bench: session {name} did not recover: {method} -> {answered:?}");
            }
            all &= ok;
        }
        t.recovered += u64::from(all);
    }
    Ok(t)
}

async fn call(c: &mut Client, method: &str, params: &str) -> anyhow::Result<Value> {
    let (text, _) = c.call(method, params).await?;
    let v: Value = serde_json::from_str(&text)?;
    match v.get("result") {
        Some(r) => Ok(r.clone()),
        None => bail!("{method} failed: {}", text.chars().take(600).collect::<String>()),
    }
}

fn proc_kib(pid: u32, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].trim().trim_end_matches("kB").trim().parse().ok()
}

fn rss_kib(pid: u32) -> Option<u64> {
    proc_kib(pid, "VmRSS:")
}

fn hwm_kib(pid: u32) -> Option<u64> {
    proc_kib(pid, "VmHWM:")
}

/// Keys and buttons still down in the X server: (keycodes down, button mask).
fn held_input(display: &str) -> anyhow::Result<(usize, u16)> {
    let (conn, screen) = x11rb::connect(Some(display))?;
    let root = conn.setup().roots[screen].root;
    let keys = conn.query_keymap()?.reply()?.keys.iter().map(|b| b.count_ones() as usize).sum();
    let mask = u16::from(conn.query_pointer(root)?.reply()?.mask) & 0x1f00;
    Ok((keys, mask))
}

/// A loopback page long enough to scroll.
async fn serve() -> anyhow::Result<String> {
    super::site::serve(|_| {
        let rows: String = (0..200)
            .map(|i| {
                format!("<p>row {i} <button>act {i}</button> <a href=\"#{i}\">link {i}</a></p>")
            })
            .collect();
        let body = format!("<!doctype html><title>load</title><h1>Load</h1>{rows}");
        super::site::Page { delay: Duration::ZERO, mime: "text/html", body }
    })
    .await
}

fn print(
    o: &Options,
    t: &Tally,
    peak_kib: u64,
    elapsed: Duration,
    held: &anyhow::Result<(usize, u16)>,
    exit: &str,
    faults: Option<&FaultReport>,
) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let secs = elapsed.as_secs_f64();
    writeln!(
        out,
        "\nbench load: {} sessions for {:.0} s on the real desktop and browser: {} calls ({:.0}/s), {} BUSY",
        o.sessions, secs, t.calls, t.calls as f64 / secs, t.busy
    )?;
    writeln!(out, "  {:<32}{:>8}{:>10}{:>10}{:>10}{:>10}", "ms", "n", "p50", "p90", "p99", "max")?;
    let mut row = |label: &str, s: Summary| {
        let ms = |us: f64| us / 1000.0;
        writeln!(
            out,
            "  {:<32}{:>8}{:>10.1}{:>10.1}{:>10.1}{:>10.1}",
            label,
            s.n,
            ms(s.p50),
            ms(s.p90),
            ms(s.p99),
            ms(s.max)
        )
    };
    let mut all = Vec::new();
    for (label, samples) in &t.samples {
        all.extend(samples.iter().copied());
        row(label, Summary::of(&mut samples.clone()))?;
    }
    row("all", Summary::of(&mut all))?;
    let errors: u64 = t.errors.values().sum();
    writeln!(out, "errors other than BUSY: {errors}")?;
    for (k, v) in &t.errors {
        writeln!(out, "  {k}: {v}")?;
    }
    writeln!(
        out,
        "daemon peak RSS: {:.1} MiB; exit after SIGTERM: {exit}",
        peak_kib as f64 / 1024.0
    )?;
    let held_ok = match held {
        Ok((keys, mask)) => {
            writeln!(out, "held afterwards: {keys} keys, button mask {mask:#x}")?;
            *keys == 0 && *mask == 0
        }
        Err(e) => {
            writeln!(out, "held afterwards: cannot ask the X server ({e})")?;
            false
        }
    };
    if let Some(f) = faults {
        writeln!(
            out,
            "faults: browser killed {} times, app killed {} times, {} connections dropped mid-call",
            f.injected.browser_kills, f.injected.app_kills, t.dropped
        )?;
        writeln!(
            out,
            "errors without a code or message: {}; calls never answered: {}; sessions answering again after the faults: {} of {}; user's clipboard kept: {}",
            t.unclear, t.unanswered, t.recovered, o.sessions, f.clipboard_kept
        )?;
        let ok = t.unclear == 0
            && t.unanswered == 0
            && t.recovered == o.sessions as u64
            && f.clipboard_kept
            && held_ok;
        writeln!(
            out,
            "check: every error clear, every session recovered, clipboard kept, nothing held -> {}",
            if ok { "met" } else { "missed" }
        )?;
        return Ok(());
    }
    let ok = errors == 0 && held_ok;
    writeln!(
        out,
        "check: no error but BUSY and nothing held -> {}",
        if ok { "met" } else { "missed" }
    )?;
    Ok(())
}
