//! Glovebox as an MCP server, driven by the official MCP Python SDK (PyPI `mcp`, installed
//! by `cargo xtask test`) against the real daemon and Chromium: over Streamable HTTP at `/mcp`
//! (the three tools, a ref from one call clicking in the next, images as image blocks,
//! contract and role errors as `isError` results, 401 without a token), and over stdio with
//! `gloveboxd mcp`, bridged to a running daemon and on its own embedded desktop; and the MCP
//! Inspector's CLI. The flow every official client runs is in `mcp_clients.rs`.

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::{ACTOR, OBSERVER, OTHER_ACTOR};
use serde_json::Value;

/// Runs `tests/mcp/client.py` with these arguments (and the environment minus `unset`) and
/// returns what it found.
pub(crate) fn run_client(args: &[&str], unset: &[&str]) -> Value {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp").join("client.py");
    let mut cmd = std::process::Command::new("python3");
    cmd.arg(script).args(args);
    for var in unset {
        cmd.env_remove(var);
    }
    findings(cmd, "the MCP client")
}

/// `tests/mcp/client.py` run with `args`, talked to line by line: the child, its stdin, and
/// its next JSON line (each waited for within the deadline).
pub(crate) fn interactive(
    args: &[&str],
) -> (std::process::Child, std::process::ChildStdin, impl Fn() -> Value) {
    use std::io::{BufRead as _, BufReader};
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp").join("client.py");
    let mut child = std::process::Command::new("python3")
        .arg(script)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    // The client's lines, read on a thread so every wait for one has a deadline.
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let next = move || -> Value {
        let deadline = glovebox_tests::DEADLINE;
        let line = rx.recv_timeout(deadline).expect("the client's next line within the deadline");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    };
    let stdin = child.stdin.take().expect("stdin");
    (child, stdin, next)
}

/// The tool names a `tools/list` answer lists, sorted.
pub(crate) fn tool_names(listed: &Value) -> Vec<&str> {
    let tools = listed["tools"].as_array().into_iter().flatten();
    let mut names: Vec<&str> = tools.filter_map(|t| t["name"].as_str()).collect();
    names.sort_unstable();
    names
}

/// Runs a client script that prints what it found as one JSON line, last; fails the test
/// with the end of its stderr when it fails.
pub(crate) fn findings(mut cmd: std::process::Command, what: &str) -> Value {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what} does not start: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let tail: String =
        stderr.chars().rev().take(3000).collect::<Vec<_>>().into_iter().rev().collect();
    assert!(out.status.success(), "{what} failed:\n{tail}");
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().last().unwrap_or_default();
    serde_json::from_str(line.trim()).unwrap_or_else(|e| panic!("{e}: {text}\n{tail}"))
}

/// The client over Streamable HTTP.
fn client(url: &str, token: &str, site: &str, scenario: &str) -> Value {
    run_client(&[url, token, site, scenario], &[])
}

