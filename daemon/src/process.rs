//! The only place in the daemon that starts child processes: desktop servers, browsers, apps.
//!
//! Every child gets its own process group (so a helper tree such as Chromium's goes down with
//! it), a clean environment (what [`inherited`] lets through of the daemon's, never a
//! `GLOVEBOX_*` variable such as the token, then the desktop's variables and explicit
//! overrides), and stdout+stderr appended to `<state_dir>/logs/<name>.log` (0600, in a 0700
//! dir). [`Supervisor::stop_all`] stops children newest first, because
//! later children depend on earlier ones (a browser dies with SIGTRAP if its X server goes first).
//! Dropping the last [`Supervisor`] handle stops whatever is still running.
//!
//! When the daemon runs as root it names a desktop user ([`user`]): every child it spawns
//! (the X server, the buses, the window manager, Chromium, apps) then runs under that uid,
//! its groups dropped, with that user's HOME, so nothing on the desktop can read the state
//! dir. Only short helpers the daemon runs for itself ([`Supervisor::run`]) keep its uid.
//! When it is not root, the desktop shares its uid and each desktop child starts confined
//! instead ([`confine`]): a Landlock ruleset keeps the state dir out of its reach.

use std::ffi::{OsStr, OsString};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use nix::errno::Errno;
use nix::sys::signal::Signal;
// `command-fds` puts the browser's DevTools pipes on the child's fds 3 and 4 (dup2 between
// fork and exec), which std offers only through an unsafe `pre_exec`.
use command_fds::{CommandFdExt, FdMapping};

pub mod confine;
mod stop;
pub mod user;

use confine::{Confinement, Isolation, Reach};
pub use stop::is_alive;
use stop::{signal_group, stop_child, stop_foreign, wait_until};

/// How long a child gets between SIGTERM and SIGKILL.
pub const STOP_GRACE: Duration = Duration::from_secs(3);
const POLL: Duration = Duration::from_millis(20);

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProcessError {
    #[error("no program given for child {name:?}")]
    EmptyArgv { name: String },
    #[error("cannot open log {path}: {source}")]
    Log { path: PathBuf, source: std::io::Error },
    // Usually a missing package: workspace-image/provision.sh installs them all.
    #[error("cannot start {name} ({program}): {source}")]
    Spawn { name: String, program: String, source: std::io::Error },
    #[error("cannot wait for {name} (pid {pid}): {source}")]
    Wait { name: String, pid: u32, source: std::io::Error },
    #[error("{name} did not finish within {timeout:?}")]
    Timeout { name: String, timeout: Duration },
    #[error("cannot signal pid {pid}: {source}")]
    Signal { pid: u32, source: Errno },
}

/// Cheap-to-clone handle to the set of children of this daemon.
#[derive(Clone, Debug)]
pub struct Supervisor {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    log_dir: PathBuf,
    base_env: Mutex<Vec<(String, String)>>,
    children: Mutex<Vec<Supervised>>,
    /// Whom the desktop's children run as; `None`: the daemon's own uid.
    desktop_user: Mutex<Option<Arc<user::DesktopUser>>>,
    /// How the desktop is kept out of the daemon's files when it runs as the daemon's uid
    /// (`confine.rs`); `None`: it is not.
    confinement: Mutex<Option<Arc<Confinement>>>,
}

#[derive(Debug)]
struct Supervised {
    name: String,
    child: Child,
}

impl Supervisor {
    /// Logs go to `<state_dir>/logs/`, created on first spawn.
    pub fn new(state_dir: &Path) -> Self {
        let inner = Inner {
            log_dir: state_dir.join("logs"),
            base_env: Mutex::new(Vec::new()),
            children: Mutex::new(Vec::new()),
            desktop_user: Mutex::new(None),
            confinement: Mutex::new(None),
        };
        Self { inner: Arc::new(inner) }
    }

