//! Top-level windows through EWMH: the client list, titles, pids, frames, the active window,
//! and window operations as client messages to the window manager.

use std::time::{Duration, Instant};

use serde::Serialize;
use x11rb::protocol::xproto::{
    AtomEnum, ClientMessageEvent, ConfigureWindowAux, ConnectionExt as _, EventMask, Window,
};
use x11rb::rust_connection::RustConnection;

use super::{x_err, X};
use crate::desktop::Error;

/// A screen rectangle in pixels.
pub use glovebox_protocol::results::computer::Rect as Frame;

#[derive(Debug, Clone, Serialize)]
pub struct WindowInfo {
    pub window_id: String,
    #[serde(skip)]
    pub xid: u32,
    pub pid: Option<u32>,
    pub app_id: Option<String>,
    pub title: String,
    /// The outer frame (decorations included) in screen pixels.
    pub frame: Frame,
    /// The client area in screen pixels.
    pub client: Frame,
    pub active: bool,
    pub minimized: bool,
    pub maximized: bool,
    /// WM_TRANSIENT_FOR: the window this one is a dialog of.
    #[serde(skip)]
    pub transient_for: Option<u32>,
    #[serde(skip)]
    pub modal: bool,
    /// Place in the window manager's stacking order (higher is nearer the top).
    #[serde(skip)]
    pub stack: usize,
}

impl From<WindowInfo> for glovebox_protocol::results::computer::WindowInfo {
    fn from(w: WindowInfo) -> Self {
        let WindowInfo {
            window_id,
            pid,
            app_id,
            title,
            frame,
            client,
            active,
            minimized,
            maximized,
            ..
        } = w;
        Self { window_id, pid, app_id, title, frame, client, active, minimized, maximized }
    }
}

/// The windows an input may land in: these windows, or any window of this pid.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowed {
    pub xids: Vec<u32>,
    pub pid: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowOp {
    Minimize,
    Maximize,
    Restore,
    Close,
    Move(i32, i32),
    Resize(u32, u32),
}

/// `win:0x1a00003` <-> the X window id.
pub fn window_id(xid: u32) -> String {
    format!("win:0x{xid:x}")
}

pub fn parse_window_id(id: &str) -> Option<u32> {
    let hex = id.strip_prefix("win:0x").or_else(|| id.strip_prefix("0x"))?;
    u32::from_str_radix(hex, 16).ok()
}

impl X {
    fn cardinals(&self, conn: &RustConnection, w: Window, prop: u32) -> Vec<u32> {
        conn.get_property(false, w, prop, AtomEnum::ANY, 0, 1024)
            .ok()
            .and_then(|c| c.reply().ok())
            .and_then(|r| r.value32().map(|v| v.collect()))
            .unwrap_or_default()
    }

    fn title(&self, conn: &RustConnection, w: Window) -> String {
        for (prop, ty) in [
            (self.atoms.wm_name, self.atoms.utf8_string),
            (u32::from(AtomEnum::WM_NAME), u32::from(AtomEnum::ANY)),
        ] {
            if let Ok(Ok(r)) = conn.get_property(false, w, prop, ty, 0, 4096).map(|c| c.reply()) {
                if !r.value.is_empty() {
                    return String::from_utf8_lossy(&r.value).into_owned();
                }
            }
        }
        String::new()
    }

    pub fn active_window(&self) -> Option<u32> {
        let conn = self.lock();
        self.cardinals(&conn, self.root, self.atoms.active_window)
            .first()
            .copied()
            .filter(|w| *w != 0)
    }

    /// Every managed top-level window, in the window manager's order.
    pub fn windows(&self) -> Result<Vec<WindowInfo>, Error> {
        let conn = self.lock();
        // Property reads below treat failures as "unset"; a lost display must be an error.
        conn.get_input_focus().map_err(x_err)?.reply().map_err(x_err)?;
        let active = self.cardinals(&conn, self.root, self.atoms.active_window).first().copied();
        let stacking = self.cardinals(&conn, self.root, self.atoms.client_list_stacking);
        let mut out = Vec::new();
        for w in self.cardinals(&conn, self.root, self.atoms.client_list) {
            let Ok(geo) = conn.get_geometry(w).map_err(x_err)?.reply() else { continue };
            let Ok(pos) = conn.translate_coordinates(w, self.root, 0, 0).map_err(x_err)?.reply()
            else {
                continue;
            };
            let ext = self.cardinals(&conn, w, self.atoms.frame_extents);
            let (l, r, t, b) = match ext.as_slice() {
                [l, r, t, b, ..] => (*l as i32, *r as i32, *t as i32, *b as i32),
                _ => (0, 0, 0, 0),
            };
            let states = self.cardinals(&conn, w, self.atoms.wm_state);
            let pid = self.cardinals(&conn, w, self.atoms.wm_pid).first().copied();
            let client = Frame {
                x: i32::from(pos.dst_x),
                y: i32::from(pos.dst_y),
                width: u32::from(geo.width),
                height: u32::from(geo.height),
            };
            out.push(WindowInfo {
                window_id: window_id(w),
                xid: w,
                pid,
                app_id: pid.map(|p| format!("app:{p}")),
                title: self.title(&conn, w),
                frame: Frame {
                    x: client.x - l,
                    y: client.y - t,
                    width: (client.width as i32 + l + r) as u32,
                    height: (client.height as i32 + t + b) as u32,
                },
                client,
                active: active == Some(w),
                minimized: states.contains(&self.atoms.state_hidden),
                maximized: states.contains(&self.atoms.state_max_vert)
                    && states.contains(&self.atoms.state_max_horz),
                transient_for: self
                    .cardinals(&conn, w, u32::from(AtomEnum::WM_TRANSIENT_FOR))
                    .first()
                    .copied()
                    .filter(|t| *t != 0 && *t != self.root),
                modal: states.contains(&self.atoms.state_modal),
                stack: stacking.iter().position(|s| *s == w).unwrap_or(0),
            });
        }
        Ok(out)
    }

