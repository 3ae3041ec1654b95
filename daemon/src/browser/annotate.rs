//! Ref labels drawn on a captured PNG: an outline round each element's box and a tag with its
//! ref (`e12`) in a small bitmap font. Drawing on the image, not in the page, leaves the page
//! exactly as it was: no overlay to remove, no mutation for the page's observers to see.

use base64::Engine as _;

use super::BrowserError;

/// One element to label: its ref and its box in CSS pixels of the viewport.
#[derive(Debug, Clone)]
pub struct Tag {
    pub r#ref: String,
    pub bounds: (f64, f64, f64, f64),
}

/// Strong colours that stay readable with white text; neighbours differ.
const PALETTE: &[[u8; 3]] =
    &[[220, 20, 60], [0, 102, 204], [0, 128, 0], [204, 85, 0], [128, 0, 160]];

/// A 5x7 font for what refs are made of: `e` and the digits (rows top to bottom, bit 4 left).
fn glyph(c: char) -> [u8; 7] {
    match c {
        '0' => [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        '1' => [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        '2' => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        '3' => [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        '4' => [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        '5' => [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        '6' => [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        '7' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        '8' => [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        '9' => [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        'e' => [0x00, 0x00, 0x0E, 0x11, 0x1F, 0x10, 0x0E],
        _ => [0; 7],
    }
}

/// An RGBA image being drawn on.
struct Canvas {
    w: i64,
    h: i64,
    px: Vec<u8>,
}

impl Canvas {
    fn fill(&mut self, x: i64, y: i64, w: i64, h: i64, rgb: [u8; 3]) {
        let (x0, y0) = (x.max(0), y.max(0));
        let (x1, y1) = ((x + w).min(self.w), (y + h).min(self.h));
        for yy in y0..y1 {
            for xx in x0..x1 {
                let i = ((yy * self.w + xx) * 4) as usize;
                self.px[i..i + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
            }
        }
    }

    fn outline(&mut self, x: i64, y: i64, w: i64, h: i64, t: i64, rgb: [u8; 3]) {
        self.fill(x, y, w, t, rgb);
        self.fill(x, y + h - t, w, t, rgb);
        self.fill(x, y, t, h, rgb);
        self.fill(x + w - t, y, t, h, rgb);
    }

    /// A filled tag with `text` in white at the first spot round the box `(bx, by, bw, bh)`
    /// that no earlier tag covers (above its top-left corner, just inside it, below it, above
    /// its top-right corner), kept inside the image; `placed` holds the tags drawn so far.
    fn tag(
        &mut self,
        text: &str,
        (bx, by, bw, bh): (i64, i64, i64, i64),
        k: i64,
        rgb: [u8; 3],
        placed: &mut Vec<(i64, i64, i64, i64)>,
    ) {
        let n = text.chars().count() as i64;
        let (w, h) = (n * 6 * k - k + 2 * k, 7 * k + 2 * k);
        let inside = |(x, y): (i64, i64)| (x.min(self.w - w).max(0), y.min(self.h - h).max(0));
        let spots = [(bx, by - h), (bx, by), (bx, by + bh), (bx + bw - w, by - h)].map(inside);
        let free = |&(x, y): &(i64, i64)| {
            placed
                .iter()
                .all(|&(px, py, pw, ph)| x >= px + pw || px >= x + w || y >= py + ph || py >= y + h)
        };
        let (x, y) = spots.iter().copied().find(free).unwrap_or(spots[0]);
        placed.push((x, y, w, h));
        self.fill(x, y, w, h, rgb);
        for (i, c) in text.chars().enumerate() {
            let gx = x + k + i as i64 * 6 * k;
            for (row, bits) in glyph(c).iter().enumerate() {
                for col in 0..5 {
                    if bits & (0x10 >> col) != 0 {
                        self.fill(gx + col * k, y + k + row as i64 * k, k, k, [255, 255, 255]);
                    }
                }
            }
        }
    }
}

/// Draw `tags` on the base64 PNG `data` whose pixels are `scale` times CSS pixels; returns the
/// new base64 PNG.
pub fn draw(data: &str, scale: f64, tags: &[Tag]) -> Result<String, BrowserError> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let bad =
        |e: &dyn std::fmt::Display| BrowserError::BadAnswer(format!("annotating failed: {e}"));
    let bytes = b64.decode(data).map_err(|e| bad(&e))?;
    let mut canvas = decode(&bytes).map_err(|e| bad(&e))?;
    let scale = if scale.is_finite() && scale > 0.0 { scale } else { 1.0 };
    let k = (scale * 2.0).round().clamp(1.0, 4.0) as i64;
    let line = (scale * 2.0).round().clamp(1.0, 4.0) as i64;
    let px = |v: f64| (v * scale).round() as i64;
    for (i, t) in tags.iter().enumerate() {
        let rgb = PALETTE[i % PALETTE.len()];
        let (x, y, w, h) = t.bounds;
        let (x, y, w, h) = (px(x), px(y), px(w).max(1), px(h).max(1));
        canvas.outline(x, y, w, h, line.min(w).min(h), rgb);
    }
    // Tags after every outline, so no outline crosses a tag's text.
    let mut placed = Vec::with_capacity(tags.len());
    for (i, t) in tags.iter().enumerate() {
        let rgb = PALETTE[i % PALETTE.len()];
        let (x, y, w, h) = t.bounds;
        canvas.tag(&t.r#ref, (px(x), px(y), px(w), px(h)), k, rgb, &mut placed);
    }
    let png = encode(&canvas).map_err(|e| bad(&e))?;
    Ok(b64.encode(png))
}

fn decode(bytes: &[u8]) -> Result<Canvas, png::DecodingError> {
    let mut d = png::Decoder::new(std::io::Cursor::new(bytes));
    d.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = d.read_info()?;
    let size = reader.output_buffer_size().unwrap_or(0);
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf)?;
    buf.truncate(info.buffer_size());
    let px = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf.chunks(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::GrayscaleAlpha => {
            buf.chunks(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect()
        }
        _ => buf.iter().flat_map(|g| [*g, *g, *g, 255]).collect(),
    };
    Ok(Canvas { w: i64::from(info.width), h: i64::from(info.height), px })
}

fn encode(c: &Canvas) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, c.w as u32, c.h as u32);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let mut writer = enc.write_header()?;
    writer.write_image_data(&c.px)?;
    writer.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn white_png(w: u32, h: u32) -> String {
        let c = Canvas { w: i64::from(w), h: i64::from(h), px: vec![255; (w * h * 4) as usize] };
        base64::engine::general_purpose::STANDARD.encode(encode(&c).expect("encodes"))
    }

    fn pixel(c: &Canvas, x: i64, y: i64) -> [u8; 4] {
        let i = ((y * c.w + x) * 4) as usize;
        [c.px[i], c.px[i + 1], c.px[i + 2], c.px[i + 3]]
    }

    #[test]
    fn boxes_get_an_outline_and_a_tag_the_rest_stays() {
        let tags = [
            Tag { r#ref: "e12".into(), bounds: (40.0, 50.0, 60.0, 20.0) },
            // Partly off-screen: clipped, never a panic.
            Tag { r#ref: "e3".into(), bounds: (-10.0, -10.0, 30.0, 30.0) },
        ];
        let out = draw(&white_png(200, 100), 1.0, &tags).expect("draws");
        let bytes = base64::engine::general_purpose::STANDARD.decode(out).expect("base64");
        let c = decode(&bytes).expect("a png");
        assert_eq!((c.w, c.h), (200, 100), "the size is kept");
        let red = [220, 20, 60, 255];
        assert_eq!(pixel(&c, 70, 69), red, "bottom edge of the outline");
        assert_eq!(pixel(&c, 99, 60), red, "right edge of the outline");
        assert_eq!(pixel(&c, 70, 60), [255; 4], "the inside of the box is untouched");
        assert_eq!(pixel(&c, 190, 90), [255; 4], "away from boxes nothing changes");
        // The tag sits above the box: 18 px high at scale 1, white glyph pixels inside it.
        let tag: Vec<[u8; 4]> = (32..50)
            .flat_map(|y| (40..75).map(move |x| (x, y)))
            .map(|(x, y)| pixel(&c, x, y))
            .collect();
        assert!(tag.contains(&red) && tag.contains(&[255; 4]), "a filled tag with text");
        assert_eq!(pixel(&c, 0, 0)[..3], PALETTE[1], "the off-screen box's tag is kept inside");
    }

    #[test]
    fn tags_of_neighbours_do_not_cover_each_other() {
        let tags = [
            Tag { r#ref: "e1".into(), bounds: (10.0, 30.0, 100.0, 10.0) },
            Tag { r#ref: "e2".into(), bounds: (10.0, 40.0, 100.0, 10.0) },
        ];
        let out = draw(&white_png(200, 100), 1.0, &tags).expect("draws");
        let bytes = base64::engine::general_purpose::STANDARD.decode(out).expect("base64");
        let c = decode(&bytes).expect("a png");
        // e1's tag sits above its box (y 12..30); e2's would cover it there, so it goes
        // just inside its own box (y 40..58), and e1's tag stays whole.
        assert_eq!(pixel(&c, 10, 12)[..3], PALETTE[0], "e1's tag above its box");
        assert_eq!(pixel(&c, 10, 40)[..3], PALETTE[1], "e2's tag inside its box");
        assert_eq!(pixel(&c, 10, 29)[..3], PALETTE[0], "e1's tag not covered");
    }

    #[test]
    fn every_ref_character_has_a_glyph() {
        assert!("e0123456789".chars().all(|c| glyph(c) != [0; 7]));
    }
}
