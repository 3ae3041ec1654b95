//! Tree walks for snapshots: every node's role, name, states, interfaces and children are
//! fetched concurrently, then its box, actions and value alongside its subtree; siblings are
//! walked concurrently.
//! Subtrees of nodes that are not showing are not entered (closed menus, hidden pages).
//! An app that exits or stops answering mid-walk cuts its tree short: what was read is kept,
//! no further call goes to it, and the walk reports it (see `trouble.rs`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use atspi::{Interface, InterfaceSet, State, StateSet};
use futures::future::{join_all, BoxFuture};
use zbus::zvariant::OwnedObjectPath;

use super::trouble::{Cut, Trouble};
use super::{iface, A11y, ACCESSIBLE};

/// An element's box, action names, value and the value's whole length when longer than read.
type Details = (Option<(i32, i32, i32, i32)>, Vec<String>, Option<(String, Option<usize>)>);

/// Characters of an element's text a line shows as its `value=`; the walk reads one more to
/// know there is more, and only then asks for the whole length.
pub const VALUE_CHARS: usize = 100;

/// One element as walked.
#[derive(Debug, Clone, Default)]
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
    /// The whole length of `value` in characters, when only its start was read.
    pub value_chars: Option<usize>,
}

/// What a walk read, and the apps it could not finish.
#[derive(Debug, Clone, Default)]
pub struct Walked {
    pub elems: Arc<Vec<Elem>>,
    pub trouble: Vec<Trouble>,
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

/// One walk's shared state: its node budget and the apps it stopped calling.
struct Run {
    opts: WalkOptions,
    budget: AtomicUsize,
    trouble: Mutex<Vec<Trouble>>,
}

impl Run {
    fn is_cut(&self, bus: &str) -> bool {
        self.trouble.lock().map(|t| t.iter().any(|t| t.bus == bus)).unwrap_or(false)
    }

    /// Notes a failed call; true when it cut the app off (its first such failure is kept).
    fn failed(&self, bus: &str, e: &zbus::Error) -> bool {
        let Some(cut) = Cut::of(e) else { return false };
        if let Ok(mut trouble) = self.trouble.lock() {
            if !trouble.iter().any(|t| t.bus == bus) {
                tracing::debug!(bus, ?cut, %e, "walk cut short");
                trouble.push(Trouble { bus: bus.to_owned(), cut, read: 0 });
            }
        }
        true
    }

    /// The value of a call, noting an app-level failure; `None` on any failure.
    fn ok<T>(&self, bus: &str, r: zbus::Result<T>) -> Option<T> {
        r.inspect_err(|e| {
            self.failed(bus, e);
        })
        .ok()
    }
}

impl A11y {
    /// Walks the subtree at `bus`/`path` in document order.
    pub async fn walk(&self, bus: &str, path: &str, opts: WalkOptions) -> Walked {
        let run =
            Run { opts, budget: AtomicUsize::new(opts.max_nodes), trouble: Mutex::new(Vec::new()) };
        let elems = self.walk_node(bus.to_owned(), path.to_owned(), 0, &run).await;
        let mut trouble = run.trouble.into_inner().unwrap_or_default();
        // Replies already on their way still come in after the first failure: count what
        // the snapshot holds of each app.
        for t in &mut trouble {
            t.read = elems
                .iter()
                .filter(|e| super::split_key(&e.key).is_some_and(|(b, _)| b == t.bus))
                .count();
        }
        Walked { elems: Arc::new(elems), trouble }
    }

