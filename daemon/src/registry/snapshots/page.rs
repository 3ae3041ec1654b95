//! One page of an outline: how much a call asks for (`Budget`), its lines rendered and cut
//! to that (`View`), and the snapshot result's `Outline` it becomes.

use serde::Serialize;

use super::Node;

/// How much of the outline to return, from the call's params.
#[derive(Debug, Clone)]
pub struct Budget {
    pub limit: usize,
    pub max_bytes: usize,
    pub query: Option<String>,
    pub disable_diffing: bool,
}

/// The most bytes one page of an outline holds, whatever its line limit: room for the 5,000
/// lines `limit` allows of a big page in one answer (about 26 bytes a line, some longer).
const MAX_PAGE_BYTES: usize = 256 * 1024;

impl Default for Budget {
    fn default() -> Self {
        Budget { limit: 300, max_bytes: MAX_PAGE_BYTES, query: None, disable_diffing: false }
    }
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
    /// The first [`super::diff::MAX_REMOVED`] refs gone since the previous snapshot.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed_refs: Vec<String>,
    /// How many refs went, all of them (`removed_refs` lists at most the first 50).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_count: Option<usize>,
    /// A query view: `all` when lines held every word, `any` when none did and lines
    /// holding any word were returned instead, `none` when no line held any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_match: Option<&'static str>,
    /// `query`, `scope` or `window`: this snapshot is a view and the next plain snapshot
    /// still diffs against the last plain one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub view: Option<&'static str>,
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
    /// An incremental view's added and changed lines by their node keys (not on the wire:
    /// `capture: "auto"` judges where they are).
    #[serde(skip)]
    pub changed_keys: Vec<String>,
    /// Of those, the lines whose one change is having or losing the focus.
    #[serde(skip)]
    pub focus_moved: Vec<String>,
}

/// One outline line: two spaces per level, what the element is, its ref in brackets, then
/// box, value and states. Lean on purpose: a big page has thousands of these.
pub(super) fn render(n: &Node, r: &str) -> String {
    let mut line = "  ".repeat(usize::from(n.depth));
    line.push_str(&n.head);
    line.push_str(" [");
    line.push_str(r);
    line.push(']');
    if let Some([x, y, w, h]) = n.bbox {
        line.push_str(&format!(" @{x},{y} {w}x{h}"));
    }
    if !n.tail.is_empty() {
        line.push(' ');
        line.push_str(&n.tail);
    }
    line
}

pub(super) fn page(lines: &[String], offset: usize, budget: &Budget) -> View {
    let mut out = String::new();
    let mut taken = 0;
    let mut reason = None;
    let mut next = None;
    let rest = lines.len().saturating_sub(offset);
    for (i, line) in lines.iter().enumerate().skip(offset) {
        let left = rest - (i - offset);
        if taken == budget.limit {
            reason = Some(format!("limit {} reached; {left} more lines remain", budget.limit));
            next = Some(i.to_string());
            break;
        }
        if out.len() + line.len() + 1 > budget.max_bytes {
            reason = Some(format!(
                "output byte budget ({} bytes) reached; {left} more lines remain",
                budget.max_bytes
            ));
            next = Some(i.to_string());
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
        removed_count: None,
        query_match: None,
        view: None,
        truncated: reason.is_some(),
        truncated_reason: reason,
        next_cursor: next,
        warnings: Vec::new(),
        changed_keys: Vec::new(),
        focus_moved: Vec::new(),
    }
}

/// The view as a snapshot result's outline page.
impl From<View> for glovebox_protocol::results::Outline {
    fn from(v: View) -> Self {
        Self {
            snapshot_id: v.snapshot_id,
            mode: v.mode.into(),
            snapshot: v.snapshot,
            ref_count: v.ref_count,
            lines: v.lines,
            full_because: v.full_because.map(String::from),
            added: v.added,
            updated: v.updated,
            unchanged: v.unchanged,
            removed_refs: v.removed_refs,
            removed_count: v.removed_count,
            query_match: v.query_match.map(String::from),
            view: v.view.map(String::from),
            truncated: v.truncated,
            truncated_reason: v.truncated_reason,
            next_cursor: v.next_cursor,
            token_estimate: v.token_estimate,
            warnings: v.warnings,
        }
    }
}
