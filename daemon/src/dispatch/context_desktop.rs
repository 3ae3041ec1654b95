//! `context` actions about apps and windows: list_apps, get_app, list_windows, focus_window.

use std::sync::Arc;
use std::time::{Duration, Instant};

use glovebox_protocol::actions::context;
use glovebox_protocol::results::computer::WindowInfo;
use glovebox_protocol::results::context as results;
use glovebox_protocol::wire::{DesktopSource, Target};

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

pub(super) async fn list_apps(
    ctx: Ctx,
    _: context::ListApps,
) -> Result<Output<results::ListApps>, DaemonError> {
    let d = desktop(&ctx)?;
    let apps = d.list_apps().await?;
    Ok(Output::new(results::ListApps { count: apps.len(), apps }))
}

pub(super) async fn get_app(
    ctx: Ctx,
    p: context::GetApp,
) -> Result<Output<results::GetApp>, DaemonError> {
    let d = desktop(&ctx)?;
    let context::GetApp { app: query, launch, background } = p;
    let deadline = ctx.op.deadline.min(Instant::now() + LAUNCH_WAIT);
    let got = d.get_app(&query, launch, deadline).await?;
    let (app, launched, pid, argv) = match got {
        Got::Found(app) => (Some(app.clone()), false, app.pid, None),
        Got::Launched { pid, app, argv } => (app, true, pid, Some(argv)),
    };
    let app_id = format!("app:{pid}");
    let target = Target::of_desktop(Some(app_id.clone()), None, DesktopSource::Explicit);
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
            result: results::GetApp {
                app_id,
                pid,
                accessible: false,
                launched,
                argv,
                window_id: shown.map(|(w, _)| w.window_id),
                window_active,
                reason: Some(
                    "the process runs but never appeared on the accessibility bus; use \
                     screenshots, pointer and keyboard input with its window"
                        .into(),
                ),
                ..results::GetApp::default()
            },
            target: Some(target),
        });
    };
    let window_id = match &shown {
        Some((w, _)) => Some(w.window_id.clone()),
        None => top_window(&d, pid).await,
    };
    if let Ok(mut sel) = ctx.session.selection.lock() {
        sel.app_id = Some(app_id.clone());
        sel.window_id = window_id.clone();
    }
    let view = snapshot_app(&ctx, &d, pid, None, None, 60, &Budget::default()).await?;
    Ok(Output {
        result: results::GetApp {
            app_id,
            pid,
            name: Some(app.name),
            toolkit: Some(app.toolkit),
            accessible: true,
            launched,
            argv,
            window_id,
            window_active,
            reason: None,
            snapshot: Some(view.into()),
        },
        target: Some(target),
    })
}

/// The id of the app's topmost window, the active one first.
async fn top_window(d: &crate::desktop::Desktop, pid: u32) -> Option<String> {
    let windows = d.windows().await.unwrap_or_default().into_iter();
    windows.filter(|w| w.pid == Some(pid)).max_by_key(|w| (w.active, w.stack)).map(|w| w.window_id)
}

pub(super) async fn list_windows(
    ctx: Ctx,
    p: context::ListWindows,
) -> Result<Output<results::ListWindows>, DaemonError> {
    let d = desktop(&ctx)?;
    let filter = p.app_id;
    let windows: Vec<WindowInfo> = d
        .windows()
        .await?
        .into_iter()
        .filter(|w| filter.is_none() || w.app_id == filter)
        .map(Into::into)
        .collect();
    Ok(Output::new(results::ListWindows { count: windows.len(), windows }))
}

pub(super) async fn focus_window(
    ctx: Ctx,
    p: context::FocusWindow,
) -> Result<Output<results::FocusWindow>, DaemonError> {
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
    let target = Some(Target::of_desktop(None, Some(id.clone()), DesktopSource::Explicit));
    let window = win.map(Into::into);
    Ok(Output {
        result: results::FocusWindow { window_id: id, focus_verified: verified, window },
        target,
    })
}
