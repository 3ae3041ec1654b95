//! `context` actions about browsers and tabs: list_browsers, get_browser.

use glovebox_protocol::actions::context;
use serde_json::json;

use super::browser::{backend, select};
use super::{Ctx, Output};
use crate::error::DaemonError;

pub(super) async fn list_browsers(
    ctx: Ctx,
    _: context::ListBrowsers,
) -> Result<Output, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let browsers = b.list().await?;
    let selected = ctx.session.selection().browser_id;
    Ok(Output::new(json!({"browsers": browsers, "selected": selected})))
}

pub(super) async fn get_browser(ctx: Ctx, p: context::GetBrowser) -> Result<Output, DaemonError> {
    let b = backend(&ctx.daemon)?;
    if let Some(url) = p.url.as_deref() {
        let wanted = p.browser_id.as_deref();
        let mut found = b.find_tabs(url).await?;
        if let Some(w) = wanted {
            found.retain(|(id, _)| id == w);
        }
        return match found.len() {
            0 => Err(DaemonError::TargetNotFound { kind: "tab", id: url.to_owned() }),
            1 => {
                let (browser_id, tab) = found.remove(0);
                select(&ctx, &browser_id, &tab.tab_id);
                Ok(Output {
                    result: json!({"browser_id": browser_id, "tab": tab}),
                    target: Some(json!({"browser_id": browser_id, "tab_id": tab.tab_id,
                                        "tab_source": "explicit"})),
                })
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
    let tabs = b.tabs(&browser_id).await?;
    let tab_id = b.active_tab(&browser_id).await?;
    select(&ctx, &browser_id, &tab_id);
    Ok(Output {
        result: json!({"browser_id": browser_id, "tabs": tabs, "selected_tab": tab_id}),
        target: Some(json!({"browser_id": browser_id, "tab_id": tab_id, "tab_source": "active"})),
    })
}
