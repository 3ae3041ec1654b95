//! Navigation actions: navigate, reload, back and forward; each invalidates the tab's refs
//! in every session.

use std::time::Duration;

use serde_json::{json, Map, Value};

use super::{s, u, unsupported, with_dialog, On, OnTab};
use crate::browser::Tab;
use crate::dispatch::Ctx;
use crate::error::DaemonError;

/// `navigate`, `reload`, `go_back`, `go_forward` on a resolved tab.
pub(super) struct Navigation;

impl OnTab for Navigation {
    async fn act(on: On<'_>) -> Result<Value, DaemonError> {
        let On { ctx, tab, action, args, .. } = on;
        Ok(match action {
            "navigate" => {
                let url = s(args, "url").unwrap_or_default();
                if !url.contains(':') {
                    return Err(DaemonError::Contract(
                        glovebox_protocol::contract::Violation::new(
                            "url",
                            format!("url {url:?} needs a scheme, e.g. https://{url}"),
                        ),
                    ));
                }
                let dialog = tab.navigate(url, timeout(args)).await?;
                invalidate(ctx, tab, &format!("the tab navigated to {url}"));
                let (url, title) = tab.info().await?;
                with_dialog(json!({"url": url, "title": title}), dialog)
            }
            "reload" | "go_back" | "go_forward" => {
                let dialog = match action {
                    "reload" => tab.reload(timeout(args)).await?,
                    "go_back" => tab.history(-1, timeout(args)).await?,
                    _ => tab.history(1, timeout(args)).await?,
                };
                let why = match action {
                    "reload" => "the tab reloaded",
                    "go_back" => "the tab went back in its history",
                    _ => "the tab went forward in its history",
                };
                invalidate(ctx, tab, why);
                let (url, title) = tab.info().await?;
                with_dialog(json!({"url": url, "title": title}), dialog)
            }
            other => return Err(unsupported(other)),
        })
    }
}

fn invalidate(ctx: &Ctx, tab: &Tab, reason: &str) {
    for s in ctx.daemon.sessions.all() {
        if let Ok(mut snaps) = s.snapshots.lock() {
            snaps.invalidate(&tab.key(), reason);
        }
    }
}

fn timeout(args: &Map<String, Value>) -> Duration {
    Duration::from_millis(u(args, "timeout").unwrap_or(30_000))
}
