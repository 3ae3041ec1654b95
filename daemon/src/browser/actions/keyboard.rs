//! Trusted key input: single key events, chords released even on failure, inserted text.

use chromiumoxide::cdp::browser_protocol::input::{
    DispatchKeyEventParams, DispatchKeyEventType, InsertTextParams,
};

use super::Tab;
use crate::browser::cdp::Dialog;
use crate::browser::input::{self, KeyDef};
use crate::browser::BrowserError;

impl Tab {
    /// One key event; `modifiers` are the bits held while it happens.
    pub async fn key_event(
        &self,
        down: bool,
        k: &KeyDef,
        modifiers: u32,
    ) -> Result<(), BrowserError> {
        let mut key = k.key.clone();
        let mut text = k.text.clone();
        if modifiers & input::SHIFT != 0
            && key.len() == 1
            && key.chars().all(|c| c.is_ascii_lowercase())
        {
            key = key.to_ascii_uppercase();
            text = Some(key.clone());
        }
        if modifiers & (input::CTRL | input::ALT | input::META) != 0 {
            text = None;
        }
        let kind = match (down, text.is_some()) {
            (false, _) => DispatchKeyEventType::KeyUp,
            (true, true) => DispatchKeyEventType::KeyDown,
            (true, false) => DispatchKeyEventType::RawKeyDown,
        };
        let mut p = key_params(kind, &key, k, modifiers);
        p.location = Some(k.location.into());
        if let (true, Some(t)) = (down, &text) {
            p.text = Some(t.clone());
            p.unmodified_text = Some(t.clone());
        }
        self.run(p).await.map(|_| ())
    }

    /// Press a chord with `held` modifier bits already down; everything this call pressed is
    /// released even on failure. Returns a dialog the keys opened.
    pub async fn press(&self, chord: &[KeyDef], held: u32) -> Result<Option<Dialog>, BrowserError> {
        let mut mods = held;
        let mut pressed: Vec<&KeyDef> = Vec::new();
        let mut result = Ok(None);
        for k in chord {
            let bit = input::modifier_bit(&k.key).unwrap_or(0);
            match self.key_event(true, k, mods | bit).await {
                Ok(()) => {
                    mods |= bit;
                    pressed.push(k);
                }
                Err(BrowserError::DialogOpened(d)) => {
                    result = Ok(Some(d));
                    pressed.push(k);
                    break;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        for k in pressed.into_iter().rev() {
            let bit = input::modifier_bit(&k.key).unwrap_or(0);
            mods &= !bit;
            match self.key_event(false, k, mods).await {
                Err(BrowserError::DialogOpened(d)) if matches!(result, Ok(None)) => {
                    result = Ok(Some(d))
                }
                Err(e) if result.is_ok() && !matches!(e, BrowserError::DialogOpened(_)) => {
                    result = Err(e)
                }
                _ => {}
            }
        }
        result
    }

    /// Type `text` key by key as a US keyboard would (see [`input::stroke`]): per character
    /// a keyDown carrying its text, from which Chromium fires keydown, keypress and input,
    /// then a keyUp; Shift as a modifier of the shifted ones. The events are pipelined (at
    /// most [`IN_FLIGHT`] unanswered) and go out in order, which the tab keeps; waiting for
    /// each answer before the next would cost a round trip per event. Returns how many
    /// characters' keyDowns the tab acknowledged, and a dialog the keys opened (typing stops
    /// there).
    pub async fn type_keys(
        &self,
        text: &str,
        held: u32,
    ) -> Result<(usize, Option<Dialog>), BrowserError> {
        use futures::StreamExt as _;
        let events = text.chars().flat_map(|c| key_stroke(c, held));
        let mut acks = futures::stream::iter(events)
            .map(|(down, p)| async move { (down, self.run(p).await) })
            .buffered(IN_FLIGHT);
        let mut typed = 0;
        while let Some((down, r)) = acks.next().await {
            match r {
                Ok(_) => typed += usize::from(down),
                Err(BrowserError::DialogOpened(d)) => {
                    return Ok((typed + usize::from(down), Some(d)))
                }
                Err(e) => return Err(e),
            }
        }
        Ok((typed, None))
    }

    pub async fn insert_text(&self, text: &str) -> Result<Option<Dialog>, BrowserError> {
        match self.run(InsertTextParams::new(text)).await {
            Ok(_) => Ok(None),
            Err(BrowserError::DialogOpened(d)) => Ok(Some(d)),
            Err(e) => Err(e),
        }
    }
}

/// How many key events `type_keys` keeps unanswered: enough to hide the round trip, few
/// enough that a dialog or a failure stops the rest soon.
const IN_FLIGHT: usize = 32;

/// The two DevTools key events of one typed character (`true` marks the keyDown).
fn key_stroke(c: char, held: u32) -> [(bool, DispatchKeyEventParams); 2] {
    let (k, shift) = input::stroke(c);
    let mods = held | if shift { input::SHIFT } else { 0 };
    // With Control, Alt or Meta held a key types nothing, as on a keyboard.
    let text = k.text.as_deref().filter(|_| mods & (input::CTRL | input::ALT | input::META) == 0);
    let kind = match text {
        Some(_) => DispatchKeyEventType::KeyDown,
        None => DispatchKeyEventType::RawKeyDown,
    };
    let mut down = key_params(kind, &k.key, &k, mods);
    if let Some(t) = text {
        down.text = Some(t.to_owned());
        down.unmodified_text = Some(if shift { t.to_lowercase() } else { t.to_owned() });
    }
    let up = key_params(DispatchKeyEventType::KeyUp, &k.key, &k, mods);
    [(true, down), (false, up)]
}

/// A key event of `kind` for the key `key` (the name it goes by now: Shift may have
/// uppercased it) on the physical key `k`, with the modifier bits `mods` held.
pub(super) fn key_params(
    kind: DispatchKeyEventType,
    key: &str,
    k: &KeyDef,
    mods: u32,
) -> DispatchKeyEventParams {
    let mut p = DispatchKeyEventParams::new(kind);
    p.key = Some(key.to_owned());
    p.code = Some(k.code.clone());
    p.windows_virtual_key_code = Some(k.key_code.into());
    p.native_virtual_key_code = Some(k.key_code.into());
    p.modifiers = Some(mods.into());
    p
}