    /// Overrides applied to every later child (before per-spawn overrides), e.g. DISPLAY.
    pub fn extend_env(&self, env: &[(String, String)]) {
        let mut base = lock(&self.inner.base_env);
        for (key, value) in env {
            base.retain(|(k, _)| k != key);
            base.push((key.clone(), value.clone()));
        }
    }

    /// Every later child but [`Supervisor::run`]'s runs as `user` (`None`: as the daemon).
    pub fn set_desktop_user(&self, user: Option<user::DesktopUser>) {
        *lock(&self.inner.desktop_user) = user.map(Arc::new);
    }

    /// The desktop's user, when it is not the daemon's own.
    pub fn desktop_user(&self) -> Option<Arc<user::DesktopUser>> {
        lock(&self.inner.desktop_user).clone()
    }

    /// Every later desktop child runs under `c` (a daemon that is not root).
    pub fn set_confinement(&self, c: Option<Confinement>) {
        *lock(&self.inner.confinement) = c.map(Arc::new);
    }

    /// Whether desktop children are kept out of the daemon's files, and how.
    pub fn isolation(&self) -> Isolation {
        if self.desktop_user().is_some() {
            Isolation::User
        } else if lock(&self.inner.confinement).is_some() {
            Isolation::Landlock
        } else {
            Isolation::None
        }
    }

    /// The uid the desktop's children run as.
    pub fn desktop_uid(&self) -> u32 {
        self.desktop_user().map_or_else(|| nix::unistd::geteuid().as_raw(), |u| u.id.uid)
    }

    pub fn log_path(&self, name: &str) -> PathBuf {
        self.inner.log_dir.join(format!("{name}.log"))
    }

    /// The last `max` bytes of a child's log, for error messages.
    pub fn log_tail(&self, name: &str, max: usize) -> String {
        let text = std::fs::read(self.log_path(name)).unwrap_or_default();
        let start = text.len().saturating_sub(max);
        String::from_utf8_lossy(&text[start..]).into_owned()
    }

    /// Starts a supervised child; returns its pid.
    pub fn spawn<S: AsRef<OsStr>>(
        &self,
        name: &str,
        argv: &[S],
        env: &[(String, String)],
    ) -> Result<u32, ProcessError> {
        let cmd = self.command(name, argv, env, Some(Reach::App))?;
        self.start(name, argv, cmd)
    }

    /// Spawns `cmd` with its output going to the child's log, and keeps it supervised.
    fn start<S: AsRef<OsStr>>(
        &self,
        name: &str,
        argv: &[S],
        mut cmd: Command,
    ) -> Result<u32, ProcessError> {
        let log = self.open_log(name, argv)?;
        let err_log = log
            .try_clone()
            .map_err(|source| ProcessError::Log { path: self.log_path(name), source })?;
        cmd.stdin(Stdio::null()).stdout(log).stderr(err_log);
        let child = cmd.spawn().map_err(|source| spawn_error(name, argv, source))?;
        let pid = child.id();
        tracing::debug!(name, pid, "spawned child");
        lock(&self.inner.children).push(Supervised { name: name.to_owned(), child });
        Ok(pid)
    }

    /// Starts a supervised child whose fds 3 and 4 are the ends of two fresh pipes (what
    /// Chromium's `--remote-debugging-pipe` reads and writes); returns its pid, the end that
    /// writes to its fd 3 and the end that reads its fd 4. Nothing else can reach them.
    pub fn spawn_piped<S: AsRef<OsStr>>(
        &self,
        name: &str,
        argv: &[S],
        env: &[(String, String)],
    ) -> Result<(u32, OwnedFd, OwnedFd), ProcessError> {
        let io = |source| spawn_error(name, argv, source);
        let (to_child_r, to_child_w) = std::io::pipe().map_err(io)?;
        let (from_child_r, from_child_w) = std::io::pipe().map_err(io)?;
        let mut cmd = self.command(name, argv, env, Some(Reach::Browser))?;
        cmd.fd_mappings(vec![
            FdMapping { parent_fd: to_child_r.into(), child_fd: 3 },
            FdMapping { parent_fd: from_child_w.into(), child_fd: 4 },
        ])
        .map_err(|e| io(std::io::Error::other(e.to_string())))?;
        let pid = self.start(name, argv, cmd)?;
        Ok((pid, to_child_w.into(), from_child_r.into()))
    }

