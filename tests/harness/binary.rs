//! The `gloveboxd` binary as a user runs it: spawned with flags, its banner read for the
//! address, stopped with SIGTERM.

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{TempDir, DEADLINE};

/// The daemon binary: `$GLOVEBOX_BIN`, else the one next to this test executable, built on
/// first use when missing.
pub fn gloveboxd() -> PathBuf {
    if let Some(p) = std::env::var_os("GLOVEBOX_BIN") {
        return PathBuf::from(p);
    }
    // <target>/<profile>/deps/<test exe>: build into the same target dir and profile.
    let exe = std::env::current_exe().expect("test exe");
    let profile_dir = exe.parent().and_then(|d| d.parent()).expect("target/<profile>");
    let target_dir = profile_dir.parent().expect("target");
    let bin = profile_dir.join("gloveboxd");
    static BUILD: std::sync::Once = std::sync::Once::new();
    BUILD.call_once(|| {
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["build", "-p", "glovebox-daemon", "--bin", "gloveboxd", "--target-dir"])
            .arg(target_dir)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        // cargo runs tests with their package's variables set; ring's build script watches
        // them, so passing them on would rebuild ring and everything above it.
        for (name, _) in std::env::vars_os() {
            let name = name.to_string_lossy().into_owned();
            if ["CARGO_PKG_", "CARGO_MANIFEST_", "CARGO_CRATE_", "CARGO_PRIMARY_"]
                .iter()
                .any(|p| name.starts_with(p))
            {
                cmd.env_remove(name);
            }
        }
        let status = cmd.status().expect("cargo build runs");
        assert!(status.success(), "building gloveboxd failed");
    });
    bin
}

pub struct Running {
    pub child: Child,
    pub url: String,
    pub addr: String,
    pub state: TempDir,
    pub banner: Vec<String>,
}

impl Running {
    /// Start `gloveboxd --listen 127.0.0.1:0 --state-dir <tmp> <extra>` and read its banner.
    pub fn start(extra: &[&str]) -> Running {
        Self::start_with_env(extra, &[])
    }

    /// The same with extra environment variables for the daemon.
    pub fn start_with_env(extra: &[&str], env: &[(&str, &str)]) -> Running {
        Self::spawn(extra, env, Stdio::inherit())
    }

    /// The same with the daemon's stderr (its log) written to `log`.
    pub fn start_logged(extra: &[&str], env: &[(&str, &str)], log: &std::path::Path) -> Running {
        let file = std::fs::File::create(log).expect("log file");
        Self::spawn(extra, env, Stdio::from(file))
    }

    fn spawn(extra: &[&str], env: &[(&str, &str)], stderr: Stdio) -> Running {
        let state = TempDir::new("bin");
        let mut child = Command::new(gloveboxd())
            .args(["--listen", "127.0.0.1:0", "--state-dir"])
            .arg(&state.path)
            .args(extra)
            .env_remove("GLOVEBOX_TOKEN")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("spawn gloveboxd");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + DEADLINE;
        let mut banner = Vec::new();
        let mut addr = None;
        while banner.len() < 6 {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = rx.recv_timeout(left) else {
                let _ = child.kill();
                panic!("gloveboxd printed no banner in time; got {banner:?}");
            };
            if let Some(rest) = line.strip_prefix("gloveboxd listening on ws://") {
                addr = rest.strip_suffix("/rpc").map(String::from);
            }
            banner.push(line);
        }
        let addr = addr.expect("banner names the address");
        Running { child, url: format!("ws://{addr}/rpc"), addr, state, banner }
    }

    /// Connections from this process to the daemon's embedded `display` present its cookie
    /// (the daemon keeps it in its state dir).
    pub fn trust_display(&self, display: &str) {
        use glovebox_daemon::desktop::xauth;
        let number: u32 = display.trim_start_matches(':').parse().expect("a local display");
        let cookie = xauth::read(&xauth::path(&self.state.path, number)).expect("the cookie");
        xauth::remember(display, cookie);
    }

    pub fn token(&self) -> String {
        let text = std::fs::read_to_string(self.state.path.join("token")).expect("token file");
        text.lines().next().unwrap_or_default().trim().to_owned()
    }

    /// Send a signal by name (`HUP`, `TERM`).
    pub fn signal(&self, name: &str) {
        let pid = self.child.id().to_string();
        let ok = Command::new("kill")
            .args([&format!("-{name}"), &pid])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "kill -{name} {pid} failed");
    }

    /// SIGTERM, then wait for the exit; the exit status.
    pub fn terminate(&mut self, within: Duration) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "gloveboxd did not exit within {within:?} of SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.terminate(DEADLINE);
        }
    }
}

/// Whether a process with this pid is alive (and not a zombie).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| s.split_whitespace().nth(2).is_none_or(|state| state != "Z"))
        .unwrap_or(false)
}
