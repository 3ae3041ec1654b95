//! The measurements, in the order an agent would meet them: snapshots, screenshots, a click
//! by ref, text through EditableText, then keyboard typing with a read-back for lost
//! characters. Each runs `rounds` x `samples` (typing: one sample per round) after warm-up.

use anyhow::{bail, Context as _};
use serde_json::{json, Value};

use super::cpu::Ticks;
use super::peers::Env;
use super::{App, Bench, Series};

/// Snapshot figures for one app.
#[derive(Debug, Default)]
pub struct SnapshotFigures {
    pub app: &'static str,
    pub nodes: u64,
    pub pyatspi_nodes: u64,
    /// Characters of the snapshot text.
    pub chars: usize,
    pub full_rt: Series,
    pub full_daemon: Series,
    pub incremental_rt: Series,
    pub pyatspi: Series,
    /// CPU ms per full snapshot: daemon, app, buses (all rounds together).
    pub cpu: [f64; 3],
}

/// Typing figures for one way of typing: chars/s per run and the runs that lost characters.
#[derive(Debug, Default)]
pub struct Typing {
    pub chars_per_s: Series,
    pub lossy_runs: usize,
    pub runs: usize,
    pub worst_landed: usize,
}

#[derive(Debug, Default)]
pub struct Results {
    pub rounds: usize,
    pub samples: usize,
    pub loadavg: (String, String),
    pub snapshots: Vec<SnapshotFigures>,
    /// Reading the pixels from the X server (part of both in-daemon figures).
    pub grab: Series,
    /// Size of the last PNG and JPEG, in KiB.
    pub png_kib: f64,
    pub jpeg_kib: f64,
    pub png_daemon: Series,
    pub png_rt: Series,
    pub jpeg_daemon: Series,
    pub jpeg_rt: Series,
    pub scrot: Series,
    pub import: Series,
    pub click_rt: Series,
    pub editable_rt: Series,
    pub xtest: Typing,
    pub xdotool: Typing,
    pub native: super::native::Native,
}

/// 1,000 characters of plain keyboard text: letters both cases, digits, punctuation, spaces.
pub fn thousand_chars() -> String {
    let base = "The quick brown fox jumps over the lazy dog; PACK MY BOX with 5 dozen jugs (7/9)! ";
    base.chars().cycle().take(1000).collect()
}

const WARMUP: usize = 2;

pub async fn all(
    b: &mut Bench,
    env: &Env,
    mousepad: &App,
    demo: &App,
    native: super::native::Native,
) -> anyhow::Result<Results> {
    let mut r = Results { rounds: b.o.rounds, samples: b.o.samples, native, ..Results::default() };
    for app in [mousepad, demo] {
        r.snapshots.push(snapshots(b, env, app).await?);
    }
    screenshots(b, env, &mut r).await?;
    click(b, mousepad, &mut r).await?;
    text(b, env, mousepad, &mut r).await?;
    Ok(r)
}

async fn snapshots(b: &mut Bench, env: &Env, app: &App) -> anyhow::Result<SnapshotFigures> {
    let mut f = SnapshotFigures { app: app.name, ..SnapshotFigures::default() };
    let full = json!({"app_id": app.app_id, "disable_diffing": true, "limit": 5000});
    let diffed = json!({"app_id": app.app_id, "limit": 5000});
    for _ in 0..WARMUP {
        b.call("computer.snapshot", full.clone()).await?;
    }
    let (mut cpu, mut full_samples) = (Ticks::default(), 0);
    let mut cpu_end = cpu;
    for round in 1..=b.o.rounds {
        let (mut rt, mut daemon, mut inc) = (Vec::new(), Vec::new(), Vec::new());
        let start = Ticks::now(b.pid, app.pid);
        for _ in 0..b.o.samples {
            let a = b.call("computer.snapshot", full.clone()).await?;
            rt.push(a.ms);
            daemon.push(a.outcome["timing"]["exec_ms"].as_f64().unwrap_or(f64::NAN));
            f.nodes = a.result()["lines"].as_u64().unwrap_or(0);
            f.chars = a.result()["snapshot"].as_str().map_or(0, str::len);
        }
        let end = Ticks::now(b.pid, app.pid);
        cpu.daemon += start.daemon;
        cpu.app += start.app;
        cpu.buses += start.buses;
        cpu_end.daemon += end.daemon;
        cpu_end.app += end.app;
        cpu_end.buses += end.buses;
        full_samples += b.o.samples;
        // The diffed snapshot right after a full one: nothing changed in between.
        b.call("computer.snapshot", diffed.clone()).await?;
        for _ in 0..b.o.samples {
            let a = b.call("computer.snapshot", diffed.clone()).await?;
            let v = a.result();
            if v["mode"] != "incremental" || v["added"] != 0 || v["updated"] != 0 {
                bail!("{}: the repeated snapshot was not an unchanged incremental: {v}", app.name);
            }
            inc.push(a.ms);
        }
        let (nodes, dumps) = env.pyatspi_dumps(app.pid, b.o.samples)?;
        f.pyatspi_nodes = nodes;
        f.full_rt.push_round(&rt);
        f.full_daemon.push_round(&daemon);
        f.incremental_rt.push_round(&inc);
        f.pyatspi.push_round(&dumps);
        eprintln!(
            "bench: {} round {round}: full {:.1} ms ({} nodes, {} chars), unchanged incremental {:.1} ms, pyatspi {:.1} ms ({nodes} nodes)",
            app.name,
            f.full_rt.rounds[round - 1],
            f.nodes,
            f.chars,
            f.incremental_rt.rounds[round - 1],
            f.pyatspi.rounds[round - 1],
        );
    }
    f.cpu = cpu.per_step(cpu_end, full_samples);
    Ok(f)
}

