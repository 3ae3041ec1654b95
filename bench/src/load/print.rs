//! What `bench load` prints: one run's latency table, errors and checks, and with
//! `--hostile` the two runs side by side against the goals (the other sessions' p99 at most
//! 2x, the daemon's peak RSS at most 1 GiB, Chromium alive) with what the hostile client was
//! refused with.

use std::io::Write as _;
use std::time::Duration;

use super::{Options, Phase, Tally};
use crate::stats::Summary;

const MAX_P99_RATIO: f64 = 2.0;
const MAX_RSS_MIB: f64 = 1024.0;

fn ms(us: f64) -> f64 {
    us / 1000.0
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "missed"
    }
}

/// Each kind of call's distribution, then all of them together as `all`.
fn summaries(t: &Tally) -> Vec<(String, Summary)> {
    let mut rows = Vec::new();
    let mut all: Vec<Duration> = Vec::new();
    for (label, samples) in &t.samples {
        all.extend(samples.iter().copied());
        rows.push(((*label).to_owned(), Summary::of(&mut samples.clone())));
    }
    rows.push(("all".to_owned(), Summary::of(&mut all)));
    rows
}

/// Whether the browser lived: the last call answered, and without faults the same process
/// still runs.
fn chromium_alive(o: &Options, p: &Phase) -> bool {
    let c = &p.chromium;
    c.answered && c.running && (o.faults || c.pid_before == c.pid_after)
}

pub fn phase(o: &Options, p: &Phase) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let t = &p.tally;
    let secs = p.elapsed.as_secs_f64();
    let with = if p.hostile.is_some() { ", with the hostile client" } else { "" };
    writeln!(
        out,
        "\nbench load{with}: {} sessions for {secs:.0} s on the real desktop and browser: {} calls ({:.0}/s), {} BUSY; load average {} at start, {} at end",
        o.sessions, t.calls, t.calls as f64 / secs, t.busy, p.loadavg.0, p.loadavg.1
    )?;
    writeln!(out, "  {:<32}{:>8}{:>10}{:>10}{:>10}{:>10}", "ms", "n", "p50", "p90", "p99", "max")?;
    for (label, s) in summaries(t) {
        writeln!(
            out,
            "  {label:<32}{:>8}{:>10.1}{:>10.1}{:>10.1}{:>10.1}",
            s.n,
            ms(s.p50),
            ms(s.p90),
            ms(s.p99),
            ms(s.max)
        )?;
    }
    let errors: u64 = t.errors.values().sum();
    writeln!(out, "errors other than BUSY: {errors}")?;
    for (k, v) in &t.errors {
        writeln!(out, "  {k}: {v}")?;
    }
    writeln!(out, "daemon peak RSS: {:.1} MiB; exit after SIGTERM: {}", mib(p.peak_kib), p.exit)?;
    writeln!(
        out,
        "CPU seconds: daemon {:.1}, Chromium {:.1}, this bench (sessions and clients) {:.1}",
        p.cpu.daemon, p.cpu.chromium, p.cpu.bench
    )?;
    let c = &p.chromium;
    writeln!(
        out,
        "Chromium: a browser call answered at the end: {}; pid {:?} at start, {:?} at end, running: {}",
        c.answered, c.pid_before, c.pid_after, c.running
    )?;
    let held_ok = match &p.held {
        Ok((keys, mask)) => {
            writeln!(out, "held afterwards: {keys} keys, button mask {mask:#x}")?;
            *keys == 0 && *mask == 0
        }
        Err(e) => {
            writeln!(out, "held afterwards: cannot ask the X server ({e})")?;
            false
        }
    };
    if let Some(f) = &p.faults {
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
            verdict(ok)
        )?;
    } else {
        writeln!(
            out,
            "check: no error but BUSY and nothing held -> {}",
            verdict(errors == 0 && t.unanswered == 0 && held_ok)
        )?;
    }
    if let Some(h) = &p.hostile {
        let rounds: Vec<String> = h.rounds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        writeln!(
            out,
            "hostile client: rounds of its loops: {}; its connections opened again {} times; the flood held {} connections at once before a refusal (beside the loops' 2)",
            rounds.join(", "),
            h.reconnects,
            h.most_open
        )?;
        writeln!(
            out,
            "  {:<48} {:<36} {:>6} {:>9} {:>9}",
            "attempt", "answer", "n", "p50 ms", "max ms"
        )?;
        let mut last = "";
        for ((what, outcome), n) in &h.outcomes {
            let times = match h.took.get(what) {
                Some(t) if *what != last => {
                    let s = Summary::of(&mut t.clone());
                    format!("{:>9.0} {:>9.0}", ms(s.p50), ms(s.max))
                }
                _ => String::new(),
            };
            last = what;
            writeln!(out, "  {what:<48} {outcome:<36} {n:>6} {times}")?;
        }
        for (code, message) in &h.messages {
            writeln!(out, "  {code}: {message}")?;
        }
    }
    Ok(())
}

