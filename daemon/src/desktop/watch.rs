//! Desktop events: windows opened, closed and focused (from the X watch's root property
//! changes), apps started and exited (from the accessibility bus's app list changes), each
//! diffed against what was seen before, and elements gaining focus (from AT-SPI focus
//! events, subscribed again on each new bus connection), handed to the daemon's event sink.

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use serde_json::{json, Value};

use super::x11::{RootChange, WindowInfo, X};
use super::Desktop;
use crate::events::SinkSlot;

fn window_json(w: &WindowInfo) -> Value {
    json!({"window_id": w.window_id, "app_id": w.app_id, "pid": w.pid, "title": w.title,
           "frame": w.frame})
}

/// Turns root property changes into window events; runs on the X watch thread.
pub fn window_differ(x: Arc<X>, slot: SinkSlot) -> Box<dyn FnMut(RootChange) + Send> {
    let mut known: HashMap<u32, WindowInfo> =
        x.windows().unwrap_or_default().into_iter().map(|w| (w.xid, w)).collect();
    let mut active = x.active_window();
    Box::new(move |change| match change {
        RootChange::ClientList => {
            let Ok(now) = x.windows() else { return };
            let now: HashMap<u32, WindowInfo> = now.into_iter().map(|w| (w.xid, w)).collect();
            for (xid, w) in &now {
                if !known.contains_key(xid) {
                    slot.emit("window.opened", window_json(w));
                }
            }
            for (xid, w) in &known {
                if !now.contains_key(xid) {
                    slot.emit("window.closed", window_json(w));
                }
            }
            known = now;
        }
        RootChange::ActiveWindow => {
            let now = x.active_window();
            if now != active {
                active = now;
                if let Some(xid) = now {
                    let w = known
                        .get(&xid)
                        .map(window_json)
                        .unwrap_or_else(|| json!({"window_id": super::x11::window_id(xid)}));
                    slot.emit("window.focused", w);
                }
            }
        }
    })
}

/// Follows the accessibility bus's app list and reports apps that came or went, until the
/// desktop is dropped.
pub async fn follow_apps(desktop: Weak<Desktop>) {
    let Some(d) = desktop.upgrade() else { return };
    let mut changes = d.access.app_changes();
    let slot = d.events.clone();
    let mut known = app_map(&d).await;
    drop(d);
    while changes.changed().await.is_ok() {
        // Registration comes as a burst of bus signals; read the list once it has passed.
        tokio::time::sleep(Duration::from_millis(30)).await;
        changes.borrow_and_update();
        let Some(d) = desktop.upgrade() else { return };
        let now = app_map(&d).await;
        drop(d);
        for (id, app) in &now {
            if !known.contains_key(id) {
                slot.emit("app.started", app.clone());
            }
        }
        for (id, app) in &known {
            if !now.contains_key(id) {
                slot.emit("app.exited", app.clone());
            }
        }
        known = now;
    }
}

/// Reports every element that gains focus, until the desktop is dropped; subscribes again
/// whenever the AT-SPI bus connection is made anew.
pub async fn follow_focus(desktop: Weak<Desktop>) {
    let Some(d) = desktop.upgrade() else { return };
    let mut connections = d.access.connections();
    drop(d);
    loop {
        connections.borrow_and_update();
        let Some(d) = desktop.upgrade() else { return };
        let a11y = d.a11y();
        drop(d);
        if let Ok(a11y) = a11y {
            report_focus(&desktop, &a11y).await;
        }
        if connections.changed().await.is_err() {
            return;
        }
    }
}

/// Focus events of one connection, until it closes.
async fn report_focus(desktop: &Weak<Desktop>, a11y: &super::atspi::A11y) {
    use futures::StreamExt as _;
    let Some(changes) = a11y.focus_changes().await else { return };
    let mut changes = std::pin::pin!(changes);
    while let Some((bus, path)) = changes.next().await {
        let Some(d) = desktop.upgrade() else { return };
        if let Ok(mut f) = d.focused.lock() {
            *f = Some(a11y.key(&bus, &path));
        }
        let element = a11y.describe(&bus, &path).await;
        let app_id = a11y.pid_of(&bus).map(|p| format!("app:{p}"));
        d.events.emit("focus.changed", json!({"app_id": app_id, "element": element}));
    }
}

async fn app_map(d: &Desktop) -> HashMap<String, Value> {
    let Ok(a11y) = d.a11y() else { return HashMap::new() };
    a11y.apps()
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|a| {
            let v = json!({"app_id": a.app_id(), "pid": a.pid, "name": a.name,
                           "toolkit": a.toolkit});
            (a.app_id(), v)
        })
        .collect()
}
