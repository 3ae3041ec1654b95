//! 10,000 random and mutated frames through the real JSON-RPC entry: every answer is a
//! JSON-RPC 2.0 response whose error carries a `data.code` (a frame that is not JSON too:
//! -32700 with `PARSE_ERROR`), the connection stays usable, and the daemon stays up.

use glovebox_tests::raw::Raw;
use glovebox_tests::{InProcess, ACTOR};
use serde_json::{json, Value};

/// A small deterministic generator, so a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEEDS: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"computer.wait","params":{"duration_ms":1}}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"browser.click","params":{"ref":"e1","button":"right"}}"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"tools.call","params":{"name":"computer","arguments":{"action":"type","text":"hi"}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"browser.navigate","params":{"url":"http://127.0.0.1:1/","timeout":5000}}"#,
    r#"{"jsonrpc":"2.0","id":5,"method":"op.status","params":{"op_id":"x"}}"#,
    r#"{"jsonrpc":"2.0","id":6,"method":"context.get_app","params":{"app":"mousepad"}}"#,
    r#"[{"jsonrpc":"2.0","id":7,"method":"session.status"},{"jsonrpc":"2.0","id":8,"method":"tools.list"}]"#,
    r#"{"jsonrpc":"2.0","id":9,"method":"computer.scroll","params":{"x":10,"y":10,"pages":2}}"#,
];

const TOKENS: &[&str] = &[
    "null",
    "true",
    "-1",
    "1e309",
    "0.5",
    "\"\"",
    "[]",
    "{}",
    "\"e1\"",
    "99999999999",
    "\"💥\"",
    "\"action\"",
    "\"session.hello\"",
    "\"rpc.discover\"",
    "\"computer.mouse_down\"",
];

fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut s: Vec<char> = seed.chars().collect();
    for _ in 0..=rng.below(3) {
        if s.is_empty() {
            break;
        }
        let at = rng.below(s.len());
        match rng.below(6) {
            0 => {
                s.remove(at);
            }
            1 => s.insert(at, ['{', '}', '"', ',', ':', '[', ']', '\\', 'x', '0'][rng.below(10)]),
            2 => s.truncate(at),
            3 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                let end = (at + 1 + rng.below(6)).min(s.len());
                s.splice(at..end, t.chars());
            }
            4 => {
                let other = rng.below(s.len());
                s.swap(at, other);
            }
            _ => {
                // Keep the frame valid JSON but shuffle a value's type.
                if let Ok(mut v) = serde_json::from_str::<Value>(seed) {
                    if let Some(params) = v.get_mut("params").and_then(Value::as_object_mut) {
                        let keys: Vec<String> = params.keys().cloned().collect();
                        if let Some(k) = keys.get(rng.below(keys.len().max(1))) {
                            params.insert(
                                k.clone(),
                                serde_json::from_str(TOKENS[rng.below(TOKENS.len())])
                                    .unwrap_or(Value::Null),
                            );
                        }
                    }
                    return v.to_string();
                }
            }
        }
    }
    s.into_iter().collect()
}

fn check_answer(frame: &str, answer: &Value) {
    let items = match answer {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    };
    for a in items {
        assert_eq!(a["jsonrpc"], "2.0", "not JSON-RPC: {a} for {frame}");
        if let Some(err) = a.get("error") {
            let has_data_code = err["data"]["code"].as_str().is_some_and(|c| !c.is_empty());
            assert!(has_data_code, "no data.code: {a} for {frame}");
        } else {
            assert!(a.get("result").is_some(), "neither result nor error: {a} for {frame}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn ten_thousand_bad_frames() {
    let d = InProcess::start().await;
    let mut c = Raw::connect(&d.url(), Some(ACTOR)).await.expect("connect");
    c.hello(Some("fuzz")).await;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut answered = 0;
    let mut sent: Vec<String> = Vec::new();
    for round in 0..100u32 {
        // 100 frames, then a sentinel; answers may come in any order, each is checked.
        for _ in 0..100 {
            let seed = SEEDS[rng.below(SEEDS.len())];
            let frame = if rng.below(10) == 0 {
                (0..rng.below(40)).map(|_| char::from(32 + rng.below(95) as u8)).collect()
            } else {
                mutate(&mut rng, seed)
            };
            c.send_text(&frame).await;
            sent.push(frame);
        }
        let sentinel = format!("sentinel-{round}");
        let probe = json!({"jsonrpc": "2.0", "id": sentinel, "method": "session.status"});
        c.send_text(&probe.to_string()).await;
        loop {
            let v = c.recv().await;
            if v["id"] == sentinel.as_str() {
                assert!(v["result"].is_object(), "the connection stays usable: {v}");
                break;
            }
            if v.get("method").is_some() {
                continue; // a notification
            }
            check_answer(&sent[sent.len().saturating_sub(100)..].join("\n"), &v);
            answered += 1;
        }
    }
    assert!(answered > 5_000, "most bad frames got an answer ({answered})");
    let mut other = d.actor().await;
    assert!(
        other.call("session.status", json!({})).await["result"].is_object(),
        "the daemon is up"
    );
    d.stop().await;
}
