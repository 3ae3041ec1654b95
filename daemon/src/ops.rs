//! The op registry: every tool call runs as an op with an id, a deadline and a cancel token,
//! completed through a shared future; a re-sent `op_id` joins or replays it, never reruns it.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dashmap::DashMap;
use glovebox_protocol::error::ErrorData;
use glovebox_protocol::wire::{OpOutcome, OpState, OpStatus};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::error::DaemonError;

/// How long a finished op's outcome is kept for replays.
pub const RETENTION: Duration = Duration::from_secs(600);

pub type Outcome = Result<OpOutcome, ErrorData>;

#[derive(Debug)]
pub struct OpEntry {
    pub op_id: String,
    pub tool: &'static str,
    pub action: &'static str,
    /// What the call asked for, to refuse an op_id reused for something else.
    fingerprint: String,
    started: Instant,
    finished: Mutex<Option<Instant>>,
    cancel: CancellationToken,
    done: watch::Receiver<Option<Outcome>>,
}

impl OpEntry {
    pub async fn wait(&self) -> Outcome {
        let mut rx = self.done.clone();
        loop {
            if let Some(out) = rx.borrow_and_update().clone() {
                return out;
            }
            if rx.changed().await.is_err() {
                return Err(DaemonError::Cancelled.to_data());
            }
        }
    }

    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    pub fn status(&self) -> OpStatus {
        let out = self.done.borrow().clone();
        let (state, outcome, error) = match out {
            None => (OpState::Running, None, None),
            Some(Ok(o)) => (OpState::Succeeded, Some(o), None),
            Some(Err(e)) => {
                let state = match e.code {
                    glovebox_protocol::error::ErrorCode::Cancelled => OpState::Cancelled,
                    glovebox_protocol::error::ErrorCode::Timeout => OpState::TimedOut,
                    _ => OpState::Failed,
                };
                (state, None, Some(e))
            }
        };
        let end = self.finished.lock().ok().and_then(|f| *f).unwrap_or_else(Instant::now);
        OpStatus {
            op_id: self.op_id.clone(),
            tool: self.tool.to_owned(),
            action: self.action.to_owned(),
            state,
            elapsed_ms: end.duration_since(self.started).as_millis() as u64,
            outcome,
            error,
        }
    }

    /// Whether a call with `fingerprint` is the one this op runs (its op id is not reused).
    pub fn is_call(&self, fingerprint: &str) -> bool {
        self.fingerprint == fingerprint
    }

    fn finished_at(&self) -> Option<Instant> {
        self.finished.lock().ok().and_then(|f| *f)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// One running op in the count, until its outcome is out (or it never started).
struct Running(Arc<watch::Sender<usize>>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n -= 1);
    }
}

/// What `Ops::start` hands the op body.
pub struct OpContext {
    pub op_id: String,
    pub cancel: CancellationToken,
    pub deadline: Instant,
}

/// What names an op and bounds it, for [`Ops::start`].
pub struct OpSpec<'a> {
    pub session: &'a str,
    pub op_id: String,
    pub tool: &'static str,
    pub action: &'static str,
    /// What the call asked for: a re-sent op id must ask the same.
    pub fingerprint: String,
    pub timeout: Duration,
}

/// Whether the call started a new op or found one with its id.
pub enum Started {
    New(Arc<OpEntry>),
    Existing(Arc<OpEntry>),
}

type Key = (String, String);

#[derive(Debug)]
pub struct Ops {
    by_key: DashMap<Key, Arc<OpEntry>>,
    /// Finished ops in the order they finished, so a sweep drops the oldest without
    /// looking at the others (an op start stays O(1) however many outcomes are kept).
    finished: Arc<Mutex<VecDeque<(Instant, Key)>>>,
    minted: AtomicU64,
    /// Upper bound on kept entries; the oldest finished ones go first.
    max_entries: usize,
    /// Ops whose body has not finished yet.
    running: Arc<watch::Sender<usize>>,
    /// Set when the daemon drains: no new op starts (a known id still joins its op).
    closed: AtomicBool,
}

impl Ops {
    pub fn new(max_entries: usize) -> Self {
        Ops {
            by_key: DashMap::new(),
            finished: Arc::default(),
            minted: AtomicU64::new(0),
            max_entries,
            running: Arc::new(watch::Sender::new(0)),
            closed: AtomicBool::new(false),
        }
    }

