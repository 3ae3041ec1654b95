//! Faults on the real desktop: when the X server goes away, desktop calls answer
//! `BACKEND_UNAVAILABLE` with a remedy (and the daemon keeps serving everything else).

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
