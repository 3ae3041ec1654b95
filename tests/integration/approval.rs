//! The approval policy over the wire: default denials, an `ask` rule parked until an approver
//! grants it, then the call runs once; roles decide who may answer.

use std::sync::Arc;
use std::time::Instant;

use glovebox_daemon::approval::policy::Policy;
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::{InProcess, Options, APPROVER};
use serde_json::json;

#[tokio::test]
async fn local_schemes_are_denied_by_default() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    for url in ["file:///etc/passwd", "chrome://settings", "javascript:alert(1)"] {
        let r = c.call("browser.navigate", json!({"url": url})).await;
        assert_eq!(code(&r), "APPROVAL_DENIED", "{url}: {r}");
        assert!(r["error"]["data"]["details"]["rule"]
            .as_str()
            .is_some_and(|s| s.contains("file:")));
    }
    let r = c.call("browser.tab_new", json!({"url": "file:///etc/passwd"})).await;
    assert_eq!(code(&r), "APPROVAL_DENIED", "{r}");
    d.stop().await;
}

#[tokio::test]
async fn ask_waits_for_a_grant_then_runs_once() {
    let policy: Policy = serde_json::from_value(json!({"rules": [
        {"name": "ask-long-waits", "class": "any", "args": {"duration_ms": "7*"}, "decision": "ask"},
        {"name": "no-shouting", "class": "mutating", "args": {"key": "*Caps*"}, "decision": "deny"},
    ]}))
    .expect("policy");
    let configure = Arc::new(move |c: &mut glovebox_daemon::Config| c.policy = policy.clone());
    let d = InProcess::with(Options { configure: Some(configure), ..Options::default() }).await;
    let mut actor = d.actor().await;
    let mut watcher = d.actor().await;
    watcher.call("events.subscribe", json!({"topics": ["approvals", "ops"]})).await;

    let call = json!({"duration_ms": 70, "op_id": "needs-ok"});
    let r = actor.call("computer.wait", call.clone()).await;
    assert_eq!(code(&r), "APPROVAL_REQUIRED", "{r}");
    let details = &r["error"]["data"]["details"];
    assert_eq!(details["rule"], "ask-long-waits");
    assert_eq!(details["op_id"], "needs-ok");
    let id = details["approval_id"].as_str().expect("approval id").to_owned();
    let event = watcher.notification("events.event").await;
    assert_eq!(event["params"]["result"]["kind"], "requested");

    // Re-sending before an answer does not run it either.
    assert_eq!(code(&actor.call("computer.wait", call.clone()).await), "APPROVAL_REQUIRED");

    let mut approver = Raw::connect(&d.url(), Some(APPROVER)).await.expect("approver");
    approver.hello(None).await;
    let list = approver.call("approval.list", json!({})).await;
    assert_eq!(list["result"]["approvals"][0]["approval_id"], id.as_str(), "{list}");
    assert_eq!(
        code(&actor.call("approval.grant", json!({"approval_id": id})).await),
        "FORBIDDEN",
        "an actor may not approve"
    );
    assert_eq!(
        code(&approver.call("computer.click", json!({"x": 1, "y": 1})).await),
        "FORBIDDEN",
        "an approver may not act"
    );
    let granted = approver.call("approval.grant", json!({"approval_id": id})).await;
    assert_eq!(granted["result"]["state"], "granted", "{granted}");

    let ran = actor.call("computer.wait", call.clone()).await;
    assert!(ran["result"]["result"]["waited_ms"].as_u64().is_some_and(|ms| ms >= 70), "{ran}");
    let replay = actor.call("computer.wait", call.clone()).await;
    assert_eq!(replay["result"], ran["result"], "the same op id replays, it does not ask again");

    let denied = actor.call("computer.key", json!({"key": "CapsLock"})).await;
    assert_eq!(code(&denied), "APPROVAL_DENIED", "{denied}");
    assert_eq!(denied["error"]["data"]["details"]["rule"], "no-shouting");

    // A denial by the approver.
    let r = actor.call("computer.wait", json!({"duration_ms": 71, "op_id": "nope"})).await;
    let id = r["error"]["data"]["details"]["approval_id"].as_str().expect("id").to_owned();
    approver.call("approval.deny", json!({"approval_id": id})).await;
    let r = actor.call("computer.wait", json!({"duration_ms": 71, "op_id": "nope"})).await;
    assert_eq!(code(&r), "APPROVAL_DENIED", "{r}");
    d.stop().await;
}

