//! Incremental snapshots: the lines added (`+ `) or changed (`~ `) since the baseline, each
//! run of them under an `in ` line naming their nearest unchanged ancestor (role, name, ref),
//! so an added `link "Archive"` says where it is, and indented below it as the tree has them
//! (a dialog that opened keeps its shape). A box that moved or resized by less than
//! [`SLOP`] pixels is not a change, and `removed_refs` lists at most [`MAX_REMOVED`].

use std::collections::HashMap;

use super::{page, Budget, Node, View};

/// Geometry changes under this many pixels (per coordinate) are layout jitter, not changes.
pub const SLOP: i64 = 4;
/// The most removed refs a view lists; `removed_count` says how many went.
pub const MAX_REMOVED: usize = 50;

/// What a line looked like at the baseline: its text without the box, and the box.
#[derive(Debug, Clone, PartialEq)]
pub struct Print {
    text: String,
    bbox: Option<[i64; 4]>,
}

impl Print {
    pub fn of(n: &Node) -> Print {
        Print { text: format!("{}|{}|{}", n.depth, n.head, n.tail), bbox: n.bbox }
    }

    /// Changed since `before` in nothing but having the focus (the focus moving to the element
    /// an action acted on takes it from another).
    fn focus_only(&self, before: &Print) -> bool {
        let bare = |t: &str| {
            let t = t.replace(" (focused)", "").replace("(focused)", "");
            t.replace("focused, ", "").replace(", focused", "")
        };
        self.text != before.text
            && bare(&self.text) == bare(&before.text)
            && !Print { text: before.text.clone(), bbox: self.bbox }.differs(before)
    }

    /// Changed since `before`: its text, whether it has a box, or its box by SLOP or more.
    fn differs(&self, before: &Print) -> bool {
        if self.text != before.text {
            return true;
        }
        match (self.bbox, before.bbox) {
            (Some(a), Some(b)) => a.iter().zip(b).any(|(x, y)| (x - y).abs() >= SLOP),
            (a, b) => a.is_some() != b.is_some(),
        }
    }
}

/// The incremental view of `nodes` against `prev`, and the baseline to keep: the new prints,
/// except that a line that moved by less than SLOP keeps its old box (drift that adds up to
/// SLOP still shows).
pub fn incremental(
    nodes: &[Node],
    line_refs: &[String],
    refs: &HashMap<String, String>,
    mut prints: HashMap<String, Print>,
    prev: &HashMap<String, Print>,
    budget: &Budget,
) -> (View, HashMap<String, Print>) {
    let mut changed = Vec::new();
    let mut changed_keys = Vec::new();
    let mut focus_moved = Vec::new();
    let (mut added, mut updated, mut unchanged) = (0, 0, 0);
    // The lines that lead to the current one: (depth, index) of its ancestors.
    let mut path: Vec<(u16, usize)> = Vec::new();
    // The line the current run sits under (its `in` line) and the depth its lines indent
    // from; each printed line with the run it was printed in.
    let mut under: Option<usize> = None;
    let mut printed: HashMap<usize, (Option<usize>, u16)> = HashMap::new();
    for (i, (n, r)) in nodes.iter().zip(line_refs).enumerate() {
        while path.last().is_some_and(|(d, _)| *d >= n.depth) {
            path.pop();
        }
        let parent = path.last().map(|(_, j)| *j);
        path.push((n.depth, i));
        let now = &prints[r];
        let mark = match prev.get(r) {
            None => {
                added += 1;
                "+ "
            }
            Some(p) if now.differs(p) => {
                updated += 1;
                if now.focus_only(p) {
                    focus_moved.push(n.key.clone());
                }
                "~ "
            }
            Some(p) => {
                unchanged += 1;
                if now != p {
                    prints.insert(r.clone(), p.clone());
                }
                continue;
            }
        };
        // A run of changed lines says once where it sits, under its nearest unchanged
        // ancestor, and keeps the tree's shape below it: a line under a changed line of the
        // same run is indented under it.
        let base = match parent {
            Some(j) if printed.get(&j).is_some_and(|(run, _)| *run == under) => printed[&j].1,
            Some(j) => {
                if under != Some(j) {
                    changed.push(format!("in {} [{}]", nodes[j].head, line_refs[j]));
                    under = Some(j);
                }
                nodes[j].depth + 1
            }
            None => {
                under = None;
                n.depth
            }
        };
        let depth = n.depth.saturating_sub(base);
        changed.push(format!("{mark}{}", super::render(&Node { depth, ..n.clone() }, r)));
        changed_keys.push(n.key.clone());
        printed.insert(i, (under, base));
    }
    let mut v = summed(&changed, (added, updated, unchanged), refs, prev, budget);
    v.changed_keys = changed_keys;
    v.focus_moved = focus_moved;
    (v, prints)
}

/// The incremental page of the `changed` lines with its counts and the refs of `prev` gone
/// from `refs` (the first [`MAX_REMOVED`]).
fn summed(
    changed: &[String],
    (added, updated, unchanged): (usize, usize, usize),
    refs: &HashMap<String, String>,
    prev: &HashMap<String, Print>,
    budget: &Budget,
) -> View {
    let mut removed: Vec<String> =
        prev.keys().filter(|r| !refs.contains_key(*r)).cloned().collect();
    removed.sort_by_key(|r| r.trim_start_matches('e').parse::<u64>().unwrap_or(u64::MAX));
    let removed_count = removed.len();
    removed.truncate(MAX_REMOVED);
    let mut v = page(changed, 0, budget);
    v.mode = "incremental";
    v.next_cursor = None;
    if let Some(reason) = v.truncated_reason.take() {
        v.truncated_reason =
            Some(format!("{reason}; snapshot with disable_diffing pages the full outline"));
    }
    if added + updated == 0 {
        v.snapshot = if removed.is_empty() {
            "(no changes since the previous snapshot)\n".to_owned()
        } else {
            let more = removed_count - removed.len();
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            format!("(no added or updated elements; removed: {}{more})\n", removed.join(", "))
        };
        v.token_estimate = v.snapshot.len().div_ceil(4);
    }
    v.added = Some(added);
    v.updated = Some(updated);
    v.unchanged = Some(unchanged);
    v.removed_refs = removed;
    v.removed_count = Some(removed_count);
    v
}
