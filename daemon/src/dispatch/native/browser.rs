//! Steps on the session's tab through DevTools (`target: "browser"`): coordinates are the
//! viewport's CSS pixels, keys go through the browser's key map, text is typed key by key
//! (inserted when it holds characters no US keyboard has). DevTools keeps no pointer, so
//! where it is and which buttons are down are kept here per tab (bounded).

use crate::secrets::Vault;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use super::step::{Pt, Step};
use super::Said;
use crate::browser::input::{self, KeyDef};
use crate::browser::mouse::{Button, Mouse};
use crate::browser::{BrowserError, Tab};
use crate::error::DaemonError;

/// Where a tab's pointer is and what it holds down.
#[derive(Debug, Clone, Default)]
struct Pointer {
    at: (f64, f64),
    pressed: Vec<Button>,
}

static POINTERS: LazyLock<Mutex<HashMap<String, Pointer>>> = LazyLock::new(Default::default);

fn pointer(tab: &Tab) -> Pointer {
    POINTERS.lock().map(|m| m.get(&tab.key()).cloned().unwrap_or_default()).unwrap_or_default()
}

fn keep(tab: &Tab, p: Pointer) {
    if let Ok(mut m) = POINTERS.lock() {
        if m.len() >= 1_024 {
            m.clear();
        }
        m.insert(tab.key(), p);
    }
}

fn f((x, y): Pt) -> (f64, f64) {
    (f64::from(x), f64::from(y))
}

/// A chord in the daemon's spelling as the browser's keys (`Page_Down` -> PageDown).
fn chord(c: &str) -> Result<Vec<KeyDef>, DaemonError> {
    let words: Vec<String> = super::keys::held_words(c)
        .into_iter()
        .map(|w| if w.chars().count() > 1 { w.replace('_', "") } else { w })
        .collect();
    input::parse_chord(&words.join("+")).map_err(DaemonError::ActionFailed)
}

/// The modifier bits of chords held down.
fn modifiers(hold: &[String]) -> Result<u32, DaemonError> {
    let mut bits = 0;
    for c in hold {
        for k in chord(c)? {
            bits |= input::modifier_bit(&k.key).unwrap_or(0);
        }
    }
    Ok(bits)
}

/// The browser's button for a step's.
fn name(b: super::step::Button) -> Button {
    use super::step::Button as B;
    match b {
        B::Left => Button::Left,
        B::Middle => Button::Middle,
        B::Right => Button::Right,
        B::Back => Button::Back,
        B::Forward => Button::Forward,
    }
}

/// Runs one step on `tab`.
pub async fn run(tab: &Tab, vault: &Vault, step: &Step) -> Result<Said, DaemonError> {
    let mut p = pointer(tab);
    let out = run_on(tab, vault, step, &mut p).await;
    keep(tab, p);
    out
}

async fn run_on(
    tab: &Tab,
    vault: &Vault,
    step: &Step,
    p: &mut Pointer,
) -> Result<Said, DaemonError> {
    match step {
        Step::Move { to, hold } => {
            let m = modifiers(hold)?;
            let b = p.pressed.first().copied().unwrap_or(Button::None);
            tab.mouse_raw(Mouse::Moved, f(*to), (b, 0), &p.pressed, m).await?;
            p.at = f(*to);
        }
        Step::Click { at, button, count, hold } => {
            let m = modifiers(hold)?;
            let at = at.map(f).unwrap_or(p.at);
            let b = name(*button);
            tab.mouse_raw(Mouse::Moved, at, (Button::None, 0), &p.pressed, m).await?;
            p.at = at;
            for i in 1..=u32::from(*count) {
                let mut down = p.pressed.clone();
                down.push(b);
                let pressed = tab.mouse_raw(Mouse::Pressed, at, (b, i), &down, m).await;
                let released = tab.mouse_raw(Mouse::Released, at, (b, i), &p.pressed, m).await;
                pressed?;
                released?;
            }
        }
        Step::Button { at, button, down } => {
            let at = at.map(f).unwrap_or(p.at);
            let b = name(*button);
            if at != p.at {
                tab.mouse_raw(Mouse::Moved, at, (Button::None, 0), &p.pressed, 0).await?;
                p.at = at;
            }
            if *down {
                p.pressed.push(b);
                tab.mouse_raw(Mouse::Pressed, at, (b, 1), &p.pressed, 0).await?;
            } else {
                p.pressed.retain(|x| *x != b);
                tab.mouse_raw(Mouse::Released, at, (b, 1), &p.pressed, 0).await?;
            }
        }
        Step::Drag { path, button, hold } => drag(tab, path, *button, hold, p).await?,
        Step::Keys(chords) => {
            for c in chords {
                tab.press(&chord(c)?, 0).await?;
            }
        }
        Step::HoldKey { chord: c, hold } => hold_key(tab, c, *hold).await?,
        Step::Type(text) => {
            let keyboard = text.chars().all(|c| c.is_ascii_graphic() || c == ' ' || c == '\n');
            if keyboard {
                tab.type_keys(text, 0).await?;
            } else {
                tab.insert_text(text).await?;
            }
        }
        Step::Scroll { at, pixels, hold, .. } => {
            let at = at.map(f).unwrap_or(p.at);
            tab.wheel_at(at, *pixels, modifiers(hold)?).await?;
            p.at = at;
        }
        Step::Wait(t) => tokio::time::sleep(*t).await,
        Step::Screenshot => {}
        Step::CursorPosition => {
            return Ok(Said::Cursor((p.at.0.round() as i32, p.at.1.round() as i32)));
        }
        Step::Zoom((x, y, w, h)) => {
            let (rgb, fw, _) = pixels(tab, vault).await?;
            return Ok(Said::Pixels(crop(&rgb, fw, (*x, *y, *w, *h)), *w, *h));
        }
    }
    Ok(Said::Acted(None))
}

