//! `GET /cdp/<secret>`: the WebSocket upgrade of a code client. The secret in the path is the
//! whole credential (Playwright and Puppeteer connect to a URL, nothing more); a request that
//! carries an `Origin` is refused, since every WebSocket a web page opens carries one, and so
//! is a second connection while one holds the endpoint.

use std::sync::Arc;

use http::{header, HeaderValue, Request, Response, StatusCode};
use jsonrpsee::server::HttpBody;

use crate::state::Daemon;

fn text(status: StatusCode, body: &str) -> Response<HttpBody> {
    let mut r = Response::new(HttpBody::from(body.to_owned()));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    r
}

/// The largest message a code client may send (a `setFileInputFiles` or an `evaluate` with
/// a large script fits).
const MAX_MESSAGE: usize = 64 << 20;

pub fn socket(
    daemon: &Arc<Daemon>,
    req: &mut Request<hyper::body::Incoming>,
) -> Response<HttpBody> {
    let secret = req.uri().path().strip_prefix("/cdp/").unwrap_or_default().to_owned();
    let Some(entry) = daemon.code.by_secret(&secret).filter(|_| !secret.is_empty()) else {
        return text(StatusCode::NOT_FOUND, "no such code session: it ended, or the URL is wrong; ask for a new one with browser.cdp_session\n");
    };
    if req.headers().contains_key(header::ORIGIN) {
        tracing::warn!(cdp_id = %entry.cdp_id, "refused a code connection that carries an Origin");
        return text(StatusCode::FORBIDDEN, "a code session takes no connection from a web page\n");
    }
    let Some(key) = crate::upgrade::key_of(req) else {
        return text(StatusCode::UPGRADE_REQUIRED, "/cdp/<id> is a DevTools WebSocket; connect with Playwright's connect_over_cdp or Puppeteer's connect\n");
    };
    if !entry.take() {
        return text(
            StatusCode::CONFLICT,
            "this code session has a client connected; one connection at a time\n",
        );
    }
    let (d, held) = (daemon.clone(), entry.clone());
    let serve = move |ws| -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
        Box::pin(super::bridge::run(d, ws, held))
    };
    let failed = move |e: hyper::Error| {
        entry.release();
        tracing::debug!(%e, "a code session's upgrade failed");
    };
    crate::upgrade::accept(req, &key, MAX_MESSAGE, serve, failed)
}
