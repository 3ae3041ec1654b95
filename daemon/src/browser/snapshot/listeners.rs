//! What the page listens to: the elements with pointer listeners of their own, as Chromium
//! knows them (`DOMDebugger.getEventListeners` over the whole document, every world), handed
//! to the snapshot walk in the daemon's world as `__glovebox.heard` (element -> event types).
//! The page's own world cannot be read from the daemon's, and a listener added with
//! `addEventListener` leaves no trace in the DOM; Chromium's list is the one that has them.
//!
//! The list costs Chromium about 40 ms on a page of 5,000 controls (it describes every
//! listener, inline handlers too), so it is read again only when the document changed since
//! (a MutationObserver in the world, on the documents and shadow roots the walk met), or
//! after `FRESH_MS`: pages add their listeners as they render what they listen on.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::super::actions::Tab;
use super::super::BrowserError;

/// The events that make an element something a pointer acts on.
const POINTER: &[&str] =
    &["click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "dblclick"];

/// The object group the call's handles live in, released at the end.
const GROUP: &str = "glovebox-listeners";

/// How long a reading stands for an unchanged document, in milliseconds.
const FRESH_MS: u32 = 5_000;

/// The document when its listeners are to be read (unchanged since the last reading within
/// `FRESH_MS`: null); the observer that tells is set up on the first call.
const STALE: &str = "(() => { const G = globalThis.__glovebox; if (!G) return null; \
    if (!G.lmo) { G.lmo = new MutationObserver(() => { G.dirty = true; }); G.lobs = new WeakSet(); \
      G.lobs.add(document); G.lmo.observe(document, {childList: true, subtree: true}); G.dirty = true; } \
    const now = performance.now(); \
    if (!G.dirty && G.heard && now - G.scanned < FRESH_MS) return null; \
    G.dirty = false; G.scanned = now; return document; })()";

/// Elements resolved into the world at most; past it the rest go unmarked (a bound on the
/// round trips one snapshot makes).
const MAX_NODES: usize = 2_000;

/// Mark in the world `ctx` of `frame` every element with a pointer listener of its own.
/// Inline attribute handlers (`onclick="…"`) are left out: the walk reads those from the
/// attribute itself, and a big page holds thousands of them.
pub async fn mark(tab: &Tab, frame: Option<&str>, ctx: i64) -> Result<(), BrowserError> {
    let out = heard(tab, frame, ctx).await;
    if !matches!(out, Ok(false)) {
        let _ =
            tab.cmd_in(frame, "Runtime.releaseObjectGroup", json!({"objectGroup": GROUP})).await;
    }
    out.map(|_| ())
}

/// Whether the listeners were read (false: the last reading stands).
async fn heard(tab: &Tab, frame: Option<&str>, ctx: i64) -> Result<bool, BrowserError> {
    let expr = STALE.replace("FRESH_MS", &FRESH_MS.to_string());
    let doc = tab
        .cmd_in(
            frame,
            "Runtime.evaluate",
            json!({"expression": expr, "contextId": ctx, "objectGroup": GROUP}),
        )
        .await?;
    let Some(doc) = doc["result"]["objectId"].as_str() else { return Ok(false) };
    // `pierce` reports the listeners of every world (the page's own included) and goes into
    // shadow roots and the frames this process draws.
    let r = tab
        .cmd_in(
            frame,
            "DOMDebugger.getEventListeners",
            json!({"objectId": doc, "depth": -1, "pierce": true}),
        )
        .await?;
    let nodes = pointer_nodes(r["listeners"].as_array().map(Vec::as_slice).unwrap_or_default());
    let resolves = nodes.keys().map(|id| {
        tab.cmd_in(
            frame,
            "DOM.resolveNode",
            json!({"backendNodeId": id, "executionContextId": ctx, "objectGroup": GROUP}),
        )
    });
    let resolved = futures::future::join_all(resolves).await;
    let mut args = vec![json!({"value": Value::Null})];
    let mut types = Vec::new();
    for (r, kinds) in resolved.into_iter().zip(nodes.values()) {
        if let Some(id) = r.ok().as_ref().and_then(|r| r["object"]["objectId"].as_str()) {
            args.push(json!({"objectId": id}));
            types.push(kinds.join(" "));
        }
    }
    args[0] = json!({"value": types});
    let body = "function(types, ...nodes) { const G = globalThis.__glovebox; if (!G) return; \
                G.heard = new WeakMap(); nodes.forEach((n, i) => G.heard.set(n, types[i])); }";
    let set = tab
        .cmd_in(
            frame,
            "Runtime.callFunctionOn",
            json!({"functionDeclaration": body, "objectId": doc, "arguments": args}),
        )
        .await;
    if set.is_err() {
        // Read again next time.
        let again = "globalThis.__glovebox && (globalThis.__glovebox.dirty = true)";
        let _ = tab
            .cmd_in(frame, "Runtime.evaluate", json!({"expression": again, "contextId": ctx}))
            .await;
    }
    set.map(|_| true)
}

/// Backend node id -> the pointer events it listens to, from `getEventListeners`' answer;
/// inline attribute handlers and listeners on no node (the window) left out.
fn pointer_nodes(listeners: &[Value]) -> BTreeMap<i64, Vec<String>> {
    let mut nodes: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for l in listeners {
        let (Some(kind), Some(node)) = (l["type"].as_str(), l["backendNodeId"].as_i64()) else {
            continue;
        };
        if !POINTER.contains(&kind) || inline_handler(l, kind) {
            continue;
        }
        if nodes.len() >= MAX_NODES && !nodes.contains_key(&node) {
            continue;
        }
        let kinds = nodes.entry(node).or_default();
        if !kinds.iter().any(|k| k == kind) {
            kinds.push(kind.to_owned());
        }
    }
    nodes
}

/// Whether a listener is the handler Chromium compiled from an `on<type>` attribute.
fn inline_handler(l: &Value, kind: &str) -> bool {
    let text = l["handler"]["description"].as_str().unwrap_or_default();
    text.starts_with(&format!("function on{kind}(event) {{"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_listeners_by_node_without_inline_handlers() {
        let l = |t: &str, n: i64, d: &str| json!({"type": t, "backendNodeId": n, "handler": {"description": d}});
        let nodes = pointer_nodes(&[
            l("click", 5, "function onclick(event) {\nout.textContent='x'\n}"),
            l("click", 7, "(e) => go(e)"),
            l("mousedown", 7, "function down(e) {}"),
            l("click", 7, "function again() {}"),
            l("keydown", 9, "(e) => {}"),
            json!({"type": "click", "handler": {"description": "() => {}"}}),
            l("touchstart", 11, "function() {}"),
        ]);
        let got: Vec<(i64, String)> = nodes.into_iter().map(|(k, v)| (k, v.join(" "))).collect();
        assert_eq!(got, [(7, "click mousedown".to_owned()), (11, "touchstart".to_owned())]);
    }
}
