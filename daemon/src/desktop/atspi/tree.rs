//! Tree walks for snapshots: every node's role, name, states, interfaces and children are
//! fetched concurrently, then its box, actions and value; siblings are walked concurrently.
//! Subtrees of nodes that are not showing are not entered (closed menus, hidden pages).

use atspi::{Interface, InterfaceSet, State, StateSet};
use futures::future::{join_all, BoxFuture};
use zbus::zvariant::OwnedObjectPath;

use super::{key, A11y, ACCESSIBLE};

/// One element as walked.
#[derive(Debug, Clone)]
pub struct Elem {
    pub key: String,
    pub depth: u16,
    pub role: String,
    pub name: String,
    pub states: StateSet,
    pub ifaces: InterfaceSet,
    /// Screen box; `None` when the element has none (i32::MIN extents, empty, off screen).
    pub bbox: Option<(i32, i32, i32, i32)>,
    pub actions: Vec<String>,
    pub value: Option<String>,
}

#[derive(Debug, Clone, Copy)]
pub struct WalkOptions {
    pub max_depth: u16,
    pub max_nodes: usize,
    /// Added to extents (GTK 4 reports window-relative boxes).
    pub offset: (i32, i32),
    pub screen: (u16, u16),
    /// GTK 4 leaves `showing` off some visible containers: trust `visible` there.
    pub trust_visible: bool,
}

/// Whether extents describe a usable on-screen box.
pub fn on_screen(e: (i32, i32, i32, i32), screen: (u16, u16)) -> bool {
    let (x, y, w, h) = e;
    if x == i32::MIN || y == i32::MIN || w <= 0 || h <= 0 {
        return false;
    }
    let (cx, cy) = (x.saturating_add(w / 2), y.saturating_add(h / 2));
    cx >= 0 && cy >= 0 && cx < i32::from(screen.0) && cy < i32::from(screen.1)
}

impl A11y {
    /// Walks the subtree at `bus`/`path` in document order.
    pub async fn walk(&self, bus: &str, path: &str, opts: WalkOptions) -> Vec<Elem> {
        let budget = std::sync::atomic::AtomicUsize::new(opts.max_nodes);
        self.walk_node(bus.to_owned(), path.to_owned(), 0, opts, &budget).await
    }

    fn walk_node<'a>(
        &'a self,
        bus: String,
        path: String,
        depth: u16,
        opts: WalkOptions,
        budget: &'a std::sync::atomic::AtomicUsize,
    ) -> BoxFuture<'a, Vec<Elem>> {
        Box::pin(async move {
            use std::sync::atomic::Ordering;
            if budget
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_err()
            {
                return Vec::new();
            }
            let Some((mut elem, kids)) = self.elem(&bus, &path, depth, opts).await else {
                return Vec::new();
            };
            let showing = elem.states.contains(State::Showing)
                || depth == 0
                || opts.trust_visible && elem.states.contains(State::Visible);
            let enter = showing || elem.role == "application";
            let kids = if enter { kids } else { Vec::new() };
            if !showing && depth > 0 {
                elem.bbox = None;
            }
            let subtrees = join_all(
                kids.into_iter()
                    .map(|(b, p)| self.walk_node(b, p.to_string(), depth + 1, opts, budget)),
            )
            .await;
            let mut out = vec![elem];
            out.extend(subtrees.into_iter().flatten());
            out
        })
    }

    /// Everything a snapshot line says about one element, and its children. All calls go
    /// out at once (one round trip per tree level); calls to interfaces the element lacks
    /// just fail. Only values need a second call, for the few elements that have one.
    pub async fn elem(
        &self,
        bus: &str,
        path: &str,
        depth: u16,
        opts: WalkOptions,
    ) -> Option<(Elem, Vec<(String, OwnedObjectPath)>)> {
        let (role, name, states, ifaces, children, extents, actions) = futures::join!(
            self.call::<_, String>(bus, path, ACCESSIBLE, "GetRoleName", &()),
            self.prop::<String>(bus, path, ACCESSIBLE, "Name"),
            self.states(bus, path),
            self.interfaces(bus, path),
            async {
                if depth < opts.max_depth {
                    self.children(bus, path).await.unwrap_or_default()
                } else {
                    Vec::new()
                }
            },
            async {
                if depth > 0 {
                    self.extents(bus, path).await.ok()
                } else {
                    None
                }
            },
            self.actions(bus, path),
        );
        let role = role.ok()?;
        let ifaces = ifaces.unwrap_or_else(|_| InterfaceSet::empty());
        let states = states.unwrap_or_else(|_| StateSet::empty());
        let extents = extents.filter(|_| ifaces.contains(Interface::Component));
        let actions = if ifaces.contains(Interface::Action) {
            actions.unwrap_or_default()
        } else {
            Vec::new()
        };
        let value = self.display_value(bus, path, ifaces, &role).await;
        let bbox = extents
            .map(|(x, y, w, h)| {
                if x == i32::MIN || y == i32::MIN {
                    (x, y, w, h)
                } else {
                    (x + opts.offset.0, y + opts.offset.1, w, h)
                }
            })
            .filter(|e| on_screen(*e, opts.screen));
        let elem = Elem {
            key: key(bus, path),
            depth,
            role,
            name: name.unwrap_or_default(),
            states,
            ifaces,
            bbox,
            actions,
            value,
        };
        Some((elem, children))
    }

    async fn display_value(
        &self,
        bus: &str,
        path: &str,
        ifaces: InterfaceSet,
        role: &str,
    ) -> Option<String> {
        if ifaces.contains(Interface::Value) && !ifaces.contains(Interface::Text) {
            let v =
                self.prop::<f64>(bus, path, "org.a11y.atspi.Value", "CurrentValue").await.ok()?;
            return Some(format!("{v}"));
        }
        let texty = ifaces.contains(Interface::EditableText)
            || matches!(role, "text" | "entry" | "password text" | "spin button" | "editbar");
        if ifaces.contains(Interface::Text) && texty {
            let t: String = self
                .call(bus, path, "org.a11y.atspi.Text", "GetText", &(0i32, -1i32))
                .await
                .ok()?;
            return Some(t);
        }
        None
    }
}
