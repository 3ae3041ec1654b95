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

/// The longest a hand-written file of the daemon may grow; past it, it holds two jobs.
const MAX_FILE_LINES: usize = 500;

/// The longest a function of the daemon may grow, but a table: a function whose comment
/// block says `tidy: table` (one arm per variant or per name) may be longer.
const MAX_FN_LINES: usize = 80;

/// Where a function of the daemon may still be too long. Temporary: each names a file that
/// another branch is splitting; the one that lands it removes its line here.
const LONG_FNS_ALLOWED: &[(&str, &str)] = &[];

/// Where a file of the daemon may still be too long. Temporary, like `LONG_FNS_ALLOWED`.
const LONG_FILES_ALLOWED: &[&str] = &[];

/// The name of the function `line` starts, if it starts one (`pub(crate) async fn name(`).
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    loop {
        let word = rest.split(' ').next()?;
        if word == "fn" {
            let name = rest["fn".len()..].trim_start();
            let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
            return (end > 0).then(|| &name[..end]);
        }
        if !(["pub", "const", "async", "unsafe"].contains(&word) || word.starts_with("pub(")) {
            return None;
        }
        rest = rest[word.len()..].trim_start();
    }
}

/// Each function of `text` with a body: its name, first line (from 1) and length in lines,
/// signature to closing brace, and whether its comment block marks it a table. It reads
/// rustfmt's layout: a body ends at the first `}` line indented like the `fn`.
fn functions(text: &str) -> Vec<(String, usize, usize, bool)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let indent = &line[..line.len() - line.trim_start().len()];
        let Some(open) =
            (at..lines.len()).find(|&i| lines[i].contains('{') || lines[i].ends_with(';'))
        else {
            continue;
        };
        let opener = lines[open];
        if !opener.contains('{') || opener.matches('{').count() <= opener.matches('}').count() {
            continue; // no body, or all of it on one line
        }
        let close = format!("{indent}}}");
        let Some(end) = (open + 1..lines.len()).find(|&i| lines[i] == close) else { continue };
        let table = lines[..at]
            .iter()
            .rev()
            .take_while(|l| ["//", "#["].iter().any(|p| l.trim_start().starts_with(p)))
            .any(|l| l.contains("tidy: table"));
        out.push((name.to_owned(), at + 1, end - at + 1, table));
    }
    out
}

#[test]
fn daemon_files_and_functions_stay_small() {
    let src = root().join("daemon/src");
    let mut rs = Vec::new();
    files(&src, ".rs", &mut rs);
    rs.sort();
    let mut long = Vec::new();
    for path in &rs {
        let text = std::fs::read_to_string(path).expect("a readable file");
        let file = rel(path);
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES && !LONG_FILES_ALLOWED.contains(&file.as_str()) {
            long.push(format!("{file}: {lines} lines (a file holds one job, <= {MAX_FILE_LINES})"));
        }
        for (name, at, len, table) in functions(&text) {
            if len > MAX_FN_LINES && !table && !LONG_FNS_ALLOWED.contains(&(file.as_str(), &name)) {
                long.push(format!("{file}:{at}: fn {name} is {len} lines (<= {MAX_FN_LINES})"));
            }
        }
    }
    assert!(long.is_empty(), "split these along their seams:\n  {}", long.join("\n  "));
}

#[test]
fn functions_are_measured_from_signature_to_brace() {
    let text = "//! x\n\
                pub(crate) async fn one(\n    a: u8,\n) -> u8 {\n    a\n}\n\
                fn short() {}\n\
                trait T {\n    fn bare(&self);\n    fn body(&self) {\n        if x {\n        }\n    }\n}\n\
                // tidy: table\n#[inline]\nconst fn t() -> u8 {\n    0\n}\n";
    let found = functions(text);
    assert_eq!(
        found,
        [
            ("one".to_owned(), 2, 5, false),
            ("body".to_owned(), 10, 4, false),
            ("t".to_owned(), 17, 3, true),
        ]
    );
    assert_eq!(fn_name("    pub(super) unsafe fn go<T>("), Some("go"));
    assert_eq!(fn_name("let f = fn_name(x);"), None);
}
