//! `cdp_session` and `cdp_revoke`: a code client's DevTools endpoint on a tab (`code/`).

use glovebox_protocol::actions::browser;
use glovebox_protocol::results::browser as results;
use serde_json::json;

use super::backend;
use super::target::freeze;
use crate::dispatch::{Ctx, Output};
use crate::error::DaemonError;

/// `cdp_session`: an endpoint on the frozen tab, valid for `ttl_s`.
pub(super) async fn session(
    ctx: Ctx,
    p: browser::CdpSession,
) -> Result<Output<results::CdpSession>, DaemonError> {
    let b = backend(&ctx.daemon)?;
    let f = freeze(&ctx, &b, &p.common, None).await?;
    let tab = b.tab(&f.browser_id, &f.tab_id).await?;
    // Only the daemon's own browser's pipe can be shared; ask now, not on connecting.
    drop(b.code_lane(&f.browser_id).await?);
    let d = &ctx.daemon;
    let request = crate::code::Request {
        browser_id: f.browser_id.clone(),
        tab_id: f.tab_id.clone(),
        target_id: tab.target_id.clone(),
        session_id: ctx.session.id.clone(),
        owner: ctx.session.creator,
        ttl: std::time::Duration::from_secs(p.ttl_s.max(1) as u64),
    };
    let Some(entry) = d.code.create(d, request) else {
        return Err(DaemonError::ActionFailed("no randomness for the endpoint's secret".into()));
    };
    let url = entry.url(&d.code.host(&d.config.allowed_hosts));
    tracing::info!(cdp_id = %entry.cdp_id, tab_id = %f.tab_id, "a code session opened");
    d.events.publish_for(
        entry.owner,
        "browser",
        "cdp.opened",
        json!({"cdp_id": entry.cdp_id, "tab_id": f.tab_id, "browser_id": f.browser_id,
               "session": entry.session_id, "expires_at": entry.expires_at}),
    );
    let result = results::CdpSession {
        cdp_id: entry.cdp_id.clone(),
        url,
        tab_id: f.tab_id.clone(),
        expires_at: entry.expires_at.clone(),
    };
    Ok(Output { result, target: Some(f.target()) })
}

/// `cdp_revoke`: end a code session of this token's (an admin's: any).
pub(super) async fn revoke(
    ctx: Ctx,
    p: browser::CdpRevoke,
) -> Result<Output<results::CdpRevoke>, DaemonError> {
    let d = &ctx.daemon;
    let entry = d.code.get(&p.cdp_id).filter(|e| ctx.session.creator.may_use(&e.owner));
    let Some(entry) = entry else {
        return Err(DaemonError::TargetNotFound { kind: "code session", id: p.cdp_id });
    };
    let revoked = d.code.end(d, &entry.cdp_id, "revoked (browser.cdp_revoke)");
    Ok(Output {
        result: results::CdpRevoke { cdp_id: entry.cdp_id.clone(), revoked },
        target: None,
    })
}