/// What every agent round must have found, whatever the transport.
fn assert_agent_round(found: &Value) {
    assert_eq!(found["tools"], serde_json::json!(["browser", "computer", "context"]), "{found}");
    let nav = &found["navigate"];
    assert_eq!(nav["is_error"], false, "{found}");
    assert!(nav["kinds"].as_array().is_some_and(|k| k.iter().any(|k| k == "image")), "{found}");
    assert_eq!(found["click"]["is_error"], false, "the ref from the snapshot call: {found}");
    assert_eq!(found["after_click"], "went", "{found}");
    assert_eq!(found["both"]["is_error"], true, "{found}");
    assert_eq!(found["both"]["structured"]["error"]["code"], "CONTRACT_VIOLATION", "{found}");
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
    assert_agent_round(&found);
    // The click's capture: linked, listed and read back by its session.
    let link = found["links"][0].as_str().expect("a resource_link").to_owned();
    assert!(link.starts_with("glovebox://capture/"), "{found}");
    assert!(found["resources"].as_array().is_some_and(|r| r.iter().any(|u| *u == link)), "{found}");
    assert_eq!(found["read"]["png"], true, "{found}");
    // Another token's session has no such resource.
    let (u, l) = (url.clone(), link.clone());
    let other = tokio::task::spawn_blocking(move || client(&u, OTHER_ACTOR, &l, "read"))
        .await
        .expect("client ran");
    assert_eq!(other["read"], "error", "another session read {link}: {other}");

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_client_keeps_sessions_apart_by_the_handles_results_give() {
    let env = BrowserEnv::start().await;
    let url = format!("http://{}/mcp", env.daemon.addr);
    let (u, s) = (url.clone(), env.site.base.clone());
    let found = tokio::task::spawn_blocking(move || client(&u, ACTOR, &s, "handles"))
        .await
        .expect("client ran");
    let (a, b) = (found["a"].as_str().unwrap_or_default(), found["b"].as_str().unwrap_or("-"));
    assert!(a.starts_with("mcp-") && a != b, "two minted handles: {found}");
    assert_eq!(found["text_names_it"], true, "the model reads the handle: {found}");
    assert_eq!(found["in_a"]["is_error"], false, "a ref in its own session: {found}");
    assert_eq!(found["in_b"]["is_error"], true, "the ref is not the other session's: {found}");
    // Another token cannot use the handle.
    let (u, h) = (url.clone(), format!("use:{a}"));
    let other = tokio::task::spawn_blocking(move || client(&u, OTHER_ACTOR, &h, "handles"))
        .await
        .expect("client ran");
    assert_eq!(other["other"]["is_error"], true, "another token's handle: {other}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_is_a_resource_of_the_session_that_made_it() {
    let env = BrowserEnv::start().await;
    let url = format!("http://{}/mcp", env.daemon.addr);
    let (u, s) = (url.clone(), env.site.base.clone());
    let found = tokio::task::spawn_blocking(move || client(&u, ACTOR, &s, "download"))
        .await
        .expect("client ran");
    let links = found["links"].as_array().cloned().unwrap_or_default();
    let link =
        links.iter().filter_map(Value::as_str).find(|l| l.starts_with("glovebox://download/"));
    assert_eq!(link, Some("glovebox://download/report.csv"), "linked from the click: {found}");
    assert_eq!(found["listed"], true, "listed and read whole: {found}");
    assert_eq!(found["read"]["mime"], "text/csv", "{found}");
    assert_eq!(found["read"]["text"], "name,value\nalpha,1\nbeta,2\n", "{found}");
    // A file still coming is named, and reading it says it is not done yet.
    assert_eq!(found["big_links"][0], "glovebox://download/big.bin", "{found}");
    let partial = found["partial"].as_str().unwrap_or_default();
    assert!(partial.contains("still downloading"), "{found}");
    // Another token's session has no such resource.
    let (u, l) = (url.clone(), "glovebox://download/report.csv".to_owned());
    let other = tokio::task::spawn_blocking(move || client(&u, OTHER_ACTOR, &l, "read"))
        .await
        .expect("client ran");
    assert_eq!(other["read"], "error", "another session read the download: {other}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_stream_resumes_with_last_event_id() {
    let env = BrowserEnv::start().await;
    let url = format!("http://{}/mcp", env.daemon.addr);
    let found = tokio::task::spawn_blocking(move || run_client(&["resume", &url, ACTOR], &[]))
        .await
        .expect("client ran");
    assert_eq!(found["session"], true, "an Mcp-Session-Id: {found}");
    assert!(found["event_id"].is_string(), "the stream's first event had an id: {found}");
    assert_eq!(found["get_status"], 200, "{found}");
    assert_eq!(found["answer"]["is_error"], false, "the call's answer, replayed: {found}");
    assert_eq!(found["answer"]["action"], "wait", "{found}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gloveboxd_mcp_bridges_stdio_to_a_running_daemon() {
    let env = BrowserEnv::start().await;
    let dir = glovebox_tests::TempDir::new("mcp-bridge");
    let token_file = dir.path.join("token");
    std::fs::write(&token_file, format!("{ACTOR} actor\n")).expect("token file");
    let url = format!("ws://{}/rpc", env.daemon.addr);
    let bin = glovebox_tests::binary::gloveboxd();
    let site = env.site.base.clone();
    let found = tokio::task::spawn_blocking(move || {
        let (bin, tf) = (bin.to_string_lossy().into_owned(), token_file.display().to_string());
        let args = ["stdio", &site, "agent", "--", &bin, "mcp", "--url", &url, "--token-file", &tf];
        run_client(&args, &[])
    })
    .await
    .expect("client ran");
    assert_agent_round(&found);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bare_gloveboxd_mcp_runs_on_its_own_desktop() {
    let site = glovebox_tests::browser::Site::start().await;
    let state = glovebox_tests::TempDir::new("mcp-stdio");
    let bin = glovebox_tests::binary::gloveboxd();
    let base = site.base.clone();
    let found = tokio::task::spawn_blocking(move || {
        let (bin, dir) = (bin.to_string_lossy().into_owned(), state.path.display().to_string());
        let args = ["stdio", &base, "state", "--", &bin, "mcp", "--state-dir", &dir];
        // No display to adopt: the daemon brings up its own.
        let found = run_client(
            &args,
            &["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"],
        );
        (found, state)
    })
    .await
    .expect("client ran");
    let (found, state) = found;
    // Run as root, the server kept its desktop user's dir beside the state dir.
    let _ = std::fs::remove_dir_all(glovebox_daemon::process::user::default_dir(&state.path));
    let st = &found["state"];
    assert_eq!(st["is_error"], false, "{found}");
    let desktop = &st["structured"]["result"]["backends"]["desktop"];
    assert_eq!(desktop["mode"], "embedded", "{found}");
    assert_eq!(desktop["status"], "ready", "{found}");
    assert_agent_round(&found);
}

/// The MCP Inspector's CLI (npm `@modelcontextprotocol/inspector`, on the Node.js that
/// `cargo xtask test` installs beside it) with these arguments; its stdout as JSON.
pub(crate) fn inspector(args: &[&str]) -> Value {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp").join("node_modules");
    let bin = dir.join(".bin");
    assert!(
        bin.join("mcp-inspector").exists(),
        "run `cargo xtask test` to install tests/mcp's npm packages"
    );
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = std::process::Command::new(bin.join("mcp-inspector"))
        .arg("--cli")
        .args(args)
        .env("PATH", path)
        .env("HOME", dir.join(".home"))
        .output()
        .expect("the inspector runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the inspector failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mcp_inspector_lists_the_tools_and_reads_the_state() {
    let daemon = glovebox_tests::InProcess::start().await;
    let url = format!("http://{}/mcp", daemon.addr);
    let auth = format!("Authorization: Bearer {ACTOR}");
    let (u, a) = (url.clone(), auth.clone());
    let listed = tokio::task::spawn_blocking(move || {
        inspector(&[u.as_str(), "--transport", "http", "--header", &a, "--method", "tools/list"])
    })
    .await
    .expect("ran");
    assert_eq!(tool_names(&listed), ["browser", "computer", "context"], "{listed}");
    let state = tokio::task::spawn_blocking(move || {
        let call = ["--method", "tools/call", "--tool-name", "context", "--tool-arg"];
        let mut args = vec![url.as_str(), "--transport", "http", "--header", &auth];
        args.extend(call);
        args.push("action=get_state");
        inspector(&args)
    })
    .await
    .expect("ran");
    assert_ne!(state["isError"], true, "{state}");
    let session = &state["structuredContent"]["result"]["session_id"];
    assert!(session.as_str().is_some_and(|s| s.starts_with("mcp-")), "{state}");
}
