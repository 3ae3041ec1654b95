//! What the page listens to: the elements with pointer listeners of their own, as Chromium
//! knows them (`DOMDebugger.getEventListeners` over the whole document, every world), handed
//! to the snapshot walk in the daemon's world as `__glovebox.heard` (element -> event types).
//! The page's own world cannot be read from the daemon's, and a listener added with
//! `addEventListener` leaves no trace in the DOM; Chromium's list is the one that has them.
//!
//! The list with handlers costs Chromium about 40 ms on a page of 5,000 controls (it
//! describes every listener, inline handlers too), without them about 10 ms; it is read
//! again only when the document changed since (a MutationObserver in the world, on the
//! documents and shadow roots the walk met), or after `FRESH_MS`: pages add their listeners
//! as they render what they listen on.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::super::actions::Tab;
use super::super::{lock, BrowserError};

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
///
/// A first reading lists every listener with its handler (`pointer_nodes` leaves out inline
/// attribute handlers by their source: the walk reads the attribute, and a big page holds
/// thousands). Later readings list them without handlers, which costs Chromium a fifth as
/// much, and only the elements whose pointer listeners changed since are looked up again;
/// past `REREAD` changes it is a first reading again.
pub async fn mark(tab: &Tab, frame: Option<&str>, ctx: i64) -> Result<(), BrowserError> {
    let slot = frame.unwrap_or_default().to_owned();
    let expr = STALE.replace("FRESH_MS", &FRESH_MS.to_string());
    let doc = tab
        .cmd_in(frame, "Runtime.evaluate", json!({"expression": expr, "contextId": ctx}))
        .await?;
    let Some(doc) = doc["result"]["objectId"].as_str() else { return Ok(()) };
    let known = lock(&tab.watch.listened).get(&slot).filter(|(c, _)| *c == ctx).cloned();
    let out = match known {
        Some((_, before)) => again(tab, frame, ctx, doc, before).await,
        None => first(tab, frame, ctx).await,
    };
    let _ = tab.cmd_in(frame, "Runtime.releaseObject", json!({"objectId": doc})).await;
    let _ = tab.cmd_in(frame, "Runtime.releaseObjectGroup", json!({"objectGroup": GROUP})).await;
    match out {
        Ok(now) => {
            lock(&tab.watch.listened).insert(slot, (ctx, now));
            Ok(())
        }
        Err(e) => {
            lock(&tab.watch.listened).remove(&slot);
            // Read again next time.
            let dirty = "globalThis.__glovebox && (globalThis.__glovebox.dirty = true)";
            let _ = tab
                .cmd_in(frame, "Runtime.evaluate", json!({"expression": dirty, "contextId": ctx}))
                .await;
            Err(e)
        }
    }
}

/// Changes past this many elements call for a first reading again.
const REREAD: usize = 200;

/// The whole reading, handlers included; the pointer listeners it found, all of them.
async fn first(tab: &Tab, frame: Option<&str>, ctx: i64) -> Result<Heard, BrowserError> {
    let doc = tab
        .cmd_in(
            frame,
            "Runtime.evaluate",
            json!({"expression": "document", "contextId": ctx, "objectGroup": GROUP}),
        )
        .await?;
    let doc = doc["result"]["objectId"].as_str().unwrap_or_default();
    let listeners = read(tab, frame, doc).await?;
    let marked = pointer_nodes(&listeners, true);
    set(tab, frame, ctx, doc, &marked, true).await?;
    Ok(pointer_nodes(&listeners, false))
}

/// A reading without handlers, and the elements whose pointer listeners changed since
/// `before` marked again.
async fn again(
    tab: &Tab,
    frame: Option<&str>,
    ctx: i64,
    doc: &str,
    before: Heard,
) -> Result<Heard, BrowserError> {
    let now = pointer_nodes(&read(tab, frame, doc).await?, false);
    let mut changed: Heard = now
        .iter()
        .filter(|(n, k)| before.get(n) != Some(k))
        .map(|(n, k)| (*n, k.clone()))
        .collect();
    changed.extend(before.keys().filter(|n| !now.contains_key(n)).map(|n| (*n, Vec::new())));
    if changed.len() > REREAD {
        return first(tab, frame, ctx).await;
    }
    if !changed.is_empty() {
        set(tab, frame, ctx, doc, &changed, false).await?;
    }
    Ok(now)
}

