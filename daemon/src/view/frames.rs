//! The live desktop as the page's socket carries it: one binary message per frame, a small
//! header (kind 1, width, height, pointer x and y, sequence number; big-endian) and the JPEG.
//! Frames follow X DAMAGE: an idle screen sends nothing, a burst of damage while a frame is
//! on its way becomes one frame of the newest screen, sent once the page took the last one.

use std::sync::Arc;
use std::time::Instant;

use crate::desktop::Desktop;

/// JPEG quality of frames.
pub const QUALITY: u8 = 70;
/// Bytes before the JPEG.
pub const HEADER: usize = 13;

/// A frame ready to send, and when the damage it shows was first seen.
pub struct Frame {
    pub bytes: Vec<u8>,
    pub damaged_at: Instant,
}

/// The binary message of one frame.
pub fn message(jpeg: &[u8], (w, h): (u32, u32), (px, py): (i16, i16), seq: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + jpeg.len());
    out.push(1u8);
    out.extend_from_slice(&(w.min(u32::from(u16::MAX)) as u16).to_be_bytes());
    out.extend_from_slice(&(h.min(u32::from(u16::MAX)) as u16).to_be_bytes());
    out.extend_from_slice(&px.to_be_bytes());
    out.extend_from_slice(&py.to_be_bytes());
    out.extend_from_slice(&seq.to_be_bytes());
    out.extend_from_slice(jpeg);
    out
}

/// Captures the screen now (on a blocking thread) as frame `seq`.
pub async fn capture(desktop: &Arc<Desktop>, seq: u32, damaged_at: Instant) -> Option<Frame> {
    desktop.cover_fields().await;
    let d = desktop.clone();
    let got = tokio::task::spawn_blocking(move || {
        let enc = d.frame(QUALITY)?;
        let pointer = d.pointer_at().unwrap_or((-1, -1));
        Ok::<_, crate::desktop::Error>((enc, pointer))
    })
    .await;
    match got {
        Ok(Ok((enc, pointer))) => Some(Frame {
            bytes: message(&enc.data, (enc.width, enc.height), pointer, seq),
            damaged_at,
        }),
        Ok(Err(e)) => {
            tracing::debug!(%e, "a view frame failed");
            None
        }
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_says_size_pointer_and_sequence() {
        let m = message(&[0xff, 0xd8], (1280, 800), (-1, 5), 7);
        assert_eq!(m.len(), HEADER + 2);
        assert_eq!(m[0], 1);
        assert_eq!(u16::from_be_bytes([m[1], m[2]]), 1280);
        assert_eq!(u16::from_be_bytes([m[3], m[4]]), 800);
        assert_eq!(i16::from_be_bytes([m[5], m[6]]), -1);
        assert_eq!(i16::from_be_bytes([m[7], m[8]]), 5);
        assert_eq!(u32::from_be_bytes([m[9], m[10], m[11], m[12]]), 7);
        assert_eq!(&m[HEADER..], &[0xff, 0xd8]);
    }
}
