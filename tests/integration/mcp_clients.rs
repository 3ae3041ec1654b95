//! Every official MCP client on its default path runs the same short flow against the real
//! daemon: list the tools, navigate Chromium to a loopback page and take its snapshot, take a
//! desktop screenshot, read the navigation's capture as a resource, and have a call that a
//! `"approve": "elicitation"` rule catches allowed by the host's user. The Python SDK's
//! high-level `mcp.Client` (it probes `server/discover` and speaks 2026-07-28) and its
//! `ClientSession` (the `initialize` handshake, 2025-11-25), and the TypeScript SDK's `Client`
//! (npm `@modelcontextprotocol/sdk`, 2025-11-25), each over Streamable HTTP and over stdio
//! (`gloveboxd mcp` on its own desktop); the MCP Inspector's CLI over HTTP, as far as a CLI
//! goes (it cannot answer an elicitation).

use std::path::{Path, PathBuf};
use std::process::Command;

use glovebox_tests::browser::{BrowserEnv, Site};
use glovebox_tests::{TempDir, ACTOR};
use serde_json::{json, Value};

use crate::mcp::{inspector, run_client};

/// The approval rule the flow's `computer.wait` of 70 ms meets: the host's user is asked.
fn policy() -> Value {
    json!({"rules": [
        {"name": "ask-the-user", "class": "any", "args": {"duration_ms": "7*"}, "decision": "ask",
         "approve": "elicitation"},
    ]})
}

/// What every client's flow must have found, and the revision it spoke.
fn assert_flow(found: &Value, version: &str) {
    assert_eq!(found["version"], version, "{found}");
    assert_eq!(found["tools"], json!(["browser", "computer", "context"]), "{found}");
    let kinds = |step: &str| found[step]["kinds"].as_array().cloned().unwrap_or_default();
    assert_eq!(found["navigate"]["is_error"], false, "{found}");
    assert!(kinds("navigate").contains(&json!("image")), "{found}");
    assert!(kinds("navigate").contains(&json!("resource_link")), "{found}");
    assert_eq!(found["snapshot"]["is_error"], false, "{found}");
    assert_eq!(found["snapshot_has_go"], true, "{found}");
    assert_eq!(found["screenshot"]["is_error"], false, "a desktop action: {found}");
    assert!(kinds("screenshot").contains(&json!("image")), "{found}");
    let link = found["links"][0].as_str().unwrap_or_default();
    assert!(link.starts_with("glovebox://capture/"), "{found}");
    assert_eq!(found["read"], json!({"mime": "image/png", "png": true}), "{found}");
    let asked = found["asked"][0].as_str().unwrap_or_default();
    assert!(asked.contains("computer.wait") && asked.contains("ask-the-user"), "{found}");
    assert_eq!(found["elicited"]["is_error"], false, "the user allowed it: {found}");
    let waited = &found["elicited"]["structured"]["result"]["waited_ms"];
    assert!(waited.as_u64().is_some_and(|ms| ms >= 70), "{found}");
}

/// A client over Streamable HTTP against a daemon with the flow's policy; its findings.
async fn over_http(client: impl FnOnce(String, String) -> Value + Send + 'static) -> Value {
    let env = BrowserEnv::with_policy(policy()).await;
    let url = format!("http://{}/mcp", env.daemon.addr);
    let site = env.site.base.clone();
    tokio::task::spawn_blocking(move || client(url, site)).await.expect("client ran")
}

/// A client over stdio: `gloveboxd mcp` on its own embedded desktop, with the flow's policy.
/// `client` gets the page's site and the server's command line.
async fn over_stdio(client: impl FnOnce(String, Vec<String>) -> Value + Send + 'static) -> Value {
    let site = Site::start().await;
    let state = TempDir::new("mcp-clients");
    let policy_file = state.path.join("policy.json");
    std::fs::write(&policy_file, policy().to_string()).expect("policy file");
    let command = vec![
        glovebox_tests::binary::gloveboxd().to_string_lossy().into_owned(),
        "mcp".to_owned(),
        "--state-dir".to_owned(),
        state.path.join("state").display().to_string(),
        "--policy".to_owned(),
        policy_file.display().to_string(),
    ];
    let base = site.base.clone();
    let found = tokio::task::spawn_blocking(move || client(base, command)).await;
    // Run as root, the server kept its desktop user's dir beside the state dir.
    let desktop = glovebox_daemon::process::user::default_dir(&state.path.join("state"));
    let _ = std::fs::remove_dir_all(desktop);
    drop(state);
    found.expect("client ran")
}

/// The display variables a stdio server must not see, so it brings up its own desktop.
const OWN_DESKTOP: [&str; 4] =
    ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"];

