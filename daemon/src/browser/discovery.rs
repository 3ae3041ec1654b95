//! Finding Chromium instances: the process table (`--remote-debugging-port=N` on a browser
//! process) confirmed by `GET /json/version` on that port.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::BrowserError;

/// (port, pid) of every process started with a non-zero remote-debugging port.
pub fn scan() -> Vec<(u16, Option<u32>)> {
    let mut out: Vec<(u16, Option<u32>)> = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else { return out };
    for entry in dir.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(raw) = std::fs::read(entry.path().join("cmdline")) else { continue };
        // Chromium rewrites its process title: the arguments may come space-separated.
        let args: Vec<&[u8]> = raw.split(|b| *b == 0 || *b == b' ').collect();
        // Helper processes (renderers, GPU, zygotes) carry --type=...
        if args.iter().any(|a| a.starts_with(b"--type=")) {
            continue;
        }
        let port = args.iter().find_map(|a| {
            std::str::from_utf8(a)
                .ok()?
                .strip_prefix("--remote-debugging-port=")?
                .parse::<u16>()
                .ok()
                .filter(|p| *p != 0)
        });
        if let Some(port) = port {
            if !out.iter().any(|(p, _)| *p == port) {
                out.push((port, Some(pid)));
            }
        }
    }
    out.sort();
    out
}

/// What a browser's `/json/version` says of it (the fields the daemon may use; the rest is
/// left unread).
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct Version {
    /// `Chrome/<version>`.
    #[serde(rename = "Browser", default)]
    pub browser: String,
    /// The browser's DevTools endpoint.
    #[serde(rename = "webSocketDebuggerUrl", default)]
    pub web_socket_debugger_url: String,
}

/// `GET http://127.0.0.1:<port>/json/version`, with a short deadline.
pub async fn version(port: u16) -> Result<Version, BrowserError> {
    let fail = |why: String| BrowserError::Unavailable(format!("chrome-{port}: {why}"));
    let fut = async {
        let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .map_err(|e| fail(e.to_string()))?;
        s.write_all(b"GET /json/version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            .await
            .map_err(|e| fail(e.to_string()))?;
        // Chromium may keep the connection open: read the head, then Content-Length bytes.
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        let body = loop {
            let n = s.read(&mut chunk).await.map_err(|e| fail(e.to_string()))?;
            buf.extend_from_slice(&chunk[..n]);
            let text = String::from_utf8_lossy(&buf).to_string();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let len = head
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(usize::MAX);
                if body.len() >= len || n == 0 {
                    break body.to_owned();
                }
            }
            if n == 0 {
                return Err(fail("the connection closed early".into()));
            }
        };
        let body = body.as_str();
        serde_json::from_str::<Version>(body).map_err(|e| fail(format!("bad /json/version: {e}")))
    };
    tokio::time::timeout(Duration::from_secs(3), fut)
        .await
        .map_err(|_| fail("/json/version timed out".into()))?
}

/// A free loopback port.
pub fn free_port() -> Result<u16, BrowserError> {
    std::net::TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| BrowserError::Unavailable(format!("no free port: {e}")))
}

pub fn port_free(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}
