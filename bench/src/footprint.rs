//! `cargo xtask bench footprint`: what one workspace costs and how that grows with more of
//! them on one machine. Each round starts release daemons, each on its own embedded desktop
//! (Xvfb, D-Bus, AT-SPI, openbox) with its own state dir and port, up to 1, 2, 4 and 8 at
//! once, keeping all up; each new one is timed to `/readyz` 200 and to its first browser
//! snapshot, then driven alone through the agent loop (`footprint/drive.rs`) and left idle;
//! at each count, after a settle, every tree's PSS and idle CPU are read
//! (`footprint/tree.rs`). Then one workspace on a trimmed Chromium (`footprint/trim.rs`) is
//! measured the same way beside it. Medians over rounds, a table with verdicts, the run as
//! JSON under the target dir and the figures for `deploy/kubernetes/footprint.json`.

mod drive;
mod report;
mod tree;
mod trim;

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};

use super::daemon::{self, ticks_per_second, Daemon};
use drive::{Agent, PeakSampler, Startup};
pub(super) use tree::Tree;

const USAGE: &str = "usage: cargo xtask bench footprint [--rounds R] [--counts 1,2,4,8] [--loops L] [--settle S] [--idle S] [--no-trim] [--no-write] | --tokens 1,2,4 [--rounds R]";

pub struct Options {
    pub rounds: usize,
    /// Workspaces up at each measuring point, ascending.
    pub counts: Vec<usize>,
    /// Agent loops per workspace (the first launches the app and is not timed for CPU).
    pub loops: usize,
    /// Seconds between the last drive and the idle window.
    pub settle: u64,
    /// The idle window's length in seconds.
    pub idle: u64,
    pub trim: bool,
    /// Write `deploy/kubernetes/footprint.json`.
    pub write: bool,
}

impl Options {
    fn parse(args: &[String]) -> anyhow::Result<Options> {
        let mut o = Options {
            rounds: 3,
            counts: vec![1, 2, 4, 8],
            loops: 4,
            settle: 5,
            idle: 10,
            trim: true,
            write: true,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = || it.next().with_context(|| format!("{arg} needs a value; {USAGE}"));
            match arg.as_str() {
                "--rounds" => o.rounds = value()?.parse()?,
                "--counts" => {
                    o.counts = value()?
                        .split(',')
                        .map(|n| n.trim().parse::<usize>())
                        .collect::<Result<_, _>>()
                        .with_context(|| format!("--counts takes numbers like 1,2,4,8; {USAGE}"))?
                }
                "--loops" => o.loops = value()?.parse()?,
                "--settle" => o.settle = value()?.parse()?,
                "--idle" => o.idle = value()?.parse()?,
                "--no-trim" => o.trim = false,
                "--no-write" => o.write = false,
                _ => bail!("unknown argument {arg:?}; {USAGE}"),
            }
        }
        if o.rounds == 0 || o.idle == 0 || o.loops < 2 {
            bail!("--rounds and --idle must be positive and --loops at least 2; {USAGE}");
        }
        if o.counts.first() != Some(&1) || o.counts.windows(2).any(|w| w[0] >= w[1]) {
            bail!("--counts must start at 1 and ascend (the growth is against one); {USAGE}");
        }
        Ok(o)
    }
}

/// One workspace as it came up and was driven.
#[derive(Debug, Clone)]
pub struct Workspace {
    pub startup: Startup,
    pub drive: drive::Drive,
}

/// One measuring point: `n` workspaces up, the ones started for it, and everyone idle.
#[derive(Debug, Clone)]
pub struct Level {
    pub n: usize,
    /// The workspaces started to reach `n` (1 for n = 1, the 5th to 8th for n = 8): their
    /// start-up and drive were measured with the others idle beside them.
    pub new: Vec<Workspace>,
    /// Every tree's PSS at the end of the idle window, in KiB.
    pub idle_pss_kib: Vec<u64>,
    /// And its private pages (USS).
    pub idle_uss_kib: Vec<u64>,
    /// Every tree's CPU over the idle window, in thousandths of a core.
    pub idle_millicores: Vec<f64>,
    /// The first workspace's tree at the end of the window (for the breakdown).
    pub first_tree: Tree,
}