/// `client.py` over stdio with `flags` before its arguments.
fn python_stdio(flags: &[&str], site: &str, command: &[String]) -> Value {
    let mut args: Vec<&str> = flags.to_vec();
    args.extend(["stdio", site, "flow", "--"]);
    args.extend(command.iter().map(String::as_str));
    run_client(&args, &OWN_DESKTOP)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdks_client_runs_the_flow() {
    let found =
        over_http(|url, site| run_client(&["--client", &url, ACTOR, &site, "flow"], &[])).await;
    assert_flow(&found, "2026-07-28");
    let found = over_stdio(|site, command| python_stdio(&["--client"], &site, &command)).await;
    assert_flow(&found, "2026-07-28");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdks_client_session_runs_the_flow() {
    let found = over_http(|url, site| run_client(&[&url, ACTOR, &site, "flow"], &[])).await;
    assert_flow(&found, "2025-11-25");
    let found = over_stdio(|site, command| python_stdio(&[], &site, &command)).await;
    assert_flow(&found, "2025-11-25");
}

/// The npm packages of `tests/mcp` (`cargo xtask test` installs them).
fn node_modules() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp").join("node_modules");
    assert!(
        dir.join(".bin").join("node").exists(),
        "run `cargo xtask test` to install tests/mcp's npm packages"
    );
    dir
}

/// `tests/mcp/client.mjs` (the TypeScript SDK's `Client`) with these arguments, on the
/// Node.js installed beside it; its findings.
fn typescript(args: &[&str], unset: &[&str]) -> Value {
    let modules = node_modules();
    let mut cmd = Command::new(modules.join(".bin").join("node"));
    cmd.arg(modules.parent().expect("tests/mcp").join("client.mjs")).args(args);
    for var in unset {
        cmd.env_remove(var);
    }
    crate::mcp::findings(cmd, "the TypeScript client")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdks_client_runs_the_flow() {
    let found = over_http(|url, site| typescript(&[&url, ACTOR, &site], &[])).await;
    assert_flow(&found, "2025-11-25");
    let found = over_stdio(|site, command| {
        let mut args = vec!["stdio", site.as_str(), "--"];
        args.extend(command.iter().map(String::as_str));
        typescript(&args, &OWN_DESKTOP)
    })
    .await;
    assert_flow(&found, "2025-11-25");
}

/// One Inspector CLI call over HTTP in protocol era `era`, with the actor's token.
fn inspect(url: &str, era: &str, method: &[&str]) -> Value {
    let auth = format!("Authorization: Bearer {ACTOR}");
    let mut args = vec![url, "--transport", "http", "--header", &auth, "--protocol-era", era];
    args.extend(["--format", "json", "--method"]);
    args.extend(method);
    inspector(&args)
}

/// A `tools/call` through the Inspector CLI; its result.
fn inspect_call(url: &str, era: &str, tool: &str, arguments: &Value) -> Value {
    let arguments = arguments.to_string();
    let call = ["tools/call", "--tool-name", tool, "--tool-args-json", &arguments];
    let out = inspect(url, era, &call);
    out.get("result").cloned().unwrap_or(out)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mcp_inspector_cli_runs_the_flow_as_far_as_a_cli_goes() {
    let found = over_http(|url, site| {
        // Its capture is read back: asked for (`auto` sends none for a page its outline shows).
        let page =
            json!({"action": "navigate", "url": format!("{site}/refs.html"), "capture": true});
        let mut found = json!({});
        for era in ["modern", "legacy"] {
            let listed = inspect(&url, era, &["tools/list"]);
            let listed = listed.get("result").unwrap_or(&listed);
            let names = crate::mcp::tool_names(listed);
            let nav = inspect_call(&url, era, "browser", &page);
            let snap = inspect_call(&url, era, "browser", &json!({"action": "snapshot"}));
            let shot = inspect_call(&url, era, "computer", &json!({"action": "screenshot"}));
            found[era] =
                json!({"tools": names, "navigate": nav, "snapshot": snap, "screenshot": shot});
        }
        // Stateless (2026-07-28) calls of one token share its session, so a later run reads
        // the capture an earlier one took; each legacy run has an MCP session of its own.
        let link = found["modern"]["navigate"]["content"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|b| b["type"] == "resource_link")
            .and_then(|b| b["uri"].as_str())
            .unwrap_or_default()
            .to_owned();
        let read = inspect(&url, "modern", &["resources/read", "--uri", &link]);
        found["read"] = read.get("result").cloned().unwrap_or(read);
        found
    })
    .await;
    for era in ["modern", "legacy"] {
        let f = &found[era];
        assert_eq!(f["tools"], json!(["browser", "computer", "context"]), "{era}: {found}");
        for step in ["navigate", "snapshot", "screenshot"] {
            assert_eq!(f[step]["isError"], false, "{era} {step}: {found}");
        }
        let outline = f["snapshot"]["structuredContent"]["result"]["snapshot"].as_str();
        assert!(outline.is_some_and(|o| o.contains("button \"Go\"")), "{era}: {found}");
        let image = |step: &str| {
            f[step]["content"].as_array().is_some_and(|c| c.iter().any(|b| b["type"] == "image"))
        };
        assert!(image("navigate") && image("screenshot"), "{era}: {found}");
    }
    let contents = &found["read"]["contents"][0];
    assert_eq!(contents["mimeType"], "image/png", "{found}");
    assert!(contents["blob"].as_str().is_some_and(|b| b.starts_with("iVBORw0KGgo")), "{found}");
}

/// One JSON-RPC request to `/mcp` with curl, as the actor, with these extra headers; the
/// answer (the last `data:` line of an event stream, or the JSON body; null when there is
/// none) and its headers, lowercase.
fn post(url: &str, headers: &[&str], body: &Value) -> (Value, String) {
    let mut cmd = Command::new("curl");
    cmd.args(["-s", "-D", "-", "-X", "POST", url]);
    let auth = format!("Authorization: Bearer {ACTOR}");
    let standard =
        ["Content-Type: application/json", "Accept: application/json, text/event-stream", &auth];
    for h in standard.iter().chain(headers) {
        cmd.args(["-H", h]);
    }
    let out = cmd.args(["-d", &body.to_string()]).output().expect("curl runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let json = rest
        .lines()
        .filter_map(|l| l.strip_prefix("data:").map(str::trim))
        .rfind(|d| d.starts_with('{'))
        .unwrap_or(rest.trim());
    (serde_json::from_str(json).unwrap_or(Value::Null), head.to_ascii_lowercase())
}

/// The `_meta` a 2026-07-28 request carries in place of a handshake.
fn meta_2026() -> Value {
    json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
           "io.modelcontextprotocol/clientInfo": {"name": "curl", "version": "1"},
           "io.modelcontextprotocol/clientCapabilities": {}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_revision_negotiates_and_gets_the_result_shape_it_asks_for() {
    let daemon = glovebox_tests::InProcess::start().await;
    let url = format!("http://{}/mcp", daemon.addr);
    let found = tokio::task::spawn_blocking(move || {
        let init = |version: &str| {
            let params = json!({"protocolVersion": version, "capabilities": {},
                                "clientInfo": {"name": "curl", "version": "1"}});
            post(
                &url,
                &[],
                &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}),
            )
        };
        // The handshake (2025-11-25) opens a session; its results are the older shape.
        let (legacy, head) = init("2025-11-25");
        let sid = head
            .lines()
            .find_map(|l| l.strip_prefix("mcp-session-id:"))
            .map(str::trim)
            .unwrap_or_default()
            .to_owned();
        let in_session =
            [format!("Mcp-Session-Id: {sid}"), "MCP-Protocol-Version: 2025-11-25".into()];
        let h: Vec<&str> = in_session.iter().map(String::as_str).collect();
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let call = |meta: Option<Value>| {
            let mut params = json!({"name": "context", "arguments": {"action": "get_state"}});
            if let Some(m) = meta {
                params["_meta"] = m;
            }
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params})
        };
        post(&url, &h, &note); // 202, no body
        let (session_call, _) = post(&url, &h, &call(None));
        // A client that offers 2026-07-28 at `initialize` is answered with the newest revision
        // that has a handshake: 2026-07-28 itself is negotiated by server/discover.
        let (offered_2026, _) = init("2026-07-28");
        let discover = json!({"jsonrpc": "2.0", "id": 3, "method": "server/discover",
                              "params": {"_meta": meta_2026()}});
        let modern = ["MCP-Protocol-Version: 2026-07-28", "Mcp-Method: server/discover"];
        let (discovered, _) = post(&url, &modern, &discover);
        // Stateless 2026-07-28: per-request _meta and the standard headers.
        let modern =
            ["MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call", "Mcp-Name: context"];
        let (stateless_call, _) = post(&url, &modern, &call(Some(meta_2026())));
        json!({"legacy": legacy, "sid": sid, "session_call": session_call,
               "offered_2026": offered_2026, "discovered": discovered,
               "stateless_call": stateless_call})
    })
    .await
    .expect("curl ran");
    assert_eq!(found["legacy"]["result"]["protocolVersion"], "2025-11-25", "{found}");
    assert!(found["sid"].as_str().is_some_and(|s| !s.is_empty()), "{found}");
    let session_call = &found["session_call"]["result"];
    assert_eq!(session_call["isError"], false, "{found}");
    assert!(session_call.get("resultType").is_none(), "2025-11-25 has no resultType: {found}");
    assert_eq!(found["offered_2026"]["result"]["protocolVersion"], "2025-11-25", "{found}");
    let versions = &found["discovered"]["result"]["supportedVersions"];
    let has = |v: &str| versions.as_array().is_some_and(|a| a.contains(&json!(v)));
    assert!(has("2025-11-25") && has("2026-07-28"), "{found}");
    let stateless_call = &found["stateless_call"]["result"];
    assert_eq!(stateless_call["isError"], false, "{found}");
    assert_eq!(stateless_call["resultType"], "complete", "{found}");
    daemon.stop().await;
}
