//! A raw tokio-tungstenite client: text frames in, text frames out, exactly what a person
//! typing into `wscat` produces. Notifications are kept aside for the tests that read them.

use std::collections::VecDeque;

use futures::{SinkExt as _, StreamExt as _};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::DEADLINE;

pub struct Raw {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    /// Notifications and responses received while waiting for something else.
    pending: VecDeque<Value>,
}

impl Raw {
    /// Open the WebSocket with a bearer token (or none); `Err` carries the HTTP status.
    pub async fn connect(url: &str, token: Option<&str>) -> Result<Raw, u16> {
        Self::connect_with(url, token, &[]).await
    }

    pub async fn connect_with(
        url: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Result<Raw, u16> {
        let mut req = url.into_client_request().expect("request");
        if let Some(t) = token {
            req.headers_mut()
                .insert("authorization", format!("Bearer {t}").parse().expect("header"));
        }
        for (k, v) in headers {
            req.headers_mut().insert(
                http::HeaderName::from_bytes(k.as_bytes()).expect("name"),
                v.parse().expect("value"),
            );
        }
        let connect = tokio_tungstenite::connect_async_with_config(
            req,
            Some(
                tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
                    .max_message_size(Some(64 << 20))
                    .max_frame_size(Some(64 << 20)),
            ),
            false,
        );
        match tokio::time::timeout(DEADLINE, connect).await.expect("connect in time") {
            Ok((ws, _)) => Ok(Raw { ws, next_id: 1, pending: VecDeque::new() }),
            Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => Err(resp.status().as_u16()),
            Err(e) => panic!("websocket connect failed: {e}"),
        }
    }

    /// Send one text frame as is.
    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.expect("send");
    }

    /// Send one data frame as is: a text frame whose payload need not be UTF-8, or a binary
    /// frame.
    pub async fn send_raw(&mut self, text: bool, payload: Vec<u8>) {
        use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
        use tokio_tungstenite::tungstenite::protocol::frame::Frame;
        let opcode = OpCode::Data(if text { Data::Text } else { Data::Binary });
        self.ws.send(Message::Frame(Frame::message(payload, opcode, true))).await.expect("send");
    }

    /// Send one text message in two frames with a ping between them.
    pub async fn send_split_with_ping(&mut self, first: &str, rest: &str) {
        use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
        use tokio_tungstenite::tungstenite::protocol::frame::Frame;
        let head = Frame::message(first.as_bytes().to_vec(), OpCode::Data(Data::Text), false);
        let tail = Frame::message(rest.as_bytes().to_vec(), OpCode::Data(Data::Continue), true);
        self.ws.send(Message::Frame(head)).await.expect("send");
        self.ws.send(Message::Ping(b"between".to_vec().into())).await.expect("send");
        self.ws.send(Message::Frame(tail)).await.expect("send");
    }

    /// The code of the close frame the daemon ends the connection with (`None`: it ended
    /// without one); text frames before it are skipped.
    pub async fn close_code(&mut self) -> Option<u16> {
        loop {
            match tokio::time::timeout(DEADLINE, self.ws.next()).await.expect("closed in time") {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => continue,
                None | Some(Err(_)) => return None,
            }
        }
    }

    /// The next text frame, parsed.
    pub async fn recv(&mut self) -> Value {
        if let Some(v) = self.pending.pop_front() {
            return v;
        }
        self.recv_frame().await
    }

    async fn recv_frame(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(DEADLINE, self.ws.next())
                .await
                .expect("a frame in time")
                .expect("connection open")
                .expect("frame");
            match msg {
                Message::Text(t) => return serde_json::from_str(&t).expect("daemon sends JSON"),
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("unexpected frame {other:?}"),
            }
        }
    }

    /// True when the daemon closed the connection.
    pub async fn closed(&mut self) -> bool {
        matches!(
            tokio::time::timeout(DEADLINE, self.ws.next()).await,
            Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_))))
        )
    }

    /// Send a request and wait for the response with its id (notifications are kept).
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let req = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_text(&req.to_string()).await;
        self.response(id).await
    }

    /// Wait for the response with `id`.
    pub async fn response(&mut self, id: u64) -> Value {
        if let Some(pos) = self.pending.iter().position(|v| v["id"] == id) {
            return self.pending.remove(pos).expect("present");
        }
        loop {
            let v = self.recv_frame().await;
            if v["id"] == id {
                return v;
            }
            self.pending.push_back(v);
        }
    }

    /// Send a request without waiting; returns its id.
    pub async fn send(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let req = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_text(&req.to_string()).await;
        id
    }

    /// The next notification of `method` (subscriptions).
    pub async fn notification(&mut self, method: &str) -> Value {
        if let Some(pos) = self.pending.iter().position(|v| v["method"] == method) {
            return self.pending.remove(pos).expect("present");
        }
        loop {
            let v = self.recv_frame().await;
            if v["method"] == method {
                return v;
            }
            self.pending.push_back(v);
        }
    }

    /// `session.hello`, asserting success; returns the result.
    pub async fn hello(&mut self, session: Option<&str>) -> Value {
        let mut params =
            json!({"protocol": 1, "client": {"name": "glovebox-tests", "version": "0"}});
        if let Some(s) = session {
            params["session"] = json!(s);
        }
        let r = self.call("session.hello", params).await;
        assert!(r.get("result").is_some(), "hello failed: {r}");
        r["result"].clone()
    }
}

/// `data.code` of an error response, or "" for a success.
pub fn code(resp: &Value) -> String {
    resp["error"]["data"]["code"].as_str().unwrap_or_default().to_owned()
}

/// `data.details.field` of an error response.
pub fn field(resp: &Value) -> String {
    resp["error"]["data"]["details"]["field"].as_str().unwrap_or_default().to_owned()
}
