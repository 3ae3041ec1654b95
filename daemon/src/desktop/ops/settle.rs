//! Settling after an action: one round trip through the target app's main loop (so what
//! the action set off has been handled), then screen damage quiet with every window mapped
//! meanwhile painted, or the cap.

use std::time::{Duration, Instant};

use crate::desktop::atspi::ROOT;
use crate::desktop::Desktop;

impl Desktop {
    /// Waits after an action that started at `since`: `Some(true)` when the screen went
    /// quiet, `Some(false)` at the cap, `None` when this display reports no damage.
    pub async fn settle(
        &self,
        pid: Option<u32>,
        since: Instant,
        quiet: Duration,
        cap: Instant,
    ) -> Option<bool> {
        let damage = self.damage.clone().filter(|d| d.is_live())?;
        if let Some(pid) = pid {
            let _ = tokio::time::timeout_at(cap.into(), self.ping(pid)).await;
        }
        Some(damage.settle(None, since, Instant::now(), quiet, cap).await)
    }

    /// A call the app answers from its main loop (toolkits serve AT-SPI there), so its
    /// answer means the events queued before it were handled.
    async fn ping(&self, pid: u32) {
        let Ok(a11y) = self.a11y() else { return };
        let Some(bus) = a11y.bus_of(pid).await else { return };
        let r: zbus::Result<u32> =
            a11y.call(&bus, ROOT, "org.a11y.atspi.Accessible", "GetRole", &()).await;
        if let Err(e) = r {
            tracing::debug!(pid, %e, "settle ping");
        }
    }
}
