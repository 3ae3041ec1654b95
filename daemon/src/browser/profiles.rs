//! Cookies and localStorage that outlive a context: a party's named profile
//! (`session.hello {profile}`) is saved under the state dir after each of its sessions'
//! browser actions and when the daemon stops, and loaded when its context is made again;
//! `browser.storage_state` writes or reads the same thing as Playwright's `storageState`
//! JSON, so a state saved by Playwright loads here and the other way round.

use std::collections::BTreeSet;
use std::path::PathBuf;

use chromiumoxide::cdp::browser_protocol::dom_storage::{
    EnableParams as DomStorageEnable, GetDomStorageItemsParams, SerializedStorageKey, StorageId,
};
use chromiumoxide::cdp::browser_protocol::network::{CookieParam, CookieSameSite, TimeSinceEpoch};
use chromiumoxide::cdp::browser_protocol::storage::{GetCookiesParams, SetCookiesParams};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{BrowserError, Browsers, Conn, Lane, Tab};

/// A party's named profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// The party's lane (16 hex digits).
    pub party: String,
    pub name: String,
}

/// Playwright's `storageState` JSON.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct StorageState {
    #[serde(default)]
    pub cookies: Vec<Cookie>,
    #[serde(default)]
    pub origins: Vec<Origin>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cookie {
    pub name: String,
    pub value: String,
    pub domain: String,
    #[serde(default = "root_path")]
    pub path: String,
    /// Seconds since the epoch; -1 for a session cookie.
    #[serde(default = "session_cookie")]
    pub expires: f64,
    #[serde(default)]
    pub http_only: bool,
    #[serde(default)]
    pub secure: bool,
    #[serde(default = "lax")]
    pub same_site: String,
}

fn root_path() -> String {
    "/".into()
}

fn session_cookie() -> f64 {
    -1.0
}

fn lax() -> String {
    "Lax".into()
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    pub origin: String,
    #[serde(default)]
    pub local_storage: Vec<Item>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Item {
    pub name: String,
    pub value: String,
}

/// `scheme://host[:port]` of a web URL.
fn origin_of(url: &str) -> Option<String> {
    let u = glovebox_protocol::url::parse_navigation(url).ok()?;
    matches!(u.scheme(), "http" | "https").then(|| u.origin().ascii_serialization())
}

/// The localStorage of `origin` by its storage key (a first-party key is the origin and a
/// slash), which needs no frame of that origin open.
fn storage_id(origin: &str) -> StorageId {
    let key = SerializedStorageKey::new(format!("{origin}/"));
    StorageId { security_origin: None, storage_key: Some(key), is_local_storage: true }
}

impl StorageState {
    /// The cookies of `context` and the localStorage of `origins`, read through `tab` (a
    /// tab of that context).
    pub async fn read(
        conn: &Conn,
        context: &str,
        tab: &Tab,
        origins: &BTreeSet<String>,
    ) -> Result<StorageState, BrowserError> {
        let ask = GetCookiesParams { browser_context_id: Some(context.to_owned().into()) };
        let r = conn.run(ask).await?;
        let cookies = r
            .cookies
            .into_iter()
            .map(|c| Cookie {
                name: c.name,
                value: c.value,
                domain: c.domain,
                path: c.path,
                expires: if c.session { -1.0 } else { c.expires },
                http_only: c.http_only,
                secure: c.secure,
                same_site: c.same_site.as_ref().map_or("Lax", |s| s.as_ref()).to_owned(),
            })
            .collect();
        tab.run(DomStorageEnable::default()).await?;
        let mut out = Vec::new();
        for origin in origins {
            let got = tab.run(GetDomStorageItemsParams::new(storage_id(origin))).await;
            let Ok(got) = got else { continue };
            let items: Vec<Item> = got
                .entries
                .into_iter()
                .filter_map(|e| match e.inner().as_slice() {
                    [name, value, ..] => Some(Item { name: name.clone(), value: value.clone() }),
                    _ => None,
                })
                .collect();
            // Read, even when empty (an origin that could not be read is left out).
            out.push(Origin { origin: origin.clone(), local_storage: items });
        }
        Ok(StorageState { cookies, origins: out })
    }

    /// Sets these cookies in `context`.
    pub async fn write_cookies(&self, conn: &Conn, context: &str) -> Result<(), BrowserError> {
        if self.cookies.is_empty() {
            return Ok(());
        }
        let cookies: Vec<CookieParam> = self
            .cookies
            .iter()
            .map(|c| {
                let mut p = CookieParam::new(c.name.clone(), c.value.clone());
                p.domain = Some(c.domain.clone());
                p.path = Some(c.path.clone());
                p.http_only = Some(c.http_only);
                p.secure = Some(c.secure);
                let known = ["Strict", "Lax", "None"].contains(&c.same_site.as_str());
                p.same_site = known.then(|| c.same_site.parse::<CookieSameSite>().ok()).flatten();
                p.expires = (c.expires > 0.0).then(|| TimeSinceEpoch::new(c.expires));
                p
            })
            .collect();
        let mut params = SetCookiesParams::new(cookies);
        params.browser_context_id = Some(context.to_owned().into());
        conn.run(params).await.map(|_| ())
    }

    /// Sets this localStorage through `tab`, a blank tab of the context: it opens each
    /// origin as a blank page the guard serves (nothing goes out; an origin the policy
    /// denies is skipped) and sets the items there, then goes back to `about:blank`.
    pub async fn write_storage(&self, tab: &Tab) -> Result<(), BrowserError> {
        if self.origins.is_empty() {
            return Ok(());
        }
        let wait = std::time::Duration::from_secs(10);
        for o in &self.origins {
            let url = format!("{}/", o.origin);
            tab.conn.guard().serve_blank(&tab.target_id, &url);
            if let Err(e) = tab.navigate(&url, wait).await {
                tracing::info!(origin = %o.origin, %e, "a saved origin's storage was not set");
                continue;
            }
            let items: Vec<(&str, &str)> =
                o.local_storage.iter().map(|i| (i.name.as_str(), i.value.as_str())).collect();
            let set =
                format!("for (const [k, v] of {}) localStorage.setItem(k, v); true", json!(items));
            tab.eval::<Value>(&set).await?;
        }
        tab.navigate("about:blank", wait).await.map(|_| ())
    }

    pub fn origin_names(&self) -> impl Iterator<Item = String> + '_ {
        self.origins.iter().map(|o| o.origin.clone())
    }
}

