//! The workspace's file roots: the only places a path from a client may point (an upload) and
//! where the daemon writes what a page hands over (downloads, PDFs). A path is judged after
//! symlinks and `..` are resolved; the token file, the policy file and the state dir's own
//! files are never inside a root, whatever the roots say.
//!
//! When the desktop runs as a user of its own (`process/user.rs`), downloads go to that
//! user's downloads dir, and a file handed to a page is a copy that user may read: the roots
//! themselves stay the daemon's.

use std::path::{Path, PathBuf};

use crate::error::DaemonError;

/// The default quota of the state dir's `downloads/` (downloads and PDFs).
pub const DOWNLOADS_QUOTA: u64 = 1024 * 1024 * 1024;

/// Keeps `dir` (the state dir's `downloads/`) under `quota` bytes by removing its oldest
/// files first (by modification time), never `keep` (the file just written): what was
/// removed, oldest first. Partial downloads (`.crdownload`) count and go like the rest.
pub fn trim_to_quota(dir: &Path, quota: u64, keep: Option<&Path>) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = rd
        .flatten()
        .filter_map(|e| {
            let m = e.metadata().ok().filter(|m| m.is_file())?;
            Some((m.modified().ok()?, m.len(), e.path()))
        })
        .collect();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    files.sort();
    let keep = keep.and_then(|k| std::fs::canonicalize(k).ok());
    let mut removed = Vec::new();
    for (_, len, path) in files {
        if total <= quota {
            break;
        }
        if keep.is_some() && std::fs::canonicalize(&path).ok() == keep {
            continue;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= len;
            tracing::info!(path = ?path, bytes = len, "removed an old download: over the downloads quota");
            removed.push(path);
        }
    }
    removed
}

/// The largest file `files.put` stores.
pub const MAX_PUT: usize = 8 * 1024 * 1024;
/// The default bytes the first root (`files/`) may hold of what `files.put` stored.
pub const FILES_QUOTA: u64 = 256 * 1024 * 1024;

/// Whether `name` is a plain file name a client may give: 1 to 255 bytes, no path, no control
/// or direction-changing character (which would show one name and be another), no leading
/// `-` (which a command line would read as a flag).
pub fn plain_name(name: &str) -> bool {
    let bidi = |c: char| matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    !name.is_empty()
        && name.len() <= 255
        && !name.contains(['/', '\\'])
        && !name.chars().any(|c| c.is_control() || bidi(c))
        && !name.starts_with('-')
        && name != "."
        && name != ".."
}

/// The roots and what stays outside them.
#[derive(Debug, Clone)]
pub struct FileRoots {
    /// As configured (created at start when missing); relative paths resolve against the first.
    roots: Vec<PathBuf>,
    /// The state dir: inside it only its `files/` and `downloads/` may be reached.
    state_dir: PathBuf,
    /// Never reachable: the token and policy files.
    secrets: Vec<PathBuf>,
    /// What the first root may hold of stored files.
    quota: u64,
    /// The desktop's own user, who gets copies of the files handed to a page.
    desktop: Option<std::sync::Arc<crate::process::user::DesktopUser>>,
    /// Where copies for a confined desktop go (`process/confine.rs`), which cannot open the
    /// roots inside the state dir.
    uploads: Option<PathBuf>,
}

impl FileRoots {
    /// `roots` empty means the defaults: `<state>/files` and `<state>/downloads`.
    pub fn new(state_dir: &Path, roots: Vec<PathBuf>, secrets: Vec<PathBuf>) -> FileRoots {
        let roots = if roots.is_empty() {
            vec![state_dir.join("files"), state_dir.join("downloads")]
        } else {
            roots
        };
        for r in &roots {
            let _ = std::fs::create_dir_all(r);
        }
        FileRoots {
            roots,
            state_dir: state_dir.to_path_buf(),
            secrets,
            quota: FILES_QUOTA,
            desktop: None,
            uploads: None,
        }
    }

    /// With `quota` bytes for what `files.put` stores.
    pub fn with_quota(mut self, quota: u64) -> FileRoots {
        self.quota = quota;
        self
    }

    /// A path as errors and results name it: relative to the state dir inside it (the
    /// operator's absolute layout is none of a client's business), else as configured.
    pub fn shown(&self, path: &Path) -> String {
        match path.strip_prefix(&self.state_dir) {
            Ok(rel) => rel.display().to_string(),
            Err(_) => path.display().to_string(),
        }
    }

