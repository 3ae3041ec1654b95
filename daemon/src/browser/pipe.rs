//! The daemon's own Chromium speaks DevTools only over `--remote-debugging-pipe` (its fds 3
//! and 4): it opens no debugging port, so neither a page nor another local process can reach
//! it. chromiumoxide speaks WebSocket only, so the daemon relays the pipe to one loopback
//! WebSocket on a random port and a random 128-bit path, which refuses every request that
//! carries an `Origin` (every WebSocket a page opens does) and every path but its own.
//! `pipe/split.rs` cuts the browser's bytes into messages and bounds what a capture answers;
//! `pipe/lanes.rs` shares the pipe with code clients (`browser.cdp_session`), each on its own
//! ids and sessions.

use std::os::fd::OwnedFd;
use std::sync::{Arc, Mutex};

use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::unix::pipe;
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::Message;

use super::{lock, BrowserError};
use split::{Captures, Split};

mod lanes;
mod split;

pub use lanes::{Lane, Lanes};
pub use split::too_large;

/// The largest message Chromium may send in one go (a PDF is big).
const MAX_MESSAGE: usize = 512 * 1024 * 1024;

/// One browser's relay; dropping it ends the relay (the browser's pipe closes with it).
#[derive(Debug)]
pub struct Relay {
    /// `ws://127.0.0.1:<port>/devtools/browser/<secret>`: for chromiumoxide only.
    pub url: String,
    pub port: u16,
    /// False once the browser closed its end of the pipe (it exited).
    alive: watch::Receiver<bool>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// The pipe's share for code clients.
    lanes: Arc<Lanes>,
}

impl Drop for Relay {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

impl Relay {
    /// A loopback listener for relays: one per browser slot, so a restarted browser keeps its
    /// port and with it its id.
    pub async fn listener() -> Result<Arc<tokio::net::TcpListener>, BrowserError> {
        let l = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| BrowserError::Unavailable(format!("DevTools relay: {e}")))?;
        Ok(Arc::new(l))
    }

    /// Relays `to_browser` (its fd 3) and `from_browser` (its fd 4) on `listener`; a capture
    /// answering more than `capture_limit` bytes is answered with an error instead.
    pub async fn start(
        listener: Arc<tokio::net::TcpListener>,
        to_browser: OwnedFd,
        from_browser: OwnedFd,
        capture_limit: usize,
    ) -> Result<Relay, BrowserError> {
        let fail = |e: std::io::Error| BrowserError::Unavailable(format!("DevTools pipe: {e}"));
        let writer = pipe::Sender::from_owned_fd(to_browser).map_err(fail)?;
        let reader = pipe::Receiver::from_owned_fd(from_browser).map_err(fail)?;
        let port = listener.local_addr().map_err(fail)?.port();
        let mut secret = [0u8; 16];
        getrandom::fill(&mut secret)
            .map_err(|e| BrowserError::Unavailable(format!("no randomness: {e}")))?;
        let path = format!(
            "/devtools/browser/{}",
            secret.iter().map(|b| format!("{b:02x}")).collect::<String>()
        );
        let (alive_tx, alive) = watch::channel(true);
        let (msg_tx, msg_rx) = mpsc::unbounded_channel::<String>();
        let inbox: Inbox = Arc::new(Mutex::new(Some(msg_rx)));
        let writer = Arc::new(tokio::sync::Mutex::new(writer));
        let captures = Captures::default();
        let split = Split::new(captures.clone(), capture_limit);
        let lanes = Lanes::new(writer.clone(), captures.clone());
        let read_task = tokio::spawn(read_pipe(reader, split, msg_tx, alive_tx, lanes.clone()));
        let accept_task = tokio::spawn(accept(listener, path.clone(), inbox, writer, captures));
        Ok(Relay {
            url: format!("ws://127.0.0.1:{port}{path}"),
            port,
            alive,
            tasks: vec![read_task, accept_task],
            lanes,
        })
    }

    /// A code client's lane on this browser's pipe.
    pub fn lane(&self) -> Lane {
        self.lanes.open()
    }

    pub fn is_alive(&self) -> bool {
        *self.alive.borrow()
    }

    /// Turns false when the browser closes its pipe.
    pub fn watch(&self) -> watch::Receiver<bool> {
        self.alive.clone()
    }
}

/// Messages from the browser, taken by the one client connected now.
type Inbox = Arc<Mutex<Option<mpsc::UnboundedReceiver<String>>>>;

