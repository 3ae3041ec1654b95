//! The floor for screenshots: a bare CDP WebSocket of the bench's own on one tab, sending
//! `Page.captureScreenshot` with nothing around it.

use std::io::{Read as _, Write as _};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use futures::{SinkExt as _, StreamExt as _};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub struct Cdp {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

/// `GET <path>` on the debugging port, as JSON. Chromium may keep the connection open, so
/// the body is read by its Content-Length.
pub fn get(port: u16, path: &str) -> anyhow::Result<Value> {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(s, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = s.read(&mut chunk)?;
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let len = head.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length").then(|| v.trim().parse::<usize>().ok())?
            });
            if n == 0 || len.is_some_and(|len| body.len() >= len) {
                return Ok(serde_json::from_str(body)?);
            }
        }
        if n == 0 {
            bail!("GET {path} on port {port}: no HTTP body");
        }
    }
}

/// The browser's product string (`Chrome/156...`).
pub fn version(port: u16) -> anyhow::Result<String> {
    Ok(get(port, "/json/version")?["Browser"].as_str().unwrap_or("?").to_owned())
}

impl Cdp {
    /// Attach to the page target whose id starts with `tab_id` (the daemon's tab ids are the
    /// target id's first characters).
    pub async fn attach(port: u16, tab_id: &str) -> anyhow::Result<Cdp> {
        let list = get(port, "/json/list")?.as_array().cloned().unwrap_or_default();
        let Some(t) = list.iter().find(|t| {
            t["type"] == "page" && t["id"].as_str().is_some_and(|id| id.starts_with(tab_id))
        }) else {
            bail!("no page target {tab_id}* on port {port}");
        };
        let id = t["id"].as_str().unwrap_or_default();
        let url = format!("ws://127.0.0.1:{port}/devtools/page/{id}");
        let (ws, _) = tokio_tungstenite::connect_async_with_config(&url, None, true)
            .await
            .with_context(|| format!("connecting to {url}"))?;
        Ok(Cdp { ws, next_id: 1 })
    }

    /// One command; its result and the round trip (events in between are skipped).
    pub async fn call(&mut self, method: &str, params: Value) -> anyhow::Result<(Value, Duration)> {
        let id = self.next_id;
        self.next_id += 1;
        let text = json!({"id": id, "method": method, "params": params}).to_string();
        let start = Instant::now();
        self.ws.send(Message::text(text)).await?;
        loop {
            let msg = self.ws.next().await.context("CDP closed")??;
            let Message::Text(t) = msg else { continue };
            // Cheap pre-check so events are not parsed on the clock.
            if !t.as_str().starts_with(&format!("{{\"id\":{id},")) {
                continue;
            }
            let took = start.elapsed();
            let v: Value = serde_json::from_str(t.as_str())?;
            if let Some(e) = v.get("error") {
                bail!("{method} failed: {e}");
            }
            return Ok((v["result"].clone(), took));
        }
    }

    /// Commands sent back to back; the time until the last answer (the tab runs them in
    /// order). Errors in any answer fail the batch.
    pub async fn batch(&mut self, cmds: &[(&str, Value)]) -> anyhow::Result<Duration> {
        let first = self.next_id;
        let texts: Vec<String> = cmds
            .iter()
            .enumerate()
            .map(|(i, (m, p))| {
                json!({"id": first + i as u64, "method": m, "params": p}).to_string()
            })
            .collect();
        self.next_id += cmds.len() as u64;
        let last = format!("{{\"id\":{},", self.next_id - 1);
        let start = Instant::now();
        for t in texts {
            self.ws.send(Message::text(t)).await?;
        }
        loop {
            let msg = self.ws.next().await.context("CDP closed")??;
            let Message::Text(t) = msg else { continue };
            if t.as_str().contains("\"error\"") && t.as_str().starts_with("{\"id\"") {
                bail!("a batched command failed: {}", t.as_str());
            }
            if t.as_str().starts_with(&last) {
                return Ok(start.elapsed());
            }
        }
    }
}
