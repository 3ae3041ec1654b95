//! The page outline, built in the page: `walk.js` runs in the daemon's isolated world of the
//! tab (open shadow roots and the frames this renderer draws included) and hands back one item
//! per line; this module turns items into outline lines keyed `w<context>:<serial>`.
//! Elements that act as controls without an accessible role or name (pointer listeners of
//! their own or on the list they sit in, as Chromium lists them (`listeners.rs`), click
//! handlers, `cursor: pointer`, draggable, focusable) get refs too, with a hint from
//! tag/title/class; a control holding several is their group.
//! Lines stay lean for big pages: boxes only for what the viewport shows, no line for a
//! label's text beside its control or for nameless wrappers, a row of plain cells as one
//! `row "a | b | c"` line, and an element holding only short text as one line.

mod listeners;

use glovebox_protocol::outline::quoted;
use serde::Deserialize;
use serde_json::{json, Value};

use super::actions::world::Key;
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

/// Characters of a value a line shows exactly; a longer one is cut with the marker.
const VALUE_CHARS: usize = 200;

/// A name as a JSON string: whitespace collapsed, cut at `n` characters with `…` inside.
fn named(t: &str, n: usize) -> String {
    serde_json::to_string(&clip(t, n)).unwrap_or_default()
}

fn clip(t: &str, n: usize) -> String {
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.chars().count() <= n {
        t
    } else {
        format!("{}…", t.chars().take(n).collect::<String>())
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

/// The in-page walk; it answers `{items, view}` (or `{gone}` / `{noworld}`).
const WALK: &str = include_str!("walk.js");
/// A page's lines past this many are left out (a bound on what one walk hands over).
const MAX_LINES: usize = 20_000;

/// One line as the walk reports it (see `walk.js` for the fields).
#[derive(Debug, Deserialize)]
struct Item {
    i: u64,
    d: u16,
    r: String,
    #[serde(default)]
    n: String,
    #[serde(default)]
    v: String,
    /// The value's whole length in characters, when `v` is only its start.
    vl: Option<usize>,
    #[serde(default)]
    s: Vec<String>,
    b: Option<[f64; 4]>,
    #[serde(default)]
    nb: u8,
    c: Option<String>,
    h: Option<String>,
    cl: Option<Vec<String>>,
    #[serde(default)]
    pw: u8,
    #[serde(default)]
    x: u8,
}

#[derive(Debug, Default, Deserialize)]
struct Walked {
    #[serde(default)]
    items: Vec<Item>,
    #[serde(default)]
    gone: bool,
    /// The top viewport's size, for walking cross-site frames in the same terms.
    view: Option<[f64; 2]>,
}

/// The outline of the tab, or of the subtree of the element with key `scope`.
pub async fn outline(tab: &Tab, scope: Option<&str>) -> Result<Vec<Node>, BrowserError> {
    Ok(outline_marked(tab, scope).await?.0)
}

/// The outline and the marks of its controls inside the viewport, from the same observation.
/// Cross-site frames (drawn by another process) are walked in their own sessions and their
/// lines put under their `<iframe>`.
pub async fn outline_marked(
    tab: &Tab,
    scope: Option<&str>,
) -> Result<(Vec<Node>, Vec<Mark>), BrowserError> {
    let scope = match scope {
        Some(key) => {
            let k = Key::parse(key)
                .ok_or_else(|| BrowserError::Gone(format!("{key} names no element")))?;
            if k.ctx != tab.world(k.frame.as_deref()).await? {
                return Err(BrowserError::Gone("the scope element's document was replaced".into()));
            }
            Some(k)
        }
        None => None,
    };
    let frame = scope.as_ref().and_then(|k| k.frame.clone());
    let opts = json!({"interactive": INTERACTIVE, "structural": STRUCTURAL, "value": VALUE_CHARS,
                      "scope": scope.as_ref().map(|k| k.serial), "max": MAX_LINES});
    let (ctx, walked) = walk(tab, frame.as_deref(), &opts).await?;
    let mut items: Vec<(Option<String>, i64, Item)> =
        walked.items.into_iter().map(|i| (frame.clone(), ctx, i)).collect();
    if frame.is_none() && items.iter().any(|(_, _, i)| i.x == 1) {
        // Parents come first, so a nested frame's `<iframe>` line is there when it is spliced.
        for (f, parent) in tab.conn.frame_tree(&tab.target_id).await.unwrap_or_default() {
            // A frame that goes away meanwhile keeps its "not reachable" line.
            let _ = splice_frame(tab, &f, &parent, walked.view, &mut items).await;
        }
    }
    Ok(lines(items))
}

/// Run the walk in the world of `frame` (None: the tab's own process).
async fn walk(tab: &Tab, frame: Option<&str>, opts: &Value) -> Result<(i64, Walked), BrowserError> {
    // The items come back as one JSON string: DevTools turns a returned object graph into a
    // value node by node, which on a 5,000-element page costs more than half the walk.
    let expr = format!(
        "(() => {{ const r = ({WALK})({opts}); return r.noworld ? r : JSON.stringify(r); }})()"
    );
    // Partial is not failure: without the listeners the walk still finds the rest.
    let ctx = tab.world(frame).await?;
    if let Err(e) = listeners::mark(tab, frame, ctx).await {
        tracing::debug!(error = %e, "the page's listeners could not be read");
    }
    let (ctx, r) = tab.world_eval(frame, &expr).await?;
    if let Some(ex) = &r.exception_details {
        let what = super::actions::threw(ex);
        return Err(BrowserError::Refused(format!("the snapshot walk failed: {what}")));
    }
    let value = r.result.value.unwrap_or_default();
    let text = value.as_str().unwrap_or_default();
    let walked: Walked = serde_json::from_str(text)
        .map_err(|e| BrowserError::BadAnswer(format!("the snapshot walk answered oddly: {e}")))?;
    if walked.gone {
        return Err(BrowserError::Gone("the scope element was removed from the page".into()));
    }
    Ok((ctx, walked))
}

/// Walk the cross-site frame `frame` and put its lines under its `<iframe>` line, which sits
/// in the target `parent_target`: the tab's own documents, or another cross-site frame.
async fn splice_frame(
    tab: &Tab,
    frame: &str,
    parent_target: &str,
    view: Option<[f64; 2]>,
    items: &mut Vec<(Option<String>, i64, Item)>,
) -> Result<(), BrowserError> {
    let parent = (parent_target != tab.target_id).then_some(parent_target);
    // A frame whose parent was not walked (unreachable itself, or out of scope) is left out.
    if parent.is_some_and(|p| !items.iter().any(|(f, _, _)| f.as_deref() == Some(p))) {
        return Ok(());
    }
    let (origin, owner) = tab.frame_origin_in(frame, parent_target, false).await?;
    let Some(owner) = owner else { return Ok(()) };
    let Some(at) =
        items.iter().position(|(f, _, i)| f.as_deref() == parent && i.i == owner && i.x == 1)
    else {
        return Ok(());
    };
    let opts = json!({"interactive": INTERACTIVE, "structural": STRUCTURAL, "max": MAX_LINES,
                      "value": VALUE_CHARS, "origin": [origin.0, origin.1], "view": view});
    let (ctx, walked) = walk(tab, Some(frame), &opts).await?;
    let depth = items[at].2.d + 1;
    items[at].2.x = 0;
    let inner = walked.items.into_iter().map(|mut i| {
        i.d += depth;
        (Some(frame.to_owned()), ctx, i)
    });
    items.splice(at + 1..at + 1, inner);
    Ok(())
}

/// Outline lines (and the marks of controls in view) from the walk's items.
fn lines(items: Vec<(Option<String>, i64, Item)>) -> (Vec<Node>, Vec<Mark>) {
    let mut out = Vec::with_capacity(items.len());
    let mut kinds = Vec::with_capacity(items.len());
    let mut marks = Vec::new();
    for (frame, ctx, it) in items {
        let key = Key::format(frame.as_deref(), ctx, it.i);
        let role = it.r.as_str();
        let interactive = INTERACTIVE.contains(&role);
        let structural = STRUCTURAL.contains(&role);
        // A control its content leaves nameless is named by its icon (the walk's hint).
        let name = match it.h.as_deref() {
            Some(h) if interactive && it.n.is_empty() => clip(h, 80),
            _ => clip(&it.n, 120),
        };
        let control = it.c.as_deref().filter(|_| !interactive);
        // A clickable's role and name as its line says them, for its mark.
        let (head, shown) = if control.is_some() && (!structural || name.is_empty()) {
            let hint = if name.is_empty() { it.h.as_deref().unwrap_or_default() } else { &name };
            let hint = clip(hint, 80);
            (format!("clickable {}", named(&hint, 80)), ("clickable".to_owned(), hint))
        } else {
            let head = match &it.cl {
                Some(cells) => {
                    let cells: Vec<String> = cells.iter().map(|c| clip(c, 60)).collect();
                    format!("{role} {}", named(&cells.join(" | "), usize::MAX))
                }
                None if name.is_empty() => role.to_owned(),
                None => format!("{role} {}", named(&name, usize::MAX)),
            };
            (head, (role.to_owned(), name.clone()))
        };
        let mut tail = Vec::new();
        match it.b {
            Some([x, y, w, h]) if interactive || control.is_some() => {
                marks.push(Mark {
                    key: key.clone(),
                    role: shown.0,
                    name: shown.1,
                    bounds: (x, y, w, h),
                });
            }
            Some(_) => {}
            // The options of a closed <select> never have one.
            None if it.nb == 1 && role != "option" && (interactive || control.is_some()) => {
                tail.push("(no box)".into());
            }
            None => {}
        }
        if interactive && !it.v.is_empty() {
            if it.pw == 1 {
                tail.push("value=\"••••\"".into());
            } else if it.v != it.n || it.vl.is_some() {
                tail.push(format!("value={}", quoted(&it.v, VALUE_CHARS, it.vl)));
            }
        }
        let mut states = it.s;
        if let Some(c) = control {
            states.push(c.to_owned());
        }
        if it.x == 1 {
            states.push("frame not reachable".into());
        }
        if !states.is_empty() {
            tail.push(format!("({})", states.join(", ")));
        }
        kinds.push(if interactive {
            Kind::Control
        } else if role == "text" {
            Kind::Text(name.trim_end_matches('…').to_owned())
        } else {
            Kind::Other
        });
        let bbox = it.b.map(|b| b.map(|v| v.round() as i64));
        let control = interactive || control.is_some();
        out.push(Node { key, depth: it.d, head, bbox, tail: tail.join(" "), control });
    }
    (drop_label_text(out, &kinds), marks)
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

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;

    fn line(depth: u16, head: &str) -> Node {
        Node { key: head.into(), depth, head: head.into(), ..Node::default() }
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

    fn items(json: serde_json::Value) -> Vec<Item> {
        serde_json::from_value(json).expect("items")
    }

    #[test]
    fn items_become_lines_with_keys_boxes_values_and_states() {
        let long = "0123456789".repeat(20);
        let (nodes, marks) = lines(
            items(json!([
                {"i": 1, "d": 0, "r": "textbox", "n": "Name", "v": "Ann", "b": [8, 20, 100, 21],
                 "s": ["focused"], "k": "c"},
                {"i": 2, "d": 0, "r": "textbox", "n": "Password", "v": "secret", "pw": 1,
                 "nb": 1, "k": "c"},
                {"i": 3, "d": 0, "r": "", "n": "", "c": "cursor:pointer", "h": "Settings",
                 "b": [1, 2, 3, 4], "k": "o"},
                {"i": 4, "d": 0, "r": "row", "cl": ["a", "b", "c"], "k": "o"},
                {"i": 5, "d": 1, "r": "option", "n": "Red", "v": "r", "nb": 1, "k": "c"},
                {"i": 6, "d": 0, "r": "iframe", "x": 1, "k": "o"},
                {"i": 7, "d": 0, "r": "listitem", "n": "", "c": "onclick", "h": "li #x", "k": "o"},
                {"i": 8, "d": 0, "r": "textbox", "n": "Notes", "v": "Line one\n \"two\" In ",
                 "k": "c"},
                {"i": 9, "d": 0, "r": "textbox", "n": "Long", "v": long, "vl": 5000, "k": "c"},
                {"i": 10, "d": 0, "r": "button", "n": "", "h": "More", "b": [5, 5, 16, 16], "k": "c"},
                {"i": 11, "d": 0, "r": "", "n": "", "c": "icon", "h": "span .icon-like", "k": "o"}
            ]))
            .into_iter()
            .map(|i| (None, 7, i))
            .collect(),
        );
        let shown: Vec<String> = nodes
            .iter()
            .map(|n| format!("{} {} | {:?} {} | {}", n.key, n.head, n.bbox, n.tail, n.control))
            .collect();
        expect![[r#"
            w7:1 textbox "Name" | Some([8, 20, 100, 21]) value="Ann" (focused) | true
            w7:2 textbox "Password" | None (no box) value="••••" | true
            w7:3 clickable "Settings" | Some([1, 2, 3, 4]) (cursor:pointer) | true
            w7:4 row "a | b | c" | None  | false
            w7:5 option "Red" | None value="r" | true
            w7:6 iframe | None (frame not reachable) | false
            w7:7 clickable "li #x" | None (onclick) | true
            w7:8 textbox "Notes" | None value="Line one\n \"two\" In " | true
            w7:9 textbox "Long" | None value="01234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"…(5000 chars) | true
            w7:10 button "More" | Some([5, 5, 16, 16])  | true
            w7:11 clickable "span .icon-like" | None (icon) | true
        "#]]
        .assert_eq(&(shown.join("\n") + "\n"));
        let marked: Vec<(&str, &str, &str)> =
            marks.iter().map(|m| (m.key.as_str(), m.role.as_str(), m.name.as_str())).collect();
        assert_eq!(
            marked,
            [
                ("w7:1", "textbox", "Name"),
                ("w7:3", "clickable", "Settings"),
                ("w7:10", "button", "More")
            ]
        );
    }
}
