//! The tools we are compared with, run as separate processes against the daemon's own display
//! and buses: a pyatspi dump (Debian's `/usr/bin/python3`), `scrot`, `import -window root` and
//! `xdotool type --delay 0`. Wall time of a process, or a time the script measures itself.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context as _};
use serde_json::Value;

/// The pyatspi dump script (role, name, states, actions, extents per node).
const DUMP_PY: &str = include_str!("dump.py");

/// The environment variables that say which display and buses to use.
const KEEP: [&str; 6] = [
    "DISPLAY",
    "DBUS_SESSION_BUS_ADDRESS",
    "AT_SPI_BUS_ADDRESS",
    "XDG_RUNTIME_DIR",
    "XAUTHORITY",
    "HOME",
];

pub struct Env {
    vars: Vec<(String, String)>,
    scratch: PathBuf,
}

impl Env {
    /// The display and buses of process `pid` (an app the daemon launched on its desktop).
    pub fn of_pid(pid: u32, display: &str) -> anyhow::Result<Env> {
        let raw = std::fs::read(format!("/proc/{pid}/environ"))
            .with_context(|| format!("reading the environment of pid {pid}"))?;
        let mut vars: Vec<(String, String)> = raw
            .split(|b| *b == 0)
            .filter_map(|kv| std::str::from_utf8(kv).ok()?.split_once('='))
            .filter(|(k, _)| KEEP.contains(k))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        if !vars.iter().any(|(k, _)| k == "DISPLAY") {
            vars.push(("DISPLAY".to_owned(), display.to_owned()));
        }
        let scratch = std::env::temp_dir().join(format!("glovebox-bench-peers-{pid}"));
        std::fs::create_dir_all(&scratch)?;
        std::fs::write(scratch.join("dump.py"), DUMP_PY)?;
        Ok(Env { vars, scratch })
    }

    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        for k in KEEP {
            c.env_remove(k);
        }
        c.envs(self.vars.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        c
    }

    /// Runs to completion; its wall time in ms, failing on a non-zero exit.
    fn timed(&self, mut cmd: Command) -> anyhow::Result<f64> {
        let start = Instant::now();
        let out = cmd.output().with_context(|| format!("cannot run {cmd:?}"))?;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        if !out.status.success() {
            bail!("{cmd:?} failed ({}): {}", out.status, String::from_utf8_lossy(&out.stderr));
        }
        Ok(ms)
    }

    /// `runs` pyatspi dumps of the app with `pid` in one Python process: (nodes, ms per dump).
    pub fn pyatspi_dumps(&self, pid: u32, runs: usize) -> anyhow::Result<(u64, Vec<f64>)> {
        let out = self
            .command("/usr/bin/python3")
            .arg(self.scratch.join("dump.py"))
            .args([pid.to_string(), runs.to_string()])
            .output()
            .context("cannot run /usr/bin/python3 (apt-get install python3-pyatspi)")?;
        if !out.status.success() {
            bail!("the pyatspi dump failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        let v: Value = serde_json::from_slice(&out.stdout).context("the dump's output")?;
        let ms = v["ms"].as_array().context("no times")?.iter().filter_map(Value::as_f64);
        Ok((v["nodes"].as_u64().unwrap_or(0), ms.collect()))
    }

    /// `scrot -o <file>.png`: a full-screen PNG, wall time in ms.
    pub fn scrot(&self) -> anyhow::Result<f64> {
        let mut c = self.command("scrot");
        c.arg("-o").arg(self.scratch.join("scrot.png"));
        self.timed(c)
    }

    /// `import -window root <file>.png` (ImageMagick), wall time in ms.
    pub fn import(&self) -> anyhow::Result<f64> {
        let mut c = self.command("import");
        c.args(["-window", "root"]).arg(self.scratch.join("import.png"));
        self.timed(c)
    }

    /// `xdotool type --delay 0 <text>` into the focused widget, wall time in ms.
    pub fn xdotool_type(&self, text: &str) -> anyhow::Result<f64> {
        let mut c = self.command("xdotool");
        c.args(["type", "--delay", "0", "--", text]);
        self.timed(c)
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}
