//! What typing a secret needs to know of the page, and where a page shows one: the origin
//! of the element's document and where its form posts, and the boxes of fields and text
//! holding a value (main frame, open shadow roots, same-origin frames, and cross-site frames
//! through their own sessions, placed by their `<iframe>`), read in the daemon's isolated
//! worlds so no page script sees the values asked about.

use serde_json::{json, Value};

use super::{El, Tab};
use crate::browser::BrowserError;

/// Where a secret would go: the element's document's origin, the origins its form (and
/// the form's submit buttons) post to, and whether it takes text at all.
#[derive(Debug, Clone)]
pub struct Place {
    pub origin: String,
    pub posts_to: Vec<String>,
    /// The element's box in the top viewport (CSS pixels) and the window as [`Shown`] has it.
    pub rect: [f64; 4],
    pub window: [f64; 5],
}

const PLACE: &str = r#"
const doc = this.ownerDocument;
const origin = doc.defaultView ? doc.defaultView.location.origin : 'null';
const posts = [];
const at = (u) => { try { return new URL(u || doc.URL, doc.baseURI).origin; } catch (e) { return 'null'; } };
const f = this.form || (this.closest && this.closest('form'));
if (f) {
  posts.push(at(Element.prototype.getAttribute.call(f, 'action')));
  for (const b of f.querySelectorAll('[formaction]')) posts.push(at(b.getAttribute('formaction')));
}
const r = this.getBoundingClientRect(); let w = doc.defaultView, dx = 0, dy = 0;
try { while (w && w.frameElement) { const f = w.frameElement.getBoundingClientRect(); dx += f.left; dy += f.top; w = w.parent; } } catch (e) {}
const top = w || window;
return {origin, posts, rect: [r.left + dx, r.top + dy, r.width, r.height],
        win: [top.screenX, top.screenY, top.outerWidth - top.innerWidth, top.outerHeight - top.innerHeight, top.devicePixelRatio]};
"#;

/// In one process's top document: the boxes holding a value (`boxes`, its viewport's CSS
/// pixels), how many fields and texts hold one whether shown or not (`held`), its scroll
/// and its window.
const BOXES: &str = r#"
(() => {
const vals = VALUES; const out = []; let held = 0;
const holds = (s) => typeof s === 'string' && s.length > 0 && vals.some((v) => s.includes(v)) && ++held > 0;
const push = (r, dx, dy) => { if (r.width > 0 && r.height > 0) out.push([r.left + dx, r.top + dy, r.width, r.height]); };
const visit = (doc, root, dx, dy, depth) => {
  if (depth > 8) return;
  const tw = doc.createTreeWalker(root, 5);
  for (let n = tw.currentNode; n; n = tw.nextNode()) {
    if (n.nodeType === 3) {
      if (holds(n.data)) { const rg = doc.createRange(); rg.selectNodeContents(n); for (const r of rg.getClientRects()) push(r, dx, dy); }
      continue;
    }
    if (n.nodeType !== 1) continue;
    if ((n.tagName === 'INPUT' || n.tagName === 'TEXTAREA') && holds(n.value)) push(n.getBoundingClientRect(), dx, dy);
    if (n.shadowRoot) visit(doc, n.shadowRoot, dx, dy, depth + 1);
    if (n.tagName === 'IFRAME' || n.tagName === 'FRAME') {
      try {
        const d = n.contentDocument;
        if (d && d.documentElement) { const r = n.getBoundingClientRect(); visit(d, d.documentElement, dx + r.left + n.clientLeft, dy + r.top + n.clientTop, depth + 1); }
      } catch (e) {}
    }
  }
};
if (document.documentElement) visit(document, document.documentElement, 0, 0, 0);
return {boxes: out, held, sx: scrollX, sy: scrollY, win: [screenX, screenY, outerWidth - innerWidth, outerHeight - innerHeight, devicePixelRatio]};
})()
"#;

/// Boxes holding a value, in CSS pixels of the viewport, and the page's scroll offset.
#[derive(Debug, Default)]
pub struct Shown {
    pub boxes: Vec<[f64; 4]>,
    /// Fields and texts holding a value in any frame, shown or not.
    pub held: u64,
    pub scroll: (f64, f64),
    /// The window on the screen: its x and y, the width and height of its own frame
    /// around the viewport, and device pixels per CSS pixel.
    pub window: [f64; 5],
}

impl Tab {
    /// The top document's origin.
    pub async fn top_origin(&self) -> Result<String, BrowserError> {
        let r = self.in_world("location.origin").await?;
        let v = r.result.value.unwrap_or_default();
        Ok(v.as_str().unwrap_or("null").to_owned())
    }

