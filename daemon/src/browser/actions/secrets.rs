//! What typing a secret needs to know of the page, and where a page shows one: the origin
//! of the element's document and where its form posts, and the boxes of fields and text
//! holding a value (main frame, open shadow roots, same-origin frames), read in the daemon's
//! isolated world so no page script sees the values asked about.

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

const BOXES: &str = r#"
(() => {
const vals = VALUES; const out = [];
const holds = (s) => typeof s === 'string' && s.length > 0 && vals.some((v) => s.includes(v));
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
return {boxes: out, sx: scrollX, sy: scrollY, win: [screenX, screenY, outerWidth - innerWidth, outerHeight - innerHeight, devicePixelRatio]};
})()
"#;

/// Boxes holding a value, in CSS pixels of the viewport, and the page's scroll offset.
#[derive(Debug, Default)]
pub struct Shown {
    pub boxes: Vec<[f64; 4]>,
    pub scroll: (f64, f64),
    /// The window on the screen: its x and y, the width and height of its own frame
    /// around the viewport, and device pixels per CSS pixel.
    pub window: [f64; 5],
}

impl Tab {
    /// The top document's origin.
    pub async fn top_origin(&self) -> Result<String, BrowserError> {
        let r = self.in_world("location.origin").await?;
        Ok(r["result"]["value"].as_str().unwrap_or("null").to_owned())
    }

    /// Where `el` is and where its form posts.
    pub async fn place(&self, el: &El) -> Result<Place, BrowserError> {
        let v = self.call(el, PLACE, &[]).await?;
        let posts_to = v["posts"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).map(String::from).collect())
            .unwrap_or_default();
        let nums = |k: &str| -> Vec<f64> {
            v[k].as_array().into_iter().flatten().filter_map(Value::as_f64).collect()
        };
        let rect = match nums("rect").as_slice() {
            [x, y, w, h] => [*x, *y, *w, *h],
            _ => [0.0; 4],
        };
        let window = match nums("win").as_slice() {
            [x, y, fw, fh, dpr] => [*x, *y, *fw, *fh, *dpr],
            _ => [0.0, 0.0, 0.0, 0.0, 1.0],
        };
        let origin = v["origin"].as_str().unwrap_or("null").to_owned();
        Ok(Place { origin, posts_to, rect, window })
    }

    /// The boxes of fields and text that hold any of `values`.
    pub async fn secrets_shown(&self, values: &[String]) -> Result<Shown, BrowserError> {
        if values.is_empty() {
            return Ok(Shown::default());
        }
        let expr = BOXES.replace("VALUES", &json!(values).to_string());
        let ctx = self.world(None).await?;
        let r = self
            .cmd(
                "Runtime.evaluate",
                json!({"expression": expr, "contextId": ctx, "returnByValue": true}),
            )
            .await?;
        let v = &r["result"]["value"];
        let boxes = v["boxes"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|b| {
                        let n: Vec<f64> = b.as_array()?.iter().filter_map(Value::as_f64).collect();
                        (n.len() == 4).then(|| [n[0], n[1], n[2], n[3]])
                    })
                    .collect()
            })
            .unwrap_or_default();
        let scroll = (v["sx"].as_f64().unwrap_or(0.0), v["sy"].as_f64().unwrap_or(0.0));
        let w: Vec<f64> =
            v["win"].as_array().into_iter().flatten().filter_map(Value::as_f64).collect();
        let window = match w.as_slice() {
            [x, y, fw, fh, dpr] => [*x, *y, *fw, *fh, *dpr],
            _ => [0.0, 0.0, 0.0, 0.0, 1.0],
        };
        Ok(Shown { boxes, scroll, window })
    }
}
