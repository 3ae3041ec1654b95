//! What the page listens to: the elements with pointer listeners of their own, as Chromium
//! knows them (`DOMDebugger.getEventListeners` over the document and over each shadow root and
//! same-process frame document the walk met, every world), handed to the snapshot walk in the
//! daemon's world as `__glovebox.heard` (element -> event types).
//!
//! Each root is read on its own, never with `pierce`: Chromium's renderer (Debian's 14x)
//! sometimes dies on a null pointer while a pierced reading crosses a frame, and a dead
//! renderer answers nothing.
//! The page's own world cannot be read from the daemon's, and a listener added with
//! `addEventListener` leaves no trace in the DOM; Chromium's list is the one that has them.
//!
//! The list with handlers costs Chromium about 40 ms on a page of 5,000 controls (it
//! describes every listener, inline handlers too), without them about 10 ms; it is read
//! again only when the document changed since (a MutationObserver in the world, on the
//! documents and shadow roots the walk met), or after `FRESH_MS`: pages add their listeners
//! as they render what they listen on.

use std::collections::BTreeMap;

use chromiumoxide::cdp::browser_protocol::dom::{
    BackendNodeId, DescribeNodeParams, ResolveNodeParams,
};
use chromiumoxide::cdp::browser_protocol::dom_debugger::{EventListener, GetEventListenersParams};
use chromiumoxide::cdp::js_protocol::runtime::{
    CallArgument, CallFunctionOnParams, ExecutionContextId, GetPropertiesParams,
    ReleaseObjectGroupParams, ReleaseObjectParams,
};
use serde_json::json;

use super::super::actions::world::{evaluate, Answer};
use super::super::actions::Tab;
use super::super::{lock, BrowserError};

/// The events that make an element something a pointer acts on.
const POINTER: &[&str] =
    &["click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "dblclick"];

/// The object group the call's handles live in, released at the end.
const GROUP: &str = "glovebox-listeners";

/// How long a reading stands for an unchanged document, in milliseconds.
const FRESH_MS: u32 = 5_000;

/// Whether the listeners are to be read (not when the document is unchanged since the last
/// reading within `FRESH_MS`); the observer that tells is set up on the first call.
const STALE: &str = "(() => { const G = globalThis.__glovebox; if (!G) return false; \
    if (!G.lmo) { G.lmo = new MutationObserver(() => { G.dirty = true; }); G.lobs = new WeakSet(); \
      G.lobs.add(document); G.lmo.observe(document, {childList: true, subtree: true}); \
      G.dirty = true; } \
    const now = performance.now(); \
    if (!G.dirty && G.heard && now - G.scanned < FRESH_MS) return false; \
    G.dirty = false; G.scanned = now; return true; })()";

/// The roots to read: the document, then every open shadow root and same-process frame
/// document under it, depth first (at most `MAX_ROOTS`).
const ROOTS: &str = "(() => { const out = []; \
    const visit = (root) => { if (out.length >= MAX_ROOTS) return; out.push(root); \
      for (const el of root.querySelectorAll('*')) { \
        if (el.shadowRoot) visit(el.shadowRoot); \
        if (el.localName === 'iframe' || el.localName === 'frame') { \
          let d = null; try { d = el.contentDocument; } catch (e) {} if (d) visit(d); } } }; \
    visit(document); return out; })()";

/// Roots read at most in one snapshot (a bound on its round trips).
const MAX_ROOTS: usize = 256;

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
    let stale = tab.run_in(frame, evaluate(&expr, Some(ctx), Answer::Value)).await?;
    if stale.result.value != Some(json!(true)) {
        return Ok(());
    }
    let known = lock(&tab.watch.listened).get(&slot).filter(|(c, _)| *c == ctx).cloned();
    let out = match known {
        Some((_, before)) => again(tab, frame, ctx, before).await,
        None => first(tab, frame, ctx).await,
    };
    let _ = tab.run_in(frame, ReleaseObjectGroupParams::new(GROUP)).await;
    match out {
        Ok(now) => {
            lock(&tab.watch.listened).insert(slot, (ctx, now));
            Ok(())
        }
        Err(e) => {
            lock(&tab.watch.listened).remove(&slot);
            // Read again next time.
            let dirty = "globalThis.__glovebox && (globalThis.__glovebox.dirty = true)";
            let _ = tab.run_in(frame, evaluate(dirty, Some(ctx), Answer::Handle)).await;
            Err(e)
        }
    }
}

