//! Images in answers: a screenshot's or capture's base64 PNG decoded to RGB pixels, for tests
//! that compare what the screen showed.

use base64::Engine as _;
use serde_json::Value;

/// Width, height and RGB pixels (3 bytes each, row by row) of the PNG in `v["data"]`.
pub fn rgb_of(v: &Value) -> (usize, usize, Vec<u8>) {
    let data = v["data"].as_str().expect("image data");
    let bytes = base64::engine::general_purpose::STANDARD.decode(data).expect("base64");
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().expect("png");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("frame");
    let n = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks(n)
        .flat_map(|p| [p[0], p.get(1).copied().unwrap_or(p[0]), p.get(2).copied().unwrap_or(p[0])])
        .collect();
    (info.width as usize, info.height as usize, rgb)
}
