//! Per-session state: who drives it, whether it is paused, what it has selected.
//!
//! A session outlives its connection: a client that reconnects and names it in
//! `session.hello` gets it back, selections and op results included.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dashmap::DashMap;
use serde::Serialize;

use crate::error::DaemonError;
use crate::registry::held::Held;
use crate::registry::snapshots::Snapshots;

mod budget;
mod names;
mod owner;

pub use budget::Budget;
pub use names::check_name;
use names::is_tag;
pub(crate) use names::mint_id;
pub use owner::Owner;

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
    /// The token that created it: only that token (or an admin) attaches to it.
    pub creator: Owner,
    /// The connection that drives the session, if one does.
    owner: Mutex<Option<u64>>,
    /// Connections (actor or observer) attached now, and when the last one left.
    attached: Mutex<(usize, Option<Instant>)>,
    paused: AtomicBool,
    pub selection: Mutex<Selection>,
    /// Refs and snapshots of this session, per target.
    pub snapshots: Mutex<Snapshots>,
    /// Keys and buttons this session holds down.
    pub held: Mutex<Held>,
    /// Token bucket for ops per second: (tokens left, when it was last filled).
    rate: Budget,
    /// Told when the driving connection lets go.
    freed: tokio::sync::Notify,
    /// Files this session's actions downloaded, newest last (its MCP resources).
    downloads: Mutex<Vec<std::path::PathBuf>>,
    /// A browser context of its own (`session.hello {browser_context: "own"}`) rather than
    /// its party's.
    own_context: AtomicBool,
    /// The party's named profile it browses in (`session.hello {profile}`), kept on disk.
    profile: Mutex<Option<String>>,
}

/// How many downloaded files a session remembers as its own.
const DOWNLOADS_KEPT: usize = 100;

impl Session {
    /// From now on the session browses in a context of its own.
    pub fn use_own_context(&self) {
        self.own_context.store(true, Ordering::SeqCst);
    }

    /// From now on the session browses in its party's profile `name`.
    pub fn use_profile(&self, name: &str) {
        *self.profile.lock().unwrap_or_else(|p| p.into_inner()) = Some(name.to_owned());
    }

    /// The browser lane the session works in: its party's, a profile of its party's, or its
    /// own; admins see every lane's tabs.
    pub fn lane(&self) -> crate::browser::Lane {
        let short = |s: String| -> String {
            crate::auth::digest(&s)[..8].iter().map(|b| format!("{b:02x}")).collect()
        };
        let party = self.creator.lane();
        let all = self.creator.admin;
        let named = self.profile.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Some(name) = named {
            let key = short(format!("profile:{party}:{name}"));
            let profile = Some(crate::browser::Profile { party, name });
            return crate::browser::Lane { key, all, profile };
        }
        let key = match self.own_context.load(Ordering::SeqCst) {
            true => short(format!("session:{}", self.id)),
            false => party,
        };
        crate::browser::Lane { key, all, profile: None }
    }

    /// Remember a file one of this session's actions downloaded.
    pub fn downloaded(&self, path: std::path::PathBuf) {
        let mut d = self.downloads.lock().unwrap_or_else(|p| p.into_inner());
        d.retain(|p| *p != path);
        d.push(path);
        if d.len() > DOWNLOADS_KEPT {
            d.remove(0);
        }
    }

    /// The newest file this session's actions downloaded by that name, there or not (yet).
    pub fn download_named(&self, name: &str) -> Option<std::path::PathBuf> {
        let d = self.downloads.lock().unwrap_or_else(|p| p.into_inner());
        d.iter().rfind(|p| p.file_name().is_some_and(|n| n.to_string_lossy() == name)).cloned()
    }

    /// The files this session's actions downloaded that are still there, oldest first.
    pub fn downloads(&self) -> Vec<std::path::PathBuf> {
        let d = self.downloads.lock().unwrap_or_else(|p| p.into_inner());
        d.iter().filter(|p| p.is_file()).cloned().collect()
    }

