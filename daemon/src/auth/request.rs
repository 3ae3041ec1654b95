//! The token an HTTP request presents (`Authorization: Bearer` or `?token=`), and what the
//! transports may log of a request that carries one: below every transport (`rpc/`, `mcp/`)
//! so each reads a token the same way.

/// Whether an event of `target` at `level` may be logged at all, whatever `GLOVEBOX_LOG`
/// says: jsonrpsee's server prints the whole upgrade request (`?token=` and `Authorization`
/// included) at trace level, and rmcp names each MCP session's id (a bearer of that session)
/// at info and prints whole messages (call results, a page's text) below, so only their
/// warnings and errors are. (hyper logs nothing without its unstable tracing cfg; soketto
/// logs frames, not the upgrade.)
pub fn may_log(target: &str, level: tracing::Level) -> bool {
    if target.starts_with("rmcp") {
        return level <= tracing::Level::WARN;
    }
    !(level == tracing::Level::TRACE && target.starts_with("jsonrpsee"))
}

/// The token presented on an HTTP upgrade: `Authorization: Bearer T` or `?token=T`.
pub fn presented_token(headers: &http::HeaderMap, query: Option<&str>) -> Option<String> {
    if let Some(v) = headers.get(http::header::AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        let v = v.trim();
        if let Some(t) = v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")) {
            return Some(t.trim().to_owned());
        }
    }
    query?
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == "token")
        .map(|(_, v)| v.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_may_be_logged() {
        use tracing::Level;
        assert!(may_log("rmcp::service", Level::WARN) && may_log("rmcp", Level::ERROR));
        assert!(!may_log("rmcp::transport::streamable_http_server", Level::INFO));
        assert!(!may_log("rmcp::service", Level::DEBUG));
        assert!(!may_log("jsonrpsee_server::server", Level::TRACE));
        assert!(may_log("jsonrpsee_server::server", Level::DEBUG));
        assert!(may_log("glovebox_daemon::rpc", Level::TRACE));
    }

    #[test]
    fn token_from_header_or_query() {
        let mut h = http::HeaderMap::new();
        assert_eq!(presented_token(&h, Some("a=1&token=xyz")), Some("xyz".into()));
        h.insert(http::header::AUTHORIZATION, "Bearer abc".parse().expect("header"));
        assert_eq!(presented_token(&h, None), Some("abc".into()));
    }
}
