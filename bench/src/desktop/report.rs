//! What `bench desktop` found: a side-by-side table (ours, the peer, the speed-up) and the
//! goals with a verdict each, on stdout; the same as JSON on disk for comparing runs.

use std::io::Write as _;
use std::path::Path;

use anyhow::Context as _;
use serde_json::{json, Value};

use super::measure::{Results, Typing};
use super::Series;
use crate::report::client_build;
use crate::stats::round1;

/// A goal: `value` must be at most (or at least) `goal`.
struct Goal {
    metric: String,
    value: f64,
    goal: f64,
    at_least: bool,
    unit: &'static str,
}

impl Goal {
    fn max(metric: String, value: f64, goal: f64, unit: &'static str) -> Goal {
        Goal { metric, value, goal, at_least: false, unit }
    }

    fn min(metric: String, value: f64, goal: f64, unit: &'static str) -> Goal {
        Goal { metric, value, goal, at_least: true, unit }
    }

    fn pass(&self) -> bool {
        if self.at_least {
            self.value >= self.goal
        } else {
            self.value <= self.goal
        }
    }
}

/// One side-by-side line: our median, the peer's, and how many times faster we are.
struct Side {
    what: String,
    ours: f64,
    peer_name: &'static str,
    peer: f64,
    unit: &'static str,
}

fn v(s: &Series) -> f64 {
    s.value()
}

fn sides(r: &Results) -> Vec<Side> {
    let side = |what: String, ours: f64, peer_name, peer: f64, unit| Side {
        what,
        ours,
        peer_name,
        peer,
        unit,
    };
    let mut out = Vec::new();
    for s in &r.snapshots {
        let what = format!("{} full snapshot ({} / {} nodes)", s.app, s.nodes, s.pyatspi_nodes);
        out.push(side(what, v(&s.full_rt), "pyatspi dump", v(&s.pyatspi), "ms"));
    }
    out.push(side("png 1280x800, in daemon".into(), v(&r.png_daemon), "scrot", v(&r.scrot), "ms"));
    out.push(side(
        "png 1280x800, in daemon".into(),
        v(&r.png_daemon),
        "import",
        v(&r.import),
        "ms",
    ));
    out.push(side("png 1280x800, round trip".into(), v(&r.png_rt), "scrot", v(&r.scrot), "ms"));
    out.push(side(
        "typing 1,000 chars (XTest)".into(),
        v(&r.xtest.chars_per_s),
        "xdotool --delay 0",
        v(&r.xdotool.chars_per_s),
        "ch/s",
    ));
    out
}

fn goals(r: &Results) -> Vec<Goal> {
    let mut g = Vec::new();
    for s in &r.snapshots {
        let full = v(&s.full_rt);
        g.push(Goal::min(format!("{} snapshot vs pyatspi", s.app), v(&s.pyatspi) / full, 5.0, "x"));
        g.push(Goal::max(format!("{} full snapshot", s.app), full, 30.0, "ms"));
        g.push(Goal::max(format!("{} unchanged incr.", s.app), v(&s.incremental_rt), 5.0, "ms"));
    }
    let png = v(&r.png_daemon);
    g.push(Goal::min("png vs scrot".into(), v(&r.scrot) / png, 10.0, "x"));
    g.push(Goal::min("png vs import".into(), v(&r.import) / png, 10.0, "x"));
    g.push(Goal::max("png capture+encode".into(), png, 8.0, "ms"));
    g.push(Goal::max("jpeg capture+encode".into(), v(&r.jpeg_daemon), 5.0, "ms"));
    g.push(Goal::max("click by ref p50".into(), v(&r.click_rt), 3.0, "ms"));
    g.push(Goal::max("1,000 ch EditableText".into(), v(&r.editable_rt), 20.0, "ms"));
    g.push(Goal::min("XTest typing".into(), v(&r.xtest.chars_per_s), 2000.0, "ch/s"));
    g.push(Goal::max("XTest lossy runs".into(), r.xtest.lossy_runs as f64, 0.0, "runs"));
    let native = v(&r.native.click_shot);
    let reference = super::native::REFERENCE_MS;
    g.push(Goal::max("native click+shot / 2 s sleep".into(), native / reference, 0.25, "x"));
    let ours = v(&r.native.computer_click);
    g.push(Goal::max("native / computer.click+capture".into(), native / ours, 1.2, "x"));
    g
}

fn typing_line(name: &str, t: &Typing) -> String {
    format!(
        "  {name:<18} {:>7.0} chars/s (median of {} runs), {} of {} runs lost characters (worst: {}/1000 landed)",
        v(&t.chars_per_s),
        t.runs,
        t.lossy_runs,
        t.runs,
        t.worst_landed
    )
}

