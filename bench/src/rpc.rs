//! `cargo xtask bench rpc`: round-trip latency of a cheap call and of a rejected call,
//! throughput with many connections, and the daemon's memory, all against the release
//! `gloveboxd` over loopback.

use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde_json::Value;
use tokio::task::JoinSet;
use tokio::time::Instant as TokioInstant;

use super::client::Client;
use super::daemon::{self, Daemon, Memory};
use super::report;
use super::stats::{median, Summary};

const WARMUP: usize = 500;
/// Load-phase calls that finish in the first moments are not counted (connections warm up).
const LOAD_WARMUP: Duration = Duration::from_millis(500);

pub struct Options {
    pub iterations: usize,
    pub seconds: f64,
    pub rounds: usize,
    pub connections: usize,
}

impl Options {
    fn parse(args: &[String]) -> anyhow::Result<Options> {
        let mut o = Options { iterations: 5_000, seconds: 5.0, rounds: 3, connections: 64 };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((f, v)) => (f, Some(v.to_owned())),
                None => (arg.as_str(), None),
            };
            let mut value = || {
                inline
                    .clone()
                    .or_else(|| it.next().cloned())
                    .with_context(|| format!("{flag} needs a value"))
            };
            match flag {
                "--iterations" => o.iterations = value()?.parse()?,
                "--seconds" => o.seconds = value()?.parse()?,
                "--rounds" => o.rounds = value()?.parse()?,
                "--connections" => o.connections = value()?.parse()?,
                _ => bail!("unknown argument {arg:?}; usage: cargo xtask bench rpc [--iterations N] [--seconds S] [--rounds R] [--connections C]"),
            }
        }
        if o.iterations == 0 || o.rounds == 0 || o.connections == 0 || o.seconds <= 0.0 {
            bail!("--iterations, --seconds, --rounds and --connections must be positive");
        }
        Ok(o)
    }
}

/// One sequential-latency measurement: `rounds` of `iterations` calls on a fresh connection.
pub struct Latency {
    pub label: &'static str,
    pub method: &'static str,
    pub rounds: Vec<Summary>,
    pub median: Summary,
    /// CPU time per call (median across rounds), daemon and this client, in µs.
    pub daemon_cpu_us: f64,
    pub client_cpu_us: f64,
}

pub struct LoadRound {
    pub calls: u64,
    pub calls_per_s: f64,
    pub latency: Summary,
    pub daemon_cpu_us: f64,
    pub client_cpu_us: f64,
}

pub struct Results {
    pub options: Options,
    pub url: String,
    pub display: String,
    pub latency: Vec<Latency>,
    pub load: Vec<LoadRound>,
    pub idle: Memory,
    pub after_load: Memory,
    pub exit: String,
    /// The 1-minute load average before and after.
    pub loadavg: (String, String),
}

/// Which answer counts as right for a measured call.
type Check = fn(&Value) -> bool;

/// The call measured over both `/rpc` (`tools.call`) and `/mcp` (`tools/call`): an op that
/// does nothing, so the two transports are what differs.
const TOOL_CALL: &str = r#"{"name":"computer","arguments":{"action":"wait","duration_ms":0}}"#;

const CASES: [(&str, &str, &str, Check); 4] = [
    ("session.status", "session.status", "{}", |v| v["result"]["session_id"].is_string()),
    ("rejected browser.click", "browser.click", r##"{"ref":"e1","selector":"#a"}"##, |v| {
        v["error"]["data"]["code"] == "CONTRACT_VIOLATION"
    }),
    // A handler that does nothing: what the transport alone costs.
    ("approval.list (floor)", "approval.list", "{}", |v| v["result"]["approvals"].is_array()),
    ("tools.call wait 0 /rpc", "tools.call", TOOL_CALL, |v| v["result"]["isError"] == false),
];

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let options = Options::parse(args)?;
    if report::client_build() == "debug" {
        eprintln!("bench: note: this client is a debug build; `cargo run --release -p xtask -- bench rpc` measures with an optimized one");
    }
    let bin = daemon::build()?;
    let load_before = report::loadavg();
    // Tool calls are ops, which a session may start 50 a second by default (the latency
    // rounds send them back to back), and the load phase opens more connections than one
    // token may hold by default.
    let flags = ["--max-ops-per-sec", "1000000", "--max-connections-per-token", "100000"];
    let flags: Vec<String> = flags.map(String::from).to_vec();
    let mut d = Daemon::start_with(&bin, "auto", &flags)?;
    eprintln!("bench: gloveboxd pid {} at {} (DISPLAY={})", d.pid, d.url, d.display);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let measured = rt.block_on(measure(&d, &options));
    // Read before the stop: stopping removes the state dir with the log.
    let log = if measured.is_err() { d.log_tail(20) } else { String::new() };
    let exit = d.stop();
    let (latency, load, idle, after_load) =
        measured.with_context(|| format!("the daemon log ends with:\n{log}"))?;
    let exit = exit?;
    if !exit.success() {
        bail!("gloveboxd exited with {exit} after SIGTERM");
    }
    let results = Results {
        options,
        url: d.url.clone(),
        display: d.display.clone(),
        latency,
        load,
        idle,
        after_load,
        exit: exit.to_string(),
        loadavg: (load_before, report::loadavg()),
    };
    report::print(&results)?;
    let path = super::target_dir()?.join("bench").join("rpc.json");
    report::write_json(&results, &path)?;
    eprintln!("bench: wrote {}", path.display());
    Ok(())
}

