//! Real input through XTest: pointer moves, buttons, keys by keysym, and typing any Unicode
//! character independent of the keyboard layout (characters the keymap lacks are bound to a
//! spare keycode for the keystroke, then unbound once the focused client has read the map;
//! see `keymap.rs`).

use std::sync::atomic::Ordering;
use std::time::Duration;

use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::ConnectionExt as _;
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::rust_connection::RustConnection;

use super::{x_err, Allowed, X};
use crate::desktop::keys::{char_keysym, SHIFT_L};
use crate::desktop::Error;

const KEY_PRESS: u8 = 2;
const KEY_RELEASE: u8 = 3;
const BUTTON_PRESS: u8 = 4;
const BUTTON_RELEASE: u8 = 5;
const MOTION: u8 = 6;
/// How long a remap waits for the focused client to read the keymap (one that takes no keys
/// may never read it).
const READ_DEADLINE: Duration = Duration::from_millis(250);
/// How long a freshly bound batch waits for the focused client to read the new map before
/// it is typed anyway.
const BIND_DEADLINE: Duration = Duration::from_millis(60);
/// Without RECORD nothing shows when clients have read the keymap: a pause has to do.
const FALLBACK_PAUSE: Duration = Duration::from_millis(60);

/// Keycodes without any keysym (at most 8, from the top of the range).
pub(super) fn scratch_keycodes(conn: &RustConnection) -> Result<Vec<u8>, Error> {
    let (min, max) = (conn.setup().min_keycode, conn.setup().max_keycode);
    let map =
        conn.get_keyboard_mapping(min, max - min + 1).map_err(x_err)?.reply().map_err(x_err)?;
    let per = usize::from(map.keysyms_per_keycode.max(1));
    let mut out = Vec::new();
    for (i, syms) in map.keysyms.chunks(per).enumerate().rev() {
        // Keycode 8 is no key in the usual XKB keymaps; leave it alone.
        if syms.iter().all(|s| *s == 0) && min + i as u8 > 8 {
            out.push(min + i as u8);
            if out.len() == 8 {
                break;
            }
        }
    }
    Ok(out)
}

/// Where a keysym sits in the current keymap: keycode and whether it needs Shift.
fn find(conn: &RustConnection, keysym: u32) -> Result<Option<(u8, bool)>, Error> {
    let (min, max) = (conn.setup().min_keycode, conn.setup().max_keycode);
    let map =
        conn.get_keyboard_mapping(min, max - min + 1).map_err(x_err)?.reply().map_err(x_err)?;
    let per = usize::from(map.keysyms_per_keycode.max(1));
    let mut shifted = None;
    for (i, syms) in map.keysyms.chunks(per).enumerate() {
        if syms.first() == Some(&keysym) {
            return Ok(Some((min + i as u8, false)));
        }
        if shifted.is_none() && syms.get(1) == Some(&keysym) {
            shifted = Some((min + i as u8, true));
        }
    }
    Ok(shifted)
}

impl X {
    fn fake(
        &self,
        conn: &RustConnection,
        kind: u8,
        detail: u8,
        x: i16,
        y: i16,
    ) -> Result<(), Error> {
        self.fake_after(conn, kind, detail, x, y, 0)
    }