/// The decoded size of a screenshot result's base64 data, in KiB.
fn kib(v: &Value) -> f64 {
    v["data"].as_str().map_or(0.0, |d| d.len() as f64 * 0.75 / 1024.0)
}

/// The daemon's own capture + encode time from the screenshot result, and the capture alone.
fn in_daemon(v: &Value) -> anyhow::Result<(f64, f64)> {
    let t = &v["timing"];
    match (t["grab_ms"].as_f64(), t["encode_ms"].as_f64()) {
        (Some(g), Some(e)) => Ok((g + e, g)),
        _ => bail!("the screenshot result has no timing.grab_ms/encode_ms: {t}"),
    }
}

async fn screenshots(b: &mut Bench, env: &Env, r: &mut Results) -> anyhow::Result<()> {
    let png = json!({"format": "png"});
    let jpeg = json!({"format": "jpeg", "quality": 80});
    for _ in 0..WARMUP {
        b.call("computer.screenshot", png.clone()).await?;
        b.call("computer.screenshot", jpeg.clone()).await?;
        env.scrot()?;
        env.import()?;
    }
    for round in 1..=b.o.rounds {
        let mut s: [Vec<f64>; 6] = Default::default();
        let mut grab = Vec::new();
        for _ in 0..b.o.samples {
            let a = b.call("computer.screenshot", png.clone()).await?;
            let v = a.result();
            if v["width"] != 1280 || v["height"] != 800 {
                bail!("expected a 1280x800 screen, got {}x{}", v["width"], v["height"]);
            }
            let (total, g) = in_daemon(v)?;
            s[0].push(total);
            grab.push(g);
            s[1].push(a.ms);
            r.png_kib = kib(v);
            let a = b.call("computer.screenshot", jpeg.clone()).await?;
            s[2].push(in_daemon(a.result())?.0);
            r.jpeg_kib = kib(a.result());
            s[3].push(a.ms);
            s[4].push(env.scrot()?);
            s[5].push(env.import()?);
        }
        let series = [
            &mut r.png_daemon,
            &mut r.png_rt,
            &mut r.jpeg_daemon,
            &mut r.jpeg_rt,
            &mut r.scrot,
            &mut r.import,
        ];
        for (dst, samples) in series.into_iter().zip(&s) {
            dst.push_round(samples);
        }
        r.grab.push_round(&grab);
        eprintln!(
            "bench: screenshot round {round}: png {:.1} ms in daemon ({:.1} round trip), jpeg {:.1} ({:.1}), scrot {:.1}, import {:.1}",
            r.png_daemon.rounds[round - 1], r.png_rt.rounds[round - 1], r.jpeg_daemon.rounds[round - 1],
            r.jpeg_rt.rounds[round - 1], r.scrot.rounds[round - 1], r.import.rounds[round - 1]
        );
    }
    Ok(())
}

