//! The corpus's packages, installed by name and pinned with npm into a cache dir on first use,
//! and a loopback HTTP server that hands out our host pages and the packages' own files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context as _};

/// Every package a page loads, at the version measured.
pub const PACKAGES: [&str; 9] = [
    "jquery@3.7.1",
    "jquery-ui@1.14.1",
    "bootstrap@5.3.3",
    "tom-select@2.4.3",
    "flatpickr@4.6.13",
    "sortablejs@1.15.6",
    "quill@2.0.3",
    "@fortawesome/fontawesome-free@6.7.2",
    "tabulator-tables@6.3.1",
];

fn cache_dir() -> PathBuf {
    let home = std::env::var_os("HOME").map_or_else(std::env::temp_dir, PathBuf::from);
    home.join(".cache").join("glovebox-bench").join("fidelity")
}

/// The installed version of `name` from its `package.json`, if any.
fn installed(root: &Path, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(root.join("node_modules").join(name).join("package.json"));
    let v: serde_json::Value = serde_json::from_str(&text.ok()?).ok()?;
    v["version"].as_str().map(String::from)
}

/// The dir holding `node_modules` with every package at its pinned version, installing what
/// is missing or at another version (nothing when all are there).
pub fn install() -> anyhow::Result<PathBuf> {
    let dir = cache_dir();
    let missing: Vec<&str> = PACKAGES
        .iter()
        .copied()
        .filter(|p| {
            let (name, version) = p.rsplit_once('@').unwrap_or((p, ""));
            installed(&dir, name).as_deref() != Some(version)
        })
        .collect();
    if missing.is_empty() {
        return Ok(dir);
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    eprintln!("bench: installing {} into {}", missing.join(" "), dir.display());
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--save-exact", "--prefix"])
        .arg(&dir)
        .args(PACKAGES)
        .stdout(Stdio::null())
        .status()
        .context("running npm")?;
    if !status.success() {
        bail!("npm install of the corpus failed ({status})");
    }
    Ok(dir)
}

fn mime(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or_default() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "json" | "map" => "application/json",
        _ => "application/octet-stream",
    }
}

/// What `path` (no query, no leading slash) answers: one of `pages`, or a file under
/// `node_modules` (no `..`).
fn answer(root: &Path, pages: &HashMap<String, String>, path: &str) -> Option<Vec<u8>> {
    if let Some(p) = pages.get(path) {
        return Some(p.as_bytes().to_vec());
    }
    if !path.starts_with("node_modules/") || path.split('/').any(|s| s == ".." || s.is_empty()) {
        return None;
    }
    std::fs::read(root.join(path)).ok()
}

/// Serves `pages` (name -> HTML) and the files under `root/node_modules` on 127.0.0.1 from a
/// thread; the base URL.
pub fn serve(root: PathBuf, pages: HashMap<String, String>) -> anyhow::Result<String> {
    super::super::browser::pages::serve_with(move |path| {
        answer(&root, &pages, path).map(|b| (mime(path), b))
    })
}
