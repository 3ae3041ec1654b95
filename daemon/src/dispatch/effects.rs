//! What an action caused beyond its own answer, named in its result: loads the browser's
//! guard blocked (a link into a denied host, a popup, a redirect), so an agent that has no
//! event channel still learns of them.

use serde_json::json;

use super::Output;
use crate::browser::{Browsers, EffectsMark};

/// Adds `navigation_blocked: [{url, rule, tab_id}]` to a browser action's result.
pub(super) fn name_blocked(b: &Browsers, mark: &EffectsMark, out: &mut Output) {
    let Some(target) = &out.target else { return };
    let (Some(browser_id), Some(tab_id)) =
        (target["browser_id"].as_str(), target["tab_id"].as_str())
    else {
        return;
    };
    let blocked = b.blocked_since(mark, browser_id, tab_id);
    if blocked.is_empty() {
        return;
    }
    if let Some(obj) = out.result.as_object_mut() {
        obj.insert("navigation_blocked".into(), json!(blocked));
    }
}
