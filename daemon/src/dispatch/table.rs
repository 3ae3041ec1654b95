//! The one visible table from `tool.action` to its handler: one slice per module, one line
//! per action. Adding an action = one contract entry + one line in its module's slice.

use super::{browser, computer, context, context_browser, context_desktop, Handler};

pub type Entries = &'static [(&'static str, Handler)];

static TABLES: &[(&str, Entries)] = &[
    ("context", context::HANDLERS),
    ("context", context_desktop::HANDLERS),
    ("context", context_browser::HANDLERS),
    ("browser", browser::HANDLERS),
    ("computer", computer::HANDLERS),
];

fn entries(tool: &str) -> impl Iterator<Item = &'static (&'static str, Handler)> + '_ {
    TABLES.iter().filter(move |(t, _)| *t == tool).flat_map(|(_, e)| e.iter())
}

pub fn handler(tool: &str, action: &str) -> Option<Handler> {
    entries(tool).find(|(a, _)| *a == action).map(|(_, h)| *h)
}

/// The actions of `tool` this build can run (for `UNSUPPORTED` details and the docs).
pub fn implemented(tool: &str) -> Vec<String> {
    entries(tool).map(|(a, _)| (*a).to_owned()).collect()
}
