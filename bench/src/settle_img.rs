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

impl Image {
    /// Writes the image as a PNG (`bench settle --dump`).
    pub fn save(&self, path: &std::path::Path) -> anyhow::Result<()> {
        let file = std::io::BufWriter::new(std::fs::File::create(path)?);
        let mut enc = png::Encoder::new(file, self.width, self.height);
        enc.set_color(png::ColorType::Rgb);
        let data: Vec<u8> = self.pixels.iter().flatten().copied().collect();
        enc.write_header()?.write_image_data(&data)?;
        Ok(())
    }
}

/// A case's final state: a reference and the pixels that change on their own.
pub struct Final {
    pub reference: Image,
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

    /// Where `img` differs from the final state, when it does: the box around the unmasked
    /// pixels that differ ([x, y, width, height]) and how many they are.
    pub fn difference(&self, img: &Image) -> Option<([u32; 4], usize)> {
        let r = &self.reference;
        if (img.width, img.height) != (r.width, r.height) {
            return Some(([0, 0, img.width, img.height], img.pixels.len()));
        }
        let (mut lo, mut hi, mut differ) = ([u32::MAX; 2], [0u32; 2], 0usize);
        let pixels = img.pixels.iter().zip(&r.pixels).zip(&self.mask).enumerate();
        for (i, ((a, b), masked)) in pixels {
            if !*masked && a != b {
                differ += 1;
                let (x, y) = (i as u32 % r.width, i as u32 / r.width);
                lo = [lo[0].min(x), lo[1].min(y)];
                hi = [hi[0].max(x), hi[1].max(y)];
            }
        }
        let cut = (differ as f64) >= SAME_BELOW * r.pixels.len() as f64;
        cut.then(|| ([lo[0], lo[1], hi[0] - lo[0] + 1, hi[1] - lo[1] + 1], differ))
    }
}
