//! Snapshots and refs, shared by both backends: every session keeps its own ref namespace per
//! target, refs survive for elements whose key did not change, and a ref resolves only while
//! its snapshot's target has not been invalidated (navigation, reload, app exit).
//!
//! Backends describe a tree as [`Node`]s keyed by something stable for the element's life
//! (`<frame>:<backend node id>` in a page, `<bus name><object path>` on AT-SPI); this module
//! assigns refs, renders lines, diffs against the previous snapshot and pages the output.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::{json, Value};

use crate::error::DaemonError;

/// One element as a backend sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Stable identity of the element for its life, unique within the target.
    pub key: String,
    /// Tree depth, 0 for the roots of the observation.
    pub depth: u16,
    /// `role "name"`: what comes before the ref on the line.
    pub head: String,
    /// Everything after the ref: box, value, states, actions.
    pub tail: String,
}

/// How much of the outline to return, from the call's params.
#[derive(Debug, Clone)]
pub struct Budget {
    pub limit: usize,
    pub max_bytes: usize,
    pub query: Option<String>,
    pub disable_diffing: bool,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { limit: 300, max_bytes: 64 * 1024, query: None, disable_diffing: false }
    }
}

#[derive(Debug, Clone)]
struct Recorded {
    id: String,
    target: String,
    scope: Option<String>,
    /// ref -> node key, for every node of this snapshot.
    refs: HashMap<String, String>,
    /// The rendered lines of the full observation (for cursors).
    lines: Vec<String>,
}

/// Per target: ref assignment survives snapshots; invalidation makes refs stale.
#[derive(Debug, Default)]
struct TargetRefs {
    by_key: HashMap<String, String>,
    next: u64,
    /// Fingerprints of the last observation per scope, by ref (for diffs).
    last: HashMap<String, HashMap<String, String>>,
    /// Why refs of this target are stale, once it was invalidated.
    stale: Option<String>,
    /// Snapshot ids taken before the last invalidation are stale too.
    generation: u64,
}

/// A session's snapshots and refs.
#[derive(Debug, Default)]
pub struct Snapshots {
    targets: HashMap<String, TargetRefs>,
    recorded: Vec<(u64, Recorded)>,
    latest: HashMap<String, String>,
    seq: u64,
}

/// What `record` produced, ready to be the result of a snapshot action.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub snapshot_id: String,
    /// `full`, `incremental` or `continued`.
    pub mode: &'static str,
    pub snapshot: String,
    pub ref_count: usize,
    pub lines: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_because: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unchanged: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed_refs: Vec<String>,
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Rough token count of `snapshot` (bytes / 4).
    pub token_estimate: usize,
    /// What the walk had to leave out (an app that exited or stopped answering mid-walk);
    /// the snapshot holds what was read before.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Keep at most this many snapshots per session (oldest dropped; their refs then mismatch).
const KEEP: usize = 32;

