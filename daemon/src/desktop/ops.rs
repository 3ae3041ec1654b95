//! What the backend does, as typed methods for the dispatch layer: apps, windows, snapshots,
//! element actions (semantic through AT-SPI or real input through XTest), keys, capture and
//! the clipboard.

use std::time::{Duration, Instant};

use ::atspi::{Interface, State};
use serde::Serialize;

use super::atspi::{split_key, AppInfo, Elem, WalkOptions, ROOT};
use super::clipboard::Content;
use super::keys;
use super::x11::{self, Encoded, ImageFormat, WindowInfo, WindowOp};
use super::{Desktop, Error};
use crate::registry::snapshots::Node;

/// How an action may reach the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dispatch {
    Auto,
    /// Accessibility only: never moves the pointer or focus.
    Background,
    /// Real input.
    Foreground,
}

impl Dispatch {
    pub fn parse(s: Option<&str>) -> Dispatch {
        match s {
            Some("background") => Dispatch::Background,
            Some("foreground") => Dispatch::Foreground,
            _ => Dispatch::Auto,
        }
    }
}

/// An element named by a ref: its bus key and the ref for messages.
#[derive(Debug, Clone)]
pub struct El {
    pub key: String,
    pub label: String,
}

/// How an action was carried out.
#[derive(Debug, Clone, Serialize)]
pub struct Acted {
    pub via: String,
    pub actual_dispatch: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<Point>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Acted {
    fn semantic(via: impl Into<String>) -> Acted {
        Acted { via: via.into(), actual_dispatch: "background", at: None, value: None }
    }
    fn real(via: &str, at: Option<(i32, i32)>) -> Acted {
        Acted {
            via: via.into(),
            actual_dispatch: "foreground",
            at: at.map(|(x, y)| Point { x, y }),
            value: None,
        }
    }
}

/// An element's text with its caret and selection (character offsets).
#[derive(Debug, Clone, Serialize)]
pub struct TextState {
    pub text: String,
    pub length: usize,
    pub caret: Option<i32>,
    pub selection: Option<(i32, i32)>,
}

/// An app as `list_apps` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct AppView {
    pub app_id: String,
    pub name: String,
    pub pid: u32,
    pub toolkit: String,
    pub accessible: bool,
    pub windows: Vec<AppWindow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct AppWindow {
    pub window_id: Option<String>,
    pub title: String,
    pub role: String,
    pub active: bool,
}

/// What `get_app` found or started.
#[derive(Debug, Clone)]
pub enum Got {
    Found(AppInfo),
    Launched { pid: u32, app: Option<AppInfo>, argv: Vec<String> },
}

const CLICK_ACTIONS: &[&str] =
    &["click", "press", "activate", "toggle", "jump", "open", "select", "switch"];
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

fn what(el: &El) -> String {
    el.label.clone()
}

fn parts(el: &El) -> Result<(&str, &str), Error> {
    split_key(&el.key).ok_or_else(|| Error::Gone { what: what(el) })
}

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
    async fn xrun<T, F>(&self, f: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&x11::X) -> Result<T, Error> + Send + 'static,
    {
        let x = self.x.clone();
        tokio::task::spawn_blocking(move || f(&x))
            .await
            .map_err(|e| Error::Failed(e.to_string()))?
    }

    // ---- Apps and windows. ----

    pub async fn apps(&self) -> Result<Vec<AppInfo>, Error> {
        self.a11y.apps().await
    }

    pub async fn windows(&self) -> Result<Vec<WindowInfo>, Error> {
        self.xrun(|x| x.windows()).await
    }

    pub async fn list_apps(&self) -> Result<Vec<AppView>, Error> {
        let (apps, wins) = futures::join!(self.apps(), self.windows());
        let wins = wins.unwrap_or_default();
        Ok(apps?
            .into_iter()
            .map(|a| {
                let windows = a
                    .windows
                    .iter()
                    .map(|(title, role, _, active)| AppWindow {
                        window_id: wins
                            .iter()
                            .find(|w| {
                                w.pid == Some(a.pid) && (w.title == *title || title.is_empty())
                            })
                            .or_else(|| wins.iter().find(|w| w.pid == Some(a.pid)))
                            .map(|w| w.window_id.clone()),
                        title: title.clone(),
                        role: role.clone(),
                        active: *active,
                    })
                    .collect();
                let toolkit = if a.toolkit_version.is_empty() {
                    a.toolkit.clone()
                } else {
                    format!("{} {}", a.toolkit, a.toolkit_version)
                };
                AppView {
                    app_id: a.app_id(),
                    name: a.name,
                    pid: a.pid,
                    toolkit,
                    accessible: true,
                    windows,
                }
            })
            .collect())
    }

