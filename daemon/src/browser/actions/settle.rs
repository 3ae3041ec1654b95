//! Settling a tab after an action: every request started since the action over (the tab's
//! own, and those of its cross-site frames through their sessions), every timer and
//! animation frame the page scheduled since due within the cap done (`settle/work.rs`),
//! then no network activity and no DOM mutation (in the tab and in its cross-site frames) for
//! the quiet window; or the cap. That is what an outline needs. A capture also needs the
//! page's animations ended and a painted frame: `Settling::wait(true)`, at once or after
//! the lean wait once a capture turns out to be needed.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::GetFrameTreeParams;
use chromiumoxide::cdp::js_protocol::runtime::EvaluateReturns;
use serde_json::Value;

use super::trace::ActionTrace;
use super::Tab;
use crate::browser::settle::{instrument, trace, work, Report, WORK_HORIZON};

/// The ms since the last DOM mutation in this world, watched from the first call on (a
/// MutationObserver kept on the world until `DOM_STOP`); `since` ms are taken as quiet
/// already on the first call (the time since the action ended).
fn dom_idle_js(since: u128) -> String {
    format!(
        "(() => {{ const g = globalThis.__glovebox; if (!g) return {{noworld: true}}; \
         if (!g.settle) {{ const s = g.settle = {{last: performance.now() - {since}}}; \
           s.mo = new MutationObserver(() => {{ s.last = performance.now(); }}); \
           s.mo.observe(document, {{subtree: true, childList: true, attributes: true, \
             characterData: true}}); }} \
         return performance.now() - g.settle.last; }})()\n//# sourceURL={}",
        instrument::OWN_URL
    )
}

const DOM_STOP: &str = "(() => { const g = globalThis.__glovebox; \
    if (g && g.settle) { g.settle.mo.disconnect(); g.settle = null; } return true; })()";

/// Two animation frames when visible, so what changed is painted (a tab that paints no frame
/// within 500 ms is taken as it is).
fn painted_js() -> String {
    format!(
        "new Promise(res => {{ if (document.visibilityState !== 'visible') return res(true); \
         requestAnimationFrame(() => requestAnimationFrame(() => res(true))); \
         setTimeout(() => res(true), 500); }})\n//# sourceURL={}",
        instrument::OWN_URL
    )
}

impl Tab {
    /// After an action that skips its settle (`capture: false`): waits only until the
    /// requests it set off since `since` are done and the network was quiet for `quiet` after
    /// `ended` (a download or a blocked load is known by then), or until `cap`. No timers,
    /// no DOM, no instrumentation. True when quiet.
    pub async fn requests_quiet(
        &self,
        since: Instant,
        ended: Instant,
        quiet: Duration,
        cap: Instant,
    ) -> bool {
        let net = &self.watch.net;
        let mut ticks = net.ticks();
        loop {
            ticks.borrow_and_update();
            let now = Instant::now();
            let n = net.busy_since(since, now);
            if self.dialog().is_some() {
                return true;
            }
            if now >= cap {
                return false;
            }
            let wake = if n.busy.is_empty() {
                let quiet_at = n.last.unwrap_or(ended).max(ended) + quiet;
                if quiet_at <= now {
                    return true;
                }
                quiet_at
            } else {
                n.frame_deadline.unwrap_or(cap)
            };
            let _ = tokio::time::timeout_at(wake.min(cap).into(), ticks.changed()).await;
        }
    }

    /// Waits until the tab is settled after an action that ran from `since` to `ended`
    /// (requests and timers it set off count; `trace`: the trace of its input), painted
    /// too, or until `cap`.
    pub async fn settle(
        &self,
        since: Instant,
        ended: Instant,
        quiet: Duration,
        cap: Instant,
        trace: Option<ActionTrace>,
    ) -> Report {
        let mut s = self.clone().settle_begin(Span { since, ended, quiet, cap }, trace).await;
        s.wait(true).await;
        s.end().await
    }

    /// Starts a settle: the instrumentation armed, the input's trace read in the background,
    /// the mutation watch of every world on. [`Settling::wait`] waits, [`Settling::end`]
    /// takes it all down.
    pub async fn settle_begin(self, span: Span, trace: Option<ActionTrace>) -> Settling {
        // Scheduled work counts when due within the cap and `WORK_HORIZON` of the action (a
        // navigation's cap is 10 s; a page's own 5 s timer at load is not the action's).
        let horizon = span.cap.min(span.since + WORK_HORIZON);
        // No input is sent from here on: the page may be paused for a moment.
        self.watch.instrument.arm().await;
        let traced = trace
            .filter(|t| t.conn().browser_id == self.browser_id)
            .map(|t| self.read_trace(t, span.since));
        let frames: Vec<String> = match self.conn.frame_tree(&self.target_id).await {
            Ok(t) => t.into_iter().map(|(f, _)| f).collect(),
            Err(_) => Vec::new(),
        };
        // In case a frame's target came before its document request was seen starting.
        for f in &frames {
            self.watch.net.handed_over(f);
        }
        // The mutation watch starts now, so what changes while the trace is read counts.
        let from = Instant::now().saturating_duration_since(span.ended).as_millis();
        let _ = self.dom_idle(&frames, from, span.cap).await;
        let stamp = self.watch.net.stamp();
        let report = Report::default();
        Settling { tab: self, span, horizon, frames, traced, armed: true, stamp, report }
    }

