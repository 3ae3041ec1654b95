//! Benchmarks: `cargo xtask bench <name> [args]`, one module per benchmark, plus the few
//! helpers they share (the daemon under test, a bare client, percentiles).

mod client;
mod daemon;
mod desktop;
mod report;
mod rpc;
mod stats;

use anyhow::bail;

pub fn run(args: &[String]) -> anyhow::Result<()> {
    match args.split_first() {
        Some((name, rest)) if name == "rpc" => rpc::run(rest),
        Some((name, rest)) if name == "desktop" => desktop::run(rest),
        Some((name, _)) => bail!("unknown bench {name:?}; known: rpc, desktop"),
        None => bail!("usage: cargo xtask bench <name> [args]\n  rpc [--iterations N] [--seconds S] [--rounds R] [--connections C]\n  desktop [--rounds R] [--samples N]"),
    }
}

pub(crate) use crate::tasks::{cargo_cmd as cargo, root, target_dir};