/// Presses `button` at the path's first point, moves along it and lets go at its last.
async fn drag(
    tab: &Tab,
    path: &[Pt],
    button: super::step::Button,
    hold: &[String],
    p: &mut Pointer,
) -> Result<(), DaemonError> {
    let m = modifiers(hold)?;
    let b = name(button);
    let first = f(path[0]);
    tab.mouse_raw(Mouse::Moved, first, (Button::None, 0), &p.pressed, m).await?;
    let mut down = p.pressed.clone();
    down.push(b);
    tab.mouse_raw(Mouse::Pressed, first, (b, 1), &down, m).await?;
    let mut r = Ok(());
    for pt in &path[1..] {
        r = tab.mouse_raw(Mouse::Moved, f(*pt), (b, 0), &down, m).await;
        if r.is_err() {
            break;
        }
    }
    let last = f(path[path.len() - 1]);
    let up = tab.mouse_raw(Mouse::Released, last, (b, 1), &p.pressed, m).await;
    p.at = last;
    r?;
    up?;
    Ok(())
}

/// Holds a chord's keys down for `hold`, then lets them go in reverse.
async fn hold_key(tab: &Tab, c: &str, hold: std::time::Duration) -> Result<(), DaemonError> {
    let keys = chord(c)?;
    let mut bits = 0;
    let mut down = Ok(());
    let mut pressed = Vec::new();
    for k in &keys {
        bits |= input::modifier_bit(&k.key).unwrap_or(0);
        down = tab.key_event(true, k, bits).await;
        if down.is_err() {
            break;
        }
        pressed.push(k);
    }
    if down.is_ok() {
        tokio::time::sleep(hold).await;
    }
    for k in pressed.into_iter().rev() {
        let _ = tab.key_event(false, k, bits).await;
        bits &= !input::modifier_bit(&k.key).unwrap_or(0);
    }
    down?;
    Ok(())
}

/// The viewport's RGB pixels with their width and height, secrets painted over.
pub async fn pixels(tab: &Tab, vault: &Vault) -> Result<(Vec<u8>, u32, u32), DaemonError> {
    let png = crate::dispatch::secrets::viewport_png(vault, tab).await?;
    super::image::decode_png(&png).map_err(|e| BrowserError::BadAnswer(e).into())
}

/// A rectangle of an RGB image `w` pixels wide (clipped to it by the caller's frame).
fn crop(rgb: &[u8], w: u32, (x, y, cw, ch): (i32, i32, u32, u32)) -> Vec<u8> {
    let mut out = Vec::with_capacity((cw * ch * 3) as usize);
    for row in 0..ch {
        let from = (((y as u32 + row) * w + x as u32) * 3) as usize;
        let to = from + (cw * 3) as usize;
        if to <= rgb.len() {
            out.extend_from_slice(&rgb[from..to]);
        } else {
            out.resize(out.len() + (cw * 3) as usize, 0);
        }
    }
    out
}
