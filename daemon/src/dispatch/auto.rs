//! `capture: "auto"` (the default of `tools.call` and MCP): after the settle, whether the
//! action caused what its text does not show. An image goes out for a tab, a window or a
//! dialog it opened, a change outside the acted element, a desktop action by coordinates,
//! a new page whose outline is empty, or when there is no outline to compare
//! with; otherwise the outcome carries the outline of what changed (a new page's whole) (the target walked again and diffed against the
//! session's last snapshot of it, which it replaces) and no image. Either way the outcome's
//! `capture` says which and why.

use glovebox_protocol::contract::{Action, Backend, Settle as Kind};
use glovebox_protocol::results::computer::Rect;
use glovebox_protocol::wire::{Changes, Settle, Target};
use serde_json::Value;

use super::done::Done;
use super::pixels::Screen;
use super::settle::Frame;
use crate::registry::snapshots::{Budget, Node, Scope, View};
use crate::session::Session;
use crate::state::Daemon;

/// What the call named before it ran: the element it acted on, or a point; and, for a
/// desktop action, the screen as it was.
#[derive(Debug, Default, Clone)]
pub struct Aimed {
    pub r#ref: Option<String>,
    pub snapshot_id: Option<String>,
    pub point: bool,
    pub screen: Option<Screen>,
}