/// One round: the levels, and the trimmed Chromium's single workspace.
#[derive(Debug, Clone)]
pub struct Round {
    pub levels: Vec<Level>,
    pub trimmed: Option<Level>,
    pub loadavg: String,
}

pub struct Results {
    /// The command line's arguments after `footprint`.
    pub args: Vec<String>,
    pub options: Options,
    pub rounds: Vec<Round>,
    pub loadavg: (String, String),
    /// Processes of the workspaces still running after they were all stopped.
    pub left: Vec<String>,
    pub chromium: String,
}

pub fn run(args: &[String]) -> anyhow::Result<()> {
    if args.iter().any(|a| a == "--tokens") {
        return super::parties::footprint(args);
    }
    let options = Options::parse(args)?;
    let bin = daemon::build()?;
    let out = super::target_dir()?.join("bench");
    std::fs::create_dir_all(&out)?;
    let trimmed = if options.trim { Some(trim::wrapper(&out)?) } else { None };
    let load_before = super::report::loadavg_all();
    eprintln!("bench: load average at start: {load_before}");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
    let mut seen = Vec::new();
    let measured = rt.block_on(all(&bin, &options, trimmed.as_deref(), &mut seen));
    // Every daemon was stopped on the way out (or dropped on an error); a process of theirs
    // that still runs is a leak.
    let left = leftovers(&seen);
    let rounds = measured?;
    let results = Results {
        args: args.to_vec(),
        options,
        rounds,
        loadavg: (load_before, super::report::loadavg_all()),
        left,
        chromium: chromium_version(),
    };
    report::print(&results)?;
    let path = out.join("footprint.json");
    report::write_json(&results, &path)?;
    eprintln!("bench: wrote {}", path.display());
    if results.options.write {
        let deploy = super::root().join("deploy/kubernetes/footprint.json");
        report::write_deploy(&results, &deploy)?;
        eprintln!(
            "bench: wrote {}; `python3 tests/deploy/check.py` says whether the manifests follow it",
            deploy.display()
        );
    }
    if !results.left.is_empty() {
        bail!("processes left running after the daemons stopped:\n{}", results.left.join("\n"));
    }
    Ok(())
}

async fn all(
    bin: &Path,
    o: &Options,
    trimmed: Option<&Path>,
    seen: &mut Vec<(u32, u64, String)>,
) -> anyhow::Result<Vec<Round>> {
    let site = super::site::serve(drive::page).await?;
    let mut rounds = Vec::new();
    for r in 1..=o.rounds {
        let loadavg = super::report::loadavg_all();
        eprintln!("bench: round {r} of {}, load average {loadavg}", o.rounds);
        let mut levels = Vec::new();
        let mut up: Vec<Daemon> = Vec::new();
        let result = async {
            for &n in &o.counts {
                let mut new = Vec::new();
                while up.len() < n {
                    let (d, w) = workspace(bin, &[], &site, o).await?;
                    up.push(d);
                    new.push(w);
                }
                levels.push(idle(&up, new, o, seen).await?);
            }
            anyhow::Ok(())
        }
        .await;
        let stopped = stop_all(&mut up);
        result?;
        stopped?;
        let trimmed = match trimmed {
            Some(program) => {
                let env = [("GLOVEBOX_CHROMIUM".to_owned(), program.display().to_string())];
                let (d, w) = workspace(bin, &env, &site, o).await?;
                let mut one = vec![d];
                let level = idle(&one, vec![w], o, seen).await;
                stop_all(&mut one)?;
                Some(level?)
            }
            None => None,
        };
        rounds.push(Round { levels, trimmed, loadavg });
    }
    Ok(rounds)
}

