//! Snapshots and refs, shared by both backends: every session keeps its own ref namespace per
//! target, refs survive for elements whose key did not change, and a ref resolves only while
//! its snapshot's target has not been invalidated (navigation, reload, app exit).
//!
//! Backends describe a tree as [`Node`]s keyed by something stable for the element's life
//! (`w<context>:<serial>` in a page, `<frame>/w<context>:<serial>` in a cross-site frame,
//! `<bus>|<path>` on AT-SPI, `<n>@<bus>|<path>` after its bus came back); this module
//! assigns refs, renders lines, diffs against the previous snapshot (`diff.rs`), selects the
//! lines of a query (`select.rs`) and pages the output.
//!
//! A snapshot with `query`, `scope_ref` or of one window is a view: it is not the baseline
//! the next plain snapshot diffs against, and refs of the target it does not show keep
//! resolving (its refs are those of the snapshot before it plus its own).

mod diff;
mod page;
mod select;

use std::collections::HashMap;

use crate::error::DaemonError;
use diff::Print;
use page::{page, render};
pub use page::{Budget, View};

/// One element as a backend sees it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    /// Stable identity of the element for its life, unique within the target.
    pub key: String,
    /// Tree depth, 0 for the roots of the observation.
    pub depth: u16,
    /// `role "name"`: what comes before the ref on the line.
    pub head: String,
    /// Where it shows, `[x, y, width, height]` (CSS pixels in a page, screen pixels on the
    /// desktop): the line's `@x,y wxh`, first after the ref. A move under a few pixels is
    /// not a change.
    pub bbox: Option<[i64; 4]>,
    /// Everything after the box: value, states, actions.
    pub tail: String,
    /// It acts (a control, or a clickable): a query keeps the controls of a matching row.
    pub control: bool,
}

#[derive(Debug, Clone)]
struct Recorded {
    id: String,
    target: String,
    scope: Option<String>,
    /// ref -> node key, for every node of this snapshot (and, for a view, of the one before).
    refs: HashMap<String, String>,
    /// The rendered lines of the observation as returned (for cursors).
    lines: Vec<String>,
}

/// Per target: ref assignment survives snapshots; invalidation makes refs stale.
#[derive(Debug, Default)]
struct TargetRefs {
    by_key: HashMap<String, String>,
    next: u64,
    /// Fingerprints of the last observation per scope, by ref (for diffs).
    last: HashMap<String, HashMap<String, Print>>,
    /// Why refs of this target are stale, once it was invalidated, and the other session
    /// whose action did it.
    stale: Option<(String, Option<String>)>,
    /// Snapshot ids taken before the last invalidation are stale too.
    generation: u64,
}

impl TargetRefs {
    /// The ref of each node: its key's, or a new one.
    fn assign(&mut self, nodes: &[Node]) -> Vec<String> {
        // Keys of elements long gone are forgotten once they far outnumber the live ones (a
        // page that keeps replacing its content); such an element coming back gets a new ref.
        if self.by_key.len() > 4 * nodes.len() + 10_000 {
            let live: std::collections::HashSet<&str> =
                nodes.iter().map(|n| n.key.as_str()).collect();
            self.by_key.retain(|k, _| live.contains(k.as_str()));
        }
        nodes
            .iter()
            .map(|n| match self.by_key.get(&n.key) {
                Some(r) => r.clone(),
                None => {
                    self.next += 1;
                    let r = format!("e{}", self.next);
                    self.by_key.insert(n.key.clone(), r.clone());
                    r
                }
            })
            .collect()
    }

    /// What an observation shows (a query's lines, a diff against the last observation of
    /// `scope`, or all of it) and its rendered lines; it becomes the next diff's base.
    fn observe(
        &mut self,
        scope: Scope<'_>,
        nodes: &[Node],
        line_refs: &[String],
        refs: &HashMap<String, String>,
        budget: &Budget,
    ) -> (View, Vec<String>) {
        if budget.query.is_some() {
            // A query is never diffed: it shows what holds the words now.
            let (lines, matched) = select::select(nodes, line_refs, budget.query.as_deref());
            let mut v = page(&lines, 0, budget);
            v.full_because = Some("a query view is not diffed");
            v.query_match = Some(matched);
            (v, lines)
        } else {
            let lines: Vec<String> =
                nodes.iter().zip(line_refs).map(|(n, r)| render(n, r)).collect();
            let prints: HashMap<String, Print> =
                nodes.iter().zip(line_refs).map(|(n, r)| (r.clone(), Print::of(n))).collect();
            let previous = self.last.get(&scope.key());
            let v = match (previous, budget.disable_diffing) {
                (Some(prev), false) => {
                    let (v, kept) = diff::incremental(nodes, line_refs, refs, prints, prev, budget);
                    self.last.insert(scope.key(), kept);
                    v
                }
                (prev, _) => {
                    let mut v = page(&lines, 0, budget);
                    v.full_because = Some(if budget.disable_diffing {
                        "diffing disabled"
                    } else if prev.is_none() {
                        "no previous snapshot of this target in this session"
                    } else {
                        "target changed"
                    });
                    self.last.insert(scope.key(), prints);
                    v
                }
            };
            (v, lines)
        }
    }
}

