//! Tab actions: open, list, close, mark, select and inspect a tab, and answer its
//! JavaScript dialog.

use glovebox_protocol::actions::browser::{self, Kind};
use serde_json::{json, Value};

use super::target::{freeze, Frozen};
use super::{backend, browser_of, select, TabCx};
use crate::dispatch::{Ctx, Output};
use crate::error::DaemonError;

/// `tab_new`: open a tab (in the background unless visible) and select it for the session.
pub(super) async fn new(ctx: Ctx, p: browser::TabNew) -> Result<Output, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let browser_id = browser_of(&ctx, &b, p.common.browser_id.as_deref()).await?;
    let visible = p.visible;
    let tab_id = b.new_tab(&browser_id, p.url.as_deref(), visible).await?;
    select(&ctx, &browser_id, &tab_id);
    let tab = b.tab(&browser_id, &tab_id).await?;
    let (url, title) = tab.info().await?;
    let f = Frozen { browser_id, tab_id: tab_id.clone(), source: "explicit" };
    Ok(Output {
        result: json!({"tab_id": tab_id, "url": url, "title": title, "visible": visible}),
        target: Some(f.json()),
    })
}

/// `tab_list`: the browser's tabs, the session's one marked selected.
pub(super) async fn list(ctx: Ctx, p: browser::TabList) -> Result<Output, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let browser_id = browser_of(&ctx, &b, p.common.browser_id.as_deref()).await?;
    let sel = ctx.session.selection();
    let tabs = b.tabs(&browser_id).await?;
    let list: Vec<Value> = tabs
        .iter()
        .map(|t| {
            let mut v = json!(t);
            v["selected"] = json!(
                sel.browser_id.as_deref() == Some(browser_id.as_str())
                    && sel.tab_id.as_deref() == Some(t.tab_id.as_str())
            );
            v
        })
        .collect();
    Ok(Output {
        result: json!({"browser_id": browser_id, "tabs": list}),
        target: Some(json!({"browser_id": browser_id})),
    })
}

/// `downloads`: what the browser downloaded lately, for clients without events.
pub(super) async fn downloads(ctx: Ctx, p: browser::Downloads) -> Result<Output, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let browser_id = browser_of(&ctx, &b, p.common.browser_id.as_deref()).await?;
    let list = b.downloads(&browser_id);
    Ok(Output {
        result: json!({"browser_id": browser_id, "downloads": list}),
        target: Some(json!({"browser_id": browser_id})),
    })
}

/// `tab_close`: close the frozen tab; the session forgets it if it was selected.
pub(super) async fn close(ctx: Ctx, p: browser::TabClose) -> Result<Output, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let f = freeze(&ctx, &b, &p.common, None).await?;
    let target = Some(f.json());
    let closed = b.close_tab(&f.browser_id, &f.tab_id).await?;
    let sel = ctx.session.selection();
    if sel.tab_id.as_deref() == Some(f.tab_id.as_str()) {
        if let Ok(mut s) = ctx.session.selection.lock() {
            s.tab_id = None;
        }
    }
    Ok(Output { result: json!({"closed": closed}), target })
}

/// `tab_mark`: set or clear the frozen tab's mark.
pub(super) async fn mark(ctx: Ctx, p: browser::TabMark) -> Result<Output, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let f = freeze(&ctx, &b, &p.common, None).await?;
    let target = Some(f.json());
    let mark = if p.clear {
        None
    } else {
        let kind = p.kind.unwrap_or(Kind::Deliverable);
        Some((kind.as_str().to_owned(), p.note))
    };
    b.tab(&f.browser_id, &f.tab_id).await?;
    let m = b.mark(&f.browser_id, &f.tab_id, mark)?;
    Ok(Output { result: json!({"tab_id": f.tab_id, "mark": m}), target })
}

/// `dialog`: accept or dismiss the tab's open dialog.
pub(super) async fn dialog(cx: TabCx, p: browser::Dialog) -> Result<Value, DaemonError> {
    let d = cx.tab.answer_dialog(p.accept, p.prompt_text.as_deref()).await?;
    Ok(json!({"dialog": d, "accepted": p.accept}))
}

/// `tab_select`: bring the tab to the front and make it the session's.
pub(super) async fn select_tab(cx: TabCx, _: browser::TabSelect) -> Result<Value, DaemonError> {
    let f = &cx.f;
    cx.b.select_tab(&f.browser_id, &f.tab_id).await?;
    select(&cx.ctx, &f.browser_id, &f.tab_id);
    let (url, title) = cx.tab.info().await?;
    Ok(json!({"tab_id": f.tab_id, "url": url, "title": title, "selected": true}))
}

/// `tab_get`: describe the tab without selecting it.
pub(super) async fn get(cx: TabCx, _: browser::TabGet) -> Result<Value, DaemonError> {
    let (tab, f) = (&cx.tab, &cx.f);
    let (url, title) = tab.info().await?;
    let latest =
        cx.ctx.session.snapshots.lock().ok().and_then(|s| s.latest(&tab.key()).map(String::from));
    Ok(json!({"tab_id": f.tab_id, "url": url, "title": title, "dialog": tab.dialog(),
              "mark": cx.b.mark_of(&f.browser_id, &f.tab_id), "latest_snapshot": latest}))
}