impl Browsers {
    /// Where a profile is kept: the state dir's, out of the desktop's reach.
    pub(super) fn profile_path(&self, p: &Profile) -> PathBuf {
        self.state_dir().join("profiles").join(&p.party).join(format!("{}.json", p.name))
    }

    /// The saved state of a profile, if any.
    pub(super) fn saved_profile(&self, p: &Profile) -> Option<StorageState> {
        let bytes = std::fs::read(self.profile_path(p)).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// The state of `lane`'s context as `tab` (one of its tabs) reads it: its cookies and
    /// the localStorage of the origins its tabs show or its saved state had (an origin read
    /// empty is listed so; one that could not be read is left out).
    pub async fn storage_state(
        &self,
        lane: &Lane,
        tab: &Tab,
    ) -> Result<StorageState, BrowserError> {
        let Some(context) = self.context_of(&tab.conn, lane).await? else {
            return Err(BrowserError::OwnBrowserOnly(
                "this browser keeps no context per party (an allowed browser is shared); storage state is the daemon's own browser's".into(),
            ));
        };
        let mut origins: BTreeSet<String> = tab.conn.contexts().origins(&lane.key);
        for t in tab.conn.targets().await? {
            if t.context.as_deref() == Some(context.as_str()) {
                origins.extend(origin_of(&t.url));
            }
        }
        StorageState::read(&tab.conn, &context, tab, &origins).await
    }

    /// Loads `state` into `lane`'s context through `tab` (one of its tabs).
    pub async fn load_storage_state(
        &self,
        lane: &Lane,
        tab: &Tab,
        state: &StorageState,
    ) -> Result<(), BrowserError> {
        let Some(context) = self.context_of(&tab.conn, lane).await? else {
            return Err(BrowserError::OwnBrowserOnly(
                "this browser keeps no context per party; storage state is the daemon's own browser's".into(),
            ));
        };
        state.write_cookies(&tab.conn, &context).await?;
        state.write_storage(tab).await?;
        tab.conn.contexts().add_origins(&lane.key, state.origin_names());
        Ok(())
    }

    /// Saves the profile of `lane` (if it is one) as `tab` reads it; the origins that could
    /// not be read (no frame of theirs is open) keep what was saved. A failure is logged.
    pub async fn save_profile(&self, lane: &Lane, tab: &Tab) {
        let Some(p) = &lane.profile else { return };
        let mut state = match self.storage_state(lane, tab).await {
            Ok(s) => s,
            Err(e) => return tracing::debug!(%e, profile = %p.name, "cannot read the profile"),
        };
        for old in self.saved_profile(p).map(|s| s.origins).unwrap_or_default() {
            if !state.origins.iter().any(|o| o.origin == old.origin) {
                state.origins.push(old);
            }
        }
        state.origins.retain(|o| !o.local_storage.is_empty());
        let path = self.profile_path(p);
        let write = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, serde_json::to_vec(&state).unwrap_or_default()));
        if let Err(e) = write {
            tracing::warn!(%e, profile = %p.name, "cannot save the profile");
        }
    }

    /// Saves every profile with a tab open (the daemon stops).
    pub async fn save_profiles(&self) {
        let conns: Vec<std::sync::Arc<Conn>> =
            self.conns.lock().await.values().filter(|c| c.has_lanes()).cloned().collect();
        for conn in conns {
            for (lane, context) in conn.contexts().profiles() {
                let Ok(targets) = conn.targets().await else { continue };
                let Some(t) = targets.iter().find(|t| t.context.as_deref() == Some(&context))
                else {
                    continue;
                };
                let tab_id = super::tab_id_of(&t.target_id);
                if let Ok(tab) = self.tab(&conn.browser_id, &tab_id).await {
                    self.save_profile(&lane, &tab).await;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playwrights_storage_state_reads_and_writes_back() {
        let pw = r#"{"cookies":[{"name":"sid","value":"42","domain":"127.0.0.1","path":"/",
            "expires":-1,"httpOnly":true,"secure":false,"sameSite":"Lax"}],
            "origins":[{"origin":"http://127.0.0.1:8080","localStorage":[{"name":"k","value":"v"}]}]}"#;
        let s: StorageState = serde_json::from_str(pw).expect("Playwright's shape");
        assert_eq!((s.cookies.len(), s.origins.len()), (1, 1));
        assert!(s.cookies[0].http_only && s.cookies[0].expires < 0.0);
        let back = serde_json::to_value(&s).expect("json");
        assert_eq!(back["cookies"][0]["httpOnly"], true);
        assert_eq!(back["origins"][0]["localStorage"][0]["name"], "k");
        assert_eq!(origin_of("http://127.0.0.1:8080/a?b"), Some("http://127.0.0.1:8080".into()));
        assert_eq!(origin_of("about:blank"), None);
    }
}
