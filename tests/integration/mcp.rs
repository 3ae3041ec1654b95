//! Glovebox as an MCP server at `/mcp`, driven by the official MCP Python SDK (PyPI `mcp`,
//! installed by `cargo xtask test`) over Streamable HTTP against the real daemon and Chromium:
//! the three tools, a ref from one call clicking in the next, images as image blocks,
//! contract and role errors as `isError` results, and 401 without a token.

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::{ACTOR, OBSERVER};
use serde_json::Value;

/// Runs `tests/mcp/client.py` with `scenario` and returns what it found.
fn client(url: &str, token: &str, site: &str, scenario: &str) -> Value {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp").join("client.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .args([url, token, site, scenario])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "the MCP client failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
            .chars()
            .rev()
            .take(3000)
            .collect::<String>()
            .chars()
            .rev()
            .collect::<String>()
    );
    let line = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(line.trim()).unwrap_or_else(|e| panic!("{e}: {line}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_host_drives_the_browser_through_mcp() {
    let env = BrowserEnv::start().await;
    let url = format!("http://{}/mcp", env.daemon.addr);
    let site = env.site.base.clone();
    let (u, s) = (url.clone(), site.clone());
    let found = tokio::task::spawn_blocking(move || client(&u, ACTOR, &s, "agent"))
        .await
        .expect("client ran");
    assert_eq!(found["tools"], serde_json::json!(["browser", "computer", "context"]), "{found}");
    let nav = &found["navigate"];
    assert_eq!(nav["is_error"], false, "{found}");
    assert!(nav["kinds"].as_array().is_some_and(|k| k.iter().any(|k| k == "image")), "{found}");
    assert_eq!(found["click"]["is_error"], false, "the ref from the snapshot call: {found}");
    assert_eq!(found["after_click"], "went", "{found}");
    assert_eq!(found["both"]["is_error"], true, "{found}");
    assert_eq!(found["both"]["structured"]["error"]["code"], "CONTRACT_VIOLATION", "{found}");

    let (u, s) = (url.clone(), site.clone());
    let watched = tokio::task::spawn_blocking(move || client(&u, OBSERVER, &s, "observer"))
        .await
        .expect("client ran");
    assert_eq!(watched["click"]["structured"]["error"]["code"], "FORBIDDEN", "{watched}");

    // No token: HTTP 401 before MCP sees the request.
    let status = std::process::Command::new("curl")
        .args(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", &url])
        .args([
            "-H",
            "Content-Type: application/json",
            "-H",
            "Accept: application/json, text/event-stream",
        ])
        .args(["-d", r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#])
        .output()
        .expect("curl");
    assert_eq!(String::from_utf8_lossy(&status.stdout), "401");
}
