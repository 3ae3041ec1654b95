//! The daemon under test: the release `gloveboxd` built, started on port 0 in a throwaway
//! state dir, watched through `/proc` (memory, CPU time) and stopped with SIGTERM.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context as _};

/// Long enough for `--desktop auto` to start Xvfb, D-Bus, AT-SPI and a window manager.
const START_DEADLINE: Duration = Duration::from_secs(60);
const STOP_DEADLINE: Duration = Duration::from_secs(30);

/// `cargo build --release -p glovebox-daemon --bin gloveboxd`; the binary's path. With
/// `GLOVEBOX_BENCH_PROFILE=debug` the debug build instead (slower; for a machine where a
/// release build of every dependency would take too long).
pub fn build() -> anyhow::Result<PathBuf> {
    let debug = std::env::var("GLOVEBOX_BENCH_PROFILE").is_ok_and(|p| p == "debug");
    let mut args = vec!["build", "-p", "glovebox-daemon", "--bin", "gloveboxd"];
    if !debug {
        args.insert(1, "--release");
    }
    eprintln!("bench: $ cargo {}", args.join(" "));
    let status = super::cargo(&args).status().context("cannot run cargo")?;
    if !status.success() {
        bail!("building gloveboxd failed ({status})");
    }
    let profile = if debug { "debug" } else { "release" };
    Ok(super::target_dir()?.join(profile).join("gloveboxd"))
}

pub struct Daemon {
    child: Child,
    pub pid: u32,
    pub url: String,
    pub token: String,
    pub display: String,
    pub state: PathBuf,
}

/// What `/proc/<pid>/status` says about memory, in KiB.
#[derive(Clone, Copy, Debug)]
pub struct Memory {
    pub rss_kib: u64,
    pub hwm_kib: u64,
}

impl Daemon {
    /// `gloveboxd --listen 127.0.0.1:0 --state-dir <tmp> --desktop auto`, banner read.
    pub fn start(bin: &Path) -> anyhow::Result<Daemon> {
        Daemon::start_on(bin, "auto")
    }

    /// The same with `--desktop <desktop>` (`embedded`: a private Xvfb, buses and openbox).
    pub fn start_on(bin: &Path, desktop: &str) -> anyhow::Result<Daemon> {
        Daemon::start_with(bin, desktop, &[])
    }

    /// The same with more flags.
    pub fn start_with(bin: &Path, desktop: &str, extra: &[String]) -> anyhow::Result<Daemon> {
        Daemon::start_prepared(bin, desktop, |_| Ok(extra.to_vec()), &[])
    }

    /// The same with more environment variables (`GLOVEBOX_CHROMIUM`, say).
    pub fn start_env(
        bin: &Path,
        desktop: &str,
        extra: &[String],
        env: &[(String, String)],
    ) -> anyhow::Result<Daemon> {
        Daemon::start_prepared(bin, desktop, |_| Ok(extra.to_vec()), env)
    }

    /// The same, with `prepare` first given the fresh state dir to write files into (a
    /// token file there replaces the generated one); it answers the extra flags.
    pub fn start_prepared(
        bin: &Path,
        desktop: &str,
        prepare: impl FnOnce(&Path) -> anyhow::Result<Vec<String>>,
        env: &[(String, String)],
    ) -> anyhow::Result<Daemon> {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH)?.subsec_nanos();
        let state =
            std::env::temp_dir().join(format!("glovebox-bench-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&state).with_context(|| format!("creating {}", state.display()))?;
        let extra = prepare(&state)?;
        // The daemon's token file keeps hashes only: a token is made first, the way a user
        // makes one, unless `prepare` wrote a file of its own (plain tokens, which it knows).
        let made = if state.join("token").exists() {
            None
        } else {
            let out = Command::new(bin)
                .args(["token", "add", "--state-dir"])
                .arg(&state)
                .env_remove("GLOVEBOX_TOKEN")
                .output()
                .with_context(|| format!("cannot run {} token add", bin.display()))?;
            anyhow::ensure!(out.status.success(), "gloveboxd token add failed");
            Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
        };
        let log = std::fs::File::create(state.join("gloveboxd.log"))?;
        let mut child = Command::new(bin)
            .args(["--listen", "127.0.0.1:0", "--desktop", desktop, "--state-dir"])
            .arg(&state)
            .args(&extra)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env_remove("GLOVEBOX_TOKEN")
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .with_context(|| format!("cannot start {}", bin.display()))?;
        let pid = child.id();
        let stdout = child.stdout.take().context("no stdout")?;
        let (tx, rx) = mpsc::channel();
        // Keeps draining after the banner so the daemon never writes into a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let mut daemon = Daemon {
            child,
            pid,
            url: String::new(),
            token: made.unwrap_or_default(),
            display: String::new(),
            state,
        };
        if let Err(e) = daemon.read_banner(&rx) {
            let tail = daemon.log_tail(20);
            let _ = daemon.stop();
            return Err(e.context(format!("the daemon log ends with:\n{tail}")));
        }
        Ok(daemon)
    }

