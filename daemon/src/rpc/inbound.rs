//! The client's WebSocket frames on their way into jsonrpsee, checked for what jsonrpsee would
//! get wrong: a binary message (it would run it), a text message that is not UTF-8 (it would
//! call it a parse error; RFC 6455 says close with 1007), a message over the size limit (its
//! error would have `data` as a string), a request whose `id` is an object, array, float,
//! bool or negative number (it would take it for a notification and never answer) and a
//! batch over the batch limit (it would parse every call of it first, only for the gate to
//! refuse it whole).
//!
//! Those messages never reach jsonrpsee as they are: each becomes a small request to
//! [`REFUSED`] that the gate answers with a coded error and `id: null`, or (bad UTF-8) a
//! client close frame with code 1007, which the server echoes before it ends the connection.
//! Every other message goes on as one frame with the same payload; control frames go on as
//! they came.

use jsonrpsee::types::Id;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

/// The method name of the requests this module writes in place of a refused message. The
/// control character keeps it out of any real method's way.
pub const REFUSED: &str = "\u{1}refused";

/// Frame opcodes (RFC 6455 section 5.2).
const CONTINUATION: u8 = 0;
const TEXT: u8 = 1;
const BINARY: u8 = 2;
const CLOSE: u8 = 8;

/// What became of the last message (tests and logs).
#[derive(Debug, PartialEq)]
pub enum Verdict {
    Passed,
    Refused(&'static str),
    Closed,
}

/// The header of the frame whose payload is being read.
struct Frame {
    fin: bool,
    opcode: u8,
    mask: [u8; 4],
    len: usize,
    read: usize,
}

/// The data message being put together from its frames.
struct Message {
    binary: bool,
    size: usize,
    /// A frame of it said it would pass the limit: its payload is not kept.
    over: bool,
    payload: Vec<u8>,
}

/// What the messages of one connection may be.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes in one message.
    pub message: usize,
    /// Calls in one batch.
    pub batch: usize,
}

pub struct Inbound {
    limit: usize,
    max_batch: usize,
    /// Bytes from the socket not yet looked at.
    raw: Vec<u8>,
    /// Bytes for the server.
    pub ready: Vec<u8>,
    frame: Option<Frame>,
    /// A control frame's raw bytes while it is incomplete.
    control: Vec<u8>,
    message: Option<Message>,
    /// A close was handed on: nothing more goes to the server.
    pub closed: bool,
    /// A frame this module does not judge came (unmasked, extension bits, a reserved
    /// opcode, a stray continuation): everything from there on goes on as it is, and the
    /// server refuses it.
    opaque: bool,
    pub last: Option<Verdict>,
}

impl Inbound {
    pub fn new(limits: Limits) -> Self {
        Inbound {
            limit: limits.message,
            max_batch: limits.batch,
            raw: Vec::new(),
            ready: Vec::new(),
            frame: None,
            control: Vec::new(),
            message: None,
            closed: false,
            opaque: false,
            last: None,
        }
    }

