//! The `gloveboxd` binary as a user runs it: spawned with flags, its banner read for the
//! address, stopped with SIGTERM; its descendants read from `/proc`.

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
    /// Its stdout, line by line, after what `banner` holds.
    lines: mpsc::Receiver<String>,
    /// The actor token `gloveboxd token add` made for it (its file keeps only the hash).
    token: Option<String>,
}

/// The banner's length: the address and token at once, the rest once the desktop is up.
const BANNER_LINES: usize = 6;

impl Running {
    /// Start `gloveboxd --listen 127.0.0.1:0 --state-dir <tmp> <extra>` and read its banner.
    pub fn start(extra: &[&str]) -> Running {
        Self::start_with_env(extra, &[])
    }

    /// The same with extra environment variables for the daemon.
    pub fn start_with_env(extra: &[&str], env: &[(&str, &str)]) -> Running {
        let mut d = Self::spawn(extra, env, Stdio::inherit());
        d.rest_of_banner();
        d
    }

    /// The same with the daemon's stderr (its log) written to `log`.
    pub fn start_logged(extra: &[&str], env: &[(&str, &str)], log: &std::path::Path) -> Running {
        let file = std::fs::File::create(log).expect("log file");
        let mut d = Self::spawn(extra, env, Stdio::from(file));
        d.rest_of_banner();
        d
    }

    /// The same, back as soon as the daemon listens (the banner's first line): its desktop
    /// may still be starting. [`Running::rest_of_banner`] waits for the rest.
    pub fn start_listening(extra: &[&str], env: &[(&str, &str)]) -> Running {
        Self::spawn(extra, env, Stdio::inherit())
    }

    /// Reads the banner to its end, printed once the desktop is up and calls are taken.
    pub fn rest_of_banner(&mut self) {
        let deadline = Instant::now() + DEADLINE;
        while self.banner.len() < BANNER_LINES {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = self.lines.recv_timeout(left) else {
                let _ = self.child.kill();
                panic!("gloveboxd printed no full banner in time; got {:?}", self.banner);
            };
            self.banner.push(line);
        }
    }

    /// Stops the daemon (SIGTERM, as a user would) and starts it again with `extra` on the
    /// same state dir and token; its banner read to the end.
    pub fn restart(mut self, extra: &[&str]) -> Running {
        let status = self.terminate(DEADLINE);
        assert!(status.success(), "the daemon stopped cleanly: {status}");
        let state = std::mem::replace(&mut self.state, TempDir { path: PathBuf::new() });
        let mut d = Self::spawn_in(state, self.token.take(), extra, &[], Stdio::inherit());
        d.rest_of_banner();
        d
    }

    fn spawn(extra: &[&str], env: &[(&str, &str)], stderr: Stdio) -> Running {
        Self::spawn_in(TempDir::new("bin"), None, extra, env, stderr)
    }

