//! Transport of `/rpc`: per-token connection limits on the upgrade, the connection's own
//! WebSocket loop (`serve.rs`, frames in `wire.rs`, messages in `incoming.rs`) with the gate
//! in front of jsonrpsee's method table, and a connection's lifetime. The HTTP front door
//! (`front/`) authenticates the request and hands it to [`Server::upgrade`].

mod admin;
mod calls;
pub(crate) mod conn;
mod errors;
mod gate;
mod incoming;
mod methods;
mod serve;
mod session;
mod wire;

use std::net::SocketAddr;
use std::sync::Arc;

use http::{Request, Response, StatusCode};
use jsonrpsee::core::BoxError;
use jsonrpsee::server::{HttpBody, IdProvider, ServerHandle, StopHandle};
use serde_json::json;

use crate::auth::Role;
use crate::live::Conn;
use crate::state::Daemon;

/// The JSON-RPC server of one daemon: the method table, the subscription ids, and the open
/// connections per token.
pub(crate) struct Server {
    methods: jsonrpsee::Methods,
    ids: Arc<dyn IdProvider>,
    per_token: Arc<conn::PerToken>,
}

/// One TCP connection as `/rpc` needs it: how to stop it alone.
pub(crate) struct Link {
    pub peer: SocketAddr,
    /// Stops the connection (its own stop channel, not the daemon's).
    pub handle: ServerHandle,
    pub stop: StopHandle,
}

impl Server {
    pub fn new(daemon: &Arc<Daemon>) -> Result<Self, jsonrpsee::core::RegisterMethodError> {
        let module = methods::module(daemon.clone())?;
        let ids = Arc::new(jsonrpsee::server::RandomStringIdProvider::new(16));
        Ok(Server { methods: module.into(), ids, per_token: Arc::default() })
    }

    /// `GET /rpc` from a client holding `token` with `role`: the connection limits, the
    /// upgrade, and the connection served and tracked until it closes.
    pub async fn upgrade(
        &self,
        daemon: &Arc<Daemon>,
        mut req: Request<hyper::body::Incoming>,
        token: &str,
        role: Role,
        link: &Link,
    ) -> Result<Response<HttpBody>, BoxError> {
        let Some(key) = crate::upgrade::key_of(&req) else {
            return Ok(crate::answer::plain(
                StatusCode::UPGRADE_REQUIRED,
                &json!({"error": "/rpc speaks JSON-RPC over WebSocket; open a WebSocket"}),
            ));
        };
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
        tracing::debug!(conn = conn.id, peer = %link.peer, role = role.as_str(), "websocket opened");
        let (sink, answers) = serve::sink();
        let gate = gate::Gate::new(
            daemon.clone(),
            self.methods.clone(),
            conn.clone(),
            sink,
            self.ids.clone(),
        );
        let (stop, limit) = (link.stop.clone(), daemon.config.max_message_bytes as usize);
        let (d, c) = (daemon.clone(), conn.clone());
        let serve = move |io| -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
            Box::pin(async move {
                let _slot = slot;
                serve::run(io, Arc::new(gate), answers, stop, limit).await;
                closed_conn(&d, &c);
            })
        };
        let d = daemon.clone();
        let failed = move |e: hyper::Error| {
            tracing::debug!(%e, "an /rpc upgrade failed");
            closed_conn(&d, &conn);
        };
        Ok(crate::upgrade::accept_frames(&mut req, &key, serve, failed))
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
