//! What `bench rpc` found, as a table against the goals on stdout and as JSON on disk for
//! comparing runs.

use std::io::Write as _;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use serde_json::{json, Value};

use super::daemon::Memory;
use super::rpc::Results;
use super::stats::{median, round1, Summary};

/// A goal from the issue: the value must not exceed `goal`.
struct Goal {
    metric: &'static str,
    value: f64,
    goal: f64,
    unit: &'static str,
}

impl Goal {
    fn ratio(&self) -> f64 {
        self.value / self.goal
    }

    fn pass(&self) -> bool {
        self.value <= self.goal
    }
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn goals(r: &Results) -> Vec<Goal> {
    let p50 = |method: &str| {
        r.latency.iter().find(|l| l.method == method).map_or(f64::NAN, |l| l.median.p50)
    };
    vec![
        Goal {
            metric: "session.status p50",
            value: p50("session.status"),
            goal: 150.0,
            unit: "µs",
        },
        Goal { metric: "rejected call p50", value: p50("browser.click"), goal: 150.0, unit: "µs" },
        Goal { metric: "idle RSS", value: mib(r.idle.rss_kib), goal: 25.0, unit: "MiB" },
        // MCP over Streamable HTTP: within 1.5x of the same tool call over the WebSocket.
        Goal {
            metric: "/mcp tools/call p50",
            value: p50("mcp tools/call"),
            goal: 1.5 * p50("tools.call"),
            unit: "µs",
        },
    ]
}

/// The load rounds' medians: calls/s, latency, CPU µs per call (daemon, client).
fn load_median(r: &Results) -> (f64, Summary, f64, f64) {
    let m =
        |f: fn(&super::rpc::LoadRound) -> f64| median(&r.load.iter().map(f).collect::<Vec<_>>());
    let lat: Vec<Summary> = r.load.iter().map(|l| l.latency).collect();
    (m(|l| l.calls_per_s), Summary::median_of(&lat), m(|l| l.daemon_cpu_us), m(|l| l.client_cpu_us))
}

pub fn print(r: &Results) -> anyhow::Result<()> {
    let o = &r.options;
    let mut out = std::io::stdout().lock();
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    writeln!(
        out,
        "\nbench rpc: gloveboxd (release) at {}, DISPLAY={}, {cpus} CPUs, load average {} at start, {} at end, {} client",
        r.url,
        r.display,
        r.loadavg.0,
        r.loadavg.1,
        client_build()
    )?;
    writeln!(out, "latency, sequential on one connection: {} calls x {} rounds (after 500 warm-up); median of the rounds", o.iterations, o.rounds)?;
    writeln!(
        out,
        "  {:<26}{:>9}{:>9}{:>9}{:>9}   cpu µs/call daemon client",
        "µs", "p50", "p90", "p99", "max"
    )?;
    for l in &r.latency {
        let s = l.median;
        writeln!(
            out,
            "  {:<26}{:>9.1}{:>9.1}{:>9.1}{:>9.1}   {:>11.1}{:>7.1}",
            l.label, s.p50, s.p90, s.p99, s.max, l.daemon_cpu_us, l.client_cpu_us
        )?;
    }
    let (rate, lat, dcpu, ccpu) = load_median(r);
    writeln!(
        out,
        "load: {} connections x session.status for {} s x {} rounds; median of the rounds",
        o.connections, o.seconds, o.rounds
    )?;
    writeln!(out, "  {rate:.0} calls/s, p50 {:.1} µs, p99 {:.1} µs; cpu µs/call daemon {dcpu:.1}, client {ccpu:.1}", lat.p50, lat.p99)?;
    writeln!(
        out,
        "memory (gloveboxd only, not its desktop): idle RSS {:.1} MiB, after load RSS {:.1} MiB, peak HWM {:.1} MiB",
        mib(r.idle.rss_kib),
        mib(r.after_load.rss_kib),
        mib(r.after_load.hwm_kib)
    )?;
    writeln!(out, "\n  {:<22}{:>12}{:>12}{:>8}  verdict", "goal", "value", "goal", "ratio")?;
    for g in goals(r) {
        let verdict = if g.pass() { "PASS" } else { "MISS" };
        writeln!(
            out,
            "  {:<22}{:>8.1} {:<3}{:>8.1} {:<3}{:>8.2}  {verdict}",
            g.metric,
            g.value,
            g.unit,
            g.goal,
            g.unit,
            g.ratio()
        )?;
    }
    Ok(())
}

fn memory_json(m: Memory) -> Value {
    json!({"rss_mib": round1(mib(m.rss_kib)), "hwm_mib": round1(mib(m.hwm_kib))})
}

/// How this client was compiled: a debug client costs about twice the CPU per call, which
/// shows in the cheap calls' latency.
pub fn client_build() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

/// The 1-minute load average: other work on the machine shows up in the numbers.
pub fn loadavg() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().next().unwrap_or("?").to_owned()
}

/// The 1-, 5- and 15-minute load averages.
pub fn loadavg_all() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

pub fn git_describe() -> String {
    std::process::Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .current_dir(super::root())
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_default()
}

pub fn write_json(r: &Results, path: &Path) -> anyhow::Result<()> {
    let o = &r.options;
    let (rate, lat, dcpu, ccpu) = load_median(r);
    let latency: Vec<Value> = r
        .latency
        .iter()
        .map(|l| {
            json!({"label": l.label, "method": l.method, "median": l.median.to_json(),
                   "rounds": l.rounds.iter().map(|s| s.to_json()).collect::<Vec<_>>(),
                   "daemon_cpu_us_per_call": round1(l.daemon_cpu_us),
                   "client_cpu_us_per_call": round1(l.client_cpu_us)})
        })
        .collect();
    let load_rounds: Vec<Value> = r
        .load
        .iter()
        .map(|l| {
            json!({"calls": l.calls, "calls_per_s": l.calls_per_s.round(), "latency": l.latency.to_json(),
                   "daemon_cpu_us_per_call": round1(l.daemon_cpu_us),
                   "client_cpu_us_per_call": round1(l.client_cpu_us)})
        })
        .collect();
    let goals: Vec<Value> = goals(r)
        .iter()
        .map(|g| {
            json!({"metric": g.metric, "value": round1(g.value), "goal": g.goal, "unit": g.unit,
                        "ratio": (g.ratio() * 100.0).round() / 100.0, "pass": g.pass()})
        })
        .collect();
    let doc = json!({
        "bench": "rpc",
        "unix_time": SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs(),
        "git": git_describe(),
        "cpus": std::thread::available_parallelism().map_or(0, usize::from),
        "client_build": client_build(),
        "options": {"iterations": o.iterations, "warmup": 500, "rounds": o.rounds,
                    "connections": o.connections, "seconds": o.seconds},
        "display": r.display,
        "loadavg": {"start": r.loadavg.0, "end": r.loadavg.1},
        "latency": latency,
        "load": {"method": "session.status", "calls_per_s": rate.round(), "latency": lat.to_json(),
                 "daemon_cpu_us_per_call": round1(dcpu), "client_cpu_us_per_call": round1(ccpu),
                 "rounds": load_rounds},
        "memory": {"idle": memory_json(r.idle), "after_load": memory_json(r.after_load)},
        "goals": goals,
        "daemon_exit": r.exit,
    });
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(path, serde_json::to_string_pretty(&doc)? + "\n")
        .with_context(|| format!("writing {}", path.display()))
}
