//! `context` actions that need no backend: the contract as documentation and the state
//! overview, where every domain reports its own status instead of an empty list.

use futures::future::BoxFuture;
use glovebox_protocol::contract::docs;
use glovebox_protocol::contract::{Checked, TOOLS};
use serde_json::{json, Map, Value};

use super::table::Entries;
use super::{implemented, Ctx, Output};
use crate::error::DaemonError;

pub static HANDLERS: Entries =
    &[("documentation", documentation as super::Handler), ("get_state", get_state)];

pub fn documentation(ctx: Ctx, _call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async move {
        let mut doc = docs::documentation();
        let backends = ctx.daemon.backends();
        let mut capabilities = Map::new();
        for tool in TOOLS {
            let available = implemented(tool.name);
            let missing: Vec<&str> = tool
                .actions
                .iter()
                .map(|a| a.name)
                .filter(|a| !available.iter().any(|x| x == a))
                .collect();
            capabilities.insert(
                tool.name.to_owned(),
                json!({"available": available, "not_supported_yet": missing}),
            );
        }
        doc["capabilities"] = Value::Object(capabilities);
        doc["backends"] = serde_json::to_value(backends).unwrap_or_default();
        Ok(Output::new(doc))
    })
}

pub fn get_state(ctx: Ctx, _call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async move {
        let backends = ctx.daemon.backends();
        let domain = |name: &str, key: &str| {
            let status = backends.get(name);
            let reason = status.and_then(|s| s.reason.clone()).unwrap_or_else(|| {
                format!("the {name} backend does not list {key} in this build yet")
            });
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
        // Browsers: every Chromium with a debugging port (the default one is not started
        // just to be listed).
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
    })
}
