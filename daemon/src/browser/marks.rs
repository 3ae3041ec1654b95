//! Tab marks: a result to show the user or a tab to hand over, by `<browser_id>/<tab_id>`,
//! kept in the state dir's `browser-tab-marks.json` so they outlive sessions and restarts.
//! One lock is held across each read-modify-write, so two marks set at once both stay.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

pub use glovebox_protocol::results::browser::Mark;

use super::{lock, target_key, BrowserError, Browsers};

/// The marks file and the lock every reading and writing of it takes.
#[derive(Debug)]
pub struct Marks {
    path: PathBuf,
    file: Mutex<()>,
}

impl Marks {
    pub fn new(state_dir: &std::path::Path) -> Marks {
        Marks { path: state_dir.join("browser-tab-marks.json"), file: Mutex::new(()) }
    }

    /// The marks on disk; the caller holds the lock. A missing or unreadable file is no marks.
    fn read(&self) -> BTreeMap<String, Mark> {
        std::fs::read(&self.path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    pub fn all(&self) -> BTreeMap<String, Mark> {
        let _g = lock(&self.file);
        self.read()
    }

    /// Sets (`Some`) or clears (`None`) the mark under `key`, under one lock.
    fn set(&self, key: String, mark: Option<Mark>) -> Result<Option<Mark>, BrowserError> {
        let _g = lock(&self.file);
        let mut marks = self.read();
        match &mark {
            Some(m) => marks.insert(key, m.clone()),
            None => marks.remove(&key),
        };
        if let Some(dir) = self.path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let bytes = serde_json::to_vec_pretty(&marks).unwrap_or_default();
        std::fs::write(&self.path, bytes).map_err(|e| BrowserError::Storage {
            what: "the tab mark".into(),
            reason: e.to_string(),
        })?;
        Ok(mark)
    }
}

impl Browsers {
    /// Set (`kind`, `note`) or clear (`None`) a tab's mark.
    pub fn mark(
        &self,
        browser_id: &str,
        tab_id: &str,
        mark: Option<(String, Option<String>)>,
    ) -> Result<Option<Mark>, BrowserError> {
        let mark = mark.map(|(kind, note)| {
            let marked_at = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            Mark { kind, note, marked_at }
        });
        self.marks.set(target_key(browser_id, tab_id), mark)
    }

    /// Every tab mark, by `<browser_id>/<tab_id>` (the view page lists them).
    pub fn marks(&self) -> BTreeMap<String, Mark> {
        self.marks.all()
    }

    pub fn mark_of(&self, browser_id: &str, tab_id: &str) -> Option<Mark> {
        self.marks.all().remove(&target_key(browser_id, tab_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_set_at_once_all_stay() {
        let dir = std::env::temp_dir().join(format!("gb-marks-{}", std::process::id()));
        let marks = std::sync::Arc::new(Marks::new(&dir));
        let threads: Vec<_> = (0..16)
            .map(|i| {
                let marks = marks.clone();
                std::thread::spawn(move || {
                    let m = Mark { kind: "deliverable".into(), note: None, marked_at: i };
                    marks.set(format!("chrome-1/{i:08}"), Some(m)).expect("set");
                })
            })
            .collect();
        for t in threads {
            t.join().expect("thread");
        }
        assert_eq!(marks.all().len(), 16);
        let _ = std::fs::remove_dir_all(dir);
    }
}
