//! Finding elements (by snapshot key, selector or focus), describing them, and their
//! on-screen geometry: centre, viewport, and the hit check that refuses covered targets.

use chromiumoxide::cdp::browser_protocol::dom::{
    BackendNodeId, GetContentQuadsParams, GetNodeForLocationParams, ResolveNodeParams,
    ScrollIntoViewIfNeededParams,
};
use chromiumoxide::cdp::browser_protocol::page::GetLayoutMetricsParams;
use chromiumoxide::cdp::js_protocol::runtime::{
    CallArgument, EvaluateReturns, ExecutionContextId, RemoteObjectId,
};
use serde_json::{json, Value};

use super::world::{evaluate, Answer, Key};
use super::{El, Tab};
use crate::browser::BrowserError;

// Every element handle lives in the daemon's world of the main frame, as the ones behind
// refs do: functions called on one may take another as an argument, and whatever they leave
// on a node stays out of the page's sight.
impl Tab {
    pub async fn element_by_backend_id(&self, id: i64) -> Result<El, BrowserError> {
        let ctx = self.world(None).await?;
        let params = ResolveNodeParams {
            backend_node_id: Some(BackendNodeId::new(id)),
            execution_context_id: Some(ExecutionContextId::new(ctx)),
            ..Default::default()
        };
        let r = self.run(params).await.map_err(|e| match e {
            e @ BrowserError::Cdp { .. } => BrowserError::Gone(e.to_string()),
            BrowserError::ContextGone(m) => BrowserError::Gone(m),
            e @ BrowserError::DialogOpen(_) => BrowserError::Gone(e.to_string()),
            other => other,
        })?;
        let object_id = r
            .object
            .object_id
            .ok_or_else(|| BrowserError::Gone("the node has no JS object".into()))?;
        Ok(El { object_id: object_id.into(), frame: None })
    }

    /// An element handle from an expression evaluated in the daemon's world of the main frame.
    pub(super) async fn in_world(&self, expr: &str) -> Result<EvaluateReturns, BrowserError> {
        let ctx = self.world(None).await?;
        self.run(evaluate(expr, Some(ctx), Answer::Handle)).await
    }

    /// The first element matching a CSS selector in the main frame.
    pub async fn element_by_selector(&self, selector: &str) -> Result<El, BrowserError> {
        let expr = format!("document.querySelector({})", json!(selector));
        let r = self.in_world(&expr).await?;
        if r.exception_details.is_some() {
            return Err(BrowserError::Refused(format!("bad selector {selector:?}")));
        }
        let Some(object_id) = r.result.object_id else {
            return Err(BrowserError::NotFound { kind: "element", id: selector.to_owned() });
        };
        Ok(El { object_id: object_id.into(), frame: None })
    }

    /// The focused element (through shadow roots and same-origin frames), if any.
    pub async fn focused(&self) -> Result<Option<El>, BrowserError> {
        let expr = "(() => { let e = document.activeElement; while (e) { const n = e.shadowRoot && e.shadowRoot.activeElement || (e.contentDocument && e.contentDocument.activeElement); if (!n) break; e = n; } return e; })()";
        let r = self.in_world(expr).await?;
        let Some(object_id) = r.result.object_id else { return Ok(None) };
        Ok(Some(El { object_id: object_id.into(), frame: None }))
    }

    pub async fn describe(&self, el: &El) -> String {
        self.call::<Value>(el, "return d(this);", ())
            .await
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_else(|| "the element".into())
    }

