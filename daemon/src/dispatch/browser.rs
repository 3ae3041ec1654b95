//! `browser` actions: typed params from the contract -> the CDP backend (`crate::browser`).
//!
//! Every call freezes its target first (explicit ids, else the session's selection, else the
//! browser's active tab) and echoes it with `tab_source`; refs resolve through the session's
//! snapshot registry before the backend sees an element's snapshot key.
//!
//! This module holds the tool's table (`routes`, one line per action) and the pipeline of an
//! action on a tab (`on_tab`: freeze, open the tab, run the handler with a [`TabCx`]); the
//! handlers live in `tabs`, `navigation`, `pointer`, `keyboard`, `forms`, `observe`,
//! `waiting` and `code` (code clients' endpoints), and `target` resolves what a call names.

mod code;
mod forms;
mod keyboard;
mod navigation;
mod observe;
mod pointer;
mod storage;
mod tabs;
mod target;
mod waiting;

use std::future::Future;
use std::sync::Arc;

use glovebox_protocol::actions::browser::{self, Shared};
use glovebox_protocol::actions::Params;
use glovebox_protocol::results::browser as results;

use super::table::Routes;
use super::{Ctx, Output};
use crate::browser::{Browsers, Tab};
use crate::error::DaemonError;
use crate::state::Daemon;
use target::{browser_of, freeze, Frozen};

/// One line per `browser` action.
#[rustfmt::skip] // one line per action: the table reads as a table
pub(super) fn routes(t: Routes) -> Routes {
    t.on::<browser::Navigate>(on_tab(navigation::navigate))
        .on::<browser::Click>(on_tab(pointer::click))
        .on::<browser::DoubleClick>(on_tab(pointer::double_click))
        .on::<browser::Hover>(on_tab(pointer::hover))
        .on::<browser::Focus>(on_tab(forms::focus))
        .on::<browser::Type>(on_tab(forms::type_text))
        .on::<browser::Fill>(on_tab(forms::fill))
        .on::<browser::SetValue>(on_tab(forms::set_value))
        .on::<browser::Select>(on_tab(forms::select))
        .on::<browser::Check>(on_tab(forms::check))
        .on::<browser::Uncheck>(on_tab(forms::uncheck))
        .on::<browser::Paste>(on_tab(forms::paste))
        .on::<browser::SelectText>(on_tab(forms::select_text))
        .on::<browser::SecondaryAction>(secondary_action)
        .on::<browser::Press>(on_tab(keyboard::press))
        .on::<browser::KeyboardType>(on_tab(keyboard::keyboard_type))
        .on::<browser::Keydown>(on_tab(keyboard::keydown))
        .on::<browser::Keyup>(on_tab(keyboard::keyup))
        .on::<browser::Scroll>(on_tab(pointer::scroll))
        .on::<browser::ScrollIntoView>(on_tab(pointer::scroll_into_view))
        .on::<browser::Drag>(on_tab(pointer::drag))
        .on::<browser::Upload>(on_tab(forms::upload))
        .on::<browser::Wait>(waiting::wait)
        .on::<browser::Dialog>(on_tab(tabs::dialog))
        .on::<browser::GoBack>(on_tab(navigation::go_back))
        .on::<browser::GoForward>(on_tab(navigation::go_forward))
        .on::<browser::Reload>(on_tab(navigation::reload))
        .on::<browser::TabNew>(tabs::new)
        .on::<browser::TabSelect>(on_tab(tabs::select_tab))
        .on::<browser::TabGet>(on_tab(tabs::get))
        .on::<browser::TabClose>(tabs::close)
        .on::<browser::TabMark>(tabs::mark)
        .on::<browser::CdpSession>(code::session)
        .on::<browser::CdpRevoke>(code::revoke)
        .on::<browser::StorageState>(on_tab(storage::storage_state))
        .on::<browser::Snapshot>(on_tab(observe::snapshot))
        .on::<browser::GetContent>(on_tab(observe::get_content))
        .on::<browser::GetHtml>(on_tab(observe::get_html))
        .on::<browser::GetUrl>(on_tab(observe::get_url))
        .on::<browser::GetTitle>(on_tab(observe::get_title))
        .on::<browser::Screenshot>(on_tab(observe::screenshot))
        .on::<browser::ScreenshotAnnotate>(on_tab(observe::screenshot_annotate))
        .on::<browser::StateAndScreenshot>(on_tab(observe::state_and_screenshot))
        .on::<browser::Evaluate>(on_tab(observe::evaluate))
        .on::<browser::Pdf>(on_tab(observe::pdf))
        .on::<browser::TabList>(tabs::list)
        .on::<browser::Downloads>(tabs::downloads)
        .on::<browser::Probe>(on_tab(observe::probe))
}

/// The backend, with ref invalidation pointed at every session of this daemon.
pub(super) fn backend(daemon: &Arc<Daemon>) -> Result<Arc<Browsers>, DaemonError> {
    let Some(b) = daemon.config.browser.clone() else {
        return Err(DaemonError::BackendUnavailable {
            backend: "browser",
            reason: "this daemon runs without the browser backend".into(),
            remedy: "start gloveboxd with a display so Chromium can run".into(),
        });
    };
    let weak = Arc::downgrade(daemon);
    b.set_invalidator(Arc::new(move |key: &str, reason: &str| {
        if let Some(d) = weak.upgrade() {
            for s in d.sessions.all() {
                if let Ok(mut snaps) = s.snapshots.lock() {
                    snaps.invalidate(key, reason);
                }
            }
        }
    }));
    Ok(b)
}

