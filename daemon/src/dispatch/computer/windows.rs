//! Windows and pixels: window operations, screenshots, window state, and the backend probe.

use std::time::Instant;

use glovebox_protocol::actions::computer::{self, Format, Operation};
use glovebox_protocol::actions::Region;
use glovebox_protocol::results::computer::{self as results, Availability, Image, Rect, Timing};

use super::snapshot::{budget, take_snapshot, Outline};
use super::{desktop, out, target};
use crate::desktop::x11::{ImageFormat, WindowOp};
use crate::desktop::Desktop;
use crate::dispatch::{Ctx, Output};
use crate::error::DaemonError;

pub(super) async fn window(
    ctx: Ctx,
    p: computer::Window,
) -> Result<Output<results::Window>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    // The contract makes window_id required here.
    let id = p.common.window_id.clone().unwrap_or_default();
    let op = match p.operation {
        Operation::Minimize => WindowOp::Minimize,
        Operation::Maximize => WindowOp::Maximize,
        Operation::Restore => WindowOp::Restore,
        Operation::Close => WindowOp::Close,
        Operation::Move => WindowOp::Move(p.x.unwrap_or(0) as i32, p.y.unwrap_or(0) as i32),
        Operation::Resize => WindowOp::Resize(p.width.unwrap_or(1), p.height.unwrap_or(1)),
    };
    let w = d.window_op(&id, op).await?;
    if matches!(op, WindowOp::Close) {
        if let Some(pid) = t.pid {
            if let Ok(mut snaps) = ctx.session.snapshots.lock() {
                if w.is_none() {
                    snaps.invalidate(&format!("app:{pid}"), "its window was closed");
                }
            }
        }
    }
    Ok(out(
        &t,
        results::Window {
            window_id: id,
            operation: p.operation.as_str().into(),
            closed: w.is_none(),
            window: w.map(Into::into),
            via: "ewmh".into(),
            actual_dispatch: "foreground".into(),
        },
    ))
}

/// A capture as results carry it (without `elapsed_ms`, which the caller adds when it times
/// the whole capture).
pub(in crate::dispatch) fn image(img: &crate::desktop::x11::Encoded, format: ImageFormat) -> Image {
    let (x, y, width, height) = img.region;
    Image {
        mime: format.mime().into(),
        width: img.width,
        height: img.height,
        scale: img.scale,
        coordinate_space: "screen".into(),
        region: Rect { x, y, width, height },
        captured_via: img.via.into(),
        timing: Timing { grab_ms: ms(img.grab), encode_ms: ms(img.encode) },
        data: base64(&img.data),
        elapsed_ms: None,
        redacted: (img.redacted > 0).then_some(img.redacted),
    }
}

/// Milliseconds with microsecond resolution.
fn ms(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// What a screenshot asks for.
struct Shot {
    region: Option<Region>,
    /// The contract narrows it to an image format for these actions.
    format: Format,
    quality: Option<u32>,
    max_width: Option<u32>,
}

impl Shot {
    /// At the table's defaults.
    fn plain() -> Shot {
        let p = computer::Screenshot::default();
        Shot { region: p.region, format: p.format, quality: p.quality, max_width: p.max_width }
    }
}

fn image_format(f: Format) -> ImageFormat {
    match f {
        Format::Jpeg => ImageFormat::Jpeg,
        Format::Webp => ImageFormat::Webp,
        _ => ImageFormat::Png,
    }
}

async fn capture(d: &Desktop, s: &Shot, window: Option<&str>) -> Result<Image, DaemonError> {
    let region = s.region.map(|r| (r.x as i32, r.y as i32, r.width, r.height));
    let format = image_format(s.format);
    let quality = s.quality.unwrap_or(80) as u8;
    let started = Instant::now();
    let img = d.screenshot(window, region, format, quality, s.max_width).await?;
    let elapsed_ms = Some(started.elapsed().as_millis() as u64);
    Ok(Image { elapsed_ms, ..image(&img, format) })
}

pub(super) async fn screenshot(
    ctx: Ctx,
    p: computer::Screenshot,
) -> Result<Output<results::Screenshot>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let s = Shot { region: p.region, format: p.format, quality: p.quality, max_width: p.max_width };
    Ok(out(&t, capture(&d, &s, p.common.window_id.as_deref()).await?))
}

