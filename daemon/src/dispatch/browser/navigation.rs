//! Navigation actions: navigate, reload, back and forward; each invalidates the tab's refs
//! in every session.

use std::time::Duration;

use glovebox_protocol::actions::browser;
use glovebox_protocol::results::browser::Arrived;

use super::TabCx;
use crate::browser::cdp::Dialog;
use crate::error::DaemonError;

pub(super) async fn navigate(cx: TabCx, p: browser::Navigate) -> Result<Arrived, DaemonError> {
    let url = p.url.as_str();
    if !url.contains(':') {
        return Err(DaemonError::Contract(glovebox_protocol::contract::Violation::new(
            "url",
            format!("url {url:?} needs a scheme, e.g. https://{url}"),
        )));
    }
    let dialog = cx.tab.navigate(url, ms(p.timeout)).await?;
    arrived(&cx, &format!("the tab navigated to {url}"), dialog).await
}

pub(super) async fn reload(cx: TabCx, p: browser::Reload) -> Result<Arrived, DaemonError> {
    let dialog = cx.tab.reload(ms(p.timeout)).await?;
    arrived(&cx, "the tab reloaded", dialog).await
}

pub(super) async fn go_back(cx: TabCx, p: browser::GoBack) -> Result<Arrived, DaemonError> {
    let dialog = cx.tab.history(-1, ms(p.timeout)).await?;
    arrived(&cx, "the tab went back in its history", dialog).await
}

pub(super) async fn go_forward(cx: TabCx, p: browser::GoForward) -> Result<Arrived, DaemonError> {
    let dialog = cx.tab.history(1, ms(p.timeout)).await?;
    arrived(&cx, "the tab went forward in its history", dialog).await
}

/// The tab's refs go stale in every session (`why`, and in the others which session did
/// it); the result is where it arrived.
async fn arrived(cx: &TabCx, why: &str, dialog: Option<Dialog>) -> Result<Arrived, DaemonError> {
    let key = cx.tab.key();
    let me = &cx.ctx.session.id;
    let theirs = format!("{why}, by session {me}");
    let by = format!("session {me}");
    for s in cx.ctx.daemon.sessions.all() {
        if let Ok(mut snaps) = s.snapshots.lock() {
            match s.id == *me {
                true => snaps.invalidate(&key, why),
                false => snaps.invalidate_by(&key, &theirs, Some(&by)),
            }
        }
    }
    let (url, title) = cx.tab.info().await?;
    Ok(Arrived { url, title, dialog })
}

fn ms(timeout: u32) -> Duration {
    Duration::from_millis(u64::from(timeout))
}
