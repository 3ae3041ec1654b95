//! The desktop kept out of the daemon's files when it runs as the daemon's own uid (a daemon
//! not started as root cannot give it a user of its own): every desktop child starts through
//! `gloveboxd confine`, which puts itself under a Landlock ruleset and then execs the child.
//!
//! The ruleset allows everything but the hidden paths (the state dir, the token, secrets and
//! policy files): every entry of `/` and of each directory on the way down to a hidden path
//! that leads to none, and, inside the hidden paths, only the open ones (the desktop's runtime
//! dirs and the copies handed to pages; the browser also gets its profile and downloads).
//! Landlock also keeps a confined process from tracing (or reading the memory and environment
//! of) the daemon. A directory on the way down is not itself allowed, so an entry made in it
//! after a child started is out of that child's reach; such a directory must not be one every
//! program writes in (`/tmp`), which [`Confinement::new`] refuses.

use std::ffi::{OsStr, OsString};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use landlock::{
    path_beneath_rules, Access, AccessFs, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
    ABI,
};

/// How the desktop is kept out of the daemon's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isolation {
    /// A user of its own (the daemon is root).
    User,
    /// The daemon's uid, each program under a Landlock ruleset.
    Landlock,
    /// Neither could be had: the desktop can read the state dir.
    None,
}

impl Isolation {
    /// Its word in `/readyz`.
    pub fn as_str(self) -> &'static str {
        match self {
            Isolation::User => "user",
            Isolation::Landlock => "landlock",
            Isolation::None => "none",
        }
    }
}

/// Which of the desktop's programs a child is: the browser reaches its profile and downloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    App,
    Browser,
}

/// What desktop children may not open, and what they may inside it.
#[derive(Debug, Clone)]
pub struct Confinement {
    hidden: Vec<PathBuf>,
    open: Vec<PathBuf>,
    browser: Vec<PathBuf>,
}

/// Why the desktop cannot be confined here.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Unconfined {
    #[error("{0} is missing")]
    Missing(String),
    #[error(
        "{0} lies in {1}, where every program writes; give a --state-dir (and token, secrets and policy files) outside it"
    )]
    SharedDir(String, String),
    #[error("this kernel does not enforce Landlock")]
    NoLandlock,
    #[error("the confined probe could not run: {0}")]
    Probe(String),
    #[error("a confined program still read the state dir")]
    Leaked,
}

impl Confinement {
    /// Hides `hidden` (existing paths) but `open` inside them from every desktop child, and
    /// `browser` from all but the browser. Refused when a hidden path lies in a directory
    /// anyone may write in.
    pub fn new(
        hidden: &[PathBuf],
        open: &[PathBuf],
        browser: &[PathBuf],
    ) -> Result<Confinement, Unconfined> {
        let mut real = Vec::new();
        for h in hidden {
            let c = h.canonicalize().map_err(|_| Unconfined::Missing(h.display().to_string()))?;
            if let Some(shared) = c.ancestors().skip(1).find(|a| world_writable(a)) {
                let (h, shared) = (h.display().to_string(), shared.display().to_string());
                return Err(Unconfined::SharedDir(h, shared));
            }
            real.push(c);
        }
        let canon = |ps: &[PathBuf]| -> Vec<PathBuf> {
            ps.iter().map(|p| p.canonicalize().unwrap_or_else(|_| p.clone())).collect()
        };
        Ok(Confinement { hidden: real, open: canon(open), browser: canon(browser) })
    }

    /// `argv` as run under the ruleset for `reach`: `gloveboxd confine … -- argv`.
    pub fn wrap<S: AsRef<OsStr>>(&self, reach: Reach, argv: &[S]) -> Vec<OsString> {
        let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("/proc/self/exe"));
        let mut out = vec![exe.into_os_string(), "confine".into()];
        for h in &self.hidden {
            out.extend(["--hide".into(), h.clone().into_os_string()]);
        }
        let browser = if reach == Reach::Browser { &self.browser[..] } else { &[] };
        for o in self.open.iter().chain(browser) {
            out.extend(["--open".into(), o.clone().into_os_string()]);
        }
        out.push("--".into());
        out.extend(argv.iter().map(|a| a.as_ref().to_os_string()));
        out
    }

    /// Whether a confined program really cannot read `secret`, a file in a hidden path that
    /// holds `text`: it runs `cat` on it under the ruleset, and must fail.
    pub fn probe(&self, secret: &Path, text: &str) -> Result<(), Unconfined> {
        let argv = self.wrap(Reach::App, &[OsStr::new("cat"), secret.as_os_str()]);
        let out = std::process::Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| Unconfined::Probe(e.to_string()))?;
        let said = String::from_utf8_lossy(&out.stderr);
        if said.contains(NOT_ENFORCED) {
            return Err(Unconfined::NoLandlock);
        }
        match out.status.success() || String::from_utf8_lossy(&out.stdout).contains(text) {
            true => Err(Unconfined::Leaked),
            false => Ok(()),
        }
    }
}