/// The run as it is against the run with the hostile client.
pub fn compare(o: &Options, quiet: &Phase, loud: &Phase) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let faults = if o.faults { " --faults" } else { "" };
    let noise = if o.noise { " --noise" } else { "" };
    writeln!(
        out,
        "\nbench load{faults} --hostile{noise}: the other {} sessions without and with the hostile client (ms)",
        o.sessions
    )?;
    writeln!(
        out,
        "  {:<32}{:>8}{:>8}{:>10}{:>10}{:>10}{:>10}{:>8}",
        "call", "n", "n+h", "p50", "p50+h", "p99", "p99+h", "ratio"
    )?;
    let with: Vec<(String, Summary)> = summaries(&loud.tally);
    let mut all_ratio = f64::NAN;
    let mut worst = (String::new(), 0.0_f64);
    for (label, q) in summaries(&quiet.tally) {
        let Some((_, l)) = with.iter().find(|(k, _)| *k == label) else { continue };
        let ratio = l.p99 / q.p99;
        if label == "all" {
            all_ratio = ratio;
        } else if ratio > worst.1 {
            worst = (label.clone(), ratio);
        }
        writeln!(
            out,
            "  {label:<32}{:>8}{:>8}{:>10.1}{:>10.1}{:>10.1}{:>10.1}{:>7.2}x",
            q.n,
            l.n,
            ms(q.p50),
            ms(l.p50),
            ms(q.p99),
            ms(l.p99),
            ratio
        )?;
    }
    let answered = loud.tally.unanswered == 0
        && (o.faults || loud.tally.errors.is_empty())
        && (!o.faults || loud.tally.recovered == o.sessions as u64);
    let (rss_q, rss_l) = (mib(quiet.peak_kib), mib(loud.peak_kib));
    let (alive_q, alive_l) = (chromium_alive(o, quiet), chromium_alive(o, loud));
    let yes = |b: bool| if b { "yes" } else { "no" };
    writeln!(out, "goals with the hostile client:")?;
    writeln!(
        out,
        "  p99 of all the other sessions' calls {:.2}x the run without (goal <= {MAX_P99_RATIO}x; the worst kind of call {:.2}x, {}) -> {}",
        all_ratio,
        worst.1,
        worst.0,
        verdict(all_ratio <= MAX_P99_RATIO)
    )?;
    writeln!(
        out,
        "  every other session's call answered ({}) -> {}",
        if o.faults { "none lost, every session recovered" } else { "no error but BUSY" },
        verdict(answered)
    )?;
    writeln!(
        out,
        "  daemon peak RSS {rss_l:.1} MiB (without: {rss_q:.1} MiB; goal <= {MAX_RSS_MIB} MiB) -> {}",
        verdict(rss_l <= MAX_RSS_MIB)
    )?;
    writeln!(
        out,
        "  Chromium alive {} (without: {}{}) -> {}",
        yes(alive_l),
        yes(alive_q),
        if o.faults {
            "; the faults kill it, so: it answers at the end"
        } else {
            "; the same process"
        },
        verdict(alive_l)
    )?;
    if let Some(h) = &loud.hostile {
        let mut refused: std::collections::BTreeMap<&str, u64> = Default::default();
        for ((_, outcome), n) in &h.outcomes {
            if !outcome.starts_with("ok") {
                *refused.entry(outcome.as_str()).or_default() += n;
            }
        }
        let list: Vec<String> = refused.iter().map(|(k, n)| format!("{k} {n}")).collect();
        writeln!(out, "  the hostile client was refused with: {}", list.join(", "))?;
    }
    Ok(())
}
