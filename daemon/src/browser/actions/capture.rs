//! What the page shows: its text or HTML, screenshots (sized from the image header) and PDF
//! artifacts.

use base64::Engine as _;
use serde_json::{json, Value};

use super::{El, Tab};
use crate::browser::BrowserError;

impl Tab {
    pub async fn content(&self, el: Option<&El>, html: bool) -> Result<String, BrowserError> {
        let v = match (el, html) {
            (Some(e), false) => {
                self.call(e, "return this.innerText ?? this.textContent;", &[]).await?
            }
            (Some(e), true) => self.call(e, "return this.outerHTML;", &[]).await?,
            (None, false) => self.eval("document.body ? document.body.innerText : ''").await?,
            (None, true) => self.eval("document.documentElement.outerHTML").await?,
        };
        Ok(v.as_str().unwrap_or_default().to_owned())
    }

    /// Capture the viewport or full page; `max_width` scales it down, and `scale` (image px
    /// per CSS px) is read from the image itself.
    pub async fn screenshot(
        &self,
        full_page: bool,
        format: &str,
        quality: Option<u64>,
        max_width: Option<u64>,
    ) -> Result<Value, BrowserError> {
        let m = self.cmd("Page.getLayoutMetrics", json!({})).await?;
        let vv = &m["cssVisualViewport"];
        let (w, h, x, y) = if full_page {
            let c = &m["cssContentSize"];
            (c["width"].as_f64().unwrap_or(0.0), c["height"].as_f64().unwrap_or(0.0), 0.0, 0.0)
        } else {
            (
                vv["clientWidth"].as_f64().unwrap_or(0.0),
                vv["clientHeight"].as_f64().unwrap_or(0.0),
                vv["pageX"].as_f64().unwrap_or(0.0),
                vv["pageY"].as_f64().unwrap_or(0.0),
            )
        };
        let want_scale = max_width.map(|mw| (mw as f64 / w.max(1.0)).min(1.0)).unwrap_or(1.0);
        let mut p = json!({"format": format, "fromSurface": true, "captureBeyondViewport": full_page,
                           "clip": {"x": x, "y": y, "width": w, "height": h, "scale": want_scale}});
        if let Some(q) = quality.filter(|_| format != "png") {
            p["quality"] = json!(q);
        }
        let r = self.cmd("Page.captureScreenshot", p).await?;
        let data = r["data"].as_str().unwrap_or_default().to_owned();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&data)
            .map_err(|e| BrowserError::Failed(format!("bad screenshot data: {e}")))?;
        let (iw, ih) = image_size(&bytes)
            .unwrap_or(((w * want_scale).round() as u32, (h * want_scale).round() as u32));
        Ok(json!({
            "mime": format!("image/{format}"),
            "width": iw, "height": ih,
            "scale": if w > 0.0 { f64::from(iw) / w } else { 1.0 },
            "coordinate_space": "viewport",
            "full_page": full_page,
            "bytes": bytes.len(),
            "data": data,
        }))
    }

    /// Print to PDF and save it as an artifact under the state dir.
    pub async fn pdf(&self) -> Result<Value, BrowserError> {
        let r = self.cmd("Page.printToPDF", json!({"printBackground": true})).await?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().unwrap_or_default())
            .map_err(|e| BrowserError::Failed(format!("bad PDF data: {e}")))?;
        let dir = self.state_dir.join("artifacts");
        std::fs::create_dir_all(&dir)
            .map_err(|e| BrowserError::Failed(format!("cannot create {}: {e}", dir.display())))?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        let path = dir.join(format!("{}-{}-{stamp}.pdf", self.browser_id, self.tab_id));
        std::fs::write(&path, &bytes)
            .map_err(|e| BrowserError::Failed(format!("cannot write {}: {e}", path.display())))?;
        Ok(json!({"artifact": {"path": path, "mime": "application/pdf", "bytes": bytes.len()}}))
    }
}

/// Width and height from a PNG, JPEG or WebP header.
pub fn image_size(b: &[u8]) -> Option<(u32, u32)> {
    if b.starts_with(b"\x89PNG") && b.len() >= 24 {
        let w = u32::from_be_bytes(b[16..20].try_into().ok()?);
        let h = u32::from_be_bytes(b[20..24].try_into().ok()?);
        return Some((w, h));
    }
    if b.starts_with(&[0xFF, 0xD8]) {
        let mut i = 2;
        while i + 9 < b.len() {
            if b[i] != 0xFF {
                i += 1;
                continue;
            }
            let marker = b[i + 1];
            let len = usize::from(u16::from_be_bytes([b[i + 2], b[i + 3]]));
            if (0xC0..=0xC3).contains(&marker) {
                let h = u32::from(u16::from_be_bytes([b[i + 5], b[i + 6]]));
                let w = u32::from(u16::from_be_bytes([b[i + 7], b[i + 8]]));
                return Some((w, h));
            }
            i += 2 + len;
        }
        return None;
    }
    if b.len() >= 30 && &b[0..4] == b"RIFF" && &b[8..12] == b"WEBP" {
        match &b[12..16] {
            b"VP8 " => {
                let w = u32::from(u16::from_le_bytes([b[26], b[27]]) & 0x3fff);
                let h = u32::from(u16::from_le_bytes([b[28], b[29]]) & 0x3fff);
                return Some((w, h));
            }
            b"VP8L" => {
                let bits = u32::from_le_bytes(b[21..25].try_into().ok()?);
                return Some(((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1));
            }
            b"VP8X" => {
                let w = u32::from_le_bytes([b[24], b[25], b[26], 0]) + 1;
                let h = u32::from_le_bytes([b[27], b[28], b[29], 0]) + 1;
                return Some((w, h));
            }
            _ => {}
        }
    }
    None
}
