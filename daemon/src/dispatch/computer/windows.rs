//! Windows and pixels: window operations, screenshots, window state, and the backend probe.

use std::time::Instant;

use glovebox_protocol::actions::computer::{self, Format, Operation};
use glovebox_protocol::actions::Region;
use serde_json::{json, Value};

use super::snapshot::{budget, take_snapshot, Outline};
use super::{desktop, out, target};
use crate::desktop::x11::{ImageFormat, WindowOp};
use crate::desktop::Desktop;
use crate::dispatch::{Ctx, Output};
use crate::error::DaemonError;

pub(super) async fn window(ctx: Ctx, p: computer::Window) -> Result<Output, DaemonError> {
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
        json!({"window_id": id, "operation": p.operation.as_str(), "closed": w.is_none(),
               "window": w, "via": "ewmh", "actual_dispatch": "foreground"}),
    ))
}

pub(in crate::dispatch) fn image_json(
    img: &crate::desktop::x11::Encoded,
    format: ImageFormat,
) -> Value {
    json!({"mime": format.mime(), "width": img.width, "height": img.height, "scale": img.scale,
           "coordinate_space": "screen",
           "region": {"x": img.region.0, "y": img.region.1, "width": img.region.2, "height": img.region.3},
           "captured_via": img.via,
           "timing": {"grab_ms": ms(img.grab), "encode_ms": ms(img.encode)},
           "data": base64(&img.data)})
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

async fn capture(d: &Desktop, s: &Shot, window: Option<&str>) -> Result<Value, DaemonError> {
    let region = s.region.map(|r| (r.x as i32, r.y as i32, r.width, r.height));
    let format = image_format(s.format);
    let quality = s.quality.unwrap_or(80) as u8;
    let started = Instant::now();
    let img = d.screenshot(window, region, format, quality, s.max_width).await?;
    let mut v = image_json(&img, format);
    v["elapsed_ms"] = json!(started.elapsed().as_millis() as u64);
    Ok(v)
}

pub(super) async fn screenshot(ctx: Ctx, p: computer::Screenshot) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let s = Shot { region: p.region, format: p.format, quality: p.quality, max_width: p.max_width };
    let v = capture(&d, &s, p.common.window_id.as_deref()).await?;
    Ok(out(&t, v))
}

pub(super) async fn get_window_state(
    ctx: Ctx,
    p: computer::GetWindowState,
) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let snap = take_snapshot(&ctx, &d, &t, &Outline::whole()).await?;
    let window =
        d.windows().await?.into_iter().find(|w| Some(&w.window_id) == t.window_id.as_ref());
    let shot = if p.include_screenshot {
        Some(capture(&d, &Shot::plain(), p.common.window_id.as_deref()).await?)
    } else {
        None
    };
    Ok(out(&t, json!({"window": window, "snapshot": snap, "screenshot": shot})))
}

pub(super) async fn state_and_screenshot(
    ctx: Ctx,
    p: computer::StateAndScreenshot,
) -> Result<Output, DaemonError> {
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
    let snap = take_snapshot(&ctx, &d, &t, &o).await?;
    let s = Shot { region: None, format: p.format, quality: p.quality, max_width: p.max_width };
    let window = t.window_id.as_deref().filter(|_| p.common.window_id.is_some());
    let shot = capture(&d, &s, window).await?;
    let after = d
        .screenshot(None, Some((0, 0, 64, 64)), ImageFormat::Png, 80, None)
        .await
        .ok()
        .map(|i| i.data);
    Ok(out(
        &t,
        json!({"snapshot": snap, "screenshot": shot, "consistent": before.is_some() && before == after}),
    ))
}

pub(super) async fn probe(ctx: Ctx, _: computer::Probe) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let apps = d.apps().await;
    let wins = d.windows().await;
    let shot = d.screenshot(None, Some((0, 0, 8, 8)), ImageFormat::Png, 80, None).await;
    let clip = d.clipboard_get(false).await;
    let word = |ok: bool, err: Option<String>| json!({"available": ok, "reason": err});
    let (w, h) = d.screen();
    Ok(Output::new(json!({
        "display": {"available": true, "name": d.display(), "width": w, "height": h},
        "accessibility": word(apps.is_ok(), apps.as_ref().err().map(|e| e.to_string())),
        "apps": apps.map(|a| a.len()).unwrap_or(0),
        "windows": word(wins.is_ok(), wins.err().map(|e| e.to_string())),
        "input": word(true, None),
        "screenshot": word(shot.is_ok(), shot.err().map(|e| e.to_string())),
        "clipboard": word(clip.is_ok(), clip.err().map(|e| e.to_string())),
    })))
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
