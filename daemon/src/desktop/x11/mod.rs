//! The X11 side of the desktop: one connection to the display (given explicitly, never read
//! from the process environment) for input through XTest, windows through EWMH, and capture.

mod capture;
mod input;
mod keymap;
mod watch;
mod windows;

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex, MutexGuard};

use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{Atom, ConnectionExt as _, Window};
use x11rb::rust_connection::RustConnection;

pub use capture::{downscale, rgb_png, Encoded, ImageFormat};
pub use watch::{start as start_watch, Damage, Rect, RootChange, Settled};
pub use windows::{parse_window_id, window_id, Allowed, Frame, WindowInfo, WindowOp};

use super::Error;

/// Atoms the backend uses, interned once.
#[derive(Debug, Clone, Copy)]
struct Atoms {
    client_list: Atom,
    client_list_stacking: Atom,
    active_window: Atom,
    wm_pid: Atom,
    wm_name: Atom,
    utf8_string: Atom,
    wm_state: Atom,
    state_hidden: Atom,
    state_max_vert: Atom,
    state_max_horz: Atom,
    state_modal: Atom,
    frame_extents: Atom,
    close_window: Atom,
    moveresize: Atom,
    change_state: Atom,
}

/// The display connection. Calls are short and local, so a plain mutex serializes them.
#[derive(Debug)]
pub struct X {
    conn: Mutex<RustConnection>,
    root: Window,
    width: u16,
    height: u16,
    atoms: Atoms,
    /// Keycodes with no keysym, borrowed to type characters the keymap lacks.
    scratch: Vec<u8>,
    /// Keymap reads by other clients, to know when a borrowed keycode may be rebound.
    keymap: Option<Arc<keymap::KeymapReads>>,
    /// ChangeKeyboardMapping requests sent on `conn`.
    remaps: AtomicU64,
    /// A borrowed keycode was pressed since the last keymap change.
    scratch_used: AtomicBool,
    /// MIT-SHM capture, when the server offers it.
    shm: Option<capture::Shm>,
    /// Screen rectangles every capture paints over: where a page or a desktop field shows a
    /// secret's value.
    covered: Mutex<capture::Covered>,
}

impl X {
    pub fn connect(display: &str) -> Result<X, Error> {
        let (conn, screen) = crate::desktop::xauth::connect(display)
            .map_err(|e| Error::Display(format!("cannot connect to {display}: {e}")))?;
        let s = &conn.setup().roots[screen];
        let (root, width, height) = (s.root, s.width_in_pixels, s.height_in_pixels);
        let intern = |name: &str| -> Result<Atom, Error> {
            Ok(conn
                .intern_atom(false, name.as_bytes())
                .map_err(x_err)?
                .reply()
                .map_err(x_err)?
                .atom)
        };
        let atoms = Atoms {
            client_list: intern("_NET_CLIENT_LIST")?,
            client_list_stacking: intern("_NET_CLIENT_LIST_STACKING")?,
            active_window: intern("_NET_ACTIVE_WINDOW")?,
            wm_pid: intern("_NET_WM_PID")?,
            wm_name: intern("_NET_WM_NAME")?,
            utf8_string: intern("UTF8_STRING")?,
            wm_state: intern("_NET_WM_STATE")?,
            state_hidden: intern("_NET_WM_STATE_HIDDEN")?,
            state_max_vert: intern("_NET_WM_STATE_MAXIMIZED_VERT")?,
            state_max_horz: intern("_NET_WM_STATE_MAXIMIZED_HORZ")?,
            state_modal: intern("_NET_WM_STATE_MODAL")?,
            frame_extents: intern("_NET_FRAME_EXTENTS")?,
            close_window: intern("_NET_CLOSE_WINDOW")?,
            moveresize: intern("_NET_MOVERESIZE_WINDOW")?,
            change_state: intern("WM_CHANGE_STATE")?,
        };
        let scratch = input::scratch_keycodes(&conn)?;
        let keymap = keymap::KeymapReads::start(display, conn.setup().resource_id_base);
        if keymap.is_none() {
            tracing::info!("no X RECORD extension; typing waits a fixed pause after remapping");
        }
        let shm = capture::shm_setup(&conn, usize::from(width) * usize::from(height) * 4);
        if shm.is_none() {
            tracing::info!("MIT-SHM unavailable; screenshots use GetImage");
        }
        Ok(X {
            conn: Mutex::new(conn),
            root,
            width,
            height,
            atoms,
            scratch,
            keymap,
            remaps: AtomicU64::new(0),
            scratch_used: AtomicBool::new(false),
            shm,
            covered: Mutex::default(),
        })
    }

    pub fn screen(&self) -> (u16, u16) {
        (self.width, self.height)
    }

    fn lock(&self) -> MutexGuard<'_, RustConnection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

pub(crate) fn x_err(e: impl std::fmt::Display) -> Error {
    Error::Display(e.to_string())
}
