//! `wait` with `duration_ms`: a fixed pause that a cancel or the op deadline cuts short.
//! Waiting for an element or a window needs a backend and is refused until one is there.

use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use glovebox_protocol::contract::Checked;
use serde_json::json;

use super::{implemented, Ctx, Output};
use crate::error::DaemonError;

pub fn pause(ctx: Ctx, call: Checked) -> BoxFuture<'static, Result<Output, DaemonError>> {
    Box::pin(async move {
        let Some(ms) = call.args.get("duration_ms").and_then(|v| v.as_u64()) else {
            let tool = call.tool.name;
            return Err(DaemonError::Unsupported {
                tool: tool.into(),
                action: "wait".into(),
                reason: "waiting for an element, a state or a window needs the backend, which \
                         this build does not have yet; duration_ms works"
                    .into(),
                available: implemented(tool),
            });
        };
        let started = Instant::now();
        // The timer's granularity is a millisecond: a sleep of 0 would still wait for its tick.
        if ms > 0 {
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(ms)) => {}
                _ = ctx.op.cancel.cancelled() => return Err(DaemonError::Cancelled),
            }
        }
        Ok(Output::new(json!({"waited_ms": started.elapsed().as_millis() as u64})))
    })
}
