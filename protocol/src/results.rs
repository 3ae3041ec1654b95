//! Typed results of every contract action, one item per action named as its params struct
//! (`results::browser::Click` answers `actions::browser::Click`), and the parts they share.
//!
//! A result serializes to exactly what the wire carries in an outcome's `result`; its JSON
//! Schema (schemars) is what OpenRPC, `context.documentation` and the committed schema files
//! give for the action. Fields absent on the wire when there is nothing to say are `Option`s
//! skipped when `None`; fields the wire sends as `null` are `Option`s always serialized.

pub mod browser;
pub mod computer;
pub mod context;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A page of a ref-annotated outline, as a snapshot action answers it (the browser's adds
/// the page's url and title, the desktop's its app and window).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Outline {
    /// Names this snapshot; refs resolve in the latest one unless a call names another.
    pub snapshot_id: String,
    /// `full`, `incremental` (only what changed since the previous one) or `continued`.
    pub mode: String,
    /// The outline: one line per node, refs as `[ref=eN]`.
    pub snapshot: String,
    /// How many refs the outline names.
    pub ref_count: usize,
    /// Lines in this page.
    pub lines: usize,
    /// Why the snapshot is full although diffing was possible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_because: Option<String>,
    /// Incremental: nodes added since the previous snapshot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub added: Option<usize>,
    /// Incremental: nodes changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<usize>,
    /// Incremental: nodes left out as unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unchanged: Option<usize>,
    /// The first 50 refs gone since the previous snapshot.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed_refs: Vec<String>,
    /// How many refs went, all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed_count: Option<usize>,
    /// A query view: `all`, `any` or `none` of the query's words matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query_match: Option<String>,
    /// `query`, `scope` or `window`: a view; the next plain snapshot diffs against the last
    /// plain one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<String>,
    /// More lines remain: continue with `next_cursor`.
    pub truncated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated_reason: Option<String>,
    /// Pass as `cursor` for the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Rough token count of `snapshot` (bytes / 4).
    pub token_estimate: usize,
    /// What the walk had to leave out; the outline holds what was read before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}
