//! `context` actions: the table of the tool (apps and windows in `context_desktop.rs`,
//! browsers in `context_browser.rs`), and the actions that need no backend: the contract as
//! documentation and the state overview, where every domain reports its own status instead
//! of an empty list.

use std::collections::BTreeMap;

use glovebox_protocol::actions::context;
use glovebox_protocol::contract::docs;
use glovebox_protocol::contract::{Backend, TOOLS};
use glovebox_protocol::results::context::{self as results, DomainError};
use glovebox_protocol::results::context::{Capabilities, Selection, Takeover, Unavailable};

use super::results::{decode, part};
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
        .on::<context::PutFile>(put_file)
        .on::<context::ListSecrets>(list_secrets)
}

/// `put_file`: a file the client sent, stored in the first file root for `browser.upload`
/// (`files.put` over `/rpc`, as an action so an MCP host has it too).
/// The secrets by name and where each may go; never a value (observers may not call it).
async fn list_secrets(
    ctx: Ctx,
    _: context::ListSecrets,
) -> Result<Output<results::ListSecrets>, DaemonError> {
    Ok(Output::new(results::ListSecrets { secrets: ctx.daemon.config.secrets.list() }))
}

async fn put_file(ctx: Ctx, p: context::PutFile) -> Result<Output<results::PutFile>, DaemonError> {
    use base64::Engine as _;
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(p.data.as_bytes()).map_err(|e| {
            let v = glovebox_protocol::contract::Violation::new(
                "data",
                format!("data must be base64: {e}"),
            );
            DaemonError::Contract(v)
        })?;
    let path = ctx.daemon.config.files.put(&p.name, &bytes)?;
    Ok(Output::new(results::PutFile {
        name: p.name,
        path: path.display().to_string(),
        bytes: bytes.len() as u64,
    }))
}

/// `request_human`: files the request (the page shows it at once), or takes up the
/// session's pending one with the same reason, then waits for a hand-back that answers it, or answers
/// a little before the op's deadline that it is still pending.
async fn request_human(
    ctx: Ctx,
    p: context::RequestHuman,
) -> Result<Output<results::RequestHuman>, DaemonError> {
    let people = &ctx.daemon.people;
    let mut handbacks = people.handbacks();
    handbacks.borrow_and_update();
    // The same reason again takes up the session's request still pending: a host that heard
    // "pending" re-sends its call and keeps waiting for the same person.
    let earlier = people.pending_with(&ctx.session.id, p.reason.trim());
    let id = match earlier {
        Some(id) => id,
        None => {
            let (tab, window) = (p.tab_id, p.window_id);
            people
                .request_human(&ctx.daemon.events, &ctx.session, &p.reason, tab, window)?
                .request_id
        }
    };
    let until = ctx
        .op
        .deadline
        .checked_sub(std::time::Duration::from_millis(250))
        .unwrap_or(ctx.op.deadline);
    loop {
        if people.request_state(&id) == Some("handed_back") {
            let takeover = people.last_ended().map(part::<context::RequestHuman, Takeover>);
            return Ok(Output::new(results::RequestHuman {
                request_id: id,
                handed_back: true,
                takeover: takeover.transpose()?,
                ..results::RequestHuman::default()
            }));
        }
        if tokio::time::timeout_at(until.into(), handbacks.changed()).await.is_err() {
            let next = format!(
                "nobody has handed back yet: call context.request_human again with the same \
                 reason to keep waiting for {id} (each call waits up to its timeout_ms); \
                 context.get_state shows human_in_control meanwhile"
            );
            return Ok(Output::new(results::RequestHuman {
                request_id: id,
                handed_back: false,
                takeover: None,
                state: Some("pending".into()),
                next: Some(next),
            }));
        }
    }
}