pub(super) fn select(ctx: &Ctx, browser_id: &str, tab_id: &str) {
    if let Ok(mut sel) = ctx.session.selection.lock() {
        sel.browser_id = Some(browser_id.to_owned());
        sel.tab_id = Some(tab_id.to_owned());
    }
}

fn poisoned() -> DaemonError {
    DaemonError::Poisoned("the session's snapshot registry")
}

/// Release the browser keys `session` holds (a failed op, a closed connection).
pub(super) fn release_held(daemon: &Daemon, session: &crate::session::Session) {
    let Some((b, keys)) = take_held(daemon, session) else { return };
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        rt.spawn(async move { b.release_keys(keys).await });
    }
}

/// The same, done when this returns (the daemon is about to exit).
pub(super) async fn release_held_now(daemon: &Daemon, session: &crate::session::Session) {
    if let Some((b, keys)) = take_held(daemon, session) {
        b.release_keys(keys).await;
    }
}

/// Held browser keys as (tab id, key).
type HeldKeys = Vec<(String, String)>;

/// The browser keys `session` holds, forgotten, and the backend to release them on.
fn take_held(
    daemon: &Daemon,
    session: &crate::session::Session,
) -> Option<(Arc<Browsers>, HeldKeys)> {
    let b = daemon.config.browser.clone()?;
    let keys = match session.held.lock() {
        Ok(mut h) if !h.browser_keys.is_empty() => std::mem::take(&mut h.browser_keys),
        _ => return None,
    };
    Some((b, keys))
}

/// Held browser keys are released when an op fails, times out or is cancelled (its future is
/// dropped before it disarms this).
struct ReleaseOnFailure {
    browsers: Arc<Browsers>,
    session: Arc<crate::session::Session>,
    armed: bool,
}

impl Drop for ReleaseOnFailure {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let keys = match self.session.held.lock() {
            Ok(mut h) if !h.browser_keys.is_empty() => std::mem::take(&mut h.browser_keys),
            _ => return,
        };
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let b = self.browsers.clone();
            rt.spawn(async move { b.release_keys(keys).await });
        }
    }
}

/// What a handler of an action on a tab gets: the call's context, the backend, the open tab
/// and the target it was frozen to.
pub(super) struct TabCx {
    pub ctx: Ctx,
    pub b: Arc<Browsers>,
    pub tab: Tab,
    pub f: Frozen,
}

/// The pipeline of an action on a tab, around its handler `act`: freeze the target, open
/// the tab, run `act`; held keys are let go when it fails.
fn on_tab<P, F, R>(
    act: F,
) -> impl Fn(Ctx, P) -> futures::future::BoxFuture<'static, Result<Output<P::Result>, DaemonError>>
       + Send
       + Sync
       + 'static
where
    P: Params + Shared,
    F: Fn(TabCx, P) -> R + Copy + Send + Sync + 'static,
    R: Future<Output = Result<P::Result, DaemonError>> + Send + 'static,
{
    move |ctx: Ctx, p: P| {
        Box::pin(async move {
            let b = backend(&ctx.daemon)?;
            let mut guard =
                ReleaseOnFailure { browsers: b.clone(), session: ctx.session.clone(), armed: true };
            let out = open_and_act(ctx, b, p, act).await;
            guard.armed = out.is_err();
            out
        })
    }
}

async fn open_and_act<P, F, R>(
    ctx: Ctx,
    b: Arc<Browsers>,
    p: P,
    act: F,
) -> Result<Output<P::Result>, DaemonError>
where
    P: Params + Shared,
    F: Fn(TabCx, P) -> R,
    R: Future<Output = Result<P::Result, DaemonError>>,
{
    let f = freeze(&ctx, &b, p.common(), p.named_ref()).await?;
    let tab = match b.tab(&f.browser_id, &f.tab_id).await {
        Ok(t) => t,
        Err(e) => {
            // Refs of a tab that is gone are stale, not unknown.
            if let Some(r) = p.named_ref() {
                let key = crate::browser::target_key(&f.browser_id, &f.tab_id);
                let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
                snaps.resolve(&key, r, p.common().snapshot_id.as_deref())?;
            }
            return Err(e.into());
        }
    };
    let target = Some(f.target());
    let (lane, ids) = (ctx.session.lane(), (f.browser_id.clone(), f.tab_id.clone()));
    let result = act(TabCx { ctx, b: b.clone(), tab, f }, p).await?;
    // A profile is kept as each action leaves it.
    if lane.profile.is_some() {
        if let Ok(tab) = b.tab(&ids.0, &ids.1).await {
            b.save_profile(&lane, &tab).await;
        }
    }
    Ok(Output { result, target })
}

/// The session's tab (else the browser's active one, which the session adopts), as a call
/// with no browser params freezes it; for `native` with `target: "browser"`.
pub(super) async fn session_tab(
    ctx: &Ctx,
) -> Result<(Arc<Browsers>, Tab, glovebox_protocol::wire::Target), DaemonError> {
    let b = backend(&ctx.daemon)?;
    let f = freeze(ctx, &b, &browser::Common::default(), None).await?;
    let tab = b.tab(&f.browser_id, &f.tab_id).await?;
    Ok((b, tab, f.target()))
}

/// `secondary_action`: DOM elements have no named secondary actions.
async fn secondary_action(
    _: Ctx,
    _: browser::SecondaryAction,
) -> Result<Output<results::SecondaryAction>, DaemonError> {
    Err(DaemonError::Unsupported {
        tool: "browser".into(),
        action: "secondary_action".into(),
        reason: "DOM elements expose no named secondary actions; use click with button \
                 right, press, or evaluate"
            .into(),
        available: vec!["click".into(), "press".into(), "evaluate".into()],
    })
}
