//! Benchmarks: `cargo xtask bench <name> [args]`, one module per benchmark.

pub fn run(args: &[String]) -> anyhow::Result<()> {
    match args.first() {
        Some(name) => anyhow::bail!("unknown bench {name:?}"),
        None => anyhow::bail!("usage: cargo xtask bench <name> [args]"),
    }
}
