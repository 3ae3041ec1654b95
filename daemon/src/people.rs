//! The people in the loop, as the daemon keeps them for every channel: who is in control of
//! the desktop, what agents asked a person for, each session's recent ops, the view page's
//! single-use codes and its open pages. The page itself, its socket and what a person does
//! there are `view/`; the pipeline reads this (a takeover pauses sessions) without reaching
//! up into the page.

pub mod access;
mod control;
mod feed;
mod requests;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

pub use access::Access;
pub use control::Control;
pub use requests::Request;

use crate::session::Owner;

/// The people in the loop, one per daemon.
#[derive(Debug)]
pub struct People {
    pub access: Arc<Access>,
    /// The person in control now, if any.
    pub(crate) control: Mutex<Option<Control>>,
    /// What agents asked a person for.
    requests: Mutex<Vec<Request>>,
    /// Recent ops per session, from the event bus.
    pub(crate) feed: feed::Feed,
    /// Bumped whenever something a page shows changed outside the event bus (control).
    pub(crate) changed: tokio::sync::watch::Sender<u64>,
    /// Bumped at every hand-back; `context.request_human` waits on it.
    pub(crate) ended: tokio::sync::watch::Sender<u64>,
    /// The data of the last `takeover.ended`.
    pub(crate) last_ended: Mutex<Option<serde_json::Value>>,
    next_socket: AtomicU64,
    /// View pages open now.
    pub open: AtomicUsize,
    /// The open pages' tokens and roles, and what closes each (a reload that revokes its
    /// token, or changes its role).
    pages: Mutex<HashMap<u64, Page>>,
}

#[derive(Debug)]
struct Page {
    token: crate::auth::Digest,
    role: crate::auth::Role,
    close: CancellationToken,
}

impl People {
    pub fn new(access: Arc<Access>) -> Self {
        People {
            access,
            control: Mutex::default(),
            requests: Mutex::default(),
            feed: feed::Feed::default(),
            changed: tokio::sync::watch::channel(0).0,
            ended: tokio::sync::watch::channel(0).0,
            last_ended: Mutex::default(),
            next_socket: AtomicU64::new(1),
            open: AtomicUsize::new(0),
            pages: Mutex::default(),
        }
    }

    /// Who is in control of the sessions `creator` made, if a person is: an actor's takeover
    /// covers its own token's sessions, an admin's every session.
    pub fn human_in_control(&self, creator: &Owner) -> Option<String> {
        let c = self.control.lock().unwrap_or_else(|p| p.into_inner());
        c.as_ref().filter(|c| c.owner.may_use(creator)).map(|c| c.by.clone())
    }

    /// What the last hand-back said (`takeover.ended`'s data).
    pub fn last_ended(&self) -> Option<serde_json::Value> {
        self.last_ended.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// A place for one more open page of `owner`'s token, unless it has `max` open: the page's
    /// socket id and what closes it.
    pub fn open_page(
        &self,
        owner: &Owner,
        role: crate::auth::Role,
        max: usize,
    ) -> Option<(u64, CancellationToken)> {
        use std::sync::atomic::Ordering;
        let mut pages = self.pages.lock().unwrap_or_else(|p| p.into_inner());
        let token = owner.digest();
        if pages.values().filter(|p| p.token == token).count() >= max {
            return None;
        }
        let id = self.next_socket.fetch_add(1, Ordering::SeqCst);
        let close = CancellationToken::new();
        pages.insert(id, Page { token, role, close: close.clone() });
        Some((id, close))
    }

    /// The page `id` closed.
    pub fn page_closed(&self, id: u64) {
        self.pages.lock().unwrap_or_else(|p| p.into_inner()).remove(&id);
    }

    /// Close every open page whose token `tokens` no longer holds with the same role; how many.
    pub fn recheck(&self, tokens: &crate::auth::Tokens) -> usize {
        let pages = self.pages.lock().unwrap_or_else(|p| p.into_inner());
        let stale: Vec<&Page> =
            pages.values().filter(|p| tokens.role_of_digest(&p.token) != Some(p.role)).collect();
        for p in &stale {
            p.close.cancel();
        }
        stale.len()
    }

    pub(crate) fn bump(&self) {
        self.changed.send_modify(|n| *n = n.wrapping_add(1));
    }
}