/// Chromium's side: JSON messages, each ended by a NUL byte.
async fn read_pipe(
    mut reader: pipe::Receiver,
    mut split: Split,
    tx: mpsc::UnboundedSender<String>,
    alive: watch::Sender<bool>,
    lanes: Arc<Lanes>,
) {
    let mut chunk = vec![0u8; 256 * 1024];
    loop {
        match reader.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => split.push(&chunk[..n], |msg| match lanes.route(&msg) {
                lanes::Route::Lane(lane) => {
                    let _ = lane.send(msg);
                }
                lanes::Route::Daemon => {
                    let _ = tx.send(msg);
                }
                lanes::Route::Nobody => {}
            }),
        }
        if split.pending() > MAX_MESSAGE {
            tracing::warn!("the browser sent a DevTools message over {MAX_MESSAGE} bytes");
            break;
        }
    }
    alive.send_replace(false);
}

async fn accept(
    listener: Arc<tokio::net::TcpListener>,
    path: String,
    inbox: Inbox,
    writer: Arc<tokio::sync::Mutex<pipe::Sender>>,
    captures: Captures,
) {
    while let Ok((stream, _)) = listener.accept().await {
        // The browser's messages go out one small frame each, often several back to back:
        // with Nagle's algorithm the second waits for the client's delayed ACK (40 ms).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(%e, "cannot set TCP_NODELAY on the DevTools relay");
        }
        let (path, inbox, writer) = (path.clone(), inbox.clone(), writer.clone());
        let captures = captures.clone();
        tokio::spawn(async move {
            // The error type is the one tungstenite's callback takes.
            #[allow(clippy::result_large_err)]
            let check = |req: &Request, resp: Response| admit(req, resp, &path, &inbox);
            let Ok(ws) = tokio_tungstenite::accept_hdr_async(stream, check).await else { return };
            // `admit` let it in only when the inbox was free: take it for this client.
            let Some(mut rx) = lock(&inbox).take() else { return };
            let (mut out, mut incoming) = ws.split();
            loop {
                tokio::select! {
                    msg = rx.recv() => match msg {
                        Some(m) => if out.send(Message::text(m)).await.is_err() { break },
                        None => break,
                    },
                    frame = incoming.next() => match frame {
                        Some(Ok(Message::Text(t))) => {
                            split::note_call(&captures, &t);
                            let mut w = writer.lock().await;
                            if w.write_all(t.as_bytes()).await.is_err() || w.write_all(&[0]).await.is_err() {
                                break;
                            }
                        }
                        Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                        Some(Ok(_)) => {}
                    },
                }
            }
            // The next client (chromiumoxide reconnecting) gets the browser's messages.
            *lock(&inbox) = Some(rx);
        });
    }
}

/// Only the daemon's own client: the secret path, no `Origin`, one at a time.
#[allow(clippy::result_large_err)] // the signature tungstenite's callback takes
fn admit(
    req: &Request,
    resp: Response,
    path: &str,
    inbox: &Inbox,
) -> Result<Response, ErrorResponse> {
    let refuse = |status: StatusCode| {
        let mut r = ErrorResponse::new(None);
        *r.status_mut() = status;
        r
    };
    if req.headers().contains_key("origin") {
        return Err(refuse(StatusCode::FORBIDDEN));
    }
    if req.uri().path() != path {
        return Err(refuse(StatusCode::NOT_FOUND));
    }
    if lock(inbox).is_none() {
        return Err(refuse(StatusCode::CONFLICT));
    }
    Ok(resp)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(path: &str, origin: Option<&str>) -> Request {
        let mut r = Request::builder().uri(format!("ws://127.0.0.1:1{path}"));
        if let Some(o) = origin {
            r = r.header("Origin", o);
        }
        r.body(()).expect("request")
    }

    #[test]
    fn only_the_daemons_own_client_gets_in() {
        let (_tx, rx) = mpsc::unbounded_channel::<String>();
        let inbox: Inbox = Arc::new(Mutex::new(Some(rx)));
        let path = "/devtools/browser/0123";
        let status = |req: Request| {
            admit(&req, Response::new(()), path, &inbox)
                .map_or_else(|e| e.status().as_u16(), |_| 101)
        };
        assert_eq!(status(request(path, None)), 101);
        assert_eq!(status(request(path, Some("http://127.0.0.1:8000"))), 403, "a page's socket");
        assert_eq!(status(request(path, Some("null"))), 403, "a sandboxed page's socket");
        assert_eq!(status(request("/devtools/browser/guess", None)), 404);
        assert_eq!(status(request("/json/version", None)), 404);
        let taken = lock(&inbox).take();
        assert_eq!(status(request(path, None)), 409, "one client at a time");
        drop(taken);
    }
}
