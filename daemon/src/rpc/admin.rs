//! The methods of operators and approvers: `files.put`, `secrets.put` and `secrets.delete`
//! (admins), `approval.list`, `approval.grant` and `approval.deny`.

use std::sync::Arc;

use glovebox_protocol::contract;
use jsonrpsee::types::{ErrorObjectOwned, Params};
use jsonrpsee::Extensions;
use serde_json::{json, Value};

use super::methods::{conn_of, err, parse, RpcResult};
use crate::error::DaemonError;
use crate::state::Daemon;

pub(super) fn files_put(d: &Arc<Daemon>, p: &Params<'_>) -> RpcResult {
    use base64::Engine as _;
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Put {
        name: String,
        data: String,
    }
    let r: Put = parse("files.put", p)?;
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(r.data.as_bytes()).map_err(|e| {
            err(DaemonError::Contract(contract::Violation::new(
                "data",
                format!("data must be base64: {e}"),
            )))
        })?;
    let path = d.config.files.put(&r.name, &bytes).map_err(err)?;
    Ok(json!({"name": r.name, "path": path, "bytes": bytes.len()}))
}

/// An admin's secret, kept in memory (or also in the file with `persist`); the answer names
/// it with where it may go, never the value.
pub(super) fn secrets_put(d: &Arc<Daemon>, p: &Params<'_>) -> RpcResult {
    // serde's own message may quote the value: the refusal says what to send instead.
    let bad = || {
        err(DaemonError::InvalidParams {
            method: "secrets.put".into(),
            reason: "send name, value and origins (or apps); totp and persist are optional".into(),
        })
    };
    let mut v: Value = parse("secrets.put", p).map_err(|_| bad())?;
    let persist = v.as_object_mut().and_then(|m| m.remove("persist"));
    let persist = match persist {
        None => false,
        Some(Value::Bool(b)) => b,
        Some(_) => return Err(bad()),
    };
    let secret: crate::secrets::Secret = serde_json::from_value(v).map_err(|_| bad())?;
    let name = secret.name.clone();
    d.config.secrets.put(secret, persist).map_err(|e| secrets_err(&e))?;
    let listed = d.config.secrets.list().into_iter().find(|s| s.name == name);
    Ok(json!({"secret": listed, "persisted": persist}))
}

pub(super) fn secrets_delete(d: &Arc<Daemon>, p: &Params<'_>) -> RpcResult {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Delete {
        name: String,
        #[serde(default)]
        persist: bool,
    }
    let r: Delete = parse("secrets.delete", p)?;
    if !d.config.secrets.delete(&r.name, r.persist).map_err(|e| secrets_err(&e))? {
        return Err(err(DaemonError::TargetNotFound { kind: "secret", id: r.name }));
    }
    Ok(json!({"deleted": r.name, "persisted": r.persist}))
}

/// A secret the daemon cannot take: the contract's refusal naming the reason (never a value).
fn secrets_err(e: &crate::secrets::SecretsError) -> ErrorObjectOwned {
    err(DaemonError::Contract(contract::Violation::new("secret", e.to_string())))
}

/// Approvers and admins see every pending approval with its `args`; other roles see those of
/// their own token's sessions, without `args`.
pub(super) fn approval_list(d: &Arc<Daemon>, ext: &Extensions) -> RpcResult {
    let conn = conn_of(ext)?;
    let approver = conn.role.can_approve();
    let mut out = Vec::new();
    for asked in d.approvals.pending() {
        let session = d.sessions.get(&asked.session);
        let mine = session.is_some_and(|s| conn.owner.may_use(&s.creator));
        if approver || mine {
            let mut a = asked.json();
            crate::events::approval_for(&mut a, approver);
            out.push(a);
        }
    }
    Ok(json!({"approvals": out}))
}

pub(super) fn answer(d: &Arc<Daemon>, p: &Params<'_>, grant: bool) -> RpcResult {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct ApprovalRef {
        approval_id: String,
    }
    let method = if grant { "approval.grant" } else { "approval.deny" };
    let r: ApprovalRef = parse(method, p)?;
    d.answer_approval(&r.approval_id, grant).map_err(err)
}