    fn walk_node<'a>(
        &'a self,
        bus: String,
        path: String,
        depth: u16,
        run: &'a Run,
    ) -> BoxFuture<'a, Vec<Elem>> {
        Box::pin(async move {
            let opts = run.opts;
            if run.is_cut(&bus)
                || run
                    .budget
                    .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                    .is_err()
            {
                return Vec::new();
            }
            let Some((mut elem, kids)) = self.head(&bus, &path, depth, run).await else {
                return Vec::new();
            };
            let showing = elem.states.contains(State::Showing)
                || depth == 0
                || opts.trust_visible && elem.states.contains(State::Visible);
            let enter = showing || elem.role == "application";
            let kids = if enter { kids } else { Vec::new() };
            // The element's details and its subtrees are fetched concurrently.
            let ((bbox, actions, value), subtrees) = futures::join!(
                self.details(&bus, &path, &elem, showing, run),
                join_all(kids.into_iter().map(|(b, p)| self.walk_node(
                    b,
                    p.to_string(),
                    depth + 1,
                    run
                )))
            );
            (elem.bbox, elem.actions) = (bbox, actions);
            (elem.value, elem.value_chars) = value.map_or((None, None), |(v, n)| (Some(v), n));
            let mut out = vec![elem];
            out.extend(subtrees.into_iter().flatten());
            out
        })
    }

    /// What every element has, and its children: all asked at once (one round trip per tree
    /// level); role and interfaces only the first time an element is seen. The box, actions
    /// and value come from [`A11y::details`]. `None` when the element is gone or its app
    /// failed (noted in `run`).
    async fn head(
        &self,
        bus: &str,
        path: &str,
        depth: u16,
        run: &Run,
    ) -> Option<(Elem, Vec<(String, OwnedObjectPath)>)> {
        let key = self.key(bus, path);
        let known = self.fixed.get(&key);
        let (fixed, name, states, children) = futures::join!(
            async {
                if let Some(f) = known {
                    return Ok(f);
                }
                let (role, ifaces) = futures::join!(
                    self.call::<_, String>(bus, path, ACCESSIBLE, "GetRoleName", &()),
                    self.interfaces(bus, path),
                );
                let f = (role?, ifaces.unwrap_or_else(|_| InterfaceSet::empty()));
                self.fixed.put(&key, &f);
                Ok(f)
            },
            self.prop::<String>(bus, path, ACCESSIBLE, "Name"),
            self.states(bus, path),
            async {
                if depth < run.opts.max_depth {
                    self.children(bus, path).await
                } else {
                    Ok(Vec::new())
                }
            },
        );
        let failed = |r: Option<&zbus::Error>| r.is_some_and(|e| run.failed(bus, e));
        if failed(fixed.as_ref().err())
            | failed(name.as_ref().err())
            | failed(states.as_ref().err())
            | failed(children.as_ref().err())
        {
            return None;
        }
        let (role, ifaces) = fixed.ok()?;
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
            value_chars: None,
        };
        Some((elem, children.unwrap_or_default()))
    }

    /// Only what the element's interfaces and states call for, so no call is made just to
    /// fail: a box when it is showing, its actions, a value.
    async fn details(&self, bus: &str, path: &str, e: &Elem, shown: bool, run: &Run) -> Details {
        let opts = run.opts;
        let (extents, actions, value) = futures::join!(
            async {
                if shown && e.depth > 0 && e.ifaces.contains(Interface::Component) {
                    run.ok(bus, self.extents(bus, path).await)
                } else {
                    None
                }
            },
            async {
                if !e.ifaces.contains(Interface::Action) {
                    return Vec::new();
                }
                if let Some(known) = self.fixed.actions(&e.key) {
                    return known;
                }
                let got = run.ok(bus, self.actions(bus, path).await);
                if let Some(a) = &got {
                    self.fixed.put_actions(&e.key, a);
                }
                got.unwrap_or_default()
            },
            async { run.ok(bus, self.display_value(bus, path, e.ifaces, &e.role).await).flatten() },
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
    ) -> zbus::Result<Option<(String, Option<usize>)>> {
        if ifaces.contains(Interface::Value) && !ifaces.contains(Interface::Text) {
            let v = self.prop::<f64>(bus, path, iface::VALUE, "CurrentValue").await?;
            return Ok(Some((format!("{v}"), None)));
        }
        let texty = ifaces.contains(Interface::EditableText)
            || matches!(role, "text" | "entry" | "password text" | "spin button" | "editbar");
        if ifaces.contains(Interface::Text) && texty {
            // A line shows the first characters; one more says there is more, and only then
            // is the whole length asked. A whole document would cost the app far more than
            // the rest of the walk.
            let read = VALUE_CHARS as i32 + 1;
            let t: String = self.call(bus, path, iface::TEXT, "GetText", &(0i32, read)).await?;
            if t.chars().count() <= VALUE_CHARS {
                return Ok(Some((t, None)));
            }
            let n = self.prop::<i32>(bus, path, iface::TEXT, "CharacterCount").await?;
            return Ok(Some((t, usize::try_from(n).ok())));
        }
        Ok(None)
    }
}