    /// Starts an app by argv (logged as `app-<program>`); it is stopped with the others at
    /// shutdown, and may exit on its own at any time before that.
    pub fn launch_app<S: AsRef<OsStr>>(
        &self,
        argv: &[S],
        env: &[(String, String)],
    ) -> Result<u32, ProcessError> {
        let program = argv.first().map(|p| Path::new(p.as_ref()).to_path_buf());
        let base = program.as_deref().and_then(Path::file_name).map(OsStr::to_string_lossy);
        let name = format!("app-{}", base.as_deref().unwrap_or("unnamed"));
        self.reap();
        self.spawn(&name, argv, env)
    }

    /// Runs a short command of the daemon's own to completion with captured output, killing
    /// it at the deadline; it keeps the daemon's uid.
    pub fn run<S: AsRef<OsStr>>(
        &self,
        name: &str,
        argv: &[S],
        env: &[(String, String)],
        timeout: Duration,
    ) -> Result<Output, ProcessError> {
        self.run_as(name, argv, (env, None), timeout)
    }

    /// [`Supervisor::run`] as the desktop's user: what a desktop child would be let do.
    pub fn run_as_desktop<S: AsRef<OsStr>>(
        &self,
        name: &str,
        argv: &[S],
        timeout: Duration,
    ) -> Result<Output, ProcessError> {
        self.run_as(name, argv, (&[], Some(Reach::App)), timeout)
    }

