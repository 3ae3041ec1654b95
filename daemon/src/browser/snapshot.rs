//! The page outline: the accessibility tree of every frame (open shadow roots included), boxes
//! and click hints from one DOMSnapshot, elements keyed `<frameId>:<backendDOMNodeId>`.
//! Elements that act as controls without an accessible role or name (click handlers,
//! `cursor: pointer`, draggable, focusable) get refs too, with a hint from tag/title/class.
//! Lines stay lean for big pages: boxes only for what the viewport shows, no line for a
//! label's text beside its control or for nameless wrappers, and a row of plain cells as one
//! `row "a | b | c"` line.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use super::actions::Tab;
use super::BrowserError;
use crate::registry::snapshots::Node;

const INTERACTIVE: &[&str] = &[
    "button",
    "link",
    "textbox",
    "searchbox",
    "checkbox",
    "radio",
    "combobox",
    "listbox",
    "option",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "tab",
    "slider",
    "spinbutton",
    "switch",
    "treeitem",
    "textfield",
    "popupbutton",
    "menulistpopup",
    "menulistoption",
    "togglebutton",
    "colorwell",
    "date",
    "datetime",
    "inputtime",
    "scrollbar",
];
const STRUCTURAL: &[&str] = &[
    "rootwebarea",
    "heading",
    "navigation",
    "main",
    "banner",
    "contentinfo",
    "form",
    "dialog",
    "alertdialog",
    "alert",
    "region",
    "table",
    "row",
    "cell",
    "columnheader",
    "rowheader",
    "image",
    "img",
    "article",
    "tablist",
    "tabpanel",
    "menu",
    "menubar",
    "toolbar",
    "tree",
    "grid",
    "iframe",
    "figure",
    "list",
    "listitem",
    "group",
    "status",
    "progressbar",
    "meter",
    "complementary",
    "search",
    "labeltext",
    "code",
];

/// Stands for "inside an interactive element" where a parent name is passed down.
const FIELD: &str = "\u{1}field";

/// What the DOM snapshot says about one element.
#[derive(Debug, Default, Clone)]
struct DomInfo {
    bounds: Option<(f64, f64, f64, f64)>,
    /// Acts as a control: click handler, cursor:pointer start, draggable or focusable.
    control: Option<&'static str>,
    password: bool,
    hint: String,
}

fn s(strings: &[String], v: &Value) -> String {
    v.as_i64()
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| strings.get(i))
        .cloned()
        .unwrap_or_default()
}

fn clip(t: &str, n: usize) -> String {
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.chars().count() <= n {
        t
    } else {
        format!("{}…", t.chars().take(n).collect::<String>())
    }
}

