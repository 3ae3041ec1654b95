//! What `bench browser` found: medians of the rounds beside Playwright MCP, then each of
//! issue 3's goals with its ratio and verdict; the same as JSON for comparing runs.

use std::io::Write as _;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use serde_json::{json, Value};

use super::{PageRounds, Results, PAGES};
use crate::stats::{median, round1, Summary};

fn med(xs: &[usize]) -> f64 {
    median(&xs.iter().map(|&x| x as f64).collect::<Vec<_>>())
}

/// The median of the rounds' summaries, in ms.
fn ms(rounds: &[Summary]) -> Summary {
    let s = Summary::median_of(rounds);
    Summary { n: s.n, p50: s.p50 / 1e3, p90: s.p90 / 1e3, p99: s.p99 / 1e3, max: s.max / 1e3 }
}

fn tokens(bytes: f64) -> f64 {
    bytes / 4.0
}

/// Interactive elements with a ref, counted only up to what the page has, of those it has.
fn addressable(p: &PageRounds, page: usize) -> (usize, usize) {
    let expected = PAGES[page].expected;
    let found =
        expected.iter().map(|(role, n)| p.addressable.get(*role).copied().unwrap_or(0).min(*n));
    (found.sum(), expected.iter().map(|(_, n)| n).sum())
}

pub struct Goal {
    pub metric: String,
    pub value: f64,
    pub goal: f64,
    pub unit: &'static str,
    /// For goals against another measurement: what `goal` is made of.
    pub basis: String,
}

impl Goal {
    fn pass(&self) -> bool {
        self.value <= self.goal
    }
}

fn goals(r: &Results) -> Vec<Goal> {
    let mut g = Vec::new();
    for (i, p) in r.pages.iter().enumerate() {
        let name = PAGES[i].path;
        let ours = ms(&p.full_snapshot).p50;
        if r.peer.is_ok() {
            let theirs = ms(&p.peer_snapshot).p50;
            g.push(Goal {
                metric: format!("{name} snapshot time"),
                value: ours,
                goal: theirs * 0.5,
                unit: "ms",
                basis: format!("0.5 x Playwright {theirs:.1} ms"),
            });
            let theirs = tokens(med(&p.peer_bytes));
            g.push(Goal {
                metric: format!("{name} snapshot tokens"),
                value: tokens(med(&p.full_bytes)),
                goal: theirs * 0.5,
                unit: "tok",
                basis: format!("0.5 x Playwright {theirs:.0} tok"),
            });
        }
        let (found, total) = addressable(p, i);
        g.push(Goal {
            metric: format!("{name} not addressable"),
            value: (total - found) as f64,
            goal: 0.0,
            unit: "el",
            basis: format!("{found} of {total} interactive elements have refs"),
        });
        let cursors = p.default_cursor.iter().filter(|c| **c).count();
        g.push(Goal {
            metric: format!("{name} default view"),
            value: tokens(med(&p.default_bytes)),
            goal: 2000.0,
            unit: "tok",
            basis: format!("continuation cursor in {cursors} of {} rounds", p.default_cursor.len()),
        });
        g.push(Goal {
            metric: format!("{name} click by ref p50"),
            value: ms(&p.click).p50,
            goal: 10.0,
            unit: "ms",
            basis: format!(
                "capture false; bare CDP: mouse events {:.1} ms, hit test then events {:.1} ms",
                ms(&p.bare_click).p50,
                ms(&p.bare_looked_click).p50
            ),
        });
        let bare = ms(&p.bare_click).p50;
        g.push(Goal {
            metric: format!("{name} click by ref vs bare"),
            value: ms(&p.click).p50,
            goal: bare * 1.5,
            unit: "ms",
            basis: format!("1.5 x bare CDP move+press+release {bare:.1} ms (issue 14)"),
        });
        let keys = ms(&p.keys).p50;
        g.push(Goal {
            metric: format!("{name} keys mode 1,000 chars"),
            value: keys,
            goal: 2000.0,
            unit: "ms",
            basis: format!(
                "= {:.0} chars/s, read back whole (goal >= 500 chars/s); {}",
                1e6 / keys,
                peer_keys(r, p)
            ),
        });
        g.push(Goal {
            metric: format!("{name} fill 1,000 chars p50"),
            value: ms(&p.fill).p50,
            goal: 30.0,
            unit: "ms",
            basis: String::new(),
        });
        let bare = ms(&p.bare_shot).p50;
        g.push(Goal {
            metric: format!("{name} screenshot p50"),
            value: ms(&p.shot).p50,
            goal: bare * 1.1,
            unit: "ms",
            basis: format!("1.1 x bare CDP {bare:.1} ms"),
        });
    }
    g
}

