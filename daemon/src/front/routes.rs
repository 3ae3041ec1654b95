//! The plain HTTP side of the port: which method and path get what, `/healthz` (liveness) and
//! `/readyz` (readiness, `ready.rs`), both for loopback Host names only and naming no
//! internals, and the JSON answers of refusals.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};

use glovebox_protocol::wire::BackendStatus;
use http::{HeaderMap, Method, Response, StatusCode};
use jsonrpsee::server::HttpBody;
use serde_json::{json, Value};

use crate::answer::plain;
use crate::state::Daemon;

/// What a request gets.
#[derive(Debug, PartialEq)]
pub enum Route {
    /// `GET` or `HEAD /healthz`.
    Health,
    /// `GET` or `HEAD /readyz`.
    Ready,
    /// `GET /rpc`: auth, then the WebSocket upgrade.
    Rpc,
    /// `/mcp` (POST, GET, DELETE): auth, then MCP's Streamable HTTP.
    Mcp,
    /// `GET /view`: the view page (`view/http.rs`).
    View,
    /// `GET /view/socket`: the view page's WebSocket.
    ViewSocket,
    /// `GET /cdp/<secret>`: a code client's DevTools WebSocket (`code/http.rs`).
    Cdp,
    /// Anything else: 404, or 405 with the methods the path takes.
    NotFound,
    NotAllowed(&'static str),
}

pub fn route(method: &Method, path: &str) -> Route {
    match path {
        "/healthz" if method == Method::GET || method == Method::HEAD => Route::Health,
        "/healthz" => Route::NotAllowed("GET, HEAD"),
        "/readyz" if method == Method::GET || method == Method::HEAD => Route::Ready,
        "/readyz" => Route::NotAllowed("GET, HEAD"),
        "/rpc" if method == Method::GET => Route::Rpc,
        "/rpc" => Route::NotAllowed("GET"),
        "/mcp" if [Method::POST, Method::GET, Method::DELETE].contains(method) => Route::Mcp,
        "/mcp" => Route::NotAllowed("POST, GET, DELETE"),
        "/view" if method == Method::GET => Route::View,
        "/view/socket" if method == Method::GET => Route::ViewSocket,
        "/view" | "/view/socket" => Route::NotAllowed("GET"),
        p if p.starts_with("/cdp/") && method == Method::GET => Route::Cdp,
        p if p.starts_with("/cdp/") => Route::NotAllowed("GET"),
        _ => Route::NotFound,
    }
}

/// The answer of a route that is not served.
pub fn refusal(route: &Route) -> Response<HttpBody> {
    match route {
        Route::NotAllowed(allow) => {
            let mut r = plain(
                StatusCode::METHOD_NOT_ALLOWED,
                &json!({"error": format!("this path takes {allow}"), "code": "METHOD_NOT_ALLOWED"}),
            );
            r.headers_mut().insert(http::header::ALLOW, http::HeaderValue::from_static(allow));
            r
        }
        _ => plain(
            StatusCode::NOT_FOUND,
            &json!({"error": "not found; the endpoints are /rpc (WebSocket), /mcp (MCP) and /view (the view page)", "code": "NOT_FOUND"}),
        ),
    }
}

/// The host part of a Host header value, without its port.
fn host_name(value: &str) -> &str {
    if let Some(end) = value.strip_prefix('[').and_then(|v| v.find(']')) {
        return &value[..end + 2];
    }
    match value.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => value,
    }
}

/// Whether `/healthz` and `/readyz` may answer: the Host names loopback, the listen address or an
/// `--allow-host` name (so a web page whose name was rebound to 127.0.0.1 reads nothing),
/// and a request without a Host comes from a loopback peer.
pub fn host_allowed(
    headers: &HeaderMap,
    peer: SocketAddr,
    listen: SocketAddr,
    extra: &[String],
) -> bool {
    let Some(value) = headers.get(http::header::HOST) else { return peer.ip().is_loopback() };
    let Ok(value) = value.to_str() else { return false };
    let host = host_name(value.trim()).to_ascii_lowercase();
    let listen_ip = match listen.ip() {
        ip if ip.is_unspecified() => None,
        IpAddr::V4(ip) => Some(ip.to_string()),
        IpAddr::V6(ip) => Some(format!("[{ip}]")),
    };
    ["localhost", "127.0.0.1", "[::1]"].contains(&host.as_str())
        || listen_ip.is_some_and(|ip| ip == host)
        || extra.iter().any(|h| host_name(h).eq_ignore_ascii_case(&host))
}

/// A backend's reason as `/healthz` may show it: nothing that names a port, pid, display
/// or path (no digits, slashes or colons), else a pointer to where the details are.
fn public_reason(reason: &str) -> String {
    if reason.chars().any(|c| c.is_ascii_digit() || c == '/' || c == ':') {
        "session.status has the details".to_owned()
    } else {
        reason.to_owned()
    }
}

/// Each backend's state word and a reason that names no internals.
pub fn public_backends(backends: BTreeMap<String, BackendStatus>) -> Value {
    let view: serde_json::Map<String, Value> = backends
        .into_iter()
        .map(|(name, b)| {
            let mut v = json!({"status": b.status});
            if let Some(reason) = &b.reason {
                v["reason"] = json!(public_reason(reason));
            }
            (name, v)
        })
        .collect();
    Value::Object(view)
}

