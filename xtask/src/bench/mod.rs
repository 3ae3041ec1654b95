//! Benchmarks: `cargo xtask bench <name> [args]`, one module per benchmark, plus the few
//! helpers they share (the daemon under test, a bare client, percentiles).

mod client;
mod daemon;
mod report;
mod rpc;
mod stats;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _};

pub fn run(args: &[String]) -> anyhow::Result<()> {
    match args.split_first() {
        Some((name, rest)) if name == "rpc" => rpc::run(rest),
        Some((name, _)) => bail!("unknown bench {name:?}; known: rpc"),
        None => bail!("usage: cargo xtask bench <name> [args]\n  rpc [--iterations N] [--seconds S] [--rounds R] [--connections C]"),
    }
}

/// The workspace root (xtask's parent), as `tasks` finds it.
fn root() -> PathBuf {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest.parent().map_or(manifest.clone(), Path::to_path_buf)
}

/// `$CARGO_TARGET_DIR` (relative to the root), else cargo's own answer.
fn target_dir() -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        return Ok(root().join(dir));
    }
    let out = cargo().args(["metadata", "--format-version", "1", "--no-deps"]).output()?;
    if !out.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let dir = meta["target_directory"].as_str().context("no target_directory in cargo metadata")?;
    Ok(PathBuf::from(dir))
}

fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(root());
    cmd
}
