//! The view's HTTP side: `GET /view` (a link's single-use code exchanged for the cookie and
//! a redirect to the bare path, or the page for a good cookie, else 401) and
//! `GET /view/socket` (the cookie again, the page's own origin or an `--allow-origin` one,
//! then the WebSocket upgrade).

use std::sync::Arc;

use http::{header, HeaderValue, Request, Response, StatusCode};
use jsonrpsee::server::HttpBody;

use super::state::Person;
use crate::auth::Role;
use crate::people::access;
use crate::session::Owner;
use crate::state::Daemon;

/// The page: one file, its script and style inline, nothing fetched from anywhere.
const PAGE: &str = include_str!("page.html");

/// What the page may load: itself, its socket, images it makes from frames.
const CSP: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
                   img-src data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
                   frame-ancestors 'none'";

fn text(status: StatusCode, body: &str) -> Response<HttpBody> {
    let mut r = Response::new(HttpBody::from(body.to_owned()));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn unauthorized() -> Response<HttpBody> {
    text(
        StatusCode::UNAUTHORIZED,
        "no valid view code or cookie: open the view link gloveboxd printed (its code works once), \
         or print a fresh one with `gloveboxd view-link --token-file FILE`\n",
    )
}

/// The token and role behind a request's view cookie.
fn cookie_person<B>(daemon: &Daemon, req: &Request<B>) -> Option<(Role, Owner)> {
    let value = access::cookie_in(req.headers())?;
    let token = daemon.people.access.token_of_cookie(&value)?;
    let role = daemon.role_of_digest(&token)?;
    Some((role, daemon.owner_of(token, role)))
}

/// `GET /view`.
pub fn page<B>(daemon: &Daemon, req: &Request<B>) -> Response<HttpBody> {
    if let Some(code) = access::code_in(req.uri().query()) {
        let redeemed =
            daemon.people.access.redeem(code).filter(|(_, t)| daemon.role_of_digest(t).is_some());
        let Some((cookie, _token)) = redeemed else {
            // A spent code in a reloaded address bar still has its cookie.
            if cookie_person(daemon, req).is_some() {
                return see_other(None);
            }
            tracing::info!("refused a view code that is unknown, spent or expired");
            return unauthorized();
        };
        return see_other(Some(&cookie));
    }
    if cookie_person(daemon, req).is_none() {
        return unauthorized();
    }
    let mut r = Response::new(HttpBody::from(PAGE));
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    r
}

/// 303 to the bare `/view`, handing out `cookie` when given.
fn see_other(cookie: Option<&str>) -> Response<HttpBody> {
    let mut r = text(StatusCode::SEE_OTHER, "");
    r.headers_mut().insert(header::LOCATION, HeaderValue::from_static("/view"));
    if let Some(c) = cookie.and_then(|c| HeaderValue::from_str(&access::set_cookie(c)).ok()) {
        r.headers_mut().insert(header::SET_COOKIE, c);
    }
    r
}

/// Whether a WebSocket's `Origin` is the page's own (the scheme and the `Host` it was asked
/// on) or one `--allow-origin` names. No `Origin`: not a browser, which the cookie covers.
fn origin_ok<B>(daemon: &Daemon, req: &Request<B>) -> bool {
    let Some(origin) = req.headers().get(header::ORIGIN) else { return true };
    let origin = origin.to_str().unwrap_or_default();
    let host = req.headers().get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    (!host.is_empty()
        && (origin == format!("http://{host}") || origin == format!("https://{host}")))
        || daemon.config.allowed_origins.iter().any(|o| o == origin)
}

/// `GET /view/socket`: checks, then the upgrade; the socket runs on its own task.
pub fn socket(
    daemon: &Arc<Daemon>,
    req: &mut Request<hyper::body::Incoming>,
) -> Response<HttpBody> {
    let Some((role, owner)) = cookie_person(daemon, req) else { return unauthorized() };
    if !origin_ok(daemon, req) {
        tracing::warn!("refused a view socket from a foreign origin");
        return text(StatusCode::FORBIDDEN, "this origin is not allowed to open the view socket\n");
    }
    let Some(key) = crate::upgrade::key_of(req) else {
        return text(StatusCode::UPGRADE_REQUIRED, "/view/socket is a WebSocket; open one\n");
    };
    let max = daemon.config.max_view_pages_per_token;
    let Some((socket, revoked)) = daemon.people.open_page(&owner, role, max) else {
        tracing::warn!(max, "refused a view socket: its token has the most pages open");
        return text(
            StatusCode::TOO_MANY_REQUESTS,
            &format!("this token has {max} view pages open already; close one, or start gloveboxd with a larger --max-view-pages-per-token\n"),
        );
    };
    let person = Person { role, owner, socket, who: super::who(role, &owner) };
    let (d, d2) = (daemon.clone(), daemon.clone());
    let serve = move |ws| -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
        Box::pin(super::socket::run(d, ws, person, revoked))
    };
    let failed = move |e: hyper::Error| {
        d2.people.page_closed(socket);
        tracing::debug!(%e, "the view socket's upgrade failed");
    };
    crate::upgrade::accept(req, &key, 1 << 20, serve, failed)
}
