//! What `bench footprint` found: per-workspace figures at each count (medians over rounds),
//! how they grow, one workspace's memory by process, the trimmed Chromium beside the
//! default, the goals with verdicts; as a table on stdout, as JSON under the target dir and
//! as the figures `deploy/kubernetes/footprint.json` sizes the manifests from.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;

use anyhow::Context as _;
use serde_json::{json, Value};

use super::{trim, Level, Results};
use crate::stats::{median, round1};

/// The per-workspace figures of one level, in table order: (key, label, unit).
const METRICS: &[(&str, &str, &str)] = &[
    ("idle_pss_mib", "idle PSS", "MiB"),
    ("idle_uss_mib", "idle USS (private)", "MiB"),
    ("peak_pss_mib", "peak PSS (sampled)", "MiB"),
    ("idle_cpu_millicores", "idle CPU", "m"),
    ("driven_cpu_millicores", "driven CPU", "m"),
    ("cpu_ms_per_loop", "CPU per agent loop", "ms"),
    ("loop_ms", "agent loop, wall", "ms"),
    ("ready_ms", "spawn to /readyz 200", "ms"),
    ("first_snapshot_ms", "spawn to first snapshot", "ms"),
];

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = xs.collect();
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// One level's per-workspace figures in one round: idle ones over every workspace up, the
/// others over the workspaces started for it.
fn figures(l: &Level) -> BTreeMap<&'static str, f64> {
    let n = l.idle_pss_kib.len().max(1) as f64;
    let new = |f: fn(&super::Workspace) -> f64| mean(l.new.iter().map(f));
    BTreeMap::from([
        ("idle_pss_mib", l.idle_pss_kib.iter().sum::<u64>() as f64 / 1024.0 / n),
        ("idle_uss_mib", l.idle_uss_kib.iter().sum::<u64>() as f64 / 1024.0 / n),
        ("peak_pss_mib", new(|w| w.drive.peak_pss_kib as f64 / 1024.0)),
        ("idle_cpu_millicores", l.idle_millicores.iter().sum::<f64>() / n),
        ("driven_cpu_millicores", new(|w| w.drive.driven_millicores)),
        ("cpu_ms_per_loop", new(|w| w.drive.cpu_ms_per_loop)),
        ("loop_ms", new(|w| w.drive.loop_ms)),
        ("ready_ms", new(|w| w.startup.ready_ms)),
        ("first_snapshot_ms", new(|w| w.startup.first_snapshot_ms)),
    ])
}

/// Each figure's median over rounds, per count.
fn medians(r: &Results) -> Vec<(usize, BTreeMap<&'static str, f64>)> {
    r.options
        .counts
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let per_round: Vec<_> =
                r.rounds.iter().map(|round| figures(&round.levels[i])).collect();
            (n, median_map(&per_round))
        })
        .collect()
}

fn median_map(per_round: &[BTreeMap<&'static str, f64>]) -> BTreeMap<&'static str, f64> {
    METRICS
        .iter()
        .map(|(k, _, _)| (*k, median(&per_round.iter().map(|m| m[k]).collect::<Vec<_>>())))
        .collect()
}

/// The trimmed Chromium's figures (median over rounds), when measured.
fn trimmed(r: &Results) -> Option<BTreeMap<&'static str, f64>> {
    let per_round: Vec<_> =
        r.rounds.iter().filter_map(|x| x.trimmed.as_ref()).map(figures).collect();
    (!per_round.is_empty()).then(|| median_map(&per_round))
}

/// One workspace idle, PSS by kind of process: (processes, MiB), median over rounds.
fn breakdown(levels: &[&Level]) -> BTreeMap<&'static str, (usize, f64)> {
    let mut by: BTreeMap<&'static str, Vec<(usize, f64)>> = BTreeMap::new();
    for l in levels {
        for (kind, (count, kib)) in l.first_tree.by_kind() {
            by.entry(kind).or_default().push((count, kib as f64 / 1024.0));
        }
    }
    by.into_iter()
        .map(|(k, v)| {
            let counts: Vec<f64> = v.iter().map(|(c, _)| *c as f64).collect();
            (
                k,
                (
                    median(&counts).round() as usize,
                    median(&v.iter().map(|x| x.1).collect::<Vec<_>>()),
                ),
            )
        })
        .collect()
}

/// A goal: the value must not exceed `goal`.
struct Goal {
    metric: String,
    value: f64,
    goal: f64,
    unit: &'static str,
}

impl Goal {
    fn pass(&self) -> bool {
        self.value <= self.goal
    }
}

