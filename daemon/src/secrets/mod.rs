//! Named secrets the agent names and the daemon types (`--secrets FILE`, `secrets.put`):
//! the value goes into a page or a desktop field only where the secret allows it, and no
//! answer, event, log line or capture shows it (`redact.rs`, `paint.rs`).

mod file;
pub mod paint;
pub mod redact;
mod totp;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::RwLock;

use glovebox_protocol::results::context::SecretInfo;

pub use file::SecretsError;
pub use redact::{LogWriter, Redactor};

/// One secret as the file gives it.
#[derive(Clone, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Secret {
    pub name: String,
    pub value: String,
    /// Origins (`https://github.com`) a page or frame must have for it to be typed there.
    #[serde(default)]
    pub origins: Vec<String>,
    /// Desktop apps (by name, as list_apps has them) `computer.type` may type it into.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apps: Vec<String>,
    /// A TOTP seed in base32 (RFC 6238: SHA-1, 6 digits, 30 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub totp: Option<String>,
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secret")
            .field("name", &self.name)
            .field("origins", &self.origins)
            .field("apps", &self.apps)
            .finish_non_exhaustive()
    }
}

impl Secret {
    /// Whether a document of `origin` (`scheme://host[:port]`) may receive it.
    pub fn allows_origin(&self, origin: &str) -> bool {
        self.origins.iter().any(|o| o == origin)
    }

    /// Whether an app of this name may receive it (names compared without case).
    pub fn allows_app(&self, app: &str) -> bool {
        self.apps.iter().any(|a| a.eq_ignore_ascii_case(app))
    }

    /// The current one-time code of its seed.
    pub fn totp_now(&self) -> Result<String, SecretsError> {
        let seed = self.totp.as_deref().ok_or_else(|| SecretsError::NoTotp(self.name.clone()))?;
        totp::now(seed).map_err(|why| SecretsError::Invalid(format!("{}: {why}", self.name)))
    }

    fn info(&self) -> SecretInfo {
        SecretInfo {
            name: self.name.clone(),
            origins: self.origins.clone(),
            apps: self.apps.clone(),
            totp: self.totp.is_some(),
        }
    }
}

/// The secrets in force, the file they came from, and the redactor that hides their values.
#[derive(Debug, Default)]
pub struct Vault {
    file: Option<PathBuf>,
    secrets: RwLock<BTreeMap<String, Secret>>,
    redactor: Redactor,
    /// Secrets typed into pages, until those pages go (`secrets_left` in results).
    pub followed: Followed,
}

impl Vault {
    /// An empty vault whose values `redactor` will hide (the log's writer shares it).
    pub fn new(redactor: Redactor) -> Vault {
        Vault { redactor, ..Vault::default() }
    }

    /// The secrets of `path` (0600 or stricter), reloaded from there on SIGHUP.
    pub fn load(path: PathBuf, redactor: Redactor) -> Result<Vault, SecretsError> {
        let vault = Vault { file: Some(path), ..Vault::new(redactor) };
        vault.reload()?;
        Ok(vault)
    }

    /// Read the file again; on error the secrets in force stay. The number now in force.
    pub fn reload(&self) -> Result<usize, SecretsError> {
        let Some(path) = &self.file else { return Ok(self.len()) };
        let fresh = file::read(path)?;
        Ok(self.replace(fresh))
    }

    /// Put `secrets` in force (tests and embedding).
    pub fn replace(&self, secrets: Vec<Secret>) -> usize {
        let map: BTreeMap<_, _> = secrets.into_iter().map(|s| (s.name.clone(), s)).collect();
        let n = map.len();
        let mut held = self.secrets.write().unwrap_or_else(|p| p.into_inner());
        // A value once known stays hidden: a reload may drop a secret a page still shows.
        for s in held.values().chain(map.values()) {
            self.redactor.add(&s.name, &s.value);
        }
        *held = map;
        n
    }