impl Aimed {
    pub fn of(args: &serde_json::Map<String, Value>) -> Self {
        let s = |k: &str| args.get(k).and_then(Value::as_str).map(str::to_owned);
        let point = ["x", "nx"].iter().any(|k| args.contains_key(*k));
        Aimed { r#ref: s("ref"), snapshot_id: s("snapshot_id"), point, screen: None }
    }
}

/// The choice: send the capture or not, why, the outline of what changed, and what a
/// desktop image shows (the window that opened, else what changed, else the screen).
#[derive(Debug)]
pub struct Choice {
    pub send: bool,
    pub why: String,
    pub changes: Option<Changes>,
    pub frame: Frame,
}

fn send(why: &str) -> Choice {
    Choice { send: true, why: why.to_owned(), changes: None, frame: Frame::Screen }
}

/// What changed on the screen since before a desktop action, as a capture's frame.
async fn changed_frame(daemon: &Daemon, aimed: &Aimed) -> Frame {
    let (Some(before), Some(d)) = (&aimed.screen, daemon.desktop()) else { return Frame::Screen };
    let after = Screen::grab(&d).await;
    framed(before, after.as_ref().and_then(|a| before.changed(a)).as_deref())
}

fn framed(before: &Screen, points: Option<&[(i64, i64)]>) -> Frame {
    match points.and_then(|p| before.region_of(p)) {
        Some(r) => Frame::Region(r),
        None => Frame::Screen,
    }
}

/// Decides for an action that settled (its result already names what it caused).
pub async fn choose(
    daemon: &Daemon,
    session: &Session,
    action: &Action,
    out: &Done,
    (settle, closed): (&Settle, &[Rect]),
    aimed: &Aimed,
) -> Choice {
    let facts = &out.facts;
    if let [one] = settle.windows_opened.as_slice() {
        let frame = Frame::Window(one.window_id.clone());
        return Choice { frame, ..send("a window opened; the image shows it") };
    }
    if !settle.windows_opened.is_empty() {
        return send("windows opened");
    }
    // A desktop window that closed is named in the text; what it covered is judged with
    // the rest of the app below.
    if !settle.windows_closed.is_empty() && action.backend != Backend::Desktop {
        return Choice { frame: changed_frame(daemon, aimed).await, ..send("a window closed") };
    }
    match action.backend {
        Backend::Browser => {
            if facts.dialog.is_some() {
                return send("a dialog opened");
            }
            if facts.opened_a_tab() {
                return send("a tab opened");
            }
            if facts.file_chooser.is_some() {
                return send("a file chooser opened");
            }
            if action.settle == Some(Kind::Navigate) || facts.navigated_to.is_some() {
                return navigated(daemon, session, out).await;
            }
            browser(daemon, session, out, aimed).await
        }
        _ => {
            if aimed.point || (aimed.r#ref.is_none() && action.settle == Some(Kind::Pointer)) {
                let frame = changed_frame(daemon, aimed).await;
                return Choice { frame, ..send("a desktop action by coordinates") };
            }
            desktop(daemon, session, out, aimed, closed).await
        }
    }
}

async fn browser(daemon: &Daemon, session: &Session, out: &Done, aimed: &Aimed) -> Choice {
    let Some((browser_id, tab_id)) = super::effects::tab_of(out) else {
        return send("the action names no tab");
    };
    let key = crate::browser::target_key(&browser_id, &tab_id);
    if !has_baseline(session, &key) {
        return send("no earlier snapshot of the tab to compare with");
    }
    let Some(b) = daemon.config.browser.clone() else { return send("no browser backend") };
    let Ok(tab) = b.tab(&browser_id, &tab_id).await else { return send("the tab is gone") };
    match crate::browser::snapshot::outline(&tab, None).await {
        Ok(nodes) => judge(session, &key, &nodes, out, aimed, (None, false)),
        Err(e) => send(&format!("the page could not be outlined: {e}")),
    }
}

/// A new document: its whole outline is what changed (the text shows the page), and an
/// image goes too when the outline holds nothing (a canvas, a picture).
async fn navigated(daemon: &Daemon, session: &Session, out: &Done) -> Choice {
    let Some((browser_id, tab_id)) = super::effects::tab_of(out) else {
        return send("the page navigated");
    };
    let key = crate::browser::target_key(&browser_id, &tab_id);
    let Some(b) = daemon.config.browser.clone() else { return send("the page navigated") };
    let Ok(tab) = b.tab(&browser_id, &tab_id).await else { return send("the page navigated") };
    let nodes = match crate::browser::snapshot::outline(&tab, None).await {
        Ok(nodes) => nodes,
        Err(e) => return send(&format!("the page navigated and could not be outlined: {e}")),
    };
    let Ok(mut snaps) = session.snapshots.lock() else { return send("the page navigated") };
    let view = snaps.record(&key, Scope::Whole, &nodes, &budget());
    let changes = Some(changes_of(&view));
    if nodes.is_empty() {
        let why = "the page navigated and its outline is empty";
        return Choice { send: true, why: why.to_owned(), changes, frame: Frame::Screen };
    }
    Choice {
        send: false,
        why: "the page navigated; its outline follows".into(),
        changes,
        frame: Frame::Screen,
    }
}

async fn desktop(
    daemon: &Daemon,
    session: &Session,
    out: &Done,
    aimed: &Aimed,
    closed: &[Rect],
) -> Choice {
    let delivered = out.facts.delivered_to.as_ref().and_then(|d| d.app_id.as_deref());
    let app = out.target.as_ref().and_then(Target::app_id).or(delivered);
    let Some(pid) = app.and_then(crate::desktop::atspi::app_pid) else {
        return send("the action names no app to outline");
    };
    let key = format!("app:{pid}");
    if !has_baseline(session, &key) {
        return send("no earlier snapshot of the app to compare with");
    }
    let Some(d) = daemon.desktop() else { return send("no desktop backend") };
    match d.observe_app(pid, None, None, 60, true).await {
        Ok(o) => {
            // The screen says which pixels changed: the changed lines explain those in
            // their boxes.
            let after = match &aimed.screen {
                Some(_) => Screen::grab(&d).await,
                None => None,
            };
            let mut points =
                aimed.screen.as_ref().zip(after.as_ref()).and_then(|(b, a)| b.changed(a));
            if let (false, Some(p)) = (closed.is_empty(), points.as_mut()) {
                let shown_again = Revealed::of(&d, pid, closed).await;
                p.retain(|pt| !shown_again.holds(*pt));
            }
            let nodes = crate::desktop::nodes(&o.elems);
            let pixels = (points.as_deref(), !closed.is_empty());
            let mut choice = judge(session, &key, &nodes, out, aimed, pixels);
            if let (true, Some(before)) = (choice.send, &aimed.screen) {
                choice.frame = framed(before, points.as_deref());
            }
            choice
        }
        Err(e) => send(&format!("the app could not be outlined: {e}")),
    }
}

/// Where a desktop window closed: its former frames (what it covered shows again) and the
/// decorations of the app's windows (the one that takes the focus repaints its title bar).
/// The text names the closed window; the outline tells what shows there now.
struct Revealed {
    closed: Vec<Rect>,
    /// Each window's outer frame and client area.
    decorated: Vec<(Rect, Rect)>,
}

impl Revealed {
    async fn of(d: &crate::desktop::Desktop, pid: u32, closed: &[Rect]) -> Revealed {
        let windows = d.windows().await.unwrap_or_default();
        let decorated =
            windows.into_iter().filter(|w| w.pid == Some(pid)).map(|w| (w.frame, w.client));
        Revealed { closed: closed.to_vec(), decorated: decorated.collect() }
    }

