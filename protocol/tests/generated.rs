//! The committed generated files match the contract table, and every schema is valid
//! JSON Schema draft 2020-12 with the shape LLM runtimes need. `UPDATE_EXPECT=1` rewrites them.

use std::path::{Path, PathBuf};

use glovebox_protocol::contract::generated::{schema_files, splice_reference};
use glovebox_protocol::contract::schema::tool_schema;
use glovebox_protocol::contract::TOOLS;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn ensure(path: &Path, want: &str, stale: &mut Vec<String>) {
    let have = std::fs::read_to_string(path).unwrap_or_default();
    if have == want {
        return;
    }
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, want).expect("write");
    } else {
        stale.push(path.display().to_string());
    }
}

#[test]
fn generated_files_are_fresh() {
    let mut stale = Vec::new();
    let files = schema_files();
    for (rel, want) in &files {
        ensure(&root().join(rel), want, &mut stale);
    }
    let actions_dir = root().join("protocol/schema/actions");
    for entry in std::fs::read_dir(&actions_dir).into_iter().flatten().flatten() {
        let rel = format!("protocol/schema/actions/{}", entry.file_name().to_string_lossy());
        if !files.iter().any(|(p, _)| *p == rel) {
            if std::env::var_os("UPDATE_EXPECT").is_some() {
                std::fs::remove_file(entry.path()).expect("remove stale schema");
            } else {
                stale.push(format!("{rel} (no longer generated)"));
            }
        }
    }
    let doc_path = root().join("docs/protocol.md");
    let doc = std::fs::read_to_string(&doc_path).expect("docs/protocol.md exists");
    let want = splice_reference(&doc).expect("docs/protocol.md has the generated markers");
    ensure(&doc_path, &want, &mut stale);
    assert!(
        stale.is_empty(),
        "stale generated files (run `cargo xtask codegen` or UPDATE_EXPECT=1 cargo test -p glovebox-protocol):\n{}",
        stale.join("\n")
    );
}

#[test]
fn schemas_are_valid_draft_2020_12() {
    for (rel, text) in schema_files() {
        if rel.ends_with("openrpc.json") {
            continue;
        }
        let schema: serde_json::Value = serde_json::from_str(&text).expect("json");
        assert!(
            jsonschema::draft202012::meta::is_valid(&schema),
            "{rel} is not a valid draft 2020-12 schema"
        );
    }
}

#[test]
fn tool_schemas_have_the_llm_shape() {
    for tool in TOOLS {
        let s = tool_schema(tool);
        assert_eq!(s["type"], "object", "{}", tool.name);
        assert_eq!(s["additionalProperties"], false, "{}", tool.name);
        assert!(s.get("oneOf").is_none() && s.get("anyOf").is_none(), "{}", tool.name);
        let names = s["properties"]["action"]["enum"].as_array().expect("enum").len();
        assert_eq!(names, tool.actions.len(), "{}", tool.name);
    }
}

#[test]
fn schemas_accept_what_the_validator_accepts() {
    let samples = [
        ("browser", serde_json::json!({"action": "click", "ref": "e3", "button": "right"})),
        ("computer", serde_json::json!({"action": "wait", "duration_ms": 10})),
        ("context", serde_json::json!({"action": "get_app", "app": "mousepad", "launch": true})),
    ];
    for (name, args) in samples {
        let tool = glovebox_protocol::contract::tool(name).expect("tool");
        glovebox_protocol::contract::validate_tool_call(tool, &args).expect("valid call");
        let validator = jsonschema::validator_for(&tool_schema(tool)).expect("compiles");
        assert!(validator.is_valid(&args), "{name}: {args}");
    }
}
