//! The browser's side of the pipe cut into messages (each ends with a NUL byte), and the
//! bound on what a capture may answer.
//!
//! Each byte is looked at once: a large message arrives in thousands of reads, and searching
//! its whole partial text again after each read took minutes of CPU while every other
//! message of that browser waited behind it.
//!
//! A `Page.captureScreenshot` answer longer than the daemon may send (`--max-response-bytes`)
//! could only end as `RESULT_TOO_LARGE`, yet carried whole it costs seconds of parsing, during
//! which no other answer of that browser gets through, and several copies of itself in
//! memory (a full-page PNG of a noisy page is over 130 MB). So the relay lets such an answer
//! go by unread, keeping only its id and its session, and hands on an error in its place:
//! [`too_large`] knows it by its code, which no DevTools answer uses.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

/// Ids of the captures asked for and not answered yet.
pub(super) type Captures = Arc<Mutex<HashSet<u64>>>;

/// The code of the error that replaces an answer over the bound. DevTools answers errors
/// with -32000 and the JSON-RPC codes (-32001, -326xx, -32700), never this one, and nothing
/// but this relay writes to the daemon's end of the pipe.
const OVER_BOUND: i64 = -32_099;

/// How the message of that error reads around its two numbers.
const SAYS: (&str, &str, &str) =
    ("the answer has ", " bytes, over the relay's bound of ", " bytes");

/// How much of a skipped answer's end is kept: enough for its `"sessionId":"…"}`.
const TAIL: usize = 256;

fn lock(c: &Captures) -> std::sync::MutexGuard<'_, HashSet<u64>> {
    c.lock().unwrap_or_else(|p| p.into_inner())
}

/// Remember a capture the client asks for (`text` is one message on its way to the browser).
pub(super) fn note_call(captures: &Captures, text: &str) {
    if !text.contains("\"Page.captureScreenshot\"") {
        return;
    }
    let Ok(v) = serde_json::from_str::<Value>(text) else { return };
    if let (Some(id), Some("Page.captureScreenshot")) = (v["id"].as_u64(), v["method"].as_str()) {
        lock(captures).insert(id);
    }
}

/// The `(size, limit)` of an answer the relay replaced, if `e` is that stand-in. It is known
/// by its code; the two numbers are read back from the message `Skip::error` writes, the
/// one place that text is made (CDP errors carry a code and a message, nothing more).
pub fn too_large(e: &chromiumoxide::types::Error) -> Option<(usize, usize)> {
    if e.code != OVER_BOUND {
        return None;
    }
    let rest = e.message.strip_prefix(SAYS.0)?.strip_suffix(SAYS.2)?;
    let (size, limit) = rest.split_once(SAYS.1)?;
    Some((size.parse().ok()?, limit.parse().ok()?))
}

/// The id an answer starts with (`{"id":12,…`); events start with `"method"`.
pub(super) fn leading_id(bytes: &[u8]) -> Option<u64> {
    let rest = bytes.strip_prefix(b"{\"id\":")?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()
}

/// An answer being let go by.
struct Skip {
    id: u64,
    bytes: usize,
    tail: Vec<u8>,
}

impl Skip {
    fn keep(&mut self, bytes: &[u8]) {
        self.bytes += bytes.len();
        self.tail.extend_from_slice(&bytes[bytes.len().saturating_sub(TAIL)..]);
        let extra = self.tail.len().saturating_sub(TAIL);
        self.tail.drain(..extra);
    }

    /// The error handed on in the answer's place, in the answer's session.
    fn error(&self, limit: usize) -> String {
        let tail = String::from_utf8_lossy(&self.tail);
        let session = tail
            .rsplit_once("\"sessionId\":\"")
            .and_then(|(_, s)| s.split_once('"'))
            .map(|(s, _)| s.to_owned());
        let message = format!("{}{}{}{limit}{}", SAYS.0, self.bytes, SAYS.1, SAYS.2);
        let mut v = json!({"id": self.id, "error": {"code": OVER_BOUND, "message": message}});
        if let Some(s) = session {
            v["sessionId"] = json!(s);
        }
        v.to_string()
    }
}

pub(super) struct Split {
    buf: Vec<u8>,
    /// How much of `buf` is known to hold no NUL.
    scanned: usize,
    captures: Captures,
    /// The most bytes a capture's answer may have.
    limit: usize,
    skipping: Option<Skip>,
}

impl Split {
    pub(super) fn new(captures: Captures, limit: usize) -> Split {
        Split { buf: Vec::new(), scanned: 0, captures, limit, skipping: None }
    }

