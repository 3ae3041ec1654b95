//! Keyboard actions: press a chord, type text, and hold or release single keys per tab.

use glovebox_protocol::actions::browser;
use serde_json::{json, Value};

use super::forms::typed;
use super::{with_dialog, TabCx};
use crate::browser::actions::Typed;
use crate::browser::input;
use crate::error::DaemonError;

pub(super) async fn press(cx: TabCx, p: browser::Press) -> Result<Value, DaemonError> {
    let mods = cx.held_modifiers();
    let chord = p.key.as_str();
    let keys = input::parse_chord(chord).map_err(|m| {
        DaemonError::Contract(glovebox_protocol::contract::Violation::new("key", m))
    })?;
    let d = cx.tab.press(&keys, mods).await?;
    Ok(with_dialog(json!({"pressed": chord, "held_modifiers": mods}), d))
}

/// The element named is focused first; else the text goes where the focus is, and that
/// element is read back.
pub(super) async fn keyboard_type(
    cx: TabCx,
    p: browser::KeyboardType,
) -> Result<Value, DaemonError> {
    let (tab, mods) = (&cx.tab, cx.held_modifiers());
    let text = p.text.as_str();
    let keys = p.mode == browser::Mode::Keys;
    let target = match cx.element_opt(p.element.as_ref(), &p.common).await? {
        Some(e) => Some(e),
        None => tab.focused().await?,
    };
    Ok(match target {
        Some(e) => typed(text, keys, tab.type_text(&e, text, keys, mods, false).await?),
        None => {
            let (sent, d) = if keys {
                tab.type_keys(text, mods).await?
            } else {
                (text.chars().count(), tab.insert_text(text).await?)
            };
            let t = Typed {
                value: Value::Null,
                verified: false,
                why: Some("nothing has focus, so nothing is read back"),
                sent,
                dialog: d,
            };
            typed(text, keys, t)
        }
    })
}

/// The one key `keydown` and `keyup` take.
fn key_def(name: &str) -> Result<input::KeyDef, DaemonError> {
    input::key_def(name).ok_or_else(|| {
        DaemonError::Contract(glovebox_protocol::contract::Violation::new(
            "key",
            format!("unknown key {name:?}; keydown/keyup take one key such as Shift or a"),
        ))
    })
}

/// Hold a key down on this tab; later input includes it until `keyup` or an error.
pub(super) async fn keydown(cx: TabCx, p: browser::Keydown) -> Result<Value, DaemonError> {
    let k = key_def(&p.key)?;
    let bit = input::modifier_bit(&k.key).unwrap_or(0);
    let tab_id = &cx.f.tab_id;
    cx.tab.key_event(true, &k, cx.held_modifiers() | bit).await?;
    if let Ok(mut h) = cx.ctx.session.held.lock() {
        if !h.browser_keys.iter().any(|(t, x)| t == tab_id && *x == k.key) {
            h.browser_keys.push((tab_id.clone(), k.key.clone()));
        }
    }
    Ok(json!({"key": k.key, "held": held(&cx)}))
}

pub(super) async fn keyup(cx: TabCx, p: browser::Keyup) -> Result<Value, DaemonError> {
    let k = key_def(&p.key)?;
    let bit = input::modifier_bit(&k.key).unwrap_or(0);
    let tab_id = &cx.f.tab_id;
    let is_held = cx
        .ctx
        .session
        .held
        .lock()
        .map(|h| h.browser_keys.iter().any(|(t, x)| t == tab_id && *x == k.key))
        .unwrap_or(false);
    if !is_held {
        return Err(DaemonError::NotHeld { key: k.key });
    }
    cx.tab.key_event(false, &k, cx.held_modifiers() & !bit).await?;
    if let Ok(mut h) = cx.ctx.session.held.lock() {
        h.browser_keys.retain(|(t, x)| !(t == tab_id && *x == k.key));
    }
    Ok(json!({"key": k.key, "held": held(&cx)}))
}

/// The keys this session holds on the tab.
fn held(cx: &TabCx) -> Vec<String> {
    cx.ctx
        .session
        .held
        .lock()
        .map(|h| {
            h.browser_keys
                .iter()
                .filter(|(t, _)| *t == cx.f.tab_id)
                .map(|(_, k)| k.clone())
                .collect()
        })
        .unwrap_or_default()
}
