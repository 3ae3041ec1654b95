//! Issue 31's budgets for parties on one workspace, on the daemon's own Chromium (where each
//! party browses in a context of its own):
//! - `cargo xtask bench footprint --tokens 1,2,4`: the daemon tree's PSS with 1, 2 and 4
//!   parties each holding a tab; what a context costs beyond the first (goal: ≤ 30 MiB).
//! - `cargo xtask bench browser --sessions 2`: one party clicking and snapshotting alone, then
//!   two parties doing the same at once; each one's rate against the lone one's (goal: each
//!   ≥ 0.8×). Medians over rounds, every figure from one run.

use std::io::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde_json::{json, Value};

use super::client::Client;
use super::daemon::{self, Daemon};
use super::footprint::Tree;
use super::stats::median;

const USAGE_TOKENS: &str = "usage: cargo xtask bench footprint --tokens 1,2,4 [--rounds R]";
const USAGE_SESSIONS: &str =
    "usage: cargo xtask bench browser --sessions 2 [--rounds R] [--clicks N]";

/// A page each party works on: a counter the click advances, so every click is checked.
const PAGE: &str = "data:text/html,<title>party</title><button id=b \
    onclick=\"n.textContent=%2Bn.textContent%2B1\">add</button><span id=n>0</span>\
    <ul><li>one<li>two<li>three</ul><input aria-label=field>";

fn tokens(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("bench-party-{i:02}-0123456789abcdef0123456789abcdef")).collect()
}

/// A release daemon on its own embedded desktop whose token file holds `n` actor tokens,
/// each a party of its own.
fn start(bin: &Path, n: usize) -> anyhow::Result<(Daemon, Vec<String>)> {
    let all = tokens(n);
    let lines: String = all.iter().map(|t| format!("{t} actor\n")).collect();
    let d = Daemon::start_prepared(
        bin,
        "embedded",
        |state| {
            std::fs::write(state.join("token"), &lines)?;
            Ok(Vec::new())
        },
        &[],
    )?;
    Ok((d, all))
}

async fn call(c: &mut Client, method: &str, params: Value) -> anyhow::Result<Value> {
    c.outcome(method, &params).await
}

/// A party with its own tab on the page.
async fn party(url: &str, token: &str) -> anyhow::Result<Client> {
    let mut c = Client::connect(url, token).await?;
    c.hello().await?;
    call(&mut c, "browser.navigate", json!({"url": PAGE, "capture": false})).await?;
    Ok(c)
}

fn parse_list(v: &str, usage: &str) -> anyhow::Result<Vec<usize>> {
    v.split(',')
        .map(|n| n.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .with_context(|| format!("a list of numbers like 1,2,4; {usage}"))
}

/// `bench footprint --tokens …`.
pub fn footprint(args: &[String]) -> anyhow::Result<()> {
    let (mut counts, mut rounds) = (vec![1, 2, 4], 3);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value =
            || it.next().with_context(|| format!("{arg} needs a value; {USAGE_TOKENS}"));
        match arg.as_str() {
            "--tokens" => counts = parse_list(value()?, USAGE_TOKENS)?,
            "--rounds" => rounds = value()?.parse()?,
            _ => bail!("unknown argument {arg:?}; {USAGE_TOKENS}"),
        }
    }
    if counts.first() != Some(&1) || counts.windows(2).any(|w| w[0] >= w[1]) || rounds == 0 {
        bail!("--tokens must start at 1 and ascend, --rounds be positive; {USAGE_TOKENS}");
    }
    let bin = daemon::build()?;
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let max = *counts.last().unwrap_or(&1);
    // pss[i][round]: KiB with counts[i] parties up.
    let mut pss: Vec<Vec<f64>> = vec![Vec::new(); counts.len()];
    // The last round's breakdown by kind of process, at the first and the last count.
    let mut kinds = Vec::new();
    for round in 0..rounds {
        let (mut d, all) = start(&bin, max)?;
        let url = d.url.clone();
        let mut up = Vec::new();
        for (i, &n) in counts.iter().enumerate() {
            while up.len() < n {
                up.push(rt.block_on(party(&url, &all[up.len()]))?);
            }
            // Let the new tabs finish painting and the allocators settle.
            std::thread::sleep(Duration::from_secs(3));
            let tree = Tree::read(d.pid);
            let kib = tree.pss_kib() as f64;
            if round + 1 == rounds && (i == 0 || i + 1 == counts.len()) {
                kinds.push(tree.by_kind());
            }
            eprintln!("bench: round {round}: {n} parties, {:.1} MiB PSS", kib / 1024.0);
            pss[i].push(kib);
        }
        drop(up);
        d.stop()?;
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "\nParties on one workspace: the daemon tree's PSS, median of {rounds} rounds")?;
    writeln!(out, "| parties, each with a tab | PSS (MiB) | per context beyond the first (MiB) |")?;
    writeln!(out, "|---|---|---|")?;
    let first = median(&pss[0]);
    let mut worst: f64 = 0.0;
    for (i, &n) in counts.iter().enumerate() {
        let m = median(&pss[i]);
        let per = if n > 1 { (m - first) / 1024.0 / (n - 1) as f64 } else { 0.0 };
        worst = worst.max(per);
        let per = if n > 1 { format!("{per:.1}") } else { "-".into() };
        writeln!(out, "| {n} | {:.1} | {per} |", m / 1024.0)?;
    }
    if let [first, last] = kinds.as_slice() {
        writeln!(out, "\nWhere it grows, 1 to {max} parties (last round): kind, processes, MiB")?;
        for (kind, (n, kib)) in last {
            let (n0, kib0) = first.get(kind).copied().unwrap_or_default();
            let grew = (*kib as f64 - kib0 as f64) / 1024.0;
            writeln!(out, "- {kind}: {n0} -> {n}, {:+.1} MiB", grew)?;
        }
    }
    let verdict = if worst <= 30.0 { "met" } else { "missed" };
    writeln!(
        out,
        "\nGoal: a context costs ≤ 30 MiB PSS beyond the first: {worst:.1} MiB, {verdict}."
    )?;
    Ok(())
}

