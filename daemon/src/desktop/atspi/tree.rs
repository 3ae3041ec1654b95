//! Tree walks for snapshots: every node's role, name, states, interfaces and children are
//! fetched concurrently, then its box, actions and value alongside its subtree; siblings are
//! walked concurrently.
//! Subtrees of nodes that are not showing are not entered (closed menus, hidden pages).

use atspi::{Interface, InterfaceSet, State, StateSet};
use futures::future::{join_all, BoxFuture};
use zbus::zvariant::OwnedObjectPath;

use super::{key, A11y, ACCESSIBLE};

/// An element's box, action names and value.
type Details = (Option<(i32, i32, i32, i32)>, Vec<String>, Option<String>);

/// Characters of an element's text a walk reads for its `value=`.
const VALUE_CHARS: i32 = 101;

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
            let Some((mut elem, kids)) = self.head(&bus, &path, depth, opts).await else {
                return Vec::new();
            };
            let showing = elem.states.contains(State::Showing)
                || depth == 0
                || opts.trust_visible && elem.states.contains(State::Visible);
            let enter = showing || elem.role == "application";
            let kids = if enter { kids } else { Vec::new() };
            // The element's details and its subtrees are fetched concurrently.
            let ((bbox, actions, value), subtrees) = futures::join!(
                self.details(&bus, &path, &elem, showing, opts),
                join_all(kids.into_iter().map(|(b, p)| self.walk_node(
                    b,
                    p.to_string(),
                    depth + 1,
                    opts,
                    budget
                )),)
            );
            (elem.bbox, elem.actions, elem.value) = (bbox, actions, value);
            let mut out = vec![elem];
            out.extend(subtrees.into_iter().flatten());
            out
        })
    }

    /// What every element has, and its children: all asked at once (one round trip per tree
    /// level); role and interfaces only the first time an element is seen. The box, actions
    /// and value come from [`A11y::details`].
    async fn head(
        &self,
        bus: &str,
        path: &str,
        depth: u16,
        opts: WalkOptions,
    ) -> Option<(Elem, Vec<(String, OwnedObjectPath)>)> {
        let key = key(bus, path);
        let known = self.fixed.get(&key);
        let (fixed, name, states, children) = futures::join!(
            async {
                if let Some(f) = known {
                    return Some(f);
                }
                let (role, ifaces) = futures::join!(
                    self.call::<_, String>(bus, path, ACCESSIBLE, "GetRoleName", &()),
                    self.interfaces(bus, path),
                );
                let f = (role.ok()?, ifaces.unwrap_or_else(|_| InterfaceSet::empty()));
                self.fixed.put(&key, &f);
                Some(f)
            },
            self.prop::<String>(bus, path, ACCESSIBLE, "Name"),
            self.states(bus, path),
            async {
                if depth < opts.max_depth {
                    self.children(bus, path).await.unwrap_or_default()
                } else {
                    Vec::new()
                }
            },
        );
        let (role, ifaces) = fixed?;
        let elem = Elem {
            key,
            depth,
            role,
            name: name.unwrap_or_default(),
            states: states.unwrap_or_else(|_| StateSet::empty()),
            ifaces,
            bbox: None,
            actions: Vec::new(),
            value: None,
        };
        Some((elem, children))
    }

    /// Only what the element's interfaces and states call for, so no call is made just to
    /// fail: a box when it is showing, its actions, a value.
    async fn details(
        &self,
        bus: &str,
        path: &str,
        e: &Elem,
        shown: bool,
        opts: WalkOptions,
    ) -> Details {
        let (extents, actions, value) = futures::join!(
            async {
                if shown && e.depth > 0 && e.ifaces.contains(Interface::Component) {
                    self.extents(bus, path).await.ok()
                } else {
                    None
                }
            },
            async {
                if e.ifaces.contains(Interface::Action) {
                    self.actions(bus, path).await.unwrap_or_default()
                } else {
                    Vec::new()
                }
            },
            self.display_value(bus, path, e.ifaces, &e.role),
        );
        let bbox = extents
            .map(|(x, y, w, h)| {
                if x == i32::MIN || y == i32::MIN {
                    (x, y, w, h)
                } else {
                    (x + opts.offset.0, y + opts.offset.1, w, h)
                }
            })
            .filter(|b| on_screen(*b, opts.screen));
        (bbox, actions, value)
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
            // A line shows the first 100 characters; one more says there is more. A whole
            // document would cost the app far more than the rest of the walk.
            let t: String = self
                .call(bus, path, "org.a11y.atspi.Text", "GetText", &(0i32, VALUE_CHARS))
                .await
                .ok()?;
            return Some(t);
        }
        None
    }
}
