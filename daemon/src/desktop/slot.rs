//! The desktop as the daemon holds it over its life: starting (the port answers before the
//! desktop is up, so `/readyz` can say so and calls are refused at once), then the started
//! desktop with its backend, or the reason the backend could not connect.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use glovebox_protocol::wire::BackendStatus;
use serde_json::Value;

use super::embedded::{self, DesktopEnv, DesktopError, DesktopMode};
use super::Desktop;
use crate::events::Sink;
use crate::process::Supervisor;

/// Shared by the daemon and whoever brings the desktop up; clones see the same desktop.
#[derive(Clone, Default)]
pub struct Slot {
    inner: Arc<Mutex<Inner>>,
}

#[derive(Default)]
struct Inner {
    phase: Phase,
    /// Where the backend's events go, kept for a backend that connects later.
    sink: Option<Sink>,
}

#[derive(Default, Clone)]
enum Phase {
    /// No desktop in this daemon (tests of the protocol alone).
    #[default]
    Absent,
    /// Coming up; `env` once the desktop runs and its backend is connecting.
    Starting { env: Option<Arc<DesktopEnv>> },
    /// The desktop runs; `backend` is the connected backend or why it did not connect.
    Up { env: Option<Arc<DesktopEnv>>, backend: Result<Arc<Desktop>, String> },
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let phase = match self.phase() {
            Phase::Absent => "absent",
            Phase::Starting { .. } => "starting",
            Phase::Up { backend: Ok(_), .. } => "up",
            Phase::Up { backend: Err(_), .. } => "up without a backend",
        };
        f.debug_tuple("Slot").field(&phase).finish()
    }
}

/// A backend connected elsewhere (the tests' own desktops).
impl From<Arc<Desktop>> for Slot {
    fn from(backend: Arc<Desktop>) -> Self {
        let slot = Slot::default();
        slot.lock().phase = Phase::Up { env: None, backend: Ok(backend) };
        slot
    }
}

impl Slot {
    /// A desktop that is about to be brought up ([`Slot::bring_up`]).
    pub fn starting() -> Self {
        let slot = Slot::default();
        slot.lock().phase = Phase::Starting { env: None };
        slot
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn phase(&self) -> Phase {
        self.lock().phase.clone()
    }

    /// Starts or adopts the desktop (`--desktop`) on a blocking thread, then connects the
    /// backend to it. The started desktop is in the slot as soon as it runs, so it is
    /// stopped on exit even when the daemon stops before the backend connected. A backend
    /// that cannot connect leaves the desktop up without one (reported with the reason); a
    /// desktop that cannot start is the error.
    pub async fn bring_up(
        &self,
        mode: DesktopMode,
        state_dir: PathBuf,
        supervisor: Supervisor,
    ) -> Result<Arc<DesktopEnv>, DesktopError> {
        let (slot, sup) = (self.clone(), supervisor.clone());
        let env = tokio::task::spawn_blocking(move || {
            let env = Arc::new(embedded::start(mode, &state_dir, &sup)?);
            slot.lock().phase = Phase::Starting { env: Some(env.clone()) };
            Ok::<_, DesktopError>(env)
        })
        .await
        .map_err(|e| DesktopError::StartAborted(e.to_string()))??;
        let backend = match Desktop::connect(&env, supervisor).await {
            Ok(d) => Ok(d),
            Err(e) => {
                tracing::warn!(%e, "the desktop backend is unavailable");
                Err(e.to_string())
            }
        };
        let mut inner = self.lock();
        if let (Ok(d), Some(sink)) = (&backend, &inner.sink) {
            d.set_event_sink(sink.clone());
        }
        inner.phase = Phase::Up { env: Some(env.clone()), backend };
        drop(inner);
        Ok(env)
    }

    /// Whether the desktop is still coming up (its backend not connected yet).
    pub fn is_starting(&self) -> bool {
        matches!(self.lock().phase, Phase::Starting { .. })
    }

    /// The connected backend.
    pub fn backend(&self) -> Option<Arc<Desktop>> {
        match self.phase() {
            Phase::Up { backend: Ok(d), .. } => Some(d),
            _ => None,
        }
    }

    /// The started desktop (display, buses, the children it started).
    pub fn env(&self) -> Option<Arc<DesktopEnv>> {
        match self.phase() {
            Phase::Starting { env } | Phase::Up { env, .. } => env,
            Phase::Absent => None,
        }
    }

    /// Points the backend's window and app events at `sink`, now or once it connects.
    pub fn set_event_sink(&self, sink: Sink) {
        let mut inner = self.lock();
        if let Phase::Up { backend: Ok(d), .. } = &inner.phase {
            d.set_event_sink(sink.clone());
        }
        inner.sink = Some(sink);
    }

    /// The desktop's state as `session.hello` and `/healthz` report it: `starting` until
    /// the backend connected, then the live probe of the display and the accessibility bus
    /// (`down` with the reason when the backend could not connect).
    pub fn status(&self) -> Option<BackendStatus> {
        if self.is_starting() {
            return Some(BackendStatus {
                status: "starting".into(),
                reason: Some(STARTING.into()),
                extra: BTreeMap::new(),
            });
        }
        let (env, backend) = match self.phase() {
            Phase::Up { env: Some(env), backend } => (env, backend),
            _ => return None,
        };
        let probed = env.status();
        let mut extra: BTreeMap<String, Value> = match serde_json::to_value(&probed) {
            Ok(Value::Object(m)) => m.into_iter().collect(),
            _ => BTreeMap::new(),
        };
        extra.remove("reason");
        let word =
            extra.remove("status").and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
        let mut status = BackendStatus { status: word, reason: probed.reason, extra };
        if let Err(reason) = backend {
            status.status = "down".into();
            status.reason = Some(reason);
        }
        Some(status)
    }
}

/// What a call, `/readyz` and the backend status say while the desktop comes up (the
/// error's text, kept with the error).
pub use crate::error::DESKTOP_STARTING as STARTING;