/// Admission comes before approval: a granted call refused as over the op rate keeps its
/// grant, and runs once it is let in without asking again.
#[tokio::test]
async fn a_call_over_the_rate_leaves_its_granted_approval_unused() {
    let d = asking(Options { max_ops_per_sec: Some(3), ..Options::default() }).await;
    let mut actor = d.actor().await;
    let mut approver = Raw::connect(&d.url(), Some(APPROVER)).await.expect("approver");
    approver.hello(None).await;
    let call = json!({"duration_ms": 70, "op_id": "granted-then-rate"});
    grant(&mut actor, &mut approver, &call).await;
    let deadline = Instant::now() + glovebox_tests::DEADLINE;
    loop {
        let r = actor.call("computer.wait", json!({"duration_ms": 0})).await;
        if r["error"]["data"]["details"]["per_sec"] == 3 {
            break;
        }
        assert!(Instant::now() < deadline, "the op rate never ran out: {r}");
    }
    let r = actor.call("computer.wait", call.clone()).await;
    assert_eq!((code(&r).as_str(), &r["error"]["data"]["details"]["per_sec"]), ("BUSY", &json!(3)));
    runs_once_let_in(&mut actor, &call).await;
    d.stop().await;
}

/// The same when the connection's one in-flight slot is taken.
#[tokio::test]
async fn a_busy_call_leaves_its_granted_approval_unused() {
    let d = asking(Options { max_in_flight: Some(1), ..Options::default() }).await;
    let mut actor = d.actor().await;
    let mut approver = Raw::connect(&d.url(), Some(APPROVER)).await.expect("approver");
    approver.hello(None).await;
    let call = json!({"duration_ms": 71, "op_id": "granted-then-busy"});
    grant(&mut actor, &mut approver, &call).await;
    let long = actor.send("computer.wait", json!({"duration_ms": 1500})).await;
    let deadline = Instant::now() + glovebox_tests::DEADLINE;
    while actor.call("session.status", json!({})).await["result"]["in_flight"] != 1 {
        assert!(Instant::now() < deadline, "the long op never showed as in flight");
    }
    let r = actor.call("computer.wait", call.clone()).await;
    assert_eq!((code(&r).as_str(), &r["error"]["data"]["details"]["limit"]), ("BUSY", &json!(1)));
    assert!(actor.response(long).await["result"].is_object());
    runs_once_let_in(&mut actor, &call).await;
    d.stop().await;
}

/// A daemon whose policy asks an approver for a wait of 70 to 79 ms.
async fn asking(options: Options) -> InProcess {
    let policy: Policy = serde_json::from_value(json!({"rules": [
        {"name": "ask-long-waits", "class": "any", "args": {"duration_ms": "7*"}, "decision": "ask"},
    ]}))
    .expect("policy");
    let configure = Arc::new(move |c: &mut glovebox_daemon::Config| c.policy = policy.clone());
    InProcess::with(Options { configure: Some(configure), ..options }).await
}

/// Sends `call` (an `ask` rule catches it, once the op rate lets it in) and has the approver
/// grant it.
async fn grant(actor: &mut Raw, approver: &mut Raw, call: &serde_json::Value) {
    let deadline = Instant::now() + glovebox_tests::DEADLINE;
    let r = loop {
        let r = actor.call("computer.wait", call.clone()).await;
        if code(&r) != "BUSY" || Instant::now() > deadline {
            break r;
        }
    };
    assert_eq!(code(&r), "APPROVAL_REQUIRED", "{r}");
    let id = r["error"]["data"]["details"]["approval_id"].as_str().expect("approval id");
    let granted = approver.call("approval.grant", json!({"approval_id": id})).await;
    assert_eq!(granted["result"]["state"], "granted", "{granted}");
}

/// Re-sends a granted `call` until admission lets it in (it may meet the op rate again):
/// it runs on the grant it had, and is never asked for again.
async fn runs_once_let_in(actor: &mut Raw, call: &serde_json::Value) {
    let deadline = Instant::now() + glovebox_tests::DEADLINE;
    loop {
        let r = actor.call("computer.wait", call.clone()).await;
        if code(&r) == "BUSY" && Instant::now() < deadline {
            continue;
        }
        assert!(r["result"]["result"]["waited_ms"].as_u64().is_some_and(|ms| ms >= 70), "{r}");
        return;
    }
}
