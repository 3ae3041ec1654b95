//! After a state-changing action: settle (screen damage for the desktop, network and DOM
//! quiet for a tab, each with its kind's cap), then capture the screen or the viewport into
//! the capture store. A failure here never fails the action: it shows as no capture.

use std::sync::Arc;
use std::time::{Duration, Instant};

use glovebox_protocol::wire::{Settle, Tokens};
use serde_json::Value;

use crate::desktop::x11::ImageFormat;
use crate::settle::Kind;
use crate::state::Daemon;

/// Time kept free before the op's deadline for the capture itself.
const CAPTURE_MARGIN: Duration = Duration::from_millis(400);

/// What the pipeline attaches to an op's outcome.
#[derive(Debug, Default)]
pub struct After {
    pub settle: Option<Settle>,
    pub capture: Option<Value>,
    pub settle_ms: f64,
    pub capture_ms: f64,
}

impl After {
    /// What the outcome with `result` and this capture costs an LLM, estimated.
    pub fn tokens(&self, result: &Value) -> Tokens {
        let text = serde_json::to_string(result).map_or(0, |t| t.len());
        let image = self.capture.as_ref().map_or(0, |c| {
            let dim = |k: &str| c[k].as_u64().unwrap_or(0);
            crate::settle::image_tokens(dim("width"), dim("height"))
        });
        Tokens { text: crate::settle::text_tokens(text), image }
    }
}

/// When the action ran: activity since `started` counts (a request its click set off), the
/// wait is measured from `ended`.
#[derive(Debug, Clone, Copy)]
pub struct Span {
    pub started: Instant,
    pub ended: Instant,
}

/// Settles and captures after `tool.action`, which acted on `target` during `span`.
pub async fn after(
    daemon: &Arc<Daemon>,
    session: &str,
    tool: &str,
    action: &str,
    target: Option<&Value>,
    span: Span,
    deadline: Instant,
) -> After {
    let since = span.ended;
    let Some(kind) = Kind::of(tool, action) else { return After::default() };
    let policy = &daemon.config.settle;
    let cap = (since + policy.cap(kind)).min(deadline.checked_sub(CAPTURE_MARGIN).unwrap_or(since));
    let browser_tab = target
        .filter(|_| tool == "browser")
        .and_then(|t| Some((t["browser_id"].as_str()?, t["tab_id"].as_str()?)));
    let (settle, capture) = match browser_tab {
        Some((browser_id, tab_id)) => browser(daemon, browser_id, tab_id, span, cap).await,
        None if tool == "browser" => return After::default(),
        None => {
            let pid =
                target.and_then(|t| t["app_id"].as_str()).and_then(crate::desktop::atspi::app_pid);
            desktop(daemon, pid, span, cap).await
        }
    };
    let settled = Instant::now();
    let settle_ms = settled.duration_since(since).as_secs_f64() * 1000.0;
    // The capture may not turn a done action into a TIMEOUT: past the deadline it is dropped.
    let last = deadline.checked_sub(Duration::from_millis(50)).unwrap_or(settled);
    let capture = match capture {
        Some(fut) => tokio::time::timeout_at(last.into(), fut).await.ok().flatten(),
        None => None,
    };
    let capture = capture.map(|img| daemon.captures.put(session, img));
    After {
        settle_ms,
        capture_ms: if capture.is_some() { settled.elapsed().as_secs_f64() * 1000.0 } else { 0.0 },
        settle: Some(settle),
        capture,
    }
}

type CaptureFut = futures::future::BoxFuture<'static, Option<Value>>;

fn settled(since: Instant, quiet: Option<bool>) -> Settle {
    let reason = match quiet {
        Some(true) => "quiet",
        Some(false) => "cap",
        None => "none",
    };
    Settle { waited_ms: since.elapsed().as_millis() as u64, reason: reason.into() }
}

async fn browser(
    daemon: &Arc<Daemon>,
    browser_id: &str,
    tab_id: &str,
    span: Span,
    cap: Instant,
) -> (Settle, Option<CaptureFut>) {
    let since = span.ended;
    let Some(b) = daemon.config.browser.clone() else { return (settled(since, None), None) };
    let Ok(tab) = b.tab(browser_id, tab_id).await else { return (settled(since, None), None) };
    let quiet = tab.settle(span.started, daemon.config.settle.quiet, cap).await;
    // A background tab paints nothing: its capture would wait until someone shows it.
    if tab.eval("document.visibilityState").await.is_ok_and(|v| v != "visible") {
        return (settled(since, Some(quiet)), None);
    }
    let shot: CaptureFut = Box::pin(async move {
        match tab.screenshot(false, "png", None, None).await {
            Ok(v) => Some(v),
            Err(e) => {
                tracing::debug!(%e, "no capture after the action");
                None
            }
        }
    });
    (settled(since, Some(quiet)), Some(shot))
}

async fn desktop(
    daemon: &Arc<Daemon>,
    pid: Option<u32>,
    span: Span,
    cap: Instant,
) -> (Settle, Option<CaptureFut>) {
    let since = span.ended;
    let Some(d) = daemon.config.desktop.clone() else { return (settled(since, None), None) };
    let quiet = d.settle(pid, span.started, daemon.config.settle.quiet, cap).await;
    let shot: CaptureFut = Box::pin(async move {
        match d.screenshot(None, None, ImageFormat::Png, 80, None).await {
            Ok(img) => Some(super::computer::image_json(&img, ImageFormat::Png)),
            Err(e) => {
                tracing::debug!(%e, "no capture after the action");
                None
            }
        }
    });
    (settled(since, quiet), Some(shot))
}
