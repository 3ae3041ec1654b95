//! Tab actions: open, list, close, mark, select and inspect a tab, and answer its
//! JavaScript dialog.

use glovebox_protocol::actions::browser::{self, Kind};
use glovebox_protocol::results::browser::{self as results, ListedTab};
use glovebox_protocol::wire::{TabSource, Target};
use serde_json::json;

use super::target::{freeze, Frozen};
use super::{backend, browser_of, select, TabCx};
use crate::dispatch::results::part;
use crate::dispatch::{Ctx, Output};
use crate::error::DaemonError;

/// `tab_new`: open a tab (in the background unless visible) and select it for the session.
pub(super) async fn new(
    ctx: Ctx,
    p: browser::TabNew,
) -> Result<Output<results::TabNew>, DaemonError> {
    if let Some(name) = &p.profile {
        crate::auth::check_profile(name).map_err(DaemonError::Contract)?;
    }
    let b = backend(&ctx.daemon)?;
    let browser_id = browser_of(&ctx, &b, p.common.browser_id.as_deref()).await?;
    let visible = p.visible;
    // A profile moves the session there, as `session.hello {profile}` does: its later calls
    // act in the profile's tabs.
    if let Some(name) = &p.profile {
        ctx.session.use_profile(name);
    }
    let lane = ctx.session.lane();
    let tab_id = b.new_tab(&browser_id, p.url.as_deref(), (visible, false), &lane).await?;
    select(&ctx, &browser_id, &tab_id);
    let tab = b.tab(&browser_id, &tab_id).await?;
    let (url, title) = tab.info().await?;
    let f = Frozen { browser_id, tab_id: tab_id.clone(), source: TabSource::Explicit };
    Ok(Output { result: results::TabNew { tab_id, url, title, visible }, target: Some(f.target()) })
}

/// `tab_list`: the browser's tabs, the session's one marked selected.
pub(super) async fn list(
    ctx: Ctx,
    p: browser::TabList,
) -> Result<Output<results::TabList>, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let browser_id = browser_of(&ctx, &b, p.common.browser_id.as_deref()).await?;
    let sel = ctx.session.selection();
    let tabs: Vec<results::TabInfo> =
        part::<browser::TabList, _>(json!(b.tabs(&browser_id, &ctx.session.lane()).await?))?;
    let ours = sel.browser_id.as_deref() == Some(browser_id.as_str());
    let mut listed = Vec::new();
    for mut tab in tabs {
        let selected = ours && sel.tab_id.as_deref() == Some(tab.tab_id.as_str());
        tab.code_sessions = code_sessions(&ctx, &browser_id, &tab.tab_id)?;
        listed.push(ListedTab { tab, selected });
    }
    let tabs = listed;
    let target = Some(Target::of_browser(&browser_id));
    Ok(Output { result: results::TabList { browser_id, tabs }, target })
}

/// `downloads`: what the browser downloaded lately, for clients without events.
pub(super) async fn downloads(
    ctx: Ctx,
    p: browser::Downloads,
) -> Result<Output<results::Downloads>, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let browser_id = browser_of(&ctx, &b, p.common.browser_id.as_deref()).await?;
    let lane = ctx.session.lane();
    let downloads = b.downloads(&browser_id, &lane);
    let target = Some(Target::of_browser(&browser_id));
    Ok(Output { result: results::Downloads { browser_id, downloads }, target })
}

/// `tab_close`: close the frozen tab; the session forgets it if it was selected.
pub(super) async fn close(
    ctx: Ctx,
    p: browser::TabClose,
) -> Result<Output<results::TabClose>, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let f = freeze(&ctx, &b, &p.common, None).await?;
    let target = Some(f.target());
    let closed = b.close_tab(&f.browser_id, &f.tab_id).await?;
    let sel = ctx.session.selection();
    if sel.tab_id.as_deref() == Some(f.tab_id.as_str()) {
        if let Ok(mut s) = ctx.session.selection.lock() {
            s.tab_id = None;
        }
    }
    let closed = part::<browser::TabClose, _>(json!(closed))?;
    Ok(Output { result: results::TabClose { closed }, target })
}

/// `tab_mark`: set or clear the frozen tab's mark.
pub(super) async fn mark(
    ctx: Ctx,
    p: browser::TabMark,
) -> Result<Output<results::TabMark>, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let f = freeze(&ctx, &b, &p.common, None).await?;
    let target = Some(f.target());
    let mark = if p.clear {
        None
    } else {
        let kind = p.kind.unwrap_or(Kind::Deliverable);
        Some((kind.as_str().to_owned(), p.note))
    };
    b.tab(&f.browser_id, &f.tab_id).await?;
    let mark = b.mark(&f.browser_id, &f.tab_id, mark)?;
    Ok(Output { result: results::TabMark { tab_id: f.tab_id, mark }, target })
}

/// `dialog`: accept or dismiss the tab's open dialog.
pub(super) async fn dialog(cx: TabCx, p: browser::Dialog) -> Result<results::Dialog, DaemonError> {
    let dialog = cx.tab.answer_dialog(p.accept, p.prompt_text.as_deref()).await?;
    Ok(results::Dialog { dialog, accepted: p.accept })
}

/// `tab_select`: bring the tab to the front and make it the session's.
pub(super) async fn select_tab(
    cx: TabCx,
    _: browser::TabSelect,
) -> Result<results::TabSelect, DaemonError> {
    let f = &cx.f;
    cx.b.select_tab(&f.browser_id, &f.tab_id).await?;
    select(&cx.ctx, &f.browser_id, &f.tab_id);
    let (url, title) = cx.tab.info().await?;
    Ok(results::TabSelect { tab_id: f.tab_id.clone(), url, title, selected: true })
}

/// `tab_get`: describe the tab without selecting it.
pub(super) async fn get(cx: TabCx, _: browser::TabGet) -> Result<results::TabGet, DaemonError> {
    let (tab, f) = (&cx.tab, &cx.f);
    let (url, title) = tab.info().await?;
    let latest =
        cx.ctx.session.snapshots.lock().ok().and_then(|s| s.latest(&tab.key()).map(String::from));
    let mark = cx.b.mark_of(&f.browser_id, &f.tab_id);
    let code_sessions = code_sessions(&cx.ctx, &f.browser_id, &f.tab_id)?;
    Ok(results::TabGet {
        code_sessions,
        tab_id: f.tab_id.clone(),
        url,
        title,
        dialog: tab.dialog(),
        mark,
        latest_snapshot: latest,
    })
}

/// The live code sessions on a tab, as tab_list and tab_get show them.
fn code_sessions(
    ctx: &Ctx,
    browser_id: &str,
    tab_id: &str,
) -> Result<Vec<results::CodeSession>, DaemonError> {
    part::<browser::TabList, _>(json!(ctx.daemon.code.of_tab(browser_id, tab_id)))
}