pub(super) async fn get_window_state(
    ctx: Ctx,
    p: computer::GetWindowState,
) -> Result<Output<results::GetWindowState>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let snapshot = take_snapshot(&ctx, &d, &t, &Outline::whole()).await?.into();
    let window = d
        .windows()
        .await?
        .into_iter()
        .find(|w| Some(&w.window_id) == t.window_id.as_ref())
        .map(Into::into);
    let screenshot = if p.include_screenshot {
        Some(capture(&d, &Shot::plain(), p.common.window_id.as_deref()).await?)
    } else {
        None
    };
    Ok(out(&t, results::GetWindowState { window, snapshot, screenshot }))
}

pub(super) async fn state_and_screenshot(
    ctx: Ctx,
    p: computer::StateAndScreenshot,
) -> Result<Output<results::StateAndScreenshot>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let before = d
        .screenshot(None, Some((0, 0, 64, 64)), ImageFormat::Png, 80, None)
        .await
        .ok()
        .map(|i| i.data);
    let o = Outline {
        budget: budget(p.limit, p.query.as_deref(), p.disable_diffing),
        scope_ref: p.scope_ref.as_deref(),
        max_depth: p.max_depth,
    };
    let snapshot = take_snapshot(&ctx, &d, &t, &o).await?.into();
    let s = Shot { region: None, format: p.format, quality: p.quality, max_width: p.max_width };
    let window = t.window_id.as_deref().filter(|_| p.common.window_id.is_some());
    let screenshot = capture(&d, &s, window).await?;
    let after = d
        .screenshot(None, Some((0, 0, 64, 64)), ImageFormat::Png, 80, None)
        .await
        .ok()
        .map(|i| i.data);
    let consistent = before.is_some() && before == after;
    Ok(out(&t, results::StateAndScreenshot { snapshot, screenshot, consistent }))
}

pub(super) async fn probe(
    ctx: Ctx,
    _: computer::Probe,
) -> Result<Output<results::Probe>, DaemonError> {
    let d = desktop(&ctx)?;
    let apps = d.apps().await;
    let wins = d.windows().await;
    let shot = d.screenshot(None, Some((0, 0, 8, 8)), ImageFormat::Png, 80, None).await;
    let clip = d.clipboard_get(false).await;
    let (width, height) = d.screen();
    Ok(Output::new(results::Probe {
        display: results::Display {
            available: true,
            name: d.display().into(),
            width: width.into(),
            height: height.into(),
        },
        accessibility: word(apps.as_ref().err()),
        apps: apps.map(|a| a.len()).unwrap_or(0),
        windows: word(wins.err().as_ref()),
        input: word(None),
        screenshot: word(shot.err().as_ref()),
        clipboard: word(clip.err().as_ref()),
    }))
}

/// Works, or why not.
fn word(err: Option<&crate::desktop::Error>) -> Availability {
    Availability { available: err.is_none(), reason: err.map(ToString::to_string) }
}

/// Standard base64 with padding.
fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(T[(n >> 18) as usize & 63] as char);
        out.push(T[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 { T[(n >> 6) as usize & 63] as char } else { '=' });
        out.push(if c.len() > 2 { T[n as usize & 63] as char } else { '=' });
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_pads() {
        assert_eq!(super::base64(b"Ma"), "TWE=");
        assert_eq!(super::base64(b"Man"), "TWFu");
        assert_eq!(super::base64(b"M"), "TQ==");
    }
}
