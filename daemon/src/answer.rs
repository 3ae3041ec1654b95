//! Plain HTTP answers, a status and a small JSON body, that the front door (`front/`) and the
//! transports behind it (`rpc/`) send instead of serving a request.

use http::{Response, StatusCode};
use jsonrpsee::server::HttpBody;
use serde_json::{json, Value};

pub fn plain(status: StatusCode, body: &Value) -> Response<HttpBody> {
    let mut r = Response::new(HttpBody::from(body.to_string()));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    r
}

/// 401: no token, or one the daemon does not hold.
pub fn unauthorized() -> Response<HttpBody> {
    let mut r = plain(
        StatusCode::UNAUTHORIZED,
        &json!({"error": "send Authorization: Bearer <token> or ?token=<token>; the token is in the daemon's token file"}),
    );
    r.headers_mut()
        .insert(http::header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer"));
    r
}