    /// The desktop runs as `user`: the default downloads root is that user's downloads dir
    /// (where the browser writes), and [`FileRoots::for_page`] hands copies to that user.
    pub fn with_desktop_user(
        mut self,
        user: std::sync::Arc<crate::process::user::DesktopUser>,
    ) -> FileRoots {
        let old = self.state_dir.join("downloads");
        for root in self.roots.iter_mut().filter(|r| **r == old) {
            *root = user.downloads();
        }
        self.desktop = Some(user);
        self
    }

    /// The desktop is confined to paths outside the state dir but `uploads`: the files handed
    /// to a page are copied there.
    pub fn with_uploads(mut self, uploads: PathBuf) -> FileRoots {
        self.uploads = Some(uploads);
        self
    }

    /// A file of the roots (see [`FileRoots::readable`]) as the page's browser may open it:
    /// itself, or a copy the desktop's user may read.
    pub fn for_page(&self, given: &str) -> Result<PathBuf, DaemonError> {
        self.hand_to_page(given, self.readable(given)?)
    }

    /// `real` (what `given` resolved to) as the page's browser may open it.
    pub fn hand_to_page(&self, given: &str, real: PathBuf) -> Result<PathBuf, DaemonError> {
        let copied = match (&self.desktop, &self.uploads) {
            (Some(user), _) => user.hand_over(&real),
            (None, Some(dir)) => crate::process::user::copy_for_page(dir, &real, None),
            (None, None) => return Ok(real),
        };
        copied.map_err(|e| {
            DaemonError::ActionFailed(format!("cannot hand {given} to the browser: {e}"))
        })
    }

    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// An existing file a client named, resolved: inside a root, not a secret, not one of the
    /// state dir's own files. Anything else is `FORBIDDEN` naming the roots. A path outside
    /// every root is refused as such before the file system is asked, so the answer never
    /// tells whether something exists there.
    pub fn readable(&self, given: &str) -> Result<PathBuf, DaemonError> {
        let path = Path::new(given);
        let path = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.roots.first().map(|r| r.join(path)).unwrap_or_else(|| path.to_path_buf())
        };
        let lexical = lexically_normal(&path);
        if !self.roots.iter().any(|r| lexical.starts_with(lexically_normal(r))) {
            return Err(self.outside(given, "is outside the file roots"));
        }
        let real = path.canonicalize().map_err(|_| self.outside(given, "does not exist"))?;
        if !real.is_file() {
            return Err(self.outside(given, "is not a file"));
        }
        self.check(given, &real)?;
        Ok(real)
    }

    /// [`FileRoots::readable`], and outside the other lanes' downloads: under `downloads`
    /// (the browser's downloads root), only `downloads/<lane>` is the caller's (`None`:
    /// every lane's, for admins).
    pub fn readable_in_lane(
        &self,
        given: &str,
        downloads: &Path,
        lane: Option<&str>,
    ) -> Result<PathBuf, DaemonError> {
        let real = self.readable(given)?;
        let root = downloads.canonicalize().unwrap_or_else(|_| downloads.to_path_buf());
        match lane {
            Some(l) if real.starts_with(&root) && !real.starts_with(root.join(l)) => {
                Err(self.outside(given, "is another party's download"))
            }
            _ => Ok(real),
        }
    }

    /// Stores `bytes` as `name` in the first root (mode 0600) for a later upload; returns
    /// its path. `name` is a plain file name.
    pub fn put(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, DaemonError> {
        if !plain_name(name) {
            return Err(DaemonError::Contract(glovebox_protocol::contract::Violation::new(
                "name",
                "name must be a plain file name of 1 to 255 bytes: no /, .., control or \
                 direction characters, no leading -",
            )));
        }
        if bytes.len() > MAX_PUT {
            return Err(DaemonError::Contract(glovebox_protocol::contract::Violation::new(
                "data",
                format!("the file is {} bytes; a stored file is at most {MAX_PUT}", bytes.len()),
            )));
        }
        let Some(root) = self.roots.first() else {
            return Err(self.outside(name, "has no root to go to"));
        };
        let path = root.join(name);
        let used = dir_bytes(root).saturating_sub(std::fs::metadata(&path).map_or(0, |m| m.len()));
        if used + bytes.len() as u64 > self.quota {
            return Err(DaemonError::FilesFull {
                size: bytes.len() as u64,
                used,
                quota: self.quota,
            });
        }
        let failed =
            |e: std::io::Error| DaemonError::ActionFailed(format!("cannot store {name}: {e}"));
        std::fs::create_dir_all(root).map_err(failed)?;
        // A symlink planted under the name is replaced, never followed.
        let _ = std::fs::remove_file(&path);
        use std::io::Write as _;
        use std::os::unix::fs::OpenOptionsExt as _;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .map_err(failed)?;
        f.write_all(bytes).map_err(failed)?;
        Ok(path)
    }

    fn check(&self, given: &str, real: &Path) -> Result<(), DaemonError> {
        let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        if self.secrets.iter().any(|s| canon(s) == real) {
            return Err(self.outside(given, "is one of the daemon's secrets"));
        }
        let state = canon(&self.state_dir);
        let own = ["files", "downloads"].map(|d| state.join(d));
        if real.starts_with(&state) && !own.iter().any(|d| real.starts_with(d)) {
            return Err(self.outside(given, "is one of the daemon's own files"));
        }
        if !self.roots.iter().any(|r| real.starts_with(canon(r))) {
            return Err(self.outside(given, "is outside the file roots"));
        }
        Ok(())
    }

    fn outside(&self, given: &str, why: &str) -> DaemonError {
        DaemonError::OutsideFiles {
            path: given.to_owned(),
            why: why.to_owned(),
            roots: self.roots.iter().map(|r| self.shown(r)).collect(),
        }
    }
}

