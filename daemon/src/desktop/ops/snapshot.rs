//! Snapshots: walking an app, a window, a subtree or the whole desktop, and the one-line
//! rendering of each element. A walk an app cut short (it exited or stopped answering) still
//! gives what was read, with a warning per such app.

use std::sync::Arc;

use ::atspi::{Interface, State};
use glovebox_protocol::outline::quoted;

use super::{compact, what, El};
use crate::desktop::atspi::{A11y, AppInfo, Cut, Elem, WalkOptions, Walked, ROOT, VALUE_CHARS};
use crate::desktop::x11::WindowInfo;
use crate::desktop::{Desktop, Error};
use crate::registry::snapshots::Node;

const STATE_WORDS: &[(State, &str)] = &[
    (State::Active, "active"),
    (State::Focused, "focused"),
    (State::Selected, "selected"),
    (State::Checked, "checked"),
    (State::Pressed, "pressed"),
    (State::Expanded, "expanded"),
    (State::Editable, "editable"),
    (State::Modal, "modal"),
    (State::Iconified, "minimized"),
];

/// What a snapshot walk read, and what it had to leave out.
#[derive(Debug, Clone, Default)]
pub struct Observed {
    pub elems: Arc<Vec<Elem>>,
    /// One line per app whose tree was cut short.
    pub warnings: Vec<String>,
}

/// A warning per app the walk cut short, naming it by the app id `apps` or the bus knows.
fn warnings(walked: &Walked, apps: &[AppInfo], a11y: &A11y) -> Vec<String> {
    walked
        .trouble
        .iter()
        .map(|t| {
            let pid = apps.iter().find(|a| a.bus == t.bus).map(|a| a.pid);
            let app = pid
                .or_else(|| a11y.pid_of(&t.bus))
                .map_or_else(|| t.bus.clone(), |p| format!("app:{p}"));
            t.warning(&app)
        })
        .collect()
}

/// Snapshot lines: `role "name" [ref] @x,y wxh value="..." (states) actions=...`; names and
/// values as JSON strings, a long one cut with the marker and its whole length; under the
/// compact rules (`compact.rs`): toolkit-default actions unlisted, closed menus folded.
pub fn nodes(elems: &[Elem]) -> Vec<Node> {
    let (kept, folded) = compact::fold_closed_menus(elems);
    let mut out: Vec<Node> = kept.into_iter().map(node).collect();
    for (i, items) in folded {
        let n = &mut out[i];
        let closed = format!("(closed, {items} items)");
        n.tail = if n.tail.is_empty() { closed } else { format!("{closed} {}", n.tail) };
    }
    out
}

/// Every element's line, closed menus' items too: a snapshot scoped to a subtree asks for
/// what is in it.
pub fn nodes_unfolded(elems: &[Elem]) -> Vec<Node> {
    elems.iter().map(node).collect()
}

fn node(e: &Elem) -> Node {
    let head = if e.name.is_empty() {
        e.role.clone()
    } else {
        format!("{} {}", e.role, quoted(&compact::collapsed(&e.name), 120, None))
    };
    let mut tail = Vec::new();
    let bbox = e.bbox.map(|(x, y, w, h)| [x, y, w, h].map(i64::from));
    if bbox.is_none() && e.role != "application" {
        tail.push("(no box)".to_owned());
    }
    if let Some(v) = &e.value {
        tail.push(format!("value={}", quoted(v, VALUE_CHARS, e.value_chars)));
    }
    let mut states: Vec<&str> =
        STATE_WORDS.iter().filter(|(s, _)| e.states.contains(*s)).map(|(_, w)| *w).collect();
    if !e.states.contains(State::Enabled)
        && !e.states.contains(State::Sensitive)
        && e.role != "application"
    {
        states.push("disabled");
    }
    if e.states.contains(State::Expandable) && !e.states.contains(State::Expanded) {
        states.push("collapsed");
    }
    if !states.is_empty() {
        tail.push(format!("({})", states.join(", ")));
    }
    let actions = compact::listed(&e.role, &e.actions);
    if !actions.is_empty() {
        tail.push(format!("actions={}", actions.join(",")));
    }
    Node {
        key: e.key.clone(),
        depth: e.depth,
        head,
        bbox,
        tail: tail.join(" "),
        control: !e.actions.is_empty() || e.ifaces.contains(Interface::EditableText),
    }
}