/// The goals of issue 20: one workspace's idle cost and start-up, and growth to the most
/// workspaces measured that stays within n + n/16 times one (8.5 for 8).
fn goals(r: &Results) -> Vec<Goal> {
    let m = medians(r);
    let one = &m[0].1;
    let g = |metric: &str, key: &str, goal: f64, unit| Goal {
        metric: metric.to_owned(),
        value: one[key],
        goal,
        unit,
    };
    let mut out = vec![
        g("idle PSS, one", "idle_pss_mib", 250.0, "MiB"),
        g("idle CPU, one", "idle_cpu_millicores", 10.0, "m"),
        g("to /readyz 200, one", "ready_ms", 1500.0, "ms"),
        g("to first snapshot, one", "first_snapshot_ms", 3000.0, "ms"),
    ];
    if let Some((n, most)) = m.last().filter(|(n, _)| *n > 1) {
        let nf = *n as f64;
        // Driven CPU grows as work: CPU per loop. Its rate (per second of wall time) also
        // moves with how fast the loops ran, which other work on the machine decides.
        for key in [
            "idle_pss_mib",
            "peak_pss_mib",
            "idle_cpu_millicores",
            "cpu_ms_per_loop",
            "ready_ms",
            "first_snapshot_ms",
        ] {
            let label = METRICS.iter().find(|(k, _, _)| *k == key).map_or(key, |(_, l, _)| l);
            out.push(Goal {
                metric: format!("{label}, {n} / one"),
                value: nf * most[key] / one[key],
                goal: nf + nf / 16.0,
                unit: "x",
            });
        }
    }
    out
}

pub fn print(r: &Results) -> anyhow::Result<()> {
    let o = &r.options;
    let m = medians(r);
    let mut out = std::io::stdout().lock();
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    writeln!(out, "\nbench footprint: {} round(s), gloveboxd (release) with --desktop embedded, {}, {cpus} CPUs", o.rounds, r.chromium)?;
    writeln!(
        out,
        "load average (1, 5, 15 min) {} at start, {} at end; per round at its start: {}",
        r.loadavg.0,
        r.loadavg.1,
        r.rounds.iter().map(|x| x.loadavg.as_str()).collect::<Vec<_>>().join(" | ")
    )?;
    writeln!(out, "each workspace: spawn, /readyz, first browser snapshot, {} agent loops (navigate, snapshot, click, mousepad snapshot, type, screenshot; the first launches mousepad), then idle; idle read {} s after the last drive over {} s", o.loops, o.settle, o.idle)?;
    writeln!(out, "PSS: smaps_rollup summed over the daemon's process tree (a page shared with other processes counts its share, so it falls as more Chromiums run on the machine, the other workspaces' or anyone's); USS: the tree's private pages, the floor; CPU: utime+stime(+reaped children) of the tree; m = 1/1000 of a core")?;
    writeln!(out, "\nper workspace, median of {} round(s) (idle: over all up; the rest: over the ones started for that count)", o.rounds)?;
    write!(out, "  {:<26}", "workspaces up")?;
    for (n, _) in &m {
        write!(out, "{n:>9}")?;
    }
    writeln!(out, "{:>12}", format!("{} / one", m.last().map_or(1, |x| x.0)))?;
    for (key, label, unit) in METRICS {
        write!(out, "  {:<26}", format!("{label} {unit}"))?;
        for (_, f) in &m {
            write!(out, "{:>9.1}", f[key])?;
        }
        let (n, last) = m.last().context("no counts")?;
        writeln!(out, "{:>11.2}x", *n as f64 * last[key] / m[0].1[key])?;
    }

    let base: Vec<&Level> = r.rounds.iter().map(|x| &x.levels[0]).collect();
    let trim_levels: Vec<&Level> = r.rounds.iter().filter_map(|x| x.trimmed.as_ref()).collect();
    let (b, t) = (breakdown(&base), breakdown(&trim_levels));
    writeln!(out, "\none workspace idle, PSS by process (median of rounds)")?;
    writeln!(
        out,
        "  {:<22}{:>16}{:>20}",
        "",
        "default",
        if t.is_empty() { "" } else { "trimmed Chromium" }
    )?;
    let kinds: std::collections::BTreeSet<&str> = b.keys().chain(t.keys()).copied().collect();
    let cell = |x: Option<&(usize, f64)>| {
        x.map_or("-".to_owned(), |(c, mib)| format!("{c} x {mib:.1} MiB"))
    };
    for k in kinds {
        let tc = if t.is_empty() { String::new() } else { cell(t.get(k)) };
        writeln!(out, "  {k:<22}{:>16}{:>20}", cell(b.get(k)), tc)?;
    }
    let chromium: f64 = b.iter().filter(|(k, _)| k.starts_with("chromium")).map(|(_, v)| v.1).sum();
    let all: f64 = b.values().map(|v| v.1).sum();
    writeln!(
        out,
        "  Chromium's share: {chromium:.1} of {all:.1} MiB ({:.0} %)",
        100.0 * chromium / all.max(1e-9)
    )?;

    if let Some(tr) = trimmed(r) {
        writeln!(
            out,
            "\ntrimmed Chromium beside the default, one workspace alone (median of rounds)"
        )?;
        writeln!(out, "  {:<30}{:>10}{:>10}{:>8}", "", "default", "trimmed", "ratio")?;
        for (key, label, unit) in METRICS {
            let (d, x) = (m[0].1[key], tr[key]);
            writeln!(out, "  {:<30}{d:>10.1}{x:>10.1}{:>8.2}", format!("{label} {unit}"), x / d)?;
        }
        writeln!(out, "  flags (what each removes; what it costs):")?;
        for (flag, saves, costs) in trim::FLAGS {
            writeln!(out, "    {flag}: {saves}; {costs}")?;
        }
        writeln!(out, "  left out (what it would remove; why not):")?;
        for (flag, saves, why) in trim::NOT_TAKEN {
            writeln!(out, "    {flag}: {saves}; {why}")?;
        }
    }

    writeln!(out, "\n  {:<34}{:>12}{:>12}  verdict", "goal", "value", "goal")?;
    for g in goals(r) {
        let verdict = if g.pass() { "PASS" } else { "MISS" };
        let digits = if g.unit == "x" { 2 } else { 1 };
        writeln!(
            out,
            "  {:<34}{:>8.digits$} {:<3}{:>8.digits$} {:<3}  {verdict}",
            g.metric, g.value, g.unit, g.goal, g.unit
        )?;
    }
    let left = if r.left.is_empty() { "none".to_owned() } else { r.left.join(", ") };
    writeln!(out, "processes of the workspaces left running after the stop: {left}")?;
    Ok(())
}