    fn new(id: String, creator: Owner) -> Self {
        Session {
            id,
            creator,
            owner: Mutex::new(None),
            attached: Mutex::new((0, None)),
            paused: AtomicBool::new(false),
            selection: Mutex::new(Selection::default()),
            snapshots: Mutex::new(Snapshots::default()),
            held: Mutex::new(Held::default()),
            downloads: Mutex::default(),
            own_context: AtomicBool::new(false),
            profile: Mutex::new(None),
            freed: tokio::sync::Notify::new(),
            rate: Budget::default(),
        }
    }

    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::SeqCst)
    }

    pub fn set_paused(&self, paused: bool) {
        self.paused.store(paused, Ordering::SeqCst);
    }

    /// Take one op from the session's budget of `per_sec` ops a second (bursts up to one
    /// second's worth); false when the budget is spent.
    pub fn admit_op(&self, per_sec: u32) -> bool {
        self.admit_ops(1, per_sec)
    }

    /// Take `n` ops from the budget at once (a batch), or none of them.
    pub fn admit_ops(&self, n: usize, per_sec: u32) -> bool {
        self.rate.admit(n, per_sec)
    }

    pub fn selection(&self) -> Selection {
        self.selection.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Forget the owner if it is `conn`; called when that connection closes.
    pub fn detach(&self, conn: u64) {
        if let Ok(mut owner) = self.owner.lock() {
            if *owner == Some(conn) {
                *owner = None;
                self.freed.notify_waiters();
            }
        }
        if let Ok(mut a) = self.attached.lock() {
            a.0 = a.0.saturating_sub(1);
            if a.0 == 0 {
                a.1 = Some(Instant::now());
            }
        }
    }

    fn attach_conn(&self) {
        if let Ok(mut a) = self.attached.lock() {
            *a = (a.0 + 1, None);
        }
    }

    /// A call without a connection (MCP) used it now: unless a connection holds it, it stays
    /// for `grace` and then its TTL. (An MCP session ends one TTL after its last request, and
    /// its host may then resume this session by its handle for one TTL more.)
    fn touch(&self, grace: Duration) {
        if let Ok(mut a) = self.attached.lock() {
            if a.0 == 0 {
                a.1 = Some(Instant::now() + grace);
            }
        }
    }

    /// Since when nobody holds it (`None` while a connection does).
    fn idle_since(&self) -> Option<Instant> {
        self.attached.lock().ok().and_then(|a| if a.0 == 0 { a.1 } else { None })
    }

    /// True when nobody has been attached for longer than `ttl`.
    fn expired(&self, now: Instant, ttl: Duration) -> bool {
        self.attached
            .lock()
            .map(|a| a.0 == 0 && a.1.is_some_and(|t| now.saturating_duration_since(t) > ttl))
            .unwrap_or(false)
    }
}

/// All sessions by id (`name@<token tag>`: see [`Sessions::id_for`]). A session nobody is attached to is kept for `ttl` so a client can
/// reconnect and resume it, then forgotten. A token keeps at most `max_per_token`: a new one
/// past that ends the token's session idle the longest, never another token's.
#[derive(Debug)]
pub struct Sessions {
    by_id: DashMap<String, Arc<Session>>,
    ttl: Duration,
    max_per_token: usize,
}

impl Sessions {
    pub fn new(ttl: Duration, max_per_token: usize) -> Self {
        Sessions { by_id: DashMap::new(), ttl, max_per_token }
    }

    /// The session a name given by `who` stands for. Names are each token's own: `name`
    /// stands for `name@<its token's tag>`, so two tokens never meet on one name and a token
    /// learns nothing of the names another uses. An id as the daemon gave it (ending in a
    /// token's tag) stands for itself: the token's own, or for an admin any live session;
    /// another token's id is refused whether or not it exists.
    fn id_for(&self, name: &str, who: &Owner) -> Result<String, DaemonError> {
        let tagged = name.rsplit_once('@').filter(|(base, tag)| !base.is_empty() && is_tag(tag));
        match tagged {
            None => Ok(format!("{name}@{}", who.short())),
            Some((_, tag)) if tag == who.short() => Ok(name.to_owned()),
            Some(_) if who.admin && self.by_id.contains_key(name) => Ok(name.to_owned()),
            Some(_) => Err(DaemonError::NotOwner(name.to_owned())),
        }
    }

    /// Room for one more session of `who`: its idlest session goes when it has the most, or
    /// `TooManySessions` when connections hold every one.
    fn make_room(&self, who: &Owner) -> Result<(), DaemonError> {
        let own: Vec<(String, Option<Instant>)> = self
            .by_id
            .iter()
            .filter(|s| s.creator == *who)
            .map(|s| (s.id.clone(), s.idle_since()))
            .collect();
        if own.len() < self.max_per_token {
            return Ok(());
        }
        let idlest = own.into_iter().filter_map(|(id, t)| t.map(|t| (id, t))).min_by_key(|x| x.1);
        let Some((id, _)) = idlest else {
            return Err(DaemonError::TooManySessions { max: self.max_per_token });
        };
        self.by_id.remove(&id);
        Ok(())
    }

    /// Whether another party works in browser tab `tab_id`: a session of another token that
    /// has it selected, or another session of `me`'s token that a connection drives. (A
    /// token's sessions no connection holds, such as its MCP calls', are one party: a
    /// command-line host that opens a session per call finds the page its last call left.)
    pub fn tab_held_by_other(&self, tab_id: &str, me: &Session) -> bool {
        self.by_id.iter().any(|s| {
            let theirs = s.creator != me.creator
                || (s.id != me.id && s.attached.lock().is_ok_and(|a| a.0 > 0));
            theirs && s.selection.lock().is_ok_and(|sel| sel.tab_id.as_deref() == Some(tab_id))
        })
    }

