//! RPC middleware in front of every method: unknown methods, the handshake rule, the
//! per-method role check, the messages [`super::inbound`] refused, a batch's admission (its
//! length, its tool calls against the in-flight and rate limits, all or nothing) and the size
//! of every answer, each answered with a `data.code` like every other error.

use std::future::Future;
use std::sync::Arc;

use glovebox_protocol::contract::direct_method;
use glovebox_protocol::methods::{method, Access};
use jsonrpsee::core::middleware::{Batch, BatchEntry, BatchEntryErr, Notification, RpcServiceT};
use jsonrpsee::types::{ErrorObjectOwned, Id, Request};
use jsonrpsee::MethodResponse;
use serde_json::Value;

use super::errors::to_rpc_error;
use super::inbound::REFUSED;
use crate::dispatch::{admission, Admitted};
use crate::error::DaemonError;
use crate::live::Conn;
use crate::state::Daemon;

#[derive(Clone)]
pub struct Gate<S> {
    inner: S,
    daemon: Arc<Daemon>,
}

impl<S> Gate<S> {
    pub fn new(inner: S, daemon: Arc<Daemon>) -> Self {
        Gate { inner, daemon }
    }
}

fn rpc_err(e: &DaemonError) -> ErrorObjectOwned {
    to_rpc_error(&e.to_data())
}

/// The error of a message [`super::inbound`] refused, from what it wrote down.
fn refused(params: Option<&str>) -> ErrorObjectOwned {
    let p: Value = params.and_then(|p| serde_json::from_str(p).ok()).unwrap_or_default();
    let n = |k: &str| p[k].as_u64().and_then(|n| usize::try_from(n).ok()).unwrap_or_default();
    let e = match p["kind"].as_str() {
        Some("binary") => DaemonError::BinaryFrame { bytes: n("bytes") },
        Some("too_large") => DaemonError::RequestTooLarge { size: n("size"), limit: n("limit") },
        Some("batch_too_large") => DaemonError::BatchTooLarge { len: n("len"), limit: n("limit") },
        _ => {
            let got = match p["got"].as_str() {
                Some("an object") => "an object",
                Some("an array") => "an array",
                Some("true or false") => "true or false",
                Some("a negative number") => "a negative number",
                Some("a number over 2^64-1") => "a number over 2^64-1",
                Some("a string that is not valid unicode") => "a string that is not valid unicode",
                _ => "a number with a fraction or an exponent",
            };
            DaemonError::BadId { got }
        }
    };
    rpc_err(&e)
}

/// The answer, or `RESULT_TOO_LARGE` in its place when it is over `limit` bytes.
fn bounded(rp: MethodResponse, id: Id<'static>, limit: usize) -> MethodResponse {
    let size = rp.as_json().get().len();
    if size <= limit || rp.is_subscription() {
        return rp;
    }
    tracing::info!(size, limit, "an answer over the response limit was replaced by an error");
    MethodResponse::error(id, rpc_err(&DaemonError::ResultTooLarge { size, limit }))
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
fn refuse(name: &str, conn: Option<&Arc<Conn>>) -> Option<ErrorObjectOwned> {
    let access = match (method(name), direct_method(name)) {
        (Some(m), _) => m.access,
        (None, Some((_, action))) if action.class.actor_only() => Access::Write,
        (None, Some(_)) => Access::Read,
        (None, None) => return Some(super::errors::method_not_found(name)),
    };
    let conn = conn?;
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

impl<S> RpcServiceT for Gate<S>
where
    S: RpcServiceT<
            MethodResponse = MethodResponse,
            BatchResponse = MethodResponse,
            NotificationResponse = MethodResponse,
        > + Send
        + Sync
        + Clone
        + 'static,
{
    type MethodResponse = S::MethodResponse;
    type NotificationResponse = S::NotificationResponse;
    type BatchResponse = S::BatchResponse;

    fn call<'a>(&self, req: Request<'a>) -> impl Future<Output = Self::MethodResponse> + Send + 'a {
        let conn = req.extensions().get::<Arc<Conn>>().cloned();
        let refusal = if req.method_name() == REFUSED {
            Some(refused(req.params().as_str()))
        } else {
            refuse(req.method_name(), conn.as_ref())
        };
        let inner = self.inner.clone();
        let limit = self.daemon.config.max_response_bytes;
        async move {
            let id = req.id().into_owned();
            match refusal {
                Some(err) => MethodResponse::error(id, err),
                None => bounded(inner.call(req).await, id, limit),
            }
        }
    }

    fn batch<'a>(
        &self,
        mut batch: Batch<'a>,
    ) -> impl Future<Output = Self::BatchResponse> + Send + 'a {
        let limit = self.daemon.config.max_response_bytes;
        let mut conn = None;
        let mut ops = 0;
        for entry in batch.iter_mut() {
            let Ok(BatchEntry::Call(req)) = entry else { continue };
            conn = conn.or_else(|| req.extensions().get::<Arc<Conn>>().cloned());
            let refusal = if req.method_name() == REFUSED {
                Some(refused(req.params().as_str()))
            } else {
                refuse(req.method_name(), conn.as_ref())
            };
            match refusal {
                Some(err) => *entry = Err(BatchEntryErr::new(req.id().into_owned(), err)),
                None => {
                    ops += usize::from(is_op(req.method_name()));
                    req.extensions_mut().insert(Admitted);
                }
            }
        }
        // Nothing in a refused batch runs: one error answers it.
        let on = conn.as_ref().map(|c| OnConn(c.clone()));
        let session = conn.as_ref().and_then(|c| c.session());
        let admitted = admission::admit_batch(&self.daemon, on, session, batch.len(), ops);
        let inner = self.inner.clone();
        async move {
            match admitted {
                Err(e) => {
                    tracing::info!(%e, "refused a batch");
                    MethodResponse::error(Id::Null, rpc_err(&e))
                }
                Ok(slots) => {
                    let rp = inner.batch(batch).await;
                    drop(slots);
                    bounded(rp, Id::Null, limit)
                }
            }
        }
    }

    fn notification<'a>(
        &self,
        n: Notification<'a>,
    ) -> impl Future<Output = Self::NotificationResponse> + Send + 'a {
        self.inner.notification(n)
    }
}
