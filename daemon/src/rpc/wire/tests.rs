//! Client frames in, messages out: one case per kind of frame and message.

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

/// Every message `input` holds, read with `limit`, until the bytes run out.
async fn read_all(limit: usize, input: &[u8]) -> Vec<Incoming> {
    let mut r = Reader::new(input, limit);
    let mut out = Vec::new();
    while let Ok(m) = r.next().await {
        let broken = matches!(m, Incoming::Broken(_));
        out.push(m);
        if broken {
            break;
        }
    }
    out
}

#[tokio::test]
async fn a_message_in_pieces_with_a_ping_between_reads_whole() {
    let req = br#"{"jsonrpc":"2.0","id":1,"method":"session.status"}"#;
    let input = [
        frame(false, TEXT, &req[..10]),
        frame(true, PING, b"hi"),
        frame(true, PONG, b""),
        frame(true, CONTINUATION, &req[10..]),
    ]
    .concat();
    let text = String::from_utf8(req.to_vec()).expect("utf-8");
    assert_eq!(
        read_all(1024, &input).await,
        [Incoming::Ping(b"hi".to_vec()), Incoming::Text(text)]
    );
}

#[tokio::test]
async fn binary_oversized_and_bad_utf8_are_told_apart() {
    let big = vec![b'x'; 5000];
    let input = [
        frame(true, BINARY, b"\x00\x01"),
        frame(true, TEXT, &big),
        frame(false, TEXT, &big[..800]),
        frame(true, CONTINUATION, &big[800..]),
        frame(true, TEXT, b"{\"a\":\"\xff\"}"),
        frame(true, CLOSE, &[0x03, 0xe8]),
    ]
    .concat();
    assert_eq!(
        read_all(1024, &input).await,
        [
            Incoming::Binary { bytes: 2 },
            Incoming::TooLarge { size: 5000 },
            Incoming::TooLarge { size: 5000 },
            Incoming::NotUtf8,
            Incoming::Closed(Some(1000)),
        ]
    );
}

#[tokio::test]
async fn a_message_over_the_limit_is_not_held_while_it_arrives() {
    let big = vec![b'x'; 5000];
    let (client, server) = tokio::io::duplex(64);
    let mut r = Reader::new(server, 1024);
    let writing = tokio::spawn(async move {
        let mut client = client;
        client.write_all(&frame(true, TEXT, &big)).await.expect("write");
        client
    });
    assert_eq!(r.next().await.expect("read"), Incoming::TooLarge { size: 5000 });
    assert!(r.io.buffer().len() <= 16 * 1024, "only the reader's buffer held");
    drop(writing.await);
}

#[tokio::test]
async fn frames_no_client_may_send_break_the_connection() {
    let mut unmasked = vec![0x81, 2];
    unmasked.extend_from_slice(b"{}");
    let mut rsv = frame(true, TEXT, b"x");
    rsv[0] |= 0x40;
    for input in [
        unmasked,
        rsv,
        frame(true, 3, b"x"),
        frame(true, CONTINUATION, b"x"),
        frame(false, PING, b"x"),
        [frame(false, TEXT, b"x"), frame(true, TEXT, b"y")].concat(),
    ] {
        let out = read_all(1024, &input).await;
        assert!(matches!(out.first(), Some(Incoming::Broken(_))), "{input:?}: {out:?}");
    }
}

#[tokio::test]
async fn server_frames_are_unmasked_with_the_shortest_length() {
    let mut out = Vec::new();
    let mut w = Writer::new(&mut out);
    w.send(TEXT, b"hi").await.expect("send");
    w.send(TEXT, &[b'x'; 200]).await.expect("send");
    w.close(1007, "invalid UTF-8").await.expect("close");
    assert_eq!(&out[..4], &[0x81, 2, b'h', b'i']);
    assert_eq!(&out[4..8], &[0x81, 126, 0, 200]);
    let close = &out[8 + 200..];
    assert_eq!(&close[..4], &[0x88, 15, 0x03, 0xef]);
    assert_eq!(&close[4..], b"invalid UTF-8");
}