    /// Ends the input's trace in the background and hands what it saw to the tab's work.
    fn read_trace(&self, trace: ActionTrace, since: Instant) -> tokio::task::JoinHandle<()> {
        let work = self.watch.work.clone();
        let page = self.page().clone();
        let target = self.target_id.clone();
        tokio::spawn(async move {
            let mut frames = std::collections::HashSet::from([target]);
            let tree = page.execute(GetFrameTreeParams::default()).await;
            if let Ok(tree) = tree {
                crate::browser::cdp::guard::frame_ids(&tree.result.frame_tree, &mut frames);
            }
            let (events, asked) = trace.finish().await;
            let (installs, last) = trace::installs(&events, &frames);
            for t in installs {
                let ago = Duration::from_micros(last.saturating_sub(t.at_us).max(0) as u64);
                let at = asked.checked_sub(ago).unwrap_or(since).max(since);
                work.traced(&t, at);
            }
        })
    }

    /// The shortest time since the last DOM mutation over the tab's world and its cross-site
    /// frames' (a frame whose world is gone counts as quiet); `None` when the tab's own world
    /// could not answer.
    async fn dom_idle(&self, frames: &[String], from: u128, cap: Instant) -> Option<Duration> {
        let js = dom_idle_js(from);
        let ask = |frame: Option<String>| {
            let js = js.clone();
            async move {
                let r = tokio::time::timeout_at(cap.into(), self.world_eval(frame.as_deref(), &js));
                match r.await {
                    Ok(Ok((_, v))) => ms_of(&v),
                    _ => None,
                }
            }
        };
        let own = ask(None);
        let others = futures::future::join_all(frames.iter().cloned().map(|f| ask(Some(f))));
        let (own, others) = futures::join!(own, others);
        let idle = others.into_iter().flatten().fold(own?, f64::min);
        Some(Duration::from_secs_f64(idle.max(0.0) / 1000.0))
    }

    /// Stops the mutation watch of the worlds (best effort: a world gone took it along).
    async fn dom_stop(&self, frames: &[String]) {
        let stop = |frame: Option<String>| async move {
            let r = self.world_eval(frame.as_deref(), DOM_STOP);
            let _ = tokio::time::timeout(Duration::from_millis(200), r).await;
        };
        let all = std::iter::once(None).chain(frames.iter().cloned().map(Some));
        futures::future::join_all(all.map(stop)).await;
    }
}

/// When an action ran and how its settle waits: activity since `since` counts, quiet is
/// measured from `ended`, for `quiet`, until `cap`.
#[derive(Debug, Clone, Copy)]
pub struct Span {
    pub since: Instant,
    pub ended: Instant,
    pub quiet: Duration,
    pub cap: Instant,
}

/// How waiting for the page's quiet ended.
enum Idle {
    Quiet,
    /// A JavaScript dialog is open: the final state, nothing paints behind it.
    Dialog,
    Cap,
}

/// A tab's settle under way ([`Tab::settle_begin`]).
pub struct Settling {
    tab: Tab,
    span: Span,
    horizon: Instant,
    frames: Vec<String>,
    traced: Option<tokio::task::JoinHandle<()>>,
    armed: bool,
    /// The network's stamp when the DOM was last seen quiet.
    stamp: u64,
    report: Report,
}

impl Settling {
    /// Waits until what the page's next outline needs is done: the requests, timers and
    /// animation frames the action set off, and the DOM quiet for the quiet window in every
    /// world. `paint`: its animations ended and a frame painted too (what a capture needs),
    /// else the instrumentation is taken down meanwhile, so reading the page pauses
    /// nothing. True when quiet, false at the cap.
    pub async fn wait(&mut self, paint: bool) -> bool {
        if !self.armed {
            self.tab.watch.instrument.arm().await;
            self.armed = true;
        }
        let quiet = loop {
            match self.idle(paint).await {
                Idle::Cap => break false,
                Idle::Dialog => break true,
                Idle::Quiet if !paint => break true,
                Idle::Quiet => {}
            }
            if self.painted().await {
                break true;
            }
            // Something woke up meanwhile (a request, a timer due): wait for it too.
            self.tab.watch.instrument.arm().await;
            self.armed = true;
        };
        if self.armed && !paint {
            self.tab.watch.instrument.disarm().await;
            self.armed = false;
        }
        self.report.quiet = quiet;
        quiet
    }

