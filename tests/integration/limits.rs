//! The transport's limits, each with its flag and its stable code: batch length, batches
//! against the in-flight and rate limits, answer size, message size (not held while it
//! arrives), connections per token.

use std::sync::Arc;
use std::time::{Duration, Instant};

use glovebox_daemon::Config;
use glovebox_tests::binary::Running;
use glovebox_tests::http::Http;
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::{InProcess, Options, ACTOR, DEADLINE, OBSERVER};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

fn batch_of(n: usize, method: &str, params: &Value) -> String {
    let calls: Vec<Value> = (0..n)
        .map(|i| json!({"jsonrpc": "2.0", "id": i + 100, "method": method, "params": params}))
        .collect();
    Value::Array(calls).to_string()
}

fn configured(f: impl Fn(&mut Config) + Send + Sync + 'static) -> Options {
    Options { configure: Some(Arc::new(f)), ..Options::default() }
}

#[tokio::test]
async fn a_batch_over_the_limit_is_refused_whole() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    c.send_text(&batch_of(5_000, "session.pause", &json!({}))).await;
    let r = c.recv().await;
    assert!(r.is_object(), "one error, not 5,000 answers");
    assert_eq!((r["error"]["code"].as_i64(), r["id"].is_null()), (Some(-32600), true), "{r}");
    assert_eq!(code(&r), "BATCH_TOO_LARGE", "{r}");
    assert_eq!(r["error"]["data"]["details"], json!({"len": 5000, "limit": 64}));
    let status = c.call("session.status", json!({})).await;
    assert_eq!(status["result"]["paused"], false, "nothing in it ran: {status}");
    // 64 is still fine.
    c.send_text(&batch_of(64, "session.status", &json!({}))).await;
    let r = c.recv().await;
    assert_eq!(r.as_array().map(Vec::len), Some(64), "{r}");
    d.stop().await;
}

#[tokio::test]
async fn a_batch_holds_an_in_flight_slot_per_tool_call() {
    let d = InProcess::with(Options { max_in_flight: Some(2), ..Options::default() }).await;
    let mut c = d.actor().await;
    // More tool calls than free slots: refused whole, nothing runs.
    c.send_text(&batch_of(3, "computer.wait", &json!({"duration_ms": 1}))).await;
    let r = c.recv().await;
    assert_eq!(code(&r), "BUSY", "{r}");
    assert_eq!(r["error"]["data"]["details"], json!({"ops": 3, "in_flight": 0, "limit": 2}));
    // A running batch holds its slots: a single call beside it is BUSY.
    let mut events = d.actor().await;
    events.call("events.subscribe", json!({"topics": ["ops"]})).await;
    c.send_text(&batch_of(2, "computer.wait", &json!({"duration_ms": 400}))).await;
    let started = events.notification("events.event").await;
    assert_eq!(started["params"]["result"]["kind"], "started", "{started}");
    let single = c.call("computer.wait", json!({"duration_ms": 1})).await;
    assert_eq!(code(&single), "BUSY", "{single}");
    let r = c.recv().await;
    assert_eq!(r.as_array().map(Vec::len), Some(2), "the batch ran: {r}");
    assert!(c.call("computer.wait", json!({"duration_ms": 1})).await["result"].is_object());
    d.stop().await;
}

#[tokio::test]
async fn a_batch_takes_its_share_of_the_op_rate_up_front() {
    let d = InProcess::with(Options { max_ops_per_sec: Some(2), ..Options::default() }).await;
    let mut c = d.actor().await;
    // Three ops are more than the two a second (the burst) this session may start.
    c.send_text(&batch_of(3, "computer.wait", &json!({"duration_ms": 1}))).await;
    let r = c.recv().await;
    assert_eq!(code(&r), "BUSY", "{r}");
    assert_eq!(r["error"]["data"]["details"], json!({"ops": 3, "per_sec": 2}), "{r}");
    // Calls that are not ops count toward the batch length only.
    c.send_text(&batch_of(10, "session.status", &json!({}))).await;
    assert_eq!(c.recv().await.as_array().map(Vec::len), Some(10));
    c.send_text(&batch_of(2, "computer.wait", &json!({"duration_ms": 1}))).await;
    let r = c.recv().await;
    assert!(r[0]["result"].is_object() && r[1]["result"].is_object(), "two fit: {r}");
    d.stop().await;
}

