//! The unprivileged user the desktop runs as when the daemon is root, and the directory that
//! user works in, outside the daemon's state dir (which stays 0700, the daemon's alone).
//!
//! Layout of the desktop dir (`--desktop-dir`, by default `<tmp>/glovebox-desktop-<hash of
//! the state dir>`, so each state dir keeps its own Chromium profile across restarts):
//!
//! ```text
//! ./                 root 0711: the desktop user passes through; it lists and changes nothing
//! home/              the user's HOME                                  (the user's, 0700)
//! chromium-profile/  the default Chromium's profile                   (the user's, 0700)
//! downloads/         what Chromium downloads, the PDFs the daemon prints (the user's, 0700)
//! desktop/           root 0711: per-run XDG dirs (`desktop/x<display>/`) and X cookies
//! uploads/           root 0711: a copy of each file handed to a page, in a dir of random name
//! session-bus.conf   the session bus's policy: the user's own bus, which root may join
//! ```
//!
//! Root works only in the root-owned dirs and on single entries of the user's (unlinking a
//! name, creating one exclusively), never through a name the user could swap for a symlink.

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use nix::unistd::{Uid, User};

/// The user picked when `--desktop-user` is not given and it exists.
pub const DEDICATED: &str = "glovebox-desktop";
/// `nobody`, the fallback: it owns no files of its own.
pub const NOBODY: u32 = 65534;
/// Upload copies kept; older ones go (a page reads its file when it is chosen, or soon after).
const KEEP_UPLOADS: usize = 64;

const BUS_CONFIG: &str = r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<!-- Written by gloveboxd: the desktop user's session bus, which the daemon (root) joins too. -->
<busconfig>
  <include>/usr/share/dbus-1/session.conf</include>
  <policy context="default">
    <allow user="root"/>
  </policy>
</busconfig>
"#;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UserError {
    #[error(
        "no user {0:?} on this host; give --desktop-user a name from the user database or a uid"
    )]
    Unknown(String),
    #[error("cannot look up the user {name:?}: {source}")]
    Lookup { name: String, source: nix::errno::Errno },
    #[error("cannot prepare the desktop dir {path}: {source}")]
    Dir { path: PathBuf, source: std::io::Error },
    #[error(
        "{path} exists and is not a directory of root's; remove it or give another --desktop-dir"
    )]
    Untrusted { path: PathBuf },
}

/// A uid, its primary gid and the name its programs see in `USER`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub name: String,
    pub uid: u32,
    pub gid: u32,
}

/// `--desktop-user`: a name or a uid; by default [`DEDICATED`] where it exists, else `nobody`.
pub fn resolve(spec: Option<&str>) -> Result<Identity, UserError> {
    let of = |u: User| Identity { name: u.name, uid: u.uid.as_raw(), gid: u.gid.as_raw() };
    let lookup = |name: &str, found: nix::Result<Option<User>>| {
        found.map_err(|source| UserError::Lookup { name: name.to_owned(), source })
    };
    match spec {
        Some(s) => match s.parse::<u32>() {
            // A bare uid needs no entry: it is its own group, and its name is the number.
            Ok(uid) => Ok(lookup(s, User::from_uid(Uid::from_raw(uid)))?
                .map_or_else(|| Identity { name: s.to_owned(), uid, gid: uid }, of)),
            Err(_) => {
                lookup(s, User::from_name(s))?.map(of).ok_or_else(|| UserError::Unknown(s.into()))
            }
        },
        None => match lookup(DEDICATED, User::from_name(DEDICATED))? {
            Some(u) => Ok(of(u)),
            None => Ok(lookup("nobody", User::from_uid(Uid::from_raw(NOBODY)))?
                .map_or_else(|| Identity { name: "nobody".into(), uid: NOBODY, gid: NOBODY }, of)),
        },
    }
}

/// The default desktop dir of a state dir: under the temp dir, named by a hash of its path.
pub fn default_dir(state_dir: &Path) -> PathBuf {
    use sha2::Digest as _;
    let abs = std::path::absolute(state_dir).unwrap_or_else(|_| state_dir.to_owned());
    let hash = sha2::Sha256::digest(abs.as_os_str().as_encoded_bytes());
    let tag: String = hash.iter().take(8).map(|b| format!("{b:02x}")).collect();
    std::env::temp_dir().join(format!("glovebox-desktop-{tag}"))
}

/// The desktop's user and its prepared directory.
#[derive(Debug, Clone)]
pub struct DesktopUser {
    pub id: Identity,
    dir: PathBuf,
}

