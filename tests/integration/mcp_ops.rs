//! Long and risky calls from an MCP host (the official Python SDK over Streamable HTTP): a
//! long `wait` reports progress, abandoning it cancels the op and lets go of a held Shift
//! (read back from the X server), and a call an `ask` rule catches answers `isError` with
//! `APPROVAL_REQUIRED`, then runs once after an approver's grant, while a rule that says
//! `"approve": "elicitation"` asks the host's user through the SDK's elicitation callback.

use std::io::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use glovebox_daemon::approval::policy::Policy;
use glovebox_tests::desktop::DesktopFixture;
use glovebox_tests::raw::Raw;
use glovebox_tests::{InProcess, Options, ACTOR, APPROVER};
use serde_json::json;
use x11rb::protocol::xproto::ConnectionExt as _;

use crate::mcp::run_client;

/// Whether any key is down on the X server.
fn keys_down(conn: &x11rb::rust_connection::RustConnection) -> bool {
    conn.query_keymap().expect("keymap").reply().expect("keymap").keys.iter().any(|b| *b != 0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_call_is_cancelled_and_lets_go_of_held_keys() {
    let f = DesktopFixture::start().await;
    let (x, _) = glovebox_daemon::desktop::xauth::connect(f.env.display()).expect("X connection");
    let url = format!("http://{}/mcp", f.daemon.addr);
    let found = tokio::task::spawn_blocking(move || run_client(&[&url, ACTOR, "-", "cancel"], &[]))
        .await
        .expect("client ran");
    assert_eq!(found["keydown"]["is_error"], false, "{found}");
    assert_eq!(found["abandoned"], true, "{found}");
    let progress = found["progress"].as_array().expect("progress");
    assert!(!progress.is_empty(), "a 2.5 s call reports progress: {found}");
    assert!(
        progress[0]["message"].as_str().is_some_and(|m| m.contains("computer.wait running")),
        "{found}"
    );
    // The re-sent op id is the cancelled op, not a second wait.
    assert_eq!(found["again"]["structured"]["error"]["code"], "CANCELLED", "{found}");
    let deadline = Instant::now() + Duration::from_secs(2);
    while keys_down(&x) {
        assert!(Instant::now() < deadline, "Shift is still down 2 s after the host gave up");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ask_rule_answers_approval_required_and_a_grant_runs_it_once() {
    let policy: Policy = serde_json::from_value(json!({"rules": [
        {"name": "ask-long-waits", "class": "any", "args": {"duration_ms": "7*"}, "decision": "ask"},
    ]}))
    .expect("policy");
    let configure = Arc::new(move |c: &mut glovebox_daemon::Config| c.policy = policy.clone());
    let d = InProcess::with(Options { configure: Some(configure), ..Options::default() }).await;
    let url = format!("http://{}/mcp", d.addr);
    let (mut child, mut stdin, next) =
        crate::mcp::interactive(&[url.as_str(), ACTOR, "-", "approval"]);
    let asked = tokio::task::block_in_place(&next);
    let id = asked["approval_id"].as_str().expect("approval id").to_owned();

    // An approver grants it over the WebSocket, as the live view's page would.
    let mut approver = Raw::connect(&d.url(), Some(APPROVER)).await.expect("approver");
    approver.hello(None).await;
    let granted = approver.call("approval.grant", json!({"approval_id": id})).await;
    assert_eq!(granted["result"]["state"], "granted", "{granted}");
    writeln!(stdin, "granted").expect("tell the client");
    let found = tokio::task::block_in_place(&next);
    assert!(child.wait().expect("exit").success());

    let asked = &found["asked"];
    assert_eq!(asked["is_error"], true, "{found}");
    let error = &asked["structured"]["error"];
    assert_eq!(error["code"], "APPROVAL_REQUIRED", "{found}");
    assert_eq!(error["details"]["op_id"], "mcp-asked", "{found}");
    assert_eq!(found["ran"]["is_error"], false, "{found}");
    let waited = &found["ran"]["structured"]["result"]["waited_ms"];
    assert!(waited.as_u64().is_some_and(|ms| ms >= 70), "{found}");
    assert_eq!(found["replay"]["structured"], found["ran"]["structured"], "ran once: {found}");
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_that_says_elicitation_asks_the_hosts_user() {
    let policy: Policy = serde_json::from_value(json!({"rules": [
        {"name": "ask-the-user", "class": "any", "args": {"duration_ms": "7*"}, "decision": "ask",
         "approve": "elicitation"},
    ]}))
    .expect("policy");
    let configure = Arc::new(move |c: &mut glovebox_daemon::Config| c.policy = policy.clone());
    let d = InProcess::with(Options { configure: Some(configure), ..Options::default() }).await;
    let url = format!("http://{}/mcp", d.addr);
    let found = tokio::task::spawn_blocking(move || run_client(&[&url, ACTOR, "-", "elicit"], &[]))
        .await
        .expect("client ran");
    // The SDK over Streamable HTTP speaks 2025-11-25 here: the question comes as an
    // elicitation request during the call (from 2026-07-28 on, an input-required result).
    let asked = found["asked"][0].as_str().unwrap_or_default();
    assert!(asked.contains("computer.wait") && asked.contains("ask-the-user"), "{found}");
    assert_eq!(found["result"]["is_error"], false, "{found}");
    let waited = &found["result"]["structured"]["result"]["waited_ms"];
    assert!(waited.as_u64().is_some_and(|ms| ms >= 70), "{found}");
    // Nothing is left waiting for an approver.
    let mut approver = Raw::connect(&d.url(), Some(APPROVER)).await.expect("approver");
    approver.hello(None).await;
    let list = approver.call("approval.list", json!({})).await;
    assert_eq!(list["result"]["approvals"], json!([]), "{list}");
    d.stop().await;
}
