//! `computer` actions: typed params from the contract -> the desktop backend
//! (`crate::desktop`). Every acting result says `via` and `actual_dispatch`; every result
//! names its target. This file holds the tool's table (`routes`, one line per action) and
//! what every handler shares (target, refs, points); the handlers live in one submodule per
//! group.

mod act;
mod clipboard;
mod input;
mod snapshot;
mod windows;

use std::sync::Arc;

use glovebox_protocol::actions::computer::{self, Button, Common};
use glovebox_protocol::actions::Point;
use glovebox_protocol::contract::Violation;
use glovebox_protocol::results::computer::Rect;
use glovebox_protocol::wire::DesktopSource;

use super::table::Routes;
use super::{Ctx, Output};
use crate::desktop::{Aim, Desktop, El};
use crate::error::DaemonError;

pub(super) use snapshot::snapshot_app;
pub(super) use windows::image;

/// One line per `computer` action.
#[rustfmt::skip] // one line per action: the table reads as a table
pub(super) fn routes(t: Routes) -> Routes {
    t.on::<computer::Click>(act::click)
        .on::<computer::DoubleClick>(act::double_click)
        .on::<computer::Type>(act::type_text)
        .on::<computer::Fill>(act::fill)
        .on::<computer::SetValue>(act::set_value)
        .on::<computer::Paste>(clipboard::paste)
        .on::<computer::SelectText>(act::select_text)
        .on::<computer::SecondaryAction>(act::secondary_action)
        .on::<computer::Key>(input::key)
        .on::<computer::Keydown>(input::keydown)
        .on::<computer::Keyup>(input::keyup)
        .on::<computer::Scroll>(input::scroll)
        .on::<computer::Drag>(input::drag)
        .on::<computer::MouseMove>(input::mouse_move)
        .on::<computer::MouseDown>(input::mouse_down)
        .on::<computer::MouseUp>(input::mouse_up)
        .on::<computer::Window>(windows::window)
        .on::<computer::Wait>(snapshot::wait)
        .on::<computer::Snapshot>(snapshot::snapshot)
        .on::<computer::GetWindowState>(windows::get_window_state)
        .on::<computer::Screenshot>(windows::screenshot)
        .on::<computer::StateAndScreenshot>(windows::state_and_screenshot)
        .on::<computer::GetText>(act::get_text)
        .on::<computer::ClipboardGet>(clipboard::clipboard_get)
        .on::<computer::ClipboardSet>(clipboard::clipboard_set)
        .on::<computer::Probe>(windows::probe)
}

/// The desktop backend, or why it is not there.
pub(super) fn desktop(ctx: &Ctx) -> Result<Arc<Desktop>, DaemonError> {
    ctx.daemon.desktop().ok_or_else(|| {
        let reason = ctx
            .daemon
            .backends()
            .get("desktop")
            .and_then(|s| s.reason.clone())
            .unwrap_or_else(|| "no desktop backend is connected".into());
        DaemonError::BackendUnavailable {
            backend: "desktop",
            reason,
            remedy: "start the daemon where an X display and the AT-SPI bus are reachable \
                     (--desktop embedded starts both)"
                .into(),
        }
    })
}

/// What a call acts on: an app (`app:<pid>`) or the whole desktop.
struct Target {
    key: String,
    pid: Option<u32>,
    window_id: Option<String>,
    window_title: Option<String>,
    source: DesktopSource,
    /// The window the call names by `window_id`, as an X id.
    named_window: Option<u32>,
    /// The call names its app by `app_id`.
    named_app: bool,
    /// The call's `snapshot_id`, which its refs resolve in.
    snapshot_id: Option<String>,
    /// The frame of the window the call names by `window_id`: its points must fall in it.
    frame: Option<Rect>,
}

impl Target {
    /// What real input is aimed at: the window the call names, else the app it names or
    /// `named_ref`'s app; nothing when it names neither (the session's selection is not a
    /// name).
    fn aim(&self, named_ref: Option<&str>) -> Aim {
        if let Some(xid) = self.named_window {
            return Aim::Window(xid);
        }
        match self.pid {
            Some(pid) if self.named_app || named_ref.is_some() => Aim::App(pid),
            _ => Aim::Free,
        }
    }

    fn target(&self) -> glovebox_protocol::wire::Target {
        let app_id = self.pid.map(|p| format!("app:{p}"));
        glovebox_protocol::wire::Target::of_desktop(app_id, self.window_id.clone(), self.source)
    }
}

