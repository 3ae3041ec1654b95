//! The plain HTTP side of the port: every method on every path answers at once, `/healthz`
//! answers loopback Host names only and names no internals.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use glovebox_protocol::wire::BackendStatus;
use glovebox_tests::http::Http;
use glovebox_tests::{InProcess, Options, ACTOR};
use serde_json::json;

/// Every answer here comes at once; a hang is a failure.
const AT_ONCE: Duration = Duration::from_secs(2);

#[tokio::test]
async fn head_and_other_methods_answer_at_once() {
    let d = InProcess::start().await;
    let mut h = Http::connect(d.addr).await;
    // One connection: a HEAD's answer has no body, so the next answer is read right.
    let head = h.send("HEAD", "/healthz", &[], AT_ONCE).await;
    assert_eq!(head.status, 200, "{head:?}");
    let get = h.send("GET", "/healthz", &[], AT_ONCE).await;
    assert_eq!((get.status, get.json()["ok"].as_bool()), (200, Some(true)), "{get:?}");
    for (method, path, status, allow) in [
        ("HEAD", "/rpc", 405, Some("GET")),
        ("POST", "/rpc", 405, Some("GET")),
        ("POST", "/healthz", 405, Some("GET, HEAD")),
        ("OPTIONS", "/healthz", 405, Some("GET, HEAD")),
        ("HEAD", "/nowhere", 404, None),
        ("DELETE", "/nowhere", 404, None),
    ] {
        let r = h.send(method, path, &[], AT_ONCE).await;
        assert_eq!(r.status, status, "{method} {path}: {r:?}");
        assert_eq!(r.header("allow").as_deref(), allow, "{method} {path}: {r:?}");
    }
    // Only GET upgrades: a POST with every upgrade header and a good token is refused.
    let bearer = format!("Bearer {ACTOR}");
    let post = h
        .send(
            "POST",
            "/rpc",
            &[
                ("Authorization", &bearer),
                ("Connection", "Upgrade"),
                ("Upgrade", "websocket"),
                ("Sec-WebSocket-Version", "13"),
                ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
                ("Content-Length", "0"),
            ],
            AT_ONCE,
        )
        .await;
    assert_eq!(post.status, 405, "{post:?}");
    d.stop().await;
}

#[tokio::test]
async fn healthz_answers_loopback_hosts_only_and_names_no_internals() {
    let probe = || {
        let mut extra = BTreeMap::new();
        extra.insert("display".to_owned(), json!(":99"));
        let mut m = BTreeMap::new();
        let reason = Some("Xvfb on :99 (pid 4242) exited; see /tmp/state/logs/xvfb.log".into());
        m.insert("desktop".to_owned(), BackendStatus { status: "down".into(), reason, extra });
        m
    };
    let d = InProcess::with(Options {
        configure: Some(Arc::new(move |c| {
            c.backends = Arc::new(probe);
            c.allowed_hosts = vec!["glovebox.test".into()];
        })),
        ..Options::default()
    })
    .await;
    let mut h = Http::connect(d.addr).await;
    let listen = d.addr.to_string();
    for host in
        ["localhost", "localhost:1234", "127.0.0.1", "[::1]:80", &listen, "glovebox.test:7788"]
    {
        let r = h.send("GET", "/healthz", &[("Host", host)], AT_ONCE).await;
        assert_eq!(r.status, 200, "{host}: {r:?}");
        let body = r.json();
        assert_eq!(
            body,
            json!({"ok": true, "protocol": 1,
                   "backends": {"desktop": {"status": "down", "reason": "session.status has the details"}}}),
            "{host}"
        );
    }
    for host in ["evil.test", "evil.test:7788", "localhost.evil.test", "127.0.0.1.nip.io"] {
        let r = h.send("GET", "/healthz", &[("Host", host)], AT_ONCE).await;
        assert_eq!(r.status, 403, "{host}: {r:?}");
        assert!(!r.body.contains("desktop"), "{r:?}");
    }
    // The details stay for clients with a token.
    let mut c = d.actor().await;
    let hello = c.call("session.status", json!({})).await;
    assert_eq!(hello["result"]["backends"]["desktop"]["display"], ":99", "{hello}");
    d.stop().await;
}