impl Snapshots {
    /// Record a new observation of `target` (optionally of the subtree `scope`), assign refs
    /// and return the page the budget allows.
    pub fn record(
        &mut self,
        target: &str,
        scope: Option<&str>,
        nodes: &[Node],
        budget: &Budget,
    ) -> View {
        self.seq += 1;
        let id = format!("s{}", self.seq);
        let t = self.targets.entry(target.to_owned()).or_default();
        t.stale = None;
        let mut refs = HashMap::new();
        let mut lines = Vec::with_capacity(nodes.len());
        let mut line_refs = Vec::with_capacity(nodes.len());
        let mut prints = HashMap::new();
        // Keys of elements long gone are forgotten once they far outnumber the live ones (a
        // page that keeps replacing its content); such an element coming back gets a new ref.
        if t.by_key.len() > 4 * nodes.len() + 10_000 {
            let live: std::collections::HashSet<&str> =
                nodes.iter().map(|n| n.key.as_str()).collect();
            t.by_key.retain(|k, _| live.contains(k.as_str()));
        }
        for n in nodes {
            let r = match t.by_key.get(&n.key) {
                Some(r) => r.clone(),
                None => {
                    t.next += 1;
                    let r = format!("e{}", t.next);
                    t.by_key.insert(n.key.clone(), r.clone());
                    r
                }
            };
            let line = render(n, &r);
            prints.insert(r.clone(), format!("{}|{}|{}", n.depth, n.head, n.tail));
            refs.insert(r.clone(), n.key.clone());
            line_refs.push(r);
            lines.push(line);
        }
        let scope_key = scope.unwrap_or("").to_owned();
        let previous = t.last.insert(scope_key, prints.clone());
        let generation = t.generation;

        let mut view = match (previous, budget.disable_diffing) {
            (Some(prev), false) => incremental(&lines, &line_refs, &refs, &prints, &prev, budget),
            (prev, _) => {
                let mut v = page(&lines, 0, budget);
                v.full_because = Some(if budget.disable_diffing {
                    "diffing disabled"
                } else if prev.is_none() {
                    "no previous snapshot of this target in this session"
                } else {
                    "target changed"
                });
                v
            }
        };
        view.snapshot_id = id.clone();
        view.ref_count = refs.len();
        if let Some(c) = view.next_cursor.take() {
            view.next_cursor = Some(format!("{id}:{c}"));
        }
        self.recorded.push((
            generation,
            Recorded {
                id: id.clone(),
                target: target.to_owned(),
                scope: scope.map(String::from),
                refs,
                lines,
            },
        ));
        if self.recorded.len() > KEEP {
            self.recorded.remove(0);
        }
        self.latest.insert(target.to_owned(), id);
        view
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
        let view = self.record(target, None, nodes, &budget);
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
        if let Some(reason) = t.and_then(|t| t.stale.as_ref()) {
            return Err(DaemonError::StaleRef { r#ref: r, reason: reason.clone() });
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
        })
    }

    /// Make every ref of `target` stale, saying why (navigated, reloaded, app exited).
    pub fn invalidate(&mut self, target: &str, reason: &str) {
        let t = self.targets.entry(target.to_owned()).or_default();
        t.stale = Some(reason.to_owned());
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

/// One outline line: two spaces per level, what the element is, its ref in brackets, then
/// box, value and states. Lean on purpose: a big page has thousands of these.
fn render(n: &Node, r: &str) -> String {
    let indent = "  ".repeat(usize::from(n.depth));
    if n.tail.is_empty() {
        format!("{indent}{} [{r}]", n.head)
    } else {
        format!("{indent}{} [{r}] {}", n.head, n.tail)
    }
}

fn matches(line: &str, query: &Option<String>) -> bool {
    let Some(q) = query else { return true };
    let l = line.to_lowercase();
    q.split_whitespace().all(|w| l.contains(&w.to_lowercase()))
}

fn page(lines: &[String], offset: usize, budget: &Budget) -> View {
    let mut out = String::new();
    let mut taken = 0;
    let mut reason = None;
    let mut next = None;
    let selected: Vec<(usize, &String)> =
        lines.iter().enumerate().skip(offset).filter(|(_, l)| matches(l, &budget.query)).collect();
    for (i, (idx, line)) in selected.iter().enumerate() {
        if taken == budget.limit {
            reason = Some(format!(
                "limit {} reached; {} more lines remain",
                budget.limit,
                selected.len() - i
            ));
            next = Some(idx.to_string());
            break;
        }
        if out.len() + line.len() + 1 > budget.max_bytes {
            reason = Some(format!(
                "output byte budget ({} bytes) reached; {} more lines remain",
                budget.max_bytes,
                selected.len() - i
            ));
            next = Some(idx.to_string());
            break;
        }
        out.push_str(line);
        out.push('\n');
        taken += 1;
    }
    View {
        snapshot_id: String::new(),
        mode: "full",
        token_estimate: out.len().div_ceil(4),
        snapshot: out,
        ref_count: 0,
        lines: taken,
        full_because: None,
        added: None,
        updated: None,
        unchanged: None,
        removed_refs: Vec::new(),
        truncated: reason.is_some(),
        truncated_reason: reason,
        next_cursor: next,
        warnings: Vec::new(),
    }
}

fn incremental(
    lines: &[String],
    line_refs: &[String],
    refs: &HashMap<String, String>,
    prints: &HashMap<String, String>,
    prev: &HashMap<String, String>,
    budget: &Budget,
) -> View {
    let mut changed = Vec::new();
    let (mut added, mut updated, mut unchanged) = (0, 0, 0);
    for (line, r) in lines.iter().zip(line_refs) {
        let r = r.as_str();
        match prev.get(r) {
            None => {
                added += 1;
                changed.push(format!("+ {}", line.trim_start()));
            }
            Some(p) if Some(p) != prints.get(r) => {
                updated += 1;
                changed.push(format!("~ {}", line.trim_start()));
            }
            Some(_) => unchanged += 1,
        }
    }
    let mut removed: Vec<String> =
        prev.keys().filter(|r| !refs.contains_key(*r)).cloned().collect();
    removed.sort_by_key(|r| r.trim_start_matches('e').parse::<u64>().unwrap_or(u64::MAX));
    let mut v = page(&changed, 0, budget);
    v.mode = "incremental";
    v.next_cursor = None;
    if let Some(reason) = v.truncated_reason.take() {
        v.truncated_reason =
            Some(format!("{reason}; snapshot with disable_diffing pages the full outline"));
    }
    if changed.is_empty() {
        v.snapshot = if removed.is_empty() {
            "(no changes since the previous snapshot)\n".to_owned()
        } else {
            format!("(no added or updated elements; removed: {})\n", removed.join(", "))
        };
        v.token_estimate = v.snapshot.len().div_ceil(4);
    }
    v.added = Some(added);
    v.updated = Some(updated);
    v.unchanged = Some(unchanged);
    v.removed_refs = removed;
    v
}

impl View {
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_else(|_| json!({}))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(key: &str, depth: u16, head: &str) -> Node {
        Node { key: key.into(), depth, head: head.into(), tail: String::new() }
    }

    fn tree(names: &[(&str, &str)]) -> Vec<Node> {
        names.iter().map(|(k, h)| node(k, 1, h)).collect()
    }

    #[test]
    fn refs_are_stable_and_diffs_are_incremental() {
        let mut s = Snapshots::default();
        let b = Budget::default();
        let v1 = s.record(
            "tab:A",
            None,
            &tree(&[("1", "button \"Go\""), ("2", "textbox \"Name\"")]),
            &b,
        );
        assert_eq!(v1.mode, "full");
        assert_eq!(v1.snapshot, "  button \"Go\" [e1]\n  textbox \"Name\" [e2]\n");
        let v2 = s.record(
            "tab:A",
            None,
            &tree(&[("2", "textbox \"Name\""), ("3", "link \"Help\"")]),
            &b,
        );
        assert_eq!(v2.mode, "incremental");
        assert_eq!(v2.snapshot, "+ link \"Help\" [e3]\n");
        assert_eq!(v2.removed_refs, ["e1"]);
        assert_eq!((v2.added, v2.unchanged), (Some(1), Some(1)));
        let v3 = s.record(
            "tab:A",
            None,
            &tree(&[("2", "textbox \"Name\""), ("3", "link \"Help\"")]),
            &b,
        );
        assert_eq!(v3.snapshot, "(no changes since the previous snapshot)\n");
        assert_eq!(s.resolve("tab:A", "e2", None).expect("resolves"), "2");
        assert_eq!(s.resolve("tab:A", "[ref=E3]", None).expect("normalized"), "3");
    }

    #[test]
    fn an_unseen_recording_gives_refs_but_keeps_the_diff_baseline() {
        let mut s = Snapshots::default();
        let b = Budget::default();
        s.record("tab:A", None, &tree(&[("1", "button \"Go\"")]), &b);
        let now = tree(&[("1", "button \"Go\""), ("2", "link \"Help\"")]);
        let (id, refs) = s.record_unseen("tab:A", &now);
        assert_eq!(refs.get("2").map(String::as_str), Some("e2"));
        assert_eq!(s.latest("tab:A"), Some(id.as_str()));
        assert_eq!(s.resolve("tab:A", "e2", None).expect("resolves at once"), "2");
        let v = s.record("tab:A", None, &now, &b);
        assert_eq!(v.snapshot, "+ link \"Help\" [e2]\n", "the link was never read");
    }

    #[test]
    fn refs_fail_with_the_right_code() {
        let mut s = Snapshots::default();
        let b = Budget::default();
        assert!(matches!(s.resolve("tab:A", "e1", None), Err(DaemonError::NoSnapshot { .. })));
        let v1 = s.record("tab:A", None, &tree(&[("1", "button \"Go\"")]), &b);
        s.record("tab:B", None, &tree(&[("9", "button \"Other\"")]), &b);
        assert!(matches!(
            s.resolve("tab:B", "e1", Some(&v1.snapshot_id)),
            Err(DaemonError::SnapshotMismatch { .. })
        ));
        assert!(matches!(s.resolve("tab:A", "e7", None), Err(DaemonError::StaleRef { .. })));
        let v2 = s.record("tab:A", None, &tree(&[("5", "button \"New\"")]), &b);
        // e1 is gone in the newer snapshot: the old snapshot's ref no longer holds.
        assert!(matches!(
            s.resolve("tab:A", "e1", Some(&v1.snapshot_id)),
            Err(DaemonError::SnapshotMismatch { .. })
        ));
        assert!(s.resolve("tab:A", "e2", Some(&v2.snapshot_id)).is_ok());
        s.invalidate("tab:A", "the page navigated to http://x.test/");
        match s.resolve("tab:A", "e2", None) {
            Err(DaemonError::StaleRef { reason, .. }) => assert!(reason.contains("navigated")),
            other => panic!("{other:?}"),
        }
        // Another target's refs are untouched.
        assert!(s.resolve("tab:B", "e1", None).is_ok());
    }

    #[test]
    fn pages_follow_the_budget_and_continue() {
        let mut s = Snapshots::default();
        let nodes: Vec<Node> =
            (0..10).map(|i| node(&i.to_string(), 0, &format!("item \"n{i}\""))).collect();
        let b = Budget { limit: 4, ..Budget::default() };
        let v = s.record("app:1", None, &nodes, &b);
        assert!(v.truncated);
        assert_eq!(v.lines, 4);
        assert_eq!(v.truncated_reason.as_deref(), Some("limit 4 reached; 6 more lines remain"));
        let cursor = v.next_cursor.expect("cursor");
        let c = s.continue_from(&cursor, &b).expect("continues");
        assert_eq!(c.mode, "continued");
        assert!(c.snapshot.starts_with("item \"n4\" [e5]"));
        let q = Budget { query: Some("N7".into()), disable_diffing: true, ..Budget::default() };
        let v = s.record("app:1", None, &nodes, &q);
        assert_eq!(v.snapshot, "item \"n7\" [e8]\n");
        assert!(s.continue_from("bogus", &b).is_err());
    }
}