#[tokio::test]
async fn an_answer_over_the_limit_becomes_result_too_large() {
    let d = InProcess::with(configured(|c| c.max_response_bytes = 4096)).await;
    let mut c = d.actor().await;
    let r = c.call("rpc.discover", json!({})).await;
    assert_eq!(code(&r), "RESULT_TOO_LARGE", "{r}");
    let details = &r["error"]["data"]["details"];
    assert_eq!(details["limit"], 4096);
    assert!(details["size"].as_u64() > Some(4096), "{r}");
    // A batch whose answers add up to more is refused as one.
    c.send_text(&batch_of(40, "session.status", &json!({}))).await;
    let r = c.recv().await;
    assert_eq!((code(&r).as_str(), r["id"].is_null()), ("RESULT_TOO_LARGE", true), "{r}");
    assert!(c.call("session.status", json!({})).await["result"].is_object());
    d.stop().await;
}

#[tokio::test]
async fn the_daemon_limits_connections_in_all_too() {
    let d = InProcess::with(configured(|c| c.max_connections = 2)).await;
    let _a = Raw::connect(&d.url(), Some(ACTOR)).await.expect("first");
    let _o = Raw::connect(&d.url(), Some(OBSERVER)).await.expect("second");
    let mut http = Http::connect(d.addr).await;
    let bearer = format!("Bearer {OBSERVER}");
    let refused = http.send("GET", "/rpc", &upgrade(&bearer), Duration::from_secs(2)).await;
    assert_eq!(refused.status, 429, "{refused:?}");
    assert_eq!(refused.json()["limit"], "max_connections", "{refused:?}");
    d.stop().await;
}

/// The headers of a WebSocket upgrade with `bearer`.
fn upgrade(bearer: &str) -> [(&str, &str); 5] {
    [
        ("Authorization", bearer),
        ("Connection", "Upgrade"),
        ("Upgrade", "websocket"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ]
}

#[tokio::test]
async fn one_token_cannot_take_every_connection() {
    let d = InProcess::with(configured(|c| c.max_connections_per_token = 3)).await;
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(Raw::connect(&d.url(), Some(ACTOR)).await.expect("within the limit"));
    }
    assert_eq!(Raw::connect(&d.url(), Some(ACTOR)).await.err(), Some(429));
    let mut http = Http::connect(d.addr).await;
    let bearer = format!("Bearer {ACTOR}");
    let refused = http.send("GET", "/rpc", &upgrade(&bearer), Duration::from_secs(2)).await;
    assert_eq!(refused.status, 429, "{refused:?}");
    let body = refused.json();
    assert_eq!(
        (body["code"].as_str(), body["limit"].as_str()),
        (Some("TOO_MANY_CONNECTIONS"), Some("max_connections_per_token"))
    );
    assert_eq!(body["max"], 3);
    // Another token still gets in (the daemon's own limit is 1,024 in all); a closed
    // connection gives its place back.
    let mut o = Raw::connect(&d.url(), Some(OBSERVER)).await.expect("another token");
    o.hello(None).await;
    drop(open.pop());
    let until = Instant::now() + DEADLINE;
    loop {
        match Raw::connect(&d.url(), Some(ACTOR)).await {
            Ok(mut c) => break drop(c.hello(None).await),
            Err(429) if Instant::now() < until => tokio::task::yield_now().await,
            Err(e) => panic!("the freed place was not given back: {e}"),
        };
    }
    d.stop().await;
}

fn rss_kib(pid: u32) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    text.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmRSS")
}

/// Bytes on their way from `from` to `to` (two loopback ports) that the receiver has not read
/// yet: the sender's send queue and the receiver's receive queue, from `/proc/net/tcp`.
fn unread(from: u16, to: u16) -> u64 {
    let table = std::fs::read_to_string("/proc/net/tcp").expect("/proc/net/tcp");
    let port = |addr: &str| addr.rsplit(':').next().and_then(|p| u16::from_str_radix(p, 16).ok());
    let hex = |q: &str| u64::from_str_radix(q, 16).expect("hex");
    let mut queued = 0;
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (Some(local), Some(remote), Some(queues)) = (f.get(1), f.get(2), f.get(4)) else {
            continue;
        };
        let Some((tx, rx)) = queues.split_once(':') else { continue };
        match (port(local), port(remote)) {
            (Some(l), Some(r)) if (l, r) == (from, to) => queued += hex(tx),
            (Some(l), Some(r)) if (l, r) == (to, from) => queued += hex(rx),
            _ => {}
        }
    }
    queued
}