    /// Scroll the element into view and return the centre of its first box, in CSS viewport
    /// pixels.
    pub async fn center(&self, el: &El) -> Result<(f64, f64), BrowserError> {
        // Sent back to back: the tab runs them in order, so the quads are read after the
        // scroll, and the call waits for one round trip instead of two.
        let frame = el.frame.as_deref();
        // A cross-site frame's quads are its own; its origin in the top viewport is added.
        let origin = match frame {
            Some(f) => self.frame_origin(f, true).await?.0,
            None => (0.0, 0.0),
        };
        let object_id = Some(RemoteObjectId::from(el.object_id.clone()));
        let scroll =
            ScrollIntoViewIfNeededParams { object_id: object_id.clone(), ..Default::default() };
        let quads = GetContentQuadsParams { object_id, ..Default::default() };
        let (_, r) = tokio::join!(self.run_in(frame, scroll), self.run_in(frame, quads));
        let quads = match r {
            Ok(r) => r.quads,
            Err(
                BrowserError::Cdp { .. } | BrowserError::Timeout(_) | BrowserError::DialogOpen(_),
            ) => Vec::new(),
            Err(e) => return Err(e),
        };
        for q in quads {
            let p = q.inner();
            if p.len() != 8 {
                continue;
            }
            let xs = [p[0], p[2], p[4], p[6]];
            let ys = [p[1], p[3], p[5], p[7]];
            let w = xs.iter().cloned().fold(f64::MIN, f64::max)
                - xs.iter().cloned().fold(f64::MAX, f64::min);
            let h = ys.iter().cloned().fold(f64::MIN, f64::max)
                - ys.iter().cloned().fold(f64::MAX, f64::min);
            if w >= 1.0 && h >= 1.0 {
                let (cx, cy) = (xs.iter().sum::<f64>() / 4.0, ys.iter().sum::<f64>() / 4.0);
                return Ok((cx + origin.0, cy + origin.1));
            }
        }
        Err(BrowserError::NoGeometry { what: self.describe(el).await })
    }

    /// The viewport size in CSS pixels.
    /// Whether the element is in the document, and whether it shows (a box, not hidden);
    /// (false, false) when it cannot be asked.
    pub async fn presence(&self, el: &El) -> (bool, bool) {
        let body = "if (!this.isConnected) return [false, false]; \
                    const r = this.getBoundingClientRect(); const s = getComputedStyle(this); \
                    return [true, r.width > 0 && r.height > 0 && s.visibility !== 'hidden' \
                    && s.display !== 'none'];";
        match self.call::<Value>(el, body, ()).await {
            Ok(v) => (v[0] == true, v[1] == true),
            Err(_) => (false, false),
        }
    }

    pub async fn viewport(&self) -> Result<(f64, f64), BrowserError> {
        let v = self.run(GetLayoutMetricsParams::default()).await?.css_visual_viewport;
        Ok((v.client_width, v.client_height))
    }

    /// Refuse a pointer action when another element covers the target's point.
    /// In a cross-site frame only the frame's own page can tell; [`Tab::aim`] asks it there.
    pub async fn hit_check(&self, el: &El, x: f64, y: f64) -> Result<(), BrowserError> {
        if el.frame.is_some() {
            return Ok(());
        }
        let mut at = GetNodeForLocationParams::new(x.round() as i64, y.round() as i64);
        at.include_user_agent_shadow_dom = Some(false);
        at.ignore_pointer_events_none = Some(true);
        let Ok(r) = self.run(at).await else { return Ok(()) };
        let hit = *r.backend_node_id.inner();
        let Ok(hit) = self.element_by_backend_id(hit).await else { return Ok(()) };
        let body = "const h = a; let n = h; while (n) { if (n === this) return null; \
                    let p = n.parentNode || n.host || null; \
                    if (!p && n.nodeType === 9) p = n.defaultView && n.defaultView.frameElement; \
                    n = p; } \
                    if (this.labels && [...this.labels].some(l => l === h || l.contains(h))) return null; \
                    if (h.nodeType === 1 && h.contains(this) && getComputedStyle(h).pointerEvents !== 'none' && h.tagName === 'LABEL') return null; \
                    return d(h.nodeType === 1 ? h : h.parentElement);";
        let arg = CallArgument { object_id: Some(hit.object_id.into()), ..Default::default() };
        let covering = self.call_with(el, body, vec![arg]).await?;
        match covering.as_str() {
            Some(c) => Err(covered(&self.describe(el).await, c, x, y)),
            None => Ok(()),
        }
    }