/// A session's snapshots and refs.
#[derive(Debug, Default)]
pub struct Snapshots {
    targets: HashMap<String, TargetRefs>,
    recorded: Vec<(u64, Recorded)>,
    latest: HashMap<String, String>,
    seq: u64,
}

/// Keep at most this many snapshots per session (oldest dropped; their refs then mismatch).
const KEEP: usize = 32;

/// What a snapshot observed, beside the whole target: a subtree (`scope_ref`) or one window
/// of an app, named by a label for messages and diffs.
#[derive(Debug, Clone, Copy)]
pub enum Scope<'a> {
    Whole,
    Subtree(&'a str),
    Window(&'a str),
}

impl Scope<'_> {
    fn key(&self) -> String {
        match self {
            Scope::Whole => String::new(),
            Scope::Subtree(s) => s.to_string(),
            Scope::Window(w) => format!("window {w:?}"),
        }
    }
}

impl Snapshots {
    /// Record a new observation of `target` (the whole, a subtree or a window), assign refs
    /// and return the page the budget allows.
    pub fn record(
        &mut self,
        target: &str,
        scope: Scope<'_>,
        nodes: &[Node],
        budget: &Budget,
    ) -> View {
        self.seq += 1;
        let id = format!("s{}", self.seq);
        let view_kind = match (scope, &budget.query) {
            (_, Some(_)) => Some("query"),
            (Scope::Subtree(_), None) => Some("scope"),
            (Scope::Window(_), None) => Some("window"),
            (Scope::Whole, None) => None,
        };
        // A view's refs add to those of the snapshot it follows (same target, not stale).
        let before = self.latest_refs(target);
        let t = self.targets.entry(target.to_owned()).or_default();
        t.stale = None;
        let line_refs = t.assign(nodes);
        let mut refs: HashMap<String, String> = match (view_kind, before) {
            (Some(_), Some(b)) => b,
            _ => HashMap::new(),
        };
        refs.extend(line_refs.iter().cloned().zip(nodes.iter().map(|n| n.key.clone())));
        let generation = t.generation;

        let (mut view, lines) = t.observe(scope, nodes, &line_refs, &refs, budget);
        view.view = view_kind;
        view.snapshot_id = id.clone();
        view.ref_count = nodes.len();
        if let Some(c) = view.next_cursor.take() {
            view.next_cursor = Some(format!("{id}:{c}"));
        }
        let scope_label = match scope {
            Scope::Whole => None,
            _ => Some(scope.key()),
        };
        self.recorded.push((
            generation,
            Recorded { id: id.clone(), target: target.to_owned(), scope: scope_label, refs, lines },
        ));
        if self.recorded.len() > KEEP {
            self.recorded.remove(0);
        }
        self.latest.insert(target.to_owned(), id);
        view
    }

    /// Whether a plain snapshot of the whole `target` was read that the next one diffs
    /// against, and its refs still hold.
    pub fn has_baseline(&self, target: &str) -> bool {
        self.targets.get(target).is_some_and(|t| t.stale.is_none() && t.last.contains_key(""))
    }

    /// The refs of the latest snapshot of `target`, when they still hold.
    fn latest_refs(&self, target: &str) -> Option<HashMap<String, String>> {
        let id = self.latest.get(target)?;
        let t = self.targets.get(target)?;
        if t.stale.is_some() {
            return None;
        }
        let (generation, rec) = self.recorded.iter().rev().find(|(_, r)| r.id == *id)?;
        (*generation == t.generation).then(|| rec.refs.clone())
    }

    /// Record a full observation of `target` whose outline the caller does not see (it sees
    /// labels on an image): its refs resolve like any snapshot's, but the next snapshot still
    /// diffs against the last outline the caller read. Returns the snapshot id and, for each
    /// node key, its ref.
    pub fn record_unseen(
        &mut self,
        target: &str,
        nodes: &[Node],
    ) -> (String, HashMap<String, String>) {
        let seen = self.targets.get(target).and_then(|t| t.last.get("").cloned());
        let budget = Budget { limit: 0, ..Budget::default() };
        let view = self.record(target, Scope::Whole, nodes, &budget);
        let t = self.targets.entry(target.to_owned()).or_default();
        match seen {
            Some(prints) => t.last.insert(String::new(), prints),
            None => t.last.remove(""),
        };
        let refs = nodes
            .iter()
            .filter_map(|n| t.by_key.get(&n.key).map(|r| (n.key.clone(), r.clone())))
            .collect();
        (view.snapshot_id, refs)
    }

