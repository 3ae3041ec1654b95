//! Regenerates the committed generated files (`cargo xtask codegen`); with `--check` it fails
//! when one is stale instead of writing it.
//!
//! Four products of the contract table: the protocol crate's JSON schemas and OpenRPC
//! document, the reference part of `docs/protocol.md`, the typed params of every action
//! (`protocol/src/actions/<tool>.rs`, `params.rs`), which the daemon and the SDK share, and
//! the client SDK's typed calls (`client-sdk/src/generated.rs`, `client.rs`); the Rust ones
//! are passed through rustfmt.

mod client;
mod params;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context as _};
use glovebox_protocol::contract::generated::{schema_files, splice_reference};
use glovebox_protocol::contract::{Action, Class, DefaultValue, Param, Tool, Ty, TOOLS};

const CLIENT_FILE: &str = "client-sdk/src/generated.rs";

/// `(path, contents)` of every generated Rust file: each tool's params, then the client.
pub fn rust_files() -> anyhow::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for tool in TOOLS {
        let path = format!("protocol/src/actions/{}.rs", tool.name);
        out.push((path, rustfmt(&params::render(tool)?)?));
    }
    out.push((CLIENT_FILE.to_owned(), rustfmt(&client::render())?));
    Ok(out)
}
const ACTIONS_DIR: &str = "protocol/schema/actions";

pub fn run(check: bool) -> anyhow::Result<()> {
    let root = root();
    let mut want: Vec<(String, String)> = schema_files();
    let doc_rel = "docs/protocol.md";
    let doc = std::fs::read_to_string(root.join(doc_rel)).context("reading docs/protocol.md")?;
    let spliced = splice_reference(&doc).context("docs/protocol.md lacks the generated markers")?;
    want.push((doc_rel.to_owned(), spliced));
    want.extend(rust_files()?);

    let mut stale = Vec::new();
    for (rel, text) in &want {
        let path = root.join(rel);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        stale.push(rel.clone());
        if !check {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("creating {}", dir.display()))?;
            }
            std::fs::write(&path, text).with_context(|| format!("writing {rel}"))?;
        }
    }
    // Schemas of actions that left the table.
    for entry in std::fs::read_dir(root.join(ACTIONS_DIR)).into_iter().flatten().flatten() {
        let rel = format!("{ACTIONS_DIR}/{}", entry.file_name().to_string_lossy());
        if !want.iter().any(|(p, _)| *p == rel) {
            stale.push(format!("{rel} (no longer generated)"));
            if !check {
                std::fs::remove_file(entry.path()).with_context(|| format!("removing {rel}"))?;
            }
        }
    }
    match (check, stale.is_empty()) {
        (true, false) => {
            bail!("stale generated files; run `cargo xtask codegen`:\n{}", stale.join("\n"))
        }
        (false, false) => eprintln!("codegen: updated {}", stale.join(", ")),
        (_, true) => eprintln!("codegen: all generated files are fresh"),
    }
    Ok(())
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_owned)
}

