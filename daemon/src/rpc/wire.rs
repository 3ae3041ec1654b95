//! The frames of one `/rpc` WebSocket (RFC 6455, the server's side, no extensions): the
//! client's messages read whole up to the size limit, and the server's text and control
//! frames written. A message whose frames pass the limit is not kept while it arrives: its
//! bytes are read past and only its size is told. What a message means is `incoming.rs`'s.

use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _, BufReader};

/// Frame opcodes (RFC 6455 section 5.2).
const CONTINUATION: u8 = 0;
pub const TEXT: u8 = 1;
const BINARY: u8 = 2;
pub const CLOSE: u8 = 8;
pub const PING: u8 = 9;
pub const PONG: u8 = 10;

/// What the client sent next.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    Text(String),
    Binary {
        bytes: usize,
    },
    /// A data message over the limit; `size` counts all of it.
    TooLarge {
        size: usize,
    },
    /// A text message that is not UTF-8 (close with 1007).
    NotUtf8,
    Ping(Vec<u8>),
    /// The client's close frame, with its code when it gave one.
    Closed(Option<u16>),
    /// A frame no client may send (close with 1002), and why.
    Broken(&'static str),
}

/// A frame's header as the client sent it.
struct Header {
    fin: bool,
    reserved_bits: bool,
    opcode: u8,
    mask: Option<[u8; 4]>,
    len: usize,
}

impl Header {
    /// Why the frame breaks the protocol, if it does; `in_message`: a fragmented message is
    /// under way.
    fn broken(&self, in_message: bool) -> Option<&'static str> {
        Some(match self.opcode {
            _ if self.mask.is_none() => "a client frame must be masked",
            _ if self.reserved_bits => "no extension was agreed: the reserved bits must be 0",
            3..=7 | 11..=15 => "a reserved opcode",
            CLOSE.. if !self.fin || self.len > 125 => "a control frame is whole and short",
            CONTINUATION if !in_message => "a continuation frame without a message",
            TEXT | BINARY if in_message => "a new message inside a fragmented one",
            _ => return None,
        })
    }
}

/// The data message being put together from its frames.
struct Partial {
    text: bool,
    size: usize,
    /// `None` once the message passed the limit (or is binary): its bytes are not kept.
    kept: Option<Vec<u8>>,
}

impl Partial {
    fn finish(self, limit: usize) -> Incoming {
        if !self.text {
            return Incoming::Binary { bytes: self.size };
        }
        match self.kept {
            Some(bytes) if self.size <= limit => {
                String::from_utf8(bytes).map_or(Incoming::NotUtf8, Incoming::Text)
            }
            _ => Incoming::TooLarge { size: self.size },
        }
    }
}

/// The client's side of the socket, read one message at a time.
pub struct Reader<R> {
    io: BufReader<R>,
    /// The largest message kept, in bytes.
    limit: usize,
    /// A fragmented message under way (a control frame may come between its frames).
    message: Option<Partial>,
}

impl<R: AsyncRead + Unpin> Reader<R> {
    pub fn new(io: R, limit: usize) -> Self {
        Reader { io: BufReader::with_capacity(16 * 1024, io), limit, message: None }
    }

    /// The next message or control frame (a pong is read past). An error: the peer is gone.
    pub async fn next(&mut self) -> std::io::Result<Incoming> {
        loop {
            let h = self.header().await?;
            if let Some(why) = h.broken(self.message.is_some()) {
                return Ok(Incoming::Broken(why));
            }
            let mask = h.mask.unwrap_or_default();
            if h.opcode >= CLOSE {
                let mut payload = vec![0; h.len];
                self.io.read_exact(&mut payload).await?;
                unmask(&mut payload, mask, 0);
                match h.opcode {
                    PING => return Ok(Incoming::Ping(payload)),
                    PONG => continue,
                    _ => {
                        let code = payload.get(..2).map(|c| u16::from_be_bytes([c[0], c[1]]));
                        return Ok(Incoming::Closed(code));
                    }
                }
            }
            let limit = self.limit;
            let m = self.message.get_or_insert_with(|| Partial {
                text: h.opcode == TEXT,
                size: 0,
                kept: (h.opcode == TEXT).then(Vec::new),
            });
            // The header says how long the frame is: past the limit, nothing of it is held.
            if m.size.saturating_add(h.len) > limit {
                m.kept = None;
            }
            match &mut m.kept {
                Some(bytes) => {
                    let at = bytes.len();
                    bytes.resize(at + h.len, 0);
                    self.io.read_exact(&mut bytes[at..]).await?;
                    unmask(&mut bytes[at..], mask, 0);
                }
                None => skip(&mut self.io, h.len).await?,
            }
            m.size = m.size.saturating_add(h.len);
            if h.fin {
                let m = self.message.take().expect("a frame started it");
                return Ok(m.finish(limit));
            }
        }
    }

    async fn header(&mut self) -> std::io::Result<Header> {
        let mut two = [0u8; 2];
        self.io.read_exact(&mut two).await?;
        let len = match two[1] & 0x7f {
            126 => usize::from(self.io.read_u16().await?),
            127 => usize::try_from(self.io.read_u64().await?).unwrap_or(usize::MAX),
            n => usize::from(n),
        };
        let mask = if two[1] & 0x80 == 0 {
            None
        } else {
            let mut key = [0u8; 4];
            self.io.read_exact(&mut key).await?;
            Some(key)
        };
        Ok(Header {
            fin: two[0] & 0x80 != 0,
            reserved_bits: two[0] & 0x70 != 0,
            opcode: two[0] & 0x0f,
            mask,
            len,
        })
    }
}

/// Reads `len` bytes and keeps none.
async fn skip(io: &mut (impl AsyncRead + Unpin), mut len: usize) -> std::io::Result<()> {
    let mut scratch = [0u8; 8 * 1024];
    while len > 0 {
        let n = io.read(&mut scratch[..len.min(8 * 1024)]).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        len -= n;
    }
    Ok(())
}

/// XORs `bytes`, which start `offset` bytes into their frame, with the frame's key.
fn unmask(bytes: &mut [u8], mask: [u8; 4], offset: usize) {
    let key: [u8; 4] = std::array::from_fn(|i| mask[(offset + i) % 4]);
    for (i, b) in bytes.iter_mut().enumerate() {
        *b ^= key[i & 3];
    }
}

/// The server's side of the socket: each frame whole and unmasked, flushed at once.
pub struct Writer<W> {
    io: W,
}

impl<W: AsyncWrite + Unpin> Writer<W> {
    pub fn new(io: W) -> Self {
        Writer { io }
    }

    pub async fn send(&mut self, opcode: u8, payload: &[u8]) -> std::io::Result<()> {
        let mut head = Vec::with_capacity(10);
        head.push(0x80 | opcode);
        match payload.len() {
            n if n < 126 => head.push(n as u8),
            n if n <= usize::from(u16::MAX) => {
                head.push(126);
                head.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                head.push(127);
                head.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        self.io.write_all(&head).await?;
        self.io.write_all(payload).await?;
        self.io.flush().await
    }

    /// A close frame with `code` and `reason` (at most 123 bytes), then the socket shut.
    pub async fn close(&mut self, code: u16, reason: &str) -> std::io::Result<()> {
        let mut payload = code.to_be_bytes().to_vec();
        payload.extend_from_slice(&reason.as_bytes()[..reason.len().min(123)]);
        self.send(CLOSE, &payload).await?;
        self.io.shutdown().await
    }

    pub async fn shutdown(&mut self) -> std::io::Result<()> {
        self.io.shutdown().await
    }
}

#[cfg(test)]
mod tests;
