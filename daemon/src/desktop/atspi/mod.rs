//! The accessibility side: one long-lived connection to the AT-SPI bus, the apps on it, tree
//! walks for snapshots and the per-element interfaces (Action, Component, Text, EditableText,
//! Value). Calls go out as raw D-Bus method calls without proxy property caches, and every
//! node's calls run concurrently.

mod at_point;
mod changes;
mod direct;
mod fixed;
mod focus;
mod ifaces;
mod link;
mod tree;
mod trouble;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use atspi::StateSet;
use futures::future::join_all;
use serde::de::DeserializeOwned;
use zbus::zvariant::{DynamicType, OwnedObjectPath, OwnedValue, Type, Value};

pub use link::Link;
pub use tree::{on_screen as tree_on_screen, Elem, WalkOptions, Walked, VALUE_CHARS};
pub use trouble::{Cut, Trouble};

use super::Error;

pub use ifaces::{iface, REGISTRY};
pub const ROOT: &str = "/org/a11y/atspi/accessible/root";
use iface::ACCESSIBLE;
const PROPS: &str = "org.freedesktop.DBus.Properties";
/// A call an app does not answer within this is treated as failed.
const CALL_TIMEOUT: Duration = Duration::from_secs(5);
/// How long AddSelection may go unanswered before the selection is read back instead.
const UNANSWERED_SELECTION: Duration = Duration::from_millis(250);
/// How long one app may take to describe itself for an app listing. Past it, the app is
/// listed as last seen and marked not responding, so one hung app cannot hold up every
/// listing for the whole call timeout.
const LISTING_BUDGET: Duration = Duration::from_secs(1);
/// The same for an app that did not answer the last listing: a short look whether it is back.
const STALLED_PROBE: Duration = Duration::from_millis(150);

/// An app on the bus.
#[derive(Debug, Clone)]
pub struct AppInfo {
    pub pid: u32,
    pub bus: String,
    pub name: String,
    pub toolkit: String,
    pub toolkit_version: String,
    /// Top-level children: (name, role, path, active).
    pub windows: Vec<(String, String, String, bool)>,
    /// False when the app did not answer the last listing in time (hung, stopped or very
    /// busy); the rest is then what it last said.
    pub responding: bool,
}

/// The pid in an app id (`app:<pid>`).
pub fn app_pid(app_id: &str) -> Option<u32> {
    app_id.strip_prefix("app:")?.parse().ok()
}

impl AppInfo {
    pub fn app_id(&self) -> String {
        format!("app:{}", self.pid)
    }

    /// GTK 4 reports extents relative to the window, not the screen.
    pub fn window_relative(&self) -> bool {
        self.toolkit.eq_ignore_ascii_case("gtk") && self.toolkit_version.starts_with('4')
    }
}

#[derive(Debug, Clone)]
pub struct A11y {
    /// Which connection of its [`Link`] this is (0 first): a new bus hands out the same
    /// unique names again, so element keys of later connections carry it.
    epoch: u64,
    conn: zbus::Connection,
    apps: Arc<AppCache>,
    changes: Arc<changes::Changes>,
    direct: Arc<direct::Direct>,
    fixed: Arc<fixed::Fixed>,
}

/// The registry's children: (bus name, object path) per app.
type Children = Vec<(String, OwnedObjectPath)>;

/// The registry's app list, rescanned only after a bus event said it changed: an app
/// registered or left the registry (ChildrenChanged on the desktop root) or a connection
/// came or went on the bus (NameOwnerChanged). Per-app facts that never change (pid,
/// toolkit) are kept per bus name.
#[derive(Debug)]
struct AppCache {
    /// Bumped by every relevant bus event.
    generation: AtomicU64,
    /// (generation it was read at, registry children).
    children: Mutex<Option<(u64, Children)>>,
    /// bus name -> (pid, toolkit, version).
    facts: Mutex<HashMap<String, (u32, String, String)>>,
    /// bus name -> what the app said when it last answered a listing in time.
    last_seen: Mutex<HashMap<String, AppInfo>>,
    /// Apps whose last listing ran out of time.
    stalled: Mutex<HashSet<String>>,
    /// Ticks with every invalidation, for whoever turns app list changes into events. Shared
    /// by every connection a [`Link`] makes, so its receivers outlive a reconnection.
    changed: tokio::sync::watch::Sender<u64>,
}

