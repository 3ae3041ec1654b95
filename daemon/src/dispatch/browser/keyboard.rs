//! Keyboard actions: press a chord, type text, and hold or release single keys per tab.

use serde_json::{json, Value};

use super::forms::typed;
use super::target::{element, held_modifiers};
use super::{s, unsupported, with_dialog, On, OnTab};
use crate::browser::actions::Typed;
use crate::browser::input;
use crate::error::DaemonError;

/// `press`, `keyboard_type`, `keydown`, `keyup`; held keys are per session and tab.
pub(super) struct Keyboard;

impl OnTab for Keyboard {
    async fn act(on: On<'_>) -> Result<Value, DaemonError> {
        let On { ctx, tab, f, action, args, .. } = on;
        let mods = held_modifiers(ctx, &f.tab_id);
        Ok(match action {
            "press" => {
                let chord = s(args, "key").unwrap_or_default();
                let keys = input::parse_chord(chord).map_err(|m| {
                    DaemonError::Contract(glovebox_protocol::contract::Violation::new("key", m))
                })?;
                let d = tab.press(&keys, mods).await?;
                with_dialog(json!({"pressed": chord, "held_modifiers": mods}), d)
            }
            "keyboard_type" => {
                let text = s(args, "text").unwrap_or_default();
                let keys = s(args, "mode") == Some("keys");
                // The element named is focused first; else the text goes where the focus is,
                // and that element is read back.
                let target = match element(ctx, tab, args, "ref", "selector").await? {
                    Some(e) => Some(e),
                    None => tab.focused().await?,
                };
                match target {
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
                }
            }
            "keydown" | "keyup" => {
                let name = s(args, "key").unwrap_or_default();
                let k =
                    input::key_def(name).ok_or_else(|| {
                        DaemonError::Contract(glovebox_protocol::contract::Violation::new(
                    "key",
                    format!("unknown key {name:?}; keydown/keyup take one key such as Shift or a"),
                ))
                    })?;
                let bit = input::modifier_bit(&k.key).unwrap_or(0);
                if action == "keydown" {
                    tab.key_event(true, &k, mods | bit).await?;
                    if let Ok(mut h) = ctx.session.held.lock() {
                        if !h.browser_keys.iter().any(|(t, x)| *t == f.tab_id && *x == k.key) {
                            h.browser_keys.push((f.tab_id.clone(), k.key.clone()));
                        }
                    }
                } else {
                    let held = ctx
                        .session
                        .held
                        .lock()
                        .map(|h| h.browser_keys.iter().any(|(t, x)| *t == f.tab_id && *x == k.key))
                        .unwrap_or(false);
                    if !held {
                        return Err(DaemonError::ActionFailed(format!(
                            "{} is not held down on this tab",
                            k.key
                        )));
                    }
                    tab.key_event(false, &k, mods & !bit).await?;
                    if let Ok(mut h) = ctx.session.held.lock() {
                        h.browser_keys.retain(|(t, x)| !(*t == f.tab_id && *x == k.key));
                    }
                }
                let held: Vec<String> = ctx
                    .session
                    .held
                    .lock()
                    .map(|h| {
                        h.browser_keys
                            .iter()
                            .filter(|(t, _)| *t == f.tab_id)
                            .map(|(_, k)| k.clone())
                            .collect()
                    })
                    .unwrap_or_default();
                json!({"key": k.key, "held": held})
            }
            other => return Err(unsupported(other)),
        })
    }
}
