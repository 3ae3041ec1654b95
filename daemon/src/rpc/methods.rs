//! The JSON-RPC method table: every method name -> the code that answers it. Each non-tool
//! method is the protocol's type (`glovebox_protocol::methods`), registered by
//! `on::<M>(handler)`: its params read as `M::Params`, its answer written from `M::Result`,
//! its error mapped once. Tool actions all go through `dispatch::call` (`calls.rs`); the
//! session's methods are in `session.rs`, an operator's or an approver's in `admin.rs`.

use std::future::Future;
use std::sync::Arc;

use glovebox_protocol::contract::{docs, TOOLS};
use glovebox_protocol::methods::approval::ApprovalRef;
use glovebox_protocol::methods::{
    approval, capture, events, files, op, rpc, secrets, session, tools, view, Method, NoParams,
    EVENT_NOTIFICATION, METHODS,
};
use jsonrpsee::core::RegisterMethodError;
use jsonrpsee::types::{ErrorObjectOwned, Params};
use jsonrpsee::{Extensions, RpcModule};
use serde_json::{Map, Value};

use super::errors::to_rpc_error;
use super::{admin, calls, session as sessions};
use crate::error::DaemonError;
use crate::live::Conn;
use crate::session::Session;
use crate::state::Daemon;

/// What a method's handler is given beside its params: the daemon and the connection.
pub(super) struct Cx {
    pub d: Arc<Daemon>,
    pub ext: Extensions,
}

impl Cx {
    pub fn conn(&self) -> Result<Arc<Conn>, DaemonError> {
        conn_of(&self.ext)
    }

    /// The connection and the session it said hello to.
    pub fn session(&self) -> Result<(Arc<Conn>, Arc<Session>), DaemonError> {
        let conn = self.conn()?;
        let session = conn.session().cloned().ok_or(DaemonError::HandshakeRequired)?;
        Ok((conn, session))
    }
}

// By value so it reads as `.map_err(err)` at every call site.
#[allow(clippy::needless_pass_by_value)]
pub(super) fn err(e: DaemonError) -> ErrorObjectOwned {
    to_rpc_error(&e.to_data())
}

pub(super) fn conn_of(ext: &Extensions) -> Result<Arc<Conn>, DaemonError> {
    ext.get::<Arc<Conn>>().cloned().ok_or(DaemonError::HandshakeRequired)
}

/// The params as JSON (`{}` when absent), or what is wrong with their text: jsonrpsee only
/// checked the syntax, so a number out of range or a lone surrogate shows up here.
pub(super) fn params_json(params: &Params<'_>) -> Result<Value, String> {
    let Some(text) = params.as_str() else { return Ok(Value::Object(Map::new())) };
    serde_json::from_str(text).map_err(|e| {
        let said = e.to_string();
        if said.contains("number out of range") {
            format!("number out of range ({said}); numbers must fit a 64-bit float")
        } else if said.contains("surrogate") || said.contains("escape") || said.contains("unicode")
        {
            format!("invalid unicode / lone surrogate in a string ({said}); pair every \\ud800-\\udbff with a \\udc00-\\udfff")
        } else {
            format!("params are not JSON: {said}")
        }
    })
}

/// `M`'s params, or `INVALID_PARAMS` saying why (for params holding a secret, what to send
/// instead: serde's own message may quote the value).
fn parse<M: Method>(params: &Params<'_>) -> Result<M::Params, DaemonError> {
    let read = params_json(params)
        .and_then(|v| serde_json::from_value::<M::Params>(v).map_err(|e| e.to_string()));
    read.map_err(|said| {
        let reason = if M::SECRET_PARAMS { what_to_send::<M>() } else { said };
        DaemonError::InvalidParams { method: M::NAME.into(), reason }
    })
}

/// "send a and b; c and d are optional", from `M`'s params.
fn what_to_send<M: Method>() -> String {
    let names = |required: bool| {
        let n: Vec<&str> =
            M::PARAMS.iter().filter(|p| p.required == required).map(|p| p.name).collect();
        match n.split_last() {
            Some((last, [])) => (*last).to_owned(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        }
    };
    let (required, optional) = (names(true), names(false));
    if optional.is_empty() {
        format!("send {required}")
    } else {
        format!("send {required}; {optional} are optional")
    }
}

/// A function that answers `M`: `async fn(Cx, M::Params) -> Result<M::Result, DaemonError>`.
trait Handler<M: Method>: Clone + Send + Sync + 'static {
    fn answer(
        &self,
        cx: Cx,
        params: M::Params,
    ) -> impl Future<Output = Result<M::Result, DaemonError>> + Send;
}

impl<M, F, Fut> Handler<M> for F
where
    M: Method,
    F: Fn(Cx, M::Params) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Result<M::Result, DaemonError>> + Send,
{
    fn answer(
        &self,
        cx: Cx,
        params: M::Params,
    ) -> impl Future<Output = Result<M::Result, DaemonError>> + Send {
        self(cx, params)
    }
}

