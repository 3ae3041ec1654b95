//! The lines a `query` keeps. Its words are matched case-insensitively, in any order: a line
//! matches when it holds at least one of them and every word is in it or in one of its
//! ancestors' lines (`inbox archive` finds the Archive button inside the Inbox region). When
//! no line matches every word, the lines holding any word are kept instead and the view says
//! `query_match: "any"`. Each kept line comes with its ancestors (for its place) and the
//! controls of its row: the controls beside it under the same parent, and its own child
//! controls, when the row is short.

use super::{render, Node};

/// A row longer than this many lines is a list, not a row: its controls are not added.
const ROW: usize = 12;

/// The rendered lines of the view and how the words matched (`all`, `any` or `none`).
pub fn select(nodes: &[Node], refs: &[String], query: Option<&str>) -> (Vec<String>, &'static str) {
    let words: Vec<String> =
        query.unwrap_or_default().split_whitespace().map(str::to_lowercase).collect();
    let texts: Vec<String> =
        nodes.iter().map(|n| format!("{} {}", n.head, n.tail).to_lowercase()).collect();
    let parents = parents(nodes);
    let holds = |i: usize, w: &str| texts[i].contains(w);
    let in_path = |i: usize, w: &str| {
        let mut at = Some(i);
        while let Some(j) = at {
            if holds(j, w) {
                return true;
            }
            at = parents[j];
        }
        false
    };
    let any = |i: usize| words.iter().any(|w| holds(i, w));
    let all: Vec<usize> =
        (0..nodes.len()).filter(|&i| any(i) && words.iter().all(|w| in_path(i, w))).collect();
    let (hits, matched) = if !all.is_empty() || words.is_empty() {
        (if words.is_empty() { (0..nodes.len()).collect() } else { all }, "all")
    } else {
        let some: Vec<usize> = (0..nodes.len()).filter(|&i| any(i)).collect();
        let m = if some.is_empty() { "none" } else { "any" };
        (some, m)
    };
    let children = children(&parents);
    let mut keep = vec![false; nodes.len()];
    for &i in &hits {
        keep[i] = true;
        let mut at = parents[i];
        while let Some(j) = at {
            keep[j] = true;
            at = parents[j];
        }
        let row = |p: Option<usize>| match p {
            Some(p) => children[p].as_slice(),
            None => &[],
        };
        for list in [row(parents[i]), children[i].as_slice()] {
            if list.len() <= ROW {
                for &k in list {
                    keep[k] |= nodes[k].control;
                }
            }
        }
    }
    let lines =
        (0..nodes.len()).filter(|&i| keep[i]).map(|i| render(&nodes[i], &refs[i])).collect();
    (lines, matched)
}

/// Each line's parent: the nearest line above it with a smaller depth.
fn parents(nodes: &[Node]) -> Vec<Option<usize>> {
    let mut path: Vec<usize> = Vec::new();
    nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            while path.last().is_some_and(|&j| nodes[j].depth >= n.depth) {
                path.pop();
            }
            let p = path.last().copied();
            path.push(i);
            p
        })
        .collect()
}

fn children(parents: &[Option<usize>]) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); parents.len()];
    for (i, p) in parents.iter().enumerate() {
        if let Some(p) = p {
            out[*p].push(i);
        }
    }
    out
}
