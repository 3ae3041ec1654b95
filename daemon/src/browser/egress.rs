//! The way out of the daemon's own Chromium: a SOCKS5 proxy on loopback that every TCP
//! connection the browser makes goes through (`--proxy-server=socks5://…` with loopback not
//! bypassed), pages, sub-requests, WebSockets and EventSource alike. Chromium names each
//! connection's host and port (it leaves name lookups to the proxy), so the navigation
//! policy's host rules judge what DevTools `Fetch` never sees: a WebSocket handshake. A host
//! a `deny` rule matches is refused before any byte leaves for it; everything else is
//! connected and copied both ways. (`ask` hosts pass here: their documents are held by the
//! guard, and their sub-requests pass an `ask` by design.) UDP is not offered, so QUIC and
//! WebTransport cannot go around it.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};

use super::cdp::guard::{Guard, Verdict};

/// How long a client gets to say where it goes, and a connection to the host to open.
const HANDSHAKE: Duration = Duration::from_secs(10);
const CONNECT: Duration = Duration::from_secs(30);

/// SOCKS5 reply codes (RFC 1928 §6).
const SUCCEEDED: u8 = 0x00;
const NOT_ALLOWED: u8 = 0x02;
const HOST_UNREACHABLE: u8 = 0x04;
const COMMAND_NOT_SUPPORTED: u8 = 0x07;
const ADDRESS_NOT_SUPPORTED: u8 = 0x08;

/// How long the proxy waits after a failed accept before the next.
const ACCEPT_BACKOFF: std::time::Duration = std::time::Duration::from_millis(100);

/// The proxy, listening; it serves until the daemon exits.
#[derive(Debug)]
pub struct Egress {
    pub addr: SocketAddr,
}

impl Egress {
    /// Listen on a free loopback port and serve, judging hosts by `guard`'s policy.
    pub async fn start(guard: Arc<Guard>) -> std::io::Result<Egress> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        tokio::spawn(async move {
            loop {
                let client = match listener.accept().await {
                    Ok((client, _)) => client,
                    // Out of descriptors, say: a pause instead of a spin, and the browser's
                    // connections wait in the backlog meanwhile.
                    Err(e) => {
                        tracing::warn!("the egress proxy could not accept a connection: {e}");
                        tokio::time::sleep(ACCEPT_BACKOFF).await;
                        continue;
                    }
                };
                let _ = client.set_nodelay(true);
                let guard = guard.clone();
                tokio::spawn(async move {
                    if let Err(e) = serve(client, &guard).await {
                        tracing::trace!("a browser connection through the egress proxy: {e}");
                    }
                });
            }
        });
        Ok(Egress { addr })
    }

    /// The flags that send a Chromium's connections through it.
    pub fn flags(&self) -> [String; 2] {
        [
            format!("--proxy-server=socks5://{}", self.addr),
            // Loopback goes through it too: a denied local address is a host like any other.
            "--proxy-bypass-list=<-loopback>".to_owned(),
        ]
    }
}

/// Where a client asked to go.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Destination {
    /// A name, or an address as text (IPv6 without brackets).
    host: String,
    port: u16,
}

impl Destination {
    /// The URL the policy judges: the host as a page on it would have it.
    fn url(&self) -> String {
        match self.host.parse::<IpAddr>() {
            Ok(IpAddr::V6(ip)) => format!("http://[{ip}]:{}/", self.port),
            _ => format!("http://{}:{}/", self.host, self.port),
        }
    }
}

/// The URL the proxy judges for the connection of a page's WebSocket to `ws_url` (its host
/// and port, the scheme's default when it names none), so what a result says was refused is
/// what the proxy refuses.
pub(crate) fn judged_url(ws_url: &str) -> Option<String> {
    let u = glovebox_protocol::url::Url::parse(ws_url).ok()?;
    let host = u.host_str()?.trim_start_matches('[').trim_end_matches(']').to_owned();
    Some(Destination { host, port: u.port_or_known_default()? }.url())
}