/// Clicks mousepad's "Match case" check box (its search bar opened with ctrl+f) by ref; an
/// even number of clicks per round leaves it as it was.
async fn click(b: &mut Bench, mousepad: &App, r: &mut Results) -> anyhow::Result<()> {
    b.focus(mousepad).await?;
    b.call("computer.key", json!({"app_id": mousepad.app_id, "key": "ctrl+f"})).await?;
    let check = b.wait_line(mousepad, &["check box", "Match case"]).await?;
    let params = json!({"app_id": mousepad.app_id, "ref": check, "capture": false});
    for _ in 0..WARMUP {
        b.call("computer.click", params.clone()).await?;
    }
    let n = b.o.samples.div_ceil(2) * 2;
    for round in 1..=b.o.rounds {
        let mut rt = Vec::new();
        for _ in 0..n {
            let a = b.call("computer.click", params.clone()).await?;
            if !a.result()["via"].as_str().unwrap_or_default().starts_with("accessibility") {
                bail!("the click did not go through the accessibility action: {}", a.result());
            }
            rt.push(a.ms);
        }
        r.click_rt.push_round(&rt);
        eprintln!("bench: click round {round}: {:.2} ms", r.click_rt.rounds[round - 1]);
    }
    b.call("computer.key", json!({"app_id": mousepad.app_id, "key": "Escape"})).await?;
    Ok(())
}

/// mousepad's text view: clear it, then 1,000 characters through EditableText, through our
/// XTest typing and through `xdotool type --delay 0`, each read back.
async fn text(b: &mut Bench, env: &Env, mousepad: &App, r: &mut Results) -> anyhow::Result<()> {
    let view = b.wait_line(mousepad, &["text", "editable"]).await?;
    let text = thousand_chars();
    let el = |extra: Value| {
        let mut p = json!({"app_id": mousepad.app_id, "ref": view, "capture": false});
        if let (Some(p), Some(e)) = (p.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        p
    };
    let clear_params = el(json!({"text": ""}));
    for round in 0..=b.o.rounds {
        let mut rt = Vec::new();
        for _ in 0..b.o.samples {
            clear(b, &clear_params).await?;
            let a = b.call("computer.type", el(json!({"text": text}))).await?;
            if a.result()["via"] != "accessibility:insert_text" {
                bail!("typing by ref did not use EditableText: {}", a.result());
            }
            rt.push(a.ms);
            let landed = read_back(b, &el(json!({}))).await?;
            if landed != text {
                bail!("EditableText: {} of 1000 characters landed", landed.chars().count());
            }
        }
        // Round 0 is warm-up.
        if round > 0 {
            r.editable_rt.push_round(&rt);
            eprintln!(
                "bench: EditableText round {round}: {:.2} ms",
                r.editable_rt.rounds[round - 1]
            );
        }
    }
    for round in 1..=b.o.rounds {
        clear(b, &clear_params).await?;
        let a =
            b.call("computer.type", el(json!({"text": text, "dispatch": "foreground"}))).await?;
        if a.result()["via"] != "xtest" {
            bail!("foreground typing did not use XTest: {}", a.result());
        }
        let landed = settle_read_back(b, &el(json!({})), &text).await?;
        count(&mut r.xtest, &text, &landed, a.ms);
        clear(b, &clear_params).await?;
        // The text view keeps the keyboard focus our typing gave it.
        let ms = env.xdotool_type(&text)?;
        let landed = settle_read_back(b, &el(json!({})), &text).await?;
        count(&mut r.xdotool, &text, &landed, ms);
        eprintln!(
            "bench: typing round {round}: xtest {:.0} chars/s, xdotool {:.0} chars/s",
            r.xtest.chars_per_s.rounds[round - 1],
            r.xdotool.chars_per_s.rounds[round - 1]
        );
    }
    clear(b, &clear_params).await?;
    Ok(())
}

async fn read_back(b: &mut Bench, el: &Value) -> anyhow::Result<String> {
    let a = b.call("computer.get_text", el.clone()).await?;
    Ok(a.result()["text"].as_str().context("get_text gave no text")?.to_owned())
}

/// Reads back until the text is `want`, or for 10 s (the app may still be handling queued
/// keys when the typing call returns; a busy machine delays them).
async fn settle_read_back(b: &mut Bench, el: &Value, want: &str) -> anyhow::Result<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let now = read_back(b, el).await?;
        if now == want || std::time::Instant::now() > deadline {
            return Ok(now);
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Empties the text view through EditableText (again if a late keystroke lands meanwhile).
async fn clear(b: &mut Bench, params: &Value) -> anyhow::Result<()> {
    for _ in 0..10 {
        if b.call("computer.fill", params.clone()).await.is_ok() {
            return Ok(());
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    bail!("the text view could not be emptied")
}

fn count(t: &mut Typing, want: &str, landed: &str, ms: f64) {
    let n = want.chars().count();
    t.chars_per_s.rounds.push(n as f64 / (ms / 1000.0));
    t.runs += 1;
    let got = landed.chars().count();
    if t.runs == 1 || got < t.worst_landed {
        t.worst_landed = got;
    }
    if landed != want {
        t.lossy_runs += 1;
    }
}
