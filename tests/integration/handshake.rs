//! session.hello: the handshake rule, versions, resumable sessions and their ownership.

use glovebox_tests::raw::{code, Raw};
use glovebox_tests::{InProcess, ACTOR, OBSERVER};
use serde_json::json;

#[tokio::test]
async fn nothing_before_hello() {
    let d = InProcess::start().await;
    let mut c = Raw::connect(&d.url(), Some(ACTOR)).await.expect("connect");
    for method in ["session.status", "tools.list", "computer.wait", "rpc.discover"] {
        let r = c.call(method, json!({"duration_ms": 1})).await;
        assert_eq!(code(&r), "HANDSHAKE_REQUIRED", "{method}: {r}");
    }
    let hello = c.hello(Some("chat-42")).await;
    assert_eq!(hello["protocol"], 1);
    assert!(hello["session_id"].as_str().is_some_and(|s| s.starts_with("chat-42@")), "{hello}");
    assert_eq!(hello["resumed"], false);
    assert_eq!(hello["role"], "actor");
    assert_eq!(hello["daemon"]["name"], "gloveboxd");
    assert_eq!(hello["contract_version"].as_str().map(str::len), Some(16));
    assert!(hello["capabilities"]["ops"]["max_timeout_ms"] == 180_000);
    let again = c.call("session.hello", json!({"protocol": 1})).await;
    assert_eq!(code(&again), "SESSION_BUSY", "{again}");
    d.stop().await;
}

#[tokio::test]
async fn another_major_version_is_refused() {
    let d = InProcess::start().await;
    let mut c = Raw::connect(&d.url(), Some(ACTOR)).await.expect("connect");
    let r = c.call("session.hello", json!({"protocol": 2})).await;
    assert_eq!(code(&r), "PROTOCOL_MISMATCH", "{r}");
    assert_eq!(r["error"]["data"]["details"], json!({"client": 2, "daemon": 1}));
    let msg = r["error"]["data"]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("upgrade the client"), "{msg}");
    let r = c.call("session.hello", json!({"protocol": "one"})).await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");
    c.hello(None).await;
    d.stop().await;
}

#[tokio::test]
async fn sessions_resume_by_name_and_belong_to_one_actor() {
    let d = InProcess::start().await;
    let mut a = Raw::connect(&d.url(), Some(ACTOR)).await.expect("connect");
    a.hello(Some("shared")).await;
    let paused = a.call("session.pause", json!({})).await;
    assert_eq!(paused["result"]["paused"], true);

    let mut b = Raw::connect(&d.url(), Some(ACTOR)).await.expect("connect");
    let busy = b.call("session.hello", json!({"protocol": 1, "session": "shared"})).await;
    assert_eq!(code(&busy), "SESSION_BUSY", "{busy}");

    // Another token's "shared" is a session of its own: names are each token's.
    let mut o = Raw::connect(&d.url(), Some(OBSERVER)).await.expect("connect");
    let own = o.call("session.hello", json!({"protocol": 1, "session": "shared"})).await;
    assert_eq!(own["result"]["resumed"], false, "{own}");
    let status = o.call("session.status", json!({})).await;
    assert_eq!(status["result"]["paused"], false, "not the paused one: {status}");

    // The owner leaves in the middle of a call and comes straight back: the daemon frees the
    // session as soon as it sees the peer gone, without waiting for the call left behind.
    a.send_text(
        r#"{"jsonrpc":"2.0","id":99,"method":"computer.wait","params":{"duration_ms":5000}}"#,
    )
    .await;
    drop(a);
    let t = std::time::Instant::now();
    let mut c = Raw::connect(&d.url(), Some(ACTOR)).await.expect("connect");
    let r = c.call("session.hello", json!({"protocol": 1, "session": "shared"})).await;
    assert!(r["result"].is_object(), "resumed at the first hello: {r}");
    assert!(t.elapsed() < std::time::Duration::from_millis(2500), "in {:?}", t.elapsed());
    let resumed = (c, r);
    let (mut c, r) = resumed;
    assert_eq!(r["result"]["resumed"], true);
    let status = c.call("session.status", json!({})).await;
    assert_eq!(status["result"]["paused"], true, "state survived the reconnect: {status}");
    let click = c.call("computer.click", json!({"x": 1, "y": 1})).await;
    assert_eq!(code(&click), "PAUSED", "{click}");
    assert!(c.call("computer.wait", json!({"duration_ms": 1})).await["result"].is_object());
    c.call("session.resume", json!({})).await;
    let click = c.call("computer.click", json!({"x": 1, "y": 1})).await;
    assert_ne!(code(&click), "PAUSED", "{click}");
    d.stop().await;
}
