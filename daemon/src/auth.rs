//! Tokens and roles: who may connect (WebSocket, MCP, stdio, the view page), and what each
//! role may do.
//!
//! The token file keeps no token: one line per token, `sha256:<64 hex digits>` (the token's
//! SHA-256) optionally followed by a role (`actor` when omitted) and a party
//! (`party=<name>`: tokens of one party share a browser context; a token without one is a
//! party of its own), so whatever can read the
//! file (the desktop the agent drives runs as the same user) learns nothing that
//! authenticates. `gloveboxd token add` prints a fresh token once and appends its hash. A
//! missing file is created (mode 0600) with the hash of a fresh actor token, which `main`
//! prints once. A plain-token line is still read, with a warning to convert it, and a token
//! shorter than [`MIN_TOKEN_LEN`] characters is refused (in the file and in `GLOVEBOX_TOKEN`):
//! a short one is guessable over the network.

mod request;

pub use request::{may_log, presented_token};

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use subtle::ConstantTimeEq as _;

/// A token's SHA-256: what the token file keeps, and what sessions, view cookies and MCP
/// sessions are bound to. Never the token itself.
pub type Digest = [u8; 32];

/// The prefix of a hashed line.
const HASHED: &str = "sha256:";

/// The SHA-256 of `token`.
pub fn digest(token: &str) -> Digest {
    use sha2::Digest as _;
    sha2::Sha256::digest(token.as_bytes()).into()
}

fn hex(d: &Digest) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Digest> {
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    let mut d = [0u8; 32];
    for (i, b) in d.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(d)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Read-only: observe actions, status, events, docs.
    Observer,
    /// Acts: every tool action, pause/resume, cancel.
    Actor,
    /// Reads and answers approvals, but does not act.
    Approver,
    /// Everything.
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Observer => "observer",
            Role::Actor => "actor",
            Role::Approver => "approver",
            Role::Admin => "admin",
        }
    }

    /// May run mutating actions and drive a session.
    pub fn can_act(self) -> bool {
        matches!(self, Role::Actor | Role::Admin)
    }

    /// May grant or deny approvals.
    pub fn can_approve(self) -> bool {
        matches!(self, Role::Approver | Role::Admin)
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "observer" => Some(Role::Observer),
            "actor" => Some(Role::Actor),
            "approver" => Some(Role::Approver),
            "admin" => Some(Role::Admin),
            _ => None,
        }
    }
}

/// The shortest token accepted (a generated one has 64 hex digits).
pub const MIN_TOKEN_LEN: usize = 32;

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("token file {path} line {line}: the token has {len} characters, fewer than {MIN_TOKEN_LEN}; use a long random one (`gloveboxd token add` makes one)")]
    TooShort { path: String, line: usize, len: usize },
    #[error("token file {path} line {line}: a sha256: line needs 64 hex digits (what `gloveboxd token add` writes)")]
    BadHash { path: String, line: usize },
    #[error("cannot read or write the token file {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("token file {path} line {line}: unknown role {role:?} (use observer, actor, approver or admin)")]
    BadRole { path: String, line: usize, role: String },
    #[error("token file {path} line {line}: bad party {party:?} (party=<name>: 1 to 64 letters, digits, '-' or '_')")]
    BadParty { path: String, line: usize, party: String },
    #[error("token file {path} has no token")]
    Empty { path: String },
    #[error("no randomness available to generate a token: {0}")]
    Random(String),
}

/// The accepted tokens (their digests), their roles and parties.
#[derive(Clone, Default)]
pub struct Tokens {
    entries: Vec<(Digest, Role, Option<String>)>,
}

/// Whether `name` may name a party: 1 to 64 ASCII letters, digits, `-` or `_`.
/// A profile's name is a party name: refused as a contract violation otherwise.
pub fn check_profile(name: &str) -> Result<(), glovebox_protocol::contract::Violation> {
    if party_name(name) {
        return Ok(());
    }
    let msg = format!("profile is 1 to 64 letters, digits, '-' or '_', not {name:?}");
    Err(glovebox_protocol::contract::Violation::new("profile", msg))
}

pub fn party_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a token or its hash.
        write!(f, "Tokens({} entries)", self.entries.len())
    }
}

/// A token file as read: its tokens, the plain-token lines it still has (to convert), and the
/// fresh token when the file was just made (shown once, then only its hash is kept).
#[derive(Debug)]
pub struct Loaded {
    pub tokens: Tokens,
    pub plain_lines: Vec<usize>,
    pub created: Option<String>,
}