/// Registers `M`, answered by `handler`: its params read as `M::Params`, its answer written
/// from `M::Result`, its error mapped once.
fn on<M: Method>(
    m: &mut RpcModule<Arc<Daemon>>,
    handler: impl Handler<M>,
) -> Result<(), RegisterMethodError> {
    m.register_async_method(M::NAME, move |p, d, ext| {
        let handler = handler.clone();
        async move {
            let params = parse::<M>(&p).map_err(err)?;
            let out = handler.answer(Cx { d: (*d).clone(), ext }, params).await.map_err(err)?;
            serde_json::to_value(out).map_err(|e| err(DaemonError::ActionFailed(e.to_string())))
        }
    })?;
    Ok(())
}

/// Build the module with every method of the protocol: one line per non-tool method, the
/// event subscription, then one direct method per tool action.
pub fn module(daemon: Arc<Daemon>) -> Result<RpcModule<Arc<Daemon>>, RegisterMethodError> {
    let mut m = RpcModule::new(daemon);
    on::<session::Hello>(&mut m, sessions::hello)?;
    on::<session::Status>(&mut m, sessions::status)?;
    on::<session::Pause>(&mut m, |cx: Cx, _: NoParams| sessions::pause(cx, true))?;
    on::<session::Resume>(&mut m, |cx: Cx, _: NoParams| sessions::pause(cx, false))?;
    on::<session::Close>(&mut m, sessions::close)?;
    on::<session::RequestHuman>(&mut m, sessions::request_human)?;
    on::<view::Link>(&mut m, sessions::view_link)?;
    on::<tools::List>(&mut m, calls::tools_list)?;
    on::<tools::Call>(&mut m, calls::tools_call)?;
    on::<op::Status>(&mut m, calls::op_status)?;
    on::<op::Cancel>(&mut m, calls::op_cancel)?;
    on::<capture::Get>(&mut m, calls::capture_get)?;
    on::<approval::List>(&mut m, admin::approval_list)?;
    on::<approval::Grant>(&mut m, |cx: Cx, r: ApprovalRef| admin::answer(cx, r, true))?;
    on::<approval::Deny>(&mut m, |cx: Cx, r: ApprovalRef| admin::answer(cx, r, false))?;
    on::<files::Put>(&mut m, admin::files_put)?;
    on::<secrets::Put>(&mut m, admin::secrets_put)?;
    on::<secrets::Delete>(&mut m, admin::secrets_delete)?;
    on::<rpc::Discover>(&mut m, |_: Cx, NoParams| async {
        Ok(docs::openrpc(env!("CARGO_PKG_VERSION")))
    })?;
    m.register_subscription(
        events::Subscribe::NAME,
        EVENT_NOTIFICATION,
        events::Unsubscribe::NAME,
        |p, pending, d, ext| async move {
            let viewer = ext.get::<Arc<Conn>>().map(|c| crate::events::Viewer {
                owner: c.owner,
                approver: c.role.can_approve(),
                all_lanes: false,
            });
            let params = parse::<events::Subscribe>(&p);
            match (viewer, params) {
                (Some(viewer), Ok(params)) => {
                    calls::subscribe((*d).clone(), params, pending, viewer).await;
                }
                (None, _) => pending.reject(err(DaemonError::HandshakeRequired)).await,
                (_, Err(e)) => pending.reject(err(e)).await,
            }
        },
    )?;
    for tool in TOOLS {
        for action in tool.actions {
            // Registered once at start: the leak is bounded by the contract table.
            let name: &'static str = Box::leak(tool.method(action).into_boxed_str());
            m.register_async_method(name, move |p, d, ext| async move {
                calls::direct(&d, tool, action, &p, &ext).await
            })?;
        }
    }
    debug_assert!(METHODS.iter().all(|x| m.method(x.name).is_some()));
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_table_answers_every_method_and_action_and_nothing_else() {
        let state = std::env::temp_dir().join(format!("gb-methods-{}", std::process::id()));
        let config = crate::state::Config::new(crate::auth::Tokens::default(), state.clone());
        let m = module(Daemon::new(config)).expect("registers");
        let _ = std::fs::remove_dir_all(&state);
        let mut registered: Vec<&str> = m.method_names().collect();
        let mut known: Vec<String> = METHODS.iter().map(|x| x.name.to_owned()).collect();
        known.extend(TOOLS.iter().flat_map(|t| t.actions.iter().map(|a| t.method(a))));
        registered.sort_unstable();
        known.sort_unstable();
        assert_eq!(registered, known);
    }

    #[test]
    fn a_secret_refusal_names_the_params_not_what_was_sent() {
        let p = Params::new(Some(r#"{"name":"k","value":["hunter2"]}"#));
        let Err(DaemonError::InvalidParams { reason, .. }) = parse::<secrets::Put>(&p) else {
            panic!("refused")
        };
        assert_eq!(reason, "send name and value; origins, apps, totp and persist are optional");
        let p = Params::new(Some(r#"{"op_id":1}"#));
        let Err(DaemonError::InvalidParams { reason, .. }) = parse::<op::Status>(&p) else {
            panic!("refused")
        };
        assert!(reason.contains("invalid type"), "{reason}");
        assert!(parse::<session::Status>(&Params::new(None)).is_ok());
    }
}