    fn client_message(
        &self,
        conn: &RustConnection,
        w: Window,
        kind: u32,
        data: [u32; 5],
    ) -> Result<(), Error> {
        let ev = ClientMessageEvent::new(32, w, kind, data);
        conn.send_event(
            false,
            self.root,
            EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY,
            ev,
        )
        .map_err(x_err)?;
        conn.get_input_focus().map_err(x_err)?.reply().map_err(x_err)?;
        Ok(())
    }

    /// Whether the active window is one `allowed` names (by id or by `_NET_WM_PID`), read
    /// on `conn`; and which window that is.
    pub(super) fn active_in(
        &self,
        conn: &RustConnection,
        allowed: &Allowed,
    ) -> (bool, Option<u32>) {
        let active = self
            .cardinals(conn, self.root, self.atoms.active_window)
            .first()
            .copied()
            .filter(|w| *w != 0);
        let Some(w) = active else { return (false, None) };
        if allowed.xids.contains(&w) {
            return (true, active);
        }
        let pid = self.cardinals(conn, w, self.atoms.wm_pid).first().copied();
        (allowed.pid.is_some() && pid == allowed.pid, active)
    }

    /// [`X::active_in`] on the shared connection.
    pub fn active_allowed(&self, allowed: &Allowed) -> (bool, Option<u32>) {
        let conn = self.lock();
        self.active_in(&conn, allowed)
    }

    /// Asks the window manager to activate `w`, then polls until it is active or `wait` passes.
    pub fn activate(&self, w: u32, wait: Duration) -> Result<bool, Error> {
        let only = Allowed { xids: vec![w], pid: None };
        Ok(self.activate_into(w, &only, wait)?.0)
    }

    /// Asks the window manager to activate `w` (EWMH `_NET_ACTIVE_WINDOW` from a pager, which
    /// openbox honours without focus-stealing checks) and polls until a window `allowed` names is active (`w`'s own
    /// dialog may take the focus instead), or `wait` passes. Returns whether it did and the
    /// window active at the end.
    pub fn activate_into(
        &self,
        w: u32,
        allowed: &Allowed,
        wait: Duration,
    ) -> Result<(bool, Option<u32>), Error> {
        {
            let conn = self.lock();
            self.client_message(&conn, w, self.atoms.active_window, [2, 0, 0, 0, 0])?;
        }
        let deadline = Instant::now() + wait;
        loop {
            let (ok, now) = self.active_allowed(allowed);
            if ok {
                return Ok((true, now));
            }
            if Instant::now() >= deadline {
                return Ok((false, now));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn window_op(&self, w: u32, op: WindowOp) -> Result<(), Error> {
        let conn = self.lock();
        let a = self.atoms;
        match op {
            WindowOp::Minimize => self.client_message(&conn, w, a.change_state, [3, 0, 0, 0, 0]),
            WindowOp::Maximize => self.client_message(
                &conn,
                w,
                a.wm_state,
                [1, a.state_max_vert, a.state_max_horz, 2, 0],
            ),
            WindowOp::Restore => {
                self.client_message(
                    &conn,
                    w,
                    a.wm_state,
                    [0, a.state_max_vert, a.state_max_horz, 2, 0],
                )?;
                self.client_message(&conn, w, a.active_window, [2, 0, 0, 0, 0])
            }
            WindowOp::Close => self.client_message(&conn, w, a.close_window, [0, 2, 0, 0, 0]),
            WindowOp::Move(x, y) => {
                conn.configure_window(w, &ConfigureWindowAux::new().x(x).y(y)).map_err(x_err)?;
                self.client_message(
                    &conn,
                    w,
                    a.moveresize,
                    [(1 << 8) | (1 << 9) | (2 << 12), x as u32, y as u32, 0, 0],
                )
            }
            WindowOp::Resize(width, height) => {
                conn.configure_window(w, &ConfigureWindowAux::new().width(width).height(height))
                    .map_err(x_err)?;
                self.client_message(
                    &conn,
                    w,
                    a.moveresize,
                    [(1 << 10) | (1 << 11) | (2 << 12), 0, 0, width, height],
                )
            }
        }
    }
}
