//! Benchmarks: `cargo xtask bench <name> [args]` runs this binary (`glovebox-bench`), one
//! module per benchmark, plus the few helpers they share (the daemon under test, a bare
//! client, percentiles). A crate of its own, so `cargo xtask codegen` and the other chores
//! build without the benches' dependencies.

mod browser;
mod cargo;
mod client;
mod daemon;
mod desktop;
mod fidelity;
mod footprint;
mod load;
mod mcp_http;
mod parties;
mod report;
mod rpc;
mod settle;
mod settle_img;
mod site;
mod stats;
mod tokens;
mod view;

use std::process::ExitCode;

use anyhow::bail;

pub(crate) use cargo::{cargo, root, target_dir};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("bench: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> anyhow::Result<()> {
    match args.split_first() {
        Some((name, rest)) if name == "rpc" => rpc::run(rest),
        Some((name, rest)) if name == "browser" => browser::run(rest),
        Some((name, rest)) if name == "desktop" => desktop::run(rest),
        Some((name, rest)) if name == "fidelity" => fidelity::run(rest),
        Some((name, rest)) if name == "settle" => settle::run(rest),
        Some((name, rest)) if name == "load" => load::run(rest),
        Some((name, rest)) if name == "footprint" => footprint::run(rest),
        Some((name, rest)) if name == "view" => view::run(rest),
        Some((name, rest)) if name == "tokens" => tokens::run(rest),
        Some((name, _)) => bail!("unknown bench {name:?}; known: rpc, browser, desktop, fidelity, settle, load, footprint, view, tokens"),
        None => bail!("usage: cargo xtask bench <name> [args]\n  rpc [--iterations N] [--seconds S] [--rounds R] [--connections C]\n  browser [--rounds R] [--snapshots N] [--clicks N] [--fills N] [--shots N] [--no-peer] | browser --cdp [--rounds R] [--samples N]\n  desktop [--rounds R] [--samples N]\n  fidelity [--snapshots N] [--big N] [--big-baseline MS] [--only PAGE,...] [--no-peer]\n  settle [--runs N]\n  load [--sessions N] [--seconds S] [--faults] [--hostile]\n  footprint [--rounds R] [--counts 1,2,4,8] [--loops L] [--settle S] [--idle S] [--no-trim] [--no-write]\n  view [--rounds R] [--samples N] [--drag S] [--idle S]\n  tokens [--rounds N] [--no-peer] [--no-desktop]"),
    }
}