/// backendNodeId -> what the DOM snapshot knows, in viewport coordinates.
async fn dom_info(tab: &Tab) -> Result<HashMap<i64, DomInfo>, BrowserError> {
    let r = tab
        .cmd(
            "DOMSnapshot.captureSnapshot",
            json!({"computedStyles": ["cursor"], "includeDOMRects": false}),
        )
        .await?;
    let strings: Vec<String> = r["strings"]
        .as_array()
        .map(|a| a.iter().map(|v| v.as_str().unwrap_or_default().to_owned()).collect())
        .unwrap_or_default();
    let docs = r["documents"].as_array().cloned().unwrap_or_default();
    let mut origin: Vec<Option<(f64, f64)>> = vec![None; docs.len()];
    if !origin.is_empty() {
        origin[0] = Some((0.0, 0.0));
    }
    let mut out = HashMap::new();
    // Parents come before their frames; two passes settle nested frames in any order.
    for _ in 0..2 {
        for (di, doc) in docs.iter().enumerate() {
            let Some((ox, oy)) = origin[di] else { continue };
            let sx = doc["scrollOffsetX"].as_f64().unwrap_or(0.0);
            let sy = doc["scrollOffsetY"].as_f64().unwrap_or(0.0);
            let nodes = &doc["nodes"];
            let layout = &doc["layout"];
            let backend = nodes["backendNodeId"].as_array().cloned().unwrap_or_default();
            let parents = nodes["parentIndex"].as_array().cloned().unwrap_or_default();
            let names = nodes["nodeName"].as_array().cloned().unwrap_or_default();
            let attrs = nodes["attributes"].as_array().cloned().unwrap_or_default();
            let clickable: HashSet<i64> = nodes["isClickable"]["index"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default();
            let mut bounds: HashMap<usize, (f64, f64, f64, f64)> = HashMap::new();
            let mut cursor: HashMap<usize, String> = HashMap::new();
            let idx = layout["nodeIndex"].as_array().cloned().unwrap_or_default();
            let bl = layout["bounds"].as_array().cloned().unwrap_or_default();
            let st = layout["styles"].as_array().cloned().unwrap_or_default();
            for (k, ni) in idx.iter().enumerate() {
                let Some(ni) = ni.as_u64().map(|n| n as usize) else { continue };
                if let Some(b) = bl.get(k).and_then(Value::as_array) {
                    let f = |i: usize| b.get(i).and_then(Value::as_f64).unwrap_or(0.0);
                    bounds.entry(ni).or_insert((f(0) - sx + ox, f(1) - sy + oy, f(2), f(3)));
                }
                if let Some(c) = st.get(k).and_then(|v| v.get(0)) {
                    cursor.entry(ni).or_insert_with(|| s(&strings, c));
                }
            }
            let cdi = &nodes["contentDocumentIndex"];
            if let (Some(ix), Some(vals)) = (cdi["index"].as_array(), cdi["value"].as_array()) {
                for (i, v) in ix.iter().zip(vals) {
                    let (Some(i), Some(v)) = (i.as_u64(), v.as_u64()) else { continue };
                    if let (Some(b), Some(slot)) =
                        (bounds.get(&(i as usize)), origin.get_mut(v as usize))
                    {
                        if slot.is_none() {
                            *slot = Some((b.0, b.1));
                        }
                    }
                }
            }
            for (i, bid) in backend.iter().enumerate() {
                let Some(bid) = bid.as_i64() else { continue };
                if out.contains_key(&bid) {
                    continue;
                }
                let tag = s(&strings, names.get(i).unwrap_or(&Value::Null)).to_lowercase();
                let mut a: HashMap<String, String> = HashMap::new();
                if let Some(list) = attrs.get(i).and_then(Value::as_array) {
                    for pair in list.chunks(2) {
                        if pair.len() == 2 {
                            a.insert(s(&strings, &pair[0]).to_lowercase(), s(&strings, &pair[1]));
                        }
                    }
                }
                let parent = parents.get(i).and_then(Value::as_i64).unwrap_or(-1);
                let pointer = cursor.get(&i).is_some_and(|c| c == "pointer")
                    && usize::try_from(parent)
                        .ok()
                        .and_then(|p| cursor.get(&p))
                        .is_none_or(|c| c != "pointer");
                // The page itself and labels (which forward to their control) are no controls.
                let container = matches!(tag.as_str(), "html" | "body" | "#document" | "label");
                let control = if container {
                    None
                } else if clickable.contains(&(i as i64)) {
                    Some("onclick")
                } else if pointer {
                    Some("cursor:pointer")
                } else if a.get("draggable").is_some_and(|v| v == "true") {
                    Some("draggable")
                } else if a
                    .get("tabindex")
                    .and_then(|t| t.parse::<i64>().ok())
                    .is_some_and(|t| t >= 0)
                {
                    Some("focusable")
                } else {
                    None
                };
                let hint = ["aria-label", "title", "alt", "placeholder", "data-icon", "name", "id"]
                    .iter()
                    .find_map(|k| a.get(*k).filter(|v| !v.trim().is_empty()).cloned())
                    .or_else(|| {
                        a.get("class").filter(|c| !c.trim().is_empty()).map(|c| {
                            format!(
                                ".{}",
                                c.split_whitespace().take(3).collect::<Vec<_>>().join(".")
                            )
                        })
                    })
                    .map(|h| format!("{tag} {h}"))
                    .unwrap_or(tag.clone());
                out.insert(
                    bid,
                    DomInfo {
                        bounds: bounds.get(&i).copied(),
                        control,
                        password: tag == "input"
                            && a.get("type").is_some_and(|t| t.eq_ignore_ascii_case("password")),
                        hint,
                    },
                );
            }
        }
    }
    Ok(out)
}

/// One frame's accessibility tree: its root and its nodes by AX node id.
type Walk = (String, HashMap<String, Value>);

async fn ax_tree(tab: &Tab, fid: &str, child: bool) -> Option<(Option<i64>, Walk)> {
    let owner = if child {
        let o = tab.cmd("DOM.getFrameOwner", json!({"frameId": fid})).await.ok()?;
        o["backendNodeId"].as_i64()
    } else {
        None
    };
    let mut ax = tab.cmd("Accessibility.getFullAXTree", json!({"frameId": fid})).await.ok()?;
    let list = match ax["nodes"].take() {
        Value::Array(a) => a,
        _ => Vec::new(),
    };
    let root = list
        .iter()
        .find(|n| n.get("parentId").is_none())
        .or(list.first())
        .and_then(|n| n["nodeId"].as_str())
        .unwrap_or_default()
        .to_owned();
    let nodes = list
        .into_iter()
        .map(|n| (n["nodeId"].as_str().unwrap_or_default().to_owned(), n))
        .collect();
    Some((owner, (root, nodes)))
}

/// The viewport in CSS pixels: boxes are shown for what it shows.
async fn viewport(tab: &Tab) -> (f64, f64) {
    match tab.cmd("Page.getLayoutMetrics", json!({})).await {
        Ok(m) => {
            let v = &m["cssVisualViewport"];
            (
                v["clientWidth"].as_f64().unwrap_or(f64::MAX),
                v["clientHeight"].as_f64().unwrap_or(f64::MAX),
            )
        }
        Err(_) => (f64::MAX, f64::MAX),
    }
}

/// An element of the outline that can be acted on and shows in the viewport: what
/// `screenshot_annotate` labels. `key` is its node's key; `bounds` are CSS pixels.
#[derive(Debug, Clone)]
pub struct Mark {
    pub key: String,
    pub role: String,
    pub name: String,
    pub bounds: (f64, f64, f64, f64),
}

/// The outline of the tab, or of the subtree of `scope` (a backend node id).
pub async fn outline(tab: &Tab, scope: Option<i64>) -> Result<Vec<Node>, BrowserError> {
    Ok(outline_marked(tab, scope).await?.0)
}

/// The outline and the marks of its controls inside the viewport, from the same observation.
pub async fn outline_marked(
    tab: &Tab,
    scope: Option<i64>,
) -> Result<(Vec<Node>, Vec<Mark>), BrowserError> {
    let tree = tab.cmd("Page.getFrameTree", json!({})).await?;
    let mut frames = Vec::new();
    fn collect(t: &Value, out: &mut Vec<(String, Option<String>)>) {
        let id = t["frame"]["id"].as_str().unwrap_or_default().to_owned();
        let parent = t["frame"]["parentId"].as_str().map(String::from);
        out.push((id, parent));
        for c in t["childFrames"].as_array().into_iter().flatten() {
            collect(c, out);
        }
    }
    collect(&tree["frameTree"], &mut frames);
    // Everything is asked for at once: the tab answers in turn, and each answer is parsed
    // while the next one is being built.
    let trees = futures::future::join_all(
        frames.iter().map(|(fid, parent)| ax_tree(tab, fid, parent.is_some())),
    );
    let (dom, trees, view) = tokio::join!(dom_info(tab), trees, viewport(tab));
    let dom = dom?;
    let mut owners = HashMap::new();
    let mut walk_frames: HashMap<String, Walk> = HashMap::new();
    for ((fid, parent), t) in frames.iter().zip(trees) {
        let Some((owner, walk)) = t else { continue };
        match (parent, owner) {
            (Some(_), Some(b)) => {
                owners.insert(b, fid.clone());
            }
            (Some(_), None) => continue,
            (None, _) => {}
        }
        walk_frames.insert(fid.clone(), walk);
    }
    let main = frames.first().map(|f| f.0.clone()).unwrap_or_default();
    let mut out = Vec::new();
    let mut ctx = Ctx {
        walks: &walk_frames,
        dom: &dom,
        owners: &owners,
        view,
        out: &mut out,
        labels: Vec::new(),
        marks: Vec::new(),
    };
    match scope {
        Some(b) => {
            let found = walk_frames.iter().find_map(|(fid, (_, nodes))| {
                nodes
                    .values()
                    .find(|n| n["backendDOMNodeId"].as_i64() == Some(b))
                    .map(|n| (fid.clone(), n["nodeId"].as_str().unwrap_or_default().to_owned()))
            });
            let Some((fid, nid)) = found else {
                return Err(BrowserError::Gone(
                    "the scope element is not in the accessibility tree".into(),
                ));
            };
            ctx.walk(&fid, &nid, 0, "", 0);
        }
        None => {
            if let Some((root, _)) = walk_frames.get(&main) {
                let root = root.clone();
                ctx.walk(&main, &root, 0, "", 0);
            }
        }
    }
    let labels = std::mem::take(&mut ctx.labels);
    let marks = std::mem::take(&mut ctx.marks);
    Ok((drop_label_text(out, &labels), marks))
}

/// A text line that only repeats the name of the control next to it (the text of its
/// `<label>`) is dropped: the control's line already says it.
fn drop_label_text(nodes: Vec<Node>, kinds: &[Kind]) -> Vec<Node> {
    let named = |n: &Node, text: &str| n.head.contains(&format!(" \"{text}"));
    let keep: Vec<bool> = (0..nodes.len())
        .map(|i| {
            let Kind::Text(t) = &kinds[i] else { return true };
            let beside = |j: usize| {
                matches!(kinds.get(j), Some(Kind::Control))
                    && nodes[j].depth == nodes[i].depth
                    && named(&nodes[j], t)
            };
            !(beside(i + 1) || (i > 0 && beside(i - 1)))
        })
        .collect();
    nodes.into_iter().zip(keep).filter_map(|(n, k)| k.then_some(n)).collect()
}

/// What an outline line is, for the pass that drops label text.
enum Kind {
    Text(String),
    Control,
    Other,
}

struct Ctx<'a> {
    walks: &'a HashMap<String, Walk>,
    dom: &'a HashMap<i64, DomInfo>,
    owners: &'a HashMap<i64, String>,
    /// The viewport's width and height in CSS pixels.
    view: (f64, f64),
    out: &'a mut Vec<Node>,
    /// One per line of `out`.
    labels: Vec<Kind>,
    /// The controls of `out` the viewport shows.
    marks: Vec<Mark>,
}

