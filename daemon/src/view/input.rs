//! What a page sends on its socket, read once into [`Msg`], and a controlling person's keys
//! and buttons held down, so a blur, a hand-back or a dropped socket releases them.

use std::collections::BTreeSet;

use serde::Deserialize;

/// One message from the page.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Msg {
    /// The page drew the last frame: the next may come.
    Ack,
    TakeOver,
    HandBack,
    /// Pointer to (x, y) in screen pixels.
    Move {
        x: i32,
        y: i32,
    },
    /// Button 1 left, 2 middle, 3 right, 4-7 wheel.
    Button {
        button: u8,
        down: bool,
    },
    /// A key by X keysym.
    Key {
        keysym: u32,
        down: bool,
    },
    /// Text typed as it is (a printable key, Unicode).
    Text {
        text: String,
    },
    /// The page lost focus: let go of everything held.
    Release,
    /// Put text on the desktop's clipboard.
    Paste {
        text: String,
    },
    Grant {
        approval_id: String,
    },
    Deny {
        approval_id: String,
    },
    /// Send the thumbnail of a capture.
    Thumb {
        session: String,
        capture_id: String,
    },
}

impl Msg {
    /// Whether it drives the desktop (only the person in control may send it).
    pub fn is_input(&self) -> bool {
        matches!(
            self,
            Msg::Move { .. }
                | Msg::Button { .. }
                | Msg::Key { .. }
                | Msg::Text { .. }
                | Msg::Paste { .. }
        )
    }
}

/// Text longer than this is refused (a paste of a 2FA code or a password is far shorter).
pub const MAX_TEXT: usize = 64 * 1024;

/// Keys and buttons a page holds down now.
#[derive(Debug, Default)]
pub struct Held {
    pub keys: BTreeSet<u32>,
    pub buttons: BTreeSet<u8>,
}

impl Held {
    /// Notes a press or release; false when it is a release of nothing held (dropped).
    pub fn key(&mut self, keysym: u32, down: bool) -> bool {
        if down {
            self.keys.insert(keysym);
            return true;
        }
        self.keys.remove(&keysym)
    }

    pub fn button(&mut self, button: u8, down: bool) -> bool {
        if down {
            self.buttons.insert(button);
            return true;
        }
        self.buttons.remove(&button)
    }

    /// Everything held, forgotten.
    pub fn take(&mut self) -> (Vec<u32>, Vec<u8>) {
        let keys = std::mem::take(&mut self.keys).into_iter().rev().collect();
        (keys, std::mem::take(&mut self.buttons).into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_parse_and_held_input_is_released_once() {
        let m: Msg =
            serde_json::from_str(r#"{"t":"key","keysym":65293,"down":true}"#).expect("key");
        assert_eq!(m, Msg::Key { keysym: 65293, down: true });
        assert!(m.is_input());
        assert!(!serde_json::from_str::<Msg>(r#"{"t":"take_over"}"#).expect("take").is_input());
        assert!(serde_json::from_str::<Msg>(r#"{"t":"rm -rf"}"#).is_err());
        let mut h = Held::default();
        assert!(h.key(0xffe1, true));
        assert!(h.button(1, true));
        assert!(!h.key(0x61, false), "a release of nothing held is dropped");
        assert_eq!(h.take(), (vec![0xffe1], vec![1]));
        assert_eq!(h.take(), (vec![], vec![]));
    }
}
