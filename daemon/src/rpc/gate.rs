//! In front of every method of one connection: unknown methods, the handshake rule, the
//! per-method role check, a batch's admission (its tool calls against the in-flight and rate
//! limits, all or nothing) and the size of every answer, each answered with a `data.code`
//! like every other error; then the method table (`methods.rs`), its calls and its
//! subscriptions driven here.

use std::sync::Arc;

use glovebox_protocol::contract::direct_method;
use glovebox_protocol::methods::{method, Access};
use jsonrpsee::core::server::{
    BatchResponseBuilder, BoundedSubscriptions, ConnectionId, MethodCallback, MethodSink, Methods,
    SubscriptionState,
};
use jsonrpsee::server::IdProvider;
use jsonrpsee::types::{ErrorObjectOwned, Id, Params, Request};
use jsonrpsee::{Extensions, MethodResponse};

use super::errors::to_rpc_error;
use crate::dispatch::{admission, Admitted};
use crate::error::DaemonError;
use crate::live::Conn;
use crate::state::Daemon;

/// Subscriptions one connection may hold at once.
const MAX_SUBSCRIPTIONS: u32 = 1024;

/// One entry of a message: a call, a refusal the message itself earned (`incoming.rs`), or a
/// notification (never answered).
pub enum Entry<'a> {
    Call(Request<'a>),
    Refused(Id<'a>, ErrorObjectOwned),
    Notification,
}

/// One connection's gate and method table.
pub struct Gate {
    daemon: Arc<Daemon>,
    methods: Methods,
    conn: Arc<Conn>,
    /// What every call of the connection is given: its `Conn`.
    ext: Extensions,
    conn_id: ConnectionId,
    /// Where answers and subscription notifications go (the connection's writer).
    sink: MethodSink,
    subscriptions: BoundedSubscriptions,
    ids: Arc<dyn IdProvider>,
}

pub fn refusal(id: Id<'_>, e: &DaemonError) -> MethodResponse {
    MethodResponse::error(id.into_owned(), to_rpc_error(&e.to_data()))
}

/// The answer, or `RESULT_TOO_LARGE` in its place when it is over `limit` bytes.
fn bounded(rp: MethodResponse, id: Id<'static>, limit: usize) -> MethodResponse {
    let size = rp.as_json().get().len();
    if size <= limit || rp.is_subscription() {
        return rp;
    }
    tracing::info!(size, limit, "an answer over the response limit was replaced by an error");
    refusal(id, &DaemonError::ResultTooLarge { size, limit })
}

/// Whether a call runs a tool action (an op): those count against the in-flight and rate
/// limits.
fn is_op(name: &str) -> bool {
    name == "tools.call" || direct_method(name).is_some()
}

/// A batch's in-flight slots are its connection's.
struct OnConn(Arc<Conn>);

impl admission::Counter for OnConn {
    fn counter(&self) -> &std::sync::atomic::AtomicUsize {
        &self.0.in_flight
    }
}

/// Why a call may not reach its method, if it may not.
fn refuse(name: &str, conn: &Conn) -> Option<ErrorObjectOwned> {
    let access = match (method(name), direct_method(name)) {
        (Some(m), _) => m.access,
        (None, Some((_, action))) if action.class.actor_only() => Access::Write,
        (None, Some(_)) => Access::Read,
        (None, None) => return Some(super::errors::method_not_found(name)),
    };
    if conn.is_revoked() {
        return Some(to_rpc_error(&DaemonError::Revoked.to_data()));
    }
    if access != Access::Open && conn.session().is_none() {
        return Some(to_rpc_error(&DaemonError::HandshakeRequired.to_data()));
    }
    let allowed = match access {
        Access::Write => conn.role.can_act(),
        Access::Approve => conn.role.can_approve(),
        Access::Admin => conn.role == crate::auth::Role::Admin,
        Access::Open | Access::Read | Access::PerAction => true,
    };
    if !allowed {
        tracing::info!(role = conn.role.as_str(), method = name, "refused by role");
        let e = DaemonError::Forbidden { role: conn.role.as_str(), method: name.to_owned() };
        return Some(to_rpc_error(&e.to_data()));
    }
    None
}

impl Gate {
    pub fn new(
        daemon: Arc<Daemon>,
        methods: Methods,
        conn: Arc<Conn>,
        sink: MethodSink,
        ids: Arc<dyn IdProvider>,
    ) -> Self {
        let mut ext = Extensions::new();
        ext.insert(conn.clone());
        // Subscriptions are kept by (connection, id): the connection's number is unique.
        let conn_id = ConnectionId(usize::try_from(conn.id).unwrap_or(usize::MAX));
        let subscriptions = BoundedSubscriptions::new(MAX_SUBSCRIPTIONS);
        Gate { daemon, methods, conn, ext, conn_id, sink, subscriptions, ids }
    }

    pub fn sink(&self) -> &MethodSink {
        &self.sink
    }

    pub fn max_batch(&self) -> usize {
        self.daemon.config.max_batch
    }

    /// One call: refused, or run and its answer bounded.
    pub async fn call(&self, mut req: Request<'_>) -> MethodResponse {
        let id = req.id.clone().into_owned();
        if let Some(err) = refuse(&req.method, &self.conn) {
            return MethodResponse::error(id, err);
        }
        req.extensions = self.ext.clone();
        bounded(self.run(req).await, id, self.daemon.config.max_response_bytes)
    }

    /// A batch: each call checked, the whole admitted (or one error), then its calls one after
    /// the other; one answer of them all, bounded as one.
    pub async fn batch(&self, mut entries: Vec<Entry<'_>>) -> MethodResponse {
        let mut ops = 0;
        for entry in &mut entries {
            let Entry::Call(req) = entry else { continue };
            if let Some(err) = refuse(&req.method, &self.conn) {
                *entry = Entry::Refused(req.id.clone().into_owned(), err);
                continue;
            }
            ops += usize::from(is_op(&req.method));
            req.extensions = self.ext.clone();
            req.extensions.insert(Admitted);
        }
        // Nothing in a refused batch runs: one error answers it.
        let session = self.conn.session();
        let on = Some(OnConn(self.conn.clone()));
        let slots = match admission::admit_batch(&self.daemon, on, session, entries.len(), ops) {
            Ok(slots) => slots,
            Err(e) => {
                tracing::info!(%e, "refused a batch");
                return refusal(Id::Null, &e);
            }
        };
        let mut answers = BatchResponseBuilder::new_with_limit(usize::MAX);
        let mut any = false;
        for entry in entries {
            let rp = match entry {
                Entry::Call(req) => self.run(req).await,
                Entry::Refused(id, e) => MethodResponse::error(id, e),
                Entry::Notification => continue,
            };
            any = true;
            if let Err(rp) = answers.append(rp) {
                return rp;
            }
        }
        drop(slots);
        if !any {
            return MethodResponse::notification();
        }
        let rp = MethodResponse::from_batch(answers.finish());
        bounded(rp, Id::Null, self.daemon.config.max_response_bytes)
    }

    /// The method table: `req`'s method run by its kind (call, subscription, unsubscription).
    async fn run(&self, req: Request<'_>) -> MethodResponse {
        let Request { id, method, params, extensions, .. } = req;
        let params = Params::new(params.as_ref().map(|p| p.get()));
        let Some((_, callback)) = self.methods.method_with_name(&method) else {
            return MethodResponse::error(
                id.into_owned(),
                super::errors::method_not_found(&method),
            );
        };
        // The gate bounds answers with a coded error: the table's own bound stays out of it.
        let unbounded = usize::MAX;
        match callback {
            MethodCallback::Async(f) => {
                f(id.into_owned(), params.into_owned(), self.conn_id, unbounded, extensions).await
            }
            MethodCallback::Sync(f) => f(id, params, unbounded, extensions),
            MethodCallback::Unsubscription(f) => f(id, params, self.conn_id, unbounded, extensions),
            MethodCallback::Subscription(f) => {
                let Some(permit) = self.subscriptions.acquire() else {
                    let e = DaemonError::TooManySubscriptions { limit: MAX_SUBSCRIPTIONS as usize };
                    return refusal(id, &e);
                };
                let state = SubscriptionState {
                    conn_id: self.conn_id,
                    id_provider: &*self.ids,
                    subscription_permit: permit,
                };
                f(id, params, self.sink.clone(), state, extensions).await
            }
        }
    }
}
