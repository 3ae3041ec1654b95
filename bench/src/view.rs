//! `cargo xtask bench view`: the view page's live desktop as a person's browser gets it. The
//! release `gloveboxd` on its embedded desktop; the bench takes a view link, trades its code
//! for the cookie and opens `/view/socket` as the page does (acking each frame). It then
//! changes the screen itself through its own X connection and measures, per round: the time
//! from the X request that damages the screen to the last byte of the frame showing it
//! (received over loopback, so an upper bound of damage → last byte written), frames per
//! second while a window moves, bytes per frame, and the daemon's CPU on an idle screen.

mod socket;

use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde_json::{json, Value};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{
    ChangeWindowAttributesAux, ConfigureWindowAux, ConnectionExt as _, CreateWindowAux, WindowClass,
};

use super::client::Client;
use super::daemon::{self, ticks_per_second, Daemon};
use super::stats::{median, round1, Summary};
use socket::Page;

/// Goals of issue 19 (Deliver 5).
const P50_GOAL_MS: f64 = 50.0;
const P99_GOAL_MS: f64 = 150.0;
const FPS_GOAL: f64 = 20.0;
const IDLE_CPU_GOAL: f64 = 1.0;
/// A frame later than this after a change counts as missed.
const FRAME_DEADLINE: Duration = Duration::from_secs(2);
/// No frame for this long: the screen is idle.
const QUIET: Duration = Duration::from_millis(300);

struct Options {
    rounds: usize,
    samples: usize,
    drag_s: f64,
    idle_s: f64,
}

impl Options {
    fn parse(args: &[String]) -> anyhow::Result<Options> {
        let mut o = Options { rounds: 3, samples: 40, drag_s: 3.0, idle_s: 10.0 };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = || it.next().with_context(|| format!("{arg} needs a value"));
            match arg.as_str() {
                "--rounds" => o.rounds = value()?.parse()?,
                "--samples" => o.samples = value()?.parse()?,
                "--drag" => o.drag_s = value()?.parse()?,
                "--idle" => o.idle_s = value()?.parse()?,
                _ => bail!("unknown argument {arg:?}; usage: cargo xtask bench view [--rounds R] [--samples N] [--drag S] [--idle S]"),
            }
        }
        if o.rounds == 0 || o.samples == 0 || o.drag_s <= 0.0 || o.idle_s <= 0.0 {
            bail!("--rounds, --samples, --drag and --idle must be positive");
        }
        Ok(o)
    }
}

/// One round's figures.
struct Round {
    latency: Summary,
    missed: usize,
    fps: f64,
    drag_frame_bytes: f64,
    change_frame_bytes: f64,
    idle_cpu_pct: f64,
    idle_frames: usize,
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let o = Options::parse(args)?;
    let bin = daemon::build()?;
    let load_before = super::report::loadavg();
    let mut d = Daemon::start_on(&bin, "embedded")?;
    eprintln!("bench: gloveboxd pid {} at {} (DISPLAY={})", d.pid, d.url, d.display);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let measured = rt.block_on(measure(&d, &o));
    let log = if measured.is_err() { d.log_tail(30) } else { String::new() };
    let exit = d.stop();
    let (rounds, screen) = measured.with_context(|| format!("the daemon log ends with:\n{log}"))?;
    exit?;
    let load = (load_before, super::report::loadavg());
    let out = report(&rounds, screen, &load)?;
    let path = super::target_dir()?.join("bench").join("view.json");
    std::fs::create_dir_all(path.parent().context("a parent")?)?;
    std::fs::write(&path, serde_json::to_string_pretty(&out)?)?;
    eprintln!("bench: wrote {}", path.display());
    Ok(())
}

