//! Keys and pointer: chords, held keys and buttons (tracked for release), scroll and drag.

use glovebox_protocol::actions::computer;
use glovebox_protocol::actions::{keys, Target};
use glovebox_protocol::results::computer::{self as results, Point};

use super::{button, desktop, element, out, point, target};
use crate::desktop::Aim;
use crate::dispatch::{Ctx, Output};
use crate::error::DaemonError;

pub(super) async fn key(ctx: Ctx, p: computer::Key) -> Result<Output<results::Key>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let acted = d.key(&p.key, t.aim(None)).await?;
    Ok(out(&t, results::Key { acted, key: p.key }))
}

fn held_keys(ctx: &Ctx) -> Vec<String> {
    ctx.session.held.lock().map(|h| h.desktop_keys.clone()).unwrap_or_default()
}

pub(super) async fn keydown(
    ctx: Ctx,
    p: computer::Keydown,
) -> Result<Output<results::Keydown>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let chord = p.key;
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
    let acted = d.key_toggle(&chord, true, t.aim(None)).await?;
    Ok(out(&t, results::HeldKeys { acted, held: held_keys(&ctx) }))
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

pub(super) async fn keyup(
    ctx: Ctx,
    p: computer::Keyup,
) -> Result<Output<results::Keyup>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let chord = p.key;
    let r = d.key_toggle(&chord, false, Aim::Free).await;
    if let Ok(mut h) = ctx.session.held.lock() {
        let names = chord_words(&chord);
        h.desktop_keys.retain(|k| !names.iter().any(|n| n.eq_ignore_ascii_case(k)));
    }
    Ok(out(&t, results::HeldKeys { acted: r?, held: held_keys(&ctx) }))
}

pub(super) async fn scroll(
    ctx: Ctx,
    p: computer::Scroll,
) -> Result<Output<results::Scroll>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let named = p.target.as_ref().and_then(|t| t.element()).map(String::as_str);
    let aim = t.aim(named);
    let (x, y) = match &p.target {
        Some(Target::Element(r)) => d.center(&element(&ctx, &t, r)?).await?,
        Some(Target::Point(pt)) => point(&d, &t, pt)?,
        // No point: the middle of the named target's window, else of the screen.
        None => d.target_center(aim).await?.unwrap_or_else(|| {
            let (w, h) = d.screen();
            (i32::from(w) / 2, i32::from(h) / 2)
        }),
    };
    let direction = p.direction.as_str();
    let clicks = match (p.amount, p.pages) {
        (Some(px), _) => px.div_ceil(50),
        (None, Some(pages)) => (pages * 8.0).ceil() as u32,
        _ => 3,
    };
    let acted = d.scroll(x, y, p.direction.into(), clicks, aim).await?;
    Ok(out(&t, results::Scroll { acted, direction: direction.into(), wheel_clicks: clicks }))
}

pub(super) async fn drag(
    ctx: Ctx,
    p: computer::Drag,
) -> Result<Output<results::Drag>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let from = point(&d, &t, &p.point)?;
    // The drop target: an element, else a point (the contract asks for one of them).
    let to = match (&p.target_ref, keys::point(p.to_x, p.to_y, p.to_nx, p.to_ny)) {
        (Some(r), _) => d.center(&element(&ctx, &t, r)?).await?,
        (None, Some(pt)) => point(&d, &t, &pt)?,
        (None, None) => return Err(crate::dispatch::no_drop_target("computer.drag")),
    };
    let acted = d.drag(from, to, button(p.button), t.aim(p.target_ref.as_deref())).await?;
    let (from, to) = (Point { x: from.0, y: from.1 }, Point { x: to.0, y: to.1 });
    Ok(out(&t, results::Drag { acted, from, to }))
}

fn held_buttons(ctx: &Ctx) -> Vec<u8> {
    ctx.session.held.lock().map(|h| h.desktop_buttons.iter().copied().collect()).unwrap_or_default()
}

pub(super) async fn mouse_move(
    ctx: Ctx,
    p: computer::MouseMove,
) -> Result<Output<results::MouseMove>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let (x, y) = point(&d, &t, &p.point)?;
    let acted = d.mouse_move(x, y, t.aim(None)).await?;
    Ok(out(&t, results::Pointer { acted, buttons_held: held_buttons(&ctx) }))
}

pub(super) async fn mouse_down(
    ctx: Ctx,
    p: computer::MouseDown,
) -> Result<Output<results::MouseDown>, DaemonError> {
    mouse_button(&ctx, &p.common, p.point.as_ref(), p.button, true).await
}

pub(super) async fn mouse_up(
    ctx: Ctx,
    p: computer::MouseUp,
) -> Result<Output<results::MouseUp>, DaemonError> {
    mouse_button(&ctx, &p.common, p.point.as_ref(), p.button, false).await
}

/// Press or release a button, held in the session until released or an error.
async fn mouse_button(
    ctx: &Ctx,
    common: &computer::Common,
    at: Option<&computer::Point>,
    b: computer::Button,
    down: bool,
) -> Result<Output<results::Pointer>, DaemonError> {
    let d = desktop(ctx)?;
    let t = target(ctx, &d, common).await?;
    let b = button(b);
    let at = at.map(|pt| point(&d, &t, pt)).transpose()?;
    if down {
        if let Ok(mut h) = ctx.session.held.lock() {
            h.desktop_buttons.insert(b);
        }
    }
    let r = d.mouse_button(at, b, down, if down { t.aim(None) } else { Aim::Free }).await;
    if !down || r.is_err() {
        if let Ok(mut h) = ctx.session.held.lock() {
            h.desktop_buttons.remove(&b);
        }
    }
    Ok(out(&t, results::Pointer { acted: r?, buttons_held: held_buttons(ctx) }))
}