    fn holds(&self, (x, y): (i64, i64)) -> bool {
        let inside = |r: &Rect| {
            let (rx, ry) = (i64::from(r.x), i64::from(r.y));
            x >= rx && y >= ry && x < rx + i64::from(r.width) && y < ry + i64::from(r.height)
        };
        self.closed.iter().any(inside)
            || self.decorated.iter().any(|(frame, client)| inside(frame) && !inside(client))
    }
}

/// The outline an outcome carries: about an image's worth of tokens at most, the rest
/// behind its cursor.
fn budget() -> Budget {
    Budget { limit: 300, max_bytes: 6_000, ..Budget::default() }
}

fn has_baseline(session: &Session, key: &str) -> bool {
    session.snapshots.lock().is_ok_and(|s| s.has_baseline(key))
}

/// Records the fresh outline as the session's next incremental snapshot of `key` and judges
/// whether its changes lie inside the acted element, or (`pixels`, on the desktop: where the
/// screen differs from before the action) whether the lines of what changed explain every
/// changed pixel.
fn judge(
    session: &Session,
    key: &str,
    nodes: &[Node],
    out: &Done,
    aimed: &Aimed,
    (pixels, closing): (Option<&[(i64, i64)]>, bool),
) -> Choice {
    let Ok(mut snaps) = session.snapshots.lock() else {
        return send("the session's snapshots are unreadable");
    };
    let acted = aimed
        .r#ref
        .as_deref()
        .and_then(|r| snaps.resolve(key, r, aimed.snapshot_id.as_deref()).ok());
    let view = snaps.record(key, Scope::Whole, nodes, &budget());
    drop(snaps);
    let inside = |k: &str| acted.as_deref().is_some_and(|a| within(nodes, a, k));
    // The focus leaving another element for the acted one is the action's own doing.
    let moved = |k: &String| acted.is_some() && view.focus_moved.contains(k);
    let outside = view.changed_keys.iter().filter(|k| !inside(k) && !moved(k)).count();
    let acted_ref = aimed.r#ref.as_deref().map(crate::registry::snapshots::normalize_ref);
    // The refs of a window that closed go with it; the text names both.
    let removed = match closing {
        true => 0,
        false => {
            view.removed_refs.iter().filter(|r| Some(r.as_str()) != acted_ref.as_deref()).count()
        }
    };
    let changes = Some(changes_of(&view));
    let whole = view.next_cursor.is_none();
    let shown = pixels
        .filter(|_| removed == 0 && whole)
        .is_some_and(|p| super::pixels::explained(nodes, &view.changed_keys, acted.as_deref(), p));
    if outside + removed > 0 && !shown {
        let why = if acted.is_some() {
            "the outline changed outside the acted element"
        } else {
            "the outline changed"
        };
        return Choice { send: true, why: why.to_owned(), changes, frame: Frame::Screen };
    }
    let verified = out.facts.verified == Some(true);
    let why = match (verified, view.changed_keys.is_empty()) {
        _ if closing => {
            "a window closed; what it covered and every other changed pixel are as the outline says"
        }
        (_, false) if outside > 0 => "every changed pixel lies in a changed line's box",
        (true, _) => "verified value, no other change",
        (false, true) => "no change in the outline",
        (false, false) => "changes only inside the acted element",
    };
    Choice { send: false, why: why.to_owned(), changes, frame: Frame::Screen }
}

/// Whether the node keyed `k` is the node keyed `acted`, one of its descendants, or lies
/// inside its box.
fn within(nodes: &[Node], acted: &str, k: &str) -> bool {
    let Some(i) = nodes.iter().position(|n| n.key == acted) else { return false };
    let a = &nodes[i];
    if k == acted {
        return true;
    }
    let sub = nodes[i + 1..].iter().take_while(|n| n.depth > a.depth);
    if sub.clone().any(|n| n.key == k) {
        return true;
    }
    let b = nodes.iter().find(|n| n.key == k).and_then(|n| n.bbox);
    match (a.bbox, b) {
        (Some([ax, ay, aw, ah]), Some([x, y, w, h])) => {
            x >= ax && y >= ay && x + w <= ax + aw && y + h <= ay + ah
        }
        _ => false,
    }
}

/// The incremental outline as the outcome carries it: only what a model reads.
fn changes_of(v: &View) -> Changes {
    Changes {
        snapshot_id: v.snapshot_id.clone(),
        mode: v.mode.to_owned(),
        snapshot: v.snapshot.clone(),
        removed_refs: v.removed_refs.clone(),
        next_cursor: v.next_cursor.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(key: &str, depth: u16, bbox: Option<[i64; 4]>) -> Node {
        Node { key: key.into(), depth, head: key.into(), bbox, ..Node::default() }
    }

    #[test]
    fn a_change_is_inside_when_it_is_the_element_its_subtree_or_within_its_box() {
        let nodes = [
            node("form", 0, Some([0, 0, 500, 500])),
            node("field", 1, Some([10, 10, 100, 20])),
            node("text", 2, None),
            node("hint", 1, Some([20, 12, 10, 10])),
            node("banner", 1, Some([0, 300, 500, 40])),
        ];
        assert!(within(&nodes, "field", "field"));
        assert!(within(&nodes, "field", "text"));
        assert!(within(&nodes, "field", "hint"));
        assert!(!within(&nodes, "field", "banner"));
        assert!(!within(&nodes, "field", "form"));
        assert!(!within(&nodes, "gone", "field"));
    }
}
