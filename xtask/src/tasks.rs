//! The build-and-run tasks: test, run, ci. They call cargo, the provision script and gloveboxd
//! with inherited stdio, so output streams live and exit codes come back.

use std::fmt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

use anyhow::{bail, Context};

/// A command that ran and failed; its exit code becomes xtask's.
#[derive(Debug)]
pub struct Failed {
    what: String,
    code: u8,
}

impl Failed {
    pub fn code(&self) -> u8 {
        self.code
    }
}

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` failed (exit code {})", self.what, self.code)
    }
}

impl std::error::Error for Failed {}

/// `cargo xtask test`: provision, build the daemon the integration tests spawn, test everything.
pub fn test(extra: &[String]) -> anyhow::Result<()> {
    provision()?;
    test_packages()?;
    cargo(&["build", "--locked", "-p", "glovebox-daemon", "--bin", "gloveboxd"])?;
    let bin = target_dir()?.join("debug").join("gloveboxd");
    let mut cmd = cargo_cmd(&["test", "--workspace", "--locked"]);
    cmd.args(extra).env("GLOVEBOX_BIN", &bin);
    eprintln!("xtask: GLOVEBOX_BIN={}", bin.display());
    status(&mut cmd)
}

/// `cargo xtask run` / `desktop`: build the release daemon and become it (exec), so signals
/// and the exit code are the daemon's own. `extra` may override any default flag.
pub fn run(desktop: &str, extra: &[String]) -> anyhow::Result<()> {
    provision()?;
    cargo(&["build", "--release", "-p", "glovebox-daemon", "--bin", "gloveboxd"])?;
    let bin = target_dir()?.join("release").join("gloveboxd");
    let state = state_dir()?;
    std::fs::create_dir_all(&state).with_context(|| format!("creating {}", state.display()))?;
    let defaults = [
        ("--desktop", desktop.to_owned()),
        ("--listen", "127.0.0.1:7788".to_owned()),
        ("--token-file", state.join("token").display().to_string()),
        ("--state-dir", state.display().to_string()),
    ];
    let mut cmd = Command::new(&bin);
    for (flag, value) in defaults {
        let given = extra.iter().any(|a| a == flag || a.starts_with(&format!("{flag}=")));
        if !given {
            cmd.args([flag, value.as_str()]);
        }
    }
    cmd.args(extra);
    eprintln!("xtask: exec {}", show(&cmd));
    let err = cmd.exec();
    Err(err).with_context(|| format!("cannot run {}", bin.display()))
}

/// `cargo xtask ci`: lints (skipped with a warning where the tool is not installed), then test.
pub fn ci(lint: bool) -> anyhow::Result<()> {
    if lint {
        // A missing tool fails CI with the remedy: skipped lints are not enforced lints.
        for tool in ["fmt", "clippy"] {
            anyhow::ensure!(
                has_cargo_tool(tool),
                "cargo {tool} is not installed; run `rustup component add {}`",
                if tool == "fmt" { "rustfmt" } else { "clippy" }
            );
        }
        cargo(&["fmt", "--all", "--", "--check"])?;
        cargo(&["clippy", "--locked", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
    }
    test(&[])
}

/// The PyPI packages the tests use (`tests/mcp/requirements.txt`: the MCP SDK, and
/// kubernetes-validate for `tests/deploy/check.py`), by name and version, and
/// the npm ones (`tests/mcp/package-lock.json`: the TypeScript MCP SDK, the MCP Inspector and
/// the Node.js they run on), installed into `tests/mcp/node_modules` unless that lock is
/// installed already.
fn test_packages() -> anyhow::Result<()> {
    let dir = root().join("tests").join("mcp");
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r"])
        .arg(dir.join("requirements.txt"));
    status(&mut cmd)?;
    let lock =
        std::fs::read(dir.join("package-lock.json")).context("tests/mcp/package-lock.json")?;
    let stamp = dir.join("node_modules").join(".glovebox-installed");
    if std::fs::read(&stamp).is_ok_and(|s| s == lock) {
        return Ok(());
    }
    let mut npm = Command::new("npm");
    npm.args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]).current_dir(&dir);
    status(&mut npm).context("installing the npm packages of tests/mcp (is npm installed?)")?;
    std::fs::write(&stamp, lock)?;
    Ok(())
}

/// `cargo xtask bench <name> [args]`: the benchmarks are a crate of their own
/// (`bench/`, binary `glovebox-bench`), so the other chores build without them.
pub(crate) fn bench(args: &[String]) -> anyhow::Result<()> {
    let mut cmd = cargo_cmd(&["run", "--quiet", "-p", "glovebox-bench", "--"]);
    status(cmd.args(args))
}

/// Runs the provision script; it returns at once when every package is installed.
fn provision() -> anyhow::Result<()> {
    let script = root().join("workspace-image").join("provision.sh");
    status(Command::new("bash").arg(script))
}

pub(crate) fn root() -> PathBuf {
    // `cargo run` sets CARGO_MANIFEST_DIR at run time too; prefer it, so a moved checkout
    // never points at the directory xtask happened to be compiled in.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest.parent().map_or(manifest.clone(), Path::to_path_buf)
}

pub(crate) fn target_dir() -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        return Ok(root().join(dir)); // join keeps an absolute dir as is
    }
    let out = cargo_cmd(&["metadata", "--format-version", "1", "--no-deps"])
        .output()
        .context("running cargo metadata")?;
    if !out.status.success() {
        bail!("cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let dir = meta["target_directory"].as_str().context("no target_directory in cargo metadata")?;
    Ok(PathBuf::from(dir))
}

fn state_dir() -> anyhow::Result<PathBuf> {
    if let Some(dir) = std::env::var_os("GLOVEBOX_STATE_DIR") {
        return Ok(PathBuf::from(dir));
    }
    let home = std::env::var_os("HOME").context("HOME is not set; set GLOVEBOX_STATE_DIR")?;
    Ok(PathBuf::from(home).join(".local/state/glovebox"))
}

fn has_cargo_tool(tool: &str) -> bool {
    cargo_cmd(&[tool, "--version"]).output().is_ok_and(|o| o.status.success())
}

/// A nested cargo. `cargo xtask` runs this process with xtask's own package variables set
/// (`CARGO_PKG_NAME=xtask`, `CARGO_MANIFEST_DIR`, ...); build scripts such as ring's watch
/// those names, so passing them on would rebuild ring and all above it at every call.
pub(crate) fn cargo_cmd(args: &[&str]) -> Command {
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

fn cargo(args: &[&str]) -> anyhow::Result<()> {
    status(&mut cargo_cmd(args))
}

pub(crate) fn status(cmd: &mut Command) -> anyhow::Result<()> {
    let what = show(cmd);
    eprintln!("xtask: $ {what}");
    let status = cmd.status().with_context(|| format!("cannot start `{what}`"))?;
    if status.success() {
        return Ok(());
    }
    Err(Failed { what, code: exit_code(status) }.into())
}

/// The shell's convention: the exit code, or 128 + signal number.
fn exit_code(status: ExitStatus) -> u8 {
    let code = status.code().or_else(|| status.signal().map(|s| 128 + s)).unwrap_or(1);
    u8::try_from(code).ok().filter(|c| *c != 0).unwrap_or(1)
}

fn show(cmd: &Command) -> String {
    let parts = std::iter::once(cmd.get_program()).chain(cmd.get_args());
    parts.map(|p| p.to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ")
}