async fn measure(d: &Daemon, o: &Options) -> anyhow::Result<(Vec<Round>, (u32, u32))> {
    let mut c = Client::connect(&d.url, &d.token).await?;
    c.hello().await?;
    let (answer, _) = c.call("view.link", "{}").await?;
    let v: Value = serde_json::from_str(&answer)?;
    let path = v["result"]["path"].as_str().with_context(|| format!("view.link: {answer}"))?;
    let addr = d.url.trim_start_matches("ws://").trim_end_matches("/rpc").to_owned();
    let mut page = Page::open(&addr, path).await?;
    let screen = page.screen;
    eprintln!("bench: view socket open, screen {}x{}", screen.0, screen.1);

    let (conn, n) = x11rb::connect(Some(&d.display)).context("the bench's X connection")?;
    let root = conn.setup().roots[n].root;
    let win = conn.generate_id()?;
    let aux = CreateWindowAux::new().background_pixel(0x0020_4080).override_redirect(1);
    conn.create_window(0, win, root, 100, 100, 240, 160, 0, WindowClass::INPUT_OUTPUT, 0, &aux)?;
    conn.map_window(win)?;
    conn.get_input_focus()?.reply()?;

    let mut rounds = Vec::new();
    for r in 0..o.rounds {
        // Changes: a new background on the window, then a round trip so the server did it.
        let mut samples = Vec::new();
        let (mut missed, mut bytes) = (0, Vec::new());
        for i in 0..o.samples {
            page.wait_quiet(QUIET, Duration::from_secs(10)).await?;
            let pixel = 0x0040_0000 | ((i as u32 * 37 % 256) << 8) | (r as u32 * 50 % 256);
            let start = Instant::now();
            conn.change_window_attributes(
                win,
                &ChangeWindowAttributesAux::new().background_pixel(pixel),
            )?;
            conn.clear_area(false, win, 0, 0, 0, 0)?;
            conn.get_input_focus()?.reply()?;
            match page.next_frame_after(start, FRAME_DEADLINE).await? {
                Some((at, len)) => {
                    samples.push(at - start);
                    bytes.push(len as f64);
                }
                None => missed += 1,
            }
        }
        let latency = Summary::of(&mut samples);

        // A window moving across the screen every 10 ms for drag_s.
        page.wait_quiet(QUIET, Duration::from_secs(10)).await?;
        let start = Instant::now();
        let before = page.frames.len();
        let mut step = 0i32;
        let span = Duration::from_secs_f64(o.drag_s);
        let mut tick = tokio::time::interval(Duration::from_millis(10));
        while start.elapsed() < span {
            tick.tick().await;
            step += 1;
            let x = 100 + (step * 6) % 800;
            let y = 100 + (step * 3) % 400;
            conn.configure_window(win, &ConfigureWindowAux::new().x(x).y(y))?;
            conn.flush()?;
            page.pump(Duration::ZERO).await?;
        }
        page.pump(Duration::from_millis(50)).await?;
        let moved: Vec<_> =
            page.frames[before..].iter().filter(|(at, _)| *at <= start + span).cloned().collect();
        let fps = moved.len() as f64 / o.drag_s;
        let drag_bytes = median(&moved.iter().map(|(_, b)| *b as f64).collect::<Vec<_>>());

        // Idle: the page open, nothing changing.
        page.wait_quiet(QUIET, Duration::from_secs(10)).await?;
        let ticks = d.cpu_ticks()?;
        let before = page.frames.len();
        let t0 = Instant::now();
        page.pump(Duration::from_secs_f64(o.idle_s)).await?;
        let secs = t0.elapsed().as_secs_f64();
        let cpu = (d.cpu_ticks()? - ticks) as f64 / ticks_per_second() / secs * 100.0;
        let idle_frames = page.frames.len() - before;

        let round = Round {
            latency,
            missed,
            fps,
            drag_frame_bytes: drag_bytes,
            change_frame_bytes: median(&bytes),
            idle_cpu_pct: cpu,
            idle_frames,
        };
        eprintln!(
            "bench: round {}: damage→frame p50 {:.1} ms p99 {:.1} ms ({} missed), {:.1} frames/s moving, idle CPU {:.2} %",
            r + 1,
            round.latency.p50 / 1000.0,
            round.latency.p99 / 1000.0,
            round.missed,
            round.fps,
            round.idle_cpu_pct
        );
        rounds.push(round);
    }
    conn.destroy_window(win)?;
    conn.flush()?;
    Ok((rounds, screen))
}

