//! Observing: `snapshot` (recorded in the session's snapshots) and `wait` on the tree or
//! the window list.

use std::time::{Duration, Instant};

use glovebox_protocol::actions::computer::{self, Until};
use glovebox_protocol::results::computer as results;

use super::{desktop, element_opt, out, target, Target};
use crate::desktop::{Desktop, El};
use crate::dispatch::{wait, Ctx, Output};
use crate::error::DaemonError;
use crate::registry::snapshots::{Budget, Scope, View};

/// What an outline asks for: its page budget, a subtree, a depth.
pub(super) struct Outline<'a> {
    pub budget: Budget,
    pub scope_ref: Option<&'a str>,
    pub max_depth: Option<u32>,
}

impl Outline<'_> {
    /// The whole target at the table's default page size.
    pub(super) fn whole() -> Self {
        let limit = computer::Snapshot::default().limit;
        Outline { budget: budget(limit, None, false), scope_ref: None, max_depth: None }
    }
}

pub(super) fn budget(limit: u32, query: Option<&str>, disable_diffing: bool) -> Budget {
    Budget {
        limit: limit as usize,
        query: query.map(String::from),
        disable_diffing,
        ..Budget::default()
    }
}

/// Walks an app and records the observation in the session's snapshots.
pub(in crate::dispatch) async fn snapshot_app(
    ctx: &Ctx,
    d: &Desktop,
    pid: u32,
    scope: Option<&El>,
    window_title: Option<&str>,
    max_depth: u16,
    budget: &Budget,
) -> Result<View, DaemonError> {
    let started = Instant::now();
    let key = format!("app:{pid}");
    // A snapshot that will be diffed may reuse the last walk of an unchanged app; one with
    // diffing disabled always walks afresh.
    let reuse = !budget.disable_diffing;
    let observed = match d.observe_app(pid, scope, window_title, max_depth, reuse).await {
        Ok(o) => o,
        Err(e @ crate::desktop::Error::NotFound { .. }) => {
            // The app is gone: its refs go stale with the reason.
            if let Ok(mut snaps) = ctx.session.snapshots.lock() {
                snaps.invalidate(&key, "the app exited");
            }
            return Err(e.into());
        }
        Err(e) => return Err(e.into()),
    };
    // A snapshot scoped to a subtree (a menu) lists all of it.
    let nodes = match scope {
        Some(_) => crate::desktop::nodes_unfolded(&observed.elems),
        None => crate::desktop::nodes(&observed.elems),
    };
    let mut snaps = ctx
        .session
        .snapshots
        .lock()
        .map_err(|_| DaemonError::Poisoned("the session's snapshot registry"))?;
    // A subtree or one window of the app is a view: refs of the rest keep resolving.
    let scope = match (scope, window_title) {
        (Some(e), _) => Scope::Subtree(e.label.as_str()),
        (None, Some(w)) => Scope::Window(w),
        (None, None) => Scope::Whole,
    };
    let mut view = snaps.record(&key, scope, &nodes, budget);
    view.warnings = observed.warnings;
    tracing::debug!(
        pid,
        nodes = nodes.len(),
        ms = started.elapsed().as_millis() as u64,
        "desktop snapshot"
    );
    Ok(view)
}

pub(super) async fn take_snapshot(
    ctx: &Ctx,
    d: &Desktop,
    t: &Target,
    o: &Outline<'_>,
) -> Result<View, DaemonError> {
    let b = &o.budget;
    let scope = element_opt(ctx, t, o.scope_ref)?;
    match t.pid {
        Some(pid) => {
            let depth = o.max_depth.unwrap_or(60) as u16;
            snapshot_app(ctx, d, pid, scope.as_ref(), t.window_title.as_deref(), depth, b).await
        }
        None => {
            let depth = o.max_depth.unwrap_or(3) as u16;
            let observed = d.observe_desktop(depth).await?;
            let nodes = crate::desktop::nodes(&observed.elems);
            let mut snaps = ctx
                .session
                .snapshots
                .lock()
                .map_err(|_| DaemonError::Poisoned("the session's snapshot registry"))?;
            let mut view = snaps.record("desktop", Scope::Whole, &nodes, b);
            view.warnings = observed.warnings;
            Ok(view)
        }
    }
}

pub(super) async fn snapshot(
    ctx: Ctx,
    p: computer::Snapshot,
) -> Result<Output<results::Snapshot>, DaemonError> {
    let d = desktop(&ctx)?;
    let budget = budget(p.limit, p.query.as_deref(), p.disable_diffing);
    if let Some(cursor) = &p.cursor {
        let snaps = ctx
            .session
            .snapshots
            .lock()
            .map_err(|_| DaemonError::Poisoned("the session's snapshot registry"))?;
        let outline = snaps.continue_from(cursor, &budget)?.into();
        return Ok(Output::new(results::Snapshot { outline, elapsed_ms: None }));
    }
    let t = target(&ctx, &d, &p.common).await?;
    let started = Instant::now();
    let o = Outline { budget, scope_ref: p.scope_ref.as_deref(), max_depth: p.max_depth };
    let outline = take_snapshot(&ctx, &d, &t, &o).await?.into();
    let elapsed_ms = Some(started.elapsed().as_millis() as u64);
    Ok(out(&t, results::Snapshot { outline, elapsed_ms }))
}

/// `wait`: a fixed pause, or until an element appears/disappears or a window opens.
pub(super) async fn wait(
    ctx: Ctx,
    p: computer::Wait,
) -> Result<Output<results::Wait>, DaemonError> {
    let Some(until) = p.until else {
        // The contract gives a wait without until its duration_ms.
        let waited_ms = wait::pause(&ctx, p.duration_ms.unwrap_or_default()).await?;
        return Ok(Output::new(results::Wait { waited_ms, ..results::Wait::default() }));
    };
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let query = p.query.as_deref().unwrap_or_default().to_lowercase();
    let timeout = Duration::from_millis(u64::from(p.timeout.unwrap_or(30_000)));
    let deadline = (Instant::now() + timeout).min(ctx.op.deadline);
    let started = Instant::now();
    let words: Vec<&str> = query.split_whitespace().collect();
    let hit = |line: &str| {
        let l = line.to_lowercase();
        words.iter().all(|w| l.contains(w))
    };
    loop {
        let found = match until {
            Until::WindowOpens => d.windows().await?.iter().any(|w| hit(&w.title)),
            Until::ElementAppears | Until::ElementDisappears => {
                let observed = match t.pid {
                    Some(pid) => d.observe_app(pid, None, None, 60, true).await?,
                    None => d.observe_desktop(8).await?,
                };
                let nodes = crate::desktop::nodes_unfolded(&observed.elems);
                let present = nodes.iter().any(|n| hit(&format!("{} {}", n.head, n.tail)));
                present == (until == Until::ElementAppears)
            }
        };
        if found {
            return Ok(out(
                &t,
                results::Wait {
                    until: Some(until.as_str().into()),
                    query: Some(query),
                    happened: Some(true),
                    waited_ms: started.elapsed().as_millis() as u64,
                },
            ));
        }
        if Instant::now() >= deadline {
            return Err(DaemonError::Timeout { ms: timeout.as_millis() as u64 });
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(100)) => {}
            _ = ctx.op.cancel.cancelled() => return Err(DaemonError::Cancelled),
        }
    }
}
