//! Where the workspace is and a nested cargo: what the benches need to build and find the
//! daemon under test.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _};

/// The workspace root.
pub(crate) fn root() -> PathBuf {
    // `cargo run` sets CARGO_MANIFEST_DIR at run time too; prefer it, so a moved checkout
    // never points at the directory the bench happened to be compiled in.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest.parent().map_or(manifest.clone(), Path::to_path_buf)
}

pub(crate) fn target_dir() -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        return Ok(root().join(dir)); // join keeps an absolute dir as is
    }
    let out = cargo(&["metadata", "--format-version", "1", "--no-deps"])
        .output()
        .context("running cargo metadata")?;
    if !out.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let dir = meta["target_directory"].as_str().context("no target_directory in cargo metadata")?;
    Ok(PathBuf::from(dir))
}

/// A nested cargo. `cargo run` starts the bench with its own package variables set
/// (`CARGO_PKG_NAME`, `CARGO_MANIFEST_DIR`, ...); build scripts such as ring's watch those
/// names, so passing them on would rebuild ring and all above it at every call.
pub(crate) fn cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.args(args).current_dir(root());
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        let package = ["CARGO_PKG_", "CARGO_MANIFEST_", "CARGO_BIN_"];
        let crate_vars = ["CARGO_CRATE_NAME", "CARGO_PRIMARY_PACKAGE"];
        if package.iter().any(|p| name.starts_with(p)) || crate_vars.contains(&name.as_ref()) {
            cmd.env_remove(name.as_ref());
        }
    }
    cmd
}
