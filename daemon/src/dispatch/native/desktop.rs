//! Steps on the desktop, through the same XTest input as `computer.*` (nothing named: input
//! goes where the pointer or the focus is, as the model sees the whole screen). Keys and
//! buttons held by a step are the session's held ones while down, so an op that fails or
//! is cancelled half-way lets them go; a step that ends lets its own go itself.

use std::sync::Arc;
use std::time::Instant;

use super::step::{Button, Pt, Step};
use super::Said;
use crate::desktop::{Acted, Aim, Desktop, Dispatch, Wheel};
use crate::dispatch::Ctx;
use crate::error::DaemonError;

/// Runs one step; what it has to say (a position, a region's pixels), if anything.
pub async fn run(ctx: &Ctx, d: &Arc<Desktop>, step: &Step) -> Result<Said, DaemonError> {
    let free = Aim::Free;
    let acted = match step {
        Step::Move { to: (x, y), hold } => {
            Some(holding(ctx, d, hold, d.mouse_move(*x, *y, free)).await?)
        }
        Step::Click { at, button, count, hold } => {
            Some(click(ctx, d, *at, *button, *count, hold).await?)
        }
        Step::Button { at, button, down } => Some(press(ctx, d, *at, *button, *down).await?),
        Step::Drag { path, button, hold } => {
            Some(holding(ctx, d, hold, drag(ctx, d, path, *button)).await?)
        }
        Step::Keys(chords) => {
            let mut last = None;
            for c in chords {
                last = Some(d.key(c, free).await?);
            }
            last
        }
        Step::HoldKey { chord, hold } => {
            held_keys(ctx, chord, true);
            let down = d.key_toggle(chord, true, free).await;
            if down.is_ok() {
                // The model asked for the key to stay down this long; the op's deadline
                // and cancel still end it (and the pipeline lets the key go).
                tokio::time::sleep(*hold).await;
            }
            let up = d.key_toggle(chord, false, free).await;
            held_keys(ctx, chord, false);
            down?;
            Some(up?)
        }
        Step::Type(text) => Some(d.type_text(None, text, Dispatch::Foreground, free).await?),
        Step::Scroll { at, dx, dy, hold, .. } => {
            let (x, y) = match at {
                Some(p) => *p,
                None => d.pointer().await?,
            };
            let wheel = async {
                let mut last = None;
                for (n, neg, pos) in
                    [(*dy, Wheel::Up, Wheel::Down), (*dx, Wheel::Left, Wheel::Right)]
                {
                    if n != 0 {
                        let dir = if n < 0 { neg } else { pos };
                        last = Some(d.scroll(x, y, dir, n.unsigned_abs(), free).await?);
                    }
                }
                Ok::<_, crate::desktop::Error>(last)
            };
            holding(ctx, d, hold, wheel).await?
        }
        Step::Wait(t) => {
            tokio::time::sleep(*t).await;
            None
        }
        Step::Screenshot => None,
        Step::CursorPosition => return Ok(Said::Cursor(d.pointer().await?)),
        Step::Zoom(region) => {
            let (rgb, w, h) = d.screen_rgb(Some(*region)).await?;
            return Ok(Said::Pixels(rgb, w, h));
        }
    };
    Ok(Said::Acted(acted))
}

/// Clicks with keys held meanwhile.
async fn click(
    ctx: &Ctx,
    d: &Desktop,
    at: Option<Pt>,
    button: Button,
    count: u8,
    hold: &[String],
) -> Result<Acted, DaemonError> {
    let (x, y) = match at {
        Some(p) => p,
        None => d.pointer().await?,
    };
    holding(ctx, d, hold, d.click_at(x, y, button.x(), count, Aim::Free)).await
}

/// Runs `act` with the chords of `hold` pressed (each let go again, also on failure).
async fn holding<T, E: Into<DaemonError>>(
    ctx: &Ctx,
    d: &Desktop,
    hold: &[String],
    act: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, DaemonError> {
    let mut down = Vec::new();
    let mut pressed = Ok(());
    for chord in hold {
        held_keys(ctx, chord, true);
        down.push(chord);
        if let Err(e) = d.key_toggle(chord, true, Aim::Free).await {
            pressed = Err(DaemonError::from(e));
            break;
        }
    }
    let out = match pressed {
        Ok(()) => act.await.map_err(Into::into),
        Err(e) => Err(e),
    };
    for chord in down.into_iter().rev() {
        let _ = d.key_toggle(chord, false, Aim::Free).await;
        held_keys(ctx, chord, false);
    }
    out
}

/// A button down (held by the session until it comes up) or up.
async fn press(
    ctx: &Ctx,
    d: &Desktop,
    at: Option<Pt>,
    button: Button,
    down: bool,
) -> Result<Acted, DaemonError> {
    let b = button.x();
    if down {
        held_button(ctx, b, true);
    }
    let r = d.mouse_button(at, b, down, Aim::Free).await;
    if !down || r.is_err() {
        held_button(ctx, b, false);
    }
    Ok(r?)
}

/// Press at the path's first point, move through the rest, release at its last (released
/// also when a move fails).
async fn drag(ctx: &Ctx, d: &Desktop, path: &[Pt], button: Button) -> Result<Acted, DaemonError> {
    let (Some(first), Some(last)) = (path.first(), path.last()) else {
        return Err(DaemonError::ActionFailed("a drag needs a path of points".into()));
    };
    if path.len() == 2 {
        return Ok(d.drag(*first, *last, button.x(), Aim::Free).await?);
    }
    let b = button.x();
    held_button(ctx, b, true);
    let mut r = d.mouse_button(Some(*first), b, true, Aim::Free).await.map(|_| ());
    let started = Instant::now();
    for p in &path[1..] {
        if r.is_err() {
            break;
        }
        r = d.mouse_move(p.0, p.1, Aim::Free).await.map(|_| ());
    }
    tracing::trace!(points = path.len(), ms = started.elapsed().as_millis() as u64, "drag path");
    let up = d.mouse_button(Some(*last), b, false, Aim::Free).await;
    held_button(ctx, b, false);
    r?;
    Ok(up?)
}

fn held_keys(ctx: &Ctx, chord: &str, down: bool) {
    let Ok(mut h) = ctx.session.held.lock() else { return };
    let words = super::keys::held_words(chord);
    if down {
        for w in words {
            if !h.desktop_keys.contains(&w) {
                h.desktop_keys.push(w);
            }
        }
    } else {
        h.desktop_keys.retain(|k| !words.iter().any(|w| w.eq_ignore_ascii_case(k)));
    }
}

fn held_button(ctx: &Ctx, b: u8, down: bool) {
    let Ok(mut h) = ctx.session.held.lock() else { return };
    if down {
        h.desktop_buttons.insert(b);
    } else {
        h.desktop_buttons.remove(&b);
    }
}
