//! A tab's network activity, fed by the Network events of its own session and of its
//! cross-site frames' sessions.
//!
//! A cross-site iframe's document request starts in the tab's session and ends in the
//! frame's own (another renderer draws it): the tab's session never sees it end. Once the
//! frame's target exists the request is handed over (`handed_over`), or it would hold every
//! settle of the page until it went stale (the `cap` of 10 s such pages used to wait).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::super::lock;

/// Requests older than this no longer hold a settle (long polls, streams, lost events).
const STALE_REQUEST: Duration = Duration::from_secs(10);
/// A frame's request (its document, or any request of a cross-site frame) still running
/// after this is reported, not waited on.
pub const FRAME_LOADING: Duration = Duration::from_secs(2);

#[derive(Debug, Clone)]
struct Request {
    at: Instant,
    url: String,
    /// The frame a document request loads, when not the tab's own (a cross-site frame's
    /// target id is its frame id).
    document_of: Option<String>,
    /// Seen through a cross-site frame's session.
    in_frame: bool,
}

/// What is running since an action.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Busy {
    /// URLs of the requests still running that hold the settle.
    pub busy: Vec<String>,
    /// Requests started since.
    pub started: usize,
    /// Frames' requests running longer than `FRAME_LOADING`.
    pub frames_loading: Vec<String>,
    /// When the first frame's request still held will be reported instead.
    pub frame_deadline: Option<Instant>,
    pub last: Option<Instant>,
}

#[derive(Debug)]
pub struct Net {
    inflight: Mutex<HashMap<String, Request>>,
    /// Requests seen ending, for a while: the start and end events come through separate
    /// listeners, so a quick request's end can be handled before its start, which must then
    /// not count as running (it would hold every settle until it goes stale).
    ended: Mutex<HashMap<String, Instant>>,
    starts: Mutex<VecDeque<Instant>>,
    last: Mutex<Option<Instant>>,
    tick: watch::Sender<u64>,
}

impl Default for Net {
    fn default() -> Self {
        Net {
            inflight: Mutex::default(),
            ended: Mutex::default(),
            starts: Mutex::default(),
            last: Mutex::default(),
            tick: watch::channel(0).0,
        }
    }
}

impl Net {
    /// A request started; `document_of`: the frame a document request loads; `in_frame`:
    /// seen through a cross-site frame's session.
    pub fn started(&self, id: String, url: &str, document_of: Option<String>, in_frame: bool) {
        let now = Instant::now();
        if !lock(&self.ended).contains_key(&id) {
            let mut m = lock(&self.inflight);
            m.retain(|_, r| now.duration_since(r.at) < STALE_REQUEST);
            let url: String = url.chars().take(200).collect();
            m.insert(id, Request { at: now, url, document_of, in_frame });
            let mut starts = lock(&self.starts);
            while starts.len() >= 1024 || starts.front().is_some_and(|t| now - *t > STALE_REQUEST) {
                starts.pop_front();
            }
            starts.push_back(now);
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

    /// The document request of `frame` goes on in that frame's own session.
    pub fn handed_over(&self, frame: &str) {
        let mut m = lock(&self.inflight);
        let before = m.len();
        m.retain(|_, r| r.document_of.as_deref() != Some(frame));
        let changed = m.len() != before;
        drop(m);
        if changed {
            self.touch(Instant::now());
        }
    }

    fn touch(&self, now: Instant) {
        *lock(&self.last) = Some(now);
        self.tick.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// A receiver that changes on every network event.
    pub fn ticks(&self) -> watch::Receiver<u64> {
        self.tick.subscribe()
    }

    /// A number that changes with every network event.
    pub fn stamp(&self) -> u64 {
        *self.tick.borrow()
    }

    /// What started after `since` and is still running at `now`.
    pub fn busy_since(&self, since: Instant, now: Instant) -> Busy {
        let mut b = Busy::default();
        for r in lock(&self.inflight).values().filter(|r| r.at >= since) {
            let frame = r.in_frame || r.document_of.is_some();
            if frame && now.duration_since(r.at) >= FRAME_LOADING {
                b.frames_loading.push(r.url.clone());
            } else {
                b.busy.push(r.url.clone());
                if frame {
                    let due = r.at + FRAME_LOADING;
                    b.frame_deadline = Some(b.frame_deadline.map_or(due, |d| d.min(due)));
                }
            }
        }
        b.started = lock(&self.starts).iter().filter(|t| **t >= since).count();
        b.last = (*lock(&self.last)).filter(|t| *t >= since);
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_counts_from_its_start_to_its_end_in_either_order() {
        let since = Instant::now();
        let net = Net::default();
        let busy = |net: &Net| net.busy_since(since, Instant::now()).busy.len();
        net.started("a".into(), "http://a/", None, false);
        assert_eq!(busy(&net), 1);
        net.finished("a");
        assert_eq!(busy(&net), 0);
        // The end handled before the start: the request is over, not running for good.
        net.finished("b");
        net.started("b".into(), "http://b/", None, false);
        assert_eq!(busy(&net), 0);
        // A redirect starts the same request again; it still ends once.
        net.started("c".into(), "http://c/", None, false);
        net.started("c".into(), "http://c/", None, false);
        assert_eq!(busy(&net), 1);
        net.finished("c");
        assert_eq!(busy(&net), 0);
        let b = net.busy_since(since, Instant::now());
        assert!(b.last.is_some(), "activity is remembered");
        assert_eq!(b.started, 3);
    }

    #[test]
    fn a_cross_site_frame_takes_its_document_over_and_a_slow_one_is_only_reported() {
        let since = Instant::now();
        let net = Net::default();
        net.started("doc".into(), "http://localhost/child", Some("F1".into()), false);
        assert_eq!(net.busy_since(since, Instant::now()).busy.len(), 1);
        net.handed_over("F1");
        assert!(net.busy_since(since, Instant::now()).busy.is_empty());
        net.started("img".into(), "http://localhost/slow.png", None, true);
        // A frame's document still coming from the server, before any frame target exists.
        net.started("doc2".into(), "http://localhost/slow", Some("F2".into()), false);
        net.started("main".into(), "http://127.0.0.1/slow", None, false);
        let b = net.busy_since(since, Instant::now() + FRAME_LOADING);
        assert_eq!(b.busy, ["http://127.0.0.1/slow".to_owned()], "{b:?}");
        let mut loading = b.frames_loading;
        loading.sort();
        assert_eq!(loading, ["http://localhost/slow", "http://localhost/slow.png"]);
    }
}
