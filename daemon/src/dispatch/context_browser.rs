//! `context` actions about browsers and tabs: list_browsers, get_browser.

use glovebox_protocol::actions::context;
use glovebox_protocol::results::context::{self as results, Browser, Tab};
use glovebox_protocol::wire::{TabSource, Target};
use serde_json::json;

use super::browser::{backend, select};
use super::{Ctx, Output};
use crate::browser::{BrowserInfo, TabInfo};
use crate::error::DaemonError;

pub(super) async fn list_browsers(
    ctx: Ctx,
    _: context::ListBrowsers,
) -> Result<Output<results::ListBrowsers>, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let browsers = b.list().await?.into_iter().map(browser).collect();
    let selected = ctx.session.selection().browser_id;
    Ok(Output::new(results::ListBrowsers { browsers, selected }))
}

pub(super) async fn get_browser(
    ctx: Ctx,
    p: context::GetBrowser,
) -> Result<Output<results::GetBrowser>, DaemonError> {
    let b = backend(&ctx.daemon)?;
    if let Some(url) = p.url.as_deref() {
        let wanted = p.browser_id.as_deref();
        let mut found = b.find_tabs(url, &ctx.session.lane()).await?;
        if let Some(w) = wanted {
            found.retain(|(id, _)| id == w);
        }
        return match found.len() {
            0 => Err(DaemonError::TargetNotFound { kind: "tab", id: url.to_owned() }),
            1 => {
                let (browser_id, t) = found.remove(0);
                select(&ctx, &browser_id, &t.tab_id);
                let target = Target::of_tab(&browser_id, &t.tab_id, TabSource::Explicit);
                let result = results::GetBrowser {
                    browser_id,
                    tab: Some(tab(t)),
                    ..results::GetBrowser::default()
                };
                Ok(Output { result, target: Some(target) })
            }
            _ => Err(DaemonError::Ambiguous {
                kind: "tab",
                query: url.to_owned(),
                candidates: found
                    .iter()
                    .map(|(id, t)| {
                        json!({"browser_id": id, "tab_id": t.tab_id, "url": t.url, "title": t.title})
                    })
                    .collect(),
            }),
        };
    }
    let browser_id = match p.browser_id {
        Some(id) => id,
        None => b.ensure_default().await?,
    };
    let lane = ctx.session.lane();
    let tabs = b.tabs(&browser_id, &lane).await?.into_iter().map(tab).collect();
    let tab_id = b.active_tab(&browser_id, &lane).await?;
    // Another session's tab is not taken: the session's next action opens one of its own.
    let selected = (!ctx.daemon.sessions.tab_held_by_other(&tab_id, &ctx.session)).then(|| {
        select(&ctx, &browser_id, &tab_id);
        tab_id.clone()
    });
    let target = Target::of_tab(&browser_id, &tab_id, TabSource::Active);
    let result =
        results::GetBrowser { browser_id, tab: None, tabs: Some(tabs), selected_tab: selected };
    Ok(Output { result, target: Some(target) })
}

/// A browser as results list it.
pub(super) fn browser(b: BrowserInfo) -> Browser {
    let BrowserInfo { browser_id, port, pid, default, status, version, tabs } = b;
    Browser { browser_id, port, pid, default, status: status.into(), version, tabs }
}

/// A tab as results list it.
fn tab(t: TabInfo) -> Tab {
    let TabInfo { tab_id, tab_index, url, title, mark, owner } = t;
    let mark = mark.and_then(|m| serde_json::to_value(m).ok());
    Tab { tab_id, tab_index, url, title, mark, owner }
}