impl DesktopUser {
    /// Creates (or checks and takes over) the layout above for `id`.
    pub fn prepare(id: Identity, dir: &Path) -> Result<DesktopUser, UserError> {
        let dir = std::path::absolute(dir).map_err(|source| dir_error(dir, source))?;
        let user = DesktopUser { id, dir };
        if let Some(parent) = user.dir.parent() {
            std::fs::create_dir_all(parent).map_err(|source| dir_error(parent, source))?;
        }
        root_dir(&user.dir)?;
        // Copies handed to pages of an earlier run are no one's business now.
        let uploads = user.uploads();
        if uploads.exists() {
            std::fs::remove_dir_all(&uploads).map_err(|source| dir_error(&uploads, source))?;
        }
        root_dir(&user.runs())?;
        root_dir(&uploads)?;
        for owned in [user.home(), user.profile(), user.downloads()] {
            user.owned_dir(&owned)?;
        }
        let conf = user.bus_config();
        let _ = std::fs::remove_file(&conf);
        std::fs::write(&conf, BUS_CONFIG)
            .and_then(|()| std::fs::set_permissions(&conf, std::fs::Permissions::from_mode(0o644)))
            .map_err(|source| dir_error(&conf, source))?;
        Ok(user)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn home(&self) -> PathBuf {
        self.dir.join("home")
    }

    pub fn profile(&self) -> PathBuf {
        self.dir.join("chromium-profile")
    }

    pub fn downloads(&self) -> PathBuf {
        self.dir.join("downloads")
    }

    /// Where per-run XDG dirs and X cookies go (root's; each run's dirs are the user's).
    pub fn runs(&self) -> PathBuf {
        self.dir.join("desktop")
    }

    fn uploads(&self) -> PathBuf {
        self.dir.join("uploads")
    }

    pub fn bus_config(&self) -> PathBuf {
        self.dir.join("session-bus.conf")
    }

    /// HOME, USER and LOGNAME for the user's processes (root's would not do).
    pub fn env(&self) -> Vec<(String, String)> {
        vec![
            ("HOME".into(), self.home().display().to_string()),
            ("USER".into(), self.id.name.clone()),
            ("LOGNAME".into(), self.id.name.clone()),
        ]
    }

    /// `path` as a fresh dir of the user's, mode 0700; one of another owner is replaced.
    pub fn owned_dir(&self, path: &Path) -> Result<(), UserError> {
        let err = |source| dir_error(path, source);
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() && m.uid() == self.id.uid => {}
            Ok(m) if m.is_dir() => std::fs::remove_dir_all(path).map_err(err)?,
            Ok(_) => std::fs::remove_file(path).map_err(err)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(err(e)),
        }
        if !path.exists() {
            std::fs::DirBuilder::new().mode(0o700).create(path).map_err(err)?;
        }
        std::os::unix::fs::lchown(path, Some(self.id.uid), Some(self.id.gid)).map_err(err)?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700)).map_err(err)
    }

    /// Gives an open file (just created by root) to the user.
    pub fn give(&self, file: &std::fs::File) -> std::io::Result<()> {
        std::os::unix::fs::fchown(file, Some(self.id.uid), Some(self.id.gid))
    }

    /// A copy of `src` the user can read, under its own name in a fresh dir of random name:
    /// what a page gets for an upload from a root only the daemon can read.
    pub fn hand_over(&self, src: &Path) -> std::io::Result<PathBuf> {
        copy_for_page(&self.uploads(), src, Some(self))
    }
}

/// A copy of `src` in `uploads` (a dir of its own, of random name), given to `user` when the
/// desktop has one; the oldest copies beyond [`KEEP_UPLOADS`] go.
pub fn copy_for_page(
    uploads: &Path,
    src: &Path,
    user: Option<&DesktopUser>,
) -> std::io::Result<PathBuf> {
    let name = src.file_name().ok_or_else(|| std::io::Error::other("not a file name"))?;
    // The source may sit in the user's downloads: a symlink swapped in is not followed,
    // and a FIFO swapped in neither blocks the open nor passes for a file.
    let flags = nix::fcntl::OFlag::O_NOFOLLOW | nix::fcntl::OFlag::O_NONBLOCK;
    let mut from = std::fs::OpenOptions::new().read(true).custom_flags(flags.bits()).open(src)?;
    if !from.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut random = [0u8; 16];
    getrandom::fill(&mut random).map_err(|e| std::io::Error::other(e.to_string()))?;
    let tag: String = random.iter().map(|b| format!("{b:02x}")).collect();
    let dir = uploads.join(tag);
    std::fs::DirBuilder::new().mode(0o711).create(&dir)?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711))?;
    let dst = dir.join(name);
    let mut to = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&dst)?;
    std::io::copy(&mut from, &mut to)?;
    to.flush()?;
    if let Some(user) = user {
        user.give(&to)?;
    }
    trim_uploads(uploads);
    Ok(dst)
}

fn trim_uploads(uploads: &Path) {
    let Ok(rd) = std::fs::read_dir(uploads) else { return };
    let mut dirs: Vec<_> = rd
        .flatten()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    dirs.sort();
    let extra = dirs.len().saturating_sub(KEEP_UPLOADS);
    for (_, path) in dirs.into_iter().take(extra) {
        let _ = std::fs::remove_dir_all(path);
    }
}

/// `path` as a dir of root's that others may pass through (0711): created, or checked to be
/// a real dir root owns (a name in the temp dir anyone could have taken first).
fn root_dir(path: &Path) -> Result<(), UserError> {
    let err = |source| dir_error(path, source);
    match std::fs::DirBuilder::new().mode(0o711).create(path) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(err(e)),
        _ => {}
    }
    let meta = std::fs::symlink_metadata(path).map_err(err)?;
    if !meta.is_dir() || meta.uid() != 0 {
        return Err(UserError::Untrusted { path: path.to_owned() });
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o711)).map_err(err)
}

fn dir_error(path: &Path, source: std::io::Error) -> UserError {
    UserError::Dir { path: path.to_owned(), source }
}

#[cfg(test)]
mod tests;
