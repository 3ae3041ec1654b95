//! What never changes about an element while it lives: its role and its interfaces. Read
//! once per element and kept, so a walk asks each element three things instead of five.
//! Object paths are not reused within an app's life; an app's entries go when it leaves.

use std::collections::HashMap;
use std::sync::Mutex;

use atspi::InterfaceSet;

/// Elements remembered at most; past this the memo starts over.
const KEEP: usize = 100_000;

#[derive(Debug, Default)]
pub(super) struct Fixed {
    /// Element key (`bus|path`) -> (role name, interfaces).
    known: Mutex<HashMap<String, (String, InterfaceSet)>>,
}

impl Fixed {
    pub(super) fn get(&self, key: &str) -> Option<(String, InterfaceSet)> {
        self.known.lock().ok()?.get(key).cloned()
    }

    pub(super) fn put(&self, key: &str, fixed: &(String, InterfaceSet)) {
        if let Ok(mut known) = self.known.lock() {
            if known.len() >= KEEP {
                known.clear();
            }
            known.insert(key.to_owned(), fixed.clone());
        }
    }

    /// Forgets every element of the app with unique bus name `bus`.
    pub(super) fn forget_app(&self, bus: &str) {
        if let Ok(mut known) = self.known.lock() {
            known.retain(|k, _| k.split_once('|').is_none_or(|(b, _)| b != bus));
        }
    }
}