    fn read_banner(&mut self, rx: &mpsc::Receiver<String>) -> anyhow::Result<()> {
        let deadline = Instant::now() + START_DEADLINE;
        let first =
            rx.recv_timeout(deadline.saturating_duration_since(Instant::now())).map_err(|_| {
                anyhow::anyhow!("gloveboxd printed no banner within {START_DEADLINE:?}")
            })?;
        let addr = first
            .strip_prefix("gloveboxd listening on ws://")
            .and_then(|r| r.strip_suffix("/rpc"))
            .with_context(|| format!("unexpected first line {first:?}"))?;
        self.url = format!("ws://{addr}/rpc");
        // The rest of the banner comes once the desktop is up and calls are taken (the port
        // answers before, refusing calls): its `desktop:` line is when the bench may start.
        loop {
            let line =
                rx.recv_timeout(deadline.saturating_duration_since(Instant::now())).map_err(
                    |_| anyhow::anyhow!("gloveboxd took no calls within {START_DEADLINE:?}"),
                )?;
            if let Some(d) = line.trim().strip_prefix("desktop: DISPLAY=") {
                let (display, xauth) = d.split_once(" XAUTHORITY=").unwrap_or((d, ""));
                self.display = display.to_owned();
                // The bench's own X connections (held keys, the load witness) need the
                // embedded display's cookie; x11rb reads it from here.
                if !xauth.is_empty() {
                    std::env::set_var("XAUTHORITY", xauth);
                }
                break;
            }
        }
        if !self.token.is_empty() {
            return Ok(());
        }
        let text =
            std::fs::read_to_string(self.state.join("token")).context("reading the token file")?;
        self.token = text
            .lines()
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_owned();
        if self.token.is_empty() {
            bail!("the token file is empty");
        }
        Ok(())
    }

    pub fn log(&self) -> PathBuf {
        self.state.join("gloveboxd.log")
    }

    /// The last `n` lines of the daemon's stderr.
    pub fn log_tail(&self, n: usize) -> String {
        let text = std::fs::read_to_string(self.log()).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(n)..].join("\n")
    }

    pub fn memory(&self) -> anyhow::Result<Memory> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid))?;
        let kib = |key: &str| -> anyhow::Result<u64> {
            let line =
                status.lines().find(|l| l.starts_with(key)).with_context(|| format!("no {key}"))?;
            Ok(line[key.len()..].trim().trim_end_matches("kB").trim().parse()?)
        };
        Ok(Memory { rss_kib: kib("VmRSS:")?, hwm_kib: kib("VmHWM:")? })
    }

    /// CPU time used by the daemon process (all its threads), in clock ticks.
    pub fn cpu_ticks(&self) -> anyhow::Result<u64> {
        cpu_ticks(&format!("/proc/{}/stat", self.pid))
    }

    /// SIGTERM through `kill`, then wait; the daemon stops its own desktop on the way out.
    pub fn stop(&mut self) -> anyhow::Result<ExitStatus> {
        if let Some(status) = self.child.try_wait()? {
            return Ok(status);
        }
        Command::new("kill").args(["-TERM", &self.pid.to_string()]).status()?;
        let deadline = Instant::now() + STOP_DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait()? {
                let _ = std::fs::remove_dir_all(&self.state);
                return Ok(status);
            }
            if Instant::now() > deadline {
                self.child.kill()?;
                self.child.wait()?;
                bail!("gloveboxd did not exit within {STOP_DEADLINE:?} of SIGTERM; killed");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.stop();
        }
    }
}

/// utime + stime from a `/proc/.../stat` file (fields 14 and 15).
pub fn cpu_ticks(path: &str) -> anyhow::Result<u64> {
    let stat = std::fs::read_to_string(path)?;
    let after_name = stat.rsplit_once(')').map(|(_, rest)| rest).context("odd stat")?;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let utime: u64 = fields.get(11).context("no utime")?.parse()?;
    let stime: u64 = fields.get(12).context("no stime")?.parse()?;
    Ok(utime + stime)
}

/// Clock ticks per second (`getconf CLK_TCK`; 100 on every Linux we run on).
pub fn ticks_per_second() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}