/// `path` with `.` and `..` resolved by name alone (no file system access).
fn lexically_normal(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The bytes of the plain files directly in `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    let files = std::fs::read_dir(dir).into_iter().flatten().flatten();
    files.filter_map(|e| e.metadata().ok()).filter(|m| m.is_file()).map(|m| m.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_under_a_root_and_never_the_secrets() {
        let base = std::env::temp_dir().join(format!("gb-files-{}", std::process::id()));
        let state = base.join("state");
        std::fs::create_dir_all(&state).expect("state");
        std::fs::write(state.join("token"), "t").expect("token");
        let outside = base.join("elsewhere.txt");
        std::fs::write(&outside, "x").expect("outside");
        let roots = FileRoots::new(&state, Vec::new(), vec![state.join("token")]);
        std::fs::write(state.join("files/ok.txt"), "ok").expect("file");
        let _ = std::os::unix::fs::symlink(state.join("token"), state.join("files/link"));
        assert!(roots.readable("ok.txt").is_ok());
        assert!(roots.readable(&state.join("files/ok.txt").display().to_string()).is_ok());
        for bad in [
            state.join("token").display().to_string(),
            state.join("files/link").display().to_string(),
            state.join("files/../token").display().to_string(),
            outside.display().to_string(),
            "../token".into(),
            "/etc/passwd".into(),
            "missing.txt".into(),
        ] {
            let e = roots.readable(&bad).expect_err(&bad);
            assert_eq!(e.to_data().code, glovebox_protocol::error::ErrorCode::Forbidden, "{bad}");
        }
        // A root that holds the state dir still leaves the state dir's files out.
        let wide = FileRoots::new(&state, vec![base.clone()], vec![state.join("token")]);
        assert!(wide.readable(&outside.display().to_string()).is_ok());
        assert!(wide.readable(&state.join("token").display().to_string()).is_err());
        std::fs::write(state.join("browser-tab-marks.json"), "{}").expect("marks");
        assert!(wide
            .readable(&state.join("browser-tab-marks.json").display().to_string())
            .is_err());
        // files.put stores plain names in files/, where an upload finds them.
        assert!(roots.put("../token", b"x").is_err());
        assert!(roots.put("a/b", b"x").is_err());
        let _ = std::os::unix::fs::symlink(state.join("token"), state.join("files/planted"));
        let put = roots.put("planted", b"mine").expect("stored");
        assert_eq!(std::fs::read(state.join("token")).expect("token"), b"t", "not followed");
        assert_eq!(roots.readable("planted").expect("readable"), put.canonicalize().expect("c"));
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn downloads_stay_under_the_quota_oldest_first() {
        let dir = std::env::temp_dir().join(format!("glovebox-quota-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let t0 = std::time::SystemTime::now() - std::time::Duration::from_secs(100);
        for (i, name) in ["a", "b", "c", "d"].iter().enumerate() {
            let p = dir.join(name);
            std::fs::write(&p, vec![0u8; 400]).expect("write");
            let f = std::fs::File::options().write(true).open(&p).expect("open");
            f.set_modified(t0 + std::time::Duration::from_secs(i as u64)).expect("mtime");
        }
        // "a" is the oldest but was just written: it stays; "b" and "c" go.
        let removed = trim_to_quota(&dir, 900, Some(&dir.join("a")));
        assert_eq!(removed, [dir.join("b"), dir.join("c")]);
        assert!(dir.join("a").exists() && dir.join("d").exists());
        assert!(trim_to_quota(&dir, 900, None).is_empty(), "under the quota: nothing goes");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
