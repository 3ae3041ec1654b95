//! The AT-SPI bus of a desktop we started, stopped and started again while the rest runs:
//! how fault tests take it away under the daemon, and the way back (started as at start-up).

use super::{bus, DesktopEnv, DesktopError};

/// Where the AT-SPI bus is, and the launcher we started for it.
#[derive(Debug, Default)]
pub(super) struct A11yBus {
    pub address: Option<String>,
    pub launcher: Option<u32>,
}

impl DesktopEnv {
    /// Stops the AT-SPI bus we launched: the registry daemon, the launcher and the bus daemon
    /// it runs. A desktop whose bus we did not launch is left alone.
    pub fn stop_a11y_bus(&self) -> Result<(), DesktopError> {
        let (address, launcher) = match self.a11y.lock() {
            Ok(a) => (a.address.clone(), a.launcher),
            Err(_) => return Ok(()),
        };
        let Some(launcher) = launcher else { return Ok(()) };
        let registry = address.and_then(|a| bus::registry_pid(&self.supervisor, &a));
        let helpers = children_of(launcher);
        // The launcher's group holds its bus daemon; whatever left the group goes by pid.
        self.supervisor.stop_pid(launcher)?;
        for pid in registry.into_iter().chain(helpers) {
            if crate::process::is_alive(pid) {
                self.supervisor.stop_pid(pid)?;
            }
        }
        if let Ok(mut a) = self.a11y.lock() {
            a.launcher = None;
        }
        self.forget_status();
        Ok(())
    }

    /// Starts the AT-SPI bus on our session bus as start-up does (after
    /// [`DesktopEnv::stop_a11y_bus`]); returns its address.
    pub fn start_a11y_bus(&self) -> Result<String, DesktopError> {
        let session = self
            .env
            .iter()
            .find(|(k, _)| k == "DBUS_SESSION_BUS_ADDRESS")
            .filter(|_| self.owns_a11y_bus)
            .map(|(_, v)| v.clone())
            .ok_or(DesktopError::NotOurs("AT-SPI bus"))?;
        let (address, launcher) = bus::start_a11y_bus(&self.supervisor, &session, &self.env)?;
        if let Ok(mut a) = self.a11y.lock() {
            *a = A11yBus { address: Some(address.clone()), launcher: Some(launcher) };
        }
        self.forget_status();
        Ok(address)
    }
}

/// Pids whose parent is `pid`, from `/proc`.
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|child| {
            let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default();
            // `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
            let after = stat.rsplit_once(')').map(|(_, rest)| rest).unwrap_or_default();
            after.split_whitespace().nth(1).and_then(|p| p.parse::<u32>().ok()) == Some(pid)
        })
        .collect()
}
