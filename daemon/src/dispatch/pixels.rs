//! Whether an outline's changes explain what the screen repainted (`capture: "auto"` on the
//! desktop, where the display reports damage): at every repainted pixel, the deepest element
//! with a box there is one the incremental outline lists (added or changed), the acted
//! element or one inside it, or the focused element (its caret blinks). A pixel in an
//! unchanged element's box, or outside the app's elements, is a change the outline did not
//! explain: an image shows it.

use crate::registry::snapshots::Node;

/// How far apart the repainted rectangles are sampled, in pixels.
const STEP: i64 = 4;

/// Whether the lines keyed `changed` (and the acted element, keyed `acted`) explain every
/// rectangle of `damage` (`[x, y, width, height]`, screen pixels, as the nodes' boxes).
pub fn explained(
    nodes: &[Node],
    changed: &[String],
    acted: Option<&str>,
    damage: &[[i64; 4]],
) -> bool {
    let acted_at = acted.and_then(|a| nodes.iter().position(|n| n.key == a));
    let shows_a_change = |i: usize| {
        let n = &nodes[i];
        changed.contains(&n.key)
            || n.tail.contains("focused")
            || acted_at.is_some_and(|a| i == a || descends(nodes, a, i))
    };
    damage.iter().all(|d| points(*d).all(|p| top_at(nodes, p).is_some_and(shows_a_change)))
}

/// Whether the node at `i` lies in the subtree of the node at `a`.
fn descends(nodes: &[Node], a: usize, i: usize) -> bool {
    i > a && nodes[a + 1..=i].iter().all(|n| n.depth > nodes[a].depth)
}

/// The deepest node whose box holds `(x, y)` (of equals, the last: drawn over the others).
fn top_at(nodes: &[Node], (x, y): (i64, i64)) -> Option<usize> {
    let holds = |b: [i64; 4]| x >= b[0] && y >= b[1] && x < b[0] + b[2] && y < b[1] + b[3];
    let mut top: Option<usize> = None;
    for (i, n) in nodes.iter().enumerate() {
        if n.bbox.is_some_and(holds) && top.is_none_or(|t| n.depth >= nodes[t].depth) {
            top = Some(i);
        }
    }
    top
}

/// Points of a rectangle every `STEP` pixels, its last row and column included.
fn points([x, y, w, h]: [i64; 4]) -> impl Iterator<Item = (i64, i64)> {
    let along = |from: i64, len: i64| {
        let last = from + (len - 1).max(0);
        (from..=last).step_by(STEP as usize).chain((len > 1).then_some(last))
    };
    along(y, h).flat_map(move |py| along(x, w).map(move |px| (px, py)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(key: &str, depth: u16, bbox: [i64; 4], tail: &str) -> Node {
        let head = key.to_owned();
        Node { key: key.into(), depth, head, bbox: Some(bbox), tail: tail.into(), ..Node::default() }
    }

    #[test]
    fn repainted_pixels_are_explained_only_by_changed_lines_the_acted_or_focused_element() {
        let nodes = [
            node("window", 0, [0, 0, 300, 300], ""),
            node("display", 1, [0, 0, 300, 40], "(focused)"),
            node("history", 1, [0, 40, 300, 60], ""),
            node("row", 2, [0, 40, 300, 20], ""),
            node("button", 1, [0, 200, 50, 50], ""),
            node("label", 2, [5, 205, 40, 40], ""),
        ];
        let changed = |keys: &[&str]| keys.iter().map(|k| (*k).to_owned()).collect::<Vec<_>>();
        // The caret in the focused display, and a new row of the history.
        let damage = [[10, 10, 2, 20], [0, 40, 300, 20]];
        assert!(explained(&nodes, &changed(&["row"]), None, &damage));
        // The history's own background where no row is: the history changed.
        assert!(explained(&nodes, &changed(&["history"]), None, &[[0, 70, 300, 30]]));
        assert!(!explained(&nodes, &changed(&["row"]), None, &[[0, 70, 300, 30]]));
        // A button repainted that no line says changed; the acted one's label is its own.
        assert!(!explained(&nodes, &changed(&["row"]), None, &[[10, 210, 5, 5]]));
        assert!(explained(&nodes, &[], Some("button"), &[[10, 210, 5, 5]]));
        // Outside every element of the app.
        assert!(!explained(&nodes, &changed(&["window"]), None, &[[400, 0, 10, 10]]));
        assert!(explained(&nodes, &[], None, &[]));
    }
}