    /// The tokens whose sessions have app `app_id` or window `window_id` selected.
    pub fn owners_of_window(&self, app_id: Option<&str>, window_id: Option<&str>) -> Vec<Owner> {
        let mut owners: Vec<Owner> = Vec::new();
        for s in self.by_id.iter() {
            let selected = s.selection.lock().is_ok_and(|sel| {
                (app_id.is_some() && sel.app_id.as_deref() == app_id)
                    || (window_id.is_some() && sel.window_id.as_deref() == window_id)
            });
            if selected && !owners.contains(&s.creator) {
                owners.push(s.creator);
            }
        }
        owners
    }

    /// The tokens whose sessions have browser tab `tab_id` selected.
    /// The creators of the sessions browsing in lane `key` (their own context, a profile).
    pub fn creators_in_lane(&self, key: &str) -> Vec<Owner> {
        let mut owners: Vec<Owner> = Vec::new();
        for s in self.by_id.iter() {
            if s.lane().key == key && !owners.contains(&s.creator) {
                owners.push(s.creator);
            }
        }
        owners
    }

    pub fn owners_of_tab(&self, tab_id: &str) -> Vec<Owner> {
        let mut owners: Vec<Owner> = Vec::new();
        for s in self.by_id.iter() {
            let selected =
                s.selection.lock().is_ok_and(|sel| sel.tab_id.as_deref() == Some(tab_id));
            if selected && !owners.contains(&s.creator) {
                owners.push(s.creator);
            }
        }
        owners
    }

    /// Start or resume `name` for connection `conn` speaking for `who`. Only the token that
    /// created a session (or an admin) may attach to it; an actor may not take a session
    /// another live connection drives, an observer may watch it.
    pub fn attach(
        &self,
        name: Option<&str>,
        conn: u64,
        who: Owner,
        actor: bool,
    ) -> Result<(Arc<Session>, bool), DaemonError> {
        let id = match name {
            Some(n) => self.id_for(n, &who)?,
            None => format!("{}@{}", mint_id()?, who.short()),
        };
        let now = Instant::now();
        self.by_id.retain(|_, s| !s.expired(now, self.ttl));
        if !self.by_id.contains_key(&id) && !who.admin {
            self.make_room(&who)?;
        }
        let entry = self.by_id.entry(id.clone());
        let resumed = matches!(entry, dashmap::Entry::Occupied(_));
        let session = entry.or_insert_with(|| Arc::new(Session::new(id.clone(), who))).clone();
        if !who.may_use(&session.creator) {
            return Err(DaemonError::NotOwner(id));
        }
        if actor {
            let mut owner =
                session.owner.lock().map_err(|_| DaemonError::SessionBusy(id.clone()))?;
            match *owner {
                Some(other) if other != conn => return Err(DaemonError::SessionBusy(id)),
                _ => *owner = Some(conn),
            }
        }
        // Connection 0 is none: an MCP call uses the session without holding it.
        if conn == 0 {
            session.touch(self.ttl);
        } else {
            session.attach_conn();
        }
        Ok((session, resumed))
    }

