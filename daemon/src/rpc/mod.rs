//! Transport of `/rpc`: per-token connection limits on the upgrade, the jsonrpsee WebSocket
//! server with its gate middleware, and a connection's lifetime. The HTTP front door
//! (`front/`) authenticates the request and hands it to [`Server::upgrade`].

mod admin;
mod calls;
pub(crate) mod conn;
mod errors;
pub(crate) mod frames;
mod gate;
mod inbound;
mod methods;
mod session;

pub(crate) use inbound::Limits;

use std::net::SocketAddr;
use std::sync::Arc;

use http::{Request, Response, StatusCode};
use jsonrpsee::core::BoxError;
use jsonrpsee::server::middleware::rpc::RpcServiceBuilder;
use jsonrpsee::server::{HttpBody, ServerConfig, ServerHandle, StopHandle, TowerServiceBuilder};
use serde_json::json;
use tower::layer::util::{Identity, Stack};
use tower::Service as _;

use crate::auth::Role;
use crate::live::Conn;
use crate::state::Daemon;

/// The gate in front of every method (`gate.rs`), as a named layer.
#[derive(Clone)]
struct GateLayer(Arc<Daemon>);

impl<S> tower::Layer<S> for GateLayer {
    type Service = gate::Gate<S>;

    fn layer(&self, inner: S) -> gate::Gate<S> {
        gate::Gate::new(inner, self.0.clone())
    }
}

/// The JSON-RPC server of one daemon: the method table, jsonrpsee's service builder (shared
/// by every connection, so its connection count is the daemon's) and the open connections
/// per token.
pub(crate) struct Server {
    methods: jsonrpsee::Methods,
    builder: TowerServiceBuilder<Stack<GateLayer, Identity>, Identity>,
    per_token: Arc<conn::PerToken>,
}

/// One TCP connection as `/rpc` needs it: how to stop it alone, and when its peer is gone.
pub(crate) struct Link {
    pub peer: SocketAddr,
    /// Stops the connection's server (its own stop channel, not the daemon's).
    pub handle: ServerHandle,
    pub stop: StopHandle,
    /// Turns true once the peer has closed its side.
    pub peer_gone: tokio::sync::watch::Receiver<bool>,
}

impl Server {
    pub fn new(daemon: &Arc<Daemon>) -> Result<Self, jsonrpsee::core::RegisterMethodError> {
        let module = methods::module(daemon.clone())?;
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
            .set_rpc_middleware(RpcServiceBuilder::new().layer(GateLayer(daemon.clone())))
            .to_service_builder();
        Ok(Server { methods: module.into(), builder, per_token: Arc::default() })
    }

    /// `GET /rpc` from a client holding `token` with `role`: the connection limits, the
    /// upgrade, and the connection tracked until it closes.
    pub async fn upgrade(
        &self,
        daemon: &Arc<Daemon>,
        mut req: Request<hyper::body::Incoming>,
        token: &str,
        role: Role,
        link: &Link,
    ) -> Result<Response<HttpBody>, BoxError> {
        if !jsonrpsee::server::ws::is_upgrade_request(&req) {
            return Ok(crate::answer::plain(
                StatusCode::UPGRADE_REQUIRED,
                &json!({"error": "/rpc speaks JSON-RPC over WebSocket; open a WebSocket"}),
            ));
        }
        let owner = daemon.owner_of(crate::auth::digest(token), role);
        let slot = match self.slot(daemon, owner.digest(), role) {
            Ok(slot) => slot,
            Err(refused) => return Ok(*refused),
        };
        let conn = Conn::new(role, owner);
        let handle = link.handle.clone();
        daemon.live.add(
            conn.clone(),
            Box::new(move || {
                let _ = handle.stop();
            }),
        );
        if daemon.role_of_digest(&owner.digest()) != Some(role) {
            // A reload came between the check and the tracking.
            daemon.live.remove(conn.id);
            return Ok(crate::answer::unauthorized());
        }
        let peer = link.peer;
        tracing::debug!(conn = conn.id, %peer, role = role.as_str(), "websocket opened");
        req.extensions_mut().insert(conn.clone());
        let mut svc = self.builder.clone().build(self.methods.clone(), link.stop.clone());
        let closed = svc.on_session_closed();
        let (daemon, mut peer_gone) = (daemon.clone(), link.peer_gone.clone());
        tokio::spawn(async move {
            let _slot = slot;
            // The session is free again as soon as the peer is gone: a client that
            // reconnects to resume it need not wait for the calls it left behind.
            tokio::select! {
                _ = closed => {}
                _ = peer_gone.wait_for(|gone| *gone) => {}
            }
            closed_conn(&daemon, &conn);
        });
        svc.call(req).await
    }

    /// A place among the token's connections, or the 429 to send instead.
    fn slot(
        &self,
        daemon: &Daemon,
        token: crate::auth::Digest,
        role: Role,
    ) -> Result<conn::TokenSlot, Box<Response<HttpBody>>> {
        let (per, total) =
            (daemon.config.max_connections_per_token, daemon.config.max_connections as usize);
        self.per_token.acquire(token, per, total).map_err(|limit| {
            let (max, whose) = match limit {
                conn::Limit::PerToken => (per, "this token has"),
                conn::Limit::Total => (total, "the daemon has"),
            };
            let limit = limit.as_str();
            tracing::warn!(role = role.as_str(), limit, max, "refused a connection over a limit");
            let flag = limit.replace('_', "-");
            Box::new(crate::answer::plain(
                StatusCode::TOO_MANY_REQUESTS,
                &json!({"error": format!("{whose} {max} connections open already; close one, or start gloveboxd with a larger --{flag}"),
                        "code": "TOO_MANY_CONNECTIONS", "limit": limit, "max": max}),
            ))
        })
    }
}

/// A connection's end: its session detached, the input it held released, and it untracked.
fn closed_conn(daemon: &Daemon, conn: &Conn) {
    if let Some(session) = conn.session() {
        session.detach(conn.id);
        // A dropped connection releases the keys and buttons its session held.
        if conn.role.can_act() {
            crate::dispatch::release_held(daemon, session);
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
}
