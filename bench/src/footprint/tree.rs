//! One workspace's whole process tree read from `/proc`: the daemon and everything below it
//! (Xvfb, the buses, AT-SPI, openbox, Chromium and its helpers, launched apps), its memory as
//! summed PSS and its CPU time, with each process sorted into a kind for the breakdown.
//!
//! How a tree is summed. Memory: `Pss` of `/proc/<pid>/smaps_rollup` added over the tree's
//! live processes. PSS divides each resident page by the number of processes mapping it, so
//! a page shared inside the tree (Chromium's binary in its six processes) counts once in the
//! sum, and one shared with other workspaces counts the tree's share only. CPU: the utime,
//! stime, cutime and cstime of `/proc/<pid>/stat` added over the live processes, so a helper that
//! exited within the tree and was reaped there still counts (in its parent's cutime), and a
//! live one is not counted twice (a parent's cutime holds only reaped children).

use std::collections::{BTreeMap, HashMap};

/// One process of the tree.
#[derive(Debug, Clone)]
pub struct Proc {
    pub pid: u32,
    pub kind: &'static str,
    pub pss_kib: u64,
    /// Its private pages (USS): what stopping it alone would free.
    pub uss_kib: u64,
    /// When it started (clock ticks after boot): with the pid, names it across reuse.
    pub start: u64,
}

/// The tree at one moment.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    pub procs: Vec<Proc>,
}

impl Tree {
    /// The daemon `root` and its descendants now; a process that exits while it is read is
    /// left out.
    pub fn read(root: u32) -> Tree {
        let table = table();
        let mut procs = Vec::new();
        for pid in descendants(root, &table) {
            let Some(stat) = table.get(&pid).map(|(_, _, stat)| stat) else { continue };
            let Some(start) = stat_field(stat, 19) else { continue };
            let Ok(rollup) = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")) else {
                continue;
            };
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let comm = table.get(&pid).map_or("", |(_, c, _)| c.as_str());
            let kind = kind(pid == root, comm, &cmdline);
            let pss_kib = rollup_kib(&rollup, "Pss:").unwrap_or(0);
            let uss_kib = rollup_kib(&rollup, "Private_Clean:").unwrap_or(0)
                + rollup_kib(&rollup, "Private_Dirty:").unwrap_or(0);
            procs.push(Proc { pid, kind, pss_kib, uss_kib, start });
        }
        Tree { procs }
    }

    pub fn pss_kib(&self) -> u64 {
        self.procs.iter().map(|p| p.pss_kib).sum()
    }

    /// The private pages of every process: a lower bound of the tree's memory whatever else
    /// runs on the machine (PSS moves with how many other processes map the same files).
    pub fn uss_kib(&self) -> u64 {
        self.procs.iter().map(|p| p.uss_kib).sum()
    }

    /// CPU time only (no smaps walk): cheaper, for the start and end of a window.
    pub fn ticks(root: u32) -> u64 {
        let table = table();
        descendants(root, &table)
            .iter()
            .filter_map(|pid| table.get(pid).and_then(|(_, _, stat)| stat_ticks(stat)))
            .sum()
    }

    /// Per kind: (processes, PSS KiB).
    pub fn by_kind(&self) -> BTreeMap<&'static str, (usize, u64)> {
        let mut out: BTreeMap<&'static str, (usize, u64)> = BTreeMap::new();
        for p in &self.procs {
            let e = out.entry(p.kind).or_default();
            e.0 += 1;
            e.1 += p.pss_kib;
        }
        out
    }
}

/// Whether the process `pid` that started at `start` still runs (a zombie does not).
pub fn still_running(pid: u32, start: u64) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
    let state = stat.rsplit_once(')').and_then(|(_, r)| r.split_whitespace().next());
    stat_field(&stat, 19) == Some(start) && state != Some("Z")
}

/// Every process: pid -> (ppid, comm, the whole stat line).
fn table() -> HashMap<u32, (u32, String, String)> {
    let mut out = HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        if let Some((comm, ppid)) = stat_comm_ppid(&stat) {
            out.insert(pid, (ppid, comm, stat));
        }
    }
    out
}

/// `root` and every process below it.
fn descendants(root: u32, table: &HashMap<u32, (u32, String, String)>) -> Vec<u32> {
    let mut kids: HashMap<u32, Vec<u32>> = HashMap::new();
    for (&pid, (ppid, _, _)) in table {
        kids.entry(*ppid).or_default().push(pid);
    }
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(p) = todo.pop() {
        if table.contains_key(&p) {
            out.push(p);
        }
        todo.extend(kids.remove(&p).unwrap_or_default());
    }
    out
}

/// (comm, ppid) from a stat line; comm may hold spaces and parentheses.
fn stat_comm_ppid(stat: &str) -> Option<(String, u32)> {
    let (open, close) = (stat.find('(')?, stat.rfind(')')?);
    let ppid = stat.get(close + 1..)?.split_whitespace().nth(1)?.parse().ok()?;
    Some((stat.get(open + 1..close)?.to_owned(), ppid))
}