impl AppCache {
    fn new(changed: tokio::sync::watch::Sender<u64>) -> AppCache {
        AppCache {
            generation: AtomicU64::new(0),
            children: Mutex::new(None),
            facts: Mutex::new(HashMap::new()),
            last_seen: Mutex::new(HashMap::new()),
            stalled: Mutex::new(HashSet::new()),
            changed,
        }
    }

    fn invalidate(&self, gone: Option<&str>) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        if let Some(name) = gone {
            if let Ok(mut facts) = self.facts.lock() {
                facts.remove(name);
            }
            if let Ok(mut seen) = self.last_seen.lock() {
                seen.remove(name);
            }
            if let Ok(mut stalled) = self.stalled.lock() {
                stalled.remove(name);
            }
        }
        self.changed.send_modify(|n| *n = n.wrapping_add(1));
    }
}

/// Watches the bus for app list changes until the connection closes.
async fn watch(
    conn: zbus::Connection,
    cache: Arc<AppCache>,
    direct: Arc<direct::Direct>,
    fixed: Arc<fixed::Fixed>,
) {
    use futures::StreamExt as _;
    let rules = (|| -> zbus::Result<_> {
        let owners = zbus::MatchRule::builder()
            .msg_type(zbus::message::Type::Signal)
            .sender("org.freedesktop.DBus")?
            .interface("org.freedesktop.DBus")?
            .member("NameOwnerChanged")?
            .build();
        let children = zbus::MatchRule::builder()
            .msg_type(zbus::message::Type::Signal)
            .interface(iface::EVENT_OBJECT)?
            .member("ChildrenChanged")?
            .path(ROOT)?
            .build();
        Ok((owners.to_owned(), children.to_owned()))
    })();
    let Ok((owners, children)) = rules else { return };
    let (Ok(owners), Ok(children)) = (
        zbus::MessageStream::for_match_rule(owners, &conn, Some(256)).await,
        zbus::MessageStream::for_match_rule(children, &conn, Some(256)).await,
    ) else {
        tracing::warn!("cannot watch the AT-SPI bus; the app list is rescanned on every call");
        cache.generation.store(u64::MAX, Ordering::SeqCst);
        return;
    };
    let mut events = futures::stream::select(owners, children);
    while let Some(msg) = events.next().await {
        let Ok(msg) = msg else { continue };
        let gone = msg
            .body()
            .deserialize::<(String, String, String)>()
            .ok()
            .filter(|(_, _, new)| new.is_empty())
            .map(|(name, _, _)| name);
        if let Some(name) = &gone {
            direct.forget(name);
            fixed.forget_app(name);
        }
        cache.invalidate(gone.as_deref());
    }
}

/// `<bus name>|<object path>`, after a reconnection `<epoch>@<bus name>|<object path>`: an
/// element's stable identity on the bus (neither names nor paths hold an `@`).
fn key(epoch: u64, bus: &str, path: &str) -> String {
    match epoch {
        0 => format!("{bus}|{path}"),
        n => format!("{n}@{bus}|{path}"),
    }
}

/// The connection epoch of a key, and its (bus name, object path).
fn parse_key(key: &str) -> Option<(u64, &str, &str)> {
    let (epoch, rest) = match key.split_once('@') {
        Some((n, rest)) => (n.parse().ok()?, rest),
        None => (0, key),
    };
    let (bus, path) = rest.split_once('|')?;
    Some((epoch, bus, path))
}

pub fn split_key(key: &str) -> Option<(&str, &str)> {
    parse_key(key).map(|(_, bus, path)| (bus, path))
}

impl A11y {
    /// The key of `bus`/`path` on this connection.
    pub fn key(&self, bus: &str, path: &str) -> String {
        key(self.epoch, bus, path)
    }

    /// Whether `key` was made on this connection (not before the bus restarted).
    pub fn owns_key(&self, key: &str) -> bool {
        parse_key(key).is_some_and(|(epoch, _, _)| epoch == self.epoch)
    }