/// States as the window manager sees them: a frame is `active` only when its X window is
/// the active window, and nothing in an inactive frame is `active` or `focused` (toolkits
/// keep both on a window that lost, or never got, the focus).
fn ewmh_states(a11y: &A11y, app: &AppInfo, wins: &[WindowInfo], elems: &[Elem]) -> Vec<Elem> {
    let own: Vec<&WindowInfo> = wins.iter().filter(|w| w.pid == Some(app.pid)).collect();
    let app_active = own.iter().any(|w| w.active);
    let titles: Vec<&str> = app.windows.iter().map(|w| w.0.as_str()).collect();
    let frames: Vec<(String, bool)> = app
        .windows
        .iter()
        .map(|(title, _, path, _)| {
            let x = super::apps::x_window_of(title, &titles, &own);
            (a11y.key(&app.bus, path), x.map_or(app_active && own.len() == 1, |w| w.active))
        })
        .collect();
    let words = State::Active | State::Focused;
    let mut out = Vec::with_capacity(elems.len());
    // (depth of the frame being walked, whether it is active)
    let mut frame: Option<(u16, bool)> = None;
    for e in elems.iter() {
        let mut e = e.clone();
        if frame.is_some_and(|(d, _)| e.depth <= d) {
            frame = None;
        }
        if let Some((_, active)) = frames.iter().find(|(k, _)| *k == e.key) {
            frame = Some((e.depth, *active));
            if *active {
                e.states.insert(State::Active);
            } else {
                e.states.remove(State::Active);
            }
        } else if !frame.map_or(app_active, |(_, active)| active) {
            e.states.remove(words);
        }
        out.push(e);
    }
    out
}

impl Desktop {
    fn walk_options(&self, max_depth: u16) -> WalkOptions {
        WalkOptions {
            max_depth,
            max_nodes: 5000,
            offset: (0, 0),
            screen: self.screen(),
            trust_visible: false,
        }
    }

    /// GTK 4 boxes are window-relative: the origin of the app's window to add.
    pub(super) async fn offset_for(&self, app: &AppInfo) -> (i32, i32) {
        if !app.window_relative() {
            return (0, 0);
        }
        let wins = self.windows().await.unwrap_or_default();
        let active = app.windows.iter().find(|w| w.3).map(|w| w.0.clone());
        wins.iter()
            .filter(|w| w.pid == Some(app.pid))
            .find(|w| active.as_deref().is_none_or(|t| t == w.title))
            .or_else(|| wins.iter().find(|w| w.pid == Some(app.pid)))
            .map(|w| (w.client.x, w.client.y))
            .unwrap_or((0, 0))
    }

    /// Walks an app (or one of its windows, or a subtree) for a snapshot. With `reuse`, the
    /// last walk of the same subtree is returned when the app sent no event since. When the
    /// app fails before anything is read: `NotFound` (it exited; `Gone` for a subtree) or
    /// `NotAnswering`; when the bus itself went during the walk, `BusLost`.
    pub async fn observe_app(
        &self,
        pid: u32,
        scope: Option<&El>,
        window_title: Option<&str>,
        max_depth: u16,
        reuse: bool,
    ) -> Result<Observed, Error> {
        let a11y = self.a11y()?;
        let app = self.app(pid).await?;
        let mut opts = self.walk_options(max_depth);
        opts.offset = self.offset_for(&app).await;
        opts.trust_visible = app.window_relative();
        let (bus, path) = match scope {
            Some(el) => self.parts(el)?,
            None => {
                let window = window_title
                    .and_then(|title| app.windows.iter().find(|w| w.0 == title))
                    .map(|w| w.2.as_str());
                (app.bus.as_str(), window.unwrap_or(ROOT))
            }
        };
        let walked = if reuse {
            a11y.walk_reusing(bus, path, opts).await
        } else {
            a11y.walk(bus, path, opts).await
        };
        a11y.check_open()?;
        let failed = walked.trouble.iter().find(|t| t.bus == bus).map(|t| t.cut);
        match (scope, failed) {
            (_, Some(Cut::NotAnswering)) if walked.elems.is_empty() => {
                Err(Error::NotAnswering { what: app.app_id() })
            }
            (None, Some(Cut::Exited)) if walked.elems.is_empty() => {
                Err(Error::NotFound { kind: "app", id: app.app_id() })
            }
            (Some(el), _) if walked.elems.is_empty() => Err(Error::Gone { what: what(el) }),
            _ => Ok(Observed {
                warnings: warnings(&walked, std::slice::from_ref(&app), &a11y),
                elems: match self.windows().await {
                    Ok(wins) => Arc::new(ewmh_states(&a11y, &app, &wins, &walked.elems)),
                    Err(_) => walked.elems,
                },
            }),
        }
    }

    /// The whole desktop: every app (shallow by default); an app that fails is left out with
    /// a warning.
    pub async fn observe_desktop(&self, max_depth: u16) -> Result<Observed, Error> {
        let a11y = self.a11y()?;
        let apps = a11y.apps().await?;
        let opts = self.walk_options(max_depth);
        let walks =
            futures::future::join_all(apps.iter().map(|a| a11y.walk(&a.bus, ROOT, opts))).await;
        a11y.check_open()?;
        let warnings = walks.iter().flat_map(|w| warnings(w, &apps, &a11y)).collect();
        let wins = self.windows().await.unwrap_or_default();
        let elems = apps
            .iter()
            .zip(&walks)
            .flat_map(|(app, w)| ewmh_states(&a11y, app, &wins, &w.elems))
            .collect::<Vec<_>>();
        Ok(Observed { elems: Arc::new(elems), warnings })
    }
}