    /// Take one read's bytes; `each` gets every message they complete.
    pub(super) fn push(&mut self, mut bytes: &[u8], mut each: impl FnMut(String)) {
        if let Some(skip) = &mut self.skipping {
            let Some(end) = bytes.iter().position(|b| *b == 0) else {
                skip.keep(bytes);
                return;
            };
            skip.keep(&bytes[..end]);
            each(skip.error(self.limit));
            self.skipping = None;
            bytes = &bytes[end + 1..];
        }
        self.buf.extend_from_slice(bytes);
        let mut start = 0;
        while let Some(i) = self.buf[self.scanned..].iter().position(|b| *b == 0) {
            let end = self.scanned + i;
            let msg = &self.buf[start..end];
            if let Some(id) = leading_id(msg) {
                lock(&self.captures).remove(&id);
            }
            each(String::from_utf8_lossy(msg).into_owned());
            start = end + 1;
            self.scanned = start;
        }
        // What is left starts after the last NUL of this read, so the move is short.
        self.buf.drain(..start);
        self.scanned = self.buf.len();
        if self.buf.len() > self.limit {
            let id = leading_id(&self.buf).filter(|id| lock(&self.captures).remove(id));
            if let Some(id) = id {
                let mut skip = Skip { id, bytes: 0, tail: Vec::new() };
                skip.keep(&self.buf);
                self.skipping = Some(skip);
                self.buf = Vec::new();
                self.scanned = 0;
            }
        }
    }

    /// The bytes of the message not ended yet (not counting one being let go by).
    pub(super) fn pending(&self) -> usize {
        self.buf.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(split: &mut Split, parts: &[&[u8]]) -> Vec<String> {
        let mut got = Vec::new();
        for p in parts {
            split.push(p, |m| got.push(m));
        }
        got
    }

    #[test]
    fn the_pipe_is_cut_at_each_nul_whatever_the_reads() {
        let mut split = Split::new(Captures::default(), 1 << 30);
        let parts: [&[u8]; 4] =
            [b"{\"a\":1}\0{\"b\"", b":2", b"}\0", b"{\"method\":\"c\"}\0{\"d\":4}\0{"];
        let got = run(&mut split, &parts);
        assert_eq!(got, ["{\"a\":1}", "{\"b\":2}", "{\"method\":\"c\"}", "{\"d\":4}"]);
        assert_eq!(split.pending(), 1, "the start of the next message waits");
        let big = vec![b'x'; 3 * 1024 * 1024];
        let mut pieces: Vec<&[u8]> = big.chunks(4096).collect();
        pieces.push(b"\0");
        let got = run(&mut split, &pieces);
        assert_eq!(got.iter().map(String::len).collect::<Vec<_>>(), [3 * 1024 * 1024 + 1]);
        assert_eq!(split.pending(), 0);
    }

    #[test]
    fn a_capture_over_the_limit_becomes_an_error_in_its_session() {
        let captures = Captures::default();
        note_call(&captures, r#"{"id":7,"method":"Page.captureScreenshot","params":{}}"#);
        note_call(&captures, r#"{"id":8,"method":"Page.captureScreenshot","params":{}}"#);
        note_call(&captures, r#"{"id":9,"method":"Runtime.evaluate","params":{}}"#);
        let mut split = Split::new(captures.clone(), 1000);
        let data = "A".repeat(5000);
        let answer = format!(r#"{{"id":7,"result":{{"data":"{data}"}},"sessionId":"S1"}}"#);
        let small = r#"{"id":8,"result":{"data":"AAAA"},"sessionId":"S1"}"#;
        let other = format!(r#"{{"id":9,"result":{{"value":"{data}"}}}}"#);
        let stream = format!("{answer}\0{small}\0{other}\0");
        let pieces: Vec<&[u8]> = stream.as_bytes().chunks(300).collect();
        let got = run(&mut split, &pieces);
        assert_eq!(got.len(), 3, "{got:?}");
        let error: Value = serde_json::from_str(&got[0]).expect("JSON");
        assert_eq!(error["id"], 7);
        assert_eq!(error["sessionId"], "S1");
        let e: chromiumoxide::types::Error =
            serde_json::from_value(error["error"].clone()).expect("a CDP error");
        assert_eq!(too_large(&e), Some((answer.len(), 1000)), "{e}");
        // Only the relay's code says so, whatever a message reads like.
        let page = chromiumoxide::types::Error { code: -32000, ..e };
        assert_eq!(too_large(&page), None);
        assert_eq!(got[1], small, "an answer under the limit passes");
        assert_eq!(got[2], other, "only captures are bounded");
        assert!(lock(&captures).is_empty(), "answered captures are forgotten");
    }
}