/// Playwright MCP's key-by-key typing in words: the 1,000 characters' time or failure,
/// and its rate on 100.
fn peer_keys(r: &Results, p: &PageRounds) -> String {
    if r.peer.is_err() {
        return "Playwright MCP not run".into();
    }
    let long: Vec<String> = p
        .peer_keys
        .iter()
        .map(|k| match k {
            Ok(d) => format!("{:.0} chars/s", 1000.0 / d.as_secs_f64()),
            Err((why, d)) => format!("failed after {:.1} s ({why})", d.as_secs_f64()),
        })
        .collect();
    let short: Vec<f64> = p.peer_keys_short.iter().map(|d| 100.0 / d.as_secs_f64()).collect();
    format!(
        "Playwright browser_type slowly: 1,000 chars {}; 100 chars {:.0} chars/s",
        long.first().cloned().unwrap_or_default(),
        median(&short)
    )
}

pub fn print(r: &Results) -> anyhow::Result<()> {
    let o = &r.options;
    let mut out = std::io::stdout().lock();
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    writeln!(out, "\nbench browser: gloveboxd (release) on {}, {cpus} CPUs, load average {} at start, {} at end, {} client", r.chromium, r.loadavg.0, r.loadavg.1, crate::report::client_build())?;
    let peer = match &r.peer {
        Ok(v) => format!("{v} over --cdp-endpoint on the same Chromium"),
        Err(why) => format!("skipped ({why})"),
    };
    writeln!(out, "peer: Playwright MCP {peer}")?;
    writeln!(out, "{} rounds; per round {} snapshots, {} clicks, {} fills, {} screenshots after 2 warm-ups each, {} keys-mode typings after 1; medians of the round medians (p90 likewise); each click and screenshot, ours or bare, starts after a 50 ms pause", o.rounds, o.snapshots, o.clicks, o.fills, o.shots, o.keys)?;
    for (i, p) in r.pages.iter().enumerate() {
        writeln!(out, "\n{}", PAGES[i].name)?;
        let line = |out: &mut std::io::StdoutLock<'_>, what: &str, s: Summary, extra: String| {
            writeln!(out, "  {what:<34}{:>9.1}{:>9.1} ms  {extra}", s.p50, s.p90)
        };
        writeln!(out, "  {:<34}{:>9}{:>9}", "", "p50", "p90")?;
        if r.peer.is_ok() {
            line(
                &mut out,
                "Playwright browser_snapshot",
                ms(&p.peer_snapshot),
                format!(
                    "{:.0} B = {:.0} tok, {:.0} refs",
                    med(&p.peer_bytes),
                    tokens(med(&p.peer_bytes)),
                    med(&p.peer_refs)
                ),
            )?;
        }
        line(
            &mut out,
            "glovebox full snapshot (all pages)",
            ms(&p.full_snapshot),
            format!(
                "{:.0} B = {:.0} tok in {:.0} page(s)",
                med(&p.full_bytes),
                tokens(med(&p.full_bytes)),
                med(&p.full_pages)
            ),
        )?;
        let (found, total) = addressable(p, i);
        let mut by_role: Vec<String> =
            p.addressable.iter().map(|(k, v)| format!("{k} {v}")).collect();
        by_role.sort();
        writeln!(
            out,
            "  {:<34}{found} of {total} interactive elements have refs; refs by role: {}",
            "",
            by_role.join(", ")
        )?;
        writeln!(
            out,
            "  {:<34}{:>9.1}{:>9} ms  {:.0} B = {:.0} tok, next_cursor {}",
            "glovebox default view (first look)",
            median(&p.default_ms),
            "",
            med(&p.default_bytes),
            tokens(med(&p.default_bytes)),
            if p.default_cursor.iter().all(|c| *c) { "yes" } else { "NO" }
        )?;
        line(&mut out, "glovebox click by ref", ms(&p.click), "capture false".into())?;
        line(
            &mut out,
            "bare CDP move+press+release",
            ms(&p.bare_click),
            "pipelined, same point".into(),
        )?;
        line(
            &mut out,
            "bare CDP hit test, then events",
            ms(&p.bare_looked_click),
            "evaluate elementFromPoint + box first".into(),
        )?;
        line(&mut out, "glovebox fill 1,000 chars", ms(&p.fill), "read back".into())?;
        let keys = ms(&p.keys);
        line(
            &mut out,
            "glovebox keys mode 1,000 chars",
            keys,
            format!("{:.0} chars/s, read back whole", 1e6 / keys.p50),
        )?;
        if r.peer.is_ok() {
            writeln!(out, "  {:<34}{}", "Playwright browser_type slowly", peer_keys(r, p))?;
        }
        line(
            &mut out,
            "glovebox screenshot (viewport PNG)",
            ms(&p.shot),
            format!("{:.0} B", med(&p.shot_bytes)),
        )?;
        line(&mut out, "bare CDP Page.captureScreenshot", ms(&p.bare_shot), String::new())?;
    }
    writeln!(out, "\n  {:<34}{:>10}{:>12}{:>8}  verdict  basis", "goal", "value", "goal", "ratio")?;
    for g in goals(r) {
        let verdict = if g.pass() { "PASS" } else { "MISS" };
        let ratio = if g.goal > 0.0 { format!("{:.2}", g.value / g.goal) } else { "-".into() };
        writeln!(
            out,
            "  {:<34}{:>7.1} {:<3}{:>8.1} {:<3}{ratio:>8}  {verdict:<7}  {}",
            g.metric, g.value, g.unit, g.goal, g.unit, g.basis
        )?;
    }
    Ok(())
}

