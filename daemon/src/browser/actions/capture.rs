//! What the page shows: its text or HTML, screenshots (sized from the image header) and PDF
//! artifacts.

use base64::Engine as _;
use chromiumoxide::cdp::browser_protocol::accessibility::GetFullAxTreeParams;
use chromiumoxide::cdp::browser_protocol::page::{
    CaptureScreenshotFormat, CaptureScreenshotParams, GetLayoutMetricsParams, PrintToPdfParams,
    Viewport,
};
use glovebox_protocol::results::browser as results;
use serde_json::{json, Value};

use super::{El, Tab};
use crate::browser::cdp::Raw;
use crate::browser::BrowserError;

/// What works on a tab (`probe`): script, the accessibility tree, layout metrics (which
/// screenshots need).
#[derive(Debug, Clone, Copy)]
pub struct Probed {
    pub script: bool,
    pub accessibility: bool,
    pub layout: bool,
}

impl Tab {
    /// Whether the tab is the one its window shows: a background tab paints nothing.
    pub async fn shown(&self) -> Result<bool, BrowserError> {
        Ok(self.eval::<Value>("document.visibilityState").await? == "visible")
    }

    /// One light call of each kind the tab's actions rely on.
    pub async fn probe(&self) -> Probed {
        let (script, ax, layout) = tokio::join!(
            self.eval::<Value>("1"),
            self.run(GetFullAxTreeParams { depth: Some(1), frame_id: None }),
            self.run(GetLayoutMetricsParams::default())
        );
        Probed { script: script.is_ok(), accessibility: ax.is_ok(), layout: layout.is_ok() }
    }

    /// The whole visible text of the page or an element (a form control's whole value), or
    /// the range `offset`, `length` of it in Unicode characters, at most `max` of them: cut
    /// inside the page, so DevTools never carries more.
    pub async fn text_range(
        &self,
        el: Option<&El>,
        offset: usize,
        length: Option<usize>,
        max: usize,
    ) -> Result<Ranged, BrowserError> {
        let want = json!({"offset": offset, "length": length, "max": max});
        let v = match el {
            Some(e) => {
                let body = format!("return ({RANGE})({WHOLE_TEXT}, a);");
                self.call::<Value>(e, &body, &[want]).await?
            }
            None => {
                let page = "(document.body ? document.body.innerText : '')";
                self.eval::<Value>(&format!("({RANGE})({page}, {want})")).await?
            }
        };
        Ranged::from_page(&v, offset)
    }

    /// The text or HTML of the page or an element, at most `max` characters: cut inside the
    /// page, so DevTools never carries more; `truncated` says the rest is left out.
    pub async fn content(
        &self,
        el: Option<&El>,
        html: bool,
        max: usize,
    ) -> Result<Bounded, BrowserError> {
        let v = match (el, html) {
            (Some(e), false) => {
                let body = "return (a.cut)(this.innerText ?? this.textContent ?? '', a.max);";
                self.call::<Value>(e, &bound_body(body), &[json!({"max": max})]).await?
            }
            (Some(e), true) => {
                self.call::<Value>(
                    e,
                    &bound_body("return (a.cut)(this.outerHTML, a.max);"),
                    &[json!({"max": max})],
                )
                .await?
            }
            (None, false) => {
                self.eval::<Value>(&format!(
                    "({CUT})(document.body ? document.body.innerText : '', {max})"
                ))
                .await?
            }
            (None, true) => {
                self.eval::<Value>(&format!("({CUT})(document.documentElement.outerHTML, {max})"))
                    .await?
            }
        };
        Ok(Bounded::from_page(&v))
    }

