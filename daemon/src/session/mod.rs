//! Per-session state: who drives it, whether it is paused, what it has selected.
//!
//! A session outlives its connection: a client that reconnects and names it in
//! `session.hello` gets it back, selections and op results included.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use dashmap::DashMap;
use serde::Serialize;

use crate::error::DaemonError;

/// What the session has chosen to work on; omitted ids in calls fall back to these.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Selection {
    pub browser_id: Option<String>,
    pub tab_id: Option<String>,
    pub app_id: Option<String>,
    pub window_id: Option<String>,
}

#[derive(Debug)]
pub struct Session {
    pub id: String,
    /// The connection that drives the session, if one does.
    owner: Mutex<Option<u64>>,
    paused: AtomicBool,
    pub selection: Mutex<Selection>,
}

impl Session {
    fn new(id: String) -> Self {
        Session {
            id,
            owner: Mutex::new(None),
            paused: AtomicBool::new(false),
            selection: Mutex::new(Selection::default()),
        }
    }

    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::SeqCst)
    }

    pub fn set_paused(&self, paused: bool) {
        self.paused.store(paused, Ordering::SeqCst);
    }

    pub fn selection(&self) -> Selection {
        self.selection.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Forget the owner if it is `conn`; called when that connection closes.
    pub fn detach(&self, conn: u64) {
        if let Ok(mut owner) = self.owner.lock() {
            if *owner == Some(conn) {
                *owner = None;
            }
        }
    }
}

/// All sessions by name.
#[derive(Debug, Default)]
pub struct Sessions {
    by_id: DashMap<String, Arc<Session>>,
    minted: AtomicU64,
}

impl Sessions {
    /// Start or resume `name` for connection `conn`. An actor may not take a session another
    /// live connection drives; an observer may watch it.
    pub fn attach(
        &self,
        name: Option<&str>,
        conn: u64,
        actor: bool,
    ) -> Result<(Arc<Session>, bool), DaemonError> {
        let id = match name {
            Some(n) => n.to_owned(),
            None => format!("s{}-{}", std::process::id(), self.minted.fetch_add(1, Ordering::SeqCst) + 1),
        };
        let entry = self.by_id.entry(id.clone());
        let resumed = matches!(entry, dashmap::Entry::Occupied(_));
        let session = entry.or_insert_with(|| Arc::new(Session::new(id.clone()))).clone();
        if actor {
            let mut owner = session.owner.lock().map_err(|_| DaemonError::SessionBusy(id.clone()))?;
            match *owner {
                Some(other) if other != conn => return Err(DaemonError::SessionBusy(id)),
                _ => *owner = Some(conn),
            }
        }
        Ok((session, resumed))
    }

    /// End a session for good.
    pub fn remove(&self, id: &str) {
        self.by_id.remove(id);
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }
}
