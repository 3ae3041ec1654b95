//! Trusted key input: single key events, chords released even on failure, inserted text.

use serde_json::json;

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
            (false, _) => "keyUp",
            (true, true) => "keyDown",
            (true, false) => "rawKeyDown",
        };
        let mut p = json!({"type": kind, "key": key, "code": k.code,
                           "windowsVirtualKeyCode": k.key_code, "nativeVirtualKeyCode": k.key_code,
                           "modifiers": modifiers, "location": k.location});
        if let (true, Some(t)) = (down, &text) {
            p["text"] = json!(t);
            p["unmodifiedText"] = json!(t);
        }
        self.cmd("Input.dispatchKeyEvent", p).await.map(|_| ())
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

    pub async fn insert_text(&self, text: &str) -> Result<Option<Dialog>, BrowserError> {
        match self.cmd("Input.insertText", json!({"text": text})).await {
            Ok(_) => Ok(None),
            Err(BrowserError::DialogOpened(d)) => Ok(Some(d)),
            Err(e) => Err(e),
        }
    }
}
