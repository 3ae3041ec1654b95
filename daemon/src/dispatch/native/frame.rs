//! The display a model was told about and the real screen (or viewport): points mapped from
//! one to the other, and the screen's pixels fitted into the declared size, letterboxed when
//! the aspects differ (black bars, centred), as the model sees its screenshots.

/// The display size a tool definition declares under `width` and `height` (`prefix` names
/// where they sit, for the refusal), or none when it declares neither.
pub fn declared_size(
    tool: &serde_json::Map<String, serde_json::Value>,
    (width, height): (&str, &str),
    prefix: &str,
) -> Result<Option<(u32, u32)>, String> {
    let size = |k: &str| match tool.get(k) {
        None => Ok(None),
        Some(v) => {
            v.as_u64().filter(|n| (1..=16_384).contains(n)).map(|n| Some(n as u32)).ok_or_else(
                || format!("{prefix}{k} must be a whole number of pixels from 1 to 16384"),
            )
        }
    };
    match (size(width)?, size(height)?) {
        (Some(w), Some(h)) => Ok(Some((w, h))),
        (None, None) => Ok(None),
        _ => Err(format!("{prefix}{width} and {prefix}{height} go together")),
    }
}

/// A declared display over a real one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// What the model was told: width and height in its pixels.
    pub declared: (u32, u32),
    /// The real screen or viewport.
    pub real: (u32, u32),
    /// Declared pixels per real pixel (at most one axis leaves bars).
    scale: f64,
    /// Where the real screen's picture starts in the declared one.
    offset: (u32, u32),
    /// The picture's size in declared pixels.
    content: (u32, u32),
}

impl Frame {
    /// `declared` over `real`; a zero size counts as the real one.
    pub fn new(declared: (u32, u32), real: (u32, u32)) -> Frame {
        let real = (real.0.max(1), real.1.max(1));
        let declared = if declared.0 == 0 || declared.1 == 0 { real } else { declared };
        let sx = f64::from(declared.0) / f64::from(real.0);
        let sy = f64::from(declared.1) / f64::from(real.1);
        let scale = sx.min(sy);
        let cw = ((f64::from(real.0) * scale).round() as u32).clamp(1, declared.0);
        let ch = ((f64::from(real.1) * scale).round() as u32).clamp(1, declared.1);
        let offset = ((declared.0 - cw) / 2, (declared.1 - ch) / 2);
        Frame { declared, real, scale, offset, content: (cw, ch) }
    }

    /// The real pixel under a declared point, or `None` when the point is outside the
    /// declared display or on a letterbox bar.
    pub fn to_real(self, x: f64, y: f64) -> Option<(i32, i32)> {
        let (dw, dh) = (f64::from(self.declared.0), f64::from(self.declared.1));
        if !(0.0..dw).contains(&x) || !(0.0..dh).contains(&y) {
            return None;
        }
        let rx = (x - f64::from(self.offset.0)) / self.scale;
        let ry = (y - f64::from(self.offset.1)) / self.scale;
        let (rw, rh) = (f64::from(self.real.0), f64::from(self.real.1));
        // Half a declared pixel of slack at the bars' edges, so the picture's own last
        // pixels map in.
        let slack = 0.5 / self.scale;
        if rx < -slack || ry < -slack || rx >= rw + slack || ry >= rh + slack {
            return None;
        }
        Some((rx.round().clamp(0.0, rw - 1.0) as i32, ry.round().clamp(0.0, rh - 1.0) as i32))
    }

    /// The declared point over a real pixel.
    pub fn to_declared(self, x: i32, y: i32) -> (i64, i64) {
        let dx = f64::from(x) * self.scale + f64::from(self.offset.0);
        let dy = f64::from(y) * self.scale + f64::from(self.offset.1);
        (dx.round() as i64, dy.round() as i64)
    }

    /// A declared rectangle `[x0, y0, x1, y1]` as a real one (x, y, width, height), or
    /// `None` when a corner is outside the display.
    pub fn region_to_real(self, r: [f64; 4]) -> Option<(i32, i32, u32, u32)> {
        let (w, h) = (f64::from(self.declared.0), f64::from(self.declared.1));
        let (x0, y0) = self.to_real(r[0].min(w - 1.0), r[1].min(h - 1.0))?;
        let (x1, y1) = self.to_real(r[2].min(w - 1.0), r[3].min(h - 1.0))?;
        let (w, h) = ((x1 - x0).max(0) as u32 + 1, (y1 - y0).max(0) as u32 + 1);
        Some((x0, y0, w, h))
    }

    /// The real screen's RGB pixels (`real` in size) as the declared display shows them.
    pub fn fit(self, rgb: &[u8]) -> Vec<u8> {
        let (rw, rh) = self.real;
        let (cw, ch) = self.content;
        let (dw, dh) = self.declared;
        if (cw, ch) == (rw, rh) && (dw, dh) == (rw, rh) {
            return rgb.to_vec();
        }
        let picture = if (cw, ch) == (rw, rh) {
            rgb.to_vec()
        } else {
            crate::desktop::x11::downscale(rgb, rw, rh, cw, ch)
        };
        let mut out = vec![0u8; (dw * dh * 3) as usize];
        let row = (cw * 3) as usize;
        for y in 0..ch {
            let from = (y * cw * 3) as usize;
            let to = (((y + self.offset.1) * dw + self.offset.0) * 3) as usize;
            out[to..to + row].copy_from_slice(&picture[from..from + row]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Frame;

    #[test]
    fn xga_on_a_wide_screen_is_letterboxed_and_its_centre_is_the_screens() {
        let f = Frame::new((1024, 768), (1280, 800));
        assert_eq!(f.to_real(512.0, 384.0), Some((640, 400)));
        assert_eq!(f.to_real(0.0, 64.0), Some((0, 0)));
        assert_eq!(f.to_real(1023.0, 703.0), Some((1279, 799)));
        // The bars above and below the picture are no screen.
        assert_eq!(f.to_real(512.0, 10.0), None);
        assert_eq!(f.to_real(512.0, 760.0), None);
        assert_eq!(f.to_real(1024.0, 384.0), None);
        assert_eq!(f.to_real(-1.0, 384.0), None);
        assert_eq!(f.to_declared(640, 400), (512, 384));
        assert_eq!(f.fit(&vec![255u8; 1280 * 800 * 3]).len(), 1024 * 768 * 3);
    }

    #[test]
    fn the_same_size_maps_one_to_one() {
        let f = Frame::new((1280, 800), (1280, 800));
        assert_eq!(f.to_real(17.0, 799.0), Some((17, 799)));
        assert_eq!(f.to_declared(17, 799), (17, 799));
        assert_eq!(f.region_to_real([10.0, 20.0, 109.0, 69.0]), Some((10, 20, 100, 50)));
        let px = vec![7u8; 1280 * 800 * 3];
        assert_eq!(f.fit(&px), px);
    }

    #[test]
    fn wxga_on_the_same_aspect_scales_without_bars() {
        let f = Frame::new((1280, 800), (2560, 1600));
        assert_eq!(f.to_real(640.0, 400.0), Some((1280, 800)));
        let img = f.fit(&vec![9u8; 2560 * 1600 * 3]);
        assert!(img.iter().all(|&b| b == 9), "no bars");
    }
}
