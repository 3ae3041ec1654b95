//! Everything the browser backend can fail with, and its one mapping to the daemon's error
//! (and so to the wire's `data.code`).

use serde_json::Value;

use super::{cdp, pipe};
use crate::error::DaemonError;

/// Everything the browser backend can fail with.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum BrowserError {
    #[error("{0}")]
    Unavailable(String),
    #[error("no {kind} {id}")]
    NotFound { kind: &'static str, id: String },
    #[error("{kind}s match {query:?}")]
    Ambiguous { kind: &'static str, query: String, candidates: Vec<Value> },
    /// Chromium answered the command with an error (one the backend does not type further).
    #[error("{method}: {text}")]
    Cdp { method: String, text: String },
    /// A wait the backend bounds ran out: an answer, a navigation, a ready page.
    #[error("{0}")]
    Timeout(String),
    /// The tab is not in a state to take the command yet or any more: no dialog to answer,
    /// nothing focused, an isolated world or a frame that keeps going away.
    #[error("{0}")]
    NotReady(String),
    /// Past what exists: no history entry that way, no such option, no match.
    #[error("{0}")]
    OutOfRange(String),
    /// The page did not take what it was given: a field that reads back otherwise, a check
    /// box that stays, a script that threw, a selector it cannot parse.
    #[error("{0}")]
    Refused(String),
    /// A page load that failed before any document came (DNS, refused connection...).
    #[error("opening {url} failed: {reason}")]
    LoadFailed { url: String, reason: String },
    /// The element's point is covered by another element.
    #[error("{what} is covered by {by} at {x},{y}; close or scroll away what covers it, or click that element instead")]
    Covered { what: String, by: String, x: f64, y: f64 },
    /// An answer the backend cannot read (bad base64, an image that does not decode, a walk
    /// that answered oddly).
    #[error("{0}")]
    BadAnswer(String),
    /// What only the daemon's own browser has (a context per party).
    #[error("{0}")]
    OwnBrowserOnly(String),
    /// A file the action writes would not fit the downloads quota.
    #[error("the {what} has {bytes} bytes, more than the downloads quota of {quota}; nothing was written (start gloveboxd with a larger --downloads-quota-bytes)")]
    OverQuota { what: &'static str, bytes: usize, quota: u64 },
    /// The daemon could not keep `what` on disk.
    #[error("cannot write {what}: {reason}")]
    Storage { what: String, reason: String },
    /// The tab's renderer process died: it answers nothing until reloaded.
    #[error("the tab's page crashed (its renderer process died)")]
    Crashed,
    #[error("{what} has no on-screen box")]
    NoGeometry { what: String },
    #[error("{what} cannot take text or a value")]
    NotEditable { what: String, available: Vec<String> },
    /// A press on a file input, which would open the file chooser.
    #[error("{what} is a file input")]
    FileInput { what: String },
    #[error("the element is gone: {0}")]
    Gone(String),
    /// The execution context a command named is gone (its document was replaced).
    #[error("{0}")]
    ContextGone(String),
    #[error("{action} is not possible: {reason}")]
    Unsupported { action: String, reason: String },
    /// The policy inside the browser stopped a load the action led to (a redirect, say).
    #[error("the browser's guard blocked {url}")]
    Blocked { url: String, rule: String },
    /// A JavaScript dialog was already open, so the command was not sent.
    #[error("a JavaScript {} dialog is open ({:?}); answer it with browser.dialog first", .0.kind, .0.message)]
    DialogOpen(cdp::Dialog),
    /// The answer was longer than the daemon may send (the relay let it go by unread).
    #[error("the answer has {size} bytes, over the limit of {limit}")]
    TooLarge { size: usize, limit: usize },
    /// Chromium took the input, but the page heard none of it (input ignored, a renderer that
    /// dropped it): the action did nothing.
    #[error("the page did not receive the {input} ({what}): Chromium took it, but no trusted event reached the page; browser.tab_select brings the tab forward, then try again")]
    Undelivered { input: &'static str, what: String },
    /// A JavaScript dialog opened while the command ran (the command may still be pending).
    #[error("a JavaScript {} dialog opened: {:?}", .0.kind, .0.message)]
    DialogOpened(cdp::Dialog),
}

impl BrowserError {
    pub fn from_cdp(
        method: &str,
        e: &chromiumoxide::error::CdpError,
        alive: bool,
        browser_id: &str,
    ) -> Self {
        if !alive {
            return BrowserError::Unavailable(format!("{browser_id} is gone ({e})"));
        }
        // The relay's stand-in for an answer it let go by (`pipe/split.rs`), known by its code.
        if let chromiumoxide::error::CdpError::Chrome(c) = e {
            if let Some((size, limit)) = pipe::too_large(c) {
                return BrowserError::TooLarge { size, limit };
            }
        }
        BrowserError::answered(method, &e.to_string())
    }

    /// An error Chromium answered `method` with. A node or an execution context that is gone
    /// it says only in words: read here, once (for the tab's session and for a frame's), and
    /// typed from here on.
    pub fn answered(method: &str, text: &str) -> Self {
        if text.contains("No node with given id") || text.contains("Could not find node") {
            return BrowserError::Gone(text.to_owned());
        }
        if text.contains("Cannot find context") {
            return BrowserError::ContextGone(format!("{method}: {text}"));
        }
        BrowserError::Cdp { method: method.to_owned(), text: text.to_owned() }
    }
}

impl From<BrowserError> for DaemonError {
    fn from(e: BrowserError) -> Self {
        match e {
            BrowserError::Unavailable(reason) => DaemonError::BackendUnavailable {
                backend: "browser",
                reason,
                remedy: "retry: the daemon's default browser restarts on the next call; a \
                         browser named by --browser-allow must be started again on its port"
                    .into(),
            },
            BrowserError::NotFound { kind, id } => DaemonError::TargetNotFound { kind, id },
            BrowserError::Ambiguous { kind, query, candidates } => {
                DaemonError::Ambiguous { kind, query, candidates }
            }
            BrowserError::ContextGone(m) => DaemonError::ActionFailed(m),
            // Each of these keeps the code it had as `Failed`: the action was tried and failed.
            e @ (BrowserError::Cdp { .. }
            | BrowserError::Timeout(_)
            | BrowserError::NotReady(_)
            | BrowserError::OutOfRange(_)
            | BrowserError::Refused(_)
            | BrowserError::LoadFailed { .. }
            | BrowserError::Covered { .. }
            | BrowserError::Undelivered { .. }
            | BrowserError::BadAnswer(_)
            | BrowserError::OwnBrowserOnly(_)
            | BrowserError::OverQuota { .. }
            | BrowserError::Storage { .. }) => DaemonError::ActionFailed(e.to_string()),
            e @ BrowserError::Crashed => DaemonError::ActionFailed(format!(
                "{e}; browser.reload loads it again, browser.tab_close closes it"
            )),
            BrowserError::DialogOpen(d) => {
                DaemonError::DialogOpen { kind: d.kind, message: d.message }
            }
            BrowserError::TooLarge { size, limit } => DaemonError::ResultTooLarge { size, limit },
            e @ BrowserError::DialogOpened(_) => {
                DaemonError::ActionFailed(format!("{e}; answer it with browser.dialog"))
            }
            BrowserError::Blocked { url, rule } => DaemonError::ApprovalDenied {
                rule,
                by: format!("the policy inside the browser, which blocked {url}"),
            },
            BrowserError::NoGeometry { what } => DaemonError::NoGeometry { what },
            BrowserError::NotEditable { what, available } => {
                DaemonError::NotEditable { what, available }
            }
            BrowserError::FileInput { what } => DaemonError::FileInput { what },
            BrowserError::Gone(m) => DaemonError::StaleRef {
                r#ref: String::new(),
                reason: format!("the element is no longer in the page ({m})"),
                by: None,
            },
            BrowserError::Unsupported { action, reason } => DaemonError::Unsupported {
                tool: "browser".into(),
                action,
                reason,
                available: Vec::new(),
            },
        }
    }
}