    /// Capture the viewport or full page; `max_width` scales it down, and `scale` (image px
    /// per CSS px) is read from the image itself.
    pub async fn screenshot(
        &self,
        full_page: bool,
        format: &str,
        quality: Option<u64>,
        max_width: Option<u64>,
        limit: ShotLimit,
    ) -> Result<results::Image, BrowserError> {
        let kind = format.parse::<CaptureScreenshotFormat>().map_err(|_| {
            BrowserError::Refused(format!("{format} is no image format a tab can capture"))
        })?;
        let mut p = CaptureScreenshotParams {
            format: Some(kind),
            quality: quality.filter(|_| format != "png").map(|q| q as i64),
            ..Default::default()
        };
        if !full_page && max_width.is_none() {
            return self.viewport_shot(format, p).await;
        }
        let m = self.run(GetLayoutMetricsParams::default()).await?;
        let vv = &m.css_visual_viewport;
        let (w, h, x, y) = if full_page {
            let c = &m.css_content_size;
            (c.width, c.height, 0.0, 0.0)
        } else {
            (vv.client_width, vv.client_height, vv.page_x, vv.page_y)
        };
        let want_scale = max_width.map(|mw| (mw as f64 / w.max(1.0)).min(1.0)).unwrap_or(1.0);
        // A very long or wide page is cut at `limit` (image pixels a side and in all) before
        // Chromium renders it (a larger image helps no model and could exhaust
        // the browser's memory); the answer says so.
        let (full_w, full_h) = (w, h);
        let (w, h) = limit.clip(w, h, want_scale);
        p.from_surface = Some(true);
        p.capture_beyond_viewport = Some(full_page);
        p.clip = Some(Viewport { x, y, width: w, height: h, scale: want_scale });
        let r = self.run(p).await?;
        let data: String = r.data.into();
        let (iw, ih) = data_size(&data)?
            .unwrap_or(((w * want_scale).round() as u32, (h * want_scale).round() as u32));
        let scale = if w > 0.0 { f64::from(iw) / w } else { 1.0 };
        let mut shot = image(format, (iw, ih), scale, full_page, data);
        if h < full_h || w < full_w {
            shot.truncated = Some(results::ImageCut {
                reason: "page larger than the image limit".into(),
                limit_px: limit.side,
                limit_pixels: limit.pixels,
                page_width: full_w,
                page_height: full_h,
            });
        }
        Ok(shot)
    }

    /// The plain viewport: the capture Chromium makes fastest (no clip, which would make it
    /// re-emulate the viewport), with the layout metrics fetched in the same round trip.
    async fn viewport_shot(
        &self,
        format: &str,
        params: CaptureScreenshotParams,
    ) -> Result<results::Image, BrowserError> {
        // Raw: the device-pixel `layoutViewport` the scale comes from is a field the crate's
        // `GetLayoutMetricsReturns` leaves out (it keeps only the CSS-pixel ones).
        let metrics = Raw::new("Page.getLayoutMetrics", json!({}));
        let (m, r) = tokio::join!(self.run(metrics), self.run(params));
        let (m, r) = (m?, r?);
        let data: String = r.data.into();
        let css_w = m["cssVisualViewport"]["clientWidth"].as_f64().unwrap_or(0.0);
        let (iw, ih) = data_size(&data)?.unwrap_or((css_w.round() as u32, 0));
        // The image also covers the scrollbar, so image width / CSS width would overstate
        // the scale: device pixels per CSS pixel come from the layout viewport in both units.
        let device = m["layoutViewport"]["clientWidth"].as_f64().unwrap_or(0.0);
        let css = m["cssLayoutViewport"]["clientWidth"].as_f64().unwrap_or(0.0);
        let scale = if device > 0.0 && css > 0.0 {
            device / css
        } else if css_w > 0.0 {
            f64::from(iw) / css_w
        } else {
            1.0
        };
        Ok(image(format, (iw, ih), scale, false, data))
    }

