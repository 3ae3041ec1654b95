//! After a state-changing action: settle (screen damage and windows for the desktop; for a
//! tab its requests, what the page scheduled, and DOM quiet; each with its kind's cap), then
//! capture the screen or the viewport into the capture store. A failure here never fails
//! the action: it shows as no capture. The outcome's `settle` says what the wait covered.
//!
//! A lean settle (`capture: "auto"`) waits for a tab only as far as its next outline needs
//! (no animations, no painted frame); the rest is waited for before a capture, once one
//! turns out to be needed, so a capture always shows the settled screen.

use std::sync::Arc;
use std::time::{Duration, Instant};

use glovebox_protocol::contract::{Action, Backend};
use glovebox_protocol::results::computer::Rect;
use glovebox_protocol::wire::{Captured, Settle, SettledWindow, Shot, Target};
use serde::Deserialize as _;

use super::done::Facts;
use crate::browser::actions::settle::{Settling, Span as TabSpan};
use crate::desktop::x11::ImageFormat;
use crate::settle::Kind;
use crate::state::Daemon;

/// Time kept free before the op's deadline for the capture itself.
const CAPTURE_MARGIN: Duration = Duration::from_millis(400);

/// What the pipeline attaches to an op's outcome.
#[derive(Debug, Default)]
pub struct After {
    pub settle: Option<Settle>,
    pub capture: Option<Captured>,
    /// Why there is no capture, when there is none.
    pub no_capture: Option<String>,
    pub settle_ms: f64,
    pub capture_ms: f64,
}

/// When the action ran: activity since `started` counts (a request its click set off), the
/// wait is measured from `ended`.
#[derive(Debug, Clone, Copy)]
pub struct Span {
    pub started: Instant,
    pub ended: Instant,
}

/// What an action did, for its settle.
#[derive(Debug)]
pub struct Acted<'a> {
    pub target: Option<&'a Target>,
    pub facts: &'a Facts,
    /// The trace of its input, when a tab's browser was traced.
    pub trace: Option<crate::browser::actions::trace::ActionTrace>,
}

/// A settle done and its capture not yet taken: `capture` takes it, `skip` drops it.
pub struct Pending {
    settle: Settle,
    shot: CaptureFut,
    settle_ms: f64,
    /// A tab's lean settle: what a capture needs besides is still to wait for.
    rest: Option<Settling>,
    /// When the action ended: the settle's `waited_ms` counts from there.
    ended: Instant,
    /// The outer frames of the desktop windows that closed meanwhile: what they covered
    /// shows again.
    closed: Vec<Rect>,
}

impl Pending {
    /// What the settle covered.
    pub fn settle_mut(&mut self) -> &mut Settle {
        &mut self.settle
    }

    /// The outer frames of the windows [`Pending::name_windows`] saw close.
    pub fn closed(&self) -> &[Rect] {
        &self.closed
    }

    /// Takes the capture into the store (after a lean settle, once its animations ended and
    /// a frame painted); past the deadline it is dropped, never turning a done action into
    /// a TIMEOUT.
    pub async fn capture(self, daemon: &Daemon, session: &str, deadline: Instant) -> After {
        self.capture_framed(daemon, session, deadline, Frame::Screen).await
    }

    /// [`Pending::capture`] of `frame` (a desktop capture's part of the screen).
    pub async fn capture_framed(
        mut self,
        daemon: &Daemon,
        session: &str,
        deadline: Instant,
        frame: Frame,
    ) -> After {
        if let Some(mut rest) = self.rest.take() {
            rest.wait(true).await;
            let r = rest.end().await;
            self.settle = Settle { lean: false, ..of_tab(self.ended, r) };
            self.settle_ms = self.ended.elapsed().as_secs_f64() * 1000.0;
        }
        let settled = Instant::now();
        let last = deadline.checked_sub(Duration::from_millis(50)).unwrap_or(settled);
        let capture = match self.shot {
            Ok(shoot) => match tokio::time::timeout_at(last.into(), shoot(frame)).await {
                Ok(Ok(img)) => Ok(img),
                Ok(Err(why)) => Err(why),
                Err(_) => Err("the op's deadline came before the capture was done".to_owned()),
            },
            Err(why) => Err(why),
        };
        let (capture, no_capture) = match capture {
            Ok(img) => (Some(daemon.captures.put(session, img)), None),
            Err(why) => (None, Some(why)),
        };
        After {
            settle_ms: self.settle_ms,
            capture_ms: if capture.is_some() {
                settled.elapsed().as_secs_f64() * 1000.0
            } else {
                0.0
            },
            settle: Some(self.settle),
            capture,
            no_capture,
        }
    }

    /// No capture: the settle alone.
    pub async fn skip(self) -> After {
        if let Some(rest) = self.rest {
            rest.end().await;
        }
        After { settle_ms: self.settle_ms, settle: Some(self.settle), ..After::default() }
    }
}

