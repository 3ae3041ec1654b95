//! Client frames in, what jsonrpsee gets out: one case per kind of message.

use super::*;

/// A masked client frame.
fn frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
    let key = [0x12, 0x34, 0x56, 0x78];
    let mut f = vec![if fin { 0x80 } else { 0 } | opcode];
    match payload.len() {
        n if n < 126 => f.push(0x80 | n as u8),
        n if n <= 0xffff => {
            f.push(0x80 | 126);
            f.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            f.push(0x80 | 127);
            f.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    f.extend_from_slice(&key);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
    f
}

/// The payloads of the (zero-key) frames in `out`, with their opcodes.
fn frames(out: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut v = Vec::new();
    let mut rest = out;
    while let Some((h, at)) = parse_header(rest) {
        let mask = h.mask.unwrap_or_default();
        let payload = rest[at..at + h.len].iter().enumerate().map(|(i, b)| b ^ mask[i % 4]);
        v.push((h.opcode, payload.collect()));
        rest = &rest[at + h.len..];
    }
    v
}

fn limits(message: usize) -> Limits {
    Limits { message, batch: 64 }
}

fn run(limit: usize, input: &[u8], step: usize) -> Inbound {
    let mut inb = Inbound::new(limits(limit));
    for chunk in input.chunks(step) {
        inb.feed(chunk);
    }
    inb
}

fn refusal(payload: &[u8]) -> Value {
    let v: Value = serde_json::from_slice(payload).expect("json");
    assert_eq!((v["method"].as_str(), v["id"].is_null()), (Some(REFUSED), true), "{v}");
    v["params"].clone()
}

#[test]
fn good_requests_pass_with_their_payload_even_in_pieces() {
    let req = br#"{"jsonrpc":"2.0","id":1,"method":"session.status"}"#;
    let input = [frame(false, TEXT, &req[..10]), frame(true, 9, b"hi"), frame(true, 0, &req[10..])]
        .concat();
    for step in [1, 3, 1000] {
        let out = frames(&run(1024, &input, step).ready);
        assert_eq!(out, vec![(9, b"hi".to_vec()), (TEXT, req.to_vec())], "step {step}");
    }
}

#[test]
fn binary_oversized_and_bad_ids_become_stand_ins() {
    let out = frames(&run(1024, &frame(true, BINARY, b"\x00\x01"), 7).ready);
    assert_eq!(refusal(&out[0].1), json!({"kind": "binary", "bytes": 2}));
    let big = vec![b' '; 3000];
    let out = frames(&run(1024, &frame(true, TEXT, &big), 100).ready);
    assert_eq!(refusal(&out[0].1), json!({"kind": "too_large", "size": 3000, "limit": 1024}));
    for (id, got) in [
        ("{}", "an object"),
        ("[1]", "an array"),
        ("true", "true or false"),
        ("1.5", "a number with a fraction or an exponent"),
        ("-3", "a negative number"),
    ] {
        let req = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"session.status"}}"#);
        let out = frames(&run(1024, &frame(true, TEXT, req.as_bytes()), 1000).ready);
        assert_eq!(refusal(&out[0].1), json!({"kind": "bad_id", "got": got}), "{id}");
    }
}

#[test]
fn a_message_over_the_limit_is_not_held_while_it_arrives() {
    let big = vec![b'x'; 5000];
    let input = frame(true, TEXT, &big);
    let mut inb = Inbound::new(limits(1024));
    inb.feed(&input[..3000]);
    let held = inb.message.as_ref().map(|m| m.payload.capacity());
    assert_eq!(held, Some(0), "the header said 5000 bytes");
    inb.feed(&input[3000..]);
    let out = frames(&inb.ready);
    assert_eq!(refusal(&out[0].1), json!({"kind": "too_large", "size": 5000, "limit": 1024}));
    // Split in frames, the message is cut off once a frame passes the limit.
    let parts = [frame(false, TEXT, &big[..800]), frame(true, CONTINUATION, &big[800..])];
    let out = frames(&run(1024, &parts.concat(), 333).ready);
    assert_eq!(refusal(&out[0].1), json!({"kind": "too_large", "size": 5000, "limit": 1024}));
    // Ids of every shape keep their answers: plain numbers and null pass, a long one too.
    for id in ["0", "18446744073709551615", "null", "\"a\""] {
        let req = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"a"}}"#);
        let out = frames(&run(1024, &frame(true, TEXT, req.as_bytes()), 1000).ready);
        assert_eq!(out, vec![(TEXT, req.into_bytes())], "{id}");
    }
    let req = br#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"a"}"#;
    let out = frames(&run(1024, &frame(true, TEXT, req), 1000).ready);
    assert_eq!(refusal(&out[0].1), json!({"kind": "bad_id", "got": "a number over 2^64-1"}));
}

#[test]
fn a_batch_keeps_its_good_entries_and_replaces_the_bad_ones() {
    let batch =
        br#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":false,"method":"b"}]"#;
    let out = frames(&run(1024, &frame(true, TEXT, batch), 1000).ready);
    let v: Value = serde_json::from_slice(&out[0].1).expect("json");
    assert_eq!(v[0]["method"], "a");
    assert_eq!(v[1]["params"]["got"], "true or false");
    // A batch over the limit is refused whole before anything parses its calls.
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"a"}"#;
    let long = format!("[{}]", vec![call; 65].join(","));
    let out = frames(&run(1 << 20, &frame(true, TEXT, long.as_bytes()), 1000).ready);
    assert_eq!(refusal(&out[0].1), json!({"kind": "batch_too_large", "len": 65, "limit": 64}));
    let full = format!("[{}]", vec![call; 64].join(","));
    let out = frames(&run(1 << 20, &frame(true, TEXT, full.as_bytes()), 1000).ready);
    assert_eq!(out, vec![(TEXT, full.into_bytes())], "64 calls pass");
    // Fine ids, a notification and non-requests are left for jsonrpsee to answer.
    for text in [r#"{"jsonrpc":"2.0","id":null,"method":"a"}"#, r#"{"method":"a"}"#, "[1,2]", "x"] {
        let out = frames(&run(1024, &frame(true, TEXT, text.as_bytes()), 1000).ready);
        assert_eq!(out, vec![(TEXT, text.as_bytes().to_vec())], "{text}");
    }
}

#[test]
fn bad_utf8_closes_with_1007_and_nothing_follows() {
    let input = [frame(true, TEXT, b"{\"a\":\"\xff\"}"), frame(true, TEXT, b"{}")].concat();
    let inb = run(1024, &input, 2);
    assert!(inb.closed);
    let out = frames(&inb.ready);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!((out[0].0, &out[0].1[..2]), (CLOSE, &[0x03, 0xef][..]));
}

#[test]
fn frames_it_does_not_judge_go_on_as_they_are() {
    let mut unmasked = vec![0x81, 2];
    unmasked.extend_from_slice(b"{}");
    let reserved = frame(true, 3, b"x");
    for input in [unmasked, reserved, frame(true, CONTINUATION, b"x")] {
        let both = [input.clone(), frame(true, BINARY, b"y")].concat();
        assert_eq!(run(1024, &both, 1).ready, both, "{input:?}");
    }
}
