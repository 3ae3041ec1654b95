//! The methods of operators and approvers: `files.put`, `secrets.put` and `secrets.delete`
//! (admins), `approval.list`, `approval.grant` and `approval.deny`.

use glovebox_protocol::contract;
use glovebox_protocol::methods::approval::{ApprovalRef, Approvals};
use glovebox_protocol::methods::files::{PutParams, Stored};
use glovebox_protocol::methods::secrets::{self, Deleted, SecretStored};
use glovebox_protocol::methods::NoParams;
use serde_json::Value;

use super::methods::Cx;
use crate::error::DaemonError;

pub(super) async fn files_put(cx: Cx, r: PutParams) -> Result<Stored, DaemonError> {
    use base64::Engine as _;
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(r.data.as_bytes()).map_err(|e| {
            DaemonError::Contract(contract::Violation::new(
                "data",
                format!("data must be base64: {e}"),
            ))
        })?;
    let path = cx.d.config.files.put(&r.name, &bytes)?;
    Ok(Stored { name: r.name, path: path.display().to_string(), bytes: bytes.len() })
}

/// An admin's secret, kept in memory (or also in the file with `persist`); the answer names
/// it with where it may go, never the value.
pub(super) async fn secrets_put(
    cx: Cx,
    p: secrets::PutParams,
) -> Result<SecretStored, DaemonError> {
    let secrets::PutParams { name, value, origins, apps, totp, persist } = p;
    let secret = crate::secrets::Secret { name: name.clone(), value, origins, apps, totp };
    let vault = &cx.d.config.secrets;
    vault.put(secret, persist).map_err(|e| secrets_err(&e))?;
    let listed = vault.list().into_iter().find(|s| s.name == name);
    let secret = listed
        .map(serde_json::to_value)
        .transpose()
        .map_err(|e| DaemonError::ActionFailed(e.to_string()))?;
    Ok(SecretStored { secret, persisted: persist })
}

pub(super) async fn secrets_delete(
    cx: Cx,
    r: secrets::DeleteParams,
) -> Result<Deleted, DaemonError> {
    if !cx.d.config.secrets.delete(&r.name, r.persist).map_err(|e| secrets_err(&e))? {
        return Err(DaemonError::TargetNotFound { kind: "secret", id: r.name });
    }
    Ok(Deleted { deleted: r.name, persisted: r.persist })
}

/// A secret the daemon cannot take: the contract's refusal naming the reason (never a value).
fn secrets_err(e: &crate::secrets::SecretsError) -> DaemonError {
    DaemonError::Contract(contract::Violation::new("secret", e.to_string()))
}

/// Approvers and admins see every pending approval with its `args`; other roles see those of
/// their own token's sessions, without `args`.
pub(super) async fn approval_list(cx: Cx, _: NoParams) -> Result<Approvals, DaemonError> {
    let conn = cx.conn()?;
    let approver = conn.role.can_approve();
    let mut approvals = Vec::new();
    for asked in cx.d.approvals.pending() {
        let session = cx.d.sessions.get(&asked.session);
        let mine = session.is_some_and(|s| conn.owner.may_use(&s.creator));
        if approver || mine {
            let mut a = asked.json();
            crate::events::approval_for(&mut a, approver);
            approvals.push(a);
        }
    }
    Ok(Approvals { approvals })
}

pub(super) async fn answer(cx: Cx, r: ApprovalRef, grant: bool) -> Result<Value, DaemonError> {
    cx.d.answer_approval(&r.approval_id, grant)
}