    pub async fn app(&self, pid: u32) -> Result<AppInfo, Error> {
        self.apps()
            .await?
            .into_iter()
            .find(|a| a.pid == pid)
            .ok_or_else(|| Error::NotFound { kind: "app", id: format!("app:{pid}") })
    }

    fn candidates(apps: &[&AppInfo]) -> Vec<serde_json::Value> {
        apps.iter()
            .map(|a| {
                let titles: Vec<&str> = a.windows.iter().map(|w| w.0.as_str()).collect();
                serde_json::json!({"app_id": a.app_id(), "name": a.name, "pid": a.pid, "windows": titles})
            })
            .collect()
    }

    /// Apps matching `query`: an app id, a name, a desktop entry or an executable name/path.
    pub async fn find_apps(&self, query: &str) -> Result<Vec<AppInfo>, Error> {
        let apps = self.apps().await?;
        if let Some(pid) = query.strip_prefix("app:").and_then(|p| p.parse::<u32>().ok()) {
            return Ok(apps.into_iter().filter(|a| a.pid == pid).collect());
        }
        let q = query.to_lowercase();
        let base = std::path::Path::new(query)
            .file_name()
            .and_then(|b| b.to_str())
            .unwrap_or(query)
            .to_lowercase();
        let entry = super::launch::find_entry(query, &self.endpoints.env);
        let entry_name = entry.as_ref().map(|(_, n, _)| n.to_lowercase());
        let entry_bin = entry.as_ref().and_then(|(_, _, exec)| {
            super::launch::exec_argv(exec).first().and_then(|p| {
                std::path::Path::new(p).file_name().map(|f| f.to_string_lossy().to_lowercase())
            })
        });
        Ok(apps
            .into_iter()
            .filter(|a| {
                let name = a.name.to_lowercase();
                let comm = std::fs::read_to_string(format!("/proc/{}/comm", a.pid))
                    .unwrap_or_default()
                    .trim()
                    .to_lowercase();
                let exe = std::fs::read_link(format!("/proc/{}/exe", a.pid))
                    .ok()
                    .and_then(|p| p.file_name().map(|f| f.to_string_lossy().to_lowercase()))
                    .unwrap_or_default();
                name == q
                    || name == base
                    || (!comm.is_empty() && comm == base)
                    || (!exe.is_empty() && exe == base)
                    || entry_name.as_deref() == Some(name.as_str())
                    || entry_bin.as_deref().is_some_and(|b| b == comm || b == exe)
            })
            .collect())
    }

