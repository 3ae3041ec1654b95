//! The navigation guard: the approval policy enforced inside the browser. DevTools `Fetch` on
//! the browser's own session pauses every document request before it leaves (main frames,
//! frames, popups, each redirect hop; with host rules every sub-request too), whoever started
//! it: a link, `location`, a form, `window.open`, a meta refresh. The policy's verdict lets it
//! go or fails it (`BlockedByClient`, so the served host never sees it); a blocked one becomes
//! a `navigation_blocked` event and an entry of the effects log, for the result of the action
//! that caused it.
//!
//! An approval covers exactly what was approved: the one document request of the URL a
//! `browser.navigate` was approved for (`Guard::expect`) passes an `ask` verdict. Its
//! redirect hops, a reload, a step through the history and every load a page starts are
//! judged afresh, so an `ask` host they reach is blocked and reported with its rule (a
//! `browser.navigate` to it asks an approver). `deny` is never passed.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::fetch::{
    ContinueRequestParams, EnableParams, EventRequestPaused, FailRequestParams,
    FulfillRequestParams, HeaderEntry, RequestPattern, RequestStage,
};
use chromiumoxide::cdp::browser_protocol::network::{ErrorReason, ResourceType};
use chromiumoxide::cdp::browser_protocol::page::FrameTree;
use futures::StreamExt;
use serde_json::json;

use crate::browser::effects::Effect;
use crate::browser::{lock, BrowserError};

/// What the policy says of one URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    Deny {
        rule: String,
    },
    /// An approver must agree first: only a navigation the daemon started (after approval)
    /// may pass.
    Ask {
        rule: String,
    },
}

impl From<crate::approval::policy::Decision> for Verdict {
    fn from(d: crate::approval::policy::Decision) -> Self {
        use crate::approval::policy::Verdict as V;
        let rule = d.rule.unwrap_or_default();
        match d.verdict {
            V::Allow => Verdict::Allow,
            V::Deny => Verdict::Deny { rule },
            V::Ask => Verdict::Ask { rule },
        }
    }
}

/// The policy, as the browser backend sees it.
pub type Judge = Arc<dyn Fn(&str) -> Verdict + Send + Sync>;

/// How long a daemon-started navigation waits for its request to be seen.
const EXPECTED_FOR: Duration = Duration::from_secs(30);

/// Shared by every browser connection of the daemon.
#[derive(Default)]
pub struct Guard {
    judge: Mutex<Option<Judge>>,
    sub_requests: AtomicBool,
    /// (frame id, URL) of approved navigations the daemon started, until when they may be
    /// seen; each passes once.
    expected: Mutex<Vec<(String, String, Instant)>>,
    /// (frame id, URL) the daemon loads to reach an origin's storage (`profiles.rs`): the
    /// guard answers them with a blank page; nothing goes to the network.
    blank: Mutex<Vec<(String, String)>>,
}

impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guard").finish_non_exhaustive()
    }
}

impl Guard {
    /// Point the guard at the policy (once, before the first browser connects);
    /// `sub_requests`: also check fetches, images and scripts (the policy names hosts).
    pub fn set_judge(&self, judge: Judge, sub_requests: bool) {
        *lock(&self.judge) = Some(judge);
        self.sub_requests.store(sub_requests, Ordering::SeqCst);
    }

    /// The daemon is about to load `url` in frame `frame_id` (a tab's target id), which the
    /// op pipeline judged (and an approver allowed, if a rule asks): its first document
    /// request passes an `ask`.
    pub fn expect(&self, frame_id: &str, url: &str) {
        let now = Instant::now();
        let mut e = lock(&self.expected);
        e.retain(|(_, _, until)| *until > now);
        e.push((frame_id.to_owned(), unfragmented(url).to_owned(), now + EXPECTED_FOR));
    }

    /// The next document request for `url` in frame `frame_id` is answered with a blank
    /// page (if the policy allows `url`) instead of going out.
    pub fn serve_blank(&self, frame_id: &str, url: &str) {
        lock(&self.blank).push((frame_id.to_owned(), unfragmented(url).to_owned()));
    }

    fn take_blank(&self, ev: &EventRequestPaused) -> bool {
        let frame: &str = ev.frame_id.as_ref();
        let url = unfragmented(&ev.request.url);
        let mut blank = lock(&self.blank);
        let hit = blank.iter().position(|(f, u)| f == frame && u == url);
        hit.map(|i| blank.remove(i)).is_some()
    }

    /// The policy's verdict on loading `url` (allow when no policy was set).
    pub fn verdict(&self, url: &str) -> Verdict {
        self.judge(url)
    }

    fn judge(&self, url: &str) -> Verdict {
        match lock(&self.judge).clone() {
            Some(judge) => judge(url),
            None => Verdict::Allow,
        }
    }

