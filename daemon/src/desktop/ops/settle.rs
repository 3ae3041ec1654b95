//! Settling after an action: one round trip through the target app's main loop (so what
//! the action set off has been handled), then screen damage quiet with every window mapped
//! meanwhile painted and every window unmapped gone from the screen, or the cap. A key that
//! may open or close a window (`may_open_window`) also waits a while for that window.

use std::time::{Duration, Instant};

use crate::desktop::atspi::{iface, ROOT};
use crate::desktop::x11::Settled;
use crate::desktop::Desktop;

/// How long after a key that may open or close a window the settle waits for one to map or
/// unmap (a GTK file chooser maps 100-400 ms after Ctrl+S here; a dialog closes within
/// 200 ms of Return). It ends at once when a window did and then painted and went quiet.
pub const WINDOW_GRACE: Duration = Duration::from_millis(900);

/// Whether the key chord `chord` may open or close a window: a shortcut (a modifier other
/// than Shift with a key), or a key that answers a dialog (Return, Enter, Escape).
pub fn may_open_window(chord: &str) -> bool {
    let words: Vec<String> = chord.split('+').map(|w| w.trim().to_ascii_lowercase()).collect();
    let Some((key, mods)) = words.split_last() else { return false };
    let shortcut = mods.iter().any(|m| {
        matches!(m.as_str(), "ctrl" | "control" | "alt" | "super" | "meta" | "win" | "cmd")
    });
    shortcut
        || (mods.is_empty() && matches!(key.as_str(), "return" | "enter" | "kp_enter" | "escape"))
}

impl Desktop {
    /// Waits after an action that started at `since`, or `None` when this display reports
    /// no damage. `opens`: the action may open or close a window.
    pub async fn settle(
        &self,
        pid: Option<u32>,
        since: Instant,
        quiet: Duration,
        cap: Instant,
        opens: bool,
    ) -> Option<Settled> {
        let damage = self.damage.clone().filter(|d| d.is_live())?;
        if let Some(pid) = pid {
            let _ = tokio::time::timeout_at(cap.into(), self.ping(pid)).await;
        }
        let grace = opens.then_some(WINDOW_GRACE);
        Some(damage.settle(None, since, Instant::now(), quiet, cap, grace).await)
    }

    /// A call the app answers from its main loop (toolkits serve AT-SPI there), so its
    /// answer means the events queued before it were handled.
    async fn ping(&self, pid: u32) {
        let Ok(a11y) = self.a11y() else { return };
        let Some(bus) = a11y.bus_of(pid).await else { return };
        let r: zbus::Result<u32> = a11y.call(&bus, ROOT, iface::ACCESSIBLE, "GetRole", &()).await;
        if let Err(e) = r {
            tracing::debug!(pid, %e, "settle ping");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::may_open_window;

    #[test]
    fn shortcuts_and_dialog_keys_may_open_or_close_a_window() {
        for chord in ["ctrl+s", "Ctrl+O", "alt+F4", "super+e", "Return", "Escape", "KP_Enter"] {
            assert!(may_open_window(chord), "{chord}");
        }
        for chord in ["a", "shift+a", "Tab", "BackSpace", "shift+Return", "F5", ""] {
            assert!(!may_open_window(chord), "{chord}");
        }
    }
}
