//! Approval: the one step before the op that writes. It runs after admission, so a call
//! refused for any other reason never uses up a grant; a granted approval is used up here.

use glovebox_protocol::contract::Checked;
use serde_json::Value;

use crate::approval::policy::{Resolved, Verdict};
use crate::approval::store::Gate;
use crate::error::DaemonError;
use crate::session::Session;
use crate::state::Daemon;

/// What the call's parameters stand for, for the policy: a launch's `app` by every name the
/// desktop's launcher resolves it to (so a rule cannot be dodged by spelling).
fn resolve_for_policy(daemon: &Daemon, checked: &Checked) -> Resolved {
    let mut r = Resolved::default();
    type GetApp = glovebox_protocol::actions::context::GetApp;
    if !checked.is::<GetApp>() {
        return r;
    }
    if let (Ok(p), Some(d)) = (checked.params::<GetApp>(), daemon.desktop()) {
        if p.launch {
            r.app = d.launch_names(&p.app);
        }
    }
    r
}

/// Applies the approval policy to a call about to run as op `op_id`.
pub fn approve(
    daemon: &Daemon,
    session: &Session,
    checked: &Checked,
    op_id: &str,
    fingerprint: &str,
) -> Result<(), DaemonError> {
    let resolved = resolve_for_policy(daemon, checked);
    let decision = daemon.config.policy.decide_resolved(checked.action, &checked.args, &resolved);
    let rule = decision.rule.unwrap_or_default();
    let method = checked.tool.method(checked.action);
    match decision.verdict {
        Verdict::Allow => Ok(()),
        Verdict::Deny => {
            tracing::info!(session = ?session.id, rule = ?rule, method = %method, "policy denied a call");
            Err(DaemonError::ApprovalDenied { rule, by: "the policy".into() })
        }
        Verdict::Ask => {
            let args = Value::Object(checked.args.clone());
            let owner = session.creator.short();
            let asked = daemon.approvals.check(
                &owner,
                &session.id,
                op_id,
                fingerprint,
                &method,
                &rule,
                &args,
            )?;
            match asked {
                Gate::Run => Ok(()),
                Gate::Pending(approval) => {
                    Err(DaemonError::ApprovalRequired { rule, approval, resent: true })
                }
                Gate::Wait(approval) => {
                    let requested = approval.clone();
                    daemon.events.publish_for(session.creator, "approvals", "requested", requested);
                    Err(DaemonError::ApprovalRequired { rule, approval, resent: false })
                }
            }
        }
    }
}