fn level_json(l: &Level) -> Value {
    json!({
        "workspaces": l.n,
        "idle_pss_mib": l.idle_pss_kib.iter().map(|k| round1(*k as f64 / 1024.0)).collect::<Vec<_>>(),
        "idle_uss_mib": l.idle_uss_kib.iter().map(|k| round1(*k as f64 / 1024.0)).collect::<Vec<_>>(),
        "idle_cpu_millicores": l.idle_millicores.iter().map(|m| round1(*m)).collect::<Vec<_>>(),
        "started": l.new.iter().map(|w| json!({
            "ready_ms": round1(w.startup.ready_ms),
            "first_snapshot_ms": round1(w.startup.first_snapshot_ms),
            "peak_pss_mib": round1(w.drive.peak_pss_kib as f64 / 1024.0),
            "driven_cpu_millicores": round1(w.drive.driven_millicores),
            "cpu_ms_per_loop": round1(w.drive.cpu_ms_per_loop),
            "loop_ms": round1(w.drive.loop_ms),
        })).collect::<Vec<_>>(),
        "first_by_kind": l.first_tree.by_kind().into_iter()
            .map(|(k, (c, kib))| (k.to_owned(), json!({"processes": c, "pss_mib": round1(kib as f64 / 1024.0)})))
            .collect::<serde_json::Map<_, _>>(),
    })
}

fn rounded(m: &BTreeMap<&'static str, f64>) -> Value {
    Value::Object(m.iter().map(|(k, v)| ((*k).to_owned(), json!(round1(*v)))).collect())
}

fn flags_json() -> Value {
    json!(trim::FLAGS
        .iter()
        .map(|(f, saves, costs)| json!({"flag": f, "removes": saves, "costs": costs}))
        .collect::<Vec<_>>())
}

