//! What an action caused beyond its own answer, named in its result from the browser's effects
//! log: loads the policy blocked, tabs it opened, downloads it started and where its tab
//! navigated, so an agent without an event channel (an MCP client) still learns of them.

use serde_json::{json, Value};

use super::Output;
use crate::browser::effects::Effect;
use crate::browser::{Browsers, EffectsMark};

/// The browser and tab an action ran on, from its target.
pub(super) fn tab_of(out: &Output) -> Option<(String, String)> {
    let t = out.target.as_ref()?;
    Some((t["browser_id"].as_str()?.to_owned(), t["tab_id"].as_str()?.to_owned()))
}

/// The newest tab the action opened (it may have taken the front).
pub(super) fn opened_tab(b: &Browsers, mark: &EffectsMark, out: &Output) -> Option<String> {
    let (browser_id, tab_id) = tab_of(out)?;
    b.effects_since(mark, &browser_id, &tab_id)
        .into_iter()
        .filter(|e| matches!(e.effect, Effect::Opened { .. }))
        .filter_map(|e| e.tab_id)
        .rfind(|t| *t != tab_id)
}

/// Adds `navigation_blocked`, `opened_tabs`, `downloads` and `navigated_to` to the result of
/// a browser action on `tab` (browser id, tab id), each only when something of the kind
/// happened.
pub(super) fn name(b: &Browsers, mark: &EffectsMark, tab: &(String, String), out: &mut Output) {
    let (browser_id, tab_id) = tab;
    let (mut blocked, mut opened, mut downloads, mut navigated) = (vec![], vec![], vec![], None);
    for e in b.effects_since(mark, browser_id, tab_id) {
        match e.effect {
            Effect::Blocked { url, rule } => {
                blocked.push(json!({"url": url, "rule": rule, "tab_id": e.tab_id}));
            }
            Effect::Opened { url } if e.tab_id.as_deref() != Some(tab_id.as_str()) => {
                opened.push(json!({"tab_id": e.tab_id, "url": url}));
            }
            Effect::Download { url, path, state, bytes, reason, .. } => {
                let mut d = json!({"path": path, "url": url, "bytes": bytes, "state": state});
                if let Some(why) = reason {
                    d["reason"] = json!(why);
                }
                downloads.push(d);
            }
            Effect::Navigated { url } if e.tab_id.as_deref() == Some(tab_id.as_str()) => {
                navigated = Some(url)
            }
            _ => {}
        }
    }
    let Some(obj) = out.result.as_object_mut() else { return };
    let mut add = |k: &str, v: Vec<Value>| {
        if !v.is_empty() {
            obj.insert(k.into(), json!(v));
        }
    };
    add("navigation_blocked", blocked);
    add("opened_tabs", opened);
    add("downloads", downloads);
    if let Some(url) = navigated {
        obj.entry("navigated_to").or_insert(json!(url));
    }
}

/// The files a result names as downloaded (the session keeps them as its own).
pub(super) fn downloaded(out: &Output) -> Vec<std::path::PathBuf> {
    let list = out.result["downloads"].as_array();
    list.into_iter().flatten().filter_map(|d| d["path"].as_str()).map(Into::into).collect()
}
