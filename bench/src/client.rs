//! A bare JSON-RPC-over-WebSocket client for measuring: the request text is built before the
//! clock starts and the answer is parsed after it stops, so a sample is one send plus one
//! receive of a text frame on loopback.

use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use futures::{SinkExt as _, StreamExt as _};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
}

impl Client {
    /// Open `/rpc` with the bearer token, TCP_NODELAY on.
    pub async fn connect(url: &str, token: &str) -> anyhow::Result<Client> {
        let mut req = url.into_client_request()?;
        req.headers_mut().insert("authorization", format!("Bearer {token}").parse()?);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(req, None, true)
            .await
            .with_context(|| format!("connecting to {url}"))?;
        Ok(Client { ws, next_id: 1 })
    }

    /// `session.hello` with a fresh session; the session id.
    pub async fn hello(&mut self) -> anyhow::Result<String> {
        self.hello_as(None).await
    }

    /// `session.hello` naming the session to resume (or start) when `name` is given.
    pub async fn hello_as(&mut self, name: Option<&str>) -> anyhow::Result<String> {
        let mut params = serde_json::json!({"protocol": 1,
                                            "client": {"name": "xtask-bench", "version": "0"}});
        if let Some(n) = name {
            params["session"] = serde_json::json!(n);
        }
        let (text, _) = self.call("session.hello", &params.to_string()).await?;
        let v: serde_json::Value = serde_json::from_str(&text)?;
        match v["result"]["session_id"].as_str() {
            Some(id) => Ok(id.to_owned()),
            None => bail!("hello failed: {text}"),
        }
    }

    /// One round trip: the answer's text and the time from send to the answer's arrival.
    /// Calls are strictly sequential and nothing is subscribed, so the next text frame is
    /// the answer.
    pub async fn call(&mut self, method: &str, params: &str) -> anyhow::Result<(String, Duration)> {
        let id = self.next_id;
        self.next_id += 1;
        let text =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#);
        let start = Instant::now();
        self.send_text(text).await?;
        let answer = self.next_text().await?;
        Ok((answer, start.elapsed()))
    }

    /// One call whose answer must be a result: the JSON-RPC `result` (an action's outcome),
    /// or an error quoting the answer.
    pub async fn outcome(
        &mut self,
        method: &str,
        params: &serde_json::Value,
    ) -> anyhow::Result<serde_json::Value> {
        let (text, _) = self.call(method, &params.to_string()).await?;
        let mut v: serde_json::Value = serde_json::from_str(&text)?;
        match v.get_mut("result") {
            Some(r) => Ok(r.take()),
            None => {
                bail!("{method} {params} failed: {}", text.chars().take(600).collect::<String>())
            }
        }
    }

    /// Send one text frame as it is: a batch, or a message no well-behaved client sends.
    pub async fn send_text(&mut self, text: impl Into<Utf8Bytes>) -> anyhow::Result<()> {
        self.ws.send(Message::text(text)).await?;
        Ok(())
    }

    /// The next text frame from the daemon.
    pub async fn next_text(&mut self) -> anyhow::Result<String> {
        loop {
            match self.ws.next().await.context("the daemon closed the connection")?? {
                Message::Text(t) => return Ok(t.as_str().to_owned()),
                Message::Ping(_) | Message::Pong(_) => continue,
                other => bail!("unexpected frame {other:?}"),
            }
        }
    }

    /// Send a call and leave without its answer (a client that goes away mid-call).
    pub async fn send_and_drop(mut self, method: &str, params: &str) -> anyhow::Result<()> {
        let text = format!(r#"{{"jsonrpc":"2.0","id":0,"method":"{method}","params":{params}}}"#);
        self.ws.send(Message::text(text)).await?;
        Ok(())
    }
}
