//! HTTP routing, auth on the upgrade, origins, malformed frames, batches and size limits.

use glovebox_tests::raw::{code, Raw};
use glovebox_tests::{InProcess, Options, ACTOR, OBSERVER};
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread")]
async fn healthz_answers_without_a_token() {
    let d = InProcess::start().await;
    let out = std::process::Command::new("curl")
        .args(["-s", "-w", "\n%{http_code}", &format!("http://{}/healthz", d.addr)])
        .output()
        .expect("curl runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let (body, status) = text.rsplit_once('\n').expect("status line");
    assert_eq!(status, "200");
    let v: Value = serde_json::from_str(body).expect("json");
    assert_eq!(v["ok"], true);
    assert_eq!(v["protocol"], 1);
    d.stop().await;
}

#[tokio::test]
async fn upgrade_needs_a_valid_token() {
    let d = InProcess::start().await;
    assert_eq!(Raw::connect(&d.url(), None).await.err(), Some(401));
    assert_eq!(Raw::connect(&d.url(), Some("wrong")).await.err(), Some(401));
    assert_eq!(Raw::connect(&d.url(), Some(&ACTOR[..ACTOR.len() - 1])).await.err(), Some(401));
    let by_query = format!("{}?token={ACTOR}", d.url());
    let mut c = Raw::connect(&by_query, None).await.expect("token in the query works");
    c.hello(None).await;
    let wrong_path = d.url().replace("/rpc", "/other");
    assert_eq!(Raw::connect(&wrong_path, Some(ACTOR)).await.err(), Some(404));
    d.stop().await;
}

#[tokio::test]
async fn browser_origins_need_the_allow_list() {
    let d = InProcess::with(Options {
        allowed_origins: vec!["http://ok.test".into()],
        ..Options::default()
    })
    .await;
    let evil = Raw::connect_with(&d.url(), Some(ACTOR), &[("origin", "http://evil.test")]).await;
    assert_eq!(evil.err(), Some(403));
    let mut ok = Raw::connect_with(&d.url(), Some(ACTOR), &[("origin", "http://ok.test")])
        .await
        .expect("allowed");
    ok.hello(None).await;
    d.stop().await;
}

#[tokio::test]
async fn malformed_json_keeps_the_connection() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    c.send_text("{not json").await;
    let r = c.recv().await;
    assert_eq!(r["error"]["code"], -32700, "{r}");
    assert_eq!(r["error"]["data"]["code"], "PARSE_ERROR", "{r}");
    c.send_text("garbage").await;
    assert_eq!(c.recv().await["error"]["data"]["code"], "PARSE_ERROR");
    c.send_text(r#"{"jsonrpc":"2.0","id":7}"#).await;
    let r = c.recv().await;
    assert_eq!((r["error"]["code"].as_i64(), r["id"].as_i64()), (Some(-32600), Some(7)), "{r}");
    assert_eq!(r["error"]["data"]["code"], "INVALID_REQUEST", "{r}");
    let ok = c.call("session.status", json!({})).await;
    assert!(ok["result"]["session_id"].is_string(), "{ok}");
    d.stop().await;
}

#[tokio::test]
async fn unknown_methods_say_so_with_a_code() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let r = c.call("teleport", json!({})).await;
    assert_eq!(r["error"]["code"], -32601);
    assert_eq!(code(&r), "METHOD_NOT_FOUND");
    let r = c.call("browser.teleport", json!({})).await;
    assert_eq!(code(&r), "METHOD_NOT_FOUND");
    assert!(
        r["error"]["data"]["message"].as_str().unwrap_or_default().contains("tools.list"),
        "{r}"
    );
    d.stop().await;
}

#[tokio::test]
async fn batches_answer_every_entry() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let batch = json!([
        {"jsonrpc": "2.0", "id": 10, "method": "session.status"},
        {"jsonrpc": "2.0", "id": 11, "method": "computer.wait", "params": {"duration_ms": 5}},
        {"jsonrpc": "2.0", "id": 12, "method": "nope"},
    ]);
    c.send_text(&batch.to_string()).await;
    let r = c.recv().await;
    let items = r.as_array().expect("a batch answer");
    assert_eq!(items.len(), 3, "{r}");
    let by_id = |id: u64| items.iter().find(|v| v["id"] == id).expect("answered").clone();
    assert!(by_id(10)["result"].is_object());
    assert_eq!(by_id(11)["result"]["result"]["waited_ms"].as_u64().map(|ms| ms >= 5), Some(true));
    assert_eq!(code(&by_id(12)), "METHOD_NOT_FOUND");
    d.stop().await;
}

#[tokio::test]
async fn oversized_messages_are_refused_and_the_daemon_stays_up() {
    let d =
        InProcess::with(Options { max_message_bytes: Some(64 * 1024), ..Options::default() }).await;
    let mut c = d.actor().await;
    let big = "x".repeat(200 * 1024);
    let req =
        json!({"jsonrpc": "2.0", "id": 5, "method": "computer.type", "params": {"text": big}});
    c.send_text(&req.to_string()).await;
    let r = c.recv().await;
    assert_eq!(r["error"]["code"], -32007, "{r}");
    assert!(r["id"].is_null(), "{r}");
    assert_eq!(code(&r), "REQUEST_TOO_LARGE", "{r}");
    let details = &r["error"]["data"]["details"];
    assert_eq!(details["limit"], 64 * 1024, "{r}");
    assert!(details["size"].as_u64() > Some(200 * 1024), "{r}");
    let ok = c.call("session.status", json!({})).await;
    assert!(ok["result"].is_object(), "connection still usable: {ok}");
    let mut other = d.actor().await;
    assert!(other.call("session.status", json!({})).await["result"].is_object());
    d.stop().await;
}

#[tokio::test]
async fn observers_read_but_do_not_act() {
    let d = InProcess::start().await;
    let mut o = Raw::connect(&d.url(), Some(OBSERVER)).await.expect("observer connects");
    let hello = o.hello(None).await;
    assert_eq!(hello["role"], "observer");
    assert!(o.call("tools.list", json!({})).await["result"].is_object());
    assert!(o.call("computer.wait", json!({"duration_ms": 1})).await["result"].is_object());
    for (method, params) in [
        ("computer.click", json!({"x": 1, "y": 1})),
        ("session.pause", json!({})),
        ("browser.navigate", json!({"url": "http://example.test"})),
    ] {
        let r = o.call(method, params).await;
        assert_eq!(code(&r), "FORBIDDEN", "{method}: {r}");
    }
    let r = o
        .call(
            "tools.call",
            json!({"name": "computer", "arguments": {"action": "key", "key": "Enter"}}),
        )
        .await;
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert_eq!(r["result"]["structuredContent"]["error"]["code"], "FORBIDDEN");
    d.stop().await;
}