    fn spawn_in(
        state: TempDir,
        given: Option<String>,
        extra: &[&str],
        env: &[(&str, &str)],
        stderr: Stdio,
    ) -> Running {
        // The token file keeps hashes only: the token is made the way a user makes one, and
        // kept here, unless the test gives its own file or $GLOVEBOX_TOKEN.
        let own = given.is_some()
            || extra.contains(&"--token-file")
            || env.iter().any(|(k, _)| *k == "GLOVEBOX_TOKEN");
        let token = given.or_else(|| {
            (!own).then(|| {
                let out = Command::new(gloveboxd())
                    .args(["token", "add", "--state-dir"])
                    .arg(&state.path)
                    .env_remove("GLOVEBOX_TOKEN")
                    .output()
                    .expect("gloveboxd token add");
                assert!(
                    out.status.success(),
                    "token add: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                String::from_utf8_lossy(&out.stdout).trim().to_owned()
            })
        });
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
        let Ok(first) = rx.recv_timeout(DEADLINE) else {
            let _ = child.kill();
            panic!("gloveboxd printed no banner in time");
        };
        let addr = first
            .strip_prefix("gloveboxd listening on ws://")
            .and_then(|rest| rest.strip_suffix("/rpc"))
            .map(String::from)
            .unwrap_or_else(|| panic!("the banner's first line names the address: {first:?}"));
        let (url, banner) = (format!("ws://{addr}/rpc"), vec![first]);
        Running { child, url, addr, state, banner, lines: rx, token }
    }

    /// The address to send plain HTTP to.
    pub fn socket_addr(&self) -> std::net::SocketAddr {
        self.addr.parse().expect("the banner's address")
    }

    /// Connections from this process to the daemon's embedded `display` present its cookie
    /// (in the file the banner names: the state dir's, or the desktop user's dir when the
    /// daemon runs as root).
    pub fn trust_display(&self, display: &str) {
        use glovebox_daemon::desktop::xauth;
        let cookie = xauth::read(&self.xauthority()).expect("the cookie");
        xauth::remember(display, cookie);
    }

    /// The embedded display's cookie file, as the banner names it.
    pub fn xauthority(&self) -> PathBuf {
        let named = self.banner.iter().find_map(|l| l.split("XAUTHORITY=").nth(1));
        PathBuf::from(named.expect("the banner names XAUTHORITY").trim())
    }

    /// The daemon's pid.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The actor token made for it (`gloveboxd token add`).
    pub fn token(&self) -> String {
        self.token.clone().expect("the test gave its own token file or $GLOVEBOX_TOKEN")
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
        self.wait_exit(within)
    }

    /// Waits for the daemon to exit by itself; the exit status.
    pub fn wait_exit(&mut self, within: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "gloveboxd did not exit within {within:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.terminate(DEADLINE);
        }
        // Run as root, the daemon kept its desktop user's dir (profile, downloads) beside
        // the state dir, for a next run; this state dir has none.
        let desktop = glovebox_daemon::process::user::default_dir(&self.state.path);
        let _ = std::fs::remove_dir_all(desktop);
    }
}

/// Every live process below `pid` (children, theirs, and so on) with its name, from `/proc`.
pub fn descendants(pid: u32) -> Vec<(u32, String)> {
    let mut parent_of = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(p) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{p}/stat")) else { continue };
        // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
        let Some((head, rest)) = stat.rsplit_once(')') else { continue };
        let comm = head.split_once('(').map(|(_, c)| c.to_owned()).unwrap_or_default();
        let mut fields = rest.split_whitespace();
        let state = fields.next().unwrap_or_default();
        let Some(ppid) = fields.next().and_then(|f| f.parse::<u32>().ok()) else { continue };
        if state != "Z" {
            parent_of.push((p, ppid, comm));
        }
    }
    let mut found: Vec<(u32, String)> = Vec::new();
    let mut frontier = vec![pid];
    while let Some(parent) = frontier.pop() {
        for (p, _, comm) in parent_of.iter().filter(|(_, pp, _)| *pp == parent) {
            if !found.iter().any(|(f, _)| f == p) {
                found.push((*p, comm.clone()));
                frontier.push(*p);
            }
        }
    }
    found
}

/// Whether a process with this pid is alive (and not a zombie).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| s.split_whitespace().nth(2).is_none_or(|state| state != "Z"))
        .unwrap_or(false)
}

/// Spawns `cmd`, a `gloveboxd` told `--listen 127.0.0.1:0`, with its stdout piped here; reads
/// the address from its banner and asks `/readyz` until it answers 200 or the deadline
/// passes: the child, its address (`host:port`) and the last readiness answer.
pub async fn spawn_until_ready(cmd: &mut Command) -> (Child, String, crate::http::Reply) {
    let mut child = cmd.stdout(Stdio::piped()).spawn().expect("spawn gloveboxd");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let first = rx.recv_timeout(DEADLINE).expect("the banner");
    let addr = first
        .strip_prefix("gloveboxd listening on ws://")
        .and_then(|r| r.strip_suffix("/rpc"))
        .unwrap_or_else(|| panic!("the banner names the address: {first:?}"))
        .to_owned();
    let sock = addr.parse().expect("address");
    let deadline = Instant::now() + DEADLINE;
    let ready = loop {
        let r = crate::http::Http::connect(sock)
            .await
            .send("GET", "/readyz", &[("Host", "localhost")], Duration::from_secs(5))
            .await;
        if r.status == 200 || Instant::now() > deadline {
            break r;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    (child, addr, ready)
}