    pub fn mint_id(&self) -> String {
        format!("op-{}", self.minted.fetch_add(1, Ordering::SeqCst) + 1)
    }

    pub fn get(&self, session: &str, op_id: &str) -> Option<Arc<OpEntry>> {
        self.by_key.get(&(session.to_owned(), op_id.to_owned())).map(|e| e.clone())
    }

    /// Start `body` as op `op_id` of `session`, or return the op that already has that id.
    /// `body` runs on its own task: a dropped connection does not stop it, the deadline and
    /// the cancel token do, and then its future is dropped so its guards release what it holds.
    /// `release` sees the outcome before anyone else (so keys are up before the answer goes
    /// out); `on_done` runs once the outcome is visible.
    pub fn start<F, Fut>(
        &self,
        spec: OpSpec<'_>,
        body: F,
        release: impl FnOnce(&Outcome) + Send + 'static,
        on_done: impl FnOnce(&OpEntry) + Send + 'static,
    ) -> Result<Started, DaemonError>
    where
        F: FnOnce(OpContext) -> Fut,
        Fut: Future<Output = Outcome> + Send + 'static,
    {
        let OpSpec { session, op_id, tool, action, fingerprint, timeout } = spec;
        self.sweep();
        let key = (session.to_owned(), op_id.clone());
        if let Some(existing) = self.by_key.get(&key) {
            if existing.fingerprint != fingerprint {
                return Err(DaemonError::OpIdReused(op_id));
            }
            return Ok(Started::Existing(existing.clone()));
        }
        // Counted before the check, so a drain that saw no op running sees this one refused.
        self.running.send_modify(|n| *n += 1);
        let running = Running(self.running.clone());
        if self.is_closed() {
            return Err(DaemonError::ShuttingDown);
        }
        let (tx, rx) = watch::channel(None);
        let cancel = CancellationToken::new();
        let entry = Arc::new(OpEntry {
            op_id: op_id.clone(),
            tool,
            action,
            fingerprint,
            started: Instant::now(),
            finished: Mutex::new(None),
            cancel: cancel.clone(),
            done: rx,
        });
        match self.by_key.entry(key.clone()) {
            dashmap::Entry::Occupied(e) => return Ok(Started::Existing(e.get().clone())),
            dashmap::Entry::Vacant(v) => {
                v.insert(entry.clone());
            }
        }
        let ctx = OpContext { op_id, cancel: cancel.clone(), deadline: Instant::now() + timeout };
        let fut = body(ctx);
        let task_entry = entry.clone();
        let finished = self.finished.clone();
        tokio::spawn(async move {
            let _running = running;
            let ms = timeout.as_millis() as u64;
            let run = tokio::spawn(fut);
            let abort = run.abort_handle();
            let out = tokio::select! {
                r = run => r.unwrap_or_else(|e| Err(DaemonError::ActionFailed(
                    format!("the op failed inside the daemon ({e}); nothing else was affected")).to_data())),
                _ = tokio::time::sleep(timeout) => { abort.abort(); Err(DaemonError::Timeout { ms }.to_data()) }
                _ = cancel.cancelled() => { abort.abort(); Err(DaemonError::Cancelled.to_data()) }
            };
            let now = Instant::now();
            if let Ok(mut f) = task_entry.finished.lock() {
                *f = Some(now);
            }
            lock(&finished).push_back((now, key));
            release(&out);
            let _ = tx.send(Some(out));
            on_done(&task_entry);
        });
        Ok(Started::New(entry))
    }

    /// Drop expired outcomes, and the oldest finished ones past the size bound. Running ops
    /// are never dropped.
    fn sweep(&self) {
        let now = Instant::now();
        let mut finished = lock(&self.finished);
        while let Some((at, _)) = finished.front() {
            let expired = now.duration_since(*at) > RETENTION;
            if !expired && self.by_key.len() <= self.max_entries {
                break;
            }
            let Some((at, key)) = finished.pop_front() else { break };
            // The key may name a newer op by now (an id re-used after its first was dropped).
            self.by_key.remove_if(&key, |_, e| e.finished_at() == Some(at));
        }
    }

