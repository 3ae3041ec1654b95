//! The one error jsonrpsee answers before any middleware sees the call: a frame that is not
//! JSON (-32700) or not a request (-32600) gets a bare error without `data`. This wraps the
//! connection's socket and gives those answers the `data {code, message}` every other error
//! carries, by rewriting the server's outgoing WebSocket text frames on their way out.
//! Everything else passes through untouched: bytes are only parsed far enough to find frame
//! boundaries (server frames are never masked).

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use glovebox_protocol::error::ErrorCode;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Larger text frames are passed on without a look (envelope errors are tiny).
const INSPECT_BELOW: usize = 64 * 1024;

/// Where the outgoing byte stream is.
#[derive(Debug, PartialEq)]
enum Phase {
    /// HTTP responses, up to and including a `101 Switching Protocols`.
    Http,
    /// WebSocket frames.
    Frames,
    /// A response without a length: everything passes from here on.
    Opaque,
}

/// A socket whose outgoing envelope errors get `data.code`.
pub struct Patched<S> {
    inner: S,
    phase: Phase,
    /// Bytes written by the server and not yet framed and passed on.
    pending: Vec<u8>,
    /// Bytes ready for the socket.
    out: Vec<u8>,
    /// Set once the peer has closed its side (or the socket failed).
    gone: tokio::sync::watch::Sender<bool>,
}

impl<S> Patched<S> {
    /// The socket wrapped; the receiver turns true once the peer is gone, which can be long
    /// before the server ends the connection (it lets the calls in flight finish first).
    pub fn new(inner: S) -> (Self, tokio::sync::watch::Receiver<bool>) {
        let (gone, seen) = tokio::sync::watch::channel(false);
        (Patched { inner, phase: Phase::Http, pending: Vec::new(), out: Vec::new(), gone }, seen)
    }

    /// Moves every complete unit (an HTTP head, a frame) from `pending` to `out`.
    fn process(&mut self) {
        loop {
            let used = match self.phase {
                Phase::Http => {
                    let Some(end) = find(&self.pending, b"\r\n\r\n") else { return };
                    let head = &self.pending[..end + 4];
                    let body = if head.starts_with(b"HTTP/1.1 101") {
                        self.phase = Phase::Frames;
                        0
                    } else if let Some(n) = content_length(head) {
                        n
                    } else {
                        self.phase = Phase::Opaque;
                        0
                    };
                    if self.pending.len() < end + 4 + body {
                        return;
                    }
                    self.out.extend_from_slice(&self.pending[..end + 4 + body]);
                    end + 4 + body
                }
                Phase::Opaque => {
                    self.out.append(&mut self.pending);
                    return;
                }
                Phase::Frames => match frame_len(&self.pending) {
                    Some((header, len)) if self.pending.len() >= header + len => {
                        let frame = &self.pending[..header + len];
                        match patch(frame, header) {
                            Some(new) => self.out.extend_from_slice(&new),
                            None => self.out.extend_from_slice(frame),
                        }
                        header + len
                    }
                    _ => return,
                },
            };
            self.pending.drain(..used);
        }
    }

    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>>
    where
        S: AsyncWrite + Unpin,
    {
        while !self.out.is_empty() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.out))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.out.drain(..n);
        }
        Poll::Ready(Ok(()))
    }
}

/// The `Content-Length` of an HTTP response head.
fn content_length(head: &[u8]) -> Option<usize> {
    let text = std::str::from_utf8(head).ok()?;
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case("content-length").then(|| v.trim().parse().ok())?
    })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// (header length, payload length) of the unmasked frame at the start of `b`, once its header
/// is complete.
fn frame_len(b: &[u8]) -> Option<(usize, usize)> {
    let len7 = usize::from(*b.get(1)? & 0x7f);
    match len7 {
        126 => Some((4, usize::from(u16::from_be_bytes([*b.get(2)?, *b.get(3)?])))),
        127 => {
            let bytes: [u8; 8] = b.get(2..10)?.try_into().ok()?;
            Some((10, usize::try_from(u64::from_be_bytes(bytes)).ok()?))
        }
        n => Some((2, n)),
    }
}