async fn serve(mut client: TcpStream, guard: &Guard) -> std::io::Result<()> {
    let asked = tokio::time::timeout(HANDSHAKE, handshake(&mut client)).await;
    let to = match asked {
        Ok(Ok(Ok(to))) => to,
        Ok(Ok(Err(code))) => return reply(&mut client, code).await,
        Ok(Err(e)) => return Err(e),
        Err(_) => return Ok(()),
    };
    if let Verdict::Deny { rule } = guard.verdict(&to.url()) {
        tracing::info!(host = ?to.host, port = to.port, rule = %rule, "the policy refused a browser connection");
        return reply(&mut client, NOT_ALLOWED).await;
    }
    let upstream =
        tokio::time::timeout(CONNECT, TcpStream::connect((to.host.as_str(), to.port))).await;
    let Ok(Ok(mut upstream)) = upstream else {
        return reply(&mut client, HOST_UNREACHABLE).await;
    };
    let _ = upstream.set_nodelay(true);
    client.write_all(&reply_of(SUCCEEDED)).await?;
    tokio::io::copy_bidirectional(&mut client, &mut upstream).await.map(|_| ())
}

/// The greeting (no authentication) and the request: where to, or the reply code refusing it.
async fn handshake(c: &mut TcpStream) -> std::io::Result<Result<Destination, u8>> {
    let mut head = [0u8; 2];
    c.read_exact(&mut head).await?;
    let mut methods = vec![0u8; usize::from(head[1])];
    c.read_exact(&mut methods).await?;
    if head[0] != 5 || !methods.contains(&0) {
        // No method we take: 0xFF, and the client gives up.
        c.write_all(&[5, 0xff]).await?;
        return Err(std::io::Error::other("the client offered no method without authentication"));
    }
    c.write_all(&[5, 0]).await?;
    let mut req = [0u8; 4];
    c.read_exact(&mut req).await?;
    let host = match req[3] {
        1 => {
            let mut a = [0u8; 4];
            c.read_exact(&mut a).await?;
            Ipv4Addr::from(a).to_string()
        }
        3 => {
            let mut len = [0u8; 1];
            c.read_exact(&mut len).await?;
            let mut name = vec![0u8; usize::from(len[0])];
            c.read_exact(&mut name).await?;
            String::from_utf8_lossy(&name).into_owned()
        }
        4 => {
            let mut a = [0u8; 16];
            c.read_exact(&mut a).await?;
            Ipv6Addr::from(a).to_string()
        }
        _ => return Ok(Err(ADDRESS_NOT_SUPPORTED)),
    };
    let mut port = [0u8; 2];
    c.read_exact(&mut port).await?;
    if req[1] != 1 {
        return Ok(Err(COMMAND_NOT_SUPPORTED)); // CONNECT only: no BIND, no UDP
    }
    Ok(Ok(Destination { host, port: u16::from_be_bytes(port) }))
}

/// A reply with `code` (the bound address, which Chromium does not read, left zero).
fn reply_of(code: u8) -> [u8; 10] {
    [5, code, 0, 1, 0, 0, 0, 0, 0, 0]
}

/// Refuse with `code` and close.
async fn reply(c: &mut TcpStream, code: u8) -> std::io::Result<()> {
    c.write_all(&reply_of(code)).await?;
    c.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_destination_is_judged_as_the_page_a_browser_would_load() {
        let d = |host: &str| Destination { host: host.into(), port: 80 }.url();
        assert_eq!(d("example.test"), "http://example.test:80/");
        assert_eq!(d("127.0.0.2"), "http://127.0.0.2:80/");
        assert_eq!(d("::ffff:7f00:2"), "http://[::ffff:127.0.0.2]:80/");
        let site = |u: &str| glovebox_protocol::url::Site::parse(u).map(|s| s.host);
        assert_eq!(site(&d("::ffff:7f00:2")).as_deref(), Some("127.0.0.2"), "one host");
        // A WebSocket's connection, as the proxy sees it.
        assert_eq!(judged_url("wss://a.test/x").as_deref(), Some("http://a.test:443/"));
        assert_eq!(
            judged_url("ws://[::ffff:127.0.0.2]:9/").as_deref(),
            Some("http://[::ffff:127.0.0.2]:9/")
        );
    }
}