    /// Where a pointer action on `el` lands, and what `el` is: scrolled into view when it is
    /// not, the centre of its first box in top-viewport CSS pixels, refused when something
    /// else would take the click there. One call into the page; the DevTools path when the
    /// element sits in a frame the page cannot reach into. `press`: a button goes down there
    /// (a file input refuses it: its chooser is a dialog outside the page).
    pub async fn aim(&self, el: &El, press: Press) -> Result<Aim, BrowserError> {
        let origin = self.origin_for(el.frame.as_deref()).await?;
        let local = press.arg(el.frame.is_some());
        let r = self.call::<Value>(el, AIM, &[local]).await?;
        match aimed(&r, origin)? {
            Some(p) => Ok(p),
            None => self.aim_by_devtools(el, &r).await,
        }
    }

    /// [`Tab::aim`] for the element behind a snapshot key, in one call into the page.
    pub async fn aim_key(&self, key: &str, press: Press) -> Result<Aim, BrowserError> {
        let k =
            Key::parse(key).ok_or_else(|| BrowserError::Gone(format!("{key} names no element")))?;
        let origin = self.origin_for(k.frame.as_deref()).await?;
        let expr = format!(
            "(() => {{ const G = globalThis.__glovebox; const w = G && G.els.get({}); \
             const n = w && w.deref(); if (!n || !n.isConnected) return {{gone: true}}; \
             return ({}).call(n, {}); }})()",
            k.serial,
            super::js(AIM),
            press.arg(k.frame.is_some())
        );
        let r = self
            .run_in(k.frame.as_deref(), evaluate(&expr, Some(k.ctx), Answer::Awaited))
            .await
            .map_err(super::world::gone_context)?;
        let r = super::value_of(r.result, r.exception_details)?;
        match aimed(&r, origin)? {
            Some(p) => Ok(p),
            None => self.aim_by_devtools(&self.element_by_key(key).await?, &r).await,
        }
    }

    /// Where a cross-site frame's content starts in the top viewport (scrolled into view);
    /// nothing to add for the tab's own frames.
    async fn origin_for(&self, frame: Option<&str>) -> Result<(f64, f64), BrowserError> {
        match frame {
            Some(f) => Ok(self.frame_origin(f, true).await?.0),
            None => Ok((0.0, 0.0)),
        }
    }

    /// The DevTools path of an aim: box quads and the node at the point.
    async fn aim_by_devtools(&self, el: &El, r: &Value) -> Result<Aim, BrowserError> {
        let what = r["what"].as_str().unwrap_or("the element").to_owned();
        let (x, y) = self.center(el).await?;
        self.hit_check(el, x, y).await?;
        Ok(((x, y), what))
    }
}

/// Where a pointer action lands (top-viewport CSS pixels) and what the element is.
pub type Aim = ((f64, f64), String);

/// What follows an aim: nothing pressed (a hover, a drop target), a press (a file input
/// refuses it), or a press whose receipt the page's window counts under a witness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Press {
    None,
    Unwitnessed,
    Witnessed(super::witness::Witness),
}

impl Press {
    /// The aim's argument (`a`).
    fn arg(self, local: bool) -> Value {
        let witness = match self {
            Press::Witnessed(w) => Some(w.id()),
            _ => None,
        };
        json!({"local": local, "press": self != Press::None, "witness": witness})
    }
}

/// What the page said of an aim: the point and what the element is, an error, or None when
/// the DevTools path must answer (`{fallback}`).
fn aimed(r: &Value, origin: (f64, f64)) -> Result<Option<Aim>, BrowserError> {
    let what = r["what"].as_str().unwrap_or("the element").to_owned();
    if r["gone"] == true {
        return Err(BrowserError::Gone("it was removed from the page".into()));
    }
    if r["nobox"] == true {
        return Err(BrowserError::NoGeometry { what });
    }
    if r["file"] == true {
        return Err(BrowserError::FileInput { what });
    }
    let (Some(x), Some(y)) = (r["x"].as_f64(), r["y"].as_f64()) else { return Ok(None) };
    let (x, y) = (x + origin.0, y + origin.1);
    if let Some(c) = r["covered"].as_str() {
        return Err(covered(&what, c, x, y));
    }
    Ok(Some(((x, y), what)))
}