pub fn healthz(daemon: &Daemon) -> Response<HttpBody> {
    plain(
        StatusCode::OK,
        &json!({"ok": true, "protocol": glovebox_protocol::PROTOCOL_VERSION,
                "backends": public_backends(daemon.backends())}),
    )
}

/// 200 when every check passes, else 503 with the first failure's reason; each check with
/// its own.
pub fn readyz(checks: &[crate::ready::Check]) -> Response<HttpBody> {
    let view: serde_json::Map<String, Value> = checks
        .iter()
        .map(|c| {
            let mut v = match &c.failure {
                None => json!({"ok": true}),
                Some(why) => json!({"ok": false, "reason": public_reason(why)}),
            };
            for (key, value) in c.note.iter().flatten() {
                v[key] = match value {
                    Value::String(s) => json!(public_reason(s)),
                    other => other.clone(),
                };
            }
            (c.name.to_owned(), v)
        })
        .collect();
    match checks.iter().find_map(|c| c.failure.as_deref()) {
        None => plain(StatusCode::OK, &json!({"ready": true, "checks": view})),
        Some(why) => {
            let body = json!({"ready": false, "reason": public_reason(why), "checks": view});
            let mut r = plain(StatusCode::SERVICE_UNAVAILABLE, &body);
            r.headers_mut().insert(http::header::RETRY_AFTER, http::HeaderValue::from_static("1"));
            r
        }
    }
}

pub fn host_refused() -> Response<HttpBody> {
    plain(
        StatusCode::FORBIDDEN,
        &json!({"error": "this Host is not allowed; use localhost, or start gloveboxd with --allow-host",
                "code": "HOST_NOT_ALLOWED"}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() {
        assert_eq!(route(&Method::HEAD, "/healthz"), Route::Health);
        assert_eq!(route(&Method::POST, "/healthz"), Route::NotAllowed("GET, HEAD"));
        assert_eq!(route(&Method::GET, "/readyz"), Route::Ready);
        assert_eq!(route(&Method::DELETE, "/readyz"), Route::NotAllowed("GET, HEAD"));
        assert_eq!(route(&Method::GET, "/rpc"), Route::Rpc);
        assert_eq!(route(&Method::HEAD, "/rpc"), Route::NotAllowed("GET"));
        assert_eq!(route(&Method::PUT, "/x"), Route::NotFound);
        assert_eq!(route(&Method::GET, "/view"), Route::View);
        assert_eq!(route(&Method::GET, "/view/socket"), Route::ViewSocket);
        assert_eq!(route(&Method::POST, "/view"), Route::NotAllowed("GET"));
        assert_eq!(route(&Method::GET, "/cdp/0123abcd"), Route::Cdp);
        assert_eq!(route(&Method::POST, "/cdp/0123abcd"), Route::NotAllowed("GET"));
    }

    #[test]
    fn hosts() {
        let listen: SocketAddr = "10.0.0.5:7788".parse().expect("addr");
        let lo: SocketAddr = "127.0.0.1:5000".parse().expect("addr");
        let far: SocketAddr = "10.0.0.9:5000".parse().expect("addr");
        let with = |h: &str| {
            let mut m = HeaderMap::new();
            m.insert(http::header::HOST, h.parse().expect("value"));
            m
        };
        let extra = vec!["glovebox.internal".to_owned()];
        for ok in [
            "localhost",
            "LOCALHOST:1",
            "127.0.0.1:7788",
            "[::1]:9",
            "10.0.0.5:80",
            "glovebox.internal:7788",
        ] {
            assert!(host_allowed(&with(ok), far, listen, &extra), "{ok}");
        }
        for bad in
            ["evil.test", "evil.test:7788", "127.0.0.1.evil.test", "[::2]:7788", "localhost.evil"]
        {
            assert!(!host_allowed(&with(bad), lo, listen, &extra), "{bad}");
        }
        assert!(host_allowed(&HeaderMap::new(), lo, listen, &[]));
        assert!(!host_allowed(&HeaderMap::new(), far, listen, &[]));
    }

    #[test]
    fn readyz_names_the_first_failure() {
        use crate::ready::Check;
        let ok = |name| Check::new(name, None);
        let r = readyz(&[ok("daemon"), ok("desktop")]);
        assert_eq!(r.status(), StatusCode::OK);
        let r = readyz(&[
            ok("daemon"),
            Check::new("desktop", Some("the desktop is starting".into())),
            Check::new("browser", Some("/opt/chrome is not there".into())),
        ]);
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(r.headers()[http::header::RETRY_AFTER], "1");
    }

    #[test]
    fn healthz_names_no_internals() {
        let mut map = BTreeMap::new();
        let mut extra = BTreeMap::new();
        extra.insert("display".to_owned(), json!(":99"));
        let b = |status: &str, reason: &str, extra| BackendStatus {
            status: status.into(),
            reason: Some(reason.into()),
            extra,
        };
        map.insert("desktop".to_owned(), b("ready", "accessibility bus unavailable", extra));
        map.insert(
            "browser".to_owned(),
            b("up", "default browser chrome-9222 (pid 4)", BTreeMap::new()),
        );
        assert_eq!(
            public_backends(map),
            json!({"desktop": {"status": "ready", "reason": "accessibility bus unavailable"},
                   "browser": {"status": "up", "reason": "session.status has the details"}})
        );
    }
}
