//! Raw trusted input at viewport points, for callers that bring their own gestures (the
//! models' own computer tools, `dispatch/native`): one mouse event, one wheel event, and the
//! viewport's pixels as a PNG.

use base64::Engine as _;
use serde_json::json;

use super::Tab;
use crate::browser::BrowserError;

/// The `buttons` bit of a DevTools button name.
fn bit(button: &str) -> u32 {
    match button {
        "left" => 1,
        "right" => 2,
        "middle" => 4,
        "back" => 8,
        "forward" => 16,
        _ => 0,
    }
}

impl Tab {
    /// One mouse event (`mouseMoved`, `mousePressed`, `mouseReleased`) at a viewport point;
    /// `pressed` names the buttons down while it happens (DevTools' `buttons`), `modifiers`
    /// the modifier keys' bits.
    pub async fn mouse_raw(
        &self,
        kind: &'static str,
        (x, y): (f64, f64),
        (button, count): (&str, u32),
        pressed: &[&str],
        modifiers: u32,
    ) -> Result<(), BrowserError> {
        let buttons: u32 = pressed.iter().map(|b| bit(b)).sum();
        self.cmd(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": button, "buttons": buttons,
                   "clickCount": count, "modifiers": modifiers}),
        )
        .await
        .map(|_| ())
    }

    /// A wheel event at a viewport point: `dx`, `dy` in CSS pixels (positive: right, down).
    pub async fn wheel_at(
        &self,
        (x, y): (f64, f64),
        (dx, dy): (f64, f64),
        modifiers: u32,
    ) -> Result<(), BrowserError> {
        self.cmd(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseWheel", "x": x, "y": y, "deltaX": dx, "deltaY": dy,
                   "modifiers": modifiers}),
        )
        .await
        .map(|_| ())
    }

    /// The viewport as a PNG, as it is painted now.
    pub async fn viewport_png(&self) -> Result<Vec<u8>, BrowserError> {
        let r = self.cmd("Page.captureScreenshot", json!({"format": "png"})).await?;
        let data = r["data"].as_str().unwrap_or_default();
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| BrowserError::Failed(format!("the screenshot is not base64: {e}")))
    }

    /// The viewport's size in CSS pixels, scrollbars included (what its screenshot covers).
    pub async fn viewport_size(&self) -> Result<(u32, u32), BrowserError> {
        let r = self
            .cmd(
                "Runtime.evaluate",
                json!({"expression": "[innerWidth, innerHeight]", "returnByValue": true}),
            )
            .await?;
        let v = &r["result"]["value"];
        match (v[0].as_u64(), v[1].as_u64()) {
            (Some(w), Some(h)) if w > 0 && h > 0 => Ok((w as u32, h as u32)),
            _ => Err(BrowserError::Failed(format!("the tab's viewport has no size: {v}"))),
        }
    }
}
