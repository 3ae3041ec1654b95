//! The live DevTools endpoints of code clients (`browser.cdp_session`): each one's secret,
//! tab, session and owner, and whether a client holds it now. Below the transport, beside the
//! connections; `code/` serves, bridges and ends them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::watch;

use crate::session::Owner;

/// One endpoint.
#[derive(Debug)]
pub struct Entry {
    pub cdp_id: String,
    pub(crate) secret: String,
    pub browser_id: String,
    pub tab_id: String,
    pub target_id: String,
    /// The glovebox session that asked for it.
    pub session_id: String,
    pub owner: Owner,
    pub expires: Instant,
    pub expires_at: String,
    /// A client is connected now.
    pub(crate) connected: AtomicBool,
    /// Why it ended, once it has.
    pub(crate) ended: watch::Sender<Option<String>>,
}

impl Entry {
    /// `ws://<host>/cdp/<secret>`.
    pub fn url(&self, host: &str) -> String {
        format!("ws://{host}/cdp/{}", self.secret)
    }

    /// Why it ended, once it has (a receiver to wait on).
    pub fn ended(&self) -> watch::Receiver<Option<String>> {
        self.ended.subscribe()
    }

    /// Take the endpoint for one connection; false if one holds it already.
    pub fn take(&self) -> bool {
        !self.connected.swap(true, Ordering::SeqCst)
    }

    /// The connection is gone: the next may come.
    pub fn release(&self) {
        self.connected.store(false, Ordering::SeqCst);
    }

    pub fn is_connected(&self) -> bool {
        self.connected.load(Ordering::SeqCst)
    }

    /// How `tab_get` and `tab_list` show it.
    pub fn json(&self) -> Value {
        json!({"cdp_id": self.cdp_id, "connected": self.is_connected(),
               "expires_at": self.expires_at, "by": format!("cdp:{}", self.cdp_id)})
    }
}

/// Every live endpoint of the daemon.
#[derive(Debug, Default)]
pub struct Code {
    pub(crate) by_id: Mutex<HashMap<String, Arc<Entry>>>,
    /// The daemon's listening address, which endpoint URLs name.
    listen: std::sync::OnceLock<std::net::SocketAddr>,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

pub(crate) fn random_hex(n: usize) -> Option<String> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// What a new endpoint is for.
#[derive(Debug)]
pub struct Request {
    pub browser_id: String,
    pub tab_id: String,
    pub target_id: String,
    pub session_id: String,
    pub owner: Owner,
    pub ttl: Duration,
}

impl Code {
    /// Where the daemon listens (set once, as it starts serving).
    pub fn set_listen(&self, addr: std::net::SocketAddr) {
        let _ = self.listen.set(addr);
    }

    /// `host:port` of endpoint URLs: the listening address, or when that is every address
    /// (`0.0.0.0`), the first `--allow-host` name, else loopback.
    pub fn host(&self, allowed_hosts: &[String]) -> String {
        let Some(addr) = self.listen.get() else { return "127.0.0.1".into() };
        if !addr.ip().is_unspecified() {
            return addr.to_string();
        }
        match allowed_hosts.first() {
            Some(h) => format!("{h}:{}", addr.port()),
            None => format!("127.0.0.1:{}", addr.port()),
        }
    }

    /// The endpoint whose URL carries `secret`.
    pub fn by_secret(&self, secret: &str) -> Option<Arc<Entry>> {
        lock(&self.by_id).values().find(|e| e.secret == secret).cloned()
    }

    pub fn get(&self, cdp_id: &str) -> Option<Arc<Entry>> {
        lock(&self.by_id).get(cdp_id).cloned()
    }

    /// The live endpoints on a tab, as `tab_get` and `tab_list` show them.
    pub fn of_tab(&self, browser_id: &str, tab_id: &str) -> Vec<Value> {
        let mut out: Vec<(String, Value)> = lock(&self.by_id)
            .values()
            .filter(|e| e.browser_id == browser_id && e.tab_id == tab_id)
            .map(|e| (e.cdp_id.clone(), e.json()))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out.into_iter().map(|(_, v)| v).collect()
    }

    /// Every live endpoint (the view page).
    pub fn all(&self) -> Vec<Arc<Entry>> {
        lock(&self.by_id).values().cloned().collect()
    }
}