pub fn write_json(r: &Results, path: &Path) -> anyhow::Result<()> {
    let o = &r.options;
    let goals: Vec<Value> = goals(r)
        .iter()
        .map(|g| json!({"metric": g.metric, "value": round1(g.value), "goal": round1(g.goal), "unit": g.unit, "pass": g.pass()}))
        .collect();
    let doc = json!({
        "bench": "footprint",
        "command": command(r),
        "git": crate::report::git_describe(),
        "chromium": r.chromium,
        "cpus": std::thread::available_parallelism().map_or(0, usize::from),
        "options": {"rounds": o.rounds, "counts": o.counts, "loops": o.loops, "settle_s": o.settle, "idle_s": o.idle, "trim": o.trim},
        "loadavg": {"start": r.loadavg.0, "end": r.loadavg.1},
        "medians": medians(r).iter().map(|(n, m)| json!({"workspaces": n, "per_workspace": rounded(m)})).collect::<Vec<_>>(),
        "trimmed": trimmed(r).map(|t| json!({"flags": flags_json(), "per_workspace": rounded(&t)})),
        "rounds": r.rounds.iter().map(|x| json!({
            "loadavg": x.loadavg,
            "levels": x.levels.iter().map(level_json).collect::<Vec<_>>(),
            "trimmed": x.trimmed.as_ref().map(level_json),
        })).collect::<Vec<_>>(),
        "goals": goals,
        "left_running": r.left,
    });
    std::fs::write(path, serde_json::to_string_pretty(&doc)? + "\n")
        .with_context(|| format!("writing {}", path.display()))
}

/// `deploy/kubernetes/footprint.json`: one workspace alone (a pod holds one), the fields
/// `tests/deploy/check.py` sizes the manifests from, and the rest for reading.
pub fn write_deploy(r: &Results, path: &Path) -> anyhow::Result<()> {
    let m = medians(r);
    let one = &m[0].1;
    let date = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_default();
    let growth = m.last().filter(|(n, _)| *n > 1).map(|(n, most)| {
        let ratios: serde_json::Map<String, Value> = METRICS
            .iter()
            .map(|(k, _, _)| {
                ((*k).to_owned(), json!((*n as f64 * most[k] / one[k] * 100.0).round() / 100.0))
            })
            .collect();
        json!({"workspaces": n, "total_over_one": ratios, "per_workspace": rounded(most)})
    });
    let fields = [
        ("source", json!(format!(
            "{} on {date} (git {}, {}): one workspace alone, median of {} round(s); load average {} at start",
            command(r), crate::report::git_describe(), r.chromium, r.options.rounds, r.loadavg.0
        ))),
        ("workspaces", json!(1)),
        ("idle_pss_mib", json!(round1(one["idle_pss_mib"]))),
        ("peak_pss_mib", json!(round1(one["peak_pss_mib"]))),
        ("idle_uss_mib", json!(round1(one["idle_uss_mib"]))),
        ("idle_cpu_millicores", json!(round1(one["idle_cpu_millicores"]))),
        ("driven_cpu_millicores", json!(round1(one["driven_cpu_millicores"]))),
        ("cpu_ms_per_loop", json!(round1(one["cpu_ms_per_loop"]))),
        ("ready_ms", json!(round1(one["ready_ms"]))),
        ("first_snapshot_ms", json!(round1(one["first_snapshot_ms"]))),
        ("growth", growth.unwrap_or(Value::Null)),
        ("trimmed_chromium", trimmed(r).map_or(Value::Null, |t| json!({"flags": flags_json(), "per_workspace": rounded(&t)}))),
    ];
    std::fs::write(path, ordered(&fields)?).with_context(|| format!("writing {}", path.display()))
}

/// A pretty JSON object with its keys in the order given (the source first, for people).
fn ordered(fields: &[(&str, Value)]) -> anyhow::Result<String> {
    let mut out = String::from("{\n");
    for (i, (k, v)) in fields.iter().enumerate() {
        let value = serde_json::to_string_pretty(v)?.replace('\n', "\n  ");
        let comma = if i + 1 < fields.len() { "," } else { "" };
        out.push_str(&format!("  {}: {value}{comma}\n", json!(k)));
    }
    out.push_str("}\n");
    Ok(out)
}

fn command(r: &Results) -> String {
    let mut c = "cargo xtask bench footprint".to_owned();
    for a in &r.args {
        c.push(' ');
        c.push_str(a);
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deploy_file_keeps_its_keys_in_order_and_parses_back() {
        let fields = [
            ("source", json!("cargo xtask bench footprint")),
            ("idle_pss_mib", json!(395.4)),
            ("growth", json!({"workspaces": 8, "ratios": [1.5, 2]})),
        ];
        let text = ordered(&fields).expect("rendering");
        assert!(text.starts_with("{\n  \"source\": \"cargo xtask bench footprint\",\n"), "{text}");
        let back: Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back["growth"]["ratios"][0], 1.5);
        assert_eq!(back["idle_pss_mib"], 395.4);
    }
}
