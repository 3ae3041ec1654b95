//! Keyboard actions: press a chord, type text, and hold or release single keys per tab.

use glovebox_protocol::actions::browser;
use glovebox_protocol::results::browser::{self as results, HeldKeys};
use serde_json::Value;

use super::forms::typed;
use super::TabCx;
use crate::browser::actions::{Input, Typed, Witness};
use crate::browser::input;
use crate::dispatch::secrets;
use crate::error::DaemonError;

pub(super) async fn press(cx: TabCx, p: browser::Press) -> Result<results::Press, DaemonError> {
    let mods = cx.held_modifiers();
    let chord = p.key.as_str();
    let keys = input::parse_chord(chord).map_err(|m| {
        DaemonError::Contract(glovebox_protocol::contract::Violation::new("key", m))
    })?;
    // The page must hear the keys (`browser/actions/witness.rs`).
    let w = Witness::new();
    let unarmed = cx.tab.arm_keys(w).await?;
    let dialog = cx.tab.press(&keys, mods).await?;
    let unchecked = cx.tab.heard_here(w, unarmed, dialog.is_some(), Input::KeyPress, chord).await?;
    Ok(results::Press { pressed: chord.to_owned(), held_modifiers: mods, dialog, unchecked })
}

/// The element named is focused first; else the text goes where the focus is, and that
/// element is read back.
pub(super) async fn keyboard_type(
    cx: TabCx,
    p: browser::KeyboardType,
) -> Result<results::KeyboardType, DaemonError> {
    let (tab, mods) = (&cx.tab, cx.held_modifiers());
    let keys = p.mode == browser::Mode::Keys;
    let target = match cx.element_opt(p.element.as_ref(), &p.common).await? {
        Some(e) => Some(e),
        None => tab.focused().await?,
    };
    let vault = &cx.ctx.daemon.config.secrets;
    if let Some(w) = secrets::wanted(vault, p.secret.as_deref(), p.secret_totp.as_deref())? {
        // A secret goes into a field whose page, frame and form are its own: never blind.
        let Some(e) = target else {
            return Err(DaemonError::SecretRefused {
                secret: w.secret.name.clone(),
                place: "the page: nothing has focus (name the field with ref)".into(),
                origins: w.secret.origins.clone(),
            });
        };
        let origin =
            secrets::check_page(tab, &e, &w.secret, cx.ctx.daemon.desktop().as_deref()).await?;
        let t = tab.type_text(&e, &w.text, keys, mods, false).await?;
        secrets::follow(&cx.ctx.daemon, &cx.ctx.session.id, &cx.tab, &w, origin);
        return typed::<browser::KeyboardType>(&w.shown, keys, t);
    }
    let text = p.text.as_deref().unwrap_or_default();
    match target {
        Some(e) => typed::<browser::KeyboardType>(
            text,
            keys,
            tab.type_text(&e, text, keys, mods, false).await?,
        ),
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
            typed::<browser::KeyboardType>(text, keys, t)
        }
    }
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
pub(super) async fn keydown(cx: TabCx, p: browser::Keydown) -> Result<HeldKeys, DaemonError> {
    let k = key_def(&p.key)?;
    let bit = input::modifier_bit(&k.key).unwrap_or(0);
    let tab_id = &cx.f.tab_id;
    cx.tab.key_event(true, &k, cx.held_modifiers() | bit).await?;
    if let Ok(mut h) = cx.ctx.session.held.lock() {
        if !h.browser_keys.iter().any(|(t, x)| t == tab_id && *x == k.key) {
            h.browser_keys.push((tab_id.clone(), k.key.clone()));
        }
    }
    Ok(HeldKeys { held: held(&cx), key: k.key })
}

pub(super) async fn keyup(cx: TabCx, p: browser::Keyup) -> Result<HeldKeys, DaemonError> {
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
    Ok(HeldKeys { held: held(&cx), key: k.key })
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