async fn measure(
    d: &Daemon,
    o: &Options,
) -> anyhow::Result<(Vec<Latency>, Vec<LoadRound>, Memory, Memory)> {
    let mut first = Client::connect(&d.url, &d.token).await?;
    first.hello().await?;
    let idle = d.memory()?;
    let mut latency = Vec::new();
    for (label, method, params, check) in CASES {
        let mut rounds = Vec::new();
        let (mut dcpu, mut ccpu) = (Vec::new(), Vec::new());
        for round in 1..=o.rounds {
            let (summary, d_us, c_us) =
                latency_round(d, o.iterations, method, params, check).await?;
            eprintln!(
                "bench: {label} round {round}: p50 {:.1} µs p99 {:.1} µs",
                summary.p50, summary.p99
            );
            rounds.push(summary);
            dcpu.push(d_us);
            ccpu.push(c_us);
        }
        latency.push(Latency {
            label,
            method,
            median: Summary::median_of(&rounds),
            rounds,
            daemon_cpu_us: median(&dcpu),
            client_cpu_us: median(&ccpu),
        });
    }
    latency.push(mcp_latency(d, o).await?);
    let load = load_rounds(d, o).await?;
    let after_load = d.memory()?;
    drop(first);
    Ok((latency, load, idle, after_load))
}

/// Time spent on the CPU by the daemon and by this process, in clock ticks.
struct Cpu {
    daemon: u64,
    client: u64,
}

impl Cpu {
    fn now(d: &Daemon) -> anyhow::Result<Cpu> {
        Ok(Cpu { daemon: d.cpu_ticks()?, client: daemon::cpu_ticks("/proc/self/stat")? })
    }

    /// Per-call CPU µs (daemon, client) since `self`.
    fn per_call(&self, d: &Daemon, calls: u64) -> anyhow::Result<(f64, f64)> {
        let end = Cpu::now(d)?;
        let us = 1e6 / daemon::ticks_per_second() / calls.max(1) as f64;
        Ok(((end.daemon - self.daemon) as f64 * us, (end.client - self.client) as f64 * us))
    }
}

async fn latency_round(
    d: &Daemon,
    n: usize,
    method: &str,
    params: &str,
    check: Check,
) -> anyhow::Result<(Summary, f64, f64)> {
    let mut c = Client::connect(&d.url, &d.token).await?;
    c.hello().await?;
    for _ in 0..WARMUP {
        c.call(method, params).await?;
    }
    let mut samples = Vec::with_capacity(n);
    let mut answers = Vec::with_capacity(n);
    let cpu = Cpu::now(d)?;
    for _ in 0..n {
        let (text, took) = c.call(method, params).await?;
        samples.push(took);
        answers.push(text);
    }
    let (d_us, c_us) = cpu.per_call(d, n as u64)?;
    // Checked after the clock and the CPU counters stop: parsing is not part of a sample.
    for text in &answers {
        let v: Value = serde_json::from_str(text)?;
        if !check(&v) {
            bail!("{method} answered unexpectedly: {text}");
        }
    }
    Ok((Summary::of(&mut samples), d_us, c_us))
}