/// The `i`th field after the command name (0: the state; 11 to 14: utime, stime, cutime,
/// cstime; 19: the start time).
fn stat_field(stat: &str, i: usize) -> Option<u64> {
    let rest = stat.rsplit_once(')')?.1;
    let v: i64 = rest.split_whitespace().nth(i)?.parse().ok()?;
    Some(v.max(0) as u64)
}

/// utime + stime + cutime + cstime (fields 14 to 17), in clock ticks.
fn stat_ticks(stat: &str) -> Option<u64> {
    (11..15).map(|i| stat_field(stat, i)).sum()
}

/// The line `key` (`Pss:`, say) of a `smaps_rollup`, in KiB.
fn rollup_kib(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// What a process is, for the breakdown: from its command name and, for Chromium's helpers,
/// its `--type=`.
fn kind(is_root: bool, comm: &str, cmdline: &[u8]) -> &'static str {
    if is_root {
        return "gloveboxd";
    }
    // Chromium's helpers rewrite their title: one string with spaces, not NUL-separated.
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0 || *b == b' ').collect();
    let program = args.first().copied().unwrap_or_default();
    let base = program.rsplit(|b| *b == b'/').next().unwrap_or_default();
    let chromium = comm.starts_with("chrom") || base.starts_with(b"chrom");
    if chromium {
        let ty = args.iter().find_map(|a| a.strip_prefix(b"--type="));
        return match ty {
            None => "chromium browser",
            Some(b"renderer") => "chromium renderer",
            Some(b"gpu-process") => "chromium gpu",
            Some(b"zygote") => "chromium zygote",
            Some(b"utility") => "chromium utility",
            Some(b"crashpad-handler") => "chromium crashpad",
            Some(_) => "chromium other",
        };
    }
    match comm {
        c if c.starts_with("Xvfb") => "Xvfb",
        c if c.starts_with("dbus-daemon") => "dbus-daemon",
        c if c.starts_with("at-spi") => "at-spi",
        c if c.starts_with("openbox") => "openbox",
        c if c.starts_with("mousepad") => "mousepad (the app)",
        c if c.starts_with("sh") || c.starts_with("bash") => "shell",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_its_name_parent_and_cpu_time() {
        // comm with a space and a parenthesis; utime 7, stime 3, cutime 2, cstime 1.
        let stat = "42 (Web (Content) x) S 40 42 42 0 -1 4194560 100 0 0 0 7 3 2 1 20 0 1 0 555";
        assert_eq!(stat_comm_ppid(stat), Some(("Web (Content) x".into(), 40)));
        assert_eq!(stat_ticks(stat), Some(13));
        assert_eq!(stat_ticks("42 (x) S 40"), None);
        assert_eq!(stat_field(stat, 19), Some(555));
    }

    #[test]
    fn pss_is_read_from_the_rollup() {
        let text = "5590-7ffe ---p 00000000 00:00 0  [rollup]\nRss:   1784 kB\nPss:    300 kB\nPss_Anon:  112 kB\nPrivate_Clean:  60 kB\n";
        assert_eq!(rollup_kib(text, "Pss:"), Some(300));
        assert_eq!(rollup_kib(text, "Private_Clean:"), Some(60));
        assert_eq!(rollup_kib("Rss: 1 kB\n", "Pss:"), None);
    }

    #[test]
    fn chromium_helpers_are_told_apart_by_their_type() {
        let cmd = |s: &str| s.replace(' ', "\0").into_bytes();
        let k = |comm, line: &str| kind(false, comm, &cmd(line));
        assert_eq!(k("chromium", "/usr/lib/chromium/chromium --no-sandbox"), "chromium browser");
        assert_eq!(
            k("chromium", "/usr/lib/chromium/chromium --type=renderer --x"),
            "chromium renderer"
        );
        assert_eq!(k("chromium", "/usr/lib/chromium/chromium --type=gpu-process"), "chromium gpu");
        assert_eq!(k("chromium", "/usr/lib/chromium/chromium --type=zygote"), "chromium zygote");
        let retitled = b"/usr/lib/chromium/chromium --type=utility --utility-sub-type=x\0".to_vec();
        assert_eq!(kind(false, "chromium", &retitled), "chromium utility");
        assert_eq!(k("Xvfb", "Xvfb :99"), "Xvfb");
        assert_eq!(k("at-spi2-registr", "/usr/libexec/at-spi2-registryd"), "at-spi");
        assert_eq!(kind(true, "gloveboxd", &cmd("gloveboxd --listen")), "gloveboxd");
        assert_eq!(k("dconf-service", "/usr/libexec/dconf-service"), "other");
    }

    #[test]
    fn the_tree_of_this_process_holds_it_and_its_child() {
        let me = std::process::id();
        let mut child =
            std::process::Command::new("sleep").arg("5").spawn().expect("spawning sleep");
        let tree = Tree::read(me);
        child.kill().expect("killing sleep");
        child.wait().expect("reaping sleep");
        let pids: Vec<u32> = tree.procs.iter().map(|p| p.pid).collect();
        assert!(pids.contains(&me) && pids.contains(&child.id()), "{pids:?}");
        assert!(tree.pss_kib() > 0);
        assert_eq!(tree.procs.iter().find(|p| p.pid == me).map(|p| p.kind), Some("gloveboxd"));
    }
}
