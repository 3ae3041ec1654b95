//! Per-run XDG directories, so runs never share sockets or app state.
//!
//! A shared `XDG_RUNTIME_DIR` lets two AT-SPI launchers fight over `at-spi/bus_<display>`, and
//! leftover app state changes what apps show (mousepad opens a "restore session?" dialog after a
//! kill). `HOME` stays untouched: cargo and rustup live under it.

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

impl RunDirs {
    /// Fresh `<state_dir>/desktop/<tag>/{runtime,config,data,cache,state}`.
    pub(super) fn create(state_dir: &Path, tag: &str) -> Result<Self, DesktopError> {
        let mut dirs = Self::runtime_only(state_dir, tag)?;
        let base = base(state_dir, tag)?;
        for (var, sub) in [
            ("XDG_CONFIG_HOME", "config"),
            ("XDG_DATA_HOME", "data"),
            ("XDG_CACHE_HOME", "cache"),
            ("XDG_STATE_HOME", "state"),
        ] {
            let dir = base.join(sub);
            make_dir(&dir, 0o700)?;
            dirs.homes.push((var, dir));
        }
        Ok(dirs)
    }

    /// Only a fresh runtime dir (mode 0700), for adopting an existing display.
    pub(super) fn runtime_only(state_dir: &Path, tag: &str) -> Result<Self, DesktopError> {
        let base = base(state_dir, tag)?;
        remove_stale(&base)?;
        let mut runtime = base.join("runtime");
        if runtime.as_os_str().len() > MAX_RUNTIME_PATH {
            runtime = std::env::temp_dir().join(format!("glovebox-{}-{tag}", std::process::id()));
            remove_stale(&runtime)?;
        }
        make_dir(&runtime, 0o700)?;
        Ok(Self { runtime, homes: Vec::new() })
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

fn base(state_dir: &Path, tag: &str) -> Result<PathBuf, DesktopError> {
    // Children get these paths in their environment, so they must not be relative.
    let state_dir = std::path::absolute(state_dir)
        .map_err(|source| DesktopError::Dir { path: state_dir.to_owned(), source })?;
    Ok(state_dir.join("desktop").join(tag))
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
