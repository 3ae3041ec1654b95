//! Tab actions: open, list, close, mark, select and inspect a tab, and answer its
//! JavaScript dialog.

use futures::future::BoxFuture;
use glovebox_protocol::contract::Checked;
use serde_json::{json, Value};

use super::target::{freeze, Frozen};
use super::{backend, browser_of, s, select, unsupported, On, OnTab};
use crate::dispatch::{Ctx, Output};
use crate::error::DaemonError;

/// `tab_new`: open a tab (in the background unless visible) and select it for the session.
pub(super) fn new(ctx: Ctx, call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async move {
        let b = backend(&ctx.daemon)?;
        let (ctx, b, args) = (&ctx, &*b, &call.args);
        let browser_id = browser_of(ctx, b, args).await?;
        let visible = args.get("visible") != Some(&Value::Bool(false));
        let tab_id = b.new_tab(&browser_id, s(args, "url"), visible).await?;
        select(ctx, &browser_id, &tab_id);
        let tab = b.tab(&browser_id, &tab_id).await?;
        let (url, title) = tab.info().await?;
        let f = Frozen { browser_id, tab_id: tab_id.clone(), source: "explicit" };
        Ok(Output {
            result: json!({"tab_id": tab_id, "url": url, "title": title, "visible": visible}),
            target: Some(f.json()),
        })
    })
}

/// `tab_list`: the browser's tabs, the session's one marked selected.
pub(super) fn list(ctx: Ctx, call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async move {
        let b = backend(&ctx.daemon)?;
        let (ctx, b, args) = (&ctx, &*b, &call.args);
        let browser_id = browser_of(ctx, b, args).await?;
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
    })
}

/// `downloads`: what the browser downloaded lately, for clients without events.
pub(super) fn downloads(
    ctx: Ctx,
    call: Checked,
) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async move {
        let b = backend(&ctx.daemon)?;
        let browser_id = browser_of(&ctx, &b, &call.args).await?;
        let list = b.downloads(&browser_id);
        Ok(Output {
            result: json!({"browser_id": browser_id, "downloads": list}),
            target: Some(json!({"browser_id": browser_id})),
        })
    })
}

/// `tab_close`: close the frozen tab; the session forgets it if it was selected.
pub(super) fn close(ctx: Ctx, call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async move {
        let b = backend(&ctx.daemon)?;
        let f = freeze(&ctx, &b, &call.args).await?;
        let (ctx, target) = (&ctx, Some(f.json()));
        let closed = b.close_tab(&f.browser_id, &f.tab_id).await?;
        let sel = ctx.session.selection();
        if sel.tab_id.as_deref() == Some(f.tab_id.as_str()) {
            if let Ok(mut s) = ctx.session.selection.lock() {
                s.tab_id = None;
            }
        }
        Ok(Output { result: json!({"closed": closed}), target })
    })
}

/// `tab_mark`: set or clear the frozen tab's mark.
pub(super) fn mark(ctx: Ctx, call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async move {
        let b = backend(&ctx.daemon)?;
        let args = &call.args;
        let f = freeze(&ctx, &b, args).await?;
        let target = Some(f.json());
        let mark = if args.get("clear") == Some(&Value::Bool(true)) {
            None
        } else {
            Some((
                s(args, "kind").unwrap_or("deliverable").to_owned(),
                s(args, "note").map(String::from),
            ))
        };
        b.tab(&f.browser_id, &f.tab_id).await?;
        let m = b.mark(&f.browser_id, &f.tab_id, mark)?;
        Ok(Output { result: json!({"tab_id": f.tab_id, "mark": m}), target })
    })
}

/// The tab actions that run on a resolved tab: `dialog`, `tab_select`, `tab_get`.
pub(super) struct TabActs;

impl OnTab for TabActs {
    async fn act(on: On<'_>) -> Result<Value, DaemonError> {
        let On { ctx, b, tab, f, action, args, .. } = on;
        Ok(match action {
            "dialog" => {
                let accept = args.get("accept") != Some(&Value::Bool(false));
                let d = tab.answer_dialog(accept, s(args, "prompt_text")).await?;
                json!({"dialog": d, "accepted": accept})
            }
            "tab_select" => {
                b.select_tab(&f.browser_id, &f.tab_id).await?;
                select(ctx, &f.browser_id, &f.tab_id);
                let (url, title) = tab.info().await?;
                json!({"tab_id": f.tab_id, "url": url, "title": title, "selected": true})
            }
            "tab_get" => {
                let (url, title) = tab.info().await?;
                let latest = ctx
                    .session
                    .snapshots
                    .lock()
                    .ok()
                    .and_then(|s| s.latest(&tab.key()).map(String::from));
                json!({"tab_id": f.tab_id, "url": url, "title": title, "dialog": tab.dialog(),
                   "mark": b.mark_of(&f.browser_id, &f.tab_id), "latest_snapshot": latest})
            }
            other => return Err(unsupported(other)),
        })
    }
}
