//! The bundled Rust client against the real daemon: typed calls, op ids, cancel, events,
//! errors, a reconnect that resumes the session, and the shipped example.

use std::time::Duration;

use glovebox_client::generated::ComputerWait;
use glovebox_client::{CallOptions, Client, ClientError, ClientOptions, ErrorCode, OpState};
use glovebox_tests::{InProcess, ACTOR};

fn options(session: &str) -> ClientOptions {
    ClientOptions::new("sdk-test", "0").session(session)
}

#[tokio::test(flavor = "multi_thread")]
async fn typed_calls_ops_and_errors() {
    let d = InProcess::start().await;
    let client = std::sync::Arc::new(
        Client::connect(&d.url(), ACTOR, options("sdk-a")).await.expect("connect"),
    );
    assert!(client.hello().session_id.starts_with("sdk-a@"), "{}", client.hello().session_id);
    assert_eq!(client.tools_list().await.expect("tools").len(), 3);

    let mut events = client.subscribe(&["ops"]).await.expect("subscribe");
    let op = client.new_op_id();
    let wait = ComputerWait { duration_ms: Some(15), ..Default::default() };
    let first = client.computer_wait(wait.clone()).op_id(&op).await.expect("wait runs");
    assert_eq!(first.op_id, op);
    let again = client.computer_wait(wait.clone()).op_id(&op).await.expect("replayed");
    assert_eq!(first, again);
    // The same call's typed result, read as the action's result type.
    let waited = client.computer_wait(wait).result().await.expect("typed result");
    assert!(waited.waited_ms >= 15, "a 15 ms pause waited {} ms", waited.waited_ms);
    let typed = first.result_as::<ComputerWait>().expect("the outcome reads as its type");
    assert_eq!(typed.waited_ms, first.result["waited_ms"].as_u64().unwrap_or_default());
    let ev = tokio::time::timeout(Duration::from_secs(5), events.next())
        .await
        .expect("an event")
        .expect("open")
        .expect("decodes");
    assert_eq!((ev.topic.as_str(), ev.kind.as_str()), ("ops", "started"));

    // A typed call cannot name an element twice; the untyped one can, and is refused.
    let both = serde_json::json!({"ref": "e1", "selector": "#a"});
    let both = both.as_object().cloned().unwrap_or_default();
    let bad = client.call_action("browser", "click", both, CallOptions::default()).await;
    match bad {
        Err(ClientError::Rpc { code, details, .. }) => {
            assert_eq!(code, ErrorCode::ContractViolation);
            assert_eq!(
                details.and_then(|d| d["field"].as_str().map(String::from)),
                Some("selector".into())
            );
        }
        other => panic!("expected a contract violation, got {other:?}"),
    }

    let long = client.new_op_id();
    let c2 = client.clone();
    let long2 = long.clone();
    let running = tokio::spawn(async move {
        c2.computer_wait(ComputerWait { duration_ms: Some(10_000), ..Default::default() })
            .op_id(&long2)
            .await
    });
    let deadline = std::time::Instant::now() + glovebox_tests::DEADLINE;
    while client.op_status(&long).await.ok().map(|s| s.state) != Some(OpState::Running) {
        assert!(std::time::Instant::now() < deadline, "op never started");
    }
    client.op_cancel(&long).await.expect("cancel");
    let cancelled = running.await.expect("joined");
    assert!(
        matches!(cancelled, Err(ClientError::Rpc { code: ErrorCode::Cancelled, .. })),
        "{cancelled:?}"
    );
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn reconnect_resumes_the_session() {
    let d = InProcess::start().await;
    let client = Client::connect(&d.url(), ACTOR, options("sdk-b")).await.expect("connect");
    client.pause().await.expect("pause");
    let hello = client.reconnect().await.expect("reconnect");
    assert!(hello.resumed);
    assert!(hello.session_id.starts_with("sdk-b@"), "{}", hello.session_id);
    let status = client.session_status().await.expect("status");
    assert!(status.paused, "the session kept its state: {status:?}");
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_shipped_example_runs() {
    let d = InProcess::start().await;
    let exe = std::env::current_exe().expect("exe");
    let example = exe.parent().and_then(|p| p.parent()).expect("target dir").join("examples/hello");
    if !example.exists() {
        let status = std::process::Command::new(env!("CARGO"))
            .args(["build", "-p", "glovebox-client", "--example", "hello"])
            .status()
            .expect("cargo");
        assert!(status.success());
    }
    let out = tokio::process::Command::new(&example)
        .env("GLOVEBOX_URL", d.url())
        .env("GLOVEBOX_TOKEN", ACTOR)
        .output();
    let out =
        tokio::time::timeout(glovebox_tests::DEADLINE, out).await.expect("in time").expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("same outcome: true"), "{text}");
    d.stop().await;
}
