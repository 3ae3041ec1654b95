//! 10,000 random and mutated frames through the real JSON-RPC entry: every answer is a
//! JSON-RPC 2.0 response whose error carries a `data.code` (a frame that is not JSON too:
//! -32700 with `PARSE_ERROR`), the connection stays usable, and the daemon stays up. Sent to
//! the `gloveboxd` binary on its own desktop, the refused ones touch nothing on the screen and
//! leave the daemon's memory where it was.

use glovebox_protocol::contract::{self, validate::validate_direct, validate::validate_tool_call};
use glovebox_tests::binary::Running;
use glovebox_tests::raw::Raw;
use glovebox_tests::witness::InputWitness;
use glovebox_tests::{InProcess, ACTOR};
use serde_json::{json, Value};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::ConnectionExt as _;

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

/// One frame: random printable bytes one time in ten, else a mutated seed.
fn next_frame(rng: &mut Rng) -> String {
    let seed = SEEDS[rng.below(SEEDS.len())];
    if rng.below(10) == 0 {
        (0..rng.below(40)).map(|_| char::from(32 + rng.below(95) as u8)).collect()
    } else {
        mutate(rng, seed)
    }
}

/// Whether the frame holds a tool call the contract accepts (a mutation can leave one
/// valid): such a call may rightly act, so the no-side-effect run leaves it out.
fn accepted(frame: &str) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(frame) else { return false };
    let calls = match v {
        Value::Array(items) => items,
        one => vec![one],
    };
    calls.iter().any(|c| {
        let method = c["method"].as_str().unwrap_or_default();
        if let Some((tool, action)) = contract::direct_method(method) {
            return validate_direct(tool, action, &c["params"]).is_ok();
        }
        let name = c["params"]["name"].as_str().and_then(contract::tool);
        match (method, name) {
            ("tools.call", Some(tool)) => {
                validate_tool_call(tool, &c["params"]["arguments"]).is_ok()
            }
            _ => false,
        }
    })
}

/// Resident memory of a process, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS")
}

/// Send a sentinel after a round's frames and check every answer until the sentinel's own,
/// which shows the connection still serves; how many answers came.
async fn drain(c: &mut Raw, round: u32, sent: &[String]) -> u64 {
    let sentinel = format!("sentinel-{round}");
    let probe = json!({"jsonrpc": "2.0", "id": sentinel, "method": "session.status"});
    c.send_text(&probe.to_string()).await;
    let mut answered = 0;
    loop {
        let v = c.recv().await;
        if v["id"] == sentinel.as_str() {
            assert!(v["result"].is_object(), "the connection stays usable: {v}");
            return answered;
        }
        if v.get("method").is_none() {
            check_answer(&sent.join("\n"), &v);
            answered += 1;
        }
    }
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
            let frame = next_frame(&mut rng);
            c.send_text(&frame).await;
            sent.push(frame);
        }
        answered += drain(&mut c, round, &sent[sent.len().saturating_sub(100)..]).await;
    }
    assert!(answered > 5_000, "most bad frames got an answer ({answered})");
    let mut other = d.actor().await;
    assert!(
        other.call("session.status", json!({})).await["result"].is_object(),
        "the daemon is up"
    );
    d.stop().await;
}

/// 10,000 frames the contract refuses, at the `gloveboxd` binary on its embedded desktop: a
/// RECORD witness sees no key or button event, nothing is held, and the daemon's resident
/// memory after the last round is within 32 MiB of what it was after the tenth.
#[tokio::test(flavor = "multi_thread")]
async fn refused_calls_touch_nothing_and_memory_stays_bounded() {
    let d = Running::start(&["--desktop", "embedded"]);
    let mut c = Raw::connect(&d.url, Some(&d.token())).await.expect("connect");
    let hello = c.hello(Some("fuzz-binary")).await;
    let display = hello["backends"]["desktop"]["display"].as_str().expect("display").to_owned();
    d.trust_display(&display);
    let witness = InputWitness::start(&display);
    let pid = d.child.id();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut warm, mut answered) = (0, 0);
    for round in 0..100u32 {
        let mut sent = Vec::new();
        while sent.len() < 100 {
            let frame = next_frame(&mut rng);
            if accepted(&frame) {
                continue;
            }
            c.send_text(&frame).await;
            sent.push(frame);
        }
        answered += drain(&mut c, round, &sent).await;
        if round == 9 {
            warm = rss_kib(pid);
        }
    }
    assert!(answered > 5_000, "most frames got an answer ({answered})");
    let end = rss_kib(pid);
    assert!(
        end < warm + 32 * 1024,
        "memory stays bounded: {warm} KiB after 1,000, {end} KiB after 10,000"
    );
    assert_eq!(witness.events(), 0, "no key or button event reached the display");
    let (x, _) = glovebox_daemon::desktop::xauth::connect(&display).expect("X");
    let keys = x.query_keymap().expect("keymap").reply().expect("keymap");
    assert!(keys.keys.iter().all(|b| *b == 0), "no key is down");
    let root = x.setup().roots[0].root;
    let p = x.query_pointer(root).expect("pointer").reply().expect("pointer");
    assert_eq!(u16::from(p.mask) & 0x1f00, 0, "no button is down");
    eprintln!("fuzz against gloveboxd: {answered} answers, RSS {warm} KiB -> {end} KiB");
}
