//! The view page's socket as the bench opens it: the link's code traded for the cookie over
//! plain HTTP, then `/view/socket` with that cookie and the page's own `Origin`. Every frame
//! is noted (when its last byte arrived, its size) and acked at once, as the page does.

use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use futures::{SinkExt as _, StreamExt as _};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Bytes before the JPEG in a frame message (kind, width, height, pointer x and y, sequence).
const HEADER: usize = 13;

pub struct Page {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every frame so far: when it was read whole, and its length.
    pub frames: Vec<(Instant, usize)>,
    /// The screen's size, from the first frame.
    pub screen: (u32, u32),
}

/// `GET path` (the link's `/view?code=…`): the `name=value` of the cookie it sets.
async fn cookie(addr: &str, path: &str) -> anyhow::Result<String> {
    let mut s = TcpStream::connect(addr).await.with_context(|| format!("connecting to {addr}"))?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await?;
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut answer))
        .await
        .context("the view link's answer did not come within 10 s")??;
    let text = String::from_utf8_lossy(&answer);
    let head = text.split("\r\n\r\n").next().unwrap_or_default();
    if !head.starts_with("HTTP/1.1 303") {
        bail!("the view link answered {head:?}, not a 303 with its cookie");
    }
    head.lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("set-cookie")
                .then(|| v.trim().split(';').next().map(str::to_owned))?
        })
        .context("the view link set no cookie")
}

impl Page {
    /// Opens the page's socket for the view link `path` and waits for the first frame.
    pub async fn open(addr: &str, path: &str) -> anyhow::Result<Page> {
        let cookie = cookie(addr, path).await?;
        let mut req = format!("ws://{addr}/view/socket").into_client_request()?;
        req.headers_mut().insert("cookie", cookie.parse()?);
        req.headers_mut().insert("origin", format!("http://{addr}").parse()?);
        let (ws, _) = tokio_tungstenite::connect_async_with_config(req, None, true)
            .await
            .context("opening /view/socket")?;
        let mut page = Page { ws, frames: Vec::new(), screen: (0, 0) };
        let deadline = Instant::now() + Duration::from_secs(10);
        while page.frames.is_empty() {
            if Instant::now() > deadline {
                bail!("no first frame within 10 s");
            }
            page.pump(Duration::from_millis(100)).await?;
        }
        Ok(page)
    }

    /// Reads messages for `span` (at least whatever is ready now), acking frames.
    pub async fn pump(&mut self, span: Duration) -> anyhow::Result<()> {
        let until = tokio::time::Instant::now() + span;
        loop {
            let next = if span.is_zero() {
                match futures::FutureExt::now_or_never(self.ws.next()) {
                    Some(m) => m,
                    None => return Ok(()),
                }
            } else {
                match tokio::time::timeout_at(until, self.ws.next()).await {
                    Ok(m) => m,
                    Err(_) => return Ok(()),
                }
            };
            self.take(next).await?;
        }
    }

    async fn take(
        &mut self,
        msg: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
    ) -> anyhow::Result<()> {
        match msg.context("the daemon closed the view socket")?? {
            Message::Binary(b) if b.len() > HEADER && b[0] == 1 => {
                self.frames.push((Instant::now(), b.len()));
                if self.screen == (0, 0) {
                    let w = u16::from_be_bytes([b[1], b[2]]);
                    let h = u16::from_be_bytes([b[3], b[4]]);
                    self.screen = (u32::from(w), u32::from(h));
                }
                self.ws.send(Message::text(r#"{"t":"ack"}"#)).await?;
            }
            Message::Text(t) if t.contains(r#""t":"refused""#) => {
                bail!("the page was refused: {t}")
            }
            _ => {}
        }
        Ok(())
    }

    /// Reads until no frame came for `quiet`; fails after `within`.
    pub async fn wait_quiet(&mut self, quiet: Duration, within: Duration) -> anyhow::Result<()> {
        let start = Instant::now();
        loop {
            let n = self.frames.len();
            self.pump(quiet).await?;
            if self.frames.len() == n {
                return Ok(());
            }
            if start.elapsed() > within {
                bail!("frames kept coming for {within:?} from a screen the bench left alone");
            }
        }
    }

    /// The first frame read whole after `after`, within `within`: when it was read, its size.
    pub async fn next_frame_after(
        &mut self,
        after: Instant,
        within: Duration,
    ) -> anyhow::Result<Option<(Instant, usize)>> {
        let until = tokio::time::Instant::now() + within;
        loop {
            if let Some(f) = self.frames.iter().rev().take_while(|(at, _)| *at > after).last() {
                return Ok(Some(*f));
            }
            match tokio::time::timeout_at(until, self.ws.next()).await {
                Ok(m) => self.take(m).await?,
                Err(_) => return Ok(None),
            }
        }
    }
}