/// The frame again with `data` added to bare envelope errors, or `None` to keep it.
fn patch(frame: &[u8], header: usize) -> Option<Vec<u8>> {
    // Only complete text frames (FIN + opcode 1) that are small and mention the two codes.
    if frame[0] != 0x81 || frame.len() - header > INSPECT_BELOW {
        return None;
    }
    let payload = &frame[header..];
    if find(payload, b"-32700").is_none() && find(payload, b"-32600").is_none() {
        return None;
    }
    let mut v: Value = serde_json::from_slice(payload).ok()?;
    let changed = match &mut v {
        // Every entry is patched (no short circuit).
        Value::Array(items) => {
            items.iter_mut().map(add_data).filter(|patched| *patched).count() > 0
        }
        item => add_data(item),
    };
    if !changed {
        return None;
    }
    let text = serde_json::to_vec(&v).ok()?;
    let mut out = Vec::with_capacity(text.len() + 10);
    out.push(0x81);
    match text.len() {
        n if n < 126 => out.push(n as u8),
        n if n <= usize::from(u16::MAX) => {
            out.push(126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(&text);
    Some(out)
}

/// Adds `data` to one response's bare -32700 / -32600 error; whether it did.
fn add_data(response: &mut Value) -> bool {
    let Some(err) = response.get_mut("error").and_then(Value::as_object_mut) else { return false };
    if err.contains_key("data") {
        return false;
    }
    let (code, message) = match err.get("code").and_then(Value::as_i64) {
        Some(-32700) => (
            ErrorCode::ParseError,
            "the frame is not JSON; send one JSON-RPC 2.0 request object (or an array of them)",
        ),
        Some(-32600) => (
            ErrorCode::InvalidRequest,
            "not a JSON-RPC 2.0 request: it needs \"jsonrpc\":\"2.0\", a string \"method\" and \
             an id",
        ),
        _ => return false,
    };
    err.insert("data".into(), json!({"code": code.as_str(), "message": message}));
    true
}

impl<S: AsyncRead + Unpin> AsyncRead for Patched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        let eof =
            matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() == before && buf.remaining() > 0;
        if eof || matches!(r, Poll::Ready(Err(_))) {
            self.gone.send_replace(true);
        }
        r
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Patched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        // Earlier bytes go first; then take these whole.
        ready!(self.drain(cx))?;
        self.pending.extend_from_slice(buf);
        self.process();
        // Push what is ready now; what the socket does not take waits for the next call.
        let _ = self.drain(cx)?;
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_frame(s: &str) -> Vec<u8> {
        let mut f = vec![0x81, s.len() as u8];
        f.extend_from_slice(s.as_bytes());
        f
    }

    fn run(chunks: &[&[u8]]) -> Vec<u8> {
        let (mut p, _) = Patched::new(());
        for c in chunks {
            p.pending.extend_from_slice(c);
            p.process();
        }
        p.out
    }

    #[test]
    fn bare_parse_errors_get_data_and_the_rest_passes() {
        let head: &[u8] = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n";
        let bare = text_frame(
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        );
        let fine = text_frame(r#"{"jsonrpc":"2.0","id":1,"result":{"code":-32700}}"#);
        // Split anywhere: a frame is handled once it is whole.
        let all = [head, &bare[..5], &bare[5..], &fine].concat();
        let out = run(&[&all[..7], &all[7..40], &all[40..]]);
        assert!(out.starts_with(head));
        let rest = &out[head.len()..];
        let (h, n) = frame_len(rest).expect("a frame");
        let v: Value = serde_json::from_slice(&rest[h..h + n]).expect("json");
        assert_eq!(v["error"]["data"]["code"], "PARSE_ERROR");
        assert_eq!(v["error"]["code"], -32700);
        assert_eq!(&rest[h + n..], &fine[..], "a result is left alone");
    }

    #[test]
    fn batches_and_long_frames() {
        let batch = r#"[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid request"}},{"jsonrpc":"2.0","id":2,"result":1}]"#;
        let f = patch(&text_frame(batch), 2).expect("patched");
        let (h, n) = frame_len(&f).expect("frame");
        let v: Value = serde_json::from_slice(&f[h..h + n]).expect("json");
        assert_eq!(v[0]["error"]["data"]["code"], "INVALID_REQUEST");
        assert_eq!(v[1]["result"], 1);
        // A frame of 126+ bytes uses the 16-bit length.
        assert_eq!(f[1], 126);
        // Before the upgrade nothing is framed: plain answers pass as they are, bodies too.
        let deny: &[u8] = b"HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(run(&[deny]), deny);
        let health: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n{\"ok\":true}";
        assert_eq!(run(&[&health[..30], &health[30..]]), health);
        let chunked: &[u8] = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n";
        assert_eq!(run(&[chunked]), chunked);
    }
}