    /// Add or replace one secret; with `persist`, the file is written too (0600).
    pub fn put(&self, secret: Secret, persist: bool) -> Result<(), SecretsError> {
        let secret = file::checked(secret)?;
        self.redactor.add(&secret.name, &secret.value);
        let mut held = self.secrets.write().unwrap_or_else(|p| p.into_inner());
        let mut next = held.clone();
        next.insert(secret.name.clone(), secret);
        if persist {
            self.persist(&next)?;
        }
        *held = next;
        Ok(())
    }

    /// Forget one secret (its value stays redacted); whether it was there.
    pub fn delete(&self, name: &str, persist: bool) -> Result<bool, SecretsError> {
        let mut held = self.secrets.write().unwrap_or_else(|p| p.into_inner());
        let mut next = held.clone();
        let was = next.remove(name).is_some();
        if persist {
            self.persist(&next)?;
        }
        *held = next;
        Ok(was)
    }

    fn persist(&self, secrets: &BTreeMap<String, Secret>) -> Result<(), SecretsError> {
        let path = self.file.as_ref().ok_or(SecretsError::NoFile)?;
        file::write(path, secrets.values())
    }

    pub fn get(&self, name: &str) -> Option<Secret> {
        self.secrets.read().ok()?.get(name).cloned()
    }

    pub fn len(&self) -> usize {
        self.secrets.read().map(|s| s.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every secret by name, with where it may go; never a value.
    pub fn list(&self) -> Vec<SecretInfo> {
        self.secrets.read().map(|s| s.values().map(Secret::info).collect()).unwrap_or_default()
    }

    /// Every value in force with its name, for finding fields that hold one (captures).
    pub fn values(&self) -> Vec<(String, String)> {
        self.secrets
            .read()
            .map(|s| s.values().map(|s| (s.name.clone(), s.value.clone())).collect())
            .unwrap_or_default()
    }

    pub fn redactor(&self) -> &Redactor {
        &self.redactor
    }
}

/// A secret typed into a tab's document, followed until the tab navigates.
#[derive(Debug, Clone)]
pub struct Typed {
    pub session: String,
    pub browser_id: String,
    pub tab_id: String,
    pub secret: String,
    /// What was typed is its one-time code, not its value.
    pub code: bool,
    pub origin: String,
}

impl Typed {
    /// The same secret (value or code) in the same session's tab.
    pub fn same(&self, o: &Typed) -> bool {
        (&self.session, &self.tab_id, &self.secret, self.code)
            == (&o.session, &o.tab_id, &o.secret, o.code)
    }
}

/// The typed secrets followed (bounded: the oldest go first).
#[derive(Debug, Default)]
pub struct Followed(std::sync::Mutex<std::collections::VecDeque<Typed>>);

impl Followed {
    const KEPT: usize = 256;

    pub fn add(&self, t: Typed) {
        let mut q = self.0.lock().unwrap_or_else(|p| p.into_inner());
        q.retain(|o| !o.same(&t));
        if q.len() >= Self::KEPT {
            q.pop_front();
        }
        q.push_back(t);
    }

    /// Every secret followed for `session`.
    pub fn of_session(&self, session: &str) -> Vec<Typed> {
        let q = self.0.lock().unwrap_or_else(|p| p.into_inner());
        q.iter().filter(|t| t.session == session).cloned().collect()
    }

    /// No longer follows `t` (its page no longer holds it).
    pub fn forget(&self, t: &Typed) {
        let mut q = self.0.lock().unwrap_or_else(|p| p.into_inner());
        q.retain(|o| !o.same(t));
    }

    /// The secrets typed in `session` into `tab_id`'s document, which has now navigated:
    /// they are no longer followed.
    pub fn take(&self, session: &str, tab_id: &str) -> Vec<Typed> {
        let mut q = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let (taken, kept): (Vec<Typed>, Vec<Typed>) =
            q.drain(..).partition(|t| t.session == session && t.tab_id == tab_id);
        *q = kept.into();
        taken
    }
}