/// `documentation`: the contract, with each backend's state and, per tool, which actions can
/// run now and, for the others, why not (their backend is down, starting or absent).
async fn documentation(
    ctx: Ctx,
    _: context::Documentation,
) -> Result<Output<results::Documentation>, DaemonError> {
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
    let mut capabilities = BTreeMap::new();
    for tool in TOOLS {
        let handled = implemented(tool.name);
        let mut can = Capabilities::default();
        for a in tool.actions.iter().filter(|a| handled.iter().any(|h| h == a.name)) {
            let Some(reason) = blocked(a.backend) else {
                can.available.push(a.name.to_owned());
                continue;
            };
            let entry = can
                .unavailable
                .entry(a.backend.name().to_owned())
                .or_insert_with(|| Unavailable { reason, actions: Vec::new() });
            entry.actions.push(a.name.to_owned());
        }
        capabilities.insert(tool.name.to_owned(), can);
    }
    // The contract's part comes as JSON from the protocol crate, read (and, in debug builds,
    // checked) as the typed result; this daemon's capabilities and backends join it typed.
    let mut doc = docs::documentation();
    if let Some(o) = doc.as_object_mut() {
        o.insert("capabilities".into(), serde_json::Value::Object(Default::default()));
        o.insert("backends".into(), serde_json::Value::Object(Default::default()));
    }
    let doc = decode::<context::Documentation>(doc)?;
    Ok(Output::new(results::Documentation { capabilities, backends, ..doc }))
}

/// `get_state`: the selection, apps, windows and browsers, each domain with its own error.
async fn get_state(
    ctx: Ctx,
    _: context::GetState,
) -> Result<Output<results::GetState>, DaemonError> {
    let backends = ctx.daemon.backends();
    let domain = |name: &str, key: &str| {
        let status = backends.get(name);
        let reason = status
            .and_then(|s| s.reason.clone())
            .unwrap_or_else(|| format!("the {name} backend is not running, so it lists no {key}"));
        DomainError { code: "BACKEND_UNAVAILABLE".into(), message: reason }
    };
    // Apps and windows come from the desktop backend when it is there; each domain
    // reports its own error otherwise.
    let (mut apps, mut windows) = (None, None);
    let (mut apps_error, mut windows_error) =
        (Some(domain("desktop", "apps")), Some(domain("desktop", "windows")));
    if let Some(d) = ctx.daemon.desktop() {
        let (a, w) = futures::join!(d.list_apps(), d.windows());
        let err = |e: crate::desktop::Error| domain_error(&DaemonError::from(e));
        match a {
            Ok(a) => (apps, apps_error) = (Some(a), None),
            Err(e) => apps_error = Some(err(e)),
        }
        match w {
            Ok(w) => {
                let w = w.into_iter().map(Into::into).collect();
                (windows, windows_error) = (Some(w), None);
            }
            Err(e) => windows_error = Some(err(e)),
        }
    }
    // Browsers: the daemon's own Chromium and the --browser-allow ones (the default one is
    // not started just to be listed).
    let (mut browsers, mut browsers_error) = (None, Some(domain("browser", "browsers")));
    if let Some(b) = ctx.daemon.config.browser.clone() {
        match b.list().await {
            Ok(list) => {
                let list = list.into_iter().map(super::context_browser::browser).collect();
                (browsers, browsers_error) = (Some(list), None);
            }
            Err(e) => browsers_error = Some(domain_error(&DaemonError::from(e))),
        }
    }
    let crate::session::Selection { browser_id, tab_id, app_id, window_id } =
        ctx.session.selection();
    let human_in_control = ctx.daemon.people.human_in_control(&ctx.session.creator);
    let pending = ctx.daemon.approvals.pending_of(&ctx.session.id);
    let pending_approvals = pending.iter().map(pending_approval).collect();
    Ok(Output::new(results::GetState {
        selection: Selection { browser_id, tab_id, app_id, window_id },
        session_id: ctx.session.id.clone(),
        paused: ctx.session.is_paused() || human_in_control.is_some(),
        human_in_control,
        pending_approvals,
        human_requests: ctx.daemon.people.pending_of(&ctx.session.id),
        apps,
        windows,
        apps_error,
        windows_error,
        browsers,
        browsers_error,
        backends,
    }))
}

/// A pending approval as `get_state` lists it (the store's entry without its arguments).
fn pending_approval(a: &crate::approval::store::Asked) -> results::PendingApproval {
    results::PendingApproval {
        approval_id: a.approval_id.clone(),
        op_id: a.op_id.clone(),
        method: a.method.clone(),
        rule: a.rule.clone(),
        since: a.since.clone(),
        age_ms: a.age_ms,
    }
}

/// Why a domain lists nothing: the error's code and message.
fn domain_error(e: &DaemonError) -> DomainError {
    let data = e.to_data();
    DomainError { code: data.code.as_str().into(), message: data.message }
}
