//! What never changes about an element while it lives: its role, its interfaces and the
//! names of its actions (toolkits give a widget its actions by its class: a button's `click`,
//! a cell's `activate`). Read once per element and kept, so a walk asks each element three
//! things instead of six. Object paths are not reused within an app's life; an app's entries
//! go when it leaves.

use std::collections::HashMap;
use std::sync::Mutex;

use atspi::InterfaceSet;

/// Elements remembered at most; past this the memo starts over.
const KEEP: usize = 100_000;

#[derive(Debug, Default)]
pub(super) struct Fixed {
    /// Element key (`bus|path`) -> (role name, interfaces).
    known: Mutex<HashMap<String, (String, InterfaceSet)>>,
    /// Element key -> its action names.
    actions: Mutex<HashMap<String, Vec<String>>>,
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

    pub(super) fn actions(&self, key: &str) -> Option<Vec<String>> {
        self.actions.lock().ok()?.get(key).cloned()
    }

    pub(super) fn put_actions(&self, key: &str, actions: &[String]) {
        if let Ok(mut known) = self.actions.lock() {
            if known.len() >= KEEP {
                known.clear();
            }
            known.insert(key.to_owned(), actions.to_vec());
        }
    }

    /// Forgets every element of the app with unique bus name `bus`.
    pub(super) fn forget_app(&self, bus: &str) {
        let other = |k: &String| k.split_once('|').is_none_or(|(b, _)| b != bus);
        if let Ok(mut known) = self.known.lock() {
            known.retain(|k, _| other(k));
        }
        if let Ok(mut known) = self.actions.lock() {
            known.retain(|k, _| other(k));
        }
    }
}
