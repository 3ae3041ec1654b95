//! The error contract at the frame level: every malformed frame kind gets its coded answer
//! (or, for a text frame that is not UTF-8, close code 1007), and nothing in it runs.

use glovebox_tests::raw::{code, Raw};
use glovebox_tests::{InProcess, ACTOR};
use serde_json::{json, Value};

/// The envelope refusal every bad frame gets: -32600, `id: null`, an object `data`.
fn assert_invalid_request(r: &Value, what: &str) {
    assert_eq!(r["error"]["code"], -32600, "{what}: {r}");
    assert!(r["id"].is_null(), "{what}: {r}");
    assert_eq!(code(r), "INVALID_REQUEST", "{what}: {r}");
    assert!(r["error"]["data"]["message"].is_string(), "{what}: {r}");
}

#[tokio::test]
async fn ids_of_the_wrong_type_get_invalid_request_and_run_nothing() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    for (id, got) in [
        ("{\"a\":1}", "an object"),
        ("[1]", "an array"),
        ("1.5", "a number with a fraction or an exponent"),
        ("true", "true or false"),
        ("-1", "a negative number"),
    ] {
        c.send_text(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"session.pause"}}"#)).await;
        let r = c.recv().await;
        assert_invalid_request(&r, id);
        assert_eq!(r["error"]["data"]["details"], json!({"field": "id", "got": got}), "{r}");
    }
    // In a batch, the bad entry is answered like that and the good one runs.
    c.send_text(
        r#"[{"jsonrpc":"2.0","id":false,"method":"session.pause"},
            {"jsonrpc":"2.0","id":9,"method":"session.status"}]"#,
    )
    .await;
    let r = c.recv().await;
    let items = r.as_array().expect("a batch answer");
    assert_eq!(items.len(), 2, "{r}");
    assert_invalid_request(&items[0], "batch entry");
    assert_eq!(items[1]["id"], 9);
    assert_eq!(items[1]["result"]["paused"], false, "no pause ran: {r}");
    d.stop().await;
}

#[tokio::test]
async fn a_binary_frame_is_refused_with_a_code_and_not_run() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let pause = json!({"jsonrpc": "2.0", "id": 3, "method": "session.pause"}).to_string();
    c.send_raw(false, pause.into_bytes()).await;
    let r = c.recv().await;
    assert_invalid_request(&r, "binary");
    assert_eq!(r["error"]["data"]["details"]["frame"], "binary", "{r}");
    let status = c.call("session.status", json!({})).await;
    assert_eq!(status["result"]["paused"], false, "the binary frame did not run: {status}");
    d.stop().await;
}

#[tokio::test]
async fn a_text_frame_that_is_not_utf8_closes_with_1007() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    c.send_raw(
        true,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"session.status\",\"x\":\"\xff\"}".to_vec(),
    )
    .await;
    assert_eq!(c.close_code().await, Some(1007));
    // Only that connection went.
    let mut other = Raw::connect(&d.url(), Some(ACTOR)).await.expect("connect");
    other.hello(None).await;
    d.stop().await;
}

#[tokio::test]
async fn a_message_in_two_frames_with_a_ping_between_is_answered() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let req = json!({"jsonrpc": "2.0", "id": 41, "method": "session.status"}).to_string();
    let (first, rest) = req.split_at(12);
    c.send_split_with_ping(first, rest).await;
    let r = c.response(41).await;
    assert!(r["result"]["session_id"].is_string(), "{r}");
    d.stop().await;
}

#[tokio::test]
async fn params_errors_say_what_is_wrong() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"computer.wait","params":{"duration_ms":1e400}}"#,
            "number out of range",
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"computer.wait","params":{"x":"\ud800"}}"#,
            "lone surrogate",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"op.status","params":{"op_id":1e400}}"#,
            "number out of range",
        ),
    ];
    for (frame, says) in cases {
        c.send_text(frame).await;
        let r = c.recv().await;
        assert_eq!(code(&r), "CONTRACT_VIOLATION", "{frame}: {r}");
        let message = r["error"]["data"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{frame}: {message}");
        assert!(!message.contains("must be a JSON object"), "{message}");
    }
    d.stop().await;
}
