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
//!
//! With `--hostile` (`load/hostile.rs`) the same run (with or without faults) happens twice,
//! each on a fresh daemon: first as it is, then with a hostile client beside the sessions
//! on a token of its own (huge batches and messages, a 200 MB evaluate, full-page
//! screenshots of a page 100,000 px wide, approval and connection floods). The table puts
//! the two side by side (`load/print.rs`): the other sessions' p99 may grow at most 2x, the
//! daemon's peak RSS must stay under 1 GiB and Chromium must live (the same process, in a
//! run without faults); it also counts what the hostile client was refused with.
//!
//! The sessions share a few tokens (32 sessions a token; the daemon allows 64 connections a
//! token), written to the daemon's token file with the hostile one, and an `ask` policy rule
//! that only the hostile client's calls meet.

mod faults;
mod hostile;
mod print;
mod session;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde_json::{json, Value};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::ConnectionExt as _;

use super::client::Client;
use super::daemon::{self, Daemon};
use session::{session, Tally, CALM};

struct Options {
    sessions: usize,
    seconds: u64,
    faults: bool,
    hostile: bool,
    /// The hostile tab's page is noise: no capture of it compresses.
    noise: bool,
}

/// Sessions that share one token.
const SESSIONS_PER_TOKEN: usize = 32;

/// What `--faults` adds to the report.
struct FaultReport {
    injected: faults::Injected,
    clipboard_kept: bool,
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let mut o = Options { sessions: 100, seconds: 60, faults: false, hostile: false, noise: false };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--sessions" => o.sessions = value()?.parse()?,
            "--seconds" => o.seconds = value()?.parse()?,
            "--faults" => o.faults = true,
            "--hostile" => o.hostile = true,
            "--noise" => (o.hostile, o.noise) = (true, true),
            _ => bail!("unknown argument {a:?}; usage: cargo xtask bench load [--sessions N] [--seconds S] [--faults] [--hostile [--noise]]"),
        }
    }
    let bin = daemon::build()?;
    let quiet = phase(&bin, &o, false)?;
    print::phase(&o, &quiet)?;
    if o.hostile {
        let loud = phase(&bin, &o, true)?;
        print::phase(&o, &loud)?;
        print::compare(&o, &quiet, &loud)?;
    }
    Ok(())
}

/// Whether the browser lived through a run: a call answered at the end, and its process.
struct Chromium {
    answered: bool,
    pid_before: Option<u64>,
    pid_after: Option<u64>,
    running: bool,
}

/// One run on its own daemon, and what it found.
struct Phase {
    tally: Tally,
    peak_kib: u64,
    elapsed: Duration,
    held: anyhow::Result<(usize, u16)>,
    exit: String,
    faults: Option<FaultReport>,
    hostile: Option<hostile::Report>,
    chromium: Chromium,
    /// /proc/loadavg's first three fields at the start and the end.
    loadavg: (String, String),
    /// CPU seconds spent during the run.
    cpu: Cpu,
}

/// CPU seconds spent during a run by the daemon, its Chromium (the processes alive at the
/// end) and this bench process (the sessions and the hostile client).
#[derive(Debug, Clone, Copy, Default)]
struct Cpu {
    daemon: f64,
    chromium: f64,
    bench: f64,
}

impl Cpu {
    fn now(d: &Daemon) -> Cpu {
        let secs = |ticks: u64| ticks as f64 / daemon::ticks_per_second();
        let profile = d.state.display().to_string();
        let mut chromium = 0;
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let dir = entry.path();
            let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline);
            if cmdline.contains("chromium") && cmdline.contains(&profile) {
                let stat = dir.join("stat").display().to_string();
                chromium += daemon::cpu_ticks(&stat).unwrap_or(0);
            }
        }
        Cpu {
            daemon: secs(d.cpu_ticks().unwrap_or(0)),
            chromium: secs(chromium),
            bench: secs(daemon::cpu_ticks("/proc/self/stat").unwrap_or(0)),
        }
    }

    fn since(self, start: Cpu) -> Cpu {
        Cpu {
            daemon: self.daemon - start.daemon,
            chromium: (self.chromium - start.chromium).max(0.0),
            bench: self.bench - start.bench,
        }
    }
}

/// The tokens of one run: the sessions' (a few) and the hostile client's.
struct Tokens {
    sessions: Vec<String>,
    hostile: String,
}

fn phase(bin: &std::path::Path, o: &Options, with_hostile: bool) -> anyhow::Result<Phase> {
    let groups = o.sessions.div_ceil(SESSIONS_PER_TOKEN).max(1);
    let tokens = Tokens {
        sessions: (0..groups).map(|_| fresh_token()).collect::<anyhow::Result<_>>()?,
        hostile: fresh_token()?,
    };
    let mut d = Daemon::start_prepared(
        bin,
        "auto",
        |state| {
            let mut file: String = tokens.sessions.iter().map(|t| format!("{t}\n")).collect();
            file.push_str(&format!("{}\n", tokens.hostile));
            std::fs::write(state.join("token"), file)?;
            let policy = state.join("bench-policy.json");
            std::fs::write(&policy, hostile::policy())?;
            Ok(vec!["--policy".into(), policy.display().to_string()])
        },
        &[],
    )?;
    let what = if with_hostile { "with the hostile client" } else { "as it is" };
    eprintln!("bench: gloveboxd pid {} at {} (DISPLAY={}), run {what}", d.pid, d.url, d.display);
    let before = loadavg();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let result = rt.block_on(measure(&d, o, &tokens, with_hostile));
    drop(rt);
    let after = loadavg();
    let log = if result.is_err() { d.log_tail(20) } else { String::new() };
    let held = held_input(&d.display);
    let stop = d.stop();
    let m = result.with_context(|| format!("the daemon log ends with:\n{log}"))?;
    Ok(Phase {
        tally: m.tally,
        peak_kib: m.peak_kib,
        elapsed: m.elapsed,
        held,
        exit: stop?.to_string(),
        faults: m.faults,
        hostile: m.hostile,
        chromium: m.chromium,
        loadavg: (before, after),
        cpu: m.cpu,
    })
}

