//! The capture store: screenshots taken after actions, kept per session and bounded by
//! count and bytes (oldest out first), so `capture.get` can return one again.

use std::collections::VecDeque;
use std::sync::Mutex;

use glovebox_protocol::wire::{Captured, Shot};

/// Captures kept at most, and their total base64 size.
const MAX_ITEMS: usize = 64;
const MAX_BYTES: usize = 64 * 1024 * 1024;

#[derive(Debug)]
struct Item {
    session: String,
    captured: Captured,
    bytes: usize,
}

#[derive(Debug, Default)]
struct Store {
    items: VecDeque<Item>,
    bytes: usize,
    next: u64,
}

#[derive(Debug, Default)]
pub struct Captures {
    inner: Mutex<Store>,
}

impl Captures {
    /// Keeps `shot` for `session`; returns it as the outcome carries it, with its
    /// `capture_id`.
    pub fn put(&self, session: &str, shot: Shot) -> Captured {
        let bytes = shot.data().len();
        let mut s = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        s.next += 1;
        let id = format!("c{}", s.next);
        while !s.items.is_empty() && (s.items.len() >= MAX_ITEMS || s.bytes + bytes > MAX_BYTES) {
            if let Some(old) = s.items.pop_front() {
                s.bytes -= old.bytes;
            }
        }
        s.bytes += bytes;
        let captured = Captured { image: Some(shot), capture_id: Some(id), ..Captured::default() };
        s.items.push_back(Item { session: session.to_owned(), captured: captured.clone(), bytes });
        captured
    }

    /// The captures of `session` still kept, oldest first: id, mime type, bytes of the image.
    pub fn list(&self, session: &str) -> Vec<(String, String, usize)> {
        let s = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        s.items
            .iter()
            .filter(|i| i.session == session)
            .filter_map(|i| {
                let (id, shot) = (i.captured.capture_id.clone()?, i.captured.image.as_ref()?);
                Some((id, shot.size().0.to_owned(), decoded_len(shot.data())))
            })
            .collect()
    }

    /// A capture of `session` still kept.
    pub fn get(&self, session: &str, id: &str) -> Option<Captured> {
        let s = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        s.items
            .iter()
            .find(|i| i.captured.capture_id.as_deref() == Some(id) && i.session == session)
            .map(|i| i.captured.clone())
    }
}

/// The bytes standard base64 `b64` (no line breaks) decodes to.
fn decoded_len(b64: &str) -> usize {
    let pad = b64.bytes().rev().take_while(|b| *b == b'=').count();
    (b64.len() / 4 * 3).saturating_sub(pad)
}

#[cfg(test)]
mod tests {
    use glovebox_protocol::results::browser::Image;

    use super::*;

    fn shot(data: &str) -> Shot {
        Shot::Tab(Image { data: data.to_owned(), ..Image::default() })
    }

    #[test]
    fn ids_are_per_session_and_old_ones_fall_out() {
        let c = Captures::default();
        let first = c.put("s1", shot("AAAA"));
        assert_eq!(first.capture_id.as_deref(), Some("c1"));
        assert!(c.get("s1", "c1").is_some());
        assert!(c.get("s2", "c1").is_none(), "another session's capture");
        for _ in 0..MAX_ITEMS {
            c.put("s1", shot("AAAA"));
        }
        assert!(c.get("s1", "c1").is_none(), "the oldest went first");
        assert!(c.get("s1", &format!("c{}", MAX_ITEMS + 1)).is_some());
    }

    #[test]
    fn bytes_are_bounded() {
        let c = Captures::default();
        let big = "A".repeat(MAX_BYTES / 2 + 1);
        c.put("s", shot(&big));
        c.put("s", shot(&big));
        assert!(c.get("s", "c1").is_none());
        assert!(c.get("s", "c2").is_some());
    }
}
