//! The person in control of the desktop, if any: whose sessions the takeover covers, which
//! page holds it, and the bus from its start on (read at the hand-back).

use std::sync::Mutex;
use std::time::Instant;

use tokio::sync::broadcast;

use crate::events::Scoped;
use crate::session::Owner;

/// The person in control.
#[derive(Debug)]
pub struct Control {
    /// How the page names them (`actor 1a2b3c4d`).
    pub by: String,
    /// Whose sessions the takeover covers (an admin's: all).
    pub owner: Owner,
    /// The page socket that holds control.
    pub socket: u64,
    pub(crate) started: Instant,
    /// The bus from the takeover on, read as the person's token sees it at the hand-back
    /// (a takeover longer than the bus's 1024 queued events loses the oldest).
    pub(crate) changes: Mutex<broadcast::Receiver<Scoped>>,
}

impl super::People {
    /// Who controls now and from which page socket.
    pub fn controller(&self) -> Option<(String, u64)> {
        let c = self.control.lock().unwrap_or_else(|p| p.into_inner());
        c.as_ref().map(|c| (c.by.clone(), c.socket))
    }
}