/// The roots to read: the document's handle in the daemon's world (to hand marks back), and
/// each root's handle in the page's own world (whose listeners a reading without `pierce`
/// reports): in `GROUP` when `grouped` (Chromium then describes each listener's handler),
/// else loose ones the caller releases.
async fn roots(
    tab: &Tab,
    frame: Option<&str>,
    ctx: i64,
    grouped: bool,
) -> Result<(String, Vec<String>), BrowserError> {
    let expr = ROOTS.replace("MAX_ROOTS", &MAX_ROOTS.to_string());
    let mut p = evaluate(&expr, Some(ctx), Answer::Handle);
    p.object_group = Some(GROUP.into());
    let list = tab.run_in(frame, p).await?;
    let list = list.result.object_id.unwrap_or_else(|| String::new().into());
    let mut p = GetPropertiesParams::new(list);
    p.own_properties = Some(true);
    let props = tab.run_in(frame, p).await?;
    let mut ours: Vec<(usize, String)> = props
        .result
        .into_iter()
        .filter_map(|p| {
            let i = p.name.parse().ok()?;
            Some((i, p.value?.object_id?.into()))
        })
        .collect();
    ours.sort();
    let doc = ours.first().map(|(_, id)| id.clone()).unwrap_or_default();
    let theirs = ours.iter().map(|(_, id)| async move {
        let describe =
            DescribeNodeParams { object_id: Some(id.clone().into()), ..Default::default() };
        let node = tab.run_in(frame, describe).await?.node;
        let p = ResolveNodeParams {
            backend_node_id: Some(node.backend_node_id),
            object_group: grouped.then(|| GROUP.to_owned()),
            ..Default::default()
        };
        let r = tab.run_in(frame, p).await?;
        Ok::<_, BrowserError>(r.object.object_id.map(String::from).unwrap_or_default())
    });
    let mut page = Vec::new();
    for (i, r) in futures::future::join_all(theirs).await.into_iter().enumerate() {
        match r {
            Ok(id) if !id.is_empty() => page.push(id),
            // The document must be read; a root that went away meanwhile has nothing to say.
            Err(e) if i == 0 => return Err(e),
            _ if i == 0 => return Err(BrowserError::NotReady("the document has no handle".into())),
            _ => {}
        }
    }
    Ok((doc, page))
}

/// Changes past this many elements call for a first reading again.
const REREAD: usize = 200;

/// The whole reading, handlers included; the pointer listeners it found, all of them.
async fn first(tab: &Tab, frame: Option<&str>, ctx: i64) -> Result<Heard, BrowserError> {
    let (doc, roots) = roots(tab, frame, ctx, true).await?;
    let listeners = read(tab, frame, &roots).await?;
    let marked = pointer_nodes(&listeners, true);
    set(tab, frame, ctx, &doc, &marked, true).await?;
    Ok(pointer_nodes(&listeners, false))
}

/// A reading without handlers, and the elements whose pointer listeners changed since
/// `before` marked again.
async fn again(
    tab: &Tab,
    frame: Option<&str>,
    ctx: i64,
    before: Heard,
) -> Result<Heard, BrowserError> {
    let (doc, roots) = roots(tab, frame, ctx, false).await?;
    let out = again_in(tab, frame, ctx, &doc, &roots, before).await;
    let releases = roots.iter().map(|id| tab.run_in(frame, ReleaseObjectParams::new(id.clone())));
    futures::future::join_all(releases).await;
    out
}

