//! The page outline: the accessibility tree of every frame (open shadow roots included), boxes
//! and click hints from one DOMSnapshot, elements keyed `<frameId>:<backendDOMNodeId>`.
//! Elements that act as controls without an accessible role or name (click handlers,
//! `cursor: pointer`, draggable, focusable) get refs too, with a hint from tag/title/class.

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

/// The outline of the tab, or of the subtree of `scope` (a backend node id).
pub async fn outline(tab: &Tab, scope: Option<i64>) -> Result<Vec<Node>, BrowserError> {
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
    let dom = dom_info(tab).await?;
    let mut owners = HashMap::new();
    let mut walks = HashMap::new();
    for (fid, parent) in &frames {
        if parent.is_some() {
            match tab.cmd("DOM.getFrameOwner", json!({"frameId": fid})).await {
                Ok(o) => {
                    if let Some(b) = o["backendNodeId"].as_i64() {
                        owners.insert(b, fid.clone());
                    }
                }
                Err(_) => continue,
            }
        }
        let Ok(ax) = tab.cmd("Accessibility.getFullAXTree", json!({"frameId": fid})).await else {
            continue;
        };
        let nodes: HashMap<String, Value> = ax["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|n| (n["nodeId"].as_str().unwrap_or_default().to_owned(), n.clone()))
            .collect();
        let root = ax["nodes"]
            .as_array()
            .and_then(|a| a.iter().find(|n| n.get("parentId").is_none()).or(a.first()))
            .and_then(|n| n["nodeId"].as_str())
            .unwrap_or_default()
            .to_owned();
        walks.insert(fid.clone(), (root, nodes));
    }
    let main = frames.first().map(|f| f.0.clone()).unwrap_or_default();
    let mut out = Vec::new();
    let walk_frames: HashMap<String, (String, HashMap<String, Value>)> = walks;
    let mut ctx = Ctx { walks: &walk_frames, dom: &dom, owners: &owners, out: &mut out };
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
    Ok(out)
}

struct Ctx<'a> {
    walks: &'a HashMap<String, (String, HashMap<String, Value>)>,
    dom: &'a HashMap<i64, DomInfo>,
    owners: &'a HashMap<i64, String>,
    out: &'a mut Vec<Node>,
}

impl Ctx<'_> {
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
        let include = !ignored && (interactive || structural || text) || control.is_some();
        let mut child_depth = depth;
        let mut my_name = parent_name.to_owned();
        if include {
            let head = if control.is_some() && (ignored || !structural || name.is_empty()) {
                let hint = if name.is_empty() {
                    info.map(|i| i.hint.as_str()).unwrap_or_default()
                } else {
                    name.as_str()
                };
                format!("clickable {:?}", clip(hint, 80))
            } else {
                let r = match role.as_str() {
                    "rootwebarea" => "document",
                    "statictext" => "text",
                    other => other,
                };
                if name.is_empty() {
                    r.to_owned()
                } else {
                    format!("{r} {name:?}")
                }
            };
            let mut tail = Vec::new();
            match info.and_then(|i| i.bounds) {
                Some((x, y, w, h)) if w > 0.0 && h > 0.0 => {
                    tail.push(format!("@{},{} {}x{}", x.round(), y.round(), w.round(), h.round()))
                }
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
            let key = match backend {
                Some(b) => format!("{frame}:{b}"),
                None => format!("{frame}:ax{id}"),
            };
            self.out.push(Node { key, depth, head, tail: tail.join(" ") });
            child_depth = depth + 1;
            if !name.is_empty() {
                my_name = name;
            }
            if interactive {
                my_name = FIELD.to_owned();
            }
        }
        let children: Vec<String> = n["childIds"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str().map(String::from))
            .collect();
        for c in children {
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
