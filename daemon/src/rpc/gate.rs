//! RPC middleware in front of every method: unknown methods, the handshake rule and the
//! per-method role check, each answered with a `data.code` like every other error.

use std::future::Future;
use std::sync::Arc;

use glovebox_protocol::contract::direct_method;
use glovebox_protocol::methods::{method, Access};
use jsonrpsee::core::middleware::{Batch, BatchEntry, BatchEntryErr, Notification, RpcServiceT};
use jsonrpsee::types::{ErrorObjectOwned, Request};
use jsonrpsee::MethodResponse;

use super::conn::Conn;
use super::errors::to_rpc_error;
use crate::error::DaemonError;

#[derive(Clone)]
pub struct Gate<S> {
    inner: S,
}

impl<S> Gate<S> {
    pub fn new(inner: S) -> Self {
        Gate { inner }
    }
}

/// Why a call may not reach its method, if it may not.
fn refuse(name: &str, conn: Option<&Arc<Conn>>) -> Option<ErrorObjectOwned> {
    let access = match (method(name), direct_method(name)) {
        (Some(m), _) => m.access,
        (None, Some((_, action))) if action.class.mutating() => Access::Write,
        (None, Some(_)) => Access::Read,
        (None, None) => return Some(super::errors::method_not_found(name)),
    };
    let conn = conn?;
    if access != Access::Open && conn.session().is_none() {
        return Some(to_rpc_error(&DaemonError::HandshakeRequired.to_data()));
    }
    let allowed = match access {
        Access::Write => conn.role.can_act(),
        Access::Approve => conn.role.can_approve(),
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
        let refusal = refuse(req.method_name(), conn.as_ref());
        let inner = self.inner.clone();
        async move {
            match refusal {
                Some(err) => MethodResponse::error(req.id(), err),
                None => inner.call(req).await,
            }
        }
    }

    fn batch<'a>(
        &self,
        mut batch: Batch<'a>,
    ) -> impl Future<Output = Self::BatchResponse> + Send + 'a {
        for entry in batch.iter_mut() {
            let Ok(BatchEntry::Call(req)) = entry else { continue };
            let conn = req.extensions().get::<Arc<Conn>>().cloned();
            if let Some(err) = refuse(req.method_name(), conn.as_ref()) {
                *entry = Err(BatchEntryErr::new(req.id().into_owned(), err));
            }
        }
        self.inner.batch(batch)
    }

    fn notification<'a>(
        &self,
        n: Notification<'a>,
    ) -> impl Future<Output = Self::NotificationResponse> + Send + 'a {
        self.inner.notification(n)
    }
}