/// Settles after `action` (`lean`: a tab only as far as its outline needs) and readies its
/// capture; `Err`: nothing to settle or capture, the outcome's parts as they are.
pub async fn settle(
    daemon: &Arc<Daemon>,
    action: &Action,
    acted: Acted<'_>,
    span: Span,
    deadline: Instant,
    (front, lean): (bool, bool),
) -> Result<Pending, After> {
    let Acted { target, facts, trace } = acted;
    let since = span.ended;
    let Some(kind) = action.settle else { return Err(After::default()) };
    let policy = &daemon.config.settle;
    // A key that may open or close a window waits for it up to the `window` kind's cap.
    let opens = action.backend == Backend::Desktop
        && kind == Kind::Key
        && facts.key.as_deref().is_some_and(crate::desktop::may_open_window);
    let wait =
        if opens { policy.cap(kind).max(policy.cap(Kind::Window)) } else { policy.cap(kind) };
    let cap = (since + wait).min(deadline.checked_sub(CAPTURE_MARGIN).unwrap_or(since));
    let browser_tab = target.filter(|_| action.backend == Backend::Browser).and_then(Target::tab);
    let ((settle, shot), rest) = match browser_tab {
        Some((browser_id, tab_id)) => {
            let how = Waits { cap, front, lean };
            browser(daemon, (browser_id, tab_id), span, how, trace).await
        }
        None if action.backend == Backend::Browser => {
            let why = "the action names no tab to capture".to_owned();
            return Err(After { no_capture: Some(why), ..After::default() });
        }
        None => {
            // The app named, else the one the input went to.
            let delivered = facts.delivered_to.as_ref().and_then(|d| d.app_id.as_deref());
            let app = target.and_then(Target::app_id).or(delivered);
            let pid = app.and_then(crate::desktop::atspi::app_pid);
            (desktop(daemon, pid, span, cap, opens).await, None)
        }
    };
    let settle_ms = since.elapsed().as_secs_f64() * 1000.0;
    Ok(Pending { settle, shot, settle_ms, rest, ended: since, closed: Vec::new() })
}

impl Pending {
    /// The windows the desktop reported opened and closed since `rx` subscribed (before
    /// the action ran), whole, into the settle that waited for them.
    pub fn name_windows(
        &mut self,
        rx: tokio::sync::broadcast::Receiver<crate::events::Scoped>,
        owner: crate::session::Owner,
    ) {
        self.closed = name_windows(&mut self.settle, rx, owner);
    }
}

/// Where a window that closed was.
#[derive(serde::Deserialize)]
struct Was {
    frame: Rect,
}

fn name_windows(
    settle: &mut Settle,
    mut rx: tokio::sync::broadcast::Receiver<crate::events::Scoped>,
    owner: crate::session::Owner,
) -> Vec<Rect> {
    // Whole: the windows the action's own settle waited for are named in its result, as the
    // screen it captures shows them (the event bus keeps their titles from other tokens'
    // subscribers only).
    let whole = crate::session::Owner::of_digest(owner.digest(), true);
    let viewer = crate::events::Viewer { owner: whole, approver: false, all_lanes: true };
    let seen = crate::events::queued_events(&mut rx, &["desktop".to_owned()], &viewer);
    let mut closed = Vec::new();
    for ev in seen {
        let Ok(w) = SettledWindow::deserialize(&ev.data) else { continue };
        match ev.kind.as_str() {
            "window.opened" => settle.windows_opened.push(w),
            "window.closed" => {
                closed.extend(Was::deserialize(&ev.data).ok().map(|w| w.frame));
                settle.windows_closed.push(w);
            }
            _ => {}
        }
    }
    closed
}

/// Without a settle (`capture: false`): a browser action that would settle still waits for
/// the requests it set off, up to its kind's cap, so what they caused (a download, a blocked
/// load, an opened tab) is in its result. Nothing else is waited for; nothing is captured.
pub async fn requests_only(
    daemon: &Daemon,
    action: &Action,
    target: Option<&Target>,
    span: Span,
    deadline: Instant,
) {
    let (Some(kind), Backend::Browser) = (action.settle, action.backend) else { return };
    let Some((browser_id, tab_id)) = target.and_then(Target::tab) else {
        return;
    };
    let Some(b) = daemon.config.browser.clone() else { return };
    let Ok(tab) = b.tab(browser_id, tab_id).await else { return };
    let policy = &daemon.config.settle;
    let cap = (span.ended + policy.cap(kind))
        .min(deadline.checked_sub(CAPTURE_MARGIN).unwrap_or(span.ended));
    tab.requests_quiet(span.started, span.ended, policy.quiet, cap).await;
}

/// A capture on its way, or why there is none.
type CaptureFut = Result<Shoot, String>;

/// Takes the capture, framed as asked (a tab's viewport ignores the frame).
type Shoot =
    Box<dyn FnOnce(Frame) -> futures::future::BoxFuture<'static, Result<Shot, String>> + Send>;

