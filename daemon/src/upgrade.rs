//! A WebSocket on a plain HTTP request (`/rpc`, the view socket, a code session's endpoint):
//! the request's upgrade checked, the `101` answer, and the socket handed to a task once
//! hyper lets go of the connection (as tungstenite's stream, or as it is for `/rpc`, which
//! reads its frames itself).

use std::future::Future;

use http::{header, HeaderValue, Request, Response, StatusCode};
use hyper::upgrade::Upgraded;
use hyper_util::rt::TokioIo;
use jsonrpsee::server::HttpBody;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::WebSocketStream;

/// The server's side of an upgraded connection.
pub type Socket = WebSocketStream<TokioIo<Upgraded>>;

/// The request's `Sec-WebSocket-Key`, when it asks to become a WebSocket.
pub fn key_of(req: &Request<hyper::body::Incoming>) -> Option<HeaderValue> {
    let upgrade = req
        .headers()
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    req.headers().get(header::SEC_WEBSOCKET_KEY).cloned().filter(|_| upgrade)
}

/// Answer `101` for `key` and, on a task of its own, run `serve` on the socket (messages up to
/// `max_message` bytes) or `failed` if the upgrade does not complete.
pub fn accept<S, F>(
    req: &mut Request<hyper::body::Incoming>,
    key: &HeaderValue,
    max_message: usize,
    serve: S,
    failed: F,
) -> Response<HttpBody>
where
    S: FnOnce(Socket) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> + Send + 'static,
    F: FnOnce(hyper::Error) + Send + 'static,
{
    let serve = move |io: TokioIo<Upgraded>| -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> {
        Box::pin(async move {
            let cfg = WebSocketConfig::default().max_message_size(Some(max_message));
            serve(WebSocketStream::from_raw_socket(io, Role::Server, Some(cfg)).await).await;
        })
    };
    accept_frames(req, key, serve, failed)
}

/// Answer `101` for `key` and, on a task of its own, run `serve` on the upgraded connection
/// (whose frames it reads and writes itself) or `failed` if the upgrade does not complete.
pub fn accept_frames<S, F>(
    req: &mut Request<hyper::body::Incoming>,
    key: &HeaderValue,
    serve: S,
    failed: F,
) -> Response<HttpBody>
where
    S: FnOnce(TokioIo<Upgraded>) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>>
        + Send
        + 'static,
    F: FnOnce(hyper::Error) + Send + 'static,
{
    let accept = derive_accept_key(key.as_bytes());
    let on_upgrade = hyper::upgrade::on(req);
    tokio::spawn(async move {
        match on_upgrade.await {
            Ok(up) => serve(TokioIo::new(up)).await,
            Err(e) => failed(e),
        }
    });
    let mut r = Response::new(HttpBody::from(""));
    *r.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = r.headers_mut();
    h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    h.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    if let Ok(v) = HeaderValue::from_str(&accept) {
        h.insert(header::SEC_WEBSOCKET_ACCEPT, v);
    }
    r
}