/// Every listener of the document `doc` and what it holds (`pierce`: every world, shadow
/// roots and the frames this process draws); handlers only when `doc` is in an object group.
async fn read(tab: &Tab, frame: Option<&str>, doc: &str) -> Result<Vec<Value>, BrowserError> {
    let r = tab
        .cmd_in(
            frame,
            "DOMDebugger.getEventListeners",
            json!({"objectId": doc, "depth": -1, "pierce": true}),
        )
        .await?;
    Ok(r["listeners"].as_array().cloned().unwrap_or_default())
}

/// Hand `nodes` into the world: their pointer events (none: no longer listening); `fresh`
/// starts the marks over.
async fn set(
    tab: &Tab,
    frame: Option<&str>,
    ctx: i64,
    doc: &str,
    nodes: &Heard,
    fresh: bool,
) -> Result<(), BrowserError> {
    let resolves = nodes.keys().map(|id| {
        tab.cmd_in(
            frame,
            "DOM.resolveNode",
            json!({"backendNodeId": id, "executionContextId": ctx, "objectGroup": GROUP}),
        )
    });
    let resolved = futures::future::join_all(resolves).await;
    let mut args = vec![json!({"value": Value::Null}), json!({"value": fresh})];
    let mut types = Vec::new();
    for (r, kinds) in resolved.into_iter().zip(nodes.values()) {
        if let Some(id) = r.ok().as_ref().and_then(|r| r["object"]["objectId"].as_str()) {
            args.push(json!({"objectId": id}));
            types.push(kinds.join(" "));
        }
    }
    args[0] = json!({"value": types});
    let body = "function(types, fresh, ...nodes) { const G = globalThis.__glovebox; if (!G) return; \
                if (fresh || !G.heard) G.heard = new WeakMap(); \
                nodes.forEach((n, i) => types[i] ? G.heard.set(n, types[i]) : G.heard.delete(n)); }";
    tab.cmd_in(
        frame,
        "Runtime.callFunctionOn",
        json!({"functionDeclaration": body, "objectId": doc, "arguments": args}),
    )
    .await
    .map(|_| ())
}

/// Elements and the pointer events they listen to, by backend node id.
type Heard = BTreeMap<i64, Vec<String>>;

/// Backend node id -> the pointer events it listens to, from `getEventListeners`' answer;
/// listeners on no node (the window) left out, and with `skip_inline` inline attribute
/// handlers (known by the handler's source, which only a reading with handlers has).
fn pointer_nodes(listeners: &[Value], skip_inline: bool) -> Heard {
    let mut nodes = Heard::new();
    for l in listeners {
        let (Some(kind), Some(node)) = (l["type"].as_str(), l["backendNodeId"].as_i64()) else {
            continue;
        };
        if !POINTER.contains(&kind) || (skip_inline && inline_handler(l, kind)) {
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
        let listeners = [
            l("click", 5, "function onclick(event) {\nout.textContent='x'\n}"),
            l("click", 7, "(e) => go(e)"),
            l("mousedown", 7, "function down(e) {}"),
            l("click", 7, "function again() {}"),
            l("keydown", 9, "(e) => {}"),
            json!({"type": "click", "handler": {"description": "() => {}"}}),
            l("touchstart", 11, "function() {}"),
        ];
        let got = |skip| -> Vec<(i64, String)> {
            pointer_nodes(&listeners, skip).into_iter().map(|(k, v)| (k, v.join(" "))).collect()
        };
        assert_eq!(got(true), [(7, "click mousedown".to_owned()), (11, "touchstart".to_owned())]);
        // Without handlers (a later reading) inline ones cannot be told and stay.
        assert_eq!(got(false)[0], (5, "click".to_owned()));
    }
}