    /// Whether this is the request of an approved navigation (not a redirect hop of one:
    /// where a redirect leads was never approved).
    fn approved(&self, ev: &EventRequestPaused) -> bool {
        if ev.redirected_request_id.is_some() {
            return false;
        }
        let frame: &str = ev.frame_id.as_ref();
        let mut expected = lock(&self.expected);
        let url = unfragmented(&ev.request.url);
        let hit = expected.iter().position(|(f, u, _)| f == frame && u == url);
        hit.map(|i| expected.remove(i)).is_some()
    }

    /// The rule that stops a paused request, if one does. Sub-requests only stop for a deny;
    /// pages an approver must see stop unless this is the very load an approver allowed.
    fn blocking_rule(&self, ev: &EventRequestPaused, document: bool) -> Option<String> {
        let ours = document && self.approved(ev);
        match self.judge(&ev.request.url) {
            Verdict::Allow => None,
            Verdict::Deny { rule } => Some(rule),
            Verdict::Ask { .. } if !document || ours => None,
            Verdict::Ask { rule } => Some(rule),
        }
    }

    /// Lets a paused request go on, answers it with a blank page (an origin's storage is
    /// being reached), or fails it as blocked.
    async fn answer(
        &self,
        conn: &super::Conn,
        ev: &EventRequestPaused,
        document: bool,
        blocked: bool,
    ) -> Result<(), chromiumoxide::error::CdpError> {
        let id = ev.request_id.clone();
        if blocked {
            let fail = FailRequestParams::new(id, ErrorReason::BlockedByClient);
            conn.browser().execute(fail).await.map(|_| ())
        } else if document && self.take_blank(ev) {
            let mut blank = FulfillRequestParams::new(id, 200);
            blank.response_headers = Some(vec![HeaderEntry::new("Content-Type", "text/html")]);
            // `<!doctype html>`, base64.
            blank.body =
                Some(chromiumoxide::types::Binary::from("PCFkb2N0eXBlIGh0bWw+".to_owned()));
            conn.browser().execute(blank).await.map(|_| ())
        } else {
            conn.browser().execute(ContinueRequestParams::new(id)).await.map(|_| ())
        }
    }

    /// Pause document requests on `conn`'s browser and judge each one, from now on.
    pub(super) async fn listen(
        self: &Arc<Self>,
        conn: &Arc<super::Conn>,
    ) -> Result<Vec<tokio::task::JoinHandle<()>>, BrowserError> {
        let fail = |e: chromiumoxide::error::CdpError| {
            BrowserError::Unavailable(format!(
                "cannot guard {}'s navigations: {e}",
                conn.browser_id
            ))
        };
        let mut paused =
            conn.browser().event_listener::<EventRequestPaused>().await.map_err(fail)?;
        let documents = RequestPattern::builder()
            .url_pattern("*")
            .resource_type(ResourceType::Document)
            .request_stage(RequestStage::Request)
            .build();
        let mut patterns = vec![documents];
        if self.sub_requests.load(Ordering::SeqCst) {
            patterns = vec![RequestPattern::builder()
                .url_pattern("*")
                .request_stage(RequestStage::Request)
                .build()];
        }
        conn.browser()
            .execute(EnableParams::builder().patterns(patterns).build())
            .await
            .map_err(fail)?;
        let (guard, weak): (Arc<Guard>, Weak<super::Conn>) = (self.clone(), Arc::downgrade(conn));
        let (events, browser_id) = (conn.events_slot(), conn.browser_id.clone());
        let task = tokio::spawn(async move {
            while let Some(ev) = paused.next().await {
                let Some(conn) = weak.upgrade() else { return };
                let document = ev.resource_type == ResourceType::Document;
                let rule = guard.blocking_rule(&ev, document);
                if let Err(e) = guard.answer(&conn, &ev, document, rule.is_some()).await {
                    tracing::debug!(%e, "the guard could not answer a paused request");
                }
                let Some(rule) = rule else { continue };
                let tab_id = conn.tab_of_frame(ev.frame_id.as_ref()).await;
                tracing::info!(url = ?ev.request.url, rule = %rule, "the policy blocked a request in the browser");
                events.emit(
                    "navigation_blocked",
                    json!({"browser_id": browser_id, "tab_id": tab_id,
                           "url": ev.request.url, "rule": rule}),
                );
                let url = ev.request.url.clone();
                conn.effects().push(
                    &browser_id,
                    tab_id,
                    Effect::Blocked { url, rule, channel: None },
                );
            }
        });
        Ok(vec![task])
    }
}

/// A request carries no fragment: `a#b` loads `a`.
fn unfragmented(url: &str) -> &str {
    url.split('#').next().unwrap_or(url)
}

/// Frame ids seen in a frame tree (`Page.getFrameTree`'s answer).
pub(crate) fn frame_ids(tree: &FrameTree, out: &mut HashSet<String>) {
    out.insert(tree.frame.id.inner().clone());
    for child in tree.child_frames.iter().flatten() {
        frame_ids(child, out);
    }
}
