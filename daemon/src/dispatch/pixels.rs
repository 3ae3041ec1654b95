//! Whether an outline's changes explain the pixels a desktop action changed (`capture:
//! "auto"`): the screen is read before the action and after its settle, and at every pixel
//! that differs the deepest element with a box there must be one the incremental outline
//! lists (added or changed), the acted element or one inside it, or the focused element (its
//! caret blinks), or the pixel lies just outside such an element's box (`REACH`: its focus
//! ring, shadow or underline draws there). A changed pixel in an unchanged element's box, or outside the app's
//! elements, is a change the outline did not explain: an image shows it. (The display's
//! damage cannot say this: GTK 4 repaints its whole window for a caret.) When an image does
//! go, the changed cells' box frames it, unless that is most of the screen.

use std::sync::Arc;

use crate::desktop::Desktop;
use crate::registry::snapshots::Node;

/// The side of the square cells changed pixels are taken in: one pixel stands for its cell.
const CELL: usize = 8;

/// How far outside its box an element draws (a focus ring, a shadow, an underline), in
/// pixels.
const REACH: i64 = 4;

/// How far around what changed a framed capture reaches, in pixels.
const MARGIN: i64 = 24;

/// A framed capture smaller than this share of the screen is worth its framing; past it the
/// whole screen goes.
const FRAMED_SHARE: f64 = 0.6;

/// The screen's pixels at one moment.
#[derive(Clone)]
pub struct Screen {
    rgb: Arc<Vec<u8>>,
    width: usize,
    height: usize,
}

impl std::fmt::Debug for Screen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Screen({}x{})", self.width, self.height)
    }
}

impl Screen {
    /// The whole screen now, unscaled; `None` when it cannot be read.
    pub async fn grab(d: &Desktop) -> Option<Screen> {
        let (rgb, w, h) = d.screen_rgb(None).await.ok()?;
        let (width, height) = (w as usize, h as usize);
        (rgb.len() == width * height * 3).then(|| Screen { rgb: Arc::new(rgb), width, height })
    }

    /// A pixel that differs in `after`, one per cell of `CELL` pixels that holds any;
    /// `None` when the screen's size changed.
    pub fn changed(&self, after: &Screen) -> Option<Vec<(i64, i64)>> {
        if (self.width, self.height) != (after.width, after.height) {
            return None;
        }
        let row = self.width * 3;
        let mut seen = std::collections::HashSet::new();
        let mut points = Vec::new();
        for (y, (a, b)) in self.rgb.chunks(row).zip(after.rgb.chunks(row)).enumerate() {
            if a == b {
                continue;
            }
            for (x, (p, q)) in a.chunks(3).zip(b.chunks(3)).enumerate() {
                if p != q && seen.insert((x / CELL, y / CELL)) {
                    points.push((x as i64, y as i64));
                }
            }
        }
        Some(points)
    }
}

impl Screen {
    /// The rectangle of the screen an image of the changed `points` (one per cell) needs:
    /// their cells' box widened by [`MARGIN`], inside the screen; `None` (the whole screen)
    /// when nothing changed or the box is most of the screen.
    pub fn region_of(&self, points: &[(i64, i64)]) -> Option<(i32, i32, u32, u32)> {
        let cell = CELL as i64;
        let (w, h) = (self.width as i64, self.height as i64);
        let cells = points.iter().map(|(x, y)| (x / cell * cell, y / cell * cell));
        let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
        for (x, y) in cells {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + cell), y1.max(y + cell));
        }
        if x0 > x1 {
            return None;
        }
        let (x0, y0) = ((x0 - MARGIN).max(0), (y0 - MARGIN).max(0));
        let (x1, y1) = ((x1 + MARGIN).min(w), (y1 + MARGIN).min(h));
        let share = ((x1 - x0) * (y1 - y0)) as f64 / (w * h).max(1) as f64;
        (share < FRAMED_SHARE).then(|| (x0 as i32, y0 as i32, (x1 - x0) as u32, (y1 - y0) as u32))
    }
}

/// Whether the lines keyed `changed` (and the acted element, keyed `acted`) explain every
/// changed pixel of `points` (screen pixels, as the nodes' boxes).
pub fn explained(
    nodes: &[Node],
    changed: &[String],
    acted: Option<&str>,
    points: &[(i64, i64)],
) -> bool {
    let acted_at = acted.and_then(|a| nodes.iter().position(|n| n.key == a));
    let shows_a_change = |i: usize| {
        let n = &nodes[i];
        changed.contains(&n.key)
            || n.tail.contains("focused")
            || acted_at.is_some_and(|a| i == a || descends(nodes, a, i))
    };
    let near = |(x, y): (i64, i64), b: [i64; 4]| {
        let within =
            |r: i64| x >= b[0] - r && y >= b[1] - r && x < b[0] + b[2] + r && y < b[1] + b[3] + r;
        within(REACH) && !within(0)
    };
    let beside_a_change = |p: (i64, i64)| {
        (0..nodes.len()).any(|i| nodes[i].bbox.is_some_and(|b| near(p, b)) && shows_a_change(i))
    };
    points.iter().all(|p| top_at(nodes, *p).is_some_and(shows_a_change) || beside_a_change(*p))
}

