//! Staying connected to the AT-SPI bus. Its bus daemon (at-spi-bus-launcher's dbus-daemon and
//! at-spi2-registryd) may die and be started again while the daemon runs: a [`Link`] holds the
//! current connection, notices when it closes, and connects again once a bus answers (at the
//! address the session bus's `org.a11y.Bus` hands out then, else the configured one). A new
//! connection starts with a fresh app list, event watchers and per-app caches: the new bus
//! hands its unique names out again, so nothing keyed by them carries over. Calls while the
//! bus is down fail at once with [`Error::BusLost`].

use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::watch;
use zbus::zvariant::Value;

use super::{changes, direct, fixed, watch as watch_apps, A11y, AppCache, CALL_TIMEOUT, PROPS};
use crate::desktop::Error;

/// The first retry after the bus went away; retries back off up to [`RETRY_MAX`].
const RETRY_FIRST: Duration = Duration::from_millis(100);
const RETRY_MAX: Duration = Duration::from_secs(1);
/// One reconnection attempt at most.
const ATTEMPT: Duration = Duration::from_secs(5);
const DOWN: &str = "the AT-SPI bus connection closed; waiting for the bus to come back";

/// The AT-SPI connection of the moment, replaced when the bus comes back after dying.
#[derive(Debug, Clone)]
pub struct Link {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    session: Option<String>,
    a11y: Option<String>,
    /// The live connection, or why there is none.
    current: Mutex<Result<A11y, String>>,
    /// App list changes, across connections.
    apps_changed: watch::Sender<u64>,
    /// Ticks with each new connection.
    connections: watch::Sender<u64>,
}

impl Link {
    /// Connects to the AT-SPI bus (see [`A11y::connect`]) and keeps reconnecting for as long
    /// as the link lives.
    pub async fn connect(session: Option<&str>, a11y: Option<&str>) -> Result<Link, Error> {
        let apps_changed = watch::Sender::new(0);
        let first = A11y::connect(session, a11y, apps_changed.clone(), true).await?;
        let shared = Arc::new(Shared {
            session: session.map(String::from),
            a11y: a11y.map(String::from),
            current: Mutex::new(Ok(first.clone())),
            apps_changed,
            connections: watch::Sender::new(0),
        });
        tokio::spawn(keep(Arc::downgrade(&shared), first));
        Ok(Link { shared })
    }

    /// The live connection, or [`Error::BusLost`] saying why there is none.
    pub fn current(&self) -> Result<A11y, Error> {
        let current = self.shared.current.lock().map_err(|_| Error::BusLost(DOWN.into()))?;
        match &*current {
            // The watcher may not have run yet since the socket closed.
            Ok(a) if a.conn.is_closed() => Err(Error::BusLost(DOWN.into())),
            Ok(a) => Ok(a.clone()),
            Err(why) => Err(Error::BusLost(why.clone())),
        }
    }

    /// A receiver that changes whenever the app list may have changed, the connection
    /// included.
    pub fn app_changes(&self) -> watch::Receiver<u64> {
        self.shared.apps_changed.subscribe()
    }

    /// A receiver that changes with each new connection (for watchers to subscribe again).
    pub fn connections(&self) -> watch::Receiver<u64> {
        self.shared.connections.subscribe()
    }
}

impl A11y {
    /// `BusLost` once this connection has closed: what it read since may be incomplete, and
    /// its keys belong to a bus that is gone.
    pub fn check_open(&self) -> Result<(), Error> {
        if self.conn.is_closed() {
            return Err(Error::BusLost(DOWN.into()));
        }
        Ok(())
    }
}

impl Shared {
    /// Up (a new connection, given the next epoch) or down: the app list changes either way.
    fn set(&self, mut now: Result<A11y, String>) {
        let up = now.is_ok();
        if let Ok(a) = &mut now {
            a.epoch = *self.connections.borrow() + 1;
        }
        if let Ok(mut current) = self.current.lock() {
            *current = now;
        }
        self.apps_changed.send_modify(|n| *n = n.wrapping_add(1));
        if up {
            self.connections.send_modify(|n| *n += 1);
        }
    }

    /// Why the bus is still down, without telling anyone the app list changed.
    fn still_down(&self, why: String) {
        if let Ok(mut current) = self.current.lock() {
            *current = Err(why);
        }
    }

    /// The address the session bus hands out now, else the configured one.
    async fn reconnect(&self) -> Result<A11y, Error> {
        let session = self.session.as_deref();
        let asked = match session {
            Some(_) => A11y::connect(session, None, self.apps_changed.clone(), false).await,
            None => Err(Error::Bus("no session bus to ask for the AT-SPI bus".into())),
        };
        match (asked, self.a11y.as_deref()) {
            (Ok(a), _) => Ok(a),
            (Err(_), Some(a11y)) => {
                A11y::connect(session, Some(a11y), self.apps_changed.clone(), false).await
            }
            (Err(e), None) => Err(e),
        }
    }
}

