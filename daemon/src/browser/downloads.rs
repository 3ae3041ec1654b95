//! Where a download lands: Chromium saves it under its guid (`allowAndName`), the daemon
//! reserves its real name when it begins (the suggested name, else `name (2).ext`, …: a name
//! no file and no download in progress has, so two downloads never share a path) and moves
//! it there when it ends.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};

/// Downloads in progress, every browser's: reserved path -> the file Chromium writes. Keyed
/// by absolute paths, so one table serves every downloads dir.
static PENDING: LazyLock<Mutex<HashMap<PathBuf, PathBuf>>> = LazyLock::new(Default::default);

fn pending() -> std::sync::MutexGuard<'static, HashMap<PathBuf, PathBuf>> {
    PENDING.lock().unwrap_or_else(|p| p.into_inner())
}

/// Names tried past the first before giving up (the guid then names the file).
const MAX_TRIES: u32 = 1_000;

/// Reserve a fresh path in `dir` for a file suggested as `suggested`, Chromium writing it
/// as `dir/guid` meanwhile.
pub fn reserve(dir: &Path, suggested: &str, guid: &str) -> PathBuf {
    let name = plain_name(suggested).unwrap_or_else(|| guid.to_owned());
    let (stem, ext) = split_ext(&name);
    let mut pending = pending();
    let mut chosen = dir.join(guid);
    for n in 1..=MAX_TRIES {
        let candidate = match n {
            1 => name.clone(),
            n => format!("{stem} ({n}){ext}"),
        };
        let path = dir.join(&candidate);
        if !pending.contains_key(&path) && std::fs::symlink_metadata(&path).is_err() {
            chosen = path;
            break;
        }
    }
    pending.insert(chosen.clone(), dir.join(guid));
    chosen
}

/// Give up a reservation made in a dir the download did not land in.
pub fn release(reserved: &Path) {
    pending().remove(reserved);
}

/// Move the finished download (saved as `dir/guid`) to its reserved path; a canceled one's
/// partial file goes.
pub fn finish(dir: &Path, guid: &str, reserved: &Path, completed: bool) -> std::io::Result<()> {
    pending().remove(reserved);
    let saved = dir.join(guid);
    if saved == reserved {
        return Ok(());
    }
    if completed {
        return std::fs::rename(&saved, reserved);
    }
    let _ = std::fs::remove_file(&saved);
    let _ = std::fs::remove_file(saved.with_extension("crdownload"));
    Ok(())
}

/// The file a download still in progress is being written to, when `path` is reserved for
/// one.
pub fn partial(path: &Path) -> Option<PathBuf> {
    let saved = pending().get(path).cloned()?;
    let crdownload = saved.with_extension("crdownload");
    [saved, crdownload].into_iter().find(|p| p.is_file())
}

/// The last component of a suggested name, if it is a plain file name.
fn plain_name(suggested: &str) -> Option<String> {
    let last = suggested.rsplit(['/', '\\']).next().unwrap_or_default().trim();
    let ok = !last.is_empty() && last != "." && last != ".." && !last.contains('\0');
    ok.then(|| last.to_owned())
}

/// `report.tar.gz` -> (`report.tar`, `.gz`); a name without a dot (or starting with one)
/// has no extension.
fn split_ext(name: &str) -> (&str, &str) {
    match name.rfind('.') {
        Some(i) if i > 0 => name.split_at(i),
        _ => (name, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_name_gets_a_number_and_every_path_is_its_own() {
        let dir = std::env::temp_dir().join(format!("gb-downloads-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let a = reserve(&dir, "q3-report.csv", "g1");
        let b = reserve(&dir, "q3-report.csv", "g2");
        let c = reserve(&dir, "../../etc/passwd", "g3");
        let d = reserve(&dir, "", "g4");
        assert_eq!(a, dir.join("q3-report.csv"));
        assert_eq!(b, dir.join("q3-report (2).csv"));
        assert_eq!(c, dir.join("passwd"), "only the file name counts");
        assert_eq!(d, dir.join("g4"));
        std::fs::write(dir.join("g2"), "sec").expect("writing");
        assert_eq!(partial(&b), Some(dir.join("g2")), "in progress under its guid");
        std::fs::write(dir.join("g2"), "second").expect("saved");
        finish(&dir, "g2", &b, true).expect("moved");
        assert_eq!(std::fs::read_to_string(&b).expect("there"), "second");
        std::fs::write(dir.join("g1"), "partial").expect("saved");
        finish(&dir, "g1", &a, false).expect("dropped");
        assert!(!a.exists() && !dir.join("g1").exists());
        assert_eq!(reserve(&dir, "q3-report.csv", "g5"), a, "a name freed is free again");
        assert_eq!(partial(&b), None, "done");
        assert_eq!(split_ext(".bashrc"), (".bashrc", ""));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
