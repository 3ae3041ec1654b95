//! Focus as the accessibility bus reports it: the registry is asked to forward
//! `object:state-changed:focused` (toolkits only emit events someone registered for), and
//! each element that gains focus comes out as its (bus name, object path).

use futures::{Stream, StreamExt as _};
use zbus::zvariant::OwnedValue;

use super::{iface, A11y, REGISTRY};

const FOCUSED: &str = "object:state-changed:focused";

impl A11y {
    /// The bus name of the app with `pid`, from what the app list already knows.
    pub async fn bus_of(&self, pid: u32) -> Option<String> {
        let known =
            self.apps.facts.lock().ok().and_then(|f| {
                f.iter().find(|(_, (p, _, _))| *p == pid).map(|(bus, _)| bus.clone())
            });
        match known {
            Some(bus) => Some(bus),
            None => self.apps().await.ok()?.into_iter().find(|a| a.pid == pid).map(|a| a.bus),
        }
    }

    /// The pid of the app at `bus`, when the app list knows it.
    pub fn pid_of(&self, bus: &str) -> Option<u32> {
        self.apps.facts.lock().ok().and_then(|f| f.get(bus).map(|(p, _, _)| *p))
    }

    /// Elements gaining focus, as (bus name, object path), until the connection closes.
    pub async fn focus_changes(&self) -> Option<impl Stream<Item = (String, String)>> {
        let path = "/org/a11y/atspi/registry";
        let iface = Some(iface::REGISTRY);
        // at-spi2-core before 2.50 takes the event alone; later ones also properties and an
        // app bus name.
        let short =
            self.conn.call_method(Some(REGISTRY), path, iface, "RegisterEvent", &(FOCUSED,));
        if short.await.is_err() {
            let long = (FOCUSED, Vec::<String>::new(), "");
            if let Err(e) =
                self.conn.call_method(Some(REGISTRY), path, iface, "RegisterEvent", &long).await
            {
                tracing::debug!(%e, "cannot register for focus events");
                return None;
            }
        }
        let rule = zbus::MatchRule::builder()
            .msg_type(zbus::message::Type::Signal)
            .interface(iface::EVENT_OBJECT)
            .ok()?
            .member("StateChanged")
            .ok()?
            .build();
        let stream = zbus::MessageStream::for_match_rule(rule, &self.conn, Some(256)).await.ok()?;
        Some(stream.filter_map(|msg| async move {
            let msg = msg.ok()?;
            let body = msg.body();
            let (kind, gained) =
                    body.deserialize::<(
                        String,
                        i32,
                        i32,
                        OwnedValue,
                        std::collections::HashMap<String, OwnedValue>,
                    )>()
                    .map(|(k, d1, ..)| (k, d1))
                    .or_else(|_| {
                        body.deserialize::<(String, i32, i32, OwnedValue)>()
                            .map(|(k, d1, ..)| (k, d1))
                    })
                    .ok()?;
            if kind != "focused" || gained != 1 {
                return None;
            }
            let header = msg.header();
            Some((header.sender()?.to_string(), header.path()?.to_string()))
        }))
    }
}