/// The same tool call as `TOOL_CALL`, over MCP's Streamable HTTP at `/mcp`, `rounds` of
/// `iterations` on a fresh kept-alive connection each.
async fn mcp_latency(d: &Daemon, o: &Options) -> anyhow::Result<Latency> {
    let addr = d.url.trim_start_matches("ws://").trim_end_matches("/rpc").to_owned();
    let call: Value = serde_json::from_str(TOOL_CALL)?;
    let (name, args) = (call["name"].as_str().unwrap_or_default(), &call["arguments"]);
    let (mut rounds, mut dcpu, mut ccpu) = (Vec::new(), Vec::new(), Vec::new());
    for round in 1..=o.rounds {
        let mut c = super::mcp_http::McpHttp::connect(&addr, &d.token).await?;
        for _ in 0..WARMUP {
            c.call_tool(name, args).await?;
        }
        let mut samples = Vec::with_capacity(o.iterations);
        let mut answers = Vec::with_capacity(o.iterations);
        let cpu = Cpu::now(d)?;
        for _ in 0..o.iterations {
            let (v, took) = c.call_tool(name, args).await?;
            samples.push(took);
            answers.push(v);
        }
        let (d_us, c_us) = cpu.per_call(d, o.iterations as u64)?;
        if let Some(bad) = answers.iter().find(|v| v["result"]["isError"] != false) {
            bail!("tools/call over /mcp answered unexpectedly: {bad}");
        }
        let summary = Summary::of(&mut samples);
        eprintln!(
            "bench: tools/call over /mcp round {round}: p50 {:.1} µs p99 {:.1} µs",
            summary.p50, summary.p99
        );
        rounds.push(summary);
        dcpu.push(d_us);
        ccpu.push(c_us);
    }
    Ok(Latency {
        label: "tools/call wait 0 /mcp",
        method: "mcp tools/call",
        median: Summary::median_of(&rounds),
        rounds,
        daemon_cpu_us: median(&dcpu),
        client_cpu_us: median(&ccpu),
    })
}

/// `connections` clients, each with its own session, calling `session.status` back to back.
async fn load_rounds(d: &Daemon, o: &Options) -> anyhow::Result<Vec<LoadRound>> {
    let mut clients = Vec::with_capacity(o.connections);
    for _ in 0..o.connections {
        let mut c = Client::connect(&d.url, &d.token).await?;
        c.hello().await?;
        clients.push(c);
    }
    let mut rounds = Vec::new();
    for round in 1..=o.rounds {
        let start = TokioInstant::now() + Duration::from_millis(50);
        let from = start + LOAD_WARMUP;
        let until = from + Duration::from_secs_f64(o.seconds);
        let mut tasks = JoinSet::new();
        for c in clients.drain(..) {
            tasks.spawn(load_worker(c, start.into_std(), from.into_std(), until.into_std()));
        }
        tokio::time::sleep_until(from).await;
        let cpu = Cpu::now(d)?;
        tokio::time::sleep_until(until).await;
        let cpu_end = Cpu::now(d);
        let mut samples = Vec::new();
        while let Some(joined) = tasks.join_next().await {
            let (c, mut s) = joined??;
            samples.append(&mut s);
            clients.push(c);
        }
        let calls = samples.len() as u64;
        let us = 1e6 / daemon::ticks_per_second() / calls.max(1) as f64;
        let cpu_end = cpu_end?;
        let r = LoadRound {
            calls,
            calls_per_s: calls as f64 / o.seconds,
            latency: Summary::of(&mut samples),
            daemon_cpu_us: (cpu_end.daemon - cpu.daemon) as f64 * us,
            client_cpu_us: (cpu_end.client - cpu.client) as f64 * us,
        };
        eprintln!(
            "bench: load round {round}: {:.0} calls/s, p50 {:.1} µs p99 {:.1} µs",
            r.calls_per_s, r.latency.p50, r.latency.p99
        );
        rounds.push(r);
    }
    Ok(rounds)
}

/// Calls until `until`; the latencies of the calls that finished inside [`from`, `until`).
async fn load_worker(
    mut c: Client,
    start: Instant,
    from: Instant,
    until: Instant,
) -> anyhow::Result<(Client, Vec<Duration>)> {
    tokio::time::sleep_until(start.into()).await;
    let mut samples = Vec::new();
    loop {
        let (text, took) = c.call("session.status", "{}").await?;
        if !text.contains(r#""result""#) {
            bail!("session.status failed under load: {text}");
        }
        let now = Instant::now();
        if now >= until {
            return Ok((c, samples));
        }
        if now >= from {
            samples.push(took);
        }
    }
}