    /// Takes bytes read from the socket; what the server may read lands in `ready`.
    pub fn feed(&mut self, bytes: &[u8]) {
        if self.closed {
            return;
        }
        if self.opaque {
            self.ready.extend_from_slice(bytes);
            return;
        }
        self.raw.extend_from_slice(bytes);
        let mut used = 0;
        while !self.closed {
            let rest = &self.raw[used..];
            let Some(frame) = &mut self.frame else {
                let Some((frame, header)) = parse_header(rest) else { break };
                let reserved = matches!(frame.opcode, 3..=7 | 11..=15);
                let stray = frame.opcode == CONTINUATION && self.message.is_none();
                if frame.mask.is_none() || rest[0] & 0x70 != 0 || reserved || stray {
                    self.ready.extend_from_slice(&self.raw[used..]);
                    used = self.raw.len();
                    self.opaque = true;
                    break;
                }
                if frame.opcode >= CLOSE {
                    self.control.extend_from_slice(&rest[..header]);
                }
                let (fin, opcode, len) = (frame.fin, frame.opcode, frame.len);
                self.frame =
                    Some(Frame { fin, opcode, mask: frame.mask.unwrap_or_default(), len, read: 0 });
                used += header;
                continue;
            };
            let take = (frame.len - frame.read).min(rest.len());
            if take == 0 && frame.len > frame.read {
                break;
            }
            let chunk = &rest[..take];
            if frame.opcode >= CLOSE {
                self.control.extend_from_slice(chunk);
            } else {
                let message = self.message.get_or_insert_with(|| Message {
                    binary: frame.opcode == BINARY,
                    size: 0,
                    over: false,
                    payload: Vec::new(),
                });
                // The header says how long the frame is: a message that will pass the limit
                // is refused whole, so none of it is unmasked or held (a client sending
                // 17 MiB messages kept 16 MiB of each in memory before).
                if frame.read == 0 && message.size.saturating_add(frame.len) > self.limit {
                    message.over = true;
                    message.payload = Vec::new();
                }
                message.size += take;
                if !message.binary && !message.over {
                    unmask(&mut message.payload, chunk, frame.mask, frame.read);
                }
            }
            frame.read += take;
            used += take;
            if frame.read < frame.len {
                break;
            }
            let (fin, opcode) = (frame.fin, frame.opcode);
            self.frame = None;
            if opcode >= CLOSE {
                self.ready.append(&mut self.control);
                self.closed = opcode == CLOSE;
            } else if fin && matches!(opcode, TEXT | BINARY | CONTINUATION) {
                let message = self.message.take().expect("a frame started it");
                self.finish(message);
            }
        }
        self.raw.drain(..used);
    }

    /// A whole message: on to the server, or its stand-in.
    fn finish(&mut self, m: Message) {
        let refusal = if m.binary {
            Some(json!({"kind": "binary", "bytes": m.size}))
        } else if m.size > self.limit {
            Some(json!({"kind": "too_large", "size": m.size, "limit": self.limit}))
        } else if std::str::from_utf8(&m.payload).is_err() {
            // The server answers a client close with the same code, then ends the connection.
            let reason = b"\x03\xefinvalid UTF-8 in a text frame";
            self.ready.extend_from_slice(&[0x80 | CLOSE, 0x80 | reason.len() as u8, 0, 0, 0, 0]);
            self.ready.extend_from_slice(reason);
            self.closed = true;
            self.last = Some(Verdict::Closed);
            return;
        } else {
            None
        };
        let payload = match refusal {
            Some(params) => {
                self.last = Some(Verdict::Refused(kind_of(&params)));
                stand_in(&params)
            }
            None => match fix_calls(&m.payload, self.max_batch) {
                Some((kind, fixed)) => {
                    self.last = Some(Verdict::Refused(kind));
                    fixed
                }
                None => {
                    self.last = Some(Verdict::Passed);
                    m.payload
                }
            },
        };
        push_frame(&mut self.ready, &payload);
    }
}

/// Appends `chunk` unmasked; it starts `offset` bytes into its frame. The key is turned
/// once so that the loop is a plain XOR the compiler vectorizes.
fn unmask(out: &mut Vec<u8>, chunk: &[u8], mask: [u8; 4], offset: usize) {
    let key: [u8; 4] = std::array::from_fn(|i| mask[(offset + i) % 4]);
    let at = out.len();
    out.extend_from_slice(chunk);
    for (i, b) in out[at..].iter_mut().enumerate() {
        *b ^= key[i & 3];
    }
}

fn kind_of(params: &Value) -> &'static str {
    match params["kind"].as_str() {
        Some("binary") => "binary",
        Some("too_large") => "too_large",
        Some("batch_too_large") => "batch_too_large",
        _ => "bad_id",
    }
}

/// A request to [`REFUSED`] with `id: null` carrying why.
fn stand_in(params: &Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": null, "method": REFUSED, "params": params})
        .to_string()
        .into_bytes()
}

