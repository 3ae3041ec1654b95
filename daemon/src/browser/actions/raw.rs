//! Raw trusted input at viewport points, for callers that bring their own gestures (the
//! models' own computer tools, `dispatch/native`): one mouse event, one wheel event, and the
//! viewport's pixels as a PNG.

use base64::Engine as _;
use chromiumoxide::cdp::browser_protocol::page::{
    CaptureScreenshotFormat, CaptureScreenshotParams,
};

use super::Tab;
use crate::browser::mouse::{self, Button, Mouse};
use crate::browser::BrowserError;

impl Tab {
    /// One mouse event at a viewport point; `held` names the buttons down while it happens
    /// (DevTools' `buttons`), `modifiers` the modifier keys' bits.
    pub async fn mouse_raw(
        &self,
        kind: Mouse,
        at: (f64, f64),
        click: (Button, u32),
        held: &[Button],
        modifiers: u32,
    ) -> Result<(), BrowserError> {
        self.run(mouse::event(kind, at, click, held, modifiers)).await.map(|_| ())
    }

    /// A wheel event at a viewport point: `dx`, `dy` in CSS pixels (positive: right, down).
    pub async fn wheel_at(
        &self,
        at: (f64, f64),
        delta: (f64, f64),
        modifiers: u32,
    ) -> Result<(), BrowserError> {
        self.run(mouse::wheel(at, delta, modifiers)).await.map(|_| ())
    }

    /// The viewport as a PNG, as it is painted now.
    pub async fn viewport_png(&self) -> Result<Vec<u8>, BrowserError> {
        let p = CaptureScreenshotParams {
            format: Some(CaptureScreenshotFormat::Png),
            ..Default::default()
        };
        let r = self.run(p).await?;
        let data: &str = r.data.as_ref();
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| BrowserError::BadAnswer(format!("the screenshot is not base64: {e}")))
    }

    /// The viewport's size in CSS pixels, scrollbars included (what its screenshot covers).
    pub async fn viewport_size(&self) -> Result<(u32, u32), BrowserError> {
        let expr = "[innerWidth, innerHeight]";
        let r = self.run(super::world::evaluate(expr, None, super::world::Answer::Value)).await?;
        let v = r.result.value.unwrap_or_default();
        match (v[0].as_u64(), v[1].as_u64()) {
            (Some(w), Some(h)) if w > 0 && h > 0 => Ok((w as u32, h as u32)),
            _ => Err(BrowserError::BadAnswer(format!("the tab's viewport has no size: {v}"))),
        }
    }
}