/// Clicks (each checked by the page's counter) and snapshots for `n` rounds of each: the
/// ops per second.
async fn work(c: &mut Client, n: usize) -> anyhow::Result<f64> {
    let start = Instant::now();
    let before = call(c, "browser.evaluate", json!({"script": "+n.textContent", "capture": false}))
        .await?["result"]["value"]
        .as_u64()
        .unwrap_or(0);
    for _ in 0..n {
        call(c, "browser.click", json!({"selector": "#b", "capture": false})).await?;
        call(c, "browser.snapshot", json!({"disable_diffing": true})).await?;
    }
    let secs = start.elapsed().as_secs_f64();
    let after = call(c, "browser.evaluate", json!({"script": "+n.textContent", "capture": false}))
        .await?["result"]["value"]
        .as_u64()
        .unwrap_or(0);
    if after != before + n as u64 {
        bail!("the page counted {} clicks of {n}", after.saturating_sub(before));
    }
    Ok((2 * n) as f64 / secs)
}

/// `bench browser --sessions 2`.
pub fn sessions(args: &[String]) -> anyhow::Result<()> {
    let (mut parties, mut rounds, mut clicks) = (2usize, 3usize, 40usize);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value =
            || it.next().with_context(|| format!("{arg} needs a value; {USAGE_SESSIONS}"));
        match arg.as_str() {
            "--sessions" => parties = value()?.parse()?,
            "--rounds" => rounds = value()?.parse()?,
            "--clicks" => clicks = value()?.parse()?,
            _ => bail!("unknown argument {arg:?}; {USAGE_SESSIONS}"),
        }
    }
    if parties < 2 || rounds == 0 || clicks == 0 {
        bail!("--sessions at least 2, --rounds and --clicks positive; {USAGE_SESSIONS}");
    }
    let bin = daemon::build()?;
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (mut alone, mut together) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let (mut d, all) = start(&bin, parties)?;
        let url = d.url.clone();
        let rates: anyhow::Result<(f64, Vec<f64>)> = rt.block_on(async {
            let mut cs = Vec::new();
            for t in &all {
                cs.push(party(&url, t).await?);
            }
            // Warm every tab once, then the first alone, then all at once.
            for c in cs.iter_mut() {
                work(c, 3).await?;
            }
            let solo = work(&mut cs[0], clicks).await?;
            let runs = cs.iter_mut().map(|c| work(c, clicks));
            let each = futures::future::try_join_all(runs).await?;
            Ok((solo, each))
        });
        let (solo, each) = rates?;
        eprintln!("bench: round {round}: alone {solo:.1} ops/s, together {each:.1?} ops/s");
        alone.push(solo);
        together.push(each.iter().cloned().fold(f64::INFINITY, f64::min));
        d.stop()?;
    }
    let (solo, slowest) = (median(&alone), median(&together));
    let ratio = slowest / solo;
    let mut out = std::io::stdout().lock();
    writeln!(out, "\n{parties} parties in parallel on the daemon's Chromium, median of {rounds} rounds ({clicks} clicks + {clicks} snapshots each)")?;
    writeln!(out, "| | ops/s (click + snapshot) |")?;
    writeln!(out, "|---|---|")?;
    writeln!(out, "| one party alone | {solo:.1} |")?;
    writeln!(out, "| slowest of {parties} at once | {slowest:.1} |")?;
    let verdict = if ratio >= 0.8 { "met" } else { "missed" };
    writeln!(out, "\nGoal: each party keeps ≥ 0.8× of one alone: {ratio:.2}×, {verdict}.")?;
    Ok(())
}