/// One masked (with a zero key) final text frame holding `payload`.
fn push_frame(out: &mut Vec<u8>, payload: &[u8]) {
    out.push(0x80 | TEXT);
    match payload.len() {
        n if n < 126 => out.push(0x80 | n as u8),
        n if n <= usize::from(u16::MAX) => {
            out.push(0x80 | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(0x80 | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(payload);
}

struct Header {
    fin: bool,
    opcode: u8,
    mask: Option<[u8; 4]>,
    len: usize,
}

/// A client frame's header at the start of `b`, and its length, once it is complete.
fn parse_header(b: &[u8]) -> Option<(Header, usize)> {
    let (b0, b1) = (*b.first()?, *b.get(1)?);
    let (len, mut at) = match b1 & 0x7f {
        126 => (usize::from(u16::from_be_bytes([*b.get(2)?, *b.get(3)?])), 4),
        127 => {
            let bytes: [u8; 8] = b.get(2..10)?.try_into().ok()?;
            (usize::try_from(u64::from_be_bytes(bytes)).unwrap_or(usize::MAX), 10)
        }
        n => (usize::from(n), 2),
    };
    let mask = if b1 & 0x80 != 0 {
        let key: [u8; 4] = b.get(at..at + 4)?.try_into().ok()?;
        at += 4;
        Some(key)
    } else {
        None
    };
    Some((Header { fin: b0 & 0x80 != 0, opcode: b0 & 0x0f, mask, len }, at))
}

#[derive(Deserialize)]
struct Probe<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
}

/// Why a request's `id` is one jsonrpsee cannot take, if it is.
fn bad_id(entry: &RawValue) -> Option<&'static str> {
    let id = serde_json::from_str::<Probe<'_>>(entry.get()).ok()?.id?;
    // The usual ids first, without serde: `Id` is an untagged enum, whose every try builds
    // an error, and a batch has thousands of ids.
    let plain = id.get() == "null"
        || (id.get().len() <= 19 && id.get().bytes().all(|b| b.is_ascii_digit()));
    if plain || serde_json::from_str::<Id<'_>>(id.get()).is_ok() {
        return None;
    }
    let text = id.get();
    Some(match text.as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "true or false",
        Some(b'"') => "a string that is not valid unicode",
        _ if text.contains(['.', 'e', 'E']) => "a number with a fraction or an exponent",
        Some(b'-') => "a negative number",
        _ => "a number over 2^64-1",
    })
}

/// The message again with each request of a bad `id` replaced by its stand-in, or one
/// stand-in for a batch over `max_batch`, with why; `None` when every id is fine (or the
/// message is no request at all: jsonrpsee answers that).
fn fix_calls(payload: &[u8], max_batch: usize) -> Option<(&'static str, Vec<u8>)> {
    let text = std::str::from_utf8(payload).ok()?;
    let start = text.trim_start().as_bytes().first()?;
    let refusal = |got: &str| stand_in(&json!({"kind": "bad_id", "got": got}));
    if *start == b'{' {
        let entry: &RawValue = serde_json::from_str(text).ok()?;
        return bad_id(entry).map(|got| ("bad_id", refusal(got)));
    }
    let entries: Vec<&RawValue> = serde_json::from_str(text).ok()?;
    if entries.len() > max_batch {
        let params = json!({"kind": "batch_too_large", "len": entries.len(), "limit": max_batch});
        return Some(("batch_too_large", stand_in(&params)));
    }
    let bad: Vec<Option<&'static str>> = entries.iter().map(|e| bad_id(e)).collect();
    if bad.iter().all(Option::is_none) {
        return None;
    }
    let parts: Vec<Vec<u8>> = entries
        .iter()
        .zip(bad)
        .map(|(e, b)| b.map_or_else(|| e.get().as_bytes().to_vec(), refusal))
        .collect();
    Some(("bad_id", [b"[".to_vec(), parts.join(&b","[..]), b"]".to_vec()].concat()))
}

#[cfg(test)]
mod tests;