impl Ctx<'_> {
    /// The cells' names joined with ` | ` when every child of a row is a cell holding only
    /// text (no control of any kind); else None and the cells get lines of their own.
    fn plain_row(&self, frame: &str, row: &Value) -> Option<String> {
        let (_, nodes) = self.walks.get(frame)?;
        let mut cells = Vec::new();
        for c in children(row) {
            let cell = nodes.get(&c)?;
            let role = cell["role"]["value"].as_str().unwrap_or_default().to_lowercase();
            if !matches!(role.as_str(), "cell" | "gridcell" | "columnheader" | "rowheader") {
                return None;
            }
            if !self.inert(nodes, cell, 0) {
                return None;
            }
            cells.push(clip(cell["name"]["value"].as_str().unwrap_or_default(), 60));
        }
        (!cells.is_empty()).then(|| cells.join(" | "))
    }

    /// No interactive role, no control hint and no frame anywhere below (or at) `n`.
    fn inert(&self, nodes: &HashMap<String, Value>, n: &Value, guard: u32) -> bool {
        let role = n["role"]["value"].as_str().unwrap_or_default().to_lowercase();
        let backend = n["backendDOMNodeId"].as_i64();
        if guard > 50
            || INTERACTIVE.contains(&role.as_str())
            || backend.is_some_and(|b| self.owners.contains_key(&b))
            || backend.and_then(|b| self.dom.get(&b)).is_some_and(|i| i.control.is_some())
        {
            return false;
        }
        children(n).iter().all(|c| nodes.get(c).is_none_or(|c| self.inert(nodes, c, guard + 1)))
    }

    fn walk(&mut self, frame: &str, id: &str, depth: u16, parent_name: &str, guard: u32) {
        if guard > 400 || self.out.len() > 20_000 {
            return;
        }
        let Some((_, nodes)) = self.walks.get(frame) else { return };
        let Some(n) = nodes.get(id) else { return };
        let role = n["role"]["value"].as_str().unwrap_or_default().to_lowercase();
        let name = clip(n["name"]["value"].as_str().unwrap_or_default(), 120);
        let ignored = n["ignored"] == true;
        let backend = n["backendDOMNodeId"].as_i64();
        let info = backend.and_then(|b| self.dom.get(&b));
        let interactive = INTERACTIVE.contains(&role.as_str());
        let structural = STRUCTURAL.contains(&role.as_str());
        // Text inside a field is its value (masked for passwords), not a line of its own.
        let text = role == "statictext"
            && !name.is_empty()
            && parent_name != FIELD
            && !parent_name.contains(name.trim_end_matches('…'));
        let control = info.and_then(|i| i.control).filter(|_| !interactive);
        // Wrappers that say nothing of their own: their children stand in their place.
        let wrapper = (role == "labeltext" && name.is_empty()) || role == "menulistpopup";
        let include =
            !ignored && !wrapper && (interactive || structural || text) || control.is_some();
        // A row of plain cells is one line: `row "a | b | c"`.
        let row = (include && role == "row" && control.is_none())
            .then(|| self.plain_row(frame, n))
            .flatten();
        let mut child_depth = depth;
        let mut my_name = parent_name.to_owned();
        if include {
            // A clickable's role and name as its line says them, for its mark.
            let mut shown = None;
            let head = if control.is_some() && (ignored || !structural || name.is_empty()) {
                let hint = if name.is_empty() {
                    info.map(|i| i.hint.as_str()).unwrap_or_default()
                } else {
                    name.as_str()
                };
                let hint = clip(hint, 80);
                let head = format!("clickable {hint:?}");
                shown = Some(("clickable".to_owned(), hint));
                head
            } else {
                let r = match role.as_str() {
                    "rootwebarea" => "document",
                    "statictext" => "text",
                    other => other,
                };
                match &row {
                    Some(cells) => format!("{r} {cells:?}"),
                    None if name.is_empty() => r.to_owned(),
                    None => format!("{r} {name:?}"),
                }
            };
            let mut tail = Vec::new();
            let key = match backend {
                Some(b) => format!("{frame}:{b}"),
                None => format!("{frame}:ax{id}"),
            };
            // Boxes only for what the viewport shows; the rest are reached by ref.
            let (vw, vh) = self.view;
            match info.and_then(|i| i.bounds) {
                Some((x, y, w, h))
                    if w > 0.0 && h > 0.0 && x < vw && y < vh && x + w > 0.0 && y + h > 0.0 =>
                {
                    if interactive || control.is_some() {
                        let (role, name) =
                            shown.take().unwrap_or_else(|| (role.clone(), name.clone()));
                        self.marks.push(Mark {
                            key: key.clone(),
                            role,
                            name,
                            bounds: (x, y, w, h),
                        });
                    }
                    tail.push(format!("@{},{} {}x{}", x.round(), y.round(), w.round(), h.round()))
                }
                Some((_, _, w, h)) if w > 0.0 && h > 0.0 => {}
                // The options of a closed <select> never have one.
                _ if role == "option" => {}
                _ if interactive || control.is_some() => tail.push("(no box)".into()),
                _ => {}
            }
            let v = match &n["value"]["value"] {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            if interactive {
                if info.is_some_and(|i| i.password) {
                    if !v.is_empty() {
                        tail.push("value=\"••••\"".into());
                    }
                } else if !v.is_empty() && v != name {
                    tail.push(format!("value={:?}", clip(&v, 120)));
                }
            }
            let mut states = Vec::new();
            for p in n["properties"].as_array().into_iter().flatten() {
                let pname = p["name"].as_str().unwrap_or_default();
                let val = &p["value"]["value"];
                match pname {
                    "focused" | "disabled" | "required" | "readonly" | "selected" | "modal"
                        if val == true =>
                    {
                        states.push(pname.to_owned())
                    }
                    "checked" | "pressed" if val == "true" || val == true => {
                        states.push(pname.to_owned())
                    }
                    "checked" | "pressed" if val == "mixed" => {
                        states.push(format!("{pname}=mixed"))
                    }
                    "expanded" => states.push(if val == true {
                        "expanded".into()
                    } else {
                        "collapsed".into()
                    }),
                    "level" if role == "heading" => states.push(format!("level={val}")),
                    _ => {}
                }
            }
            if let Some(c) = control {
                states.push(c.to_owned());
            }
            if !states.is_empty() {
                tail.push(format!("({})", states.join(", ")));
            }
            self.labels.push(if interactive {
                Kind::Control
            } else if role == "statictext" {
                Kind::Text(name.trim_end_matches('…').to_owned())
            } else {
                Kind::Other
            });
            self.out.push(Node { key, depth, head, tail: tail.join(" ") });
            if row.is_some() {
                return;
            }
            child_depth = depth + 1;
            if !name.is_empty() {
                my_name = name;
            }
            if interactive {
                my_name = FIELD.to_owned();
            }
        }
        for c in children(n) {
            self.walk(frame, &c, child_depth, &my_name, guard + 1);
        }
        if let Some(child_frame) = backend.and_then(|b| self.owners.get(&b)) {
            if let Some((root, _)) = self.walks.get(child_frame) {
                let (cf, root) = (child_frame.clone(), root.clone());
                self.walk(&cf, &root, child_depth, "", guard + 1);
            }
        }
    }
}

