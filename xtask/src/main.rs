//! `cargo xtask`: the project's chores as code, so CI and people run the same thing.

mod codegen;
mod fuzz;
mod tasks;
#[cfg(test)]
mod tidy;

use std::process::ExitCode;

use anyhow::bail;

const USAGE: &str = "\
usage: cargo xtask <task> [args]

  test [-- <cargo test args>]     provision if needed, build gloveboxd, test the workspace
  run [-- <gloveboxd args>]       provision if needed, build and run gloveboxd (--desktop auto)
  desktop [-- <gloveboxd args>]   the same with a private embedded desktop (--desktop embedded)
  ci [--no-lint]                  what CI runs: cargo fmt --check, clippy -D warnings, then test
  bench <name> [args]             a benchmark
  fuzz [contract|wire|all] [--seconds N]
                                  libFuzzer targets in fuzz/ (cargo-fuzz, nightly), N s each
  codegen [--check]               regenerate committed generated files (--check: fail if stale)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: {err:#}");
            // A failing cargo or gloveboxd passes its own exit code through.
            let code = err.downcast_ref::<tasks::Failed>().map_or(1, tasks::Failed::code);
            ExitCode::from(code)
        }
    }
}

fn dispatch(args: &[String]) -> anyhow::Result<()> {
    let Some((task, rest)) = args.split_first() else {
        eprint!("{USAGE}");
        bail!("no task given");
    };
    match task.as_str() {
        "test" => tasks::test(passthrough(rest)),
        "run" => tasks::run("auto", passthrough(rest)),
        "desktop" => tasks::run("embedded", passthrough(rest)),
        "ci" => match rest {
            [] => tasks::ci(true),
            [flag] if flag == "--no-lint" => tasks::ci(false),
            _ => bail!("usage: cargo xtask ci [--no-lint]"),
        },
        "bench" => tasks::bench(rest),
        "fuzz" => fuzz::run(rest),
        "codegen" => match rest {
            [] => codegen::run(false),
            [flag] if flag == "--check" => codegen::run(true),
            _ => bail!("usage: cargo xtask codegen [--check]"),
        },
        "help" | "-h" | "--help" => {
            eprint!("{USAGE}");
            Ok(())
        }
        other => {
            eprint!("{USAGE}");
            bail!("unknown task {other:?}")
        }
    }
}

/// Arguments meant for the underlying program, with an optional leading `--` dropped.
fn passthrough(rest: &[String]) -> &[String] {
    match rest.split_first() {
        Some((first, tail)) if first == "--" => tail,
        _ => rest,
    }
}
