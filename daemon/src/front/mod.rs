//! The front door: the one HTTP listener. Each request goes, by its path (`routes.rs`), to
//! one named function: `/healthz` and `/readyz` here (`routes.rs`), `/rpc` to [`rpc::Server::upgrade`],
//! `/mcp` to [`mcp::streamable::serve`], `/view` and `/view/socket` to `view/http.rs`, and
//! `/cdp/<secret>` to `code/http.rs`. `/rpc` and `/mcp` are authenticated here (Origin,
//! bearer token); the view page and code sessions carry their own credentials.

mod routes;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use http::{Request, Response, StatusCode};
use jsonrpsee::core::BoxError;
use jsonrpsee::server::{serve_with_graceful_shutdown, stop_channel, HttpBody};
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};

use crate::auth::Role;
use crate::state::Daemon;
use crate::{answer, code, mcp, rpc, view};
use routes::Route;

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot register the methods: {0}")]
    Register(#[from] jsonrpsee::core::RegisterMethodError),
    #[error("cannot read the listen address: {0}")]
    Listen(#[from] std::io::Error),
}

/// What every connection shares: the daemon and the services behind the door.
struct Door {
    daemon: Arc<Daemon>,
    listen: SocketAddr,
    rpc: rpc::Server,
    mcp: mcp::streamable::Service,
}

/// Serve until `shutdown` resolves, then stop accepting and let connections finish.
pub async fn serve(
    listener: TcpListener,
    daemon: Arc<Daemon>,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    let listen = listener.local_addr()?;
    daemon.code.set_listen(listen);
    let door = Arc::new(Door {
        rpc: rpc::Server::new(&daemon)?,
        mcp: mcp::streamable::service(&daemon),
        listen,
        daemon: daemon.clone(),
    });
    view::start(&daemon);
    let (stop_handle, server_handle) = stop_channel();

    tokio::pin!(shutdown);
    loop {
        let (sock, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => { tracing::warn!("accept failed: {e}"); continue; }
            },
            _ = &mut shutdown => break,
        };
        // Each connection has its own stop channel, stopped with the server's or alone when
        // a token reload revokes the connection's token.
        let (stop, handle) = stop_channel();
        {
            let (server, handle) = (stop_handle.clone(), handle.clone());
            tokio::spawn(async move {
                tokio::select! {
                    () = server.shutdown() => { let _ = handle.stop(); }
                    () = handle.clone().stopped() => {}
                }
            });
        }
        connection(door.clone(), sock, peer, stop, handle);
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

/// Serve one accepted connection on its own task until it closes or `stop` says so.
fn connection(
    door: Arc<Door>,
    sock: TcpStream,
    peer: SocketAddr,
    stop: jsonrpsee::server::StopHandle,
    handle: jsonrpsee::server::ServerHandle,
) {
    // Answers go out as soon as they are written: with Nagle's algorithm on, an answer
    // written in two parts waits for the client's delayed ACK (40 ms) before its tail.
    if let Err(e) = sock.set_nodelay(true) {
        tracing::debug!(%peer, "cannot set TCP_NODELAY: {e}");
    }
    let link = Arc::new(rpc::Link { peer, handle, stop: stop.clone() });
    let svc = tower::service_fn(move |req: Request<hyper::body::Incoming>| {
        let (door, link) = (door.clone(), link.clone());
        async move { answer(&door, &link, req).await }
    });
    tokio::spawn(serve_with_graceful_shutdown(sock, svc, stop.shutdown()));
}

/// One request, by its route.
async fn answer(
    door: &Door,
    link: &rpc::Link,
    mut req: Request<hyper::body::Incoming>,
) -> Result<Response<HttpBody>, BoxError> {
    let daemon = &door.daemon;
    Ok(match routes::route(req.method(), req.uri().path()) {
        probe @ (Route::Health | Route::Ready) => {
            probe_answer(door, link.peer, &req, probe == Route::Health).await
        }
        Route::Rpc => {
            let (token, role) = match authenticate(daemon, &req) {
                Ok(t) => t,
                Err(refused) => return Ok(*refused),
            };
            return door.rpc.upgrade(daemon, req, &token, role, link).await;
        }
        Route::Mcp => match authenticate(daemon, &req) {
            Ok((token, role)) => {
                let token = crate::auth::digest(&token);
                mcp::streamable::serve(daemon, door.mcp.clone(), req, token, role).await
            }
            Err(refused) => *refused,
        },
        Route::View => view::http::page(daemon, &req),
        Route::ViewSocket => view::http::socket(daemon, &mut req),
        Route::Cdp => code::http::socket(daemon, &mut req),
        other => routes::refusal(&other),
    })
}

/// `/healthz` (`health`) or `/readyz`, for a Host the daemon answers to.
async fn probe_answer<B>(
    door: &Door,
    peer: SocketAddr,
    req: &Request<B>,
    health: bool,
) -> Response<HttpBody> {
    let daemon = &door.daemon;
    if !routes::host_allowed(req.headers(), peer, door.listen, &daemon.config.allowed_hosts) {
        let path = req.uri().path();
        tracing::info!(%peer, path, "refused a probe for a foreign Host");
        return routes::host_refused();
    }
    if health {
        return routes::healthz(daemon);
    }
    // The desktop's probe may wait on an X server that hangs.
    let d = daemon.clone();
    let checks =
        tokio::task::spawn_blocking(move || crate::ready::checks(&d)).await.unwrap_or_else(|e| {
            let why = format!("the readiness check failed: {e}");
            vec![crate::ready::Check::new("daemon", Some(why))]
        });
    routes::readyz(&checks)
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
            return Err(Box::new(answer::plain(
                StatusCode::FORBIDDEN,
                &json!({"error": "this origin is not allowed; start gloveboxd with --allow-origin"}),
            )));
        }
    }
    let token = crate::auth::presented_token(req.headers(), req.uri().query());
    let presented = token.is_some();
    let Some((token, role)) = token.and_then(|t| daemon.role_of(&t).map(|r| (t, r))) else {
        tracing::warn!(presented, "refused a connection without a valid token");
        return Err(Box::new(answer::unauthorized()));
    };
    Ok((token, role))
}
