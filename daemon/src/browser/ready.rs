//! Whether the default browser can be had, for `/readyz` and the backend status: it runs and
//! its DevTools relay is alive, or its program is an executable file (a path, or a name found
//! on `PATH` as the spawn would find it) so the next call can start it. Nothing is launched to
//! find out; the program's check is kept for [`FRESH`].

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{lock, Browsers};

/// How long a look for the program is reused.
const FRESH: Duration = Duration::from_secs(5);

impl Browsers {
    /// `Ok` when the default browser runs or can start; else why not.
    pub fn can_start(&self) -> Result<(), String> {
        if let Ok(d) = self.default.try_lock() {
            if d.as_ref().is_some_and(|c| self.supervisor.is_running(c.pid) && c.relay.is_alive()) {
                return Ok(());
            }
        }
        let mut last = lock(&self.start_check);
        if let Some((_, answer)) = last.as_ref().filter(|(at, _)| at.elapsed() < FRESH) {
            return answer.clone();
        }
        let answer = match find_program(&self.program) {
            Some(_) => Ok(()),
            None => Err(format!(
                "{} is not an executable on PATH; install Chromium or point GLOVEBOX_CHROMIUM at it",
                self.program
            )),
        };
        *last = Some((Instant::now(), answer.clone()));
        answer
    }
}

/// The file `program` names: itself when it holds a slash, else the first executable of that
/// name in `PATH`'s directories.
fn find_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return is_executable(Path::new(program)).then(|| PathBuf::from(program));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_found_as_a_spawn_finds_them() {
        assert!(find_program("sh").is_some(), "sh is on PATH");
        assert_eq!(find_program("/bin/sh"), Some(PathBuf::from("/bin/sh")));
        assert_eq!(find_program("no-such-browser-anywhere"), None);
        assert_eq!(find_program("/etc/passwd"), None, "not executable");
        assert_eq!(find_program("/tmp"), None, "a directory");
    }
}
