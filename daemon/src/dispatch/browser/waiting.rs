//! The `wait` action: a plain pause, the page becoming ready, or an element reaching a state.

use std::time::{Duration, Instant};

use glovebox_protocol::actions::browser::{self, Shared, State};
use glovebox_protocol::results::browser::Wait;

use super::backend;
use super::target::{element, freeze};
use crate::dispatch::{wait, Ctx, Output};
use crate::error::DaemonError;

/// `wait`: duration_ms is a pause; with an element, poll its state until the deadline.
pub(super) async fn wait(ctx: Ctx, p: browser::Wait) -> Result<Output<Wait>, DaemonError> {
    if let Some(ms) = p.duration_ms {
        let waited_ms = wait::pause(&ctx, ms).await?;
        return Ok(Output::new(Wait { waited_for: None, waited_ms }));
    }
    let b = backend(&ctx.daemon)?;
    let f = freeze(&ctx, &b, &p.common, p.named_ref()).await?;
    let target = Some(f.target());
    let tab = b.tab(&f.browser_id, &f.tab_id).await?;
    let limit = Duration::from_millis(u64::from(p.timeout.unwrap_or(30_000)));
    let started = Instant::now();
    let deadline = started + limit;
    let state = p.state.unwrap_or(State::Visible);
    let Some(named) = &p.element else {
        tab.wait_ready(limit).await?;
        let waited_ms = started.elapsed().as_millis() as u64;
        let result = Wait { waited_for: Some("page ready".into()), waited_ms };
        return Ok(Output { result, target });
    };
    let snapshot_id = p.common.snapshot_id.as_deref();
    loop {
        let el = match element(&ctx, &tab, named, snapshot_id).await {
            Ok(e) => Some(e),
            Err(DaemonError::StaleRef { .. } | DaemonError::TargetNotFound { .. }) => None,
            Err(e) => return Err(e),
        };
        let (attached, visible) = match &el {
            Some(e) => tab.presence(e).await,
            None => (false, false),
        };
        let done = match state {
            State::Hidden => !visible,
            State::Attached => attached,
            State::Detached => !attached,
            State::Visible => visible,
        };
        if done {
            let waited_ms = started.elapsed().as_millis() as u64;
            let result = Wait { waited_for: Some(state.as_str().into()), waited_ms };
            return Ok(Output { result, target });
        }
        if Instant::now() >= deadline {
            let ms = limit.as_millis() as u64;
            return Err(DaemonError::NotReached { state: state.as_str(), ms });
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(50)) => {}
            _ = ctx.op.cancel.cancelled() => return Err(DaemonError::Cancelled),
        }
    }
}
