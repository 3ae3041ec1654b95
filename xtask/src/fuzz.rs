//! `cargo xtask fuzz [contract|wire|all] [--seconds N]`: run the libFuzzer targets in `fuzz/`
//! with cargo-fuzz on the nightly toolchain, each for a bounded time. New corpus entries go to
//! `<target dir>/fuzz-corpus/<name>`; the committed seeds in `fuzz/corpus/<name>` stay as they are.

use std::process::Command;

use anyhow::{bail, Context as _};

use crate::tasks::{root, status, target_dir};

const TARGETS: [&str; 2] = ["contract", "wire"];

pub fn run(args: &[String]) -> anyhow::Result<()> {
    let mut which: Vec<&str> = Vec::new();
    let mut seconds = 60u64;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seconds" => {
                seconds = it
                    .next()
                    .context("--seconds needs a number")?
                    .parse()
                    .context("--seconds N")?;
            }
            "all" => which.extend(TARGETS),
            t if TARGETS.contains(&t) => which.push(t),
            other => bail!("unknown fuzz target {other:?}; use one of {TARGETS:?} or all"),
        }
    }
    if which.is_empty() {
        which.extend(TARGETS);
    }
    ensure_cargo_fuzz()?;
    let fuzz_dir = root().join("fuzz");
    for name in which {
        let work = target_dir()?.join("fuzz-corpus").join(name);
        std::fs::create_dir_all(&work)?;
        eprintln!("fuzz: {name} for {seconds} s");
        status(
            Command::new("cargo")
                .current_dir(root())
                .args(["+nightly", "fuzz", "run", "--fuzz-dir"])
                .arg(&fuzz_dir)
                .arg(name)
                .arg(&work)
                .arg(fuzz_dir.join("corpus").join(name))
                .arg("--")
                .arg(format!("-max_total_time={seconds}")),
        )?;
    }
    Ok(())
}

fn ensure_cargo_fuzz() -> anyhow::Result<()> {
    let nightly = Command::new("rustup").args(["run", "nightly", "rustc", "--version"]).output();
    if !nightly.is_ok_and(|o| o.status.success()) {
        bail!("cargo xtask fuzz needs the nightly toolchain (rustup toolchain install nightly)");
    }
    let have = Command::new("cargo").args(["fuzz", "--version"]).output();
    if have.is_ok_and(|o| o.status.success()) {
        return Ok(());
    }
    eprintln!("fuzz: installing cargo-fuzz");
    status(Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))
}
