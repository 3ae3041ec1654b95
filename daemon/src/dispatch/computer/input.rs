//! Keys and pointer: chords, held keys and buttons (tracked for release), scroll and drag.

use glovebox_protocol::contract::Checked;
use serde_json::{json, Value};

use super::{acted, button, desktop, element, int, point, s, target, Fut};
use crate::desktop::Aim;
use crate::dispatch::Ctx;
use crate::error::DaemonError;

pub(super) fn key(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let chord = s(&a, "key").unwrap_or_default();
        let r = d.key(chord, t.aim(&a, "ref")).await?;
        Ok(acted(&t, r, json!({"key": chord})))
    })
}

fn held_keys(ctx: &Ctx) -> Vec<String> {
    ctx.session.held.lock().map(|h| h.desktop_keys.clone()).unwrap_or_default()
}

pub(super) fn keydown(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let chord = s(&a, "key").unwrap_or_default().to_owned();
        crate::desktop::keys::parse_chord(&chord).map_err(|reason| DaemonError::Unsupported {
            tool: "computer".into(),
            action: "keydown".into(),
            reason,
            available: vec![],
        })?;
        // Track first, so a failure half-way still releases what went down.
        let names: Vec<String> = chord_words(&chord);
        if let Ok(mut h) = ctx.session.held.lock() {
            for n in &names {
                if !h.desktop_keys.contains(n) {
                    h.desktop_keys.push(n.clone());
                }
            }
        }
        let r = d.key_toggle(&chord, true, t.aim(&a, "ref")).await?;
        Ok(acted(&t, r, json!({"held": held_keys(&ctx)})))
    })
}

/// The words of a chord as held-key names (`Control+Shift+T` -> Control, Shift, T).
fn chord_words(chord: &str) -> Vec<String> {
    if chord.trim() == "+" {
        return vec!["+".into()];
    }
    let mut words: Vec<String> =
        chord.split('+').filter(|w| !w.is_empty()).map(String::from).collect();
    if chord.ends_with("++") {
        words.push("+".into());
    }
    words
}

pub(super) fn keyup(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let chord = s(&a, "key").unwrap_or_default().to_owned();
        let r = d.key_toggle(&chord, false, Aim::Free).await;
        if let Ok(mut h) = ctx.session.held.lock() {
            let names = chord_words(&chord);
            h.desktop_keys.retain(|k| !names.iter().any(|n| n.eq_ignore_ascii_case(k)));
        }
        Ok(acted(&t, r?, json!({"held": held_keys(&ctx)})))
    })
}

pub(super) fn scroll(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let aim = t.aim(&a, "ref");
        let (x, y) = match element(&ctx, &t, &a, "ref")? {
            Some(el) => d.center(&el).await?,
            None => match point(&d, &a, "x", "y", "nx", "ny") {
                Some(p) => p,
                // No point: the middle of the named target's window, else of the screen.
                None => d.target_center(aim).await?.unwrap_or_else(|| {
                    let (w, h) = d.screen();
                    (i32::from(w) / 2, i32::from(h) / 2)
                }),
            },
        };
        let direction = s(&a, "direction").unwrap_or("down");
        let clicks = match (int(&a, "amount"), a.get("pages").and_then(Value::as_f64)) {
            (Some(px), _) => (px as u32).div_ceil(50),
            (None, Some(p)) => (p * 8.0).ceil() as u32,
            _ => 3,
        };
        let r = d.scroll(x, y, direction, clicks, aim).await?;
        Ok(acted(&t, r, json!({"direction": direction, "wheel_clicks": clicks})))
    })
}

pub(super) fn drag(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let from = point(&d, &a, "x", "y", "nx", "ny")
            .ok_or_else(|| DaemonError::ActionFailed("drag needs a start point".into()))?;
        let to = match element(&ctx, &t, &a, "target_ref")? {
            Some(el) => d.center(&el).await?,
            None => point(&d, &a, "to_x", "to_y", "to_nx", "to_ny")
                .ok_or_else(|| DaemonError::ActionFailed("drag needs a drop point".into()))?,
        };
        let r = d.drag(from, to, button(&a), t.aim(&a, "target_ref")).await?;
        Ok(acted(&t, r, json!({"from": {"x": from.0, "y": from.1}, "to": {"x": to.0, "y": to.1}})))
    })
}

fn held_buttons(ctx: &Ctx) -> Vec<u8> {
    ctx.session.held.lock().map(|h| h.desktop_buttons.iter().copied().collect()).unwrap_or_default()
}

pub(super) fn mouse_move(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let (x, y) = point(&d, &a, "x", "y", "nx", "ny")
            .ok_or_else(|| DaemonError::ActionFailed("mouse_move needs a point".into()))?;
        let r = d.mouse_move(x, y, t.aim(&a, "ref")).await?;
        Ok(acted(&t, r, json!({"buttons_held": held_buttons(&ctx)})))
    })
}

pub(super) fn mouse_down(ctx: Ctx, call: Checked) -> Fut {
    mouse_updown(ctx, call, true)
}

pub(super) fn mouse_up(ctx: Ctx, call: Checked) -> Fut {
    mouse_updown(ctx, call, false)
}

fn mouse_updown(ctx: Ctx, call: Checked, down: bool) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let b = button(&a);
        let at = point(&d, &a, "x", "y", "nx", "ny");
        if down {
            if let Ok(mut h) = ctx.session.held.lock() {
                h.desktop_buttons.insert(b);
            }
        }
        let r = d.mouse_button(at, b, down, if down { t.aim(&a, "ref") } else { Aim::Free }).await;
        if !down || r.is_err() {
            if let Ok(mut h) = ctx.session.held.lock() {
                h.desktop_buttons.remove(&b);
            }
        }
        Ok(acted(&t, r?, json!({"buttons_held": held_buttons(&ctx)})))
    })
}