impl Tokens {
    pub fn new(entries: impl IntoIterator<Item = (String, Role)>) -> Self {
        Tokens { entries: entries.into_iter().map(|(t, r)| (digest(&t), r, None)).collect() }
    }

    /// The same with `party` for the token `token`.
    pub fn in_party(mut self, token: &str, party: &str) -> Self {
        let d = digest(token);
        for e in self.entries.iter_mut().filter(|e| e.0 == d) {
            e.2 = Some(party.to_owned());
        }
        self
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The first token's digest (the one the banner's view link is for).
    pub fn first(&self) -> Option<Digest> {
        self.entries.first().map(|(d, _, _)| *d)
    }

    /// The role of `presented`: its digest compared against every one in constant time.
    pub fn role_of(&self, presented: &str) -> Option<Role> {
        self.role_of_digest(&digest(presented))
    }

    /// The role of the token with this digest.
    pub fn role_of_digest(&self, d: &Digest) -> Option<Role> {
        self.entry_of(d).map(|(r, _)| r)
    }

    /// The party of the token with this digest, if its line names one.
    pub fn party_of_digest(&self, d: &Digest) -> Option<String> {
        self.entry_of(d).and_then(|(_, p)| p)
    }

    fn entry_of(&self, d: &Digest) -> Option<(Role, Option<String>)> {
        let mut found = None;
        for (known, role, party) in &self.entries {
            if bool::from(known.as_slice().ct_eq(d.as_slice())) {
                found = Some((*role, party.clone()));
            }
        }
        found
    }

    /// The digests `self` held that `now` no longer holds with the same role and party: the
    /// tokens a reload revoked or moved.
    pub fn changed_in(&self, now: &Tokens) -> Vec<Digest> {
        self.entries
            .iter()
            .filter(|(d, r, p)| now.entry_of(d) != Some((*r, p.clone())))
            .map(|(d, _, _)| *d)
            .collect()
    }

    /// Read `path`, or create it with the hash of one fresh actor token when it does not
    /// exist (the token is in [`Loaded::created`], and nowhere else).
    pub fn load_or_create(path: &Path) -> Result<Loaded, TokenError> {
        let name = path.display().to_string();
        let io = |source| TokenError::Io { path: name.clone(), source };
        if !path.exists() {
            let token = add(path, Role::Actor, None)?;
            let tokens = Tokens::new([(token.clone(), Role::Actor)]);
            return Ok(Loaded { tokens, plain_lines: Vec::new(), created: Some(token) });
        }
        let text = std::fs::read_to_string(path).map_err(io)?;
        let mut entries = Vec::new();
        let mut plain_lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let first = words.next().unwrap_or_default();
            let d = match first.strip_prefix(HASHED) {
                Some(h) => {
                    unhex(h).ok_or(TokenError::BadHash { path: name.clone(), line: i + 1 })?
                }
                None => {
                    let len = first.chars().count();
                    if len < MIN_TOKEN_LEN {
                        return Err(TokenError::TooShort { path: name.clone(), line: i + 1, len });
                    }
                    plain_lines.push(i + 1);
                    digest(first)
                }
            };
            let role = match words.next() {
                None => Role::Actor,
                Some(r) => Role::parse(r).ok_or_else(|| TokenError::BadRole {
                    path: name.clone(),
                    line: i + 1,
                    role: r.to_owned(),
                })?,
            };
            let party = match words.next() {
                None => None,
                Some(w) => match w.strip_prefix("party=").filter(|p| party_name(p)) {
                    Some(p) => Some(p.to_owned()),
                    None => {
                        let party = w.to_owned();
                        return Err(TokenError::BadParty {
                            path: name.clone(),
                            line: i + 1,
                            party,
                        });
                    }
                },
            };
            entries.push((d, role, party));
        }
        if entries.is_empty() {
            return Err(TokenError::Empty { path: name });
        }
        Ok(Loaded { tokens: Tokens { entries }, plain_lines, created: None })
    }
}

/// Make a fresh token of `role` (in `party`, if given) and append its hash to `path`
/// (created 0600 when missing); the token, which is kept nowhere else.
pub fn add(path: &Path, role: Role, party: Option<&str>) -> Result<String, TokenError> {
    let name = path.display().to_string();
    let io = |source| TokenError::Io { path: name.clone(), source };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let token = generate()?;
    let mut f =
        std::fs::OpenOptions::new().append(true).create(true).mode(0o600).open(path).map_err(io)?;
    let party = party.map(|p| format!(" party={p}")).unwrap_or_default();
    writeln!(f, "{HASHED}{} {}{party}", hex(&digest(&token)), role.as_str()).map_err(io)?;
    Ok(token)
}

