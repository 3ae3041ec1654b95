//! Settling a tab after an action: no request started since the action still running, no
//! network activity and no DOM mutation for the quiet window, a painted frame, or the cap.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::actions::Tab;
use super::lock;

/// Requests older than this no longer hold a settle (long polls, streams, lost events).
const STALE_REQUEST: Duration = Duration::from_secs(10);

/// A tab's network activity, fed by its CDP Network events.
#[derive(Debug)]
pub struct Net {
    inflight: Mutex<HashMap<String, Instant>>,
    /// Requests seen ending, for a while: the start and end events come through separate
    /// listeners, so a quick request's end can be handled before its start, which must then
    /// not count as running (it would hold every settle until it goes stale).
    ended: Mutex<HashMap<String, Instant>>,
    last: Mutex<Option<Instant>>,
    tick: watch::Sender<u64>,
}

impl Default for Net {
    fn default() -> Self {
        Net {
            inflight: Mutex::default(),
            ended: Mutex::default(),
            last: Mutex::default(),
            tick: watch::channel(0).0,
        }
    }
}

impl Net {
    pub fn started(&self, id: String) {
        let now = Instant::now();
        if !lock(&self.ended).contains_key(&id) {
            let mut m = lock(&self.inflight);
            m.retain(|_, t| now.duration_since(*t) < STALE_REQUEST);
            m.insert(id, now);
        }
        self.touch(now);
    }

    pub fn finished(&self, id: &str) {
        let now = Instant::now();
        lock(&self.inflight).remove(id);
        let mut ended = lock(&self.ended);
        ended.retain(|_, t| now.duration_since(*t) < STALE_REQUEST);
        ended.insert(id.to_owned(), now);
        drop(ended);
        self.touch(now);
    }

    fn touch(&self, now: Instant) {
        *lock(&self.last) = Some(now);
        self.tick.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Requests started after `since` and still running, and the last activity after it.
    fn busy_since(&self, since: Instant) -> (usize, Option<Instant>) {
        let busy = lock(&self.inflight).values().filter(|t| **t >= since).count();
        let last = (*lock(&self.last)).filter(|t| *t >= since);
        (busy, last)
    }
}

/// Resolves once the document has not mutated for `q` ms (then after two animation frames
/// when visible, so the change is painted; a tab that paints no frame within 500 ms is taken
/// as it is), or after `cap` ms.
fn dom_quiet_js(q: u128, cap: u128) -> String {
    format!(
        "new Promise(res => {{ let t; let over = false; \
         const mo = new MutationObserver(() => {{ clearTimeout(t); t = setTimeout(done, {q}); }}); \
         function done() {{ if (over) return; over = true; mo.disconnect(); clearTimeout(cap); \
           if (document.visibilityState === 'visible') \
             {{ requestAnimationFrame(() => requestAnimationFrame(() => res(true))); \
               setTimeout(() => res(true), 500); }} \
           else res(true); }} \
         const cap = setTimeout(() => {{ over = true; mo.disconnect(); res(false); }}, {cap}); \
         mo.observe(document, {{subtree: true, childList: true, attributes: true, characterData: true}}); \
         t = setTimeout(done, {q}); }})"
    )
}

impl Tab {
    /// Waits until the tab is quiet after an action that started at `since` (requests it set
    /// off count); returns whether it was (`true`) or the `cap` ran out first.
    pub async fn settle(&self, since: Instant, quiet: Duration, cap: Instant) -> bool {
        let net = &self.watch.net;
        let mut ticks = net.tick.subscribe();
        loop {
            let now = Instant::now();
            if now >= cap {
                return false;
            }
            // An open dialog is the final state: nothing paints behind it.
            if self.dialog().is_some() {
                return true;
            }
            let (busy, last) = net.busy_since(since);
            let quiet_at = last.map(|t| t + quiet);
            if busy > 0 || quiet_at.is_some_and(|t| t > now) {
                let until = quiet_at.filter(|_| busy == 0).unwrap_or(cap).min(cap);
                ticks.borrow_and_update();
                let _ = tokio::time::timeout_at(until.into(), ticks.changed()).await;
                continue;
            }
            let js = dom_quiet_js(quiet.as_millis(), (cap - now).as_millis());
            let before = net.busy_since(since).1;
            match tokio::time::timeout_at(cap.into(), self.eval(&js)).await {
                Err(_) | Ok(Ok(serde_json::Value::Bool(false))) => return false,
                Ok(Ok(_)) if net.busy_since(since).1 == before => return true,
                // The network woke up meanwhile: wait for it again.
                Ok(Ok(_)) => {}
                Ok(Err(super::BrowserError::DialogOpened(_))) => return true,
                // The document went away under the script (a navigation): retry in the new one.
                Ok(Err(_)) => {
                    let _ = tokio::time::timeout(Duration::from_millis(20), ticks.changed()).await;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_counts_from_its_start_to_its_end_in_either_order() {
        let since = Instant::now();
        let net = Net::default();
        net.started("a".into());
        assert_eq!(net.busy_since(since).0, 1);
        net.finished("a");
        assert_eq!(net.busy_since(since).0, 0);
        // The end handled before the start: the request is over, not running for good.
        net.finished("b");
        net.started("b".into());
        assert_eq!(net.busy_since(since).0, 0);
        // A redirect starts the same request again; it still ends once.
        net.started("c".into());
        net.started("c".into());
        assert_eq!(net.busy_since(since).0, 1);
        net.finished("c");
        assert_eq!(net.busy_since(since).0, 0);
        assert!(net.busy_since(since).1.is_some(), "activity is remembered");
    }
}
