//! Tidy checks over the tree, run by `cargo test` (so by `cargo xtask ci`): every Rust file
//! says what it is for in a `//!` line, and ARCHITECTURE.md stays short and names every
//! module folder of the daemon and every crate.

use std::path::{Path, PathBuf};

/// The longest ARCHITECTURE.md may grow: a map is read whole or not at all.
const MAX_ARCHITECTURE_LINES: usize = 250;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_owned)
}

/// Every file under `dir` whose name ends with `ext`, skipping build output, npm packages
/// and hidden directories (`.git`, `.cargo`).
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                files(&path, ext, out);
            }
        } else if name.ends_with(ext) {
            out.push(path);
        }
    }
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// Whether `text` names `folder/` where it starts a path: `browser/` counts, the tail of
/// `dispatch/browser/` does not.
fn names_folder(text: &str, folder: &str) -> bool {
    let needle = format!("{folder}/");
    text.match_indices(&needle).any(|(at, _)| {
        text[..at].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || "/_-".contains(c)))
    })
}

/// The workspace's crates: each member's folder and its package name.
fn crates() -> Vec<(String, String)> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let members = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("members"))
        .expect("the workspace lists its members");
    let mut out = Vec::new();
    for dir in members.split('"').skip(1).step_by(2) {
        let own = std::fs::read_to_string(root().join(dir).join("Cargo.toml")).expect("a member");
        let name = own
            .lines()
            .find_map(|l| l.trim().strip_prefix("name = \""))
            .and_then(|n| n.strip_suffix('"'))
            .expect("a package name");
        out.push((dir.to_owned(), name.to_owned()));
    }
    out
}

#[test]
fn every_rust_file_starts_with_a_doc_line() {
    let mut all = Vec::new();
    files(&root(), ".rs", &mut all);
    assert!(all.len() > 100, "found only {} Rust files under {}", all.len(), root().display());
    let missing: Vec<String> = all
        .iter()
        .filter(|p| !std::fs::read_to_string(p).is_ok_and(|t| t.starts_with("//!")))
        .map(|p| rel(p))
        .collect();
    assert!(
        missing.is_empty(),
        "these files do not start with a `//!` line saying what they are for:\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn architecture_names_every_module_folder_and_crate() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let lines = text.lines().count();
    assert!(
        lines <= MAX_ARCHITECTURE_LINES,
        "ARCHITECTURE.md has {lines} lines, over {MAX_ARCHITECTURE_LINES}: say less"
    );
    let src = root().join("daemon/src");
    let mut rs = Vec::new();
    files(&src, ".rs", &mut rs);
    let mut folders: Vec<String> = rs
        .iter()
        .filter_map(|p| p.parent()?.strip_prefix(&src).ok())
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| d.display().to_string())
        .collect();
    folders.sort();
    folders.dedup();
    assert!(folders.len() > 10, "found only {} module folders in daemon/src", folders.len());
    let mut unnamed: Vec<String> =
        folders.into_iter().filter(|f| !names_folder(&text, f)).map(|f| format!("{f}/")).collect();
    for (dir, name) in crates() {
        if !names_folder(&text, &dir) || !text.contains(&name) {
            unnamed.push(format!("the crate {dir}/ ({name})"));
        }
    }
    assert!(
        unnamed.is_empty(),
        "ARCHITECTURE.md does not name these (write each as `folder/`, its path under \
         daemon/src):\n  {}",
        unnamed.join("\n  ")
    );
}

#[test]
fn folder_names_start_a_path() {
    assert!(names_folder("`browser/cdp/` the plumbing", "browser/cdp"));
    assert!(names_folder("browser/ first", "browser"));
    assert!(!names_folder("`dispatch/browser/` only", "browser"));
    assert!(!names_folder("`browser/cdp/` only", "cdp"));
}