async fn again_in(
    tab: &Tab,
    frame: Option<&str>,
    ctx: i64,
    doc: &str,
    roots: &[String],
    before: Heard,
) -> Result<Heard, BrowserError> {
    let now = pointer_nodes(&read(tab, frame, roots).await?, false);
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

/// Every listener of the page's world under each root and what it holds; handlers only when
/// the roots are in an object group. A root's reading never crosses into a frame or a shadow
/// root: those are roots of their own.
async fn read(
    tab: &Tab,
    frame: Option<&str>,
    roots: &[String],
) -> Result<Vec<EventListener>, BrowserError> {
    let reads = roots.iter().map(|id| {
        let mut p = GetEventListenersParams::new(id.clone());
        p.depth = Some(-1);
        p.pierce = Some(false);
        tab.run_in(frame, p)
    });
    let mut all = Vec::new();
    for (i, r) in futures::future::join_all(reads).await.into_iter().enumerate() {
        match r {
            Ok(r) => all.extend(r.listeners),
            // The document must be read; a root that went away meanwhile has nothing to say.
            Err(e) if i == 0 => return Err(e),
            Err(_) => {}
        }
    }
    Ok(all)
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
        let p = ResolveNodeParams {
            backend_node_id: Some(BackendNodeId::new(*id)),
            execution_context_id: Some(ExecutionContextId::new(ctx)),
            object_group: Some(GROUP.into()),
            ..Default::default()
        };
        tab.run_in(frame, p)
    });
    let resolved = futures::future::join_all(resolves).await;
    let value = |v| CallArgument { value: Some(v), ..Default::default() };
    let mut args = vec![value(json!(null)), value(json!(fresh))];
    let mut types = Vec::new();
    for (r, kinds) in resolved.into_iter().zip(nodes.values()) {
        if let Some(id) = r.ok().and_then(|r| r.object.object_id) {
            args.push(CallArgument { object_id: Some(id), ..Default::default() });
            types.push(kinds.join(" "));
        }
    }
    args[0] = value(json!(types));
    let body = "function(types, fresh, ...nodes) { const G = globalThis.__glovebox; if (!G) return; \
                if (fresh || !G.heard) G.heard = new WeakMap(); \
                nodes.forEach((n, i) => types[i] ? G.heard.set(n, types[i]) : G.heard.delete(n)); }";
    let mut call = CallFunctionOnParams::new(body);
    call.object_id = Some(doc.to_owned().into());
    call.arguments = Some(args);
    tab.run_in(frame, call).await.map(|_| ())
}

/// Elements and the pointer events they listen to, by backend node id.
type Heard = BTreeMap<i64, Vec<String>>;

/// Backend node id -> the pointer events it listens to, from `getEventListeners`' answer;
/// listeners on no node (the window) left out, and with `skip_inline` inline attribute
/// handlers (known by the handler's source, which only a reading with handlers has).
fn pointer_nodes(listeners: &[EventListener], skip_inline: bool) -> Heard {
    let mut nodes = Heard::new();
    for l in listeners {
        let (kind, Some(node)) = (l.r#type.as_str(), l.backend_node_id.map(|n| *n.inner())) else {
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
fn inline_handler(l: &EventListener, kind: &str) -> bool {
    let text = l.handler.as_ref().and_then(|h| h.description.as_deref()).unwrap_or_default();
    text.starts_with(&format!("function on{kind}(event) {{"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_listeners_by_node_without_inline_handlers() {
        let listener = |v: serde_json::Value| -> EventListener {
            let mut base = json!({"useCapture": false, "passive": false, "once": false,
                                  "scriptId": "1", "lineNumber": 0, "columnNumber": 0});
            for (k, x) in v.as_object().into_iter().flatten() {
                base[k] = x.clone();
            }
            serde_json::from_value(base).expect("a listener")
        };
        let l = |t: &str, n: i64, d: &str| {
            listener(json!({"type": t, "backendNodeId": n,
                            "handler": {"type": "function", "description": d}}))
        };
        let listeners = [
            l("click", 5, "function onclick(event) {\nout.textContent='x'\n}"),
            l("click", 7, "(e) => go(e)"),
            l("mousedown", 7, "function down(e) {}"),
            l("click", 7, "function again() {}"),
            l("keydown", 9, "(e) => {}"),
            listener(json!({"type": "click",
                            "handler": {"type": "function", "description": "() => {}"}})),
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
