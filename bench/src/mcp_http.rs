//! An MCP client over Streamable HTTP for the benchmarks: one kept-alive HTTP/1.1 connection
//! (hyper), stateless revision 2026-07-28 requests, the answer read whole (a JSON body or the
//! event stream's `data:` line).

use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};

const VERSION: &str = "2026-07-28";

pub struct McpHttp {
    sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    authority: String,
    token: String,
    next_id: u64,
}

impl McpHttp {
    /// Connect to `http://<addr>/mcp` with a bearer `token`.
    pub async fn connect(addr: &str, token: &str) -> anyhow::Result<McpHttp> {
        let stream = tokio::net::TcpStream::connect(addr).await.with_context(|| addr.to_owned())?;
        stream.set_nodelay(true)?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                eprintln!("bench: the MCP connection ended: {e}");
            }
        });
        Ok(McpHttp { sender, authority: addr.to_owned(), token: token.to_owned(), next_id: 0 })
    }

    /// `tools/call` of `name` with `arguments`: the JSON-RPC answer and the round trip.
    pub async fn call_tool(
        &mut self,
        name: &str,
        arguments: &Value,
    ) -> anyhow::Result<(Value, Duration)> {
        self.next_id += 1;
        let meta = json!({"io.modelcontextprotocol/protocolVersion": VERSION,
                          "io.modelcontextprotocol/clientInfo": {"name": "glovebox-bench", "version": "1"},
                          "io.modelcontextprotocol/clientCapabilities": {}});
        let body = json!({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                          "params": {"name": name, "arguments": arguments, "_meta": meta}});
        let req = hyper::Request::post("/mcp")
            .header("host", &self.authority)
            .header("authorization", format!("Bearer {}", self.token))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", VERSION)
            .header("mcp-method", "tools/call")
            .header("mcp-name", name)
            .body(Full::new(Bytes::from(body.to_string())))?;
        let start = Instant::now();
        self.sender.ready().await?;
        let resp = self.sender.send_request(req).await?;
        let status = resp.status();
        let bytes = resp.into_body().collect().await?.to_bytes();
        let took = start.elapsed();
        let text = String::from_utf8_lossy(&bytes);
        if !status.is_success() {
            bail!("POST /mcp answered {status}: {text}");
        }
        let json = text
            .lines()
            .find_map(|l| l.strip_prefix("data: ").filter(|d| d.starts_with('{')))
            .unwrap_or(&text);
        Ok((serde_json::from_str(json).with_context(|| text.to_string())?, took))
    }
}
