//! Snapshots: walking an app, a window, a subtree or the whole desktop, and the one-line
//! rendering of each element.

use std::sync::Arc;

use ::atspi::State;

use super::{parts, what, El};
use crate::desktop::atspi::{AppInfo, Elem, WalkOptions, ROOT};
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

fn truncate(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).collect();
    if s.chars().count() > max {
        out.push('…');
    }
    out
}

/// Snapshot lines: `role "name" [ref] @x,y wxh value="..." (states) actions=...`.
pub fn nodes(elems: &[Elem]) -> Vec<Node> {
    elems
        .iter()
        .map(|e| {
            let head = if e.name.is_empty() {
                e.role.clone()
            } else {
                format!("{} {:?}", e.role, truncate(&e.name, 120))
            };
            let mut tail = Vec::new();
            match e.bbox {
                Some((x, y, w, h)) => tail.push(format!("@{x},{y} {w}x{h}")),
                None if e.role != "application" => tail.push("(no box)".to_owned()),
                None => {}
            }
            if let Some(v) = &e.value {
                tail.push(format!("value={:?}", truncate(v, 100)));
            }
            let mut states: Vec<&str> = STATE_WORDS
                .iter()
                .filter(|(s, _)| e.states.contains(*s))
                .map(|(_, w)| *w)
                .collect();
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
            if !e.actions.is_empty() {
                tail.push(format!("actions={}", e.actions.join(",")));
            }
            Node { key: e.key.clone(), depth: e.depth, head, tail: tail.join(" ") }
        })
        .collect()
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
    /// last walk of the same subtree is returned when the app sent no event since.
    pub async fn observe_app(
        &self,
        pid: u32,
        scope: Option<&El>,
        window_title: Option<&str>,
        max_depth: u16,
        reuse: bool,
    ) -> Result<Arc<Vec<Elem>>, Error> {
        let app = self.app(pid).await?;
        let mut opts = self.walk_options(max_depth);
        opts.offset = self.offset_for(&app).await;
        opts.trust_visible = app.window_relative();
        let (bus, path) = match scope {
            Some(el) => parts(el)?,
            None => {
                let window = window_title
                    .and_then(|title| app.windows.iter().find(|w| w.0 == title))
                    .map(|w| w.2.as_str());
                (app.bus.as_str(), window.unwrap_or(ROOT))
            }
        };
        let out = if reuse {
            self.a11y.walk_reusing(bus, path, opts).await
        } else {
            Arc::new(self.a11y.walk(bus, path, opts).await)
        };
        match scope {
            Some(el) if out.is_empty() => Err(Error::Gone { what: what(el) }),
            _ => Ok(out),
        }
    }

    /// The whole desktop: every app (shallow by default).
    pub async fn observe_desktop(&self, max_depth: u16) -> Result<Vec<Elem>, Error> {
        let apps = self.apps().await?;
        let opts = self.walk_options(max_depth);
        let walks =
            futures::future::join_all(apps.iter().map(|a| self.a11y.walk(&a.bus, ROOT, opts)))
                .await;
        Ok(walks.into_iter().flatten().collect())
    }
}