/// The next text frame the daemon sends on a raw upgraded socket (server frames are not
/// masked); `buf` keeps what was read past it.
async fn server_text(sock: &mut TcpStream, buf: &mut Vec<u8>) -> Value {
    loop {
        if buf.len() >= 2 {
            let (len, at) = match buf[1] & 0x7f {
                126 if buf.len() >= 4 => (usize::from(u16::from_be_bytes([buf[2], buf[3]])), 4),
                127 if buf.len() >= 10 => {
                    (u64::from_be_bytes(buf[2..10].try_into().expect("8")) as usize, 10)
                }
                126 | 127 => (usize::MAX, 0),
                n => (usize::from(n), 2),
            };
            if len != usize::MAX && buf.len() >= at + len {
                let (opcode, payload) = (buf[0] & 0x0f, buf[at..at + len].to_vec());
                buf.drain(..at + len);
                if opcode == 1 {
                    return serde_json::from_slice(&payload).expect("JSON");
                }
                continue;
            }
        }
        let mut chunk = [0u8; 4096];
        let n = tokio::time::timeout(DEADLINE, sock.read(&mut chunk))
            .await
            .expect("a frame in time")
            .expect("read");
        assert!(n > 0, "the daemon closed the connection");
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// `gloveboxd` keeps none of a message whose frame header already says it passes the limit:
/// its bytes go by as they come (before, the first 16 MiB of each were held to its end),
/// and its answer is REQUEST_TOO_LARGE with the whole size.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_over_the_limit_is_not_held_while_it_arrives() {
    const MIB: usize = 1024 * 1024;
    const LEN: usize = 64 * MIB;
    let mut d = Running::start(&["--desktop", "embedded"]);
    let pid = d.child.id();
    let mut http = Http::connect(d.socket_addr()).await;
    let bearer = format!("Bearer {}", d.token());
    let up = http.send("GET", "/rpc", &upgrade(&bearer), DEADLINE).await;
    assert_eq!(up.status, 101, "{up:?}");
    let (mut sock, mut buf) = http.into_parts();
    let (ours, theirs) = (sock.local_addr().expect("addr").port(), d.socket_addr().port());
    let before = rss_kib(pid);
    // One 64 MiB text frame (a zero mask key: the payload goes as it is); 40 MiB of it now.
    let mut head = vec![0x81, 0x80 | 127];
    head.extend_from_slice(&(LEN as u64).to_be_bytes());
    head.extend_from_slice(&[0; 4]);
    sock.write_all(&head).await.expect("write");
    let part = vec![b'x'; 8 * MIB];
    for _ in 0..5 {
        sock.write_all(&part).await.expect("write");
    }
    // Until the daemon has read well past the 16 MiB limit: what it has not read yet is in
    // the two sockets' queues.
    let until = Instant::now() + DEADLINE;
    while 40 * MIB as u64 - unread(ours, theirs) < 24 * MIB as u64 {
        assert!(Instant::now() < until, "the daemon reads the frame");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mid = rss_kib(pid);
    eprintln!("gloveboxd RSS {before} KiB before, {mid} KiB 24+ MiB into the frame");
    assert!(mid.saturating_sub(before) < 8 * 1024, "RSS {before} -> {mid} KiB");
    for _ in 0..3 {
        sock.write_all(&part).await.expect("write");
    }
    let r = server_text(&mut sock, &mut buf).await;
    assert_eq!((code(&r).as_str(), r["id"].is_null()), ("REQUEST_TOO_LARGE", true), "{r}");
    assert_eq!(r["error"]["data"]["details"], json!({"size": LEN, "limit": 16 * MIB}), "{r}");
    let status = d.terminate(DEADLINE);
    assert!(status.success(), "{status:?}");
}