    /// Continue a paged snapshot from `cursor` (`<snapshot_id>:<line>`).
    pub fn continue_from(&self, cursor: &str, budget: &Budget) -> Result<View, DaemonError> {
        let bad = || {
            DaemonError::Contract(glovebox_protocol::contract::Violation::new(
                "cursor",
                "cursor must be a next_cursor returned by a snapshot of this session",
            ))
        };
        let (id, offset) = cursor.rsplit_once(':').ok_or_else(bad)?;
        let offset: usize = offset.parse().map_err(|_| bad())?;
        let rec = self.recorded.iter().map(|(_, r)| r).find(|r| r.id == id).ok_or_else(bad)?;
        let mut v = page(&rec.lines, offset, budget);
        v.mode = "continued";
        v.snapshot_id = rec.id.clone();
        v.ref_count = rec.refs.len();
        if let Some(c) = v.next_cursor.take() {
            v.next_cursor = Some(format!("{}:{c}", rec.id));
        }
        Ok(v)
    }

    /// The element key behind `r#ref` for `target`, checked against `snapshot_id` (or the
    /// session's latest snapshot of the target).
    pub fn resolve(
        &self,
        target: &str,
        r#ref: &str,
        snapshot_id: Option<&str>,
    ) -> Result<String, DaemonError> {
        let r = normalize_ref(r#ref);
        let latest = self.latest.get(target);
        let Some(latest) = latest else {
            return Err(DaemonError::NoSnapshot { target: target.to_owned() });
        };
        let t = self.targets.get(target);
        if let Some((reason, by)) = t.and_then(|t| t.stale.as_ref()) {
            let (reason, by) = (reason.clone(), by.clone());
            return Err(DaemonError::StaleRef { r#ref: r, reason, by });
        }
        let wanted = snapshot_id.unwrap_or(latest);
        let Some((generation, rec)) = self.recorded.iter().find(|(_, rec)| rec.id == wanted) else {
            return Err(DaemonError::SnapshotMismatch {
                r#ref: r,
                reason: format!("snapshot {wanted} is unknown or too old; take a new snapshot"),
            });
        };
        if rec.target != target {
            return Err(DaemonError::SnapshotMismatch {
                r#ref: r,
                reason: format!("snapshot {wanted} observed {}, not {target}", rec.target),
            });
        }
        if t.is_some_and(|t| t.generation != *generation) {
            return Err(DaemonError::StaleRef {
                r#ref: r,
                reason: format!(
                    "snapshot {wanted} was taken before the target changed; take a new snapshot"
                ),
                by: None,
            });
        }
        if wanted != latest.as_str() && snapshot_id.is_some() {
            // An older snapshot of the same target: allowed only if the ref did not change.
            let newest = self.recorded.iter().rev().find(|(_, x)| x.id == *latest).map(|(_, x)| x);
            let same = newest.and_then(|n| n.refs.get(&r)) == rec.refs.get(&r);
            if !same || !rec.refs.contains_key(&r) {
                return Err(DaemonError::SnapshotMismatch {
                    r#ref: r,
                    reason: format!("{wanted} is older than the latest snapshot {latest}; use refs from {latest}"),
                });
            }
        }
        rec.refs.get(&r).cloned().ok_or_else(|| DaemonError::StaleRef {
            reason: format!(
                "{r} is not in snapshot {wanted}{}",
                rec.scope.as_ref().map(|s| format!(" (scoped to {s})")).unwrap_or_default()
            ),
            r#ref: r,
            by: None,
        })
    }

    /// Make every ref of `target` stale, saying why (navigated, reloaded, app exited).
    pub fn invalidate(&mut self, target: &str, reason: &str) {
        self.invalidate_by(target, reason, None);
    }

    /// [`Snapshots::invalidate`], naming the other session whose action did it.
    pub fn invalidate_by(&mut self, target: &str, reason: &str, by: Option<&str>) {
        let t = self.targets.entry(target.to_owned()).or_default();
        t.stale = Some((reason.to_owned(), by.map(str::to_owned)));
        t.generation += 1;
        t.by_key.clear();
        t.last.clear();
    }

    /// The latest snapshot id of `target`, if any.
    pub fn latest(&self, target: &str) -> Option<&str> {
        self.latest.get(target).map(String::as_str)
    }
}

/// `e3`, `[e3]`, `ref=e3`, `[ref=e3]`, `E3` and `3` all mean `e3`.
pub fn normalize_ref(r: &str) -> String {
    let r = r.trim().trim_start_matches('[').trim_end_matches(']');
    let r = r.strip_prefix("ref=").unwrap_or(r).to_ascii_lowercase();
    if r.bytes().all(|b| b.is_ascii_digit()) && !r.is_empty() {
        format!("e{r}")
    } else {
        r
    }
}

#[cfg(test)]
mod tests;
