//! The connection's socket, wrapped so the transport keeps its error contract where jsonrpsee
//! answers on its own. Outgoing: a frame that is not JSON (-32700) or not a request (-32600)
//! gets a bare error without `data` (an oversized one, `data` as a string); those answers get
//! the `data {code, message}` every other error carries, by rewriting the server's outgoing
//! WebSocket text frames on their way out. Incoming: once the upgrade went out, the client's
//! frames pass through [`Inbound`] (binary, bad UTF-8, oversized, bad ids, batches over the
//! limit). Everything else passes through untouched: bytes are only parsed far enough to find frame boundaries
//! (server frames are never masked), and HTTP answers to `HEAD` are known to have no body.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use glovebox_protocol::error::ErrorCode;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::inbound::{Inbound, Limits};

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
    /// Whether each HTTP request answered next was a `HEAD` (its answer has no body).
    heads: Heads,
    /// The largest message and batch a client may send.
    limits: Limits,
    /// The client's frames, once the upgrade went out.
    inbound: Option<Inbound>,
    /// Set by the service before it upgrades a socket that is not JSON-RPC (the view's):
    /// its frames then pass untouched both ways.
    raw: Raw,
}

/// Whether the connection's upgrade is a raw one (see [`Patched::new`]).
pub type Raw = std::sync::Arc<std::sync::atomic::AtomicBool>;

/// The HTTP requests of a connection in the order they are answered: `true` for `HEAD`.
pub type Heads = std::sync::Arc<std::sync::Mutex<std::collections::VecDeque<bool>>>;

impl<S> Patched<S> {
    /// The socket wrapped; the receiver turns true once the peer is gone, which can be long
    /// before the server ends the connection (it lets the calls in flight finish first). The
    /// service notes each request's method in `Heads` before it answers.
    pub fn new(inner: S, limits: Limits) -> (Self, tokio::sync::watch::Receiver<bool>, Heads, Raw) {
        let (gone, seen) = tokio::sync::watch::channel(false);
        let heads = Heads::default();
        let raw = Raw::default();
        let p = Patched {
            inner,
            phase: Phase::Http,
            pending: Vec::new(),
            out: Vec::new(),
            gone,
            heads: heads.clone(),
            limits,
            inbound: None,
            raw: raw.clone(),
        };
        (p, seen, heads, raw)
    }

    /// Moves every complete unit (an HTTP head, a frame) from `pending` to `out`.
    fn process(&mut self) {
        loop {
            let used = match self.phase {
                Phase::Http => {
                    let Some(end) = find(&self.pending, b"\r\n\r\n") else { return };
                    let head = &self.pending[..end + 4];
                    let interim = head.get(9) == Some(&b'1');
                    // A final answer to a HEAD has no body whatever its Content-Length says.
                    let head_request = !interim
                        && self.heads.lock().ok().and_then(|mut h| h.pop_front()) == Some(true);
                    let raw = self.raw.load(std::sync::atomic::Ordering::SeqCst);
                    let body = if head.starts_with(b"HTTP/1.1 101") && raw {
                        self.out.extend_from_slice(&self.pending[..end + 4]);
                        self.pending.drain(..end + 4);
                        self.phase = Phase::Opaque;
                        continue;
                    } else if head.starts_with(b"HTTP/1.1 101") {
                        self.phase = Phase::Frames;
                        self.inbound = Some(Inbound::new(self.limits));
                        0
                    } else if head_request || interim {
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
    if !["-32700", "-32600", "-32007", "-32008"]
        .iter()
        .any(|c| find(payload, c.as_bytes()).is_some())
    {
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

/// Gives one response's envelope error (-32700, -32600, and jsonrpsee's size limits) the
/// object `data` it lacks; whether it did.
fn add_data(response: &mut Value) -> bool {
    let Some(err) = response.get_mut("error").and_then(Value::as_object_mut) else { return false };
    if err.get("data").is_some_and(Value::is_object) {
        return false;
    }
    let said = err.get("data").and_then(Value::as_str).map(str::to_owned);
    let (code, message) = match err.get("code").and_then(Value::as_i64) {
        Some(-32007) => (ErrorCode::RequestTooLarge, "the message is over the size limit"),
        Some(-32008) => (ErrorCode::ResultTooLarge, "the answer is over the size limit"),
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
    let mut data = json!({"code": code.as_str(), "message": message});
    if let Some(said) = said {
        data["details"] = json!({"said": said});
    }
    err.insert("data".into(), data);
    true
}

impl<S: AsyncRead + Unpin> AsyncRead for Patched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.inbound.is_some() {
            return self.poll_read_frames(cx, buf);
        }
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

impl<S: AsyncRead + Unpin> Patched<S> {
    /// Reads through [`Inbound`]: what it made of the socket's bytes, then EOF once it handed
    /// on a close.
    fn poll_read_frames(
        &mut self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            let inbound = self.inbound.as_mut().expect("frames phase");
            if !inbound.ready.is_empty() {
                let n = inbound.ready.len().min(buf.remaining());
                buf.put_slice(&inbound.ready[..n]);
                inbound.ready.drain(..n);
                return Poll::Ready(Ok(()));
            }
            if inbound.closed {
                self.gone.send_replace(true);
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 16 * 1024];
            let mut read = ReadBuf::new(&mut chunk);
            match Pin::new(&mut self.inner).poll_read(cx, &mut read) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => {
                    self.gone.send_replace(true);
                    return Poll::Ready(Err(e));
                }
                Poll::Ready(Ok(())) if read.filled().is_empty() => {
                    self.gone.send_replace(true);
                    return Poll::Ready(Ok(()));
                }
                Poll::Ready(Ok(())) => {
                    let filled = read.filled().to_vec();
                    let inbound = self.inbound.as_mut().expect("frames phase");
                    inbound.feed(&filled);
                    if let Some(v) = inbound.last.take() {
                        if v != super::inbound::Verdict::Passed {
                            tracing::debug!(?v, "refused a client frame");
                        }
                    }
                }
            }
        }
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
        let (mut p, _, _, _) = Patched::new((), Limits { message: 1 << 20, batch: 64 });
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

    #[test]
    fn a_head_answer_passes_at_once_and_oversize_data_becomes_an_object() {
        let (mut p, _, heads, _) = Patched::new((), Limits { message: 1 << 20, batch: 64 });
        heads.lock().expect("lock").extend([true, false]);
        let head: &[u8] = b"HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 40\r\n\r\n";
        p.pending.extend_from_slice(head);
        p.process();
        assert_eq!(p.out, head, "no body follows a HEAD's answer");
        let get: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
        p.pending.extend_from_slice(get);
        p.process();
        assert_eq!(&p.out[head.len()..], get);
        let big = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32007,"message":"Request too big","data":"Exceeded max limit of 10"}}"#;
        let f = patch(&text_frame(big), 2).expect("patched");
        let (h, n) = frame_len(&f).expect("frame");
        let v: Value = serde_json::from_slice(&f[h..h + n]).expect("json");
        assert_eq!(v["error"]["data"]["code"], "REQUEST_TOO_LARGE");
        assert_eq!(v["error"]["data"]["details"]["said"], "Exceeded max limit of 10");
    }
}
