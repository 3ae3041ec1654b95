//! Ops: deadlines, cancel, idempotent op ids, the in-flight limit and op events.

use std::time::{Duration, Instant};

use glovebox_tests::raw::code;
use glovebox_tests::{InProcess, Options};
use serde_json::json;

#[tokio::test]
async fn deadline_turns_into_timeout() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let t = Instant::now();
    let r = c
        .call("computer.wait", json!({"duration_ms": 5000, "timeout_ms": 100, "op_id": "slow"}))
        .await;
    assert_eq!(code(&r), "TIMEOUT", "{r}");
    assert!(t.elapsed() < Duration::from_millis(2000), "took {:?}", t.elapsed());
    let s = c.call("op.status", json!({"op_id": "slow"})).await;
    assert_eq!(s["result"]["state"], "timed_out", "{s}");
    d.stop().await;
}

#[tokio::test]
async fn cancel_stops_a_running_op() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let id = c.send("computer.wait", json!({"duration_ms": 10000, "op_id": "long"})).await;
    // The op exists once op.status knows it.
    let deadline = Instant::now() + glovebox_tests::DEADLINE;
    loop {
        let s = c.call("op.status", json!({"op_id": "long"})).await;
        if s["result"]["state"] == "running" {
            break;
        }
        assert!(Instant::now() < deadline, "op never started: {s}");
    }
    let t = Instant::now();
    let r = c.call("op.cancel", json!({"op_id": "long"})).await;
    assert_eq!(r["result"]["cancelled"], true, "{r}");
    let out = c.response(id).await;
    assert_eq!(code(&out), "CANCELLED", "{out}");
    assert!(t.elapsed() < Duration::from_millis(500), "cancel took {:?}", t.elapsed());
    let missing = c.call("op.cancel", json!({"op_id": "never"})).await;
    assert_eq!(code(&missing), "TARGET_NOT_FOUND");
    d.stop().await;
}

#[tokio::test]
async fn an_op_id_runs_once() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let mut events = d.actor().await;
    let sub = events.call("events.subscribe", json!({"topics": ["ops"]})).await;
    assert!(sub["result"].is_string(), "{sub}");

    let params = json!({"duration_ms": 300, "op_id": "once"});
    let a = c.send("computer.wait", params.clone()).await;
    let b = c.send("computer.wait", params.clone()).await;
    let (ra, rb) = (c.response(a).await, c.response(b).await);
    assert_eq!(ra["result"], rb["result"], "joined the running op");
    let t = Instant::now();
    let rc = c.call("computer.wait", params.clone()).await;
    assert_eq!(rc["result"], ra["result"], "replayed the first outcome");
    assert!(t.elapsed() < Duration::from_millis(250), "a replay does not wait again");

    let started: Vec<_> = {
        let mut seen = Vec::new();
        loop {
            let n = events.notification("events.event").await;
            let ev = n["params"]["result"].clone();
            if ev["data"]["op_id"] == "once" {
                seen.push(ev["kind"].as_str().unwrap_or_default().to_owned());
            }
            if seen.contains(&"finished".to_owned()) {
                break seen;
            }
        }
    };
    assert_eq!(started, ["started", "finished"], "one op ran");

    let other = c.call("computer.wait", json!({"duration_ms": 1, "op_id": "once"})).await;
    assert_eq!(code(&other), "CONTRACT_VIOLATION", "{other}");
    assert_eq!(other["error"]["data"]["details"]["field"], "op_id");
    d.stop().await;
}

#[tokio::test]
async fn too_many_in_flight_is_busy() {
    let d = InProcess::with(Options { max_in_flight: Some(2), ..Options::default() }).await;
    let mut c = d.actor().await;
    let a = c.send("computer.wait", json!({"duration_ms": 400})).await;
    let b = c.send("computer.wait", json!({"duration_ms": 400})).await;
    // Let both reach the daemon before the third.
    let s = c.call("session.status", json!({})).await;
    assert!(s["result"].is_object());
    let deadline = Instant::now() + glovebox_tests::DEADLINE;
    while c.call("session.status", json!({})).await["result"]["in_flight"] != 2 {
        assert!(Instant::now() < deadline, "the two ops never showed as in flight");
    }
    let r = c.call("computer.wait", json!({"duration_ms": 1})).await;
    assert_eq!(code(&r), "BUSY", "{r}");
    assert!(c.response(a).await["result"].is_object());
    assert!(c.response(b).await["result"].is_object());
    assert!(c.call("computer.wait", json!({"duration_ms": 1})).await["result"].is_object());
    d.stop().await;
}

#[tokio::test]
async fn op_ids_are_minted_and_belong_to_the_session() {
    let d = InProcess::start().await;
    let mut a = d.actor().await;
    let r = a.call("computer.wait", json!({"duration_ms": 1})).await;
    let op = r["result"]["op_id"].as_str().expect("minted").to_owned();
    assert!(a.call("op.status", json!({"op_id": op})).await["result"]["state"] == "succeeded");
    let mut b = d.actor().await;
    let other = b.call("op.status", json!({"op_id": op})).await;
    assert_eq!(code(&other), "TARGET_NOT_FOUND", "another session cannot see it: {other}");
    d.stop().await;
}

#[tokio::test]
async fn a_session_over_its_rate_gets_busy() {
    let d = InProcess::with(Options { max_ops_per_sec: Some(5), ..Options::default() }).await;
    let mut c = d.actor().await;
    let mut busy = 0;
    for _ in 0..20 {
        let r = c.call("computer.wait", json!({"duration_ms": 0})).await;
        if code(&r) == "BUSY" {
            assert_eq!(r["error"]["data"]["details"]["per_sec"], 5, "{r}");
            busy += 1;
        }
    }
    assert!(busy >= 10, "only {busy} of 20 were refused at 5 ops/s");
    let mut other = d.actor().await;
    let r = other.call("computer.wait", json!({"duration_ms": 0})).await;
    assert!(r["result"].is_object(), "another session has its own budget: {r}");
    d.stop().await;
}
