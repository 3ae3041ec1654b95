//! Where the CPU time of a measured step goes: the daemon, the app, and the message buses
//! (`dbus-daemon`, the AT-SPI registry) started under the daemon, from `/proc/<pid>/stat`.

use std::collections::HashMap;

use crate::daemon::{cpu_ticks, ticks_per_second};

/// CPU clock ticks of (daemon, app, buses).
#[derive(Debug, Clone, Copy, Default)]
pub struct Ticks {
    pub daemon: u64,
    pub app: u64,
    pub buses: u64,
}

impl Ticks {
    /// Now, for the daemon `root`, the app `app` and the buses below `root`.
    pub fn now(root: u32, app: u32) -> Ticks {
        let mut t = Ticks {
            daemon: cpu_ticks(&format!("/proc/{root}/stat")).unwrap_or(0),
            app: cpu_ticks(&format!("/proc/{app}/stat")).unwrap_or(0),
            buses: 0,
        };
        for (pid, comm) in descendants(root) {
            if comm.starts_with("dbus-daemon") || comm.starts_with("at-spi") {
                t.buses += cpu_ticks(&format!("/proc/{pid}/stat")).unwrap_or(0);
            }
        }
        t
    }

    /// Milliseconds of CPU per step since `self`, over `steps` steps: (daemon, app, buses).
    pub fn per_step(&self, end: Ticks, steps: usize) -> [f64; 3] {
        let ms = 1000.0 / ticks_per_second() / steps.max(1) as f64;
        let d = |a: u64, b: u64| b.saturating_sub(a) as f64 * ms;
        [d(self.daemon, end.daemon), d(self.app, end.app), d(self.buses, end.buses)]
    }
}

/// Every process below `root`, with its command name.
fn descendants(root: u32) -> Vec<(u32, String)> {
    let mut kids: HashMap<u32, Vec<(u32, String)>> = HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else { continue };
        let comm = stat[open + 1..close].to_owned();
        let ppid = stat[close + 1..].split_whitespace().nth(1).and_then(|p| p.parse().ok());
        if let Some(ppid) = ppid {
            kids.entry(ppid).or_default().push((pid, comm));
        }
    }
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(p) = todo.pop() {
        for (pid, comm) in kids.remove(&p).unwrap_or_default() {
            todo.push(pid);
            out.push((pid, comm));
        }
    }
    out
}