    /// Start no new op from now on: [`Ops::start`] answers `ShuttingDown` (the daemon drains).
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
    }

    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Ops whose body is still running.
    pub fn running(&self) -> usize {
        *self.running.borrow()
    }

    /// Resolves once no op is running.
    pub async fn idle(&self) {
        let mut rx = self.running.subscribe();
        let _ = rx.wait_for(|n| *n == 0).await;
    }

    /// Cancel every running op (the drain's grace period is over).
    pub fn cancel_all(&self) {
        for e in self.by_key.iter() {
            e.cancel();
        }
    }

    /// Cancel every running op of a session (session.close).
    pub fn cancel_session(&self, session: &str) {
        for e in self.by_key.iter().filter(|e| e.key().0 == session) {
            e.cancel();
        }
    }

    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use glovebox_protocol::error::ErrorCode;
    use glovebox_protocol::wire::Timing;

    use super::*;

    fn outcome(op_id: String) -> OpOutcome {
        OpOutcome {
            op_id,
            tool: "computer".into(),
            action: "wait".into(),
            target: None,
            result: serde_json::Value::Null,
            settle: None,
            capture: None,
            no_capture: None,
            changes: None,
            tokens: None,
            timing: Timing { exec_ms: 0.0, settle_ms: 0.0, capture_ms: 0.0 },
        }
    }

    fn spec(id: &str) -> OpSpec<'static> {
        let (op_id, fingerprint) = (id.to_owned(), id.to_owned());
        let timeout = Duration::from_secs(5);
        OpSpec { session: "s", op_id, tool: "computer", action: "wait", fingerprint, timeout }
    }

    fn start<F>(ops: &Ops, id: &str, body: F) -> Arc<OpEntry>
    where
        F: Future<Output = Outcome> + Send + 'static,
    {
        let started = ops.start(spec(id), |_| body, |_| {}, |_| {});
        match started {
            Ok(Started::New(e) | Started::Existing(e)) => e,
            Err(e) => panic!("start failed: {e}"),
        }
    }

    #[tokio::test]
    async fn a_panicking_op_fails_alone() {
        let ops = Ops::new(16);
        let boom = start(&ops, "boom", async { panic!("a bug in one handler") });
        let fine = start(&ops, "fine", async { Ok(outcome("fine".into())) });
        let err = boom.wait().await.expect_err("the panic is an error");
        assert_eq!(err.code, ErrorCode::ActionFailed);
        assert!(err.message.contains("nothing else was affected"), "{}", err.message);
        assert!(fine.wait().await.is_ok(), "the other op is untouched");
        assert_eq!(boom.status().state, OpState::Failed);
    }

    #[tokio::test]
    async fn a_closed_registry_starts_nothing_new_and_waits_for_what_runs() {
        let ops = Ops::new(16);
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let long = start(&ops, "long", async move {
            let _ = rx.await;
            Ok(outcome("long".into()))
        });
        assert_eq!(ops.running(), 1);
        ops.close();
        let again = |id: &str| {
            let out = outcome(id.into());
            ops.start(spec(id), |_| async { Ok(out) }, |_| {}, |_| {})
        };
        assert!(matches!(again("new"), Err(DaemonError::ShuttingDown)), "nothing new starts");
        assert!(matches!(again("long"), Ok(Started::Existing(_))), "a known id still joins");
        assert_eq!(ops.running(), 1, "a refusal is not counted");
        let _ = tx.send(());
        tokio::time::timeout(Duration::from_secs(5), ops.idle()).await.expect("idle once it ends");
        assert!(long.wait().await.is_ok());
    }

    #[tokio::test]
    async fn the_oldest_finished_ops_go_first_and_running_ones_stay() {
        let ops = Ops::new(4);
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let running = start(&ops, "running", async move {
            let _ = rx.await;
            Ok(outcome("running".into()))
        });
        for i in 0..10 {
            let id = format!("done-{i}");
            let out = outcome(id.clone());
            start(&ops, &id, async move { Ok(out) }).wait().await.expect("done");
        }
        start(&ops, "last", async { Ok(outcome("last".into())) });
        assert!(ops.len() <= 5, "{} entries kept", ops.len());
        assert!(ops.get("s", "running").is_some(), "a running op is never dropped");
        assert!(ops.get("s", "done-0").is_none(), "the oldest finished op went first");
        assert!(ops.get("s", "done-9").is_some(), "the newest finished op is kept");
        let _ = tx.send(());
        assert!(running.wait().await.is_ok());
    }
}
