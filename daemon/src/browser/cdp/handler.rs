//! Drives chromiumoxide's handler for one browser connection: the task ends when the browser
//! goes, and the messages the crate cannot read into its types are read here, raw.
//!
//! chromiumoxide 0.9.1 (the newest release) knows the protocol of an older Chromium: an event
//! of this one that carries a value its types lack (a new enum word, a field changed shape)
//! does not parse. The crate drops such an event either way; left to itself it also logs
//! each one as a WARN ("WS Invalid message"), hundreds a session. With
//! `ignore_invalid_messages: false` it hands them to this loop instead, which keeps the WARN
//! for what is a real fault (an answer to a command that cannot be read: the command will
//! time out) and notes an unreadable event once per method at debug level.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::cdp::events::CdpEventMessage;
use chromiumoxide::error::CdpError;
use chromiumoxide::handler::{Handler, HandlerConfig};
use futures::StreamExt;
use serde_json::json;

use super::Liveness;
use crate::events::SinkSlot;

/// The handler's settings: the daemon sizes no viewport, and reads unparsable messages
/// itself (see the module's note).
pub fn config() -> HandlerConfig {
    HandlerConfig { viewport: None, ignore_invalid_messages: false, ..HandlerConfig::default() }
}

/// Runs `handler` until the browser closes the socket or stops answering; then `alive` turns
/// false and the sessions hear `browser.exited`.
pub fn drive(
    mut handler: Handler,
    liveness: Liveness,
    alive: Arc<AtomicBool>,
    events: SinkSlot,
    browser_id: String,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        // chromiumoxide's handler goes quiet instead of ending when the browser closes the
        // socket cleanly, so the browser is also checked every second.
        let mut probe = tokio::time::interval(Duration::from_secs(1));
        let mut misses = 0;
        let mut unread = Unread::default();
        loop {
            tokio::select! {
                ev = handler.next() => match ev {
                    None | Some(Err(CdpError::Ws(_))) => break,
                    Some(Err(CdpError::InvalidMessage(text, e))) => unread.note(&text, &e),
                    Some(Err(e)) => tracing::debug!(%e, "cdp handler"),
                    Some(Ok(())) => {}
                },
                _ = probe.tick() => {
                    misses = if liveness.alive().await { 0 } else { misses + 1 };
                    if misses >= 2 {
                        break;
                    }
                }
            }
        }
        alive.store(false, Ordering::SeqCst);
        // Sessions hear of it at once; the default browser restarts on the next call.
        events.emit("browser.exited", json!({"browser_id": browser_id}));
    })
}

/// The head of a CDP message: an answer has an id, an event a method and no id.
#[derive(serde::Deserialize)]
struct Head {
    id: Option<u64>,
    method: Option<String>,
}

/// The event methods this connection could not read so far (each told once).
#[derive(Default)]
struct Unread {
    methods: HashSet<String>,
}

impl Unread {
    fn note(&mut self, text: &str, e: &serde_json::Error) {
        match serde_json::from_str::<Head>(text) {
            Ok(Head { id: None, method: Some(method) }) => {
                if self.methods.insert(method.clone()) {
                    // The event's own parse says what in it the crate's types lack (the
                    // message's untagged parse only says that it failed).
                    let why = serde_json::from_str::<CdpEventMessage>(text).err();
                    let why = why.map_or_else(|| e.to_string(), |w| w.to_string());
                    tracing::debug!(%method, %why, "a CDP event chromiumoxide cannot read (dropped)");
                }
            }
            Ok(Head { id: Some(id), .. }) => {
                tracing::warn!(id, %e, "an answer from the browser chromiumoxide cannot read");
            }
            _ => tracing::warn!(%e, "a message from the browser that is no CDP message"),
        }
    }
}