    /// Selects one app by `query`, or (with `launch`) starts it and waits for it on the bus.
    pub async fn get_app(
        &self,
        query: &str,
        launch: bool,
        deadline: Instant,
    ) -> Result<Got, Error> {
        let found = self.find_apps(query).await?;
        match found.len() {
            1 => {
                return Ok(Got::Found(
                    found.into_iter().next().ok_or(Error::Failed("app vanished".into()))?,
                ))
            }
            n if n > 1 => {
                let refs: Vec<&AppInfo> = found.iter().collect();
                return Err(Error::Ambiguous {
                    kind: "app",
                    query: query.to_owned(),
                    candidates: Self::candidates(&refs),
                });
            }
            _ => {}
        }
        if !launch || query.starts_with("app:") {
            return Err(Error::NotFound { kind: "app", id: query.to_owned() });
        }
        let Some(argv) = super::launch::resolve(query, &self.endpoints.env) else {
            return Err(Error::NotFound {
                kind: "app",
                id: format!("{query} (no running app, desktop entry, PATH executable or absolute path by that name)"),
            });
        };
        let before: Vec<u32> = self.apps().await?.iter().map(|a| a.pid).collect();
        let pid = self
            .supervisor
            .launch_app(&argv, &self.endpoints.env)
            .map_err(|e| Error::Failed(format!("cannot start {argv:?}: {e}")))?;
        // Wait for the app on the bus; give up early when it has a window but no bus presence.
        let mut window_since: Option<Instant> = None;
        loop {
            if let Ok(apps) = self.apps().await {
                if let Some(a) = apps.iter().find(|a| a.pid == pid) {
                    return Ok(Got::Launched { pid, app: Some(a.clone()), argv });
                }
                let base = std::path::Path::new(&argv[0])
                    .file_name()
                    .map(|f| f.to_string_lossy().to_lowercase());
                let handed_over = apps.iter().find(|a| {
                    !before.contains(&a.pid)
                        && base.as_deref().is_some_and(|b| {
                            std::fs::read_to_string(format!("/proc/{}/comm", a.pid))
                                .unwrap_or_default()
                                .trim()
                                .eq_ignore_ascii_case(b)
                        })
                });
                if let Some(a) = handed_over {
                    return Ok(Got::Launched { pid: a.pid, app: Some(a.clone()), argv });
                }
            }
            let has_window =
                self.windows().await.map(|w| w.iter().any(|w| w.pid == Some(pid))).unwrap_or(false);
            if has_window && window_since.is_none() {
                window_since = Some(Instant::now());
            }
            let exited = !self.supervisor.is_running(pid);
            let gave_up = window_since.is_some_and(|t| t.elapsed() > Duration::from_millis(2500));
            if exited || gave_up || Instant::now() >= deadline {
                return Ok(Got::Launched { pid, app: None, argv });
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    // ---- Snapshots. ----

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
    async fn offset_for(&self, app: &AppInfo) -> (i32, i32) {
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

    /// Walks an app (or one of its windows, or a subtree) for a snapshot.
    pub async fn observe_app(
        &self,
        pid: u32,
        scope: Option<&El>,
        window_title: Option<&str>,
        max_depth: u16,
    ) -> Result<Vec<Elem>, Error> {
        let app = self.app(pid).await?;
        let mut opts = self.walk_options(max_depth);
        opts.offset = self.offset_for(&app).await;
        opts.trust_visible = app.window_relative();
        if let Some(el) = scope {
            let (bus, path) = parts(el)?;
            let out = self.a11y.walk(bus, path, opts).await;
            if out.is_empty() {
                return Err(Error::Gone { what: what(el) });
            }
            return Ok(out);
        }
        if let Some(title) = window_title {
            if let Some((_, _, path, _)) = app.windows.iter().find(|w| w.0 == title) {
                return Ok(self.a11y.walk(&app.bus, path, opts).await);
            }
        }
        Ok(self.a11y.walk(&app.bus, ROOT, opts).await)
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

    // ---- One element. ----

    async fn describe(&self, el: &El) -> String {
        match parts(el) {
            Ok((bus, path)) => format!("{} ({})", el.label, self.a11y.describe(bus, path).await),
            Err(_) => el.label.clone(),
        }
    }

    /// The centre of the element's on-screen box, or `NO_GEOMETRY`.
    pub async fn center(&self, el: &El) -> Result<(i32, i32), Error> {
        let (bus, path) = parts(el)?;
        let (ext, states) =
            futures::join!(self.a11y.extents(bus, path), self.a11y.states(bus, path));
        let states = states.map_err(|e| Error::call(what(el), e))?;
        let ext = ext.ok();
        let (mut offset, mut trust_visible) = ((0, 0), false);
        if let Ok(app) = self.app_of(bus).await {
            offset = self.offset_for(&app).await;
            trust_visible = app.window_relative();
        }
        let shown =
            states.contains(State::Showing) || trust_visible && states.contains(State::Visible);
        let boxed = ext
            .map(|(x, y, w, h)| {
                if x == i32::MIN || y == i32::MIN {
                    (x, y, w, h)
                } else {
                    (x + offset.0, y + offset.1, w, h)
                }
            })
            .filter(|e| super::atspi::tree_on_screen(*e, self.screen()));
        match boxed {
            Some((x, y, w, h)) if shown => Ok((x + w / 2, y + h / 2)),
            _ => Err(Error::NoGeometry { what: self.describe(el).await }),
        }
    }

    async fn app_of(&self, bus: &str) -> Result<AppInfo, Error> {
        self.apps()
            .await?
            .into_iter()
            .find(|a| a.bus == bus)
            .ok_or_else(|| Error::Gone { what: bus.to_owned() })
    }

    async fn actions_of(&self, el: &El) -> Result<Vec<String>, Error> {
        let (bus, path) = parts(el)?;
        let ifaces = self.a11y.interfaces(bus, path).await.map_err(|e| Error::call(what(el), e))?;
        if !ifaces.contains(Interface::Action) {
            return Ok(Vec::new());
        }
        self.a11y.actions(bus, path).await.map_err(|e| Error::call(what(el), e))
    }

    pub async fn click(
        &self,
        el: &El,
        button: u8,
        count: u8,
        dispatch: Dispatch,
    ) -> Result<Acted, Error> {
        let plain = button == 1 && count == 1;
        if plain && dispatch != Dispatch::Foreground {
            let actions = self.actions_of(el).await?;
            let pick = CLICK_ACTIONS
                .iter()
                .find_map(|want| actions.iter().position(|a| a.eq_ignore_ascii_case(want)));
            if let Some(i) = pick {
                let (bus, path) = parts(el)?;
                let ok = self
                    .a11y
                    .do_action(bus, path, i as i32)
                    .await
                    .map_err(|e| Error::call(what(el), e))?;
                if !ok {
                    return Err(Error::Failed(format!(
                        "{} refused its {} action",
                        self.describe(el).await,
                        actions[i]
                    )));
                }
                return Ok(Acted::semantic(format!("accessibility:{}", actions[i])));
            }
            if dispatch == Dispatch::Background {
                return Err(Error::Unsupported {
                    action: "click".into(),
                    reason: format!("{} has no click-like accessibility action; use dispatch auto or foreground", self.describe(el).await),
                    available: actions,
                });
            }
        } else if dispatch == Dispatch::Background {
            return Err(Error::Unsupported {
                action: "click".into(),
                reason: "double, triple, middle and right clicks are pointer input, which dispatch background never sends".into(),
                available: self.actions_of(el).await.unwrap_or_default(),
            });
        }
        let (x, y) = self.center(el).await?;
        self.xrun(move |xx| xx.click(x, y, button, count)).await?;
        Ok(Acted::real("xtest", Some((x, y))))
    }

    pub async fn click_at(&self, x: i32, y: i32, button: u8, count: u8) -> Result<Acted, Error> {
        self.xrun(move |xx| xx.click(x, y, button, count)).await?;
        Ok(Acted::real("xtest", Some((x, y))))
    }

    async fn ifaces(&self, el: &El) -> Result<::atspi::InterfaceSet, Error> {
        let (bus, path) = parts(el)?;
        self.a11y.interfaces(bus, path).await.map_err(|e| Error::call(what(el), e))
    }

    async fn not_editable(&self, el: &El) -> Error {
        Error::NotEditable {
            what: self.describe(el).await,
            available: self.actions_of(el).await.unwrap_or_default(),
        }
    }

    async fn read_text(&self, el: &El) -> Result<String, Error> {
        let (bus, path) = parts(el)?;
        self.a11y.text(bus, path).await.map_err(|e| Error::call(what(el), e))
    }

    /// Checks that `window` (an id from list_windows) is the active window.
    pub async fn verify_active(&self, window: &str) -> Result<(), Error> {
        let xid = x11::parse_window_id(window)
            .ok_or_else(|| Error::NotFound { kind: "window", id: window.to_owned() })?;
        let win = self.windows().await?.into_iter().find(|w| w.xid == xid);
        match win {
            None => Err(Error::NotFound { kind: "window", id: window.to_owned() }),
            // A minimized window can still be _NET_ACTIVE_WINDOW; it takes no keys.
            Some(w) if w.active && !w.minimized => Ok(()),
            Some(_) => Err(Error::NotFocused(window.to_owned())),
        }
    }

    pub async fn type_text(
        &self,
        el: Option<&El>,
        text: &str,
        dispatch: Dispatch,
        window: Option<&str>,
    ) -> Result<Acted, Error> {
        if let Some(w) = window {
            if el.is_none() || dispatch == Dispatch::Foreground {
                self.verify_active(w).await?;
            }
        }
        if let Some(el) = el {
            let ifaces = self.ifaces(el).await?;
            if ifaces.contains(Interface::EditableText) && dispatch != Dispatch::Foreground {
                let (bus, path) = parts(el)?;
                let caret = self.a11y.caret(bus, path).await.unwrap_or(-1);
                let caret = if caret < 0 {
                    self.read_text(el).await?.chars().count() as i32
                } else {
                    caret
                };
                let ok = self
                    .a11y
                    .insert_text(bus, path, caret, text)
                    .await
                    .map_err(|e| Error::call(what(el), e))?;
                if !ok {
                    return Err(Error::Failed(format!(
                        "{} refused the text",
                        self.describe(el).await
                    )));
                }
                let _ = self.a11y.set_caret(bus, path, caret + text.chars().count() as i32).await;
                return Ok(Acted::semantic("accessibility:insert_text"));
            }
            if dispatch == Dispatch::Background {
                return Err(self.not_editable(el).await);
            }
            self.focus_element(el).await?;
        } else if dispatch == Dispatch::Background {
            return Err(Error::Unsupported {
                action: "type".into(),
                reason: "typing into the focused widget is keyboard input; give a ref for dispatch background".into(),
                available: vec![],
            });
        }
        let t = text.to_owned();
        self.xrun(move |x| x.type_text(&t)).await?;
        Ok(Acted::real("xtest", None))
    }

    async fn focus_element(&self, el: &El) -> Result<(), Error> {
        let (bus, path) = parts(el)?;
        let ok = self.a11y.grab_focus(bus, path).await.unwrap_or(false);
        if !ok {
            let (x, y) = self.center(el).await?;
            self.xrun(move |xx| xx.click(x, y, 1, 1)).await?;
        }
        Ok(())
    }

    pub async fn fill(
        &self,
        el: Option<&El>,
        text: &str,
        dispatch: Dispatch,
    ) -> Result<Acted, Error> {
        if let Some(el) = el {
            let ifaces = self.ifaces(el).await?;
            if ifaces.contains(Interface::EditableText) && dispatch != Dispatch::Foreground {
                let (bus, path) = parts(el)?;
                self.a11y.set_text(bus, path, text).await.map_err(|e| Error::call(what(el), e))?;
                let back = self.read_text(el).await?;
                if back != text {
                    return Err(Error::Failed(format!(
                        "{} holds {back:?} after fill, not {text:?}",
                        self.describe(el).await
                    )));
                }
                let mut a = Acted::semantic("accessibility:set_text_contents");
                a.value = Some(back);
                return Ok(a);
            }
            if dispatch == Dispatch::Background || !ifaces.contains(Interface::Text) {
                return Err(self.not_editable(el).await);
            }
            self.focus_element(el).await?;
        } else if dispatch == Dispatch::Background {
            return Err(Error::Unsupported {
                action: "fill".into(),
                reason: "filling the focused widget is keyboard input; give a ref for dispatch background".into(),
                available: vec![],
            });
        }
        let t = text.to_owned();
        self.xrun(move |x| {
            x.chord(&[keys::CONTROL_L], 'a' as u32)?;
            x.chord(&[], 0xffff)?;
            if !t.is_empty() {
                x.type_text(&t)?;
            }
            Ok(())
        })
        .await?;
        let mut a = Acted::real("xtest", None);
        if let Some(el) = el {
            a.value = self.read_text(el).await.ok();
        }
        Ok(a)
    }

    pub async fn set_value(
        &self,
        el: &El,
        value: &str,
        dispatch: Dispatch,
    ) -> Result<Acted, Error> {
        let ifaces = self.ifaces(el).await?;
        let (bus, path) = parts(el)?;
        if ifaces.contains(Interface::EditableText) {
            return self
                .fill(
                    Some(el),
                    value,
                    if dispatch == Dispatch::Foreground {
                        Dispatch::Foreground
                    } else {
                        Dispatch::Background
                    },
                )
                .await;
        }
        if ifaces.contains(Interface::Value) {
            let (_, min, max) =
                self.a11y.value(bus, path).await.map_err(|e| Error::call(what(el), e))?;
            let Ok(v) = value.trim().parse::<f64>() else {
                return Err(Error::Failed(format!(
                    "{} takes a number between {min} and {max}, not {value:?}",
                    self.describe(el).await
                )));
            };
            if v < min || v > max {
                return Err(Error::Failed(format!(
                    "{v} is outside the range {min}..{max} of {}",
                    self.describe(el).await
                )));
            }
            self.a11y.set_value(bus, path, v).await.map_err(|e| Error::call(what(el), e))?;
            let (cur, _, _) =
                self.a11y.value(bus, path).await.map_err(|e| Error::call(what(el), e))?;
            let mut a = Acted::semantic("accessibility:value");
            a.value = Some(format!("{cur}"));
            return Ok(a);
        }
        Err(self.not_editable(el).await)
    }

    pub async fn get_text(&self, el: &El) -> Result<TextState, Error> {
        let ifaces = self.ifaces(el).await?;
        let (bus, path) = parts(el)?;
        if !ifaces.contains(Interface::Text) {
            let name: String = self
                .a11y
                .prop(bus, path, "org.a11y.atspi.Accessible", "Name")
                .await
                .unwrap_or_default();
            return Ok(TextState {
                length: name.chars().count(),
                text: name,
                caret: None,
                selection: None,
            });
        }
        let (text, caret, sel) = futures::join!(
            self.a11y.text(bus, path),
            self.a11y.caret(bus, path),
            self.a11y.selection(bus, path)
        );
        let text = text.map_err(|e| Error::call(what(el), e))?;
        Ok(TextState {
            length: text.chars().count(),
            text,
            caret: caret.ok(),
            selection: sel.ok().flatten(),
        })
    }

    /// Selects the unique match of `prefix text suffix` (or puts the caret next to it).
    pub async fn select_text(
        &self,
        el: &El,
        text: &str,
        prefix: &str,
        suffix: &str,
        selection_type: &str,
    ) -> Result<(i32, i32), Error> {
        let ifaces = self.ifaces(el).await?;
        if !ifaces.contains(Interface::Text) {
            return Err(self.not_editable(el).await);
        }
        let (bus, path) = parts(el)?;
        let content = self.read_text(el).await?;
        let needle = format!("{prefix}{text}{suffix}");
        let hits: Vec<usize> = content.match_indices(&needle).map(|(i, _)| i).collect();
        if hits.len() != 1 {
            return Err(Error::Failed(format!(
                "{:?} occurs {} times in {}; add prefix or suffix to make it unique",
                needle,
                hits.len(),
                self.describe(el).await
            )));
        }
        let start = content[..hits[0]].chars().count() + prefix.chars().count();
        let (start, end) = (start as i32, (start + text.chars().count()) as i32);
        let ok = match selection_type {
            "cursor_before" => self.a11y.set_caret(bus, path, start).await,
            "cursor_after" => self.a11y.set_caret(bus, path, end).await,
            _ => self.a11y.select(bus, path, start, end).await,
        }
        .map_err(|e| Error::call(what(el), e))?;
        if !ok {
            return Err(Error::Failed(format!(
                "{} refused the selection",
                self.describe(el).await
            )));
        }
        Ok((start, end))
    }

    pub async fn secondary_action(&self, el: &El, name: &str) -> Result<Acted, Error> {
        let actions = self.actions_of(el).await?;
        let found = actions.iter().position(|a| a == name);
        let Some(i) = found.or_else(|| actions.iter().position(|a| a.eq_ignore_ascii_case(name)))
        else {
            return Err(Error::Unsupported {
                action: "secondary_action".into(),
                reason: format!("{} has no action {name:?}", self.describe(el).await),
                available: actions,
            });
        };
        let (bus, path) = parts(el)?;
        let ok =
            self.a11y.do_action(bus, path, i as i32).await.map_err(|e| Error::call(what(el), e))?;
        if !ok {
            return Err(Error::Failed(format!(
                "{} refused its {name} action",
                self.describe(el).await
            )));
        }
        Ok(Acted::semantic(format!("accessibility:{name}")))
    }

    // ---- Keys and pointer. ----

    pub async fn key(&self, chord: &str) -> Result<Acted, Error> {
        let c = keys::parse_chord(chord).map_err(|reason| Error::Unsupported {
            action: "key".into(),
            reason,
            available: vec![],
        })?;
        self.xrun(move |x| x.chord(&c.modifiers, c.key)).await?;
        Ok(Acted::real("xtest", None))
    }

    /// Presses (down) or releases every key of a chord; returns the keysym names pressed.
    pub async fn key_toggle(&self, chord: &str, down: bool) -> Result<Vec<String>, Error> {
        let c = keys::parse_chord(chord).map_err(|reason| Error::Unsupported {
            action: "keydown".into(),
            reason,
            available: vec![],
        })?;
        let syms: Vec<u32> = c.modifiers.iter().copied().chain(std::iter::once(c.key)).collect();
        let order: Vec<u32> =
            if down { syms.clone() } else { syms.iter().rev().copied().collect() };
        self.xrun(move |x| {
            for s in order {
                x.key(s, down)?;
            }
            Ok(())
        })
        .await?;
        Ok(syms.iter().map(|s| format!("0x{s:x}")).collect())
    }

    pub async fn mouse_move(&self, x: i32, y: i32) -> Result<(), Error> {
        self.xrun(move |xx| xx.move_to(x, y)).await
    }

    pub async fn mouse_button(
        &self,
        at: Option<(i32, i32)>,
        button: u8,
        down: bool,
    ) -> Result<(i32, i32), Error> {
        self.xrun(move |xx| {
            if let Some((x, y)) = at {
                xx.move_to(x, y)?;
            }
            xx.button(button, down)?;
            let (x, y) = xx.pointer()?;
            Ok((i32::from(x), i32::from(y)))
        })
        .await
    }

    /// Wheel clicks at a point (each about 3 lines / 50 px in GTK).
    pub async fn scroll(
        &self,
        x: i32,
        y: i32,
        direction: &str,
        clicks: u32,
    ) -> Result<Acted, Error> {
        let button = match direction {
            "up" => 4,
            "left" => 6,
            "right" => 7,
            _ => 5,
        };
        self.xrun(move |xx| {
            xx.move_to(x, y)?;
            for _ in 0..clicks.max(1) {
                xx.click(x, y, button, 1)?;
            }
            Ok(())
        })
        .await?;
        Ok(Acted::real("xtest", Some((x, y))))
    }

    pub async fn drag(&self, from: (i32, i32), to: (i32, i32), button: u8) -> Result<Acted, Error> {
        self.xrun(move |xx| {
            xx.move_to(from.0, from.1)?;
            xx.button(button, true)?;
            let steps = 8;
            let mut r = Ok(());
            for i in 1..=steps {
                let x = from.0 + (to.0 - from.0) * i / steps;
                let y = from.1 + (to.1 - from.1) * i / steps;
                r = xx.move_to(x, y);
                if r.is_err() {
                    break;
                }
            }
            let up = xx.button(button, false);
            r.and(up)
        })
        .await?;
        Ok(Acted::real("xtest", Some(to)))
    }

    // ---- Windows. ----

    pub async fn focus_window(&self, window: &str) -> Result<bool, Error> {
        let xid = x11::parse_window_id(window)
            .ok_or_else(|| Error::NotFound { kind: "window", id: window.to_owned() })?;
        let wins = self.windows().await?;
        if !wins.iter().any(|w| w.xid == xid) {
            return Err(Error::NotFound { kind: "window", id: window.to_owned() });
        }
        self.xrun(move |x| x.activate(xid, Duration::from_secs(5))).await
    }

    pub async fn window_op(&self, window: &str, op: WindowOp) -> Result<Option<WindowInfo>, Error> {
        let xid = x11::parse_window_id(window)
            .ok_or_else(|| Error::NotFound { kind: "window", id: window.to_owned() })?;
        let wins = self.windows().await?;
        if !wins.iter().any(|w| w.xid == xid) {
            return Err(Error::NotFound { kind: "window", id: window.to_owned() });
        }
        self.xrun(move |x| x.window_op(xid, op)).await?;
        // Poll briefly for the window manager to apply it.
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let now = self.windows().await?.into_iter().find(|w| w.xid == xid);
            let done = match (&now, op) {
                (None, _) => true,
                (Some(w), WindowOp::Minimize) => w.minimized,
                (Some(w), WindowOp::Maximize) => w.maximized,
                (Some(w), WindowOp::Restore) => !w.minimized && !w.maximized,
                (Some(w), WindowOp::Move(x, y)) => {
                    w.frame.x == x && w.frame.y == y || w.client.x == x && w.client.y == y
                }
                (Some(w), WindowOp::Resize(wd, ht)) => {
                    w.client.width == wd && w.client.height == ht
                }
                (Some(_), WindowOp::Close) => false,
            };
            if done || Instant::now() >= deadline {
                return Ok(now);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    // ---- Capture. ----

    pub async fn screenshot(
        &self,
        window: Option<&str>,
        region: Option<(i32, i32, u32, u32)>,
        format: ImageFormat,
        quality: u8,
        max_width: Option<u32>,
    ) -> Result<Encoded, Error> {
        let region = match window {
            Some(w) => {
                let xid = x11::parse_window_id(w)
                    .ok_or_else(|| Error::NotFound { kind: "window", id: w.to_owned() })?;
                let win = self
                    .windows()
                    .await?
                    .into_iter()
                    .find(|x| x.xid == xid)
                    .ok_or_else(|| Error::NotFound { kind: "window", id: w.to_owned() })?;
                Some((win.frame.x, win.frame.y, win.frame.width, win.frame.height))
            }
            None => region,
        };
        self.xrun(move |x| x.capture(region, format, quality, max_width)).await
    }

    // ---- Clipboard. ----

    pub async fn clipboard_get(&self, html: bool) -> Result<Option<String>, Error> {
        self.clipboard.get(html).await
    }

    pub async fn clipboard_set(&self, text: &str, html: bool) -> Result<(), Error> {
        let content = if html {
            Content { text: Some(strip_tags(text)), html: Some(text.to_owned()) }
        } else {
            Content { text: Some(text.to_owned()), html: None }
        };
        self.clipboard.set(content).await
    }

    /// Paste through the clipboard: save, write, focus, Ctrl+V, restore unless changed.
    pub async fn paste(
        &self,
        el: Option<&El>,
        text: &str,
        html: bool,
        window: Option<&str>,
    ) -> Result<serde_json::Value, Error> {
        let _one = self.paste.lock().await;
        if let (None, Some(w)) = (el, window) {
            self.verify_active(w).await?;
        }
        let old_text = self.clipboard.get(false).await.ok().flatten();
        let old_html =
            self.clipboard.get(true).await.ok().flatten().filter(|h| Some(h) != old_text.as_ref());
        let content = if html {
            Content { text: Some(strip_tags(text)), html: Some(text.to_owned()) }
        } else {
            Content { text: Some(text.to_owned()), html: None }
        };
        self.clipboard.set(content.clone()).await?;
        let result = async {
            if let Some(el) = el {
                self.focus_element(el).await?;
            }
            self.xrun(|x| x.chord(&[keys::CONTROL_L], 'v' as u32)).await?;
            // The app reads the clipboard asynchronously: wait until the text shows up.
            let mut verified = None;
            if let Some(el) = el {
                let want = content.text.clone().unwrap_or_default();
                let deadline = Instant::now() + Duration::from_secs(3);
                loop {
                    if self.read_text(el).await.is_ok_and(|t| t.contains(&want)) {
                        verified = Some(true);
                        break;
                    }
                    if Instant::now() >= deadline {
                        verified = Some(false);
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            } else {
                tokio::time::sleep(Duration::from_millis(150)).await;
            }
            Ok::<_, Error>(verified)
        }
        .await;
        let untouched = self.clipboard.owns(content).await.unwrap_or(false);
        let restored = if untouched {
            match &old_text {
                Some(t) => self
                    .clipboard
                    .set(Content { text: Some(t.clone()), html: old_html })
                    .await
                    .is_ok(),
                None => self.clipboard.release().await.is_ok(),
            }
        } else {
            false
        };
        let verified = result?;
        Ok(serde_json::json!({
            "pasted": true,
            "verified": verified,
            "clipboard_restored": restored,
            "clipboard_changed_meanwhile": !untouched,
            "via": "clipboard+xtest",
            "actual_dispatch": "foreground",
        }))
    }
}

fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}