pub fn print(r: &Results) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    writeln!(out, "\nbench desktop: gloveboxd (release) on an embedded 1280x800 desktop, {cpus} CPUs, load average {} at start, {} at end, {} client", r.loadavg.0, r.loadavg.1, client_build())?;
    writeln!(out, "{} rounds x {} samples after warm-up (typing: one run per round); values are medians of the round medians; ours = round trip over WebSocket unless it says in daemon", r.rounds, r.samples)?;
    writeln!(
        out,
        "\n  {:<44}{:>10}   {:<18}{:>10}{:>9}",
        "side by side", "ours", "peer", "peer", "speed-up"
    )?;
    for s in sides(r) {
        let speedup = if s.unit == "ch/s" { s.ours / s.peer } else { s.peer / s.ours };
        writeln!(
            out,
            "  {:<44}{:>7.1} {:<4}{:<18}{:>7.1} {:<4}{:>6.1}x",
            s.what, s.ours, s.unit, s.peer_name, s.peer, s.unit, speedup
        )?;
    }
    writeln!(out, "\n  other figures (ms)")?;
    for s in &r.snapshots {
        writeln!(
            out,
            "  {:<44}{:>7.1}",
            format!("{} full snapshot, in daemon", s.app),
            v(&s.full_daemon)
        )?;
        writeln!(
            out,
            "  {:<44}{:>7.1}",
            format!("{} unchanged incremental", s.app),
            v(&s.incremental_rt)
        )?;
        let [d, a, bus] = s.cpu;
        writeln!(
            out,
            "  {:<44}{d:>7.1} daemon {a:.1} app {bus:.1} buses",
            format!("{} cpu per full snapshot", s.app)
        )?;
    }
    for (what, s) in [
        ("capture alone (MIT-SHM), in daemon", &r.grab),
        ("jpeg q80, in daemon", &r.jpeg_daemon),
        ("jpeg q80, round trip", &r.jpeg_rt),
        ("click by ref (capture:false), round trip", &r.click_rt),
        ("1,000 chars through EditableText", &r.editable_rt),
        ("native left_click + screenshot, round trip", &r.native.click_shot),
        ("computer.click + capture, round trip", &r.native.computer_click),
    ] {
        writeln!(out, "  {what:<44}{:>7.2}", v(s))?;
    }
    writeln!(
        out,
        "  {:<44}{:>7.0} KiB png, {:.0} KiB jpeg",
        "screenshot sizes", r.png_kib, r.jpeg_kib
    )?;
    writeln!(out, "{}", typing_line("XTest (ours)", &r.xtest))?;
    writeln!(out, "{}", typing_line("xdotool --delay 0", &r.xdotool))?;
    writeln!(out, "\n  {:<30}{:>12}{:>12}{:>8}  verdict", "goal", "value", "goal", "ratio")?;
    for g in goals(r) {
        let verdict = if g.pass() { "PASS" } else { "MISS" };
        writeln!(
            out,
            "  {:<30}{:>8.1} {:<4}{}{:>6.1} {:<4}{:>7.2}  {verdict}",
            g.metric,
            g.value,
            g.unit,
            if g.at_least { ">=" } else { "<=" },
            g.goal,
            g.unit,
            if g.goal == 0.0 { g.value } else { g.value / g.goal }
        )?;
    }
    Ok(())
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn series(s: &Series) -> Value {
    json!({"median": round2(s.value()), "rounds": s.rounds.iter().copied().map(round2).collect::<Vec<_>>()})
}

pub fn write_json(r: &Results, path: &Path) -> anyhow::Result<()> {
    let snaps: Vec<Value> = r
        .snapshots
        .iter()
        .map(|s| {
            json!({"app": s.app, "nodes": s.nodes, "pyatspi_nodes": s.pyatspi_nodes,
                   "full_ms": series(&s.full_rt), "full_in_daemon_ms": series(&s.full_daemon),
                   "unchanged_incremental_ms": series(&s.incremental_rt), "pyatspi_ms": series(&s.pyatspi),
                   "cpu_ms_per_full_snapshot": {"daemon": round2(s.cpu[0]), "app": round2(s.cpu[1]), "buses": round2(s.cpu[2])}})
        })
        .collect();
    let typing = |t: &Typing| json!({"chars_per_s": series(&t.chars_per_s), "runs": t.runs, "lossy_runs": t.lossy_runs, "worst_landed": t.worst_landed});
    let goals: Vec<Value> = goals(r)
        .iter()
        .map(|g| json!({"metric": g.metric, "value": round1(g.value), "goal": g.goal, "at_least": g.at_least, "unit": g.unit, "pass": g.pass()}))
        .collect();
    let doc = json!({
        "bench": "desktop",
        "rounds": r.rounds, "samples": r.samples,
        "loadavg": {"start": r.loadavg.0, "end": r.loadavg.1},
        "snapshots": snaps,
        "screenshot_ms": {"grab_in_daemon": series(&r.grab), "png_in_daemon": series(&r.png_daemon), "png_round_trip": series(&r.png_rt),
                          "jpeg_in_daemon": series(&r.jpeg_daemon), "jpeg_round_trip": series(&r.jpeg_rt),
                          "scrot": series(&r.scrot), "import": series(&r.import)},
        "click_ms": series(&r.click_rt),
        "editable_text_1000_ms": series(&r.editable_rt),
        "native_ms": {"left_click_and_screenshot": series(&r.native.click_shot),
                      "computer_click_and_capture": series(&r.native.computer_click),
                      "reference_sleep": super::native::REFERENCE_MS},
        "typing": {"xtest": typing(&r.xtest), "xdotool": typing(&r.xdotool)},
        "goals": goals,
    });
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(path, serde_json::to_string_pretty(&doc)? + "\n")
        .with_context(|| format!("writing {}", path.display()))
}
