//! Captures with the boxes that show a secret painted over: the image's pixels, never the
//! page, so no page script can tell. PNG and JPEG (what captures and screenshots use); a
//! WebP screenshot is turned into a PNG when it has something to cover.

use base64::Engine as _;
use glovebox_protocol::results::browser::Image;

/// The colour boxes are painted with.
const INK: [u8; 3] = [32, 32, 32];
/// Pixels added around each box, for anti-aliased edges and carets.
const PAD: f64 = 2.0;

/// Paint `boxes` (`[x, y, width, height]` in the image's CSS pixels, times `scale` image
/// pixels) over the base64 image of `shot` (`data`, `mime`), and say how many in
/// `shot.redacted`.
pub fn cover(shot: &mut Image, boxes: &[[f64; 4]], scale: f64) -> Result<(), String> {
    if boxes.is_empty() {
        return Ok(());
    }
    let b64 = base64::engine::general_purpose::STANDARD;
    let bytes = b64.decode(&shot.data).map_err(|e| format!("bad capture data: {e}"))?;
    let jpeg = bytes.starts_with(&[0xFF, 0xD8]);
    let (mut rgb, w, h) = if jpeg {
        let img = turbojpeg::decompress(&bytes, turbojpeg::PixelFormat::RGB)
            .map_err(|e| format!("the capture is no JPEG: {e}"))?;
        (img.pixels, img.width as u32, img.height as u32)
    } else if bytes.starts_with(b"\x89PNG") {
        crate::dispatch::native::image::decode_png(&bytes)?
    } else {
        let mut d = image_webp::WebPDecoder::new(std::io::Cursor::new(&bytes))
            .map_err(|e| format!("the capture is no image: {e}"))?;
        let (w, h) = d.dimensions();
        let mut buf = vec![0; d.output_buffer_size().ok_or("the capture is too large")?];
        d.read_image(&mut buf).map_err(|e| format!("the capture is no WebP: {e}"))?;
        let rgb = if d.has_alpha() {
            buf.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect()
        } else {
            buf
        };
        (rgb, w, h)
    };
    for b in boxes {
        fill(&mut rgb, (w, h), b, scale);
    }
    let out = if jpeg {
        let image = turbojpeg::Image {
            pixels: &rgb[..],
            width: w as usize,
            pitch: w as usize * 3,
            height: h as usize,
            format: turbojpeg::PixelFormat::RGB,
        };
        turbojpeg::compress(image, 85, turbojpeg::Subsamp::Sub2x2)
            .map(|v| v.to_vec())
            .map_err(|e| format!("cannot encode the capture: {e}"))?
    } else {
        shot.mime = "image/png".into();
        crate::desktop::x11::rgb_png(&rgb, w, h).map_err(|e| format!("{e}"))?
    };
    shot.bytes = out.len();
    shot.data = b64.encode(out);
    shot.redacted = Some(boxes.len() as u64);
    Ok(())
}

fn fill(rgb: &mut [u8], (w, h): (u32, u32), b: &[f64; 4], scale: f64) {
    let clamp = |v: f64, max: u32| v.max(0.0).min(f64::from(max)) as usize;
    let (x0, y0) = (clamp((b[0] - PAD) * scale, w), clamp((b[1] - PAD) * scale, h));
    let (x1, y1) = (
        clamp(((b[0] + b[2] + PAD) * scale).ceil(), w),
        clamp(((b[1] + b[3] + PAD) * scale).ceil(), h),
    );
    for y in y0..y1 {
        for x in x0..x1 {
            let i = (y * w as usize + x) * 3;
            rgb[i..i + 3].copy_from_slice(&INK);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_is_painted_in_image_pixels() {
        let rgb = vec![255u8; 20 * 10 * 3];
        let png = crate::desktop::x11::rgb_png(&rgb, 20, 10).expect("png");
        let b64 = base64::engine::general_purpose::STANDARD;
        let mut shot =
            Image { mime: "image/png".into(), data: b64.encode(png), ..Default::default() };
        cover(&mut shot, &[[4.0, 2.0, 2.0, 1.0]], 2.0).expect("covers");
        let bytes = b64.decode(&shot.data).expect("b64");
        let (px, w, _) = crate::dispatch::native::image::decode_png(&bytes).expect("png");
        let at = |x: usize, y: usize| px[(y * w as usize + x) * 3];
        assert_eq!(at(5, 1), INK[0]);
        assert_eq!(at(18, 8), 255, "past the padded box");
        assert_eq!(shot.redacted, Some(1));
    }
}
