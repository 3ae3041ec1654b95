//! The `wait` action: a plain pause, the page becoming ready, or an element reaching a state.

use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use glovebox_protocol::contract::Checked;
use serde_json::json;

use super::target::{element, freeze};
use super::{backend, s, u};
use crate::dispatch::{wait, Ctx, Output};
use crate::error::DaemonError;

/// `wait`: duration_ms is a pause; with an element, poll its state until the deadline.
pub(super) fn wait_for(ctx: Ctx, call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    if call.args.contains_key("duration_ms") {
        return wait::pause(ctx, call);
    }
    Box::pin(async move {
        let b = backend(&ctx.daemon)?;
        let args = call.args;
        let f = freeze(&ctx, &b, &args).await?;
        let target = Some(f.json());
        let tab = b.tab(&f.browser_id, &f.tab_id).await?;
        let limit = Duration::from_millis(u(&args, "timeout").unwrap_or(30_000));
        let started = Instant::now();
        let deadline = started + limit;
        let state = s(&args, "state").unwrap_or("visible");
        if !args.contains_key("ref") && !args.contains_key("selector") {
            tab.wait_ready(limit).await?;
            return Ok(Output {
                result: json!({"waited_for": "page ready", "waited_ms": started.elapsed().as_millis() as u64}),
                target,
            });
        }
        loop {
            let el = match element(&ctx, &tab, &args, "ref", "selector").await {
                Ok(e) => e,
                Err(DaemonError::StaleRef { .. } | DaemonError::TargetNotFound { .. }) => None,
                Err(e) => return Err(e),
            };
            let visible = match &el {
                Some(e) => tab
                    .call(e, "if (!this.isConnected) return false; const r = this.getBoundingClientRect(); const s = getComputedStyle(this); return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';", &[])
                    .await
                    .map(|v| v == true)
                    .unwrap_or(false),
                None => false,
            };
            let attached = match &el {
                Some(e) => tab
                    .call(e, "return this.isConnected;", &[])
                    .await
                    .map(|v| v == true)
                    .unwrap_or(false),
                None => false,
            };
            let done = match state {
                "hidden" => !visible,
                "attached" => attached,
                "detached" => !attached,
                _ => visible,
            };
            if done {
                return Ok(Output {
                    result: json!({"waited_for": state, "waited_ms": started.elapsed().as_millis() as u64}),
                    target,
                });
            }
            if Instant::now() >= deadline {
                return Err(DaemonError::ActionFailed(format!(
                    "the element did not become {state} within {} ms",
                    limit.as_millis()
                )));
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(50)) => {}
                _ = ctx.op.cancel.cancelled() => return Err(DaemonError::Cancelled),
            }
        }
    })
}
