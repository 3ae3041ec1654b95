//! Per-run XDG directories, so runs never share sockets or app state.
//!
//! A shared `XDG_RUNTIME_DIR` lets two AT-SPI launchers fight over `at-spi/bus_<display>`, and
//! leftover app state changes what apps show (mousepad opens a "restore session?" dialog after a
//! kill). `HOME` stays untouched (cargo and rustup live under it), unless the desktop runs as
//! a user of its own (`process/user.rs`), which gets that user's HOME from the supervisor.
//!
//! For such a user, root makes every dir while it and its parent are still root's and hands
//! them over last, the run's own dir after its contents, so no name in them was ever the
//! user's to swap for a symlink while root worked there.

use std::fs::DirBuilder;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::DesktopError;

/// Unix socket paths are limited to 108 bytes; the a11y socket adds `/at-spi/bus_NNN`.
const MAX_RUNTIME_PATH: usize = 80;

pub(super) struct RunDirs {
    pub(super) runtime: PathBuf,
    /// (variable, dir) for XDG_CONFIG_HOME and friends; empty when only a runtime dir is made.
    pub(super) homes: Vec<(&'static str, PathBuf)>,
}

/// The uid and gid the dirs go to; `None`: they stay the daemon's.
pub(super) type Owner = Option<(u32, u32)>;

impl RunDirs {
    /// Fresh `<root>/desktop/<tag>/{runtime,config,data,cache,state}`, `owner`'s.
    pub(super) fn create(root: &Path, tag: &str, owner: Owner) -> Result<Self, DesktopError> {
        Self::build(root, tag, true, owner)
    }

    /// Only a fresh runtime dir (mode 0700), for adopting an existing display.
    pub(super) fn runtime_only(root: &Path, tag: &str) -> Result<Self, DesktopError> {
        Self::build(root, tag, false, None)
    }

    fn build(root: &Path, tag: &str, homes: bool, owner: Owner) -> Result<Self, DesktopError> {
        let base = base(root, tag)?;
        remove_stale(&base)?;
        make_dir(&base, 0o700)?;
        let mut runtime = base.join("runtime");
        if runtime.as_os_str().len() > MAX_RUNTIME_PATH {
            runtime = std::env::temp_dir().join(format!("glovebox-{}-{tag}", std::process::id()));
            remove_stale(&runtime)?;
            // Not recursive: a name in the shared temp dir taken meanwhile is an error.
            let err = |source| DesktopError::Dir { path: runtime.clone(), source };
            DirBuilder::new().mode(0o700).create(&runtime).map_err(err)?;
        }
        make_dir(&runtime, 0o700)?;
        let mut dirs = Self { runtime, homes: Vec::new() };
        let subs = [
            ("XDG_CONFIG_HOME", "config"),
            ("XDG_DATA_HOME", "data"),
            ("XDG_CACHE_HOME", "cache"),
            ("XDG_STATE_HOME", "state"),
        ];
        for (var, sub) in subs.into_iter().filter(|_| homes) {
            let dir = base.join(sub);
            make_dir(&dir, 0o700)?;
            dirs.homes.push((var, dir));
        }
        if let Some(owner) = owner {
            for dir in std::iter::once(&dirs.runtime).chain(dirs.homes.iter().map(|(_, d)| d)) {
                give(dir, owner)?;
            }
            give(&base, owner)?;
        }
        Ok(dirs)
    }

    /// Environment entries pointing children at these dirs.
    pub(super) fn env(&self) -> Vec<(String, String)> {
        let runtime = ("XDG_RUNTIME_DIR", &self.runtime);
        let all = std::iter::once(runtime).chain(self.homes.iter().map(|(k, v)| (*k, v)));
        all.map(|(k, v)| (k.to_owned(), v.display().to_string())).collect()
    }
}

/// A display-derived dir name: ":0" -> "x0", "host:10.0" -> "xhost-10.0".
pub(super) fn tag(display: &str) -> String {
    let safe: String = display
        .trim_start_matches(':')
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '-' })
        .collect();
    format!("x{safe}")
}

fn base(root: &Path, tag: &str) -> Result<PathBuf, DesktopError> {
    // Children get these paths in their environment, so they must not be relative.
    let root = std::path::absolute(root)
        .map_err(|source| DesktopError::Dir { path: root.to_owned(), source })?;
    Ok(root.join("desktop").join(tag))
}

fn give(dir: &Path, (uid, gid): (u32, u32)) -> Result<(), DesktopError> {
    std::os::unix::fs::lchown(dir, Some(uid), Some(gid))
        .map_err(|source| DesktopError::Dir { path: dir.to_owned(), source })
}

fn remove_stale(dir: &Path) -> Result<(), DesktopError> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(DesktopError::Dir { path: dir.to_owned(), source: e })
        }
        _ => Ok(()),
    }
}

fn make_dir(dir: &Path, mode: u32) -> Result<(), DesktopError> {
    let err = |source| DesktopError::Dir { path: dir.to_owned(), source };
    DirBuilder::new().recursive(true).mode(mode).create(dir).map_err(err)?;
    // `mode` applies only to newly created dirs (and passes through the umask): set it for sure.
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode)).map_err(err)
}
