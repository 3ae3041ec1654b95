//! Peer-to-peer connections to apps. A toolkit bridge may serve its accessibility objects on
//! a private socket too (`Application.GetApplicationBusAddress`); calls sent there skip the
//! bus daemon, which otherwise routes every call and reply and costs as much CPU as the app
//! and the daemon together. Events still come over the bus. The bridge's socket takes only
//! its own user (an app of the desktop user refuses a daemon running as root after the
//! handshake), so it is used only for apps of the daemon's own uid that answer a ping on it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::OnceCell;

use super::{iface, A11y, CALL_TIMEOUT, ROOT};

/// How long a new direct connection has to answer its first ping before calls go by the bus.
const PING_TIMEOUT: Duration = Duration::from_secs(1);

/// Per app bus name: its direct connection once asked (`None`: it has none, or it failed).
#[derive(Debug, Default)]
pub(super) struct Direct {
    apps: Mutex<HashMap<String, Arc<OnceCell<Option<zbus::Connection>>>>>,
}

impl Direct {
    /// Forgets an app's connection (it left the bus, or the socket broke).
    pub(super) fn forget(&self, bus: &str) {
        if let Ok(mut apps) = self.apps.lock() {
            apps.remove(bus);
        }
    }
}

impl A11y {
    /// The direct connection to the app at `bus`, opened on first use; `None` for the bus
    /// daemon and the registry, and for apps that offer none.
    pub(super) async fn direct(&self, bus: &str) -> Option<zbus::Connection> {
        // Only unique names are apps; well-known names are the bus daemon and the registry.
        if !bus.starts_with(':') {
            return None;
        }
        let cell = {
            let mut apps = self.direct.apps.lock().ok()?;
            apps.entry(bus.to_owned()).or_default().clone()
        };
        cell.get_or_init(|| self.open_direct(bus)).await.clone()
    }

    async fn open_direct(&self, bus: &str) -> Option<zbus::Connection> {
        if !self.same_user(bus).await {
            return None;
        }
        let reply = self
            .conn
            .call_method(Some(bus), ROOT, Some(iface::APPLICATION), "GetApplicationBusAddress", &())
            .await
            .ok()?;
        let address: String = reply.body().deserialize().ok()?;
        if address.is_empty() {
            return None;
        }
        let conn = zbus::connection::Builder::address(address.as_str())
            .ok()?
            .p2p()
            .method_timeout(CALL_TIMEOUT)
            .build()
            .await;
        let conn = match conn {
            Ok(c) => c,
            Err(e) => {
                tracing::debug!(bus, %e, "no direct connection; calls go through the bus");
                return None;
            }
        };
        let ping =
            conn.call_method(None::<&str>, ROOT, Some("org.freedesktop.DBus.Peer"), "Ping", &());
        match tokio::time::timeout(PING_TIMEOUT, ping).await {
            Ok(Ok(_)) => Some(conn),
            Ok(Err(e)) => {
                tracing::debug!(bus, %e, "direct connection refused a ping; calls go through the bus");
                None
            }
            Err(_) => {
                tracing::debug!(
                    bus,
                    "direct connection did not answer a ping; calls go through the bus"
                );
                None
            }
        }
    }

    /// Whether the app at `bus` runs as the daemon's own uid (asked of the bus daemon).
    async fn same_user(&self, bus: &str) -> bool {
        let reply = self
            .conn
            .call_method(
                Some("org.freedesktop.DBus"),
                "/org/freedesktop/DBus",
                Some("org.freedesktop.DBus"),
                "GetConnectionUnixUser",
                &(bus,),
            )
            .await;
        let uid: Option<u32> = reply.ok().and_then(|r| r.body().deserialize().ok());
        uid == Some(nix::unistd::geteuid().as_raw())
    }
}
