//! The desktop side: the X display and accessibility buses the daemon drives, and the backend
//! that acts on them (AT-SPI apps and trees, X11 input, windows and capture, the clipboard).
//!
//! The backend never sees JSON-RPC: `dispatch/computer.rs` and `dispatch/context_desktop.rs`
//! call the typed methods here. Its errors are one enum, converted into `DaemonError` once.

pub mod atspi;
pub mod clipboard;
pub mod embedded;
pub mod keys;
mod launch;
mod ops;
pub mod slot;
mod watch;
pub mod x11;
pub mod xauth;

use std::sync::Arc;

use crate::error::DaemonError;
use crate::process::Supervisor;
use crate::registry::held::Held;

pub use ops::{
    may_open_window, nodes, nodes_unfolded, Acted, Aim, Dispatch, El, FocusChange, Restore,
    TextState, Typing, Wheel, WindowRef,
};
pub use slot::Slot;
/// Result types of the backend methods.
pub mod ops_types {
    pub use super::ops::{Got, Observed};
}

/// Errors of the desktop backend.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error("the accessibility bus is unavailable: {0}")]
    Bus(String),
    /// The AT-SPI bus went away after the backend connected; it reconnects by itself.
    #[error("the accessibility bus is down: {0}")]
    BusLost(String),
    #[error("the X display is unavailable: {0}")]
    Display(String),
    #[error("{what} failed: {source}")]
    Call { what: String, source: Box<zbus::Error> },
    #[error("{what} no longer exists")]
    Gone { what: String },
    #[error("{what} is not answering accessibility calls; it may be busy or stopped")]
    NotAnswering { what: String },
    #[error("{what} has no on-screen box")]
    NoGeometry { what: String },
    #[error("{what} cannot take text or a value")]
    NotEditable { what: String, available: Vec<String> },
    #[error("{action} is not available: {reason}")]
    Unsupported { action: String, reason: String, available: Vec<String> },
    #[error("no {kind} {id}")]
    NotFound { kind: &'static str, id: String },
    #[error("{kind}s match {query:?}")]
    Ambiguous { kind: &'static str, query: String, candidates: Vec<serde_json::Value> },
    /// Real input was refused (or stopped) because `target`'s window is not the active one.
    #[error("{target} is not the active window: {reason}")]
    NotFocused { target: String, active: Option<ops::WindowRef>, reason: String },
    #[error("the clipboard failed: {0}")]
    Clipboard(String),
    /// The element or app did not take what it was given (an action, text, a selection, a
    /// paste), or took it otherwise than asked.
    #[error("{0}")]
    Refused(String),
    /// Past what exists: a region off the screen, a value outside its range, a text that
    /// does not occur exactly once.
    #[error("{0}")]
    OutOfRange(String),
    /// No spare keycode is left to type a character the keymap lacks.
    #[error("{0}")]
    KeymapFull(String),
    /// What the display or an encoder answered cannot be read.
    #[error("{0}")]
    BadAnswer(String),
    /// A process or thread the backend needs did not start.
    #[error("{0}")]
    Start(String),
    /// What the action needs is not there yet or any more (an app that vanished).
    #[error("{0}")]
    NotReady(String),
    /// The blocking worker that talks to X stopped (panicked or was cancelled).
    #[error("the X worker stopped: {0}")]
    Worker(String),
}

impl Error {
    fn call(what: impl Into<String>, source: zbus::Error) -> Error {
        let what = what.into();
        if atspi::is_gone(&source) {
            Error::Gone { what }
        } else {
            Error::Call { what, source: Box::new(source) }
        }
    }
}

/// The one conversion into the daemon's errors.
impl From<Error> for DaemonError {
    fn from(e: Error) -> Self {
        const REMEDY: &str = "check the desktop backend in session.hello backends; restart the \
                              daemon with --desktop embedded if the display is gone";
        match e {
            Error::Bus(reason) => DaemonError::BackendUnavailable {
                backend: "desktop",
                reason,
                remedy: REMEDY.into(),
            },
            Error::BusLost(reason) => DaemonError::BackendUnavailable {
                backend: "desktop",
                reason,
                remedy: "start the AT-SPI bus again (at-spi-bus-launcher, or the desktop \
                         session); the daemon reconnects by itself within a second"
                    .into(),
            },
            Error::Display(reason) => DaemonError::BackendUnavailable {
                backend: "desktop",
                reason,
                remedy: REMEDY.into(),
            },
            Error::Gone { what } => DaemonError::StaleRef {
                r#ref: what,
                reason: "the element or its app no longer exists; take a new snapshot".into(),
                by: None,
            },
            Error::NoGeometry { what } => DaemonError::NoGeometry { what },
            Error::NotEditable { what, available } => DaemonError::NotEditable { what, available },
            Error::Unsupported { action, reason, available } => {
                DaemonError::Unsupported { tool: "computer".into(), action, reason, available }
            }
            Error::NotFound { kind, id } => DaemonError::TargetNotFound { kind, id },
            Error::Ambiguous { kind, query, candidates } => {
                DaemonError::Ambiguous { kind, query, candidates }
            }
            Error::NotFocused { target, active, reason } => DaemonError::NotFocused {
                reason: format!("{reason} (active: {})", ops::describe(active.as_ref())),
                window_id: target,
                active: serde_json::to_value(active).unwrap_or_default(),
            },
            // Each of these keeps the code it had as `Failed`: the action was tried and failed.
            e @ (Error::Call { .. }
            | Error::NotAnswering { .. }
            | Error::Clipboard(_)
            | Error::Refused(_)
            | Error::OutOfRange(_)
            | Error::KeymapFull(_)
            | Error::BadAnswer(_)
            | Error::Start(_)
            | Error::NotReady(_)
            | Error::Worker(_)) => DaemonError::ActionFailed(e.to_string()),
        }
    }
}

/// Where the backend connects: given explicitly, never read from the process environment.
#[derive(Debug, Clone)]
pub struct Endpoints {
    pub display: String,
    pub session_bus: Option<String>,
    pub a11y_bus: Option<String>,
    /// The environment apps are launched with (DISPLAY, buses, XDG dirs, a11y switches).
    pub env: Vec<(String, String)>,
}

impl Endpoints {
    pub fn from_env(desktop: &embedded::DesktopEnv) -> Endpoints {
        let env = desktop.env().to_vec();
        let session_bus =
            env.iter().find(|(k, _)| k == "DBUS_SESSION_BUS_ADDRESS").map(|(_, v)| v.clone());
        Endpoints {
            display: desktop.display().to_owned(),
            session_bus,
            a11y_bus: desktop.a11y_bus(),
            env,
        }
    }
}

/// The desktop backend: AT-SPI apps and trees, X11 input and windows, the clipboard.
#[derive(Debug)]
pub struct Desktop {
    /// The AT-SPI connection, reconnected when the bus restarts: use [`Desktop::a11y`].
    access: atspi::Link,
    x: Arc<x11::X>,
    clipboard: clipboard::Clipboard,
    supervisor: Supervisor,
    endpoints: Endpoints,
    /// Pastes run one at a time per daemon (save, write, Ctrl+V, restore).
    paste: tokio::sync::Mutex<()>,
    /// Recent screen damage, for settling after actions (`None`: the server lacks DAMAGE).
    damage: Option<Arc<x11::Damage>>,
    /// Where window and app events go.
    events: crate::events::SinkSlot,
    /// The key of the element that last took the focus (`watch.rs`).
    focused: std::sync::Mutex<Option<String>>,
    /// Fields the daemon typed a secret into, painted over in captures (`ops/fields.rs`).
    fields: ops::SecretFields,
}

impl Desktop {
    /// Connects to the display and the AT-SPI bus of `desktop`.
    pub async fn connect(
        desktop: &embedded::DesktopEnv,
        supervisor: Supervisor,
    ) -> Result<Arc<Desktop>, Error> {
        Self::connect_to(Endpoints::from_env(desktop), supervisor).await
    }

    pub async fn connect_to(
        endpoints: Endpoints,
        supervisor: Supervisor,
    ) -> Result<Arc<Desktop>, Error> {
        let display = endpoints.display.clone();
        let x = tokio::task::spawn_blocking(move || x11::X::connect(&display))
            .await
            .map_err(|e| Error::Display(e.to_string()))??;
        let access =
            atspi::Link::connect(endpoints.session_bus.as_deref(), endpoints.a11y_bus.as_deref())
                .await?;
        let clipboard = clipboard::Clipboard::start(&endpoints.display)?;
        let x = Arc::new(x);
        let events = crate::events::SinkSlot::default();
        let differ = watch::window_differ(x.clone(), events.clone());
        let damage = match x11::start_watch(&endpoints.display, differ) {
            Ok(d) => Some(d),
            Err(e) => {
                tracing::warn!(%e, "no screen damage: actions settle on their caps");
                None
            }
        };
        let desktop = Arc::new(Desktop {
            access,
            x,
            clipboard,
            supervisor,
            endpoints,
            paste: tokio::sync::Mutex::new(()),
            damage,
            events,
            focused: std::sync::Mutex::default(),
            fields: ops::SecretFields::default(),
        });
        tokio::spawn(watch::follow_apps(Arc::downgrade(&desktop)));
        tokio::spawn(watch::follow_focus(Arc::downgrade(&desktop)));
        Ok(desktop)
    }

    /// The AT-SPI connection of the moment; `BusLost` while the bus is down.
    pub(crate) fn a11y(&self) -> Result<atspi::A11y, Error> {
        self.access.current()
    }

    /// Points window and app events at `sink`.
    pub fn set_event_sink(&self, sink: crate::events::Sink) {
        self.events.set(sink);
    }

    pub fn display(&self) -> &str {
        &self.endpoints.display
    }

    pub fn screen(&self) -> (u16, u16) {
        self.x.screen()
    }

    /// Releases every key and button in `held` (errors are logged: this runs on cleanup paths).
    pub fn release_held(&self, held: &Held) {
        for k in held.desktop_keys.iter().rev() {
            if let Some(sym) = keys::keysym(k) {
                if let Err(e) = self.x.key(sym, false) {
                    tracing::warn!(key = k, %e, "releasing a held key failed");
                }
            }
        }
        for b in &held.desktop_buttons {
            if let Err(e) = self.x.button(*b, false) {
                tracing::warn!(button = b, %e, "releasing a held button failed");
            }
        }
    }
}