    /// [`X::fake`], the server processing it `delay_ms` after the request's previous one.
    fn fake_after(
        &self,
        conn: &RustConnection,
        kind: u8,
        detail: u8,
        x: i16,
        y: i16,
        delay_ms: u32,
    ) -> Result<(), Error> {
        conn.xtest_fake_input(kind, detail, delay_ms, self.root, x, y, 0).map_err(x_err)?;
        if kind == KEY_PRESS && self.scratch.contains(&detail) {
            self.scratch_used.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    fn sync(conn: &RustConnection) -> Result<(), Error> {
        conn.get_input_focus().map_err(x_err)?.reply().map_err(x_err)?;
        Ok(())
    }

    pub fn pointer(&self) -> Result<(i16, i16), Error> {
        let conn = self.lock();
        let p = conn.query_pointer(self.root).map_err(x_err)?.reply().map_err(x_err)?;
        Ok((p.root_x, p.root_y))
    }

    pub fn move_to(&self, x: i32, y: i32) -> Result<(), Error> {
        let conn = self.lock();
        self.fake(&conn, MOTION, 0, clamp16(x), clamp16(y))?;
        Self::sync(&conn)
    }

    /// Press or release a button (1 left, 2 middle, 3 right, 4-7 wheel).
    pub fn button(&self, button: u8, down: bool) -> Result<(), Error> {
        let conn = self.lock();
        let kind = if down { BUTTON_PRESS } else { BUTTON_RELEASE };
        self.fake(&conn, kind, button, 0, 0)?;
        Self::sync(&conn)
    }

    /// Move to (x, y) and click `count` times.
    pub fn click(&self, x: i32, y: i32, button: u8, count: u8) -> Result<(), Error> {
        let conn = self.lock();
        self.fake(&conn, MOTION, 0, clamp16(x), clamp16(y))?;
        for i in 0..count {
            // Each press of a multi-click a millisecond (server time) after the last event:
            // presses with one timestamp read as one native event to Chromium, which then
            // counts no double click.
            let delay = if i == 0 { 0 } else { 1 };
            self.fake_after(&conn, BUTTON_PRESS, button, 0, 0, delay)?;
            self.fake(&conn, BUTTON_RELEASE, button, 0, 0)?;
        }
        Self::sync(&conn)
    }

    /// Press (down) or release a key by keysym; unmapped keysyms borrow a spare keycode.
    pub fn key(&self, keysym: u32, down: bool) -> Result<(), Error> {
        let conn = self.lock();
        let code = match find(&conn, keysym)? {
            Some((code, _)) => code,
            None => self.bind_scratch(&conn, 0, keysym)?,
        };
        let kind = if down { KEY_PRESS } else { KEY_RELEASE };
        self.fake(&conn, kind, code, 0, 0)?;
        Self::sync(&conn)
    }

    /// Press a chord: modifiers down in order, the key down and up, modifiers up in reverse.
    /// Everything pressed is released even when a step fails.
    pub fn chord(&self, modifiers: &[u32], key: u32) -> Result<(), Error> {
        let mut pressed = Vec::new();
        let mut result = Ok(());
        for m in modifiers.iter().chain(std::iter::once(&key)) {
            match self.key(*m, true) {
                Ok(()) => pressed.push(*m),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        for k in pressed.iter().rev() {
            let up = self.key(*k, false);
            if result.is_ok() {
                result = up;
            }
        }
        result
    }

    /// Types `text` keystroke by keystroke, whatever the keyboard layout. Characters the
    /// keymap lacks are bound to spare keycodes in batches. A batch is typed once the focused
    /// client has read the map that binds it (or [`BIND_DEADLINE`] passed); its keycodes are
    /// rebound or released only once the focused client has read that map ([`X::remap`]).
    pub fn type_text(&self, text: &str) -> Result<(), Error> {
        self.type_into(text, None).map(|_| ())
    }

    /// [`X::type_text`], checking before each character that the active window is one
    /// `allowed` names; stops at the first that is not. Returns how many characters went out.
    pub fn type_into(&self, text: &str, allowed: Option<&Allowed>) -> Result<usize, Error> {
        let conn = self.lock();
        let shift = find(&conn, SHIFT_L)?.map(|(c, _)| c);
        let chars: Vec<char> = text.chars().collect();
        let mut bound: Vec<(u32, u8)> = Vec::new();
        let mut result = Ok(());
        let mut typed = 0;
        for (i, c) in chars.iter().enumerate() {
            if allowed.is_some_and(|a| !self.active_in(&conn, a).0) {
                break;
            }
            let ks = char_keysym(*c);
            let step = (|| -> Result<(), Error> {
                let (code, needs_shift) = match find(&conn, ks)? {
                    Some(found) => found,
                    None => match bound.iter().find(|(k, _)| *k == ks) {
                        Some((_, code)) => (*code, false),
                        None => {
                            self.bind_batch(&conn, &chars[i..], &mut bound)?;
                            // Toolkits (GTK among them) may refresh their keymap from the
                            // notify event on their own time: the batch is typed once the
                            // focused client has read the new map, or after a short bound.
                            self.await_keymap_read(&conn, BIND_DEADLINE)?;
                            let code = bound
                                .iter()
                                .find(|(k, _)| *k == ks)
                                .map(|(_, c)| *c)
                                .ok_or_else(|| Error::KeymapFull("no spare keycode".into()))?;
                            (code, false)
                        }
                    },
                };
                let shift = shift.filter(|_| needs_shift);
                if let Some(s) = shift {
                    self.fake(&conn, KEY_PRESS, s, 0, 0)?;
                }
                self.fake(&conn, KEY_PRESS, code, 0, 0)?;
                self.fake(&conn, KEY_RELEASE, code, 0, 0)?;
                if let Some(s) = shift {
                    self.fake(&conn, KEY_RELEASE, s, 0, 0)?;
                }
                Self::sync(&conn)
            })();
            if let Err(e) = step {
                result = Err(e);
                break;
            }
            typed += 1;
        }
        for (_, code) in bound {
            if let Err(e) = self.remap(&conn, code, 0) {
                tracing::debug!(code, %e, "cannot release a borrowed keycode");
            }
        }
        let _ = Self::sync(&conn);
        result.map(|()| typed)
    }

    /// Binds the next distinct unmapped keysyms of `rest` to the spare keycodes (rebinding
    /// waits for the keystrokes of the previous batch to be read, see [`X::remap`]).
    fn bind_batch(
        &self,
        conn: &RustConnection,
        rest: &[char],
        bound: &mut Vec<(u32, u8)>,
    ) -> Result<(), Error> {
        if self.scratch.is_empty() {
            return Err(Error::KeymapFull(
                "no spare keycode to type with; the keymap is full".into(),
            ));
        }
        bound.clear();
        for c in rest {
            if bound.len() == self.scratch.len() {
                break;
            }
            let ks = char_keysym(*c);
            if bound.iter().any(|(k, _)| *k == ks) || find(conn, ks)?.is_some() {
                continue;
            }
            let code = self.bind_scratch(conn, bound.len(), ks)?;
            bound.push((ks, code));
        }
        Ok(())
    }

    /// Binds `keysym` to spare keycode number `slot` and returns the keycode.
    fn bind_scratch(&self, conn: &RustConnection, slot: usize, keysym: u32) -> Result<u8, Error> {
        let Some(code) = self.scratch.get(slot).copied() else {
            return Err(Error::KeymapFull(format!(
                "no spare keycode to type keysym 0x{keysym:x}; the keymap is full"
            )));
        };
        self.remap(conn, code, keysym)?;
        Ok(code)
    }

    /// Binds `code` to `keysym` (0 releases it). Requests run in order, so the keystrokes sent
    /// after this use the new binding; clients, though, translate a keystroke with the map they
    /// fetch when they handle it. So when a borrowed keycode was pressed since the last change,
    /// this first waits until the focused client has read the map that change made (its keys
    /// are then translated with it), up to [`READ_DEADLINE`].
    fn remap(&self, conn: &RustConnection, code: u8, keysym: u32) -> Result<(), Error> {
        if self.scratch_used.swap(false, Ordering::SeqCst) {
            self.await_keymap_read(conn, READ_DEADLINE)?;
        }
        // Every client gets MappingNotify, this one too, and nothing else reads its events.
        while let Ok(Some(_)) = conn.poll_for_event() {}
        conn.change_keyboard_mapping(1, code, 2, &[keysym, keysym]).map_err(x_err)?;
        self.remaps.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    /// Waits until the focused client has read the keymap since our last change, up to
    /// `deadline` (a pause without RECORD).
    fn await_keymap_read(&self, conn: &RustConnection, deadline: Duration) -> Result<(), Error> {
        let Some(reads) = self.keymap.as_deref().filter(|k| k.live()) else {
            std::thread::sleep(FALLBACK_PAUSE);
            return Ok(());
        };
        // The keystrokes go to the focus window's client; None (0) and PointerRoot (1) name
        // none, and then any other client's read counts.
        let focus = conn.get_input_focus().map_err(x_err)?.reply().map_err(x_err)?.focus;
        let setup = conn.setup();
        let client = (focus > 1).then_some(focus & !setup.resource_id_mask);
        let sent = self.remaps.load(Ordering::SeqCst);
        if !reads.wait(client, setup.resource_id_base, sent, deadline) {
            tracing::debug!(focus, "the focused client did not read the keymap in time");
        }
        Ok(())
    }
}

fn clamp16(v: i32) -> i16 {
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}