    /// Where `el` is and where its form posts.
    pub async fn place(&self, el: &El) -> Result<Place, BrowserError> {
        let v = self.call::<Value>(el, PLACE, ()).await?;
        let posts_to = v["posts"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).map(String::from).collect())
            .unwrap_or_default();
        let rect = match nums_of(&v["rect"]).as_slice() {
            [x, y, w, h] => [*x, *y, *w, *h],
            _ => [0.0; 4],
        };
        let mut window = match nums_of(&v["win"]).as_slice() {
            [x, y, fw, fh, dpr] => [*x, *y, *fw, *fh, *dpr],
            _ => [0.0, 0.0, 0.0, 0.0, 1.0],
        };
        // In a cross-site frame the box is the frame's own, placed by its `<iframe>`; the
        // window is the top document's.
        let rect = match &el.frame {
            Some(f) => {
                let ((dx, dy), _) = self.frame_origin(f, false).await?;
                let (_, top) = self.world_eval(None, WINDOW).await?;
                let top = top.result.value.unwrap_or_default();
                if let [x, y, fw, fh, dpr] = nums_of(&top).as_slice() {
                    window = [*x, *y, *fw, *fh, *dpr];
                }
                [rect[0] + dx, rect[1] + dy, rect[2], rect[3]]
            }
            None => rect,
        };
        let origin = v["origin"].as_str().unwrap_or("null").to_owned();
        Ok(Place { origin, posts_to, rect, window })
    }

    /// The boxes of fields and text that hold any of `values`, in the tab's own documents
    /// and in every cross-site frame (one that went away meanwhile shows nothing).
    pub async fn secrets_shown(&self, values: &[String]) -> Result<Shown, BrowserError> {
        if values.is_empty() {
            return Ok(Shown::default());
        }
        let expr = BOXES.replace("VALUES", &json!(values).to_string());
        let (_, r) = self.world_eval(None, &expr).await?;
        let v = &r.result.value.unwrap_or_default();
        let mut shown = Shown {
            boxes: boxes_of(v, (0.0, 0.0)),
            held: v["held"].as_u64().unwrap_or(0),
            scroll: (v["sx"].as_f64().unwrap_or(0.0), v["sy"].as_f64().unwrap_or(0.0)),
            window: match nums_of(&v["win"]).as_slice() {
                [x, y, fw, fh, dpr] => [*x, *y, *fw, *fh, *dpr],
                _ => [0.0, 0.0, 0.0, 0.0, 1.0],
            },
        };
        for (frame, parent) in self.conn.frame_tree(&self.target_id).await? {
            match self.frame_shown(&frame, &parent, &expr).await {
                Ok((boxes, held)) => {
                    shown.boxes.extend(boxes);
                    shown.held += held;
                }
                Err(BrowserError::Gone(_) | BrowserError::ContextGone(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(shown)
    }

    /// [`BOXES`] in the cross-site frame `frame` (inside `parent`), its boxes placed in the
    /// top viewport; and how many fields and texts there hold a value.
    async fn frame_shown(
        &self,
        frame: &str,
        parent: &str,
        expr: &str,
    ) -> Result<(Vec<[f64; 4]>, u64), BrowserError> {
        let (_, r) = self.world_eval(Some(frame), expr).await?;
        let v = &r.result.value.unwrap_or_default();
        let held = v["held"].as_u64().unwrap_or(0);
        if v["boxes"].as_array().is_none_or(|b| b.is_empty()) {
            return Ok((Vec::new(), held));
        }
        let (origin, _) = self.frame_origin_in(frame, parent, false).await?;
        Ok((boxes_of(v, origin), held))
    }
}

/// The top window on the screen, as [`Shown::window`] has it.
const WINDOW: &str =
    "[screenX, screenY, outerWidth - innerWidth, outerHeight - innerHeight, devicePixelRatio]";

fn nums_of(v: &Value) -> Vec<f64> {
    v.as_array().into_iter().flatten().filter_map(Value::as_f64).collect()
}

/// The `boxes` of a [`BOXES`] answer, moved by `(dx, dy)`.
fn boxes_of(v: &Value, (dx, dy): (f64, f64)) -> Vec<[f64; 4]> {
    let list = v["boxes"].as_array().into_iter().flatten();
    list.filter_map(|b| match nums_of(b).as_slice() {
        [x, y, w, h] => Some([x + dx, y + dy, *w, *h]),
        _ => None,
    })
    .collect()
}