    /// [`Sessions::attach`], but a session driven by another connection is waited for up to
    /// `grace`: a client that lost its connection and comes straight back often says hello
    /// before the daemon has seen the old connection go.
    pub async fn attach_waiting(
        &self,
        name: Option<&str>,
        conn: u64,
        who: Owner,
        actor: bool,
        grace: std::time::Duration,
    ) -> Result<(Arc<Session>, bool), DaemonError> {
        let deadline = tokio::time::Instant::now() + grace;
        loop {
            let waiting = name.and_then(|n| self.by_id.get(n).map(|s| s.value().clone()));
            let freed = waiting.as_ref().map(|s| s.freed.notified());
            let Some(mut freed) = freed.map(Box::pin) else {
                return self.attach(name, conn, who, actor);
            };
            // Listening before the attempt: a release in between is not missed.
            freed.as_mut().enable();
            match self.attach(name, conn, who, actor) {
                Err(DaemonError::SessionBusy(id)) => {
                    if tokio::time::timeout_at(deadline, freed).await.is_err() {
                        return Err(DaemonError::SessionBusy(id));
                    }
                }
                other => return other,
            }
        }
    }

    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        self.by_id.get(id).map(|s| s.value().clone())
    }

    /// End a session for good.
    pub fn remove(&self, id: &str) {
        self.by_id.remove(id);
    }

    /// Every live session (e.g. to invalidate a target's refs in all of them).
    pub fn all(&self) -> Vec<Arc<Session>> {
        self.by_id.iter().map(|e| e.value().clone()).collect()
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detached_sessions_expire_after_the_ttl() {
        let sessions = Sessions::new(Duration::from_millis(30), 64);
        let me = Owner::of_token("me", false);
        let (s, resumed) = sessions.attach(Some("a"), 1, me, true).expect("new");
        assert!(!resumed);
        assert!(matches!(
            sessions.attach(Some("a"), 2, me, true),
            Err(DaemonError::SessionBusy(_))
        ));
        s.detach(1);
        let (s, resumed) = sessions.attach(Some("a"), 2, me, true).expect("resumed");
        assert!(resumed, "within the ttl the session comes back");
        s.detach(2);
        let deadline = Instant::now() + Duration::from_secs(5);
        while !s.expired(Instant::now(), Duration::from_millis(30)) {
            assert!(Instant::now() < deadline);
            std::thread::yield_now();
        }
        let (_, resumed) = sessions.attach(Some("a"), 3, me, true).expect("fresh");
        assert!(!resumed, "after the ttl it is a new session");
        assert_eq!(sessions.len(), 1);
    }

    #[test]
    fn names_are_each_tokens_own() {
        let sessions = Sessions::new(Duration::from_secs(60), 64);
        let (a, b) = (Owner::of_token("a", false), Owner::of_token("b", false));
        let (s, _) = sessions.attach(Some("x"), 1, a, true).expect("new");
        assert_eq!(s.id, format!("x@{}", a.short()));
        s.detach(1);
        // Another token's "x" is its own: nothing says a's exists, nothing of a's is reached.
        for actor in [true, false] {
            let (other, resumed) = sessions.attach(Some("x"), 2, b, actor).expect("b's own");
            assert_eq!(other.id, format!("x@{}", b.short()));
            assert_eq!(resumed, !actor, "new the first time");
            other.detach(2);
        }
        // The id a's hello answered is a's: refused to b, as is any id of a's tag.
        for id in [s.id.clone(), format!("nothing-here@{}", a.short())] {
            let r = sessions.attach(Some(&id), 2, b, true);
            assert!(matches!(r, Err(DaemonError::NotOwner(_))), "{id}");
        }
        // a resumes it by its name or by that id.
        for name in ["x", s.id.as_str()] {
            let (again, resumed) = sessions.attach(Some(name), 3, a, true).expect("a's");
            assert!(resumed && again.id == s.id);
            again.detach(3);
        }
        let admin = Owner::of_token("root", true);
        let (watched, resumed) = sessions.attach(Some(&s.id), 4, admin, false).expect("admin");
        assert!(resumed && watched.id == s.id, "an admin may watch it by its id");
        let (s1, _) = sessions.attach(None, 5, a, true).expect("minted");
        let (s2, _) = sessions.attach(None, 6, a, true).expect("minted");
        assert_eq!(s1.id.len(), 34 + 17, "{}", s1.id);
        assert_ne!(s1.id, s2.id);
        assert!(check_name("session", &s1.id).is_ok(), "an id given out is a name to give back");
    }

    #[test]
    fn a_token_keeps_its_newest_sessions_and_calls_without_a_connection_expire() {
        let sessions = Sessions::new(Duration::from_millis(30), 2);
        let (a, b) = (Owner::of_token("a", false), Owner::of_token("b", false));
        let id = |o: Owner, n: &str| format!("{n}@{}", o.short());
        sessions.attach(Some("b1"), 0, b, false).expect("b's");
        let (held, _) = sessions.attach(Some("a1"), 7, a, true).expect("held by a connection");
        sessions.attach(Some("a2"), 0, a, false).expect("an MCP call's");
        sessions.attach(Some("a3"), 0, a, false).expect("the idlest of a's goes");
        assert!(sessions.get(&id(a, "a2")).is_none() && sessions.get(&id(a, "a1")).is_some());
        assert!(sessions.get(&id(b, "b1")).is_some(), "another token's stays");
        assert!(sessions.attach(Some("a4"), 8, a, true).is_ok(), "a3 went");
        assert!(matches!(
            sessions.attach(Some("a5"), 9, a, true),
            Err(DaemonError::TooManySessions { max: 2 })
        ));
        held.detach(7);
        // A session only MCP calls used expires after the TTL like a detached one.
        let deadline = Instant::now() + Duration::from_secs(5);
        while sessions.get(&id(b, "b1")).is_some_and(|s| !s.expired(Instant::now(), sessions.ttl)) {
            assert!(Instant::now() < deadline);
            std::thread::yield_now();
        }
        sessions.attach(Some("a6"), 0, a, false).expect("room again");
        assert!(sessions.get(&id(b, "b1")).is_none(), "b1 expired");
    }
}
