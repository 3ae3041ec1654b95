//! Transport: HTTP routing (`/rpc`, `/mcp`, `/healthz`, `/readyz`, `/view` handed to
//! `view/http.rs`, and `/cdp/<secret>` to `code/http.rs`), auth and per-token connection limits on the
//! upgrade, the jsonrpsee WebSocket server with its gate middleware, and connection lifetime.

pub mod auth;
pub(crate) mod conn;
mod errors;
mod frames;
mod gate;
mod inbound;
mod methods;
mod routes;

use std::future::Future;
use std::sync::Arc;

use http::{Request, Response, StatusCode};
use jsonrpsee::core::BoxError;
use jsonrpsee::server::middleware::rpc::RpcServiceBuilder;
use jsonrpsee::server::{serve_with_graceful_shutdown, stop_channel, HttpBody, ServerConfig};
use serde_json::json;
use tokio::net::TcpListener;
use tower::Service as _;

use crate::auth::Role;
use crate::state::Daemon;
use conn::Conn;
use routes::{plain, Route};

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot register the methods: {0}")]
    Register(#[from] jsonrpsee::core::RegisterMethodError),
    #[error("cannot read the listen address: {0}")]
    Listen(#[from] std::io::Error),
}

/// An accepted upgrade: the token's role and its place among that token's connections.
struct Admitted {
    role: Role,
    /// Whose sessions it may use.
    owner: crate::session::Owner,
    slot: conn::TokenSlot,
}

/// 401: no token, or one the daemon does not hold.
fn unauthorized() -> Response<HttpBody> {
    let mut r = plain(
        StatusCode::UNAUTHORIZED,
        &json!({"error": "send Authorization: Bearer <token> or ?token=<token>; the token is in the daemon's token file"}),
    );
    r.headers_mut()
        .insert(http::header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer"));
    r
}

/// The origin and the bearer token of a request to `/rpc` or `/mcp`: the token and its role,
/// or the HTTP answer to send instead.
fn authenticate<B>(
    daemon: &Daemon,
    req: &Request<B>,
) -> Result<(String, Role), Box<Response<HttpBody>>> {
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
    let presented = token.is_some();
    let Some((token, role)) = token.and_then(|t| daemon.role_of(&t).map(|r| (t, r))) else {
        tracing::warn!(presented, "refused a connection without a valid token");
        return Err(Box::new(unauthorized()));
    };
    Ok((token, role))
}

/// Check the upgrade request (`GET /rpc`): origin, token, the token's connections. `Err` is
/// the HTTP answer to send instead.
fn admit<B>(
    daemon: &Daemon,
    per_token: &Arc<conn::PerToken>,
    req: &Request<B>,
) -> Result<Admitted, Box<Response<HttpBody>>> {
    let (token, role) = authenticate(daemon, req)?;
    if !jsonrpsee::server::ws::is_upgrade_request(req) {
        return Err(Box::new(plain(
            StatusCode::UPGRADE_REQUIRED,
            &json!({"error": "/rpc speaks JSON-RPC over WebSocket; open a WebSocket"}),
        )));
    }
    let (per, total) =
        (daemon.config.max_connections_per_token, daemon.config.max_connections as usize);
    let owner = daemon.owner_of(crate::auth::digest(&token), role);
    let slot = per_token.acquire(owner.digest(), per, total).map_err(|limit| {
        let (max, whose) = match limit {
            conn::Limit::PerToken => (per, "this token has"),
            conn::Limit::Total => (total, "the daemon has"),
        };
        let limit = limit.as_str();
        tracing::warn!(role = role.as_str(), limit, max, "refused a connection over a limit");
        let flag = limit.replace('_', "-");
        Box::new(plain(
            StatusCode::TOO_MANY_REQUESTS,
            &json!({"error": format!("{whose} {max} connections open already; close one, or start gloveboxd with a larger --{flag}"),
                    "code": "TOO_MANY_CONNECTIONS", "limit": limit, "max": max}),
        ))
    })?;
    Ok(Admitted { role, owner, slot })
}

/// Serve until `shutdown` resolves, then stop accepting and let connections finish.
pub async fn serve(
    listener: TcpListener,
    daemon: Arc<Daemon>,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    let module = methods::module(daemon.clone())?;
    let listen = listener.local_addr()?;
    daemon.code.set_listen(listen);
    let per_token = Arc::new(conn::PerToken::default());
    let (stop_handle, server_handle) = stop_channel();
    // The gate bounds answers at --max-response-bytes with a coded error; jsonrpsee's own
    // bound (an uncoded one) stays out of its way.
    let cfg = ServerConfig::builder()
        .max_request_body_size(daemon.config.max_message_bytes)
        .max_response_body_size(u32::MAX)
        .max_connections(daemon.config.max_connections)
        .ws_only()
        .set_id_provider(jsonrpsee::server::RandomStringIdProvider::new(16))
        .build();
    let builder = jsonrpsee::server::Server::builder()
        .set_config(cfg)
        .set_rpc_middleware(RpcServiceBuilder::new().layer_fn({
            let daemon = daemon.clone();
            move |s| gate::Gate::new(s, daemon.clone())
        }))
        .to_service_builder();
    let methods: jsonrpsee::Methods = module.into();
    let mcp_service = crate::mcp::streamable::service(&daemon);
    crate::view::start(&daemon);

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
        // Each connection has its own stop channel, stopped with the server's or alone when
        // a token reload revokes the connection's token.
        let (stop, conn_handle) = stop_channel();
        {
            let (server, conn_handle) = (stop_handle.clone(), conn_handle.clone());
            tokio::spawn(async move {
                tokio::select! {
                    () = server.shutdown() => { let _ = conn_handle.stop(); }
                    () = conn_handle.clone().stopped() => {}
                }
            });
        }
        let conn_stop = stop.clone();
        let builder = builder.clone();
        let per_token = per_token.clone();
        let mcp_service = mcp_service.clone();
        let limits = inbound::Limits {
            message: daemon.config.max_message_bytes as usize,
            batch: daemon.config.max_batch,
        };
        let (io, peer_gone, heads, raw) = frames::Patched::new(sock, limits);
        let svc = tower::service_fn(move |mut req: Request<hyper::body::Incoming>| {
            // In request order, before the answer is written: a HEAD's answer has no body.
            if let Ok(mut h) = heads.lock() {
                h.push_back(req.method() == http::Method::HEAD);
            }
            let daemon = daemon.clone();
            let per_token = per_token.clone();
            let mut peer_gone = peer_gone.clone();
            let conn_handle = conn_handle.clone();
            let mut svc = builder.clone().build(methods.clone(), stop.clone());
            let mcp_service = mcp_service.clone();
            let raw = raw.clone();
            async move {
                match routes::route(req.method(), req.uri().path()) {
                    probe @ (Route::Health | Route::Ready) => {
                        let extra = &daemon.config.allowed_hosts;
                        if !routes::host_allowed(req.headers(), peer, listen, extra) {
                            let path = req.uri().path();
                            tracing::info!(%peer, path, "refused a probe for a foreign Host");
                            return Ok::<_, BoxError>(routes::host_refused());
                        }
                        if probe == Route::Health {
                            return Ok(routes::healthz(&daemon));
                        }
                        // The desktop's probe may wait on an X server that hangs.
                        let d = daemon.clone();
                        let checks = tokio::task::spawn_blocking(move || crate::ready::checks(&d))
                            .await
                            .unwrap_or_else(|e| {
                                let why = format!("the readiness check failed: {e}");
                                vec![crate::ready::Check::new("daemon", Some(why))]
                            });
                        return Ok(routes::readyz(&checks));
                    }
                    Route::Rpc => {}
                    Route::View => return Ok(crate::view::http::page(&daemon, &req)),
                    Route::ViewSocket => {
                        return Ok(crate::view::http::socket(&daemon, &mut req, &raw));
                    }
                    Route::Cdp => return Ok(crate::code::http::socket(&daemon, &mut req, &raw)),
                    Route::Mcp => {
                        let (token, role) = match authenticate(&daemon, &req) {
                            Ok(t) => t,
                            Err(resp) => return Ok(*resp),
                        };
                        let token = crate::auth::digest(&token);
                        let serve = crate::mcp::streamable::serve;
                        return Ok(serve(&daemon, mcp_service, req, token, role).await);
                    }
                    other => return Ok(routes::refusal(&other)),
                }
                let Admitted { role, owner, slot } = match admit(&daemon, &per_token, &req) {
                    Ok(a) => a,
                    Err(resp) => return Ok(*resp),
                };
                let conn = Conn::new(role, owner);
                daemon.live.add(conn.clone(), conn_handle);
                if daemon.role_of_digest(&owner.digest()) != Some(role) {
                    // A reload came between the check and the tracking.
                    daemon.live.remove(conn.id);
                    return Ok(unauthorized());
                }
                tracing::debug!(conn = conn.id, %peer, role = role.as_str(), "websocket opened");
                req.extensions_mut().insert(conn.clone());
                let closed = svc.on_session_closed();
                tokio::spawn(async move {
                    let _slot = slot;
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
                    daemon.live.remove(conn.id);
                    tracing::debug!(conn = conn.id, "websocket closed");
                });
                svc.call(req).await
            }
        });
        tokio::spawn(serve_with_graceful_shutdown(io, svc, conn_stop.shutdown()));
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