fn rustfmt(text: &str) -> anyhow::Result<String> {
    let mut child = Command::new(std::env::var_os("RUSTFMT").unwrap_or_else(|| "rustfmt".into()))
        .args(["--edition", "2021", "--emit", "stdout"])
        // rustfmt finds the workspace's rustfmt.toml from its working directory.
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("running rustfmt (rustup component add rustfmt)")?;
    child.stdin.take().context("rustfmt stdin")?.write_all(text.as_bytes())?;
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!("rustfmt failed on generated code:\n{}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(String::from_utf8(out.stdout)?)
}

fn action_doc(tool: &Tool, action: &Action) -> String {
    let mut doc = format!("`{}`: {}.", tool.method(action), action.summary);
    if let Some(target) = action.locator.describe(&tool.element_key_names()) {
        let _ = write!(doc, " {}{}.", target[..1].to_uppercase(), &target[1..]);
    }
    let class = match action.class {
        Class::Observe => "Observes only (observer tokens may call it).",
        Class::Act => {
            "Mutating (actor role); a capture follows unless the call says capture false."
        }
        Class::Exec => "Starts processes (actor role; the approval policy treats it as exec).",
        Class::ClipboardRead => "Reads the clipboard (actor and admin roles; observers may not).",
        Class::Private => "Reads what observers may not (actor and admin roles).",
        Class::AskHuman => {
            "Asks a person (actor and admin roles); runs while a person is in control."
        }
    };
    doc.push(' ');
    doc.push_str(class);
    for (a, b) in action.exclusive {
        let _ = write!(doc, " `{a}` and `{b}` are exclusive.");
    }
    doc
}

fn param_doc(param: &Param, required: bool) -> String {
    let mut doc = String::new();
    if required {
        doc.push_str("**Required.** ");
    }
    doc.push_str(param.doc);
    doc.push('.');
    match param.ty {
        Ty::Enum(values) => {
            let list: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
            let _ = write!(doc, " One of {}.", list.join(", "));
        }
        Ty::Int { min, max } => {
            let _ = write!(doc, " Range {min}..={max}.");
        }
        Ty::Num { min, max } => {
            let _ = write!(doc, " Range {min:?}..={max:?}.");
        }
        Ty::Str { allow_empty: false } => doc.push_str(" Not empty."),
        _ => {}
    }
    match param.default {
        Some(DefaultValue::Str(v)) => {
            let _ = write!(doc, " Default `{v}`.");
        }
        Some(DefaultValue::Int(v)) => {
            let _ = write!(doc, " Default {v}.");
        }
        Some(DefaultValue::Num(v)) => {
            let _ = write!(doc, " Default {v:?}.");
        }
        Some(DefaultValue::Bool(v)) => {
            let _ = write!(doc, " Default {v}.");
        }
        None => {}
    }
    doc
}

/// `state_and_screenshot` -> `StateAndScreenshot`.
fn pascal(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
        })
        .collect()
}

fn field_name(name: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "box", "break", "const", "continue", "crate", "do", "dyn", "else",
        "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop",
        "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
        "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
        "virtual", "where", "while", "yield",
    ];
    if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_owned()
    }
}

/// `///` lines wrapped at 100 columns, with markdown-significant brackets escaped so rustdoc
/// reads `chrome-<port>` and `[0,1]` as text.
fn doc_lines(indent: &str, text: &str) -> String {
    let escaped =
        text.replace('<', "\\<").replace('>', "\\>").replace('[', "\\[").replace(']', "\\]");
    comment_lines("///", indent, &escaped)
}

/// `text` as `marker` comment lines of at most 100 columns.
fn comment_lines(marker: &str, indent: &str, text: &str) -> String {
    let width = 100 - indent.len() - marker.len() - 1;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines.iter().map(|l| format!("{indent}{marker} {l}")).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_files_are_fresh() {
        for (rel, want) in rust_files().expect("rendering the Rust files") {
            let have = std::fs::read_to_string(root().join(&rel)).unwrap_or_default();
            assert!(have == want, "{rel} is stale; run `cargo xtask codegen`");
        }
    }

    #[test]
    fn names() {
        assert_eq!(pascal("state_and_screenshot"), "StateAndScreenshot");
        assert_eq!(pascal("cursor_before"), "CursorBefore");
        assert_eq!(field_name("ref"), "r#ref");
        assert_eq!(field_name("tab_id"), "tab_id");
    }

    #[test]
    fn docs_wrap_and_escape() {
        let text = doc_lines("    ", &format!("{} id chrome-<port> in [0,1]", "word ".repeat(30)));
        assert!(text.lines().all(|l| l.len() <= 100 && l.starts_with("    /// ")), "{text}");
        assert!(text.contains("chrome-\\<port\\> in \\[0,1\\]"), "{text}");
    }
}