/// Prints the table with verdicts; the JSON written beside it.
fn report(rounds: &[Round], screen: (u32, u32), load: &(String, String)) -> anyhow::Result<Value> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let lat = Summary::median_of(&rounds.iter().map(|r| r.latency).collect::<Vec<_>>());
    let m = |f: fn(&Round) -> f64| median(&rounds.iter().map(f).collect::<Vec<_>>());
    let (p50, p99) = (lat.p50 / 1000.0, lat.p99 / 1000.0);
    let fps = m(|r| r.fps);
    let cpu = m(|r| r.idle_cpu_pct);
    let missed: usize = rounds.iter().map(|r| r.missed).sum();
    let idle_frames: usize = rounds.iter().map(|r| r.idle_frames).sum();
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    writeln!(
        out,
        "view bench: {} rounds, screen {}x{}, load average {} → {}",
        rounds.len(),
        screen.0,
        screen.1,
        load.0,
        load.1
    )?;
    writeln!(out, "| measure | median of rounds | goal | verdict |")?;
    writeln!(out, "|---|---|---|---|")?;
    writeln!(
        out,
        "| X change → frame's last byte, p50 | {p50:.1} ms | ≤ {P50_GOAL_MS} ms | {} |",
        verdict(p50 <= P50_GOAL_MS)
    )?;
    writeln!(
        out,
        "| X change → frame's last byte, p99 | {p99:.1} ms | ≤ {P99_GOAL_MS} ms | {} |",
        verdict(p99 <= P99_GOAL_MS)
    )?;
    writeln!(
        out,
        "| changes with no frame within 2 s | {missed} of {} | 0 | {} |",
        lat.n + missed,
        verdict(missed == 0)
    )?;
    writeln!(
        out,
        "| frames/s while a window moves | {fps:.1} | ≥ {FPS_GOAL} | {} |",
        verdict(fps >= FPS_GOAL)
    )?;
    writeln!(
        out,
        "| daemon CPU, page open, idle screen | {cpu:.2} % of a core | ≤ {IDLE_CPU_GOAL} % | {} |",
        verdict(cpu <= IDLE_CPU_GOAL)
    )?;
    writeln!(
        out,
        "| frames sent while idle | {idle_frames} | 0 | {} |",
        verdict(idle_frames == 0)
    )?;
    writeln!(
        out,
        "| bytes per frame, one window changed | {:.0} | | |",
        m(|r| r.change_frame_bytes)
    )?;
    writeln!(out, "| bytes per frame, a window moving | {:.0} | | |", m(|r| r.drag_frame_bytes))?;
    Ok(json!({
        "screen": [screen.0, screen.1],
        "loadavg": [load.0, load.1],
        "latency_ms": {"p50": round1(p50), "p99": round1(p99), "max": round1(lat.max / 1000.0), "n": lat.n, "missed": missed},
        "fps_moving": round1(fps),
        "idle_cpu_pct": (cpu * 100.0).round() / 100.0,
        "idle_frames": idle_frames,
        "bytes_per_frame": {"change": m(|r| r.change_frame_bytes).round(), "moving": m(|r| r.drag_frame_bytes).round()},
        "goals": {"p50_ms": P50_GOAL_MS, "p99_ms": P99_GOAL_MS, "fps": FPS_GOAL, "idle_cpu_pct": IDLE_CPU_GOAL},
        "rounds": rounds.iter().map(|r| json!({
            "latency": r.latency.to_json(), "missed": r.missed, "fps_moving": round1(r.fps),
            "idle_cpu_pct": (r.idle_cpu_pct * 100.0).round() / 100.0, "idle_frames": r.idle_frames,
        })).collect::<Vec<_>>(),
    }))
}