/// What a desktop capture shows: the whole screen, one window, or a rectangle of the screen
/// (`capture: "auto"` frames what changed; the image's `region` says where it lies).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Frame {
    #[default]
    Screen,
    Window(String),
    Region((i32, i32, u32, u32)),
}

/// The `settle` of an outcome: how it ended (`Some(quiet)`, `None`: nothing to wait on).
fn settled(since: Instant, quiet: Option<bool>) -> Settle {
    let reason = match quiet {
        Some(true) => "quiet",
        Some(false) => "cap",
        None => "none",
    };
    Settle {
        waited_ms: since.elapsed().as_millis() as u64,
        reason: reason.into(),
        timers: 0,
        animations: 0,
        requests: 0,
        windows: 0,
        busy: Vec::new(),
        ignored: Vec::new(),
        frames_loading: Vec::new(),
        windows_opened: Vec::new(),
        windows_closed: Vec::new(),
        lean: false,
    }
}

fn of_tab(since: Instant, r: crate::browser::settle::Report) -> Settle {
    let n = |v: usize| v as u64;
    Settle {
        timers: n(r.timers),
        animations: n(r.animations),
        requests: n(r.requests),
        busy: r.busy,
        ignored: r.ignored,
        frames_loading: r.frames_loading,
        ..settled(since, Some(r.quiet))
    }
}

/// How a tab's settle waits: until `cap`; `front`: the tab is brought back to the front;
/// `lean`: only as far as its outline needs.
struct Waits {
    cap: Instant,
    front: bool,
    lean: bool,
}

async fn browser(
    daemon: &Arc<Daemon>,
    (browser_id, tab_id): (&str, &str),
    span: Span,
    how: Waits,
    trace: Option<crate::browser::actions::trace::ActionTrace>,
) -> ((Settle, CaptureFut), Option<Settling>) {
    let since = span.ended;
    let Some(b) = daemon.config.browser.clone() else {
        return ((settled(since, None), Err("this daemon has no browser backend".into())), None);
    };
    let tab = match b.tab(browser_id, tab_id).await {
        Ok(tab) => tab,
        Err(e) => return ((settled(since, None), Err(format!("the tab is gone: {e}"))), None),
    };
    let quiet = daemon.config.settle.quiet;
    let tab_span = TabSpan { since: span.started, ended: span.ended, quiet, cap: how.cap };
    let mut settling = tab.clone().settle_begin(tab_span, trace).await;
    settling.wait(!how.lean).await;
    let (report, rest) = match how.lean {
        true => (settling.report().clone(), Some(settling)),
        false => (settling.end().await, None),
    };
    let settle = Settle { lean: rest.is_some(), ..of_tab(since, report) };
    if how.front {
        if let Err(e) = b.select_tab(browser_id, tab_id).await {
            tracing::debug!(%e, "cannot bring the tab back to the front");
        }
    }
    // A background tab paints nothing: its capture would wait until someone shows it.
    if tab.shown().await.is_ok_and(|shown| !shown) {
        let why = "the tab is in the background (tab_select shows it); it paints nothing";
        return ((settle, Err(why.into())), rest);
    }
    let (limit, vault) = (daemon.config.max_capture, daemon.config.secrets.clone());
    let shot: Shoot = Box::new(move |_| {
        Box::pin(async move {
            super::secrets::screenshot(&vault, &tab, (false, "png"), None, None, limit)
                .await
                .map(Shot::Tab)
                .map_err(|e| format!("the capture failed: {e}"))
        })
    });
    ((settle, Ok(shot)), rest)
}

async fn desktop(
    daemon: &Arc<Daemon>,
    pid: Option<u32>,
    span: Span,
    cap: Instant,
    opens: bool,
) -> (Settle, CaptureFut) {
    let since = span.ended;
    let Some(d) = daemon.desktop() else {
        return (settled(since, None), Err("this daemon has no desktop backend".into()));
    };
    let got = d.settle(pid, span.started, daemon.config.settle.quiet, cap, opens).await;
    let shot: Shoot = Box::new(move |frame| {
        Box::pin(async move {
            let (window, region) = match &frame {
                Frame::Screen => (None, None),
                Frame::Window(w) => (Some(w.as_str()), None),
                Frame::Region(r) => (None, Some(*r)),
            };
            match d.screenshot(window, region, ImageFormat::Png, 80, None).await {
                Ok(img) => Ok(Shot::Screen(super::computer::image(&img, ImageFormat::Png))),
                Err(e) => Err(format!("the capture failed: {e}")),
            }
        })
    });
    let settle = match got {
        Some(s) => {
            Settle { windows: s.windows as u64, busy: s.busy, ..settled(since, Some(s.quiet)) }
        }
        None => settled(since, None),
    };
    (settle, Ok(shot))
}
