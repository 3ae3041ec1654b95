//! Windows and pixels: window operations, screenshots, window state, and the backend probe.

use std::time::Instant;

use glovebox_protocol::contract::Checked;
use serde_json::{json, Value};

use super::snapshot::take_snapshot;
use super::{desktop, int, out, s, target, Args, Fut};
use crate::desktop::x11::{ImageFormat, WindowOp};
use crate::desktop::Desktop;
use crate::dispatch::{Ctx, Output};
use crate::error::DaemonError;

pub(super) fn window(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let id = s(&a, "window_id").unwrap_or_default().to_owned();
        let op = match s(&a, "operation").unwrap_or_default() {
            "minimize" => WindowOp::Minimize,
            "maximize" => WindowOp::Maximize,
            "restore" => WindowOp::Restore,
            "close" => WindowOp::Close,
            "move" => {
                WindowOp::Move(int(&a, "x").unwrap_or(0) as i32, int(&a, "y").unwrap_or(0) as i32)
            }
            _ => WindowOp::Resize(
                int(&a, "width").unwrap_or(1) as u32,
                int(&a, "height").unwrap_or(1) as u32,
            ),
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
            json!({"window_id": id, "operation": s(&a, "operation"), "closed": w.is_none(),
                          "window": w, "via": "ewmh", "actual_dispatch": "foreground"}),
        ))
    })
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

fn image_format(a: &Args) -> ImageFormat {
    match s(a, "format") {
        Some("jpeg") => ImageFormat::Jpeg,
        Some("webp") => ImageFormat::Webp,
        _ => ImageFormat::Png,
    }
}

async fn capture(d: &Desktop, a: &Args, window: Option<&str>) -> Result<Value, DaemonError> {
    let region = a.get("region").and_then(Value::as_object).map(|r| {
        let g = |k: &str| r.get(k).and_then(Value::as_i64).unwrap_or(0);
        (g("x") as i32, g("y") as i32, g("width") as u32, g("height") as u32)
    });
    let format = image_format(a);
    let quality = int(a, "quality").unwrap_or(80) as u8;
    let max_width = int(a, "max_width").map(|w| w as u32);
    let started = Instant::now();
    let img = d.screenshot(window, region, format, quality, max_width).await?;
    let mut v = image_json(&img, format);
    v["elapsed_ms"] = json!(started.elapsed().as_millis() as u64);
    Ok(v)
}

pub(super) fn screenshot(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let v = capture(&d, &a, s(&a, "window_id")).await?;
        Ok(out(&t, v))
    })
}

pub(super) fn get_window_state(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let snap = take_snapshot(&ctx, &d, &t, &a).await?;
        let window =
            d.windows().await?.into_iter().find(|w| Some(&w.window_id) == t.window_id.as_ref());
        let shot = if a.get("include_screenshot").and_then(Value::as_bool).unwrap_or(true) {
            Some(capture(&d, &a, s(&a, "window_id")).await?)
        } else {
            None
        };
        Ok(out(&t, json!({"window": window, "snapshot": snap, "screenshot": shot})))
    })
}

pub(super) fn state_and_screenshot(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let before = d
            .screenshot(None, Some((0, 0, 64, 64)), ImageFormat::Png, 80, None)
            .await
            .ok()
            .map(|i| i.data);
        let snap = take_snapshot(&ctx, &d, &t, &a).await?;
        let shot = capture(&d, &a, t.window_id.as_deref().filter(|_| s(&a, "window_id").is_some()))
            .await?;
        let after = d
            .screenshot(None, Some((0, 0, 64, 64)), ImageFormat::Png, 80, None)
            .await
            .ok()
            .map(|i| i.data);
        Ok(out(
            &t,
            json!({"snapshot": snap, "screenshot": shot, "consistent": before.is_some() && before == after}),
        ))
    })
}

pub(super) fn probe(ctx: Ctx, _call: Checked) -> Fut {
    Box::pin(async move {
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
    })
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
