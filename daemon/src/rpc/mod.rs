//! Transport: HTTP routing (`/rpc`, `/healthz`), auth on the upgrade, the jsonrpsee
//! WebSocket server with its gate middleware, and connection lifetime.

pub mod auth;
mod conn;
mod errors;
mod frames;
mod gate;
mod methods;

use std::future::Future;
use std::sync::Arc;

use http::{Request, Response, StatusCode};
use jsonrpsee::core::BoxError;
use jsonrpsee::server::middleware::rpc::RpcServiceBuilder;
use jsonrpsee::server::{serve_with_graceful_shutdown, stop_channel, HttpBody, ServerConfig};
use serde_json::json;
use tokio::net::TcpListener;
use tower::Service as _;

use crate::state::Daemon;
use conn::Conn;

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot register the methods: {0}")]
    Register(#[from] jsonrpsee::core::RegisterMethodError),
}

fn plain(status: StatusCode, body: &serde_json::Value) -> Response<HttpBody> {
    let mut r = Response::new(HttpBody::from(body.to_string()));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    r
}

/// Check the upgrade request: path, origin, token. `Err` is the HTTP answer to send instead.
fn admit<B>(
    daemon: &Daemon,
    req: &Request<B>,
) -> Result<(auth::Role, crate::session::Owner), Box<Response<HttpBody>>> {
    if req.uri().path() != "/rpc" {
        return Err(Box::new(plain(
            StatusCode::NOT_FOUND,
            &json!({"error": "not found; the endpoint is /rpc"}),
        )));
    }
    if let Some(origin) = req.headers().get(http::header::ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        if !daemon.config.allowed_origins.iter().any(|o| o == origin) {
            tracing::warn!(origin, "refused a browser origin");
            return Err(Box::new(plain(
                StatusCode::FORBIDDEN,
                &json!({"error": "this origin is not allowed; start gloveboxd with --allow-origin"}),
            )));
        }
    }
    let token = auth::presented_token(req.headers(), req.uri().query());
    let Some(role) = token.as_deref().and_then(|t| daemon.role_of(t)) else {
        tracing::warn!(presented = token.is_some(), "refused a connection without a valid token");
        let mut r = plain(
            StatusCode::UNAUTHORIZED,
            &json!({"error": "send Authorization: Bearer <token> or ?token=<token>; the token is in the daemon's token file"}),
        );
        r.headers_mut()
            .insert(http::header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer"));
        return Err(Box::new(r));
    };
    if !jsonrpsee::server::ws::is_upgrade_request(req) {
        return Err(Box::new(plain(
            StatusCode::UPGRADE_REQUIRED,
            &json!({"error": "/rpc speaks JSON-RPC over WebSocket; open a WebSocket"}),
        )));
    }
    let owner = crate::session::Owner::of_token(
        token.as_deref().unwrap_or_default(),
        role == auth::Role::Admin,
    );
    Ok((role, owner))
}

fn healthz(daemon: &Daemon) -> Response<HttpBody> {
    let backends = daemon.backends();
    plain(
        StatusCode::OK,
        &json!({"ok": true, "protocol": glovebox_protocol::PROTOCOL_VERSION, "backends": backends}),
    )
}

/// Serve until `shutdown` resolves, then stop accepting and let connections finish.
pub async fn serve(
    listener: TcpListener,
    daemon: Arc<Daemon>,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    let module = methods::module(daemon.clone())?;
    let (stop_handle, server_handle) = stop_channel();
    let cfg = ServerConfig::builder()
        .max_request_body_size(daemon.config.max_message_bytes)
        .max_response_body_size(u32::MAX)
        .max_connections(1024)
        .ws_only()
        .set_id_provider(jsonrpsee::server::RandomStringIdProvider::new(16))
        .build();
    let builder = jsonrpsee::server::Server::builder()
        .set_config(cfg)
        .set_rpc_middleware(RpcServiceBuilder::new().layer_fn(gate::Gate::new))
        .to_service_builder();
    let methods: jsonrpsee::Methods = module.into();

    tokio::pin!(shutdown);
    loop {
        let (sock, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => { tracing::warn!("accept failed: {e}"); continue; }
            },
            _ = &mut shutdown => break,
        };
        // Answers go out as soon as they are written: with Nagle's algorithm on, an answer
        // written in two parts waits for the client's delayed ACK (40 ms) before its tail.
        if let Err(e) = sock.set_nodelay(true) {
            tracing::debug!(%peer, "cannot set TCP_NODELAY: {e}");
        }
        let daemon = daemon.clone();
        let methods = methods.clone();
        let stop = stop_handle.clone();
        let builder = builder.clone();
        let (io, peer_gone) = frames::Patched::new(sock);
        let svc = tower::service_fn(move |mut req: Request<hyper::body::Incoming>| {
            let daemon = daemon.clone();
            let mut peer_gone = peer_gone.clone();
            let mut svc = builder.clone().build(methods.clone(), stop.clone());
            async move {
                if req.uri().path() == "/healthz" && req.method() == http::Method::GET {
                    return Ok::<_, BoxError>(healthz(&daemon));
                }
                let (role, owner) = match admit(&daemon, &req) {
                    Ok(admitted) => admitted,
                    Err(resp) => return Ok(*resp),
                };
                let conn = Conn::new(role, owner);
                tracing::debug!(conn = conn.id, %peer, role = role.as_str(), "websocket opened");
                req.extensions_mut().insert(conn.clone());
                let closed = svc.on_session_closed();
                tokio::spawn(async move {
                    // The session is free again as soon as the peer is gone: a client that
                    // reconnects to resume it need not wait for the calls it left behind.
                    tokio::select! {
                        _ = closed => {}
                        _ = peer_gone.wait_for(|gone| *gone) => {}
                    }
                    if let Some(session) = conn.session() {
                        session.detach(conn.id);
                        // A dropped connection releases the keys and buttons its session held.
                        if conn.role.can_act() {
                            crate::dispatch::release_held(&daemon, session);
                        }
                        daemon.events.publish_for(
                            session.creator,
                            "session",
                            "detached",
                            json!({"session": session.id}),
                        );
                    }
                    tracing::debug!(conn = conn.id, "websocket closed");
                });
                svc.call(req).await
            }
        });
        tokio::spawn(serve_with_graceful_shutdown(io, svc, stop_handle.clone().shutdown()));
    }
    // Tell open connections to finish, then wait for them, but never forever.
    drop(stop_handle);
    let _ = server_handle.stop();
    if tokio::time::timeout(std::time::Duration::from_secs(5), server_handle.stopped())
        .await
        .is_err()
    {
        tracing::warn!("connections still open after 5 s; stopping anyway");
    }
    Ok(())
}