/// Start one daemon on its own embedded desktop, time it to ready and to the first
/// snapshot, drive it; it stays up.
async fn workspace(
    bin: &Path,
    env: &[(String, String)],
    site: &str,
    o: &Options,
) -> anyhow::Result<(Daemon, Workspace)> {
    let t0 = Instant::now();
    let d = Daemon::start_env(bin, "embedded", &[], env)?;
    let peak = PeakSampler::start(d.pid);
    let measured = async {
        let ready = drive::ready(&d, t0).await?;
        let (mut agent, first) = Agent::connect(&d, site, t0).await?;
        let drive = agent.drive(o.loops, &peak).await?;
        let startup = Startup {
            ready_ms: ready.as_secs_f64() * 1000.0,
            first_snapshot_ms: first.as_secs_f64() * 1000.0,
        };
        anyhow::Ok(Workspace { startup, drive })
    }
    .await;
    peak.sample(d.pid);
    let peak_kib = peak.finish();
    match measured {
        Ok(mut w) => {
            w.drive.peak_pss_kib = peak_kib;
            eprintln!(
                "bench: gloveboxd pid {} (DISPLAY={}): ready {:.0} ms, first snapshot {:.0} ms, peak {:.0} MiB, driven {:.0} m",
                d.pid,
                d.display,
                w.startup.ready_ms,
                w.startup.first_snapshot_ms,
                peak_kib as f64 / 1024.0,
                w.drive.driven_millicores
            );
            Ok((d, w))
        }
        Err(e) => {
            let tail = d.log_tail(30);
            Err(e.context(format!("gloveboxd pid {}; its log ends with:\n{tail}", d.pid)))
        }
    }
}

/// Let them all settle, then read every tree's CPU over the idle window and its PSS.
async fn idle(
    up: &[Daemon],
    mut new: Vec<Workspace>,
    o: &Options,
    seen: &mut Vec<(u32, u64, String)>,
) -> anyhow::Result<Level> {
    tokio::time::sleep(Duration::from_secs(o.settle)).await;
    let before: Vec<u64> = up.iter().map(|d| Tree::ticks(d.pid)).collect();
    let start = Instant::now();
    tokio::time::sleep(Duration::from_secs(o.idle)).await;
    let after: Vec<u64> = up.iter().map(|d| Tree::ticks(d.pid)).collect();
    let secs = start.elapsed().as_secs_f64();
    let trees: Vec<Tree> = up.iter().map(|d| Tree::read(d.pid)).collect();
    for t in &trees {
        for p in &t.procs {
            seen.push((p.pid, p.start, p.kind.to_owned()));
        }
    }
    // A workspace's peak is the highest PSS seen from its spawn to its first idle read (it
    // may still grow after the drive: a renderer kept warm, caches filled).
    let first_new = up.len() - new.len();
    for (w, t) in new.iter_mut().zip(&trees[first_new..]) {
        w.drive.peak_pss_kib = w.drive.peak_pss_kib.max(t.pss_kib());
    }
    let idle_millicores = before
        .iter()
        .zip(&after)
        .map(|(b, a)| a.saturating_sub(*b) as f64 / ticks_per_second() / secs * 1000.0)
        .collect();
    let level = Level {
        n: up.len(),
        new,
        idle_pss_kib: trees.iter().map(Tree::pss_kib).collect(),
        idle_uss_kib: trees.iter().map(Tree::uss_kib).collect(),
        idle_millicores,
        first_tree: trees.first().cloned().context("no workspace up")?,
    };
    eprintln!(
        "bench: {} up: idle PSS {:.0} MiB in all, idle CPU {:.1} m in all",
        level.n,
        level.idle_pss_kib.iter().sum::<u64>() as f64 / 1024.0,
        level.idle_millicores.iter().sum::<f64>()
    );
    Ok(level)
}

/// SIGTERM to each (the daemon stops its own desktop and Chromium); every one is stopped
/// even when one fails.
fn stop_all(up: &mut Vec<Daemon>) -> anyhow::Result<()> {
    let mut first_err = None;
    for mut d in up.drain(..) {
        match d.stop() {
            Ok(s) if s.success() => {}
            Ok(s) => {
                first_err.get_or_insert(anyhow::anyhow!("gloveboxd pid {} exited {s}", d.pid));
            }
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    first_err.map_or(Ok(()), Err)
}

/// The workspaces' processes (pid, start time) that still run.
fn leftovers(seen: &[(u32, u64, String)]) -> Vec<String> {
    let mut left: Vec<String> = seen
        .iter()
        .filter(|(pid, start, _)| tree::still_running(*pid, *start))
        .map(|(pid, _, kind)| format!("  pid {pid} ({kind})"))
        .collect();
    left.sort();
    left.dedup();
    left
}

fn chromium_version() -> String {
    std::process::Command::new("chromium")
        .arg("--version")
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|| "unknown".into())
}
