//! Images for `bench settle`: decoding a capture's or screenshot's PNG, and telling whether
//! an image shows a case's final state: equal to a reference screenshot taken well after the
//! action on every pixel that does not change on its own (a caret, a ticking clock: the
//! pixels where two references taken 1.1 s apart differ are masked).

use anyhow::Context as _;
use base64::Engine as _;
use serde_json::Value;

/// The share of unmasked pixels allowed to differ (anti-aliasing noise).
const SAME_BELOW: f64 = 0.0005;

pub struct Image {
    pub width: u32,
    pub height: u32,
    pixels: Vec<[u8; 3]>,
}

/// Decodes the PNG of a capture (`{data}`) or a screenshot result (`{result: {data}}`).
pub fn image_of(v: &Value) -> anyhow::Result<Image> {
    let data = v["data"].as_str().or(v["result"]["data"].as_str()).context("no image data")?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(data)?;
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info()?;
    let mut buf = vec![0; reader.output_buffer_size().context("image too large")?];
    let info = reader.next_frame(&mut buf)?;
    buf.truncate(info.buffer_size());
    let n = info.color_type.samples();
    let pixels = buf.chunks(n).map(|p| [p[0], p[1 % n], p[2 % n]]).collect();
    Ok(Image { width: info.width, height: info.height, pixels })
}

/// A case's final state: a reference and the pixels that change on their own.
pub struct Final {
    reference: Image,
    mask: Vec<bool>,
    pub masked: usize,
}

impl Final {
    /// From two references of the same final state taken a while apart.
    pub fn new(first: Image, second: &Image) -> Final {
        let same = (first.width, first.height) == (second.width, second.height);
        let mask: Vec<bool> = if same {
            first.pixels.iter().zip(&second.pixels).map(|(a, b)| a != b).collect()
        } else {
            vec![false; first.pixels.len()]
        };
        let masked = mask.iter().filter(|m| **m).count();
        Final { reference: first, mask, masked }
    }

    /// Whether `img` shows the final state.
    pub fn shown_in(&self, img: &Image) -> bool {
        let r = &self.reference;
        if (img.width, img.height) != (r.width, r.height) {
            return false;
        }
        let differ = img
            .pixels
            .iter()
            .zip(&r.pixels)
            .zip(&self.mask)
            .filter(|((a, b), masked)| !**masked && a != b)
            .count();
        (differ as f64) < SAME_BELOW * r.pixels.len() as f64
    }
}