fn summary_json(rounds: &[Summary]) -> Value {
    let s = ms(rounds);
    json!({"p50_ms": round1(s.p50), "p90_ms": round1(s.p90), "n": s.n})
}

pub fn write_json(r: &Results, path: &Path) -> anyhow::Result<()> {
    let pages: Vec<Value> = r
        .pages
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({"page": PAGES[i].path,
                   "peer_snapshot": if r.peer.is_ok() { summary_json(&p.peer_snapshot) } else { Value::Null },
                   "peer_bytes": med(&p.peer_bytes), "peer_refs": med(&p.peer_refs),
                   "full_snapshot": summary_json(&p.full_snapshot), "full_bytes": med(&p.full_bytes),
                   "full_pages": med(&p.full_pages), "addressable": p.addressable,
                   "default_ms": round1(median(&p.default_ms)), "default_bytes": med(&p.default_bytes),
                   "default_cursor": p.default_cursor,
                   "click": summary_json(&p.click), "bare_click": summary_json(&p.bare_click), "bare_looked_click": summary_json(&p.bare_looked_click), "fill": summary_json(&p.fill), "keys_1000": summary_json(&p.keys),
                   "peer_keys_1000": p.peer_keys.iter().map(|k| match k { Ok(d) => json!({"ms": round1(d.as_secs_f64() * 1e3)}), Err((why, d)) => json!({"failed": why, "after_ms": round1(d.as_secs_f64() * 1e3)}) }).collect::<Vec<_>>(),
                   "peer_keys_100_ms": p.peer_keys_short.iter().map(|d| round1(d.as_secs_f64() * 1e3)).collect::<Vec<_>>(),
                   "screenshot": summary_json(&p.shot), "bare_screenshot": summary_json(&p.bare_shot)})
        })
        .collect();
    let goals: Vec<Value> = goals(r)
        .iter()
        .map(|g| {
            json!({"metric": g.metric, "value": round1(g.value), "goal": round1(g.goal),
                        "unit": g.unit, "basis": g.basis, "pass": g.pass()})
        })
        .collect();
    let o = &r.options;
    let doc = json!({
        "bench": "browser",
        "unix_time": SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs(),
        "chromium": r.chromium,
        "peer": match &r.peer {
            Ok(package) => json!({"package": package}),
            Err(why) => json!({"skipped": why}),
        },
        "options": {"rounds": o.rounds, "snapshots": o.snapshots, "clicks": o.clicks,
                    "fills": o.fills, "shots": o.shots, "keys": o.keys},
        "loadavg": {"start": r.loadavg.0, "end": r.loadavg.1},
        "pages": pages,
        "goals": goals,
    });
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(path, serde_json::to_string_pretty(&doc)? + "\n")
        .with_context(|| format!("writing {}", path.display()))?;
    for (i, p) in r.pages.iter().enumerate() {
        let stem = PAGES[i].path.trim_end_matches(".html");
        for (kind, text) in
            [("full", &p.full_text), ("default", &p.default_text), ("playwright", &p.peer_text)]
        {
            let file = path.with_file_name(format!("browser-{stem}-{kind}.txt"));
            std::fs::write(&file, text).with_context(|| format!("writing {}", file.display()))?;
        }
    }
    Ok(())
}
