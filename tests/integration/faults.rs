//! Faults: when the X server goes away, desktop calls answer `BACKEND_UNAVAILABLE` with a
//! remedy and the daemon keeps serving everything else; a subscriber that stops reading
//! slows nobody down.

use glovebox_tests::desktop::{ok, DesktopFixture};
use glovebox_tests::raw::code;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vanished_display_is_backend_unavailable() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    ok(&c.call("computer.screenshot", json!({"max_width": 320})).await);
    let xvfb = *f.env.started_pids().first().expect("the X server's pid");
    f.supervisor.stop_pid(xvfb).expect("stop Xvfb");
    for (method, params) in [
        ("computer.screenshot", json!({})),
        ("computer.click", json!({"x": 10, "y": 10})),
        ("context.list_windows", json!({})),
    ] {
        let r = c.call(method, params).await;
        assert_eq!(code(&r), "BACKEND_UNAVAILABLE", "{method}: {r}");
        let remedy = r["error"]["data"]["details"]["remedy"].as_str().unwrap_or_default();
        assert!(!remedy.is_empty(), "{method} names a remedy: {r}");
    }
    // The rest of the daemon still answers.
    let status = c.call("session.status", json!({})).await;
    assert!(status["result"]["session_id"].is_string(), "{status}");
    f.stop().await;
}

/// A subscriber that stops reading its socket slows nobody down (its own queue is bounded:
/// past it the oldest events are dropped and counted in `dropped`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_blocks_nobody() {
    let options =
        glovebox_tests::Options { max_ops_per_sec: Some(1_000_000), ..Default::default() };
    let d = glovebox_tests::InProcess::with(options).await;
    let mut slow =
        glovebox_tests::Raw::connect(&d.url(), Some(glovebox_tests::ACTOR)).await.expect("connect");
    slow.hello(Some("slow")).await;
    let sub = slow.call("events.subscribe", json!({})).await;
    assert!(sub["result"].is_string(), "{sub}");
    // From here on `slow` reads nothing while every op below publishes two events to it.
    let mut fast = d.actor().await;
    let mut worst = std::time::Duration::ZERO;
    let started = std::time::Instant::now();
    for _ in 0..3000 {
        let t = std::time::Instant::now();
        let r = fast.call("computer.wait", json!({"duration_ms": 0})).await;
        assert!(r["result"].is_object(), "{r}");
        worst = worst.max(t.elapsed());
    }
    assert!(
        started.elapsed() < glovebox_tests::DEADLINE,
        "3000 calls took {:?}",
        started.elapsed()
    );
    assert!(worst < std::time::Duration::from_secs(1), "one call took {worst:?}");
    // The slow subscriber, read at last, still gets well-formed events and answers.
    let n = slow.notification("events.event").await;
    assert!(n["params"]["result"]["seq"].as_u64().is_some(), "{n}");
    let status = slow.call("session.status", json!({})).await;
    assert_eq!(status["result"]["session_id"], "slow", "{status}");
    d.stop().await;
}