/// The line a token file keeps for `token` of `role`.
pub fn hashed_line(token: &str, role: Role) -> String {
    format!("{HASHED}{} {}", hex(&digest(token)), role.as_str())
}

/// `GLOVEBOX_TOKEN`'s value as an actor token, under the same length rule as the file's.
pub fn from_env(value: &str) -> Result<Tokens, TokenError> {
    let token = value.trim();
    let len = token.chars().count();
    if len < MIN_TOKEN_LEN {
        return Err(TokenError::TooShort { path: "$GLOVEBOX_TOKEN".into(), line: 1, len });
    }
    Ok(Tokens::new([(token.to_owned(), Role::Actor)]))
}

/// 32 random bytes as hex.
pub fn generate() -> Result<String, TokenError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| TokenError::Random(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("glovebox-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        dir
    }

    #[test]
    fn roles_and_compare() {
        let t = Tokens::new([("aaa".into(), Role::Actor), ("bbb".into(), Role::Observer)]);
        assert_eq!(t.role_of("aaa"), Some(Role::Actor));
        assert_eq!(t.role_of("bbb"), Some(Role::Observer));
        assert_eq!(t.role_of("aa"), None);
        assert_eq!(t.role_of(""), None);
        assert_eq!(t.role_of_digest(&digest("bbb")), Some(Role::Observer));
        let now = Tokens::new([("aaa".into(), Role::Observer), ("ccc".into(), Role::Actor)]);
        assert_eq!(t.changed_in(&now), vec![digest("aaa"), digest("bbb")]);
        assert!(now.changed_in(&now).is_empty());
    }

    #[test]
    fn short_tokens_are_refused_with_their_line() {
        let dir = temp("short");
        let path = dir.join("tokens");
        let long = "a".repeat(MIN_TOKEN_LEN);
        std::fs::write(&path, format!("# comment\n{long} actor\n\n0123456789 observer\n"))
            .expect("write");
        let e = Tokens::load_or_create(&path).expect_err("refused");
        assert!(matches!(e, TokenError::TooShort { line: 4, len: 10, .. }), "{e}");
        let text = e.to_string();
        assert!(text.contains("line 4") && !text.contains("0123456789"), "{text}");
        std::fs::write(&path, format!("{long} actor\n")).expect("write");
        let read = Tokens::load_or_create(&path).expect("accepted");
        assert_eq!((read.tokens.len(), read.plain_lines), (1, vec![1]));
        assert!(from_env("short").is_err());
        assert_eq!(from_env(&format!(" {long} ")).expect("env").role_of(&long), Some(Role::Actor));
        std::fs::write(&path, "sha256:abcd actor\n").expect("write");
        assert!(matches!(Tokens::load_or_create(&path), Err(TokenError::BadHash { line: 1, .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_file_keeps_hashes_only() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = temp("token");
        let path = dir.join("token");
        let made = Tokens::load_or_create(&path).expect("created");
        let token = made.created.expect("a fresh token");
        assert_eq!(token.len(), 64);
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(!text.contains(&token), "the token itself is not kept: {text}");
        assert_eq!(text.trim(), hashed_line(&token, Role::Actor));
        let watcher = add(&path, Role::Observer, Some("team-a")).expect("added");
        let read = Tokens::load_or_create(&path).expect("read");
        assert!(read.created.is_none() && read.plain_lines.is_empty());
        assert_eq!(read.tokens.role_of(&token), Some(Role::Actor));
        assert_eq!(read.tokens.role_of(&watcher), Some(Role::Observer));
        assert_eq!(read.tokens.party_of_digest(&digest(&token)), None);
        assert_eq!(read.tokens.party_of_digest(&digest(&watcher)).as_deref(), Some("team-a"));
        std::fs::write(&path, format!("sha256:{} chief\n", hex(&digest(&token)))).expect("write");
        assert!(matches!(Tokens::load_or_create(&path), Err(TokenError::BadRole { .. })));
        let bad = format!("sha256:{} actor team/a\n", hex(&digest(&token)));
        std::fs::write(&path, bad).expect("write");
        assert!(matches!(Tokens::load_or_create(&path), Err(TokenError::BadParty { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