fn children(n: &Value) -> Vec<String> {
    n["childIds"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c.as_str().map(String::from))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(depth: u16, head: &str) -> Node {
        Node { key: head.into(), depth, head: head.into(), tail: String::new() }
    }

    #[test]
    fn label_text_beside_its_control_is_dropped_other_text_stays() {
        let nodes = vec![
            line(1, "text \"Name\""),
            line(1, "textbox \"Name\""),
            line(1, "text \"Notes\""),
            line(1, "heading \"Notes\""),
            line(1, "checkbox \"Remember me\""),
            line(1, "text \"Remember me\""),
            line(2, "text \"Deeper\""),
            line(1, "button \"Deeper\""),
        ];
        let kinds = vec![
            Kind::Text("Name".into()),
            Kind::Control,
            Kind::Text("Notes".into()),
            Kind::Other,
            Kind::Control,
            Kind::Text("Remember me".into()),
            Kind::Text("Deeper".into()),
            Kind::Control,
        ];
        let heads: Vec<String> =
            drop_label_text(nodes, &kinds).into_iter().map(|n| n.head).collect();
        assert_eq!(
            heads,
            [
                "textbox \"Name\"",
                "text \"Notes\"",
                "heading \"Notes\"",
                "checkbox \"Remember me\"",
                "text \"Deeper\"",
                "button \"Deeper\""
            ]
        );
    }
}