    /// What the wait covered so far.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// Ends the settle: the instrumentation disarmed, the mutation watch stopped; what the
    /// wait covered.
    pub async fn end(self) -> Report {
        if self.armed {
            self.tab.watch.instrument.disarm().await;
        }
        // A trace still being read finishes on its own (bounded), so the browser's tracing
        // is over for the next action.
        drop(self.traced);
        self.tab.dom_stop(&self.frames).await;
        self.report
    }

    /// Waits until no request, no scheduled work (`paint`: nor animation) is left and the
    /// DOM was quiet for the quiet window, or a dialog opened, or the cap.
    async fn idle(&mut self, paint: bool) -> Idle {
        let (net, work) = (self.tab.watch.net.clone(), self.tab.watch.work.clone());
        let (mut ticks, mut wticks) = (net.ticks(), work.ticks());
        let Span { since, ended, quiet, cap } = self.span;
        loop {
            let now = Instant::now();
            let n = net.busy_since(since, now);
            let mut w = work.pending(since, now, self.horizon);
            if paint {
                w.busy.append(&mut w.painting);
            }
            self.note(&n, &w);
            if self.tab.dialog().is_some() {
                return Idle::Dialog;
            }
            let tracing = self.traced.as_ref().is_some_and(|t| !t.is_finished());
            if now >= cap {
                self.report.busy = n.busy.iter().map(|u| format!("request {u}")).collect();
                self.report.busy.extend(w.busy.iter().map(|(what, _)| what.clone()));
                if tracing {
                    self.report.busy.push("the input's trace".into());
                }
                return Idle::Cap;
            }
            ticks.borrow_and_update();
            wticks.borrow_and_update();
            let wake = if !n.busy.is_empty() {
                Some(n.frame_deadline.unwrap_or(cap))
            } else if tracing {
                Some((now + Duration::from_millis(5)).min(cap))
            } else if let Some(due) = w.busy.iter().map(|(_, due)| *due + work::LATE).min() {
                Some(due)
            } else {
                n.last.max(w.last).map(|t| t + quiet).filter(|t| *t > now)
            };
            // Nothing scheduled is left: the DOM must be quiet too, in every world.
            let wake = match wake {
                Some(wake) => wake,
                None => {
                    self.stamp = net.stamp();
                    let from = now.saturating_duration_since(ended).as_millis();
                    match self.tab.dom_idle(&self.frames, from, cap).await {
                        Some(idle) if idle >= quiet => return Idle::Quiet,
                        Some(idle) => now + (quiet - idle),
                        None if now >= cap => continue,
                        // The document went away under the script (a navigation): again in
                        // the new one.
                        None => now + Duration::from_millis(20),
                    }
                }
            };
            tokio::select! {
                _ = ticks.changed() => {}
                _ = wticks.changed() => {}
                _ = tokio::time::sleep_until(wake.min(cap).into()) => {}
            }
        }
    }

    /// What the wait covers so far, into the report.
    fn note(&mut self, n: &crate::browser::settle::net::Busy, w: &work::Pending) {
        let r = &mut self.report;
        (r.timers, r.animations, r.requests) = (w.timers, w.animations, n.started);
        r.ignored.clone_from(&w.ignored);
        r.frames_loading.clone_from(&n.frames_loading);
    }

    /// Two animation frames painted with nothing new started meanwhile.
    async fn painted(&mut self) -> bool {
        let (net, work) = (&self.tab.watch.net, &self.tab.watch.work);
        let (since, cap) = (self.span.since, self.span.cap);
        // The paint wait's own animation frames would pause the page: the breakpoints'
        // removal goes out first, the paint wait right behind it (one session's commands
        // run in order; a pause of the daemon's own frame would be resumed at once).
        let js = painted_js();
        let paint = tokio::time::timeout_at(cap.into(), self.tab.world_eval(None, &js));
        let ((), painted) = futures::join!(self.tab.watch.instrument.disarm(), paint);
        self.armed = false;
        let now = Instant::now();
        let w = work.pending(since, now, self.horizon);
        let still = !net.busy_since(since, now).busy.is_empty()
            || !w.busy.is_empty()
            || !w.painting.is_empty();
        painted.is_ok() && net.stamp() == self.stamp && !still
    }
}

fn ms_of(v: &EvaluateReturns) -> Option<f64> {
    v.result.value.as_ref().and_then(Value::as_f64)
}
