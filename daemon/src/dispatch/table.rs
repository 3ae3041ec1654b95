//! The one visible table from `tool.action` to its handler. Adding an action = one contract
//! entry + one line here.

use super::{context, wait, Handler};

static HANDLERS: &[(&str, &str, Handler)] = &[
    ("context", "documentation", context::documentation),
    ("context", "get_state", context::get_state),
    ("browser", "wait", wait::pause),
    ("computer", "wait", wait::pause),
];

pub fn handler(tool: &str, action: &str) -> Option<Handler> {
    HANDLERS.iter().find(|(t, a, _)| *t == tool && *a == action).map(|(_, _, h)| *h)
}

/// The actions of `tool` this build can run (for `UNSUPPORTED` details and the docs).
pub fn implemented(tool: &str) -> Vec<String> {
    HANDLERS.iter().filter(|(t, _, _)| *t == tool).map(|(_, a, _)| (*a).to_owned()).collect()
}