    /// A method call to an app: over its direct connection when it has one, else the bus.
    pub(crate) async fn call<B, R>(
        &self,
        dest: &str,
        path: &str,
        iface: &str,
        method: &str,
        body: &B,
    ) -> zbus::Result<R>
    where
        B: serde::Serialize + DynamicType,
        R: DeserializeOwned + Type,
    {
        let Some(direct) = self.direct(dest).await else {
            return self.bus_call(dest, path, iface, method, body).await;
        };
        let sent = direct.call_method(None::<&str>, path, Some(iface), method, body).await;
        if let Err(e) = &sent {
            if is_gone(e) {
                self.direct.forget(dest);
            }
        }
        sent?.body().deserialize::<R>()
    }

    /// A method call over the bus (its reply comes after every signal the app sent before).
    pub(crate) async fn bus_call<B, R>(
        &self,
        dest: &str,
        path: &str,
        iface: &str,
        method: &str,
        body: &B,
    ) -> zbus::Result<R>
    where
        B: serde::Serialize + DynamicType,
        R: DeserializeOwned + Type,
    {
        let msg = self.conn.call_method(Some(dest), path, Some(iface), method, body).await?;
        msg.body().deserialize::<R>()
    }

    pub(crate) async fn prop<R>(
        &self,
        dest: &str,
        path: &str,
        iface: &str,
        name: &str,
    ) -> zbus::Result<R>
    where
        R: TryFrom<OwnedValue>,
        <R as TryFrom<OwnedValue>>::Error: Into<zbus::Error>,
    {
        let v: OwnedValue = self.call(dest, path, PROPS, "Get", &(iface, name)).await?;
        R::try_from(v).map_err(Into::into)
    }

    async fn set_prop(
        &self,
        dest: &str,
        path: &str,
        iface: &str,
        name: &str,
        v: Value<'_>,
    ) -> zbus::Result<()> {
        match self.direct(dest).await {
            Some(direct) => {
                direct
                    .call_method(None::<&str>, path, Some(PROPS), "Set", &(iface, name, v))
                    .await?
            }
            None => {
                self.conn
                    .call_method(Some(dest), path, Some(PROPS), "Set", &(iface, name, v))
                    .await?
            }
        };
        Ok(())
    }

    /// The bus daemon's pid for a connection name.
    async fn pid(&self, bus: &str) -> zbus::Result<u32> {
        self.call(
            "org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus",
            "GetConnectionUnixProcessID",
            &(bus,),
        )
        .await
    }

    pub(crate) async fn children(
        &self,
        bus: &str,
        path: &str,
    ) -> zbus::Result<Vec<(String, OwnedObjectPath)>> {
        self.call(bus, path, ACCESSIBLE, "GetChildren", &()).await
    }

    /// The registry's apps, from the cache unless a bus event changed them since.
    async fn registry_children(&self) -> Result<Vec<(String, OwnedObjectPath)>, Error> {
        let generation = self.apps.generation.load(Ordering::SeqCst);
        if generation != u64::MAX {
            if let Ok(cached) = self.apps.children.lock() {
                if let Some((g, kids)) = cached.as_ref() {
                    if *g == generation {
                        return Ok(kids.clone());
                    }
                }
            }
        }
        let kids = self
            .children(REGISTRY, ROOT)
            .await
            .map_err(|e| Error::Bus(format!("cannot list apps: {e}")))?;
        if let Ok(mut cached) = self.apps.children.lock() {
            *cached = Some((generation, kids.clone()));
        }
        Ok(kids)
    }

    /// Every app on the bus with its pid, toolkit and top-level windows; an app that does not
    /// answer in time is listed as it last answered, marked not responding.
    pub async fn apps(&self) -> Result<Vec<AppInfo>, Error> {
        let kids = self.registry_children().await?;
        let infos = join_all(
            kids.into_iter()
                .map(|(bus, path)| async move { self.listed(&bus, path.as_str()).await }),
        )
        .await;
        Ok(infos.into_iter().flatten().collect())
    }

