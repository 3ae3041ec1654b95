//! `context` actions about apps and windows: list_apps, get_app, list_windows, focus_window.

use std::sync::Arc;
use std::time::{Duration, Instant};

use glovebox_protocol::actions::context;
use serde_json::json;

use super::computer::{desktop, snapshot_app};
use super::{Ctx, Output};
use crate::desktop::ops_types::Got;
use crate::error::DaemonError;
use crate::registry::snapshots::Budget;

/// How long get_app with launch waits for the app on the bus at most.
const LAUNCH_WAIT: Duration = Duration::from_secs(10);
/// How long get_app waits for a launched app (and its window) on the accessibility bus once
/// its X window showed.
const TREE_WAIT: Duration = Duration::from_secs(3);

pub(super) async fn list_apps(ctx: Ctx, _: context::ListApps) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let apps = d.list_apps().await?;
    Ok(Output::new(json!({"apps": apps, "count": apps.len()})))
}

pub(super) async fn get_app(ctx: Ctx, p: context::GetApp) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let context::GetApp { app: query, launch, background } = p;
    let deadline = ctx.op.deadline.min(Instant::now() + LAUNCH_WAIT);
    let got = d.get_app(&query, launch, deadline).await?;
    let (app, launched, pid, argv) = match got {
        Got::Found(app) => (Some(app.clone()), false, app.pid, None),
        Got::Launched { pid, app, argv } => (app, true, pid, Some(argv)),
    };
    let app_id = format!("app:{pid}");
    let target = json!({"app_id": app_id, "source": "explicit"});
    // A launched app is shown: its window mapped and (unless background) made active.
    let shown = if launched {
        let until = ctx.op.deadline.min(Instant::now() + LAUNCH_WAIT);
        d.present(pid, background, until).await?
    } else {
        None
    };
    let window_active = shown.as_ref().map(|(_, active)| *active);
    // A new app may map its X window before it (or its window) is on the bus.
    let app = if launched && shown.is_some() {
        let until = ctx.op.deadline.min(Instant::now() + TREE_WAIT);
        d.await_accessible_window(pid, until).await.or(app)
    } else {
        app
    };
    let Some(app) = app else {
        // Started, but it never showed up on the accessibility bus (e.g. xterm).
        return Ok(Output {
            result: json!({
                "app_id": app_id, "pid": pid, "accessible": false, "launched": launched,
                "argv": argv, "window_id": shown.as_ref().map(|(w, _)| w.window_id.clone()),
                "window_active": window_active,
                "reason": "the process runs but never appeared on the accessibility bus; \
                           use screenshots, pointer and keyboard input with its window",
            }),
            target: Some(target),
        });
    };
    let window_id = match &shown {
        Some((w, _)) => Some(w.window_id.clone()),
        None => d
            .windows()
            .await
            .unwrap_or_default()
            .into_iter()
            .filter(|w| w.pid == Some(pid))
            .max_by_key(|w| (w.active, w.stack))
            .map(|w| w.window_id),
    };
    if let Ok(mut sel) = ctx.session.selection.lock() {
        sel.app_id = Some(app_id.clone());
        sel.window_id = window_id.clone();
    }
    let view = snapshot_app(&ctx, &d, pid, None, None, 60, &Budget::default()).await?;
    Ok(Output {
        result: json!({
            "app_id": app_id, "pid": pid, "name": app.name, "toolkit": app.toolkit,
            "accessible": true, "launched": launched, "argv": argv, "window_id": window_id,
            "window_active": window_active, "snapshot": view,
        }),
        target: Some(target),
    })
}

pub(super) async fn list_windows(ctx: Ctx, p: context::ListWindows) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let filter = p.app_id;
    let wins: Vec<_> =
        d.windows().await?.into_iter().filter(|w| filter.is_none() || w.app_id == filter).collect();
    Ok(Output::new(json!({"windows": wins, "count": wins.len()})))
}

pub(super) async fn focus_window(ctx: Ctx, p: context::FocusWindow) -> Result<Output, DaemonError> {
    let d: Arc<_> = desktop(&ctx)?;
    let id = p.window_id;
    let verified = d.focus_window(&id).await?;
    let win = d.windows().await?.into_iter().find(|w| w.window_id == id);
    if let (Ok(mut sel), Some(w)) = (ctx.session.selection.lock(), &win) {
        sel.window_id = Some(id.clone());
        if w.app_id.is_some() {
            sel.app_id = w.app_id.clone();
        }
    }
    Ok(Output {
        result: json!({"window_id": id, "focus_verified": verified, "window": win}),
        target: Some(json!({"window_id": id, "source": "explicit"})),
    })
}