/// The confinement of a desktop that works in `state` (the daemon's state dir), with the
/// daemon's `private` files besides (token, secrets, policy): checked here by a confined
/// read of a file in `state` that must fail.
pub fn for_state_dir(state: &Path, private: &[PathBuf]) -> Result<Confinement, Unconfined> {
    let mut hidden = vec![state.to_path_buf()];
    hidden.extend(private.iter().cloned());
    // What the desktop works in: its runtime dirs and X cookies, copies handed to pages; the
    // browser also its profile and downloads.
    let open = [state.join("desktop"), state.join("uploads")];
    let browser = [state.join("chromium-profile"), state.join("downloads")];
    for d in open.iter().chain(&browser) {
        let _ = std::fs::create_dir_all(d);
    }
    // A HOME on the way down to the state dir gets its usual dirs now: made later, they
    // would be out of the desktop's reach.
    if let Some(home) = std::env::var_os("HOME").map(PathBuf::from) {
        if state.starts_with(&home) {
            for d in [".config", ".cache", ".local/share", ".local/state", ".pki"] {
                let _ = std::fs::create_dir_all(home.join(d));
            }
        }
    }
    let probe = state.join(".confine-probe");
    let mut nonce = [0u8; 16];
    getrandom::fill(&mut nonce).map_err(|e| Unconfined::Probe(e.to_string()))?;
    let text: String = nonce.iter().map(|b| format!("{b:02x}")).collect();
    let checked = std::fs::write(&probe, &text)
        .map_err(|e| Unconfined::Probe(e.to_string()))
        .and_then(|()| Confinement::new(&hidden, &open, &browser))
        .and_then(|c| c.probe(&probe, &text).map(|()| c));
    let _ = std::fs::remove_file(&probe);
    checked
}

/// What `gloveboxd confine` says when the kernel would not enforce the ruleset.
const NOT_ENFORCED: &str = "gloveboxd confine: Landlock is not enforced";

/// Sticky or writable by all: a directory like `/tmp`.
fn world_writable(dir: &Path) -> bool {
    std::fs::metadata(dir).is_ok_and(|m| m.mode() & 0o1002 != 0)
}

/// The paths a confined program may use: every entry of `/` and of the directories leading
/// to a hidden path that is neither hidden nor leads to one, then the open paths.
pub fn allowed(hidden: &[PathBuf], open: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    cover(Path::new("/"), hidden, &mut out);
    out.extend(open.iter().filter_map(|p| p.canonicalize().ok()));
    out
}

fn cover(dir: &Path, hidden: &[PathBuf], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        // A link counts where it leads: one into a hidden path is no way around it.
        let Ok(real) = path.canonicalize() else { continue };
        if hidden.iter().any(|h| real.starts_with(h)) {
            continue;
        }
        if hidden.iter().any(|h| h.starts_with(&real)) {
            // On the way down: its other entries, through its real path only.
            if real == path {
                cover(&path, hidden, out);
            }
            continue;
        }
        if !out.contains(&real) {
            out.push(real);
        }
    }
}

/// `gloveboxd confine --hide P… --open P… -- PROGRAM ARGS…`: this process goes under the
/// ruleset, then becomes PROGRAM. Only returns on failure; it never runs PROGRAM unconfined.
pub fn exec(hidden: &[PathBuf], open: &[PathBuf], argv: &[OsString]) -> anyhow::Error {
    use std::os::unix::process::CommandExt as _;
    let Some((program, args)) = argv.split_first() else {
        return anyhow::anyhow!("gloveboxd confine: no program given");
    };
    let paths = allowed(hidden, open);
    match restrict(&paths) {
        Ok(true) => {}
        Ok(false) => return anyhow::anyhow!("{NOT_ENFORCED} by this kernel"),
        Err(e) => return anyhow::anyhow!("gloveboxd confine: {e}"),
    }
    let e = std::process::Command::new(program).args(args).exec();
    anyhow::anyhow!("gloveboxd confine: cannot run {}: {e}", Path::new(program).display())
}

/// Restricts this thread (and what it execs) to `paths`; `false` when nothing is enforced.
fn restrict(paths: &[PathBuf]) -> Result<bool, landlock::RulesetError> {
    let all = AccessFs::from_all(ABI::V5);
    let status = Ruleset::default()
        .handle_access(all)?
        .create()?
        .add_rules(path_beneath_rules(paths, all))?
        .restrict_self()?;
    Ok(status.ruleset != RulesetStatus::NotEnforced)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_way_down_to_a_hidden_path_is_split_and_links_into_it_are_dropped() {
        let base = std::env::temp_dir().join(format!("confine-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let state = base.join("home/state");
        for d in ["home/state/desktop", "home/.config", "other"] {
            std::fs::create_dir_all(base.join(d)).expect("mkdir");
        }
        std::fs::write(state.join("token"), "t").expect("token");
        std::os::unix::fs::symlink(&state, base.join("home/link")).expect("link");
        std::os::unix::fs::symlink(base.join("other"), base.join("home/to-other")).expect("link");
        let base = base.canonicalize().expect("canonical");
        let (state, desktop) = (base.join("home/state"), base.join("home/state/desktop"));
        let got = allowed(std::slice::from_ref(&state), std::slice::from_ref(&desktop));
        assert!(got.contains(&PathBuf::from("/usr")), "{got:?}");
        assert!(got.contains(&base.join("other")) && got.contains(&base.join("home/.config")));
        assert!(got.contains(&desktop), "an open path inside the hidden one: {got:?}");
        for p in &got {
            assert!(!state.starts_with(p), "{} would open the way to the state dir", p.display());
            assert!(!p.starts_with(&state) || p.starts_with(&desktop), "{}", p.display());
        }
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn a_hidden_path_in_a_dir_everyone_writes_in_is_refused() {
        let tmp = std::env::temp_dir().canonicalize().expect("tmp");
        if !world_writable(&tmp) {
            return;
        }
        let dir = tmp.join(format!("confine-shared-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let got = Confinement::new(std::slice::from_ref(&dir), &[], &[]);
        assert!(matches!(got, Err(Unconfined::SharedDir(..))), "{got:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
