//! Pixels to what the vendors take: PNG bytes in base64 (Anthropic's image block) or a
//! `data:` URL (OpenAI's computer_screenshot), and a tab's PNG back to pixels.

use base64::Engine as _;

use crate::error::DaemonError;

/// Packed RGB as a base64 PNG.
pub fn png_base64(rgb: &[u8], w: u32, h: u32) -> Result<String, DaemonError> {
    let png = crate::desktop::x11::rgb_png(rgb, w, h)?;
    Ok(base64::engine::general_purpose::STANDARD.encode(png))
}

/// A PNG's pixels as packed RGB (alpha dropped, grey expanded), with its size.
pub fn decode_png(png: &[u8]) -> Result<(Vec<u8>, u32, u32), String> {
    let mut dec = png::Decoder::new(std::io::Cursor::new(png));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().map_err(|e| format!("the screenshot is no PNG: {e}"))?;
    let size = reader.output_buffer_size().ok_or("the screenshot is too large")?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(|e| format!("the screenshot is no PNG: {e}"))?;
    let (w, h) = (info.width, info.height);
    let px = (w * h) as usize;
    let rgb = match info.color_type {
        png::ColorType::Rgb => buf[..px * 3].to_vec(),
        png::ColorType::Rgba => {
            buf[..px * 4].chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect()
        }
        png::ColorType::Grayscale => buf[..px].iter().flat_map(|&g| [g, g, g]).collect(),
        png::ColorType::GrayscaleAlpha => {
            buf[..px * 2].chunks_exact(2).flat_map(|p| [p[0], p[0], p[0]]).collect()
        }
        png::ColorType::Indexed => return Err("an indexed PNG was not expanded".into()),
    };
    Ok((rgb, w, h))
}