    fn run_as<S: AsRef<OsStr>>(
        &self,
        name: &str,
        argv: &[S],
        (env, desktop): (&[(String, String)], Option<Reach>),
        timeout: Duration,
    ) -> Result<Output, ProcessError> {
        let mut cmd = self.command(name, argv, env, desktop)?;
        cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|source| spawn_error(name, argv, source))?;
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let status = wait_until(&mut child, name, Instant::now() + timeout)?;
        let status = match status {
            Some(status) => status,
            None => {
                signal_group(child.id(), Signal::SIGKILL);
                let _ = child.wait();
                return Err(ProcessError::Timeout { name: name.to_owned(), timeout });
            }
        };
        let stdout = stdout.join().unwrap_or_default();
        let stderr = stderr.join().unwrap_or_default();
        Ok(Output { status, stdout, stderr })
    }

    /// `Some(status)` once a supervised child has exited; `None` while it runs or if unknown.
    pub fn exit_status(&self, pid: u32) -> Option<ExitStatus> {
        let mut children = lock(&self.inner.children);
        let entry = children.iter_mut().rev().find(|c| c.child.id() == pid)?;
        entry.child.try_wait().ok().flatten()
    }

    pub fn is_running(&self, pid: u32) -> bool {
        let known = lock(&self.inner.children).iter().any(|c| c.child.id() == pid);
        known && self.exit_status(pid).is_none()
    }

    /// Stops one process: a supervised child (and its group) or, for processes we did not
    /// start (e.g. D-Bus-activated services), by pid alone.
    pub fn stop_pid(&self, pid: u32) -> Result<(), ProcessError> {
        let entry = {
            let mut children = lock(&self.inner.children);
            let index = children.iter().rposition(|c| c.child.id() == pid);
            index.map(|i| children.remove(i))
        };
        match entry {
            Some(entry) => stop_child(entry),
            None => stop_foreign(pid),
        }
    }

    /// Stops every child, newest first: SIGTERM to its group, [`STOP_GRACE`], then SIGKILL.
    pub fn stop_all(&self) {
        let entries = std::mem::take(&mut *lock(&self.inner.children));
        for entry in entries.into_iter().rev() {
            let name = entry.name.clone();
            if let Err(err) = stop_child(entry) {
                tracing::warn!(name, %err, "stopping child failed");
            }
        }
    }

    /// Forgets children that exited on their own (reaping them).
    fn reap(&self) {
        lock(&self.inner.children).retain_mut(|c| matches!(c.child.try_wait(), Ok(None)));
    }

    /// The child's command; `desktop`: as the desktop's user, when there is one.
    fn command<S: AsRef<OsStr>>(
        &self,
        name: &str,
        argv: &[S],
        env: &[(String, String)],
        desktop: Option<Reach>,
    ) -> Result<Command, ProcessError> {
        if argv.is_empty() {
            return Err(ProcessError::EmptyArgv { name: name.to_owned() });
        }
        let confined = lock(&self.inner.confinement).clone();
        let argv: Vec<OsString> = match (desktop, confined) {
            (Some(reach), Some(c)) => c.wrap(reach, argv),
            _ => argv.iter().map(|a| a.as_ref().to_os_string()).collect(),
        };
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..]);
        cmd.env_clear();
        cmd.envs(std::env::vars_os().filter(|(k, _)| k.to_str().is_some_and(inherited)));
        if let Some(user) = self.desktop_user().filter(|_| desktop.is_some()) {
            // std drops the supplementary groups (root's) when it sets the uid; the working
            // dir is one the user may enter.
            cmd.uid(user.id.uid).gid(user.id.gid).current_dir(user.home());
            cmd.envs(user.env());
        }
        cmd.envs(lock(&self.inner.base_env).iter().map(|(k, v)| (k, v)));
        cmd.envs(env.iter().map(|(k, v)| (k, v)));
        // Own process group: a terminal's Ctrl-C reaches only the daemon, which then stops
        // children in order, and a signal to the group reaches the child's helpers too.
        cmd.process_group(0);
        Ok(cmd)
    }

    fn open_log<S: AsRef<OsStr>>(&self, name: &str, argv: &[S]) -> Result<File, ProcessError> {
        let path = self.log_path(name);
        let log_error = |source| ProcessError::Log { path: path.clone(), source };
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.inner.log_dir)
            .map_err(log_error)?;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(&path)
            .map_err(log_error)?;
        let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        let line: Vec<_> = argv.iter().map(|a| a.as_ref().to_string_lossy()).collect();
        writeln!(file, "=== {secs} (unix time) start: {}", line.join(" ")).map_err(log_error)?;
        Ok(file)
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        let entries = std::mem::take(&mut *lock(&self.children));
        for entry in entries.into_iter().rev() {
            let _ = stop_child(entry);
        }
    }
}

/// Variables of the daemon's own environment a child gets: what programs need to run (paths,
/// user, locale, time zone, temp dir, proxies, certificates) and the desktop's addresses.
/// Nothing else: the daemon's `GLOVEBOX_*` settings (the token above all) stay with it.
pub fn inherited(name: &str) -> bool {
    const KEEP: [&str; 27] = [
        "PATH",
        "HOME",
        "USER",
        "LOGNAME",
        "SHELL",
        "LANG",
        "LANGUAGE",
        "TZ",
        "TMPDIR",
        "TERM",
        "LD_LIBRARY_PATH",
        "DISPLAY",
        "XAUTHORITY",
        "DBUS_SESSION_BUS_ADDRESS",
        "AT_SPI_BUS_ADDRESS",
        "http_proxy",
        "https_proxy",
        "no_proxy",
        "all_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "NO_PROXY",
        "ALL_PROXY",
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "FONTCONFIG_PATH",
        "FONTCONFIG_FILE",
    ];
    !name.starts_with("GLOVEBOX_")
        && (KEEP.contains(&name) || name.starts_with("LC_") || name.starts_with("XDG_"))
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves the list itself consistent; keep going.
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn spawn_error<S: AsRef<OsStr>>(name: &str, argv: &[S], source: std::io::Error) -> ProcessError {
    let program = argv.first().map(|p| p.as_ref().to_string_lossy().into_owned());
    ProcessError::Spawn { name: name.to_owned(), program: program.unwrap_or_default(), source }
}

fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut buf);
        }
        buf
    })
}

#[cfg(test)]
mod tests;
