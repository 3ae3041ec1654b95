//! Tokens and roles: who may connect (WebSocket, MCP, stdio), and what each role may do.
//!
//! The token file holds one token per line, optionally followed by a role
//! (`actor` when omitted). A missing file is created with a fresh random token, mode 0600.
//! A token shorter than [`MIN_TOKEN_LEN`] characters is refused, in the file and in
//! `GLOVEBOX_TOKEN`: a short one is guessable over the network.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use subtle::ConstantTimeEq as _;

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

    fn parse(s: &str) -> Option<Role> {
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
    #[error("token file {path} line {line}: the token has {len} characters, fewer than {MIN_TOKEN_LEN}; use a long random one (e.g. `openssl rand -hex 32`)")]
    TooShort { path: String, line: usize, len: usize },
    #[error("cannot read or write the token file {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("token file {path} line {line}: unknown role {role:?} (use observer, actor, approver or admin)")]
    BadRole { path: String, line: usize, role: String },
    #[error("token file {path} has no token")]
    Empty { path: String },
    #[error("no randomness available to generate a token: {0}")]
    Random(String),
}

/// The accepted tokens and their roles.
#[derive(Clone, Default)]
pub struct Tokens {
    entries: Vec<(Vec<u8>, Role)>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a token.
        write!(f, "Tokens({} entries)", self.entries.len())
    }
}

impl Tokens {
    pub fn new(entries: impl IntoIterator<Item = (String, Role)>) -> Self {
        Tokens { entries: entries.into_iter().map(|(t, r)| (t.into_bytes(), r)).collect() }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The first token (the one the banner's view link is for).
    pub fn first(&self) -> Option<String> {
        self.entries.first().and_then(|(t, _)| String::from_utf8(t.clone()).ok())
    }

    /// The role of `presented`, comparing against every token in constant time.
    pub fn role_of(&self, presented: &str) -> Option<Role> {
        let mut found = None;
        for (token, role) in &self.entries {
            if bool::from(token.as_slice().ct_eq(presented.as_bytes())) {
                found = Some(*role);
            }
        }
        found
    }

    /// Read `path`, or create it with one fresh actor token when it does not exist.
    pub fn load_or_create(path: &Path) -> Result<Tokens, TokenError> {
        let name = path.display().to_string();
        let io = |source| TokenError::Io { path: name.clone(), source };
        if !path.exists() {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(io)?;
            }
            let token = generate()?;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(path)
                .map_err(io)?;
            writeln!(f, "{token}").map_err(io)?;
            return Ok(Tokens::new([(token, Role::Actor)]));
        }
        let text = std::fs::read_to_string(path).map_err(io)?;
        let mut entries = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let token = words.next().unwrap_or_default().to_owned();
            let len = token.chars().count();
            if len < MIN_TOKEN_LEN {
                return Err(TokenError::TooShort { path: name.clone(), line: i + 1, len });
            }
            let role = match words.next() {
                None => Role::Actor,
                Some(r) => Role::parse(r).ok_or_else(|| TokenError::BadRole {
                    path: name.clone(),
                    line: i + 1,
                    role: r.to_owned(),
                })?,
            };
            entries.push((token, role));
        }
        if entries.is_empty() {
            return Err(TokenError::Empty { path: name });
        }
        Ok(Tokens::new(entries))
    }
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

    #[test]
    fn roles_and_compare() {
        let t = Tokens::new([("aaa".into(), Role::Actor), ("bbb".into(), Role::Observer)]);
        assert_eq!(t.role_of("aaa"), Some(Role::Actor));
        assert_eq!(t.role_of("bbb"), Some(Role::Observer));
        assert_eq!(t.role_of("aa"), None);
        assert_eq!(t.role_of(""), None);
    }

    #[test]
    fn short_tokens_are_refused_with_their_line() {
        let dir = std::env::temp_dir().join(format!("glovebox-short-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("tokens");
        let long = "a".repeat(MIN_TOKEN_LEN);
        std::fs::write(&path, format!("# comment\n{long} actor\n\n0123456789 observer\n"))
            .expect("write");
        let e = Tokens::load_or_create(&path).expect_err("refused");
        assert!(matches!(e, TokenError::TooShort { line: 4, len: 10, .. }), "{e}");
        let text = e.to_string();
        assert!(text.contains("line 4") && !text.contains("0123456789"), "{text}");
        std::fs::write(&path, format!("{long} actor\n")).expect("write");
        assert_eq!(Tokens::load_or_create(&path).expect("accepted").len(), 1);
        assert!(from_env("short").is_err());
        assert_eq!(from_env(&format!(" {long} ")).expect("env").role_of(&long), Some(Role::Actor));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn file_is_created_0600_and_read_back() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = std::env::temp_dir().join(format!("glovebox-token-{}", std::process::id()));
        let path = dir.join("token");
        let _ = std::fs::remove_file(&path);
        let made = Tokens::load_or_create(&path).expect("created");
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let token = std::fs::read_to_string(&path).expect("read").trim().to_owned();
        assert_eq!(token.len(), 64);
        assert_eq!(made.role_of(&token), Some(Role::Actor));
        let watcher = "watcher-0123456789abcdef0123456789";
        std::fs::write(&path, format!("{token}\n{watcher} observer\n")).expect("write");
        let read = Tokens::load_or_create(&path).expect("read");
        assert_eq!(read.role_of(watcher), Some(Role::Observer));
        std::fs::write(&path, format!("{watcher} chief\n")).expect("write");
        assert!(matches!(Tokens::load_or_create(&path), Err(TokenError::BadRole { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
