//! Plain HTTP/1.1 exchanges over one TCP connection, written byte for byte like `curl -v`
//! shows them, so tests see exactly what the daemon answers and when.

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

use super::DEADLINE;

/// One answer: status, head (lower-cased header lines) and body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Reply {
    /// A header's value, if the answer has it.
    pub fn header(&self, name: &str) -> Option<String> {
        let name = name.to_ascii_lowercase();
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim().to_ascii_lowercase() == name).then(|| v.trim().to_owned())
        })
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

pub struct Http {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Http {
    pub async fn connect(addr: SocketAddr) -> Http {
        let stream = tokio::time::timeout(DEADLINE, TcpStream::connect(addr))
            .await
            .expect("connect in time")
            .expect("connect");
        Http { stream, buf: Vec::new() }
    }

    /// Sends `method path` with `headers` (Host: localhost unless given) and reads the answer
    /// (no body after a HEAD), within `within`.
    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        within: std::time::Duration,
    ) -> Reply {
        let mut req = format!("{method} {path} HTTP/1.1\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            req.push_str("Host: localhost\r\n");
        }
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        self.stream.write_all(req.as_bytes()).await.expect("write");
        tokio::time::timeout(within, self.read(method == "HEAD"))
            .await
            .unwrap_or_else(|_| panic!("{method} {path} answered within {within:?}"))
    }

    async fn read(&mut self, head_only: bool) -> Reply {
        let end = loop {
            if let Some(i) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            self.fill().await;
        };
        let head = String::from_utf8_lossy(&self.buf[..end]).to_string();
        let status = head.get(9..12).and_then(|s| s.parse().ok()).expect("a status line");
        self.buf.drain(..end);
        let mut reply = Reply { status, head, body: String::new() };
        let len: usize = reply.header("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
        let len = if head_only || status == 101 { 0 } else { len };
        while self.buf.len() < len {
            self.fill().await;
        }
        reply.body = String::from_utf8_lossy(&self.buf[..len]).to_string();
        self.buf.drain(..len);
        reply
    }

    /// The connection itself, after an upgrade, and the bytes already read past the answer.
    pub fn into_parts(self) -> (TcpStream, Vec<u8>) {
        (self.stream, self.buf)
    }

    async fn fill(&mut self) {
        let mut chunk = [0u8; 4096];
        let n = self.stream.read(&mut chunk).await.expect("read");
        assert!(n > 0, "the daemon closed the connection");
        self.buf.extend_from_slice(&chunk[..n]);
    }
}
