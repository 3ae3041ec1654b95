//! What happened in the browsers, in order: loads the guard blocked, main-frame navigations,
//! tabs opened, downloads, file choosers. Each entry gets a sequence number; an action takes a mark before it
//! runs, and its result names the entries after the mark in its tab or in tabs it opened, so
//! an agent without an event channel still learns what its action caused.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use serde::Serialize;

use super::lock;

/// Entries kept; older ones are only in the events.
const KEPT: usize = 512;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Effect {
    /// The policy stopped a load inside the browser; `channel` names what was not a page
    /// load (`websocket`).
    Blocked { url: String, rule: String, channel: Option<&'static str> },
    /// The tab's main frame moved to `url`.
    Navigated { url: String },
    /// A tab was opened (a popup, `target=_blank`, `window.open`).
    Opened { url: String },
    /// The page opened a file chooser (intercepted: none shows); `multiple` when it takes
    /// several files.
    FileChooser { multiple: bool },
    /// A download; `state` is `in_progress`, `completed` or `canceled`; `reason` says why the
    /// daemon canceled it (`over_quota`), when it did.
    Download {
        guid: String,
        url: String,
        path: String,
        state: String,
        bytes: u64,
        reason: Option<&'static str>,
    },
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub seq: u64,
    pub browser_id: String,
    /// The tab it happened in, when known.
    pub tab_id: Option<String>,
    pub effect: Effect,
}

/// The log every browser connection of the daemon writes to.
#[derive(Debug, Default)]
pub struct Log {
    seq: AtomicU64,
    entries: Mutex<VecDeque<Entry>>,
}

impl Log {
    /// The mark to pass to [`Log::since`] later.
    pub fn mark(&self) -> u64 {
        self.seq.load(Ordering::SeqCst)
    }

    pub fn push(&self, browser_id: &str, tab_id: Option<String>, effect: Effect) {
        let seq = self.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let mut e = lock(&self.entries);
        e.push_back(Entry { seq, browser_id: browser_id.to_owned(), tab_id, effect });
        if e.len() > KEPT {
            e.pop_front();
        }
    }

    /// A download moved on: its state, size and final path.
    pub fn download_progress(
        &self,
        guid: &str,
        new_state: &str,
        received: u64,
        file: Option<&str>,
        why: Option<&'static str>,
    ) {
        for entry in lock(&self.entries).iter_mut().rev() {
            if let Effect::Download { guid: g, state, bytes, path, reason, .. } = &mut entry.effect
            {
                if g == guid {
                    new_state.clone_into(state);
                    *bytes = received;
                    *reason = why;
                    if let Some(f) = file {
                        f.clone_into(path);
                    }
                    return;
                }
            }
        }
    }

    /// Entries after `mark` in `browser_id` whose tab `tab` accepts.
    pub fn since(
        &self,
        mark: u64,
        browser_id: &str,
        tab: impl Fn(Option<&str>) -> bool,
    ) -> Vec<Entry> {
        lock(&self.entries)
            .iter()
            .filter(|e| e.seq > mark && e.browser_id == browser_id && tab(e.tab_id.as_deref()))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_after_a_mark_by_tab_and_downloads_move_on() {
        let log = Log::default();
        log.push("b", Some("t1".into()), Effect::Navigated { url: "http://a/".into() });
        let mark = log.mark();
        log.push("b", Some("t1".into()), Effect::Opened { url: "http://b/".into() });
        log.push("c", Some("t1".into()), Effect::Opened { url: "http://c/".into() });
        let d = Effect::Download {
            guid: "g".into(),
            url: "http://a/f".into(),
            path: "/d/f".into(),
            state: "in_progress".into(),
            bytes: 0,
            reason: None,
        };
        log.push("b", None, d);
        log.download_progress("g", "completed", 42, None, None);
        let seen = log.since(mark, "b", |t| t != Some("t2"));
        assert_eq!(seen.len(), 2);
        assert!(
            matches!(&seen[1].effect, Effect::Download { state, bytes: 42, .. } if state == "completed")
        );
    }
}