async fn target(ctx: &Ctx, d: &Desktop, c: &Common) -> Result<Target, DaemonError> {
    let sel = ctx.session.selection();
    let explicit_app = c.app_id.clone();
    let explicit_win = c.window_id.clone();
    let source = if explicit_app.is_some() || explicit_win.is_some() {
        DesktopSource::Explicit
    } else {
        DesktopSource::Session
    };
    let app_id =
        explicit_app.clone().or(if explicit_win.is_none() { sel.app_id.clone() } else { None });
    let window_id =
        explicit_win.clone().or(if explicit_app.is_none() { sel.window_id.clone() } else { None });
    let mut pid = app_id.as_deref().and_then(crate::desktop::atspi::app_pid);
    let (mut window_title, mut frame) = (None, None);
    if let Some(w) = &window_id {
        if let Some(win) = d.windows().await?.into_iter().find(|x| &x.window_id == w) {
            if pid.is_none() {
                pid = win.pid;
            }
            if explicit_win.is_some() {
                window_title = Some(win.title);
                frame = Some(win.frame);
            }
        } else if explicit_win.is_some() {
            return Err(DaemonError::TargetNotFound { kind: "window", id: w.clone() });
        }
    }
    let key = pid.map(|p| format!("app:{p}")).unwrap_or_else(|| "desktop".into());
    let named_window = c.window_id.as_deref().and_then(crate::desktop::x11::parse_window_id);
    let (named_app, snapshot_id) = (c.app_id.is_some(), c.snapshot_id.clone());
    Ok(Target {
        key,
        pid,
        window_id,
        window_title,
        source,
        named_window,
        named_app,
        snapshot_id,
        frame,
    })
}

/// The element a ref names, resolved in this session's snapshots of `t`.
fn element(ctx: &Ctx, t: &Target, r: &str) -> Result<El, DaemonError> {
    let snaps = ctx
        .session
        .snapshots
        .lock()
        .map_err(|_| DaemonError::Poisoned("the session's snapshot registry"))?;
    let key = snaps.resolve(&t.key, r, t.snapshot_id.as_deref())?;
    Ok(El { key, label: crate::registry::snapshots::normalize_ref(r) })
}

/// The element an optional ref names, if any.
fn element_opt(ctx: &Ctx, t: &Target, r: Option<&str>) -> Result<Option<El>, DaemonError> {
    r.map(|r| element(ctx, t, r)).transpose()
}

/// `result`, acting on or observing `t`.
fn out<R>(t: &Target, result: R) -> Output<R> {
    Output { result, target: Some(t.target()) }
}

/// The X button number.
fn button(b: Button) -> u8 {
    match b {
        Button::Left => 1,
        Button::Middle => 2,
        Button::Right => 3,
    }
}

/// A screen point, fractions of the screen scaled to its last pixel. A point off the screen
/// (XTest would clamp it to the edge, where other windows' close buttons sit) or outside the
/// frame of the window the call names is refused, naming the size.
fn point(d: &Desktop, t: &Target, p: &computer::Point) -> Result<(i32, i32), DaemonError> {
    let (w, h) = d.screen();
    let (x, y) = match *p {
        Point::Pixels { x, y } => (f64::from(x), f64::from(y)),
        Point::Fraction { nx, ny } => (
            (nx * f64::from(w)).min(f64::from(w) - 1.0),
            (ny * f64::from(h)).min(f64::from(h) - 1.0),
        ),
    };
    let field = if matches!(p, Point::Pixels { .. }) { "x" } else { "nx" };
    if x < 0.0 || y < 0.0 || x >= f64::from(w) || y >= f64::from(h) {
        let msg = format!(
            "the point {x},{y} is off the screen, which is {w}x{h} pixels (x 0 to {}, y 0 to {})",
            w.saturating_sub(1),
            h.saturating_sub(1)
        );
        return Err(DaemonError::Contract(Violation::new(field, msg)));
    }
    let (x, y) = (x as i32, y as i32);
    if let Some(f) = &t.frame {
        let inside = x >= f.x
            && y >= f.y
            && i64::from(x) < i64::from(f.x) + i64::from(f.width)
            && i64::from(y) < i64::from(f.y) + i64::from(f.height);
        if !inside {
            let msg = format!(
                "the point {x},{y} is outside the frame of window {}, {}x{} pixels at {},{}",
                t.window_id.as_deref().unwrap_or_default(),
                f.width,
                f.height,
                f.x,
                f.y
            );
            return Err(DaemonError::Contract(Violation::new(field, msg)));
        }
    }
    Ok((x, y))
}

/// How the desktop should deliver an action.
fn dispatch(d: computer::Dispatch) -> crate::desktop::Dispatch {
    match d {
        computer::Dispatch::Auto => crate::desktop::Dispatch::Auto,
        computer::Dispatch::Background => crate::desktop::Dispatch::Background,
        computer::Dispatch::Foreground => crate::desktop::Dispatch::Foreground,
    }
}