fn covered(what: &str, by: &str, x: f64, y: f64) -> BrowserError {
    let (what, by, x, y) = (what.to_owned(), by.to_owned(), x.round(), y.round());
    BrowserError::Covered { what, by, x, y }
}

/// The body of [`Tab::aim`] (`this` is the target; `d` describes an element; `a.local`: stop
/// at the element's own window, a cross-site frame). Answers `{x, y, what, covered}` (in the
/// top viewport, or the frame's own when local), `{nobox}`, `{gone}`, `{file}` (a press on a
/// file input, `a.press`), or `{fallback}` to use DevTools instead.
const AIM: &str = r#"
const t = this.nodeType === 3 ? this.parentElement : this;
if (!t || !t.isConnected) return {gone: true};
const what = d(t);
if (a && a.press && t.localName === 'input' && (t.type || '').toLowerCase() === 'file') return {file: true, what};
const doc = t.ownerDocument, win = doc.defaultView;
if (!win) return {fallback: true};
const rects = () => {
  if (this.nodeType !== 3) return [...this.getClientRects()];
  const r = doc.createRange(); r.selectNodeContents(this); return [...r.getClientRects()];
};
const pick = () => rects().find((r) => r.width >= 1 && r.height >= 1);
let r = pick();
// In view means the centre shows: inside the viewport and inside every box on the way up
// that clips (an `overflow` scroller, nested ones too); else the element is scrolled into
// view in each of them, as a person would scroll.
const clipped = (r) => {
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  for (let n = t.parentElement || (t.parentNode && t.parentNode.host); n && n !== doc.documentElement && n !== doc.body;
       n = n.parentElement || (n.parentNode && n.parentNode.host) || null) {
    if (n.scrollHeight <= n.clientHeight && n.scrollWidth <= n.clientWidth) continue;
    const cs = win.getComputedStyle(n);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
    const b = n.getBoundingClientRect(), left = b.left + n.clientLeft, top = b.top + n.clientTop;
    if (x < left || y < top || x >= left + n.clientWidth || y >= top + n.clientHeight) return true;
  }
  return false;
};
const inView = (r) => r.left >= 0 && r.top >= 0 && r.right <= win.innerWidth && r.bottom <= win.innerHeight && !clipped(r);
if (r && (!inView(r) || win !== win.top)) {
  reveal(t);
  r = pick();
}
if (!r) return {nobox: true, what};
// The window that hears the press counts what it hears from here (`witness.rs`).
if (a && a.witness != null && globalThis.__glovebox) globalThis.__glovebox.witnessArm(win, 'pointer', a.witness);
const deep = (root, x, y) => {
  let h = root.elementFromPoint(x, y);
  while (h && h.shadowRoot) { const i = h.shadowRoot.elementFromPoint(x, y); if (!i || i === h) break; h = i; }
  return h;
};
const covering = (h) => {
  for (let n = h; n; n = n.parentNode || n.host || null) if (n === t) return null;
  if (t.labels && [...t.labels].some((l) => l === h || l.contains(h))) return null;
  if (h.tagName === 'LABEL' && h.contains(t)) return null;
  return d(h);
};
let x = r.left + r.width / 2, y = r.top + r.height / 2;
let h = deep(doc, x, y);
if (!h) return {fallback: true};
let cov = covering(h);
for (let w = win; !cov && !(a && a.local) && w !== w.top; w = w.parent) {
  const f = w.frameElement;
  if (!f) return {fallback: true};
  const fr = f.getBoundingClientRect(), cs = w.parent.getComputedStyle(f);
  x += fr.left + f.clientLeft + parseFloat(cs.paddingLeft || 0);
  y += fr.top + f.clientTop + parseFloat(cs.paddingTop || 0);
  h = deep(f.ownerDocument, x, y);
  if (!h) return {fallback: true};
  if (h !== f) cov = d(h);
}
return {x, y, what, covered: cov};
"#;
