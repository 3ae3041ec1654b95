//! Every channel belongs to its token: an MCP session answers only the token that opened it
//! (another token holding its `Mcp-Session-Id` finds nothing), a token keeps a bounded number
//! of them, they end after the session TTL, a session handle is bounded, and a token's MCP
//! calls share its in-flight and rate limits whatever sessions they name. Spoken by hand
//! with the MCP SDK's own HTTP client (`tests/mcp/channels.py`) against the real daemon.

use std::time::Duration;

use glovebox_tests::{InProcess, Options, ACTOR, OBSERVER, OTHER_ACTOR};
use serde_json::{json, Value};

/// Runs `tests/mcp/channels.py` and returns what it found.
fn channels(args: &[String]) -> Value {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp").join("channels.py");
    let mut cmd = std::process::Command::new("python3");
    cmd.arg(script).args(args);
    crate::mcp::findings(cmd, "channels.py")
}

async fn run(args: &[&str]) -> Value {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    tokio::task::spawn_blocking(move || channels(&args)).await.expect("the client ran")
}

fn mcp_url(d: &InProcess) -> String {
    format!("http://{}/mcp", d.addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_token_holding_an_mcp_session_id_finds_no_session() {
    let d = InProcess::start().await;
    let url = mcp_url(&d);
    for thief in [OBSERVER, OTHER_ACTOR] {
        let found = run(&["hijack", &url, ACTOR, thief]).await;
        assert_eq!(found["event_id"], true, "{found}");
        for (what, status) in [
            ("thief_get", 404),
            ("thief_post", 404),
            ("thief_answer", 404),
            ("thief_delete", 404),
            ("owner_get", 200),
            ("owner_post", 200),
            ("owner_delete", 202),
            ("after_delete", 404),
        ] {
            assert_eq!(found[what], status, "{what} with {thief}: {found}");
        }
        assert_eq!(found["thief_got_answer"], false, "{found}");
        assert_eq!(found["owner_answer"], "wait", "the owner's result reached the owner: {found}");
    }
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_keeps_its_newest_mcp_sessions_and_never_ends_another_s() {
    let configure: glovebox_tests::Configure =
        std::sync::Arc::new(|c| c.max_mcp_sessions_per_token = 2);
    let d = InProcess::with(Options { configure: Some(configure), ..Options::default() }).await;
    let found = run(&["cap", &mcp_url(&d), ACTOR, OTHER_ACTOR, "2"]).await;
    assert_eq!(found["mine"], json!([404, 200, 200]), "the oldest of three went: {found}");
    assert_eq!(found["theirs"], 200, "another token's session stays: {found}");
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_session_ends_after_the_session_ttl_and_its_handle_resumes_it() {
    let configure: glovebox_tests::Configure =
        std::sync::Arc::new(|c| c.session_ttl = Duration::from_secs(2));
    let d = InProcess::with(Options { configure: Some(configure), ..Options::default() }).await;
    let found = run(&["idle", &mcp_url(&d), ACTOR, "2"]).await;
    assert_eq!(found["handle"], true, "a stateful client's result names its session: {found}");
    assert_eq!(found["used"], json!([200, 200, 200]), "used within its TTL: {found}");
    assert_eq!(found["left"], 404, "idle for 1.5 TTLs: {found}");
    assert_eq!(found["resumed"], true, "resumed by its handle in a new MCP session: {found}");
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_handle_over_128_characters_is_a_contract_violation() {
    let d = InProcess::start().await;
    let found = run(&["handle", &mcp_url(&d), ACTOR]).await;
    assert_eq!(found, json!({"is_error": true, "code": "CONTRACT_VIOLATION"}));
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_calls_that_name_fresh_sessions_share_their_token_s_limits() {
    let d = InProcess::with(Options { max_in_flight: Some(2), ..Options::default() }).await;
    let found = run(&["flood", &mcp_url(&d), ACTOR, "6", "1500"]).await;
    let codes = found["codes"].as_array().expect("codes").clone();
    let ran = codes.iter().filter(|c| c.is_null()).count();
    let busy = codes.iter().filter(|c| *c == "BUSY").count();
    assert_eq!((ran, busy), (2, 4), "two in flight at once, the rest BUSY: {found}");
    d.stop().await;
    let d = InProcess::with(Options { max_ops_per_sec: Some(3), ..Options::default() }).await;
    let found = run(&["flood", &mcp_url(&d), ACTOR, "8", "1"]).await;
    let codes = found["codes"].as_array().expect("codes").clone();
    let limited = codes.iter().filter(|c| *c == "BUSY").count();
    assert!(
        limited >= 4,
        "at most 3 a second (plus what refills meanwhile), the rest BUSY: {found}"
    );
    d.stop().await;
}
