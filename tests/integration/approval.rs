//! The approval policy over the wire: default denials, an `ask` rule parked until an approver
//! grants it, then the call runs once; roles decide who may answer.

use std::sync::Arc;

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