    /// Print to PDF and save it in the downloads dir (a file root), whose oldest files go
    /// while it holds more than `quota` bytes.
    pub async fn pdf(&self, quota: u64) -> Result<results::Pdf, BrowserError> {
        let print = PrintToPdfParams { print_background: Some(true), ..Default::default() };
        let r = self.run(print).await?;
        let data: &str = r.data.as_ref();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| BrowserError::BadAnswer(format!("bad PDF data: {e}")))?;
        let dir = self.downloads.clone();
        std::fs::create_dir_all(&dir).map_err(|e| BrowserError::Storage {
            what: dir.display().to_string(),
            reason: e.to_string(),
        })?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        let path = dir.join(format!("{}-{}-{stamp}.pdf", self.browser_id, self.tab_id));
        if bytes.len() as u64 > quota {
            return Err(BrowserError::OverQuota { what: "PDF", bytes: bytes.len(), quota });
        }
        // Created, never opened through a name already there: the downloads dir may be the
        // desktop user's, who could have put a symlink under the name.
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, &bytes));
        written.map_err(|e| BrowserError::Storage {
            what: path.display().to_string(),
            reason: e.to_string(),
        })?;
        let removed = crate::files::trim_to_quota(&dir, quota, Some(&path));
        let path = path.display().to_string();
        let artifact =
            results::Artifact { path, mime: "application/pdf".into(), bytes: bytes.len() };
        let removed_for_quota = removed.iter().map(|p| p.display().to_string()).collect();
        Ok(results::Pdf { artifact, removed_for_quota })
    }
}

/// Cuts a string in the page: `{text}` or `{text, total}` when it was longer than `max`.
const CUT: &str = "(s, max) => { s = String(s ?? ''); return s.length > max ? {text: s.slice(0, max), total: s.length} : {text: s}; }";

/// What an element says as text: a form control's whole value (a password's masked, as the
/// snapshot shows it; a select's chosen options' labels, one a line), else its rendered text
/// (`innerText`), else its `textContent` when it renders none (`display: none`).
const WHOLE_TEXT: &str = "(() => { const t = this.tagName; \
    if (t === 'INPUT') return this.type === 'password' ? '\\u2022'.repeat(this.value.length ? 4 : 0) : this.value; \
    if (t === 'TEXTAREA') return this.value; \
    if (t === 'SELECT') return [...this.selectedOptions].map((o) => o.label).join('\\n'); \
    return this.innerText ?? this.textContent ?? ''; })()";

/// `(s, {offset, length, max})`: the slice of `s` from the `offset`-th Unicode character, at
/// most `length` and `max` of them, counted by code point (a UTF-16 pair is one character,
/// as the agent counts them), without copying the string into an array.
const RANGE: &str = "(s, a) => { s = String(s ?? ''); const n = s.length; \
    const want = Math.min(a.length == null ? Infinity : a.length, a.max); \
    let i = 0, k = 0, start = a.offset === 0 ? 0 : -1, end = want === 0 ? start : -1; \
    while (i < n) { const c = s.charCodeAt(i); i += (c >= 0xD800 && c <= 0xDBFF && i + 1 < n) ? 2 : 1; k++; \
      if (k === a.offset) start = i; \
      if (start >= 0 && end < 0 && k - a.offset === want) end = i; } \
    if (start < 0) start = n; if (end < 0) end = n; \
    const text = s.slice(start, end); \
    return {text, total: k, returned: Math.max(0, Math.min(want, k - a.offset))}; }";

/// An element function body that sees [`CUT`] as `a.cut` (arguments travel as JSON).
fn bound_body(body: &str) -> String {
    format!("a = {{max: a.max, cut: {CUT}}}; {body}")
}

/// A range of an element's or the page's text, as the page cut it.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranged {
    pub text: String,
    /// The whole text's length in Unicode characters.
    pub total_chars: u64,
    pub offset: u64,
    /// How many characters `text` holds.
    pub returned: u64,
}

impl Ranged {
    fn from_page(v: &Value, offset: usize) -> Result<Ranged, BrowserError> {
        let total_chars = v["total"]
            .as_u64()
            .ok_or_else(|| BrowserError::BadAnswer(format!("the page read no text: {v}")))?;
        Ok(Ranged {
            text: v["text"].as_str().unwrap_or_default().to_owned(),
            total_chars,
            offset: offset as u64,
            returned: v["returned"].as_u64().unwrap_or(0),
        })
    }
}

