//! What `bench fidelity` found: per page the controls that are named lines with refs, the
//! tasks done and the snapshots' round trips, ours beside Playwright MCP's; the goals'
//! verdicts; every control we missed with the lines that hold its words; the same as JSON,
//! and each episode's last snapshot beside it for reading.

use std::io::Write as _;
use std::path::Path;

use anyhow::Context as _;
use serde_json::{json, Value};

use super::solve::Episode;
use super::{PageRun, Results};
use crate::stats::{median, round1};

fn named(e: &Episode) -> usize {
    e.named.iter().filter(|n| **n).count()
}

fn ms(e: &Episode) -> f64 {
    median(&e.snapshot_ms)
}

fn yes(done: bool) -> &'static str {
    if done {
        "yes"
    } else {
        "no"
    }
}

/// Lines of the episode's snapshots that hold `label`'s words (case aside), first seen first.
fn lines_holding(e: &Episode, label: &str) -> Vec<String> {
    let label = label.rsplit('|').next().unwrap_or(label).to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for line in e.snapshots.iter().flat_map(|s| s.lines()) {
        let t = line.trim().to_owned();
        if t.to_lowercase().contains(&label) && !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

struct Verdict {
    goal: &'static str,
    /// None: nothing to judge by (no baseline given).
    pass: Option<bool>,
    basis: String,
}

fn verdicts(r: &Results) -> Vec<Verdict> {
    let expected: usize = r.pages.iter().map(|p| p.page.controls.len()).sum();
    let ours: usize = r.pages.iter().map(|p| named(&p.ours)).sum();
    let mut v = vec![Verdict {
        goal: "every control of the corpus addressable and named",
        pass: Some(ours == expected),
        basis: format!("{ours} of {expected}"),
    }];
    if r.peer.is_ok() {
        let behind: Vec<&str> = r
            .pages
            .iter()
            .filter(|p| p.theirs.as_ref().is_some_and(|t| t.done && !p.ours.done))
            .map(|p| p.page.name)
            .collect();
        v.push(Verdict {
            goal: "tasks done >= Playwright MCP's on every page",
            pass: Some(behind.is_empty()),
            basis: if behind.is_empty() {
                "no page where only Playwright MCP did it".into()
            } else {
                format!("behind on {}", behind.join(", "))
            },
        });
    }
    if !r.big.ours.is_empty() {
        let ours = median(&r.big.ours);
        let theirs = if r.big.theirs.is_empty() {
            String::new()
        } else {
            format!("; Playwright MCP {:.0} ms", median(&r.big.theirs))
        };
        let (pass, basis) = match r.options.big_baseline {
            Some(b) => (Some(ours <= 1.3 * b), format!("{ours:.0} ms vs 1.3 x {b:.0} ms{theirs}")),
            None => (None, format!("{ours:.0} ms, no --big-baseline given{theirs}")),
        };
        v.push(Verdict { goal: "big page snapshot within 1.3x of before", pass, basis });
    }
    v
}

pub fn print(r: &Results) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let peer = match &r.peer {
        Ok(p) => p.clone(),
        Err(why) => format!("not measured ({why})"),
    };
    writeln!(
        out,
        "\nbench fidelity: gloveboxd ({}) beside {peer}, {}; load average {} at start, {} at end",
        std::env::var("GLOVEBOX_BENCH_PROFILE").unwrap_or_else(|_| "release".into()),
        r.chromium,
        r.loadavg.0,
        r.loadavg.1
    )?;
    writeln!(
        out,
        "named = expected controls seen as a line with a ref whose name holds the label"
    )?;
    writeln!(
        out,
        "\n{:<18} {:>16} {:>12} {:>18}  task",
        "page", "named us/pw/of", "done us/pw", "snapshot ms us/pw"
    )?;
    let dash = |o: Option<String>| o.unwrap_or_else(|| "-".into());
    for p in &r.pages {
        let t = p.theirs.as_ref();
        writeln!(
            out,
            "{:<18} {:>16} {:>12} {:>18}  {}",
            p.page.name,
            format!(
                "{}/{}/{}",
                named(&p.ours),
                dash(t.map(|t| named(t).to_string())),
                p.page.controls.len()
            ),
            format!("{}/{}", yes(p.ours.done), dash(t.map(|t| yes(t.done).to_owned()))),
            format!("{:.1}/{}", ms(&p.ours), dash(t.map(|t| format!("{:.1}", ms(t))))),
            p.page.task
        )?;
    }
    let sum = |f: &dyn Fn(&PageRun) -> Option<usize>| -> String {
        let xs: Vec<Option<usize>> = r.pages.iter().map(f).collect();
        if xs.iter().any(Option::is_none) {
            "-".into()
        } else {
            xs.iter().flatten().sum::<usize>().to_string()
        }
    };
    writeln!(
        out,
        "{:<18} {:>16} {:>12}",
        "total",
        format!(
            "{}/{}/{}",
            sum(&|p| Some(named(&p.ours))),
            sum(&|p| p.theirs.as_ref().map(named)),
            sum(&|p| Some(p.page.controls.len()))
        ),
        format!(
            "{}/{}",
            sum(&|p| Some(usize::from(p.ours.done))),
            sum(&|p| p.theirs.as_ref().map(|t| usize::from(t.done)))
        ),
    )?;
    if !r.big.ours.is_empty() {
        let theirs = if r.big.theirs.is_empty() {
            "-".into()
        } else {
            format!("{:.0}", median(&r.big.theirs))
        };
        writeln!(
            out,
            "{:<18} {:>16} {:>12} {:>18}  full snapshot, paged",
            "big (5,001)",
            "",
            "",
            format!("{:.0}/{theirs}", median(&r.big.ours))
        )?;
    }
    writeln!(out, "\ngoals:")?;
    for v in verdicts(r) {
        writeln!(
            out,
            "  {:<52} {:<5} {}",
            v.goal,
            match v.pass {
                Some(true) => "PASS",
                Some(false) => "FAIL",
                None => "n/a",
            },
            v.basis
        )?;
    }
    writeln!(out, "\nfindings (ours):")?;
    let mut any = false;
    for p in &r.pages {
        for (label, seen) in p.page.controls.iter().zip(&p.ours.named) {
            if *seen {
                continue;
            }
            any = true;
            let lines = lines_holding(&p.ours, label);
            let shown = if lines.is_empty() {
                "no line holds it".to_owned()
            } else {
                lines.iter().take(3).map(|l| format!("`{l}`")).collect::<Vec<_>>().join("; ")
            };
            writeln!(out, "  {}: {label:?} not a named line with a ref: {shown}", p.page.name)?;
        }
        for f in &p.ours.retried {
            any = true;
            let f: String = f.chars().take(300).collect();
            writeln!(
                out,
                "  {}: an action failed on the best line, the next one was taken: {f}",
                p.page.name
            )?;
        }
        if !p.ours.done {
            any = true;
            writeln!(
                out,
                "  {}: task not done (check read {:?}){}",
                p.page.name,
                p.ours.outcome,
                p.ours.failed.as_ref().map(|f| format!("; {f}")).unwrap_or_default()
            )?;
        }
    }
    if !any {
        writeln!(out, "  none")?;
    }
    writeln!(out, "\nPlaywright MCP's misses:")?;
    for p in &r.pages {
        let Some(t) = &p.theirs else { continue };
        let missed: Vec<&str> =
            p.page.controls.iter().zip(&t.named).filter(|(_, s)| !**s).map(|(c, _)| *c).collect();
        if missed.is_empty() && t.done {
            continue;
        }
        let why = t.failed.as_deref().unwrap_or(&t.outcome);
        let why: String = why.chars().take(160).collect();
        writeln!(
            out,
            "  {}: unnamed {missed:?}; task {}{}",
            p.page.name,
            if t.done { "done" } else { "not done: " },
            if t.done { String::new() } else { why }
        )?;
    }
    Ok(())
}

fn episode_json(p: &PageRun, e: &Episode) -> Value {
    let controls: Vec<Value> = p
        .page
        .controls
        .iter()
        .zip(&e.named)
        .map(|(c, n)| json!({"control": c, "named": n}))
        .collect();
    json!({
        "controls": controls,
        "named": named(e),
        "done": e.done,
        "outcome": e.outcome,
        "failed": e.failed,
        "retried": e.retried,
        "snapshot_ms_median": round1(ms(e)),
        "snapshots": e.snapshot_ms.len(),
    })
}

/// `fidelity.json` in `dir`, and each episode's last snapshot under `dir/fidelity/`.
pub fn write(r: &Results, dir: &Path) -> anyhow::Result<()> {
    let texts = dir.join("fidelity");
    std::fs::create_dir_all(&texts).with_context(|| format!("creating {}", texts.display()))?;
    let mut pages = Vec::new();
    for p in &r.pages {
        let mut v = json!({
            "page": p.page.name,
            "widget": p.page.widget,
            "task": p.page.task,
            "expected": p.page.controls.len(),
            "ours": episode_json(p, &p.ours),
        });
        if let Some(t) = &p.theirs {
            v["playwright_mcp"] = episode_json(p, t);
        }
        pages.push(v);
        for (side, e) in [("ours", Some(&p.ours)), ("playwright", p.theirs.as_ref())] {
            if let Some(text) = e.and_then(|e| e.snapshots.last()) {
                std::fs::write(texts.join(format!("{}.{side}.txt", p.page.name)), text)?;
            }
        }
    }
    let goals: Vec<Value> = verdicts(r)
        .iter()
        .map(|v| json!({"goal": v.goal, "pass": v.pass, "basis": v.basis}))
        .collect();
    let doc = json!({
        "bench": "fidelity",
        "git": crate::report::git_describe(),
        "profile": std::env::var("GLOVEBOX_BENCH_PROFILE").unwrap_or_else(|_| "release".into()),
        "chromium": r.chromium,
        "peer": r.peer.as_ref().ok(),
        "packages": super::corpus::PACKAGES,
        "loadavg": [r.loadavg.0, r.loadavg.1],
        "pages": pages,
        "big_snapshot_ms": {"ours": r.big.ours, "playwright_mcp": r.big.theirs},
        "goals": goals,
    });
    std::fs::write(dir.join("fidelity.json"), serde_json::to_string_pretty(&doc)?)?;
    Ok(())
}