/// 32 random bytes as hex, like the daemon's own tokens.
fn fresh_token() -> anyhow::Result<String> {
    use std::io::Read as _;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn loadavg() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

struct Measured {
    tally: Tally,
    peak_kib: u64,
    elapsed: Duration,
    faults: Option<FaultReport>,
    hostile: Option<hostile::Report>,
    chromium: Chromium,
    cpu: Cpu,
}

async fn measure(
    d: &Daemon,
    o: &Options,
    tokens: &Tokens,
    with_hostile: bool,
) -> anyhow::Result<Measured> {
    let (site, hostile_page) = serve(o.noise).await?;
    let token0 = tokens.sessions[0].clone();
    let mut setup = Client::connect(&d.url, &token0).await?;
    setup.hello().await?;
    let got = call(&mut setup, "context.get_app", r#"{"app":"mousepad","launch":true}"#).await?;
    let app = got["result"]["app_id"].as_str().context("no app_id")?.to_owned();
    call(&mut setup, "browser.navigate", &json!({"url": site, "capture": false}).to_string())
        .await?;
    if o.faults {
        let preset = json!({"text": faults::USER_CLIPBOARD}).to_string();
        call(&mut setup, "computer.clipboard_set", &preset).await?;
    }
    let pid_before = browser_pid(&mut setup).await;
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
    let cpu_start = Cpu::now(d);
    let started = Instant::now();
    let until = started + Duration::from_secs(o.seconds);
    let injector = o.faults.then(|| {
        let (url, token, app) = (d.url.clone(), token0.clone(), app.clone());
        tokio::spawn(async move { faults::inject(&url, &token, app, until - CALM).await })
    });
    let hostile = with_hostile.then(|| {
        let (url, token) = (d.url.clone(), tokens.hostile.clone());
        tokio::spawn(async move { hostile::run(&url, &token, &hostile_page, until).await })
    });
    let mut tasks = tokio::task::JoinSet::new();
    for s in 0..o.sessions {
        let token = tokens.sessions[s % tokens.sessions.len()].clone();
        let (url, app) = (d.url.clone(), app.clone());
        let faulty = o.faults;
        tasks.spawn(async move { session(&url, &token, app, s as u64, until, faulty).await });
    }
    let mut tally = Tally::default();
    while let Some(r) = tasks.join_next().await {
        tally.absorb(r??);
    }
    let elapsed = started.elapsed();
    let cpu = Cpu::now(d).since(cpu_start);
    let hostile = match hostile {
        Some(task) => Some(task.await?),
        None => None,
    };
    let faults = match injector {
        Some(task) => {
            let injected = task.await??;
            let clip = call(&mut setup, "computer.clipboard_get", "{}").await?;
            let clipboard_kept = clip["result"]["text"] == faults::USER_CLIPBOARD;
            Some(FaultReport { injected, clipboard_kept })
        }
        None => None,
    };
    let answered = call(&mut setup, "browser.get_url", "{}").await.is_ok();
    let pid_after = browser_pid(&mut setup).await;
    let running = pid_after.is_some_and(|p| std::path::Path::new(&format!("/proc/{p}")).exists());
    done.store(true, Ordering::SeqCst);
    let _ = sampler.await;
    let hwm = hwm_kib(d.pid).unwrap_or(0);
    Ok(Measured {
        tally,
        peak_kib: peak.load(Ordering::SeqCst).max(hwm),
        elapsed,
        faults,
        hostile,
        chromium: Chromium { answered, pid_before, pid_after, running },
        cpu,
    })
}

/// The default Chromium's process id, as the daemon lists it.
async fn browser_pid(c: &mut Client) -> Option<u64> {
    let list = call(c, "context.list_browsers", "{}").await.ok()?;
    list["result"]["browsers"]
        .as_array()?
        .iter()
        .find(|b| b["default"] == true)
        .and_then(|b| b["pid"].as_u64())
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

/// A loopback page long enough to scroll, for the sessions, and the hostile client's page
/// on another site of the same server (`localhost`, so Chromium gives it its own renderer).
async fn serve(noise: bool) -> anyhow::Result<(String, String)> {
    let hostile_page = hostile::page(noise);
    let base = super::site::serve(move |path| {
        if path == "/hostile" {
            let body = hostile_page.clone();
            return super::site::Page { delay: Duration::ZERO, mime: "text/html", body };
        }
        let rows: String = (0..200)
            .map(|i| {
                format!("<p>row {i} <button>act {i}</button> <a href=\"#{i}\">link {i}</a></p>")
            })
            .collect();
        let body = format!("<!doctype html><title>load</title><h1>Load</h1>{rows}");
        super::site::Page { delay: Duration::ZERO, mime: "text/html", body }
    })
    .await?;
    let other = format!("{}/hostile", base.replace("127.0.0.1", "localhost"));
    Ok((base, other))
}