/// Text cut to a bound inside the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Bounded {
    pub text: String,
    /// The full length in characters (UTF-16 units, as the page counts) when cut.
    pub total_chars: Option<u64>,
}

impl Bounded {
    fn from_page(v: &Value) -> Bounded {
        Bounded {
            text: v["text"].as_str().unwrap_or_default().to_owned(),
            total_chars: v["total"].as_u64(),
        }
    }
}

/// The largest page capture, in image pixels: a side (`--max-capture-side`) and the whole
/// (`--max-capture-pixels`). A larger image helps no model and can take Chromium down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShotLimit {
    pub side: u32,
    pub pixels: u64,
}

impl Default for ShotLimit {
    /// 16,384 px a side and 64 Mpx (2^26 pixels).
    fn default() -> Self {
        ShotLimit { side: 16_384, pixels: 64 * 1024 * 1024 }
    }
}

impl ShotLimit {
    /// The CSS clip (width, height) of a capture at `scale` image px per CSS px: each side
    /// at most `side` image pixels, and the area at most `pixels` (the height gives way, a
    /// page is read top-down).
    fn clip(self, w: f64, h: f64, scale: f64) -> (f64, f64) {
        let side = f64::from(self.side) / scale;
        let (w, h) = (w.min(side), h.min(side));
        let max_h = self.pixels as f64 / (w * scale).max(1.0) / scale;
        (w, h.min(max_h))
    }
}

fn image(
    format: &str,
    (width, height): (u32, u32),
    scale: f64,
    full_page: bool,
    data: String,
) -> results::Image {
    let padding = data.bytes().rev().take_while(|b| *b == b'=').count();
    results::Image {
        mime: format!("image/{format}"),
        width,
        height,
        scale,
        coordinate_space: "viewport".into(),
        full_page,
        bytes: data.len() / 4 * 3 - padding,
        data,
        truncated: None,
        redacted: None,
    }
}

/// The image size from base64 data: PNG and WebP from the first bytes only, JPEG (whose
/// size can sit anywhere) from all of it.
fn data_size(data: &str) -> Result<Option<(u32, u32)>, BrowserError> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let bad = |e: base64::DecodeError| BrowserError::BadAnswer(format!("bad screenshot data: {e}"));
    if data.len() > 64 && !data.starts_with("/9j/") {
        let head = b64.decode(&data[..64]).map_err(bad)?;
        if let Some(size) = image_size(&head) {
            return Ok(Some(size));
        }
    }
    Ok(image_size(&b64.decode(data).map_err(bad)?))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips_stay_under_the_side_and_area_limits() {
        let px = |(w, h): (f64, f64), s: f64| (w * s, h * s);
        let limit = ShotLimit::default();
        let max = limit.pixels as f64;
        assert_eq!(limit.clip(1280.0, 800.0, 1.0), (1280.0, 800.0));
        let (w, h) = px(limit.clip(100_000.0, 900.0, 1.0), 1.0);
        assert_eq!((w, h), (16_384.0, 900.0));
        let (w, h) = px(limit.clip(100_000.0, 100_000.0, 1.0), 1.0);
        assert!(w <= 16_384.0 && h <= 16_384.0 && w * h <= max, "{w} x {h}");
        let (w, h) = px(limit.clip(20_000.0, 300_000.0, 0.5), 0.5);
        assert!(w <= 16_384.0 && h <= 16_384.0 && w * h <= max + 1.0, "{w} x {h}");
        // A smaller limit from the flags.
        let small = ShotLimit { side: 1_000, pixels: 500_000 };
        let (w, h) = px(small.clip(4_000.0, 4_000.0, 1.0), 1.0);
        assert!(w <= 1_000.0 && h <= 1_000.0 && w * h <= 500_000.0, "{w} x {h}");
    }
}