/// Waits for the connection to close, then reconnects with backoff; ends with the link.
async fn keep(shared: Weak<Shared>, mut live: A11y) {
    loop {
        live.conn.closed().await;
        let Some(s) = shared.upgrade() else { return };
        tracing::warn!("the AT-SPI bus connection closed; reconnecting once the bus is back");
        s.set(Err(DOWN.into()));
        drop(s);
        let mut wait = RETRY_FIRST;
        live = loop {
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(RETRY_MAX);
            let Some(s) = shared.upgrade() else { return };
            match tokio::time::timeout(ATTEMPT, s.reconnect()).await {
                Ok(Ok(a)) => {
                    tracing::info!("reconnected to the AT-SPI bus");
                    s.set(Ok(a.clone()));
                    break a;
                }
                Ok(Err(e)) => {
                    tracing::debug!(%e, "the AT-SPI bus is still down");
                    s.still_down(format!("{DOWN} ({e})"));
                }
                Err(_) => s.still_down(format!("{DOWN} (no answer within {ATTEMPT:?})")),
            }
        };
    }
}

impl A11y {
    /// Connects to the AT-SPI bus: `a11y` when given, else the address the session bus's
    /// `org.a11y.Bus` hands out. Announces a screen reader on the session bus so toolkits
    /// expose their full trees. App list changes tick `changed`. Without `activate`, the
    /// address is asked only of a launcher already running: D-Bus would otherwise start one
    /// of its own next to the one whoever runs the desktop is about to start again.
    async fn connect(
        session: Option<&str>,
        a11y: Option<&str>,
        changed: tokio::sync::watch::Sender<u64>,
        activate: bool,
    ) -> Result<A11y, Error> {
        let session_conn = match session {
            Some(addr) => Some(
                zbus::connection::Builder::address(addr)
                    .map_err(|e| unavailable("bad session bus address", &e))?
                    .method_timeout(CALL_TIMEOUT)
                    .build()
                    .await
                    .map_err(|e| unavailable("cannot connect to the session bus", &e))?,
            ),
            None => None,
        };
        let launcher = match &session_conn {
            Some(s) if !activate => launcher_running(s).await?,
            Some(_) => true,
            None => false,
        };
        let address = match (a11y, &session_conn) {
            (Some(a), _) => a.to_owned(),
            (None, Some(_)) if !launcher => {
                return Err(Error::Bus("no AT-SPI bus launcher owns org.a11y.Bus".into()))
            }
            (None, Some(s)) => {
                let reply = s
                    .call_method(
                        Some("org.a11y.Bus"),
                        "/org/a11y/bus",
                        Some("org.a11y.Bus"),
                        "GetAddress",
                        &(),
                    )
                    .await
                    .map_err(|e| unavailable("org.a11y.Bus.GetAddress failed", &e))?;
                reply.body().deserialize::<String>().map_err(|e| unavailable("GetAddress", &e))?
            }
            (None, None) => {
                return Err(Error::Bus("no session bus and no AT-SPI bus address".into()))
            }
        };
        if let Some(s) = session_conn.as_ref().filter(|_| launcher) {
            for prop in ["IsEnabled", "ScreenReaderEnabled"] {
                let set = s
                    .call_method(
                        Some("org.a11y.Bus"),
                        "/org/a11y/bus",
                        Some(PROPS),
                        "Set",
                        &("org.a11y.Status", prop, Value::from(true)),
                    )
                    .await;
                if let Err(e) = set {
                    tracing::debug!(prop, %e, "cannot announce a screen reader");
                }
            }
        }
        let conn = zbus::connection::Builder::address(address.as_str())
            .map_err(|e| unavailable("bad AT-SPI bus address", &e))?
            .method_timeout(CALL_TIMEOUT)
            .build()
            .await
            .map_err(|e| unavailable("cannot connect to the AT-SPI bus", &e))?;
        let apps = Arc::new(AppCache::new(changed));
        let direct = Arc::new(direct::Direct::default());
        let fixed = Arc::new(fixed::Fixed::default());
        tokio::spawn(watch_apps(conn.clone(), apps.clone(), direct.clone(), fixed.clone()));
        let changes = Arc::new(changes::Changes::default());
        tokio::spawn(changes::watch(conn.clone(), changes.clone()));
        Ok(A11y { epoch: 0, conn, apps, changes, direct, fixed })
    }
}

fn unavailable(what: &str, e: &dyn std::fmt::Display) -> Error {
    Error::Bus(format!("{what}: {e}"))
}

/// Whether an AT-SPI bus launcher owns `org.a11y.Bus` on the session bus.
async fn launcher_running(session: &zbus::Connection) -> Result<bool, Error> {
    session
        .call_method(
            Some("org.freedesktop.DBus"),
            "/org/freedesktop/DBus",
            Some("org.freedesktop.DBus"),
            "NameHasOwner",
            &("org.a11y.Bus",),
        )
        .await
        .and_then(|r| r.body().deserialize::<bool>())
        .map_err(|e| unavailable("cannot ask the session bus", &e))
}
