//! `context` actions: the table of the tool (apps and windows in `context_desktop.rs`,
//! browsers in `context_browser.rs`), and the actions that need no backend: the contract as
//! documentation and the state overview, where every domain reports its own status instead
//! of an empty list.

use glovebox_protocol::actions::context;
use glovebox_protocol::contract::docs;
use glovebox_protocol::contract::{Backend, TOOLS};
use serde_json::{json, Map, Value};

use super::table::Routes;
use super::{context_browser as browsers, context_desktop as desktop};
use super::{implemented, Ctx, Output};
use crate::error::DaemonError;

/// One line per `context` action.
pub(super) fn routes(t: Routes) -> Routes {
    t.on::<context::GetState>(get_state)
        .on::<context::ListApps>(desktop::list_apps)
        .on::<context::GetApp>(desktop::get_app)
        .on::<context::ListWindows>(desktop::list_windows)
        .on::<context::FocusWindow>(desktop::focus_window)
        .on::<context::ListBrowsers>(browsers::list_browsers)
        .on::<context::GetBrowser>(browsers::get_browser)
        .on::<context::Documentation>(documentation)
        .on::<context::RequestHuman>(request_human)
}

/// `request_human`: files the request (the page shows it at once), then waits for a
/// hand-back that answers it, or answers a little before the op's deadline that it is still
/// pending.
async fn request_human(ctx: Ctx, p: context::RequestHuman) -> Result<Output, DaemonError> {
    let view = &ctx.daemon.view;
    let mut handbacks = view.handbacks();
    handbacks.borrow_and_update();
    let req =
        crate::view::request_human(&ctx.daemon, &ctx.session, &p.reason, p.tab_id, p.window_id)?;
    let id = req.request_id;
    let until = ctx
        .op
        .deadline
        .checked_sub(std::time::Duration::from_millis(250))
        .unwrap_or(ctx.op.deadline);
    loop {
        if view.request_state(&id) == Some("handed_back") {
            let ended = view.last_ended();
            return Ok(Output::new(
                json!({"request_id": id, "handed_back": true, "takeover": ended}),
            ));
        }
        if tokio::time::timeout_at(until.into(), handbacks.changed()).await.is_err() {
            return Ok(Output::new(
                json!({"request_id": id, "handed_back": false, "state": "pending",
                "next": "wait for the takeover.ended event or poll session.status"}),
            ));
        }
    }
}

/// `documentation`: the contract, with each backend's state and, per tool, which actions can
/// run now and, for the others, why not (their backend is down, starting or absent).
async fn documentation(ctx: Ctx, _: context::Documentation) -> Result<Output, DaemonError> {
    let mut doc = docs::documentation();
    let backends = ctx.daemon.backends();
    // Why a backend cannot run an action now; `None`: it can (a degraded browser restarts
    // on the next call).
    let blocked = |backend: Backend| -> Option<String> {
        if backend == Backend::Daemon {
            return None;
        }
        let name = backend.name();
        match backends.get(name) {
            None => Some(format!("this daemon has no {name} backend")),
            Some(s) if matches!(s.status.as_str(), "down" | "starting") => Some(
                s.reason.clone().unwrap_or_else(|| format!("the {name} backend is {}", s.status)),
            ),
            Some(_) => None,
        }
    };
    let mut capabilities = Map::new();
    for tool in TOOLS {
        let handled = implemented(tool.name);
        let (mut available, mut unavailable) = (Vec::new(), Map::new());
        for a in tool.actions.iter().filter(|a| handled.iter().any(|h| h == a.name)) {
            let Some(reason) = blocked(a.backend) else {
                available.push(a.name);
                continue;
            };
            let entry = unavailable
                .entry(a.backend.name())
                .or_insert_with(|| json!({"reason": reason, "actions": []}));
            if let Some(list) = entry["actions"].as_array_mut() {
                list.push(json!(a.name));
            }
        }
        capabilities.insert(
            tool.name.to_owned(),
            json!({"available": available, "unavailable": unavailable}),
        );
    }
    doc["capabilities"] = Value::Object(capabilities);
    doc["backends"] = serde_json::to_value(backends).unwrap_or_default();
    Ok(Output::new(doc))
}

/// `get_state`: the selection, apps, windows and browsers, each domain with its own error.
async fn get_state(ctx: Ctx, _: context::GetState) -> Result<Output, DaemonError> {
    let backends = ctx.daemon.backends();
    let domain = |name: &str, key: &str| {
        let status = backends.get(name);
        let reason = status
            .and_then(|s| s.reason.clone())
            .unwrap_or_else(|| format!("the {name} backend is not running, so it lists no {key}"));
        json!({"code": "BACKEND_UNAVAILABLE", "message": reason})
    };
    // Apps and windows come from the desktop backend when it is there; each domain
    // reports its own error otherwise.
    let (mut apps, mut windows) = (None, None);
    let (mut apps_error, mut windows_error) =
        (Some(domain("desktop", "apps")), Some(domain("desktop", "windows")));
    if let Some(d) = ctx.daemon.desktop() {
        let (a, w) = futures::join!(d.list_apps(), d.windows());
        let err = |e: crate::desktop::Error| {
            let data = DaemonError::from(e).to_data();
            json!({"code": data.code, "message": data.message})
        };
        match a {
            Ok(a) => (apps, apps_error) = (Some(a), None),
            Err(e) => apps_error = Some(err(e)),
        }
        match w {
            Ok(w) => (windows, windows_error) = (Some(w), None),
            Err(e) => windows_error = Some(err(e)),
        }
    }
    // Browsers: the daemon's own Chromium and the --browser-allow ones (the default one is
    // not started just to be listed).
    let (mut browsers, mut browsers_error) = (None, Some(domain("browser", "browsers")));
    if let Some(b) = ctx.daemon.config.browser.clone() {
        match b.list().await {
            Ok(list) => (browsers, browsers_error) = (Some(list), None),
            Err(e) => {
                let data = DaemonError::from(e).to_data();
                browsers_error = Some(json!({"code": data.code, "message": data.message}));
            }
        }
    }
    Ok(Output::new(json!({
        "selection": ctx.session.selection(),
        "session_id": ctx.session.id,
        "paused": ctx.session.is_paused(),
        "apps": apps,
        "windows": windows,
        "apps_error": apps_error,
        "windows_error": windows_error,
        "browsers": browsers,
        "browsers_error": browsers_error,
        "backends": backends,
    })))
}
