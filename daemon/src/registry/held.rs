//! Keys and buttons a session holds down (keydown, mouse_down), so a cancel, a timeout, an
//! error or a dropped connection can release every one of them.

use std::collections::BTreeSet;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Held {
    /// Desktop keys by X keysym name, in press order.
    pub desktop_keys: Vec<String>,
    /// Desktop mouse buttons (1 left, 2 middle, 3 right).
    pub desktop_buttons: BTreeSet<u8>,
    /// Browser keys per tab id.
    pub browser_keys: Vec<(String, String)>,
}

impl Held {
    pub fn is_empty(&self) -> bool {
        self.desktop_keys.is_empty()
            && self.desktop_buttons.is_empty()
            && self.browser_keys.is_empty()
    }
}
