//! What a host author follows stays true: the policy file's JSON Schema
//! (`protocol/schema/policy.json`) against the daemon's own policy types and the README's
//! example policies, and each host config in `docs/hosts/` against a real daemon (its URL
//! answers MCP's `initialize`) and the real binary (its command and every flag it passes are
//! in `gloveboxd mcp --help`).

use glovebox_daemon::approval::policy::Policy;
use glovebox_tests::{InProcess, ACTOR};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

fn read_json(rel: &str) -> Value {
    let text = std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The ```json blocks of a Markdown file that hold a policy (a `"rules"` key).
fn policies_in(rel: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(root().join(rel)).expect("readable");
    let mut out = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        match (&mut block, line.trim_start()) {
            (None, l) if l.starts_with("```json") => block = Some(String::new()),
            (Some(b), l) if l.starts_with("```") => {
                let v: Value =
                    serde_json::from_str(b).unwrap_or_else(|e| panic!("{rel}: {e}\n{b}"));
                if v.get("rules").is_some() {
                    out.push(v);
                }
                block = None;
            }
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

#[test]
fn the_policy_schema_says_what_the_daemon_reads() {
    let schema = read_json("protocol/schema/policy.json");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let examples = policies_in("README.md");
    assert!(!examples.is_empty(), "the README shows a policy");
    for p in &examples {
        assert!(validator.is_valid(p), "the schema refuses the README's {p}");
        serde_json::from_value::<Policy>(p.clone())
            .unwrap_or_else(|e| panic!("the daemon refuses the README's {p}: {e}"));
    }
    // Every word the schema allows, the daemon reads, in a rule with every key.
    let rule = &schema["$defs"]["rule"]["properties"];
    let words = |k: &str| rule[k]["enum"].as_array().cloned().unwrap_or_default();
    for (class, (decision, approve)) in words("class")
        .iter()
        .zip(words("decision").iter().cycle().zip(words("approve").iter().cycle()))
    {
        let p = json!({"rules": [{"name": "r", "class": class, "schemes": ["https"],
            "hosts": ["*.test"], "args": {"app": "*x*"}, "decision": decision,
            "approve": approve}]});
        assert!(validator.is_valid(&p), "{p}");
        serde_json::from_value::<Policy>(p.clone()).unwrap_or_else(|e| panic!("{p}: {e}"));
    }
    // What one refuses, so does the other.
    for bad in [
        json!({"rules": [{"name": "r", "class": "navigate", "decision": "maybe"}]}),
        json!({"rules": [{"name": "r", "class": "launch", "decision": "deny"}]}),
        json!({"rules": [{"name": "r", "class": "any", "decision": "deny", "why": "x"}]}),
        json!({"rules": [{"class": "any", "decision": "deny"}]}),
        json!({"rules": [], "version": 2}),
    ] {
        assert!(!validator.is_valid(&bad), "the schema takes {bad}");
        assert!(serde_json::from_value::<Policy>(bad.clone()).is_err(), "the daemon takes {bad}");
    }
}

/// Every MCP server entry of a host config: (name, entry).
fn servers(config: &Value) -> Vec<(String, Value)> {
    let map = config.get("mcpServers").or_else(|| config.get("servers")).expect("servers");
    map.as_object().expect("an object").iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// `gloveboxd mcp --help`.
fn mcp_help() -> String {
    let out = std::process::Command::new(glovebox_tests::binary::gloveboxd())
        .args(["mcp", "--help"])
        .output()
        .expect("gloveboxd runs");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// POST an `initialize` to `url` with the bearer `token` (curl, as a host would send it); the
/// status and whether an `Mcp-Session-Id` came back.
fn initialize(url: &str, token: &str) -> (u16, bool) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "host-docs", "version": "1"}}});
    let out = std::process::Command::new("curl")
        .args(["-s", "-m", "10", "-o", "/dev/null", "-D", "-", "-X", "POST", url])
        .args(["-H", &format!("Authorization: Bearer {token}")])
        .args(["-H", "Content-Type: application/json"])
        .args(["-H", "Accept: application/json, text/event-stream"])
        .args(["-d", &body.to_string()])
        .output()
        .expect("curl");
    let head = String::from_utf8_lossy(&out.stdout).to_lowercase();
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.contains("\nmcp-session-id:"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_host_config_points_at_a_real_endpoint_and_real_flags() {
    let d = InProcess::start().await;
    let help = mcp_help();
    let mut hosts = 0;
    for entry in std::fs::read_dir(root().join("docs/hosts")).expect("docs/hosts") {
        let path = entry.expect("entry").path();
        let rel = format!("docs/hosts/{}", path.file_name().expect("name").to_string_lossy());
        let config = read_json(&rel);
        hosts += 1;
        for (name, server) in servers(&config) {
            if let Some(url) = server["url"].as_str() {
                assert!(url.starts_with("http://127.0.0.1:7788/"), "{rel} {name}: {url}");
                let path = &url["http://127.0.0.1:7788".len()..];
                assert_eq!(path, "/mcp", "{rel} {name}");
                let auth = server["headers"]["Authorization"].as_str().unwrap_or_default();
                assert!(auth.starts_with("Bearer ${"), "{rel} {name}: the token from the host");
                let real = format!("http://{}{path}", d.addr);
                let (status, session) =
                    tokio::task::spawn_blocking(move || initialize(&real, ACTOR))
                        .await
                        .expect("ran");
                assert_eq!((status, session), (200, true), "{rel} {name}: {url}");
                continue;
            }
            assert_eq!(server["command"], "gloveboxd", "{rel} {name}");
            let args: Vec<&str> =
                server["args"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            assert_eq!(args.first(), Some(&"mcp"), "{rel} {name}");
            for flag in args.iter().filter(|a| a.starts_with("--")) {
                assert!(help.contains(&format!("{flag} ")), "{rel} {name}: {flag} is not a flag");
            }
            if let Some(i) = args.iter().position(|a| *a == "--url") {
                let url = args.get(i + 1).expect("a URL");
                assert_eq!(*url, "ws://127.0.0.1:7788/rpc", "{rel} {name}");
            }
        }
    }
    assert_eq!(hosts, 4, "Claude Code, Cursor, VS Code and Claude Desktop");
    d.stop().await;
}