/// Whether the node at `i` lies in the subtree of the node at `a`.
fn descends(nodes: &[Node], a: usize, i: usize) -> bool {
    i > a && nodes[a + 1..=i].iter().all(|n| n.depth > nodes[a].depth)
}

/// The node drawn at `(x, y)`: the last in the outline's order (a later window or sibling
/// is drawn over an earlier one, a child over its parent) whose box holds the point, as do
/// the boxes of all its ancestors that have one.
fn top_at(nodes: &[Node], (x, y): (i64, i64)) -> Option<usize> {
    let holds = |b: [i64; 4]| x >= b[0] && y >= b[1] && x < b[0] + b[2] && y < b[1] + b[3];
    // The ancestors of the current node: depth, and whether each holds the point.
    let mut chain: Vec<(u16, bool)> = Vec::new();
    let mut top = None;
    for (i, n) in nodes.iter().enumerate() {
        while chain.last().is_some_and(|(d, _)| *d >= n.depth) {
            chain.pop();
        }
        let inside = chain.iter().all(|(_, ok)| *ok);
        let here = n.bbox.is_some_and(holds);
        if inside && here {
            top = Some(i);
        }
        chain.push((n.depth, n.bbox.is_none_or(holds)));
    }
    top
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(key: &str, depth: u16, bbox: [i64; 4], tail: &str) -> Node {
        let head = key.to_owned();
        Node {
            key: key.into(),
            depth,
            head,
            bbox: Some(bbox),
            tail: tail.into(),
            ..Node::default()
        }
    }

    #[test]
    fn changed_pixels_are_explained_only_by_changed_lines_the_acted_or_focused_element() {
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
        let points = [(10, 10), (150, 50)];
        assert!(explained(&nodes, &changed(&["row"]), None, &points));
        // The history's own background where no row is: the history changed.
        assert!(explained(&nodes, &changed(&["history"]), None, &[(10, 80)]));
        assert!(!explained(&nodes, &changed(&["row"]), None, &[(10, 80)]));
        // A button no line says changed; the acted one's label is its own.
        assert!(!explained(&nodes, &changed(&["row"]), None, &[(10, 210)]));
        assert!(explained(&nodes, &[], Some("button"), &[(10, 210)]));
        // Just below the focused display (its focus ring), and well below it.
        assert!(explained(&nodes, &[], None, &[(10, 42)]));
        assert!(!explained(&nodes, &[], None, &[(10, 48)]));
        // A later window over an earlier one: what it shows at the point is drawn last.
        let over = [
            node("frame", 0, [0, 0, 300, 300], ""),
            node("text", 1, [0, 0, 300, 300], ""),
            node("dialog", 0, [100, 100, 100, 100], ""),
            node("save", 1, [150, 150, 20, 20], ""),
        ];
        assert!(explained(&over, &changed(&["save"]), None, &[(155, 155)]));
        assert!(!explained(&over, &changed(&["save"]), None, &[(120, 120)]));
        // Outside every element of the app.
        assert!(!explained(&nodes, &changed(&["window"]), None, &[(400, 5)]));
        assert!(explained(&nodes, &[], None, &[]));
    }

    #[test]
    fn a_framed_capture_holds_the_changed_cells_and_a_margin_unless_that_is_most_of_the_screen() {
        let screen = Screen { rgb: Arc::new(Vec::new()), width: 1000, height: 800 };
        // Cells at (96, 200) and (304, 248): their box, 24 pixels wider each way.
        assert_eq!(screen.region_of(&[(101, 203), (305, 250)]), Some((72, 176, 264, 104)));
        // At the corner the margin stops at the screen's edge.
        assert_eq!(screen.region_of(&[(0, 0)]), Some((0, 0, 32, 32)));
        // Most of the screen, or nothing: the whole screen.
        assert_eq!(screen.region_of(&[(0, 0), (999, 799)]), None);
        assert_eq!(screen.region_of(&[]), None);
    }

    #[test]
    fn one_changed_pixel_stands_for_its_cell() {
        let screen = |rgb: Vec<u8>| Screen { rgb: Arc::new(rgb), width: 16, height: 2 };
        let before = screen(vec![0; 16 * 2 * 3]);
        let mut rgb = vec![0; 16 * 2 * 3];
        for x in [1, 2, 9] {
            rgb[(16 + x) * 3] = 255;
        }
        let after = screen(rgb);
        assert_eq!(before.changed(&after), Some(vec![(1, 1), (9, 1)]));
        let other = Screen { rgb: Arc::new(vec![0; 3]), width: 1, height: 1 };
        assert_eq!(before.changed(&other), None);
    }
}