    /// [`A11y::app_info`] within the listing budget (shorter for an app that missed it last
    /// time), else the app as last seen; nothing for an app never seen answering.
    async fn listed(&self, bus: &str, path: &str) -> Option<AppInfo> {
        let stalled = self.apps.stalled.lock().is_ok_and(|s| s.contains(bus));
        let budget = if stalled { STALLED_PROBE } else { LISTING_BUDGET };
        match tokio::time::timeout(budget, self.app_info(bus, path)).await {
            Ok(info) => {
                if let Ok(mut s) = self.apps.stalled.lock() {
                    s.remove(bus);
                }
                if let (Some(i), Ok(mut seen)) = (&info, self.apps.last_seen.lock()) {
                    seen.insert(bus.to_owned(), i.clone());
                }
                info
            }
            Err(_) => {
                if let Ok(mut s) = self.apps.stalled.lock() {
                    s.insert(bus.to_owned());
                }
                let seen = self.apps.last_seen.lock().ok()?.get(bus).cloned()?;
                Some(AppInfo { responding: false, ..seen })
            }
        }
    }

    /// pid, toolkit and version of the app at `bus`: fixed for its life, so fetched once.
    async fn facts(&self, bus: &str, path: &str) -> Option<(u32, String, String)> {
        if let Some(f) = self.apps.facts.lock().ok().and_then(|f| f.get(bus).cloned()) {
            return Some(f);
        }
        let (pid, toolkit, version) = futures::join!(
            self.pid(bus),
            self.prop::<String>(bus, path, iface::APPLICATION, "ToolkitName"),
            self.prop::<String>(bus, path, iface::APPLICATION, "Version"),
        );
        let f = (pid.ok()?, toolkit.unwrap_or_default(), version.unwrap_or_default());
        if let Ok(mut facts) = self.apps.facts.lock() {
            facts.insert(bus.to_owned(), f.clone());
        }
        Some(f)
    }

    async fn app_info(&self, bus: &str, path: &str) -> Option<AppInfo> {
        let (facts, name, wins) = futures::join!(
            self.facts(bus, path),
            self.prop::<String>(bus, path, ACCESSIBLE, "Name"),
            self.children(bus, path),
        );
        let (pid, toolkit, toolkit_version) = facts?;
        let wins = wins.unwrap_or_default();
        let windows = join_all(wins.iter().map(|(b, p)| async move {
            let (name, role, state) = futures::join!(
                self.prop::<String>(b, p.as_str(), ACCESSIBLE, "Name"),
                self.call::<_, String>(b, p.as_str(), ACCESSIBLE, "GetRoleName", &()),
                self.call::<_, StateSet>(b, p.as_str(), ACCESSIBLE, "GetState", &()),
            );
            let active = state.map(|s| s.contains(atspi::State::Active)).unwrap_or(false);
            (name.unwrap_or_default(), role.unwrap_or_default(), p.to_string(), active)
        }))
        .await;
        Some(AppInfo {
            pid,
            bus: bus.to_owned(),
            name: name.unwrap_or_default(),
            toolkit,
            toolkit_version,
            windows,
            responding: true,
        })
    }
}

/// Whether a D-Bus error means the object or its app is gone.
pub fn is_gone(e: &zbus::Error) -> bool {
    let s = e.to_string();
    s.contains("UnknownObject")
        || s.contains("ServiceUnknown")
        || (s.contains("UnknownMethod") && s.contains("doesn't exist"))
        || s.contains("NoReply")
        || s.contains("Disconnected")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_after_a_reconnection_carry_their_epoch() {
        let (first, later) = (key(0, ":1.5", "/org/a11y/atspi/accessible/7"), key(2, ":1.5", "/x"));
        assert_eq!(first, ":1.5|/org/a11y/atspi/accessible/7");
        assert_eq!(later, "2@:1.5|/x");
        assert_eq!(parse_key(&first), Some((0, ":1.5", "/org/a11y/atspi/accessible/7")));
        assert_eq!(parse_key(&later), Some((2, ":1.5", "/x")));
        assert_eq!(split_key(&later), Some((":1.5", "/x")));
        assert_eq!(parse_key("x@:1.5|/x"), None);
        assert_eq!(parse_key("no separator"), None);
    }
}
