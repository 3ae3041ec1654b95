//! One element: its box and actions, clicks (an accessibility action first, else the pointer),
//! focus and named secondary actions.

use ::atspi::{Interface, State};

use super::{landed, real, semantic, what, Acted, Aim, Dispatch, El};
use crate::desktop::atspi::{self, AppInfo};
use crate::desktop::{Desktop, Error};

const CLICK_ACTIONS: &[&str] =
    &["click", "press", "activate", "toggle", "jump", "open", "select", "switch"];

impl Desktop {
    /// Run the element's action number `i`; whether the app did it.
    async fn do_action_at(&self, el: &El, i: usize) -> Result<bool, Error> {
        let (bus, path) = self.parts(el)?;
        self.a11y()?.do_action(bus, path, i as i32).await.map_err(|e| Error::call(what(el), e))
    }

    pub(super) async fn describe(&self, el: &El) -> String {
        match self.parts(el) {
            Ok((bus, path)) => match self.a11y() {
                Ok(a11y) => format!("{} ({})", el.label, a11y.describe(bus, path).await),
                Err(_) => el.label.clone(),
            },
            Err(_) => el.label.clone(),
        }
    }

    /// The centre of the element's on-screen box, or `NO_GEOMETRY`.
    pub async fn center(&self, el: &El) -> Result<(i32, i32), Error> {
        let app = match self.parts(el) {
            Ok((bus, _)) => self.app_of(bus).await.ok(),
            Err(_) => None,
        };
        match self.screen_box(el, app.as_ref()).await? {
            Some((x, y, w, h)) => Ok((x + w / 2, y + h / 2)),
            None => Err(Error::NoGeometry { what: self.describe(el).await }),
        }
    }

    /// The element's box on the screen (x, y, width, height), `None` when it shows none;
    /// `app` (its app) places a GTK 4 box, which is relative to its window.
    pub(super) async fn screen_box(
        &self,
        el: &El,
        app: Option<&AppInfo>,
    ) -> Result<Option<(i32, i32, i32, i32)>, Error> {
        let (bus, path) = self.parts(el)?;
        let a11y = self.a11y()?;
        let (ext, states) = futures::join!(a11y.extents(bus, path), a11y.states(bus, path));
        let states = states.map_err(|e| Error::call(what(el), e))?;
        let ext = ext.ok();
        let (mut offset, mut trust_visible) = ((0, 0), false);
        if let Some(app) = app {
            offset = self.offset_for(app).await;
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
            .filter(|e| atspi::tree_on_screen(*e, self.screen()));
        Ok(boxed.filter(|_| shown))
    }

    pub(super) async fn app_of(&self, bus: &str) -> Result<AppInfo, Error> {
        self.apps()
            .await?
            .into_iter()
            .find(|a| a.bus == bus)
            .ok_or_else(|| Error::Gone { what: bus.to_owned() })
    }

    async fn actions_of(&self, el: &El) -> Result<Vec<String>, Error> {
        let (bus, path) = self.parts(el)?;
        let ifaces =
            self.a11y()?.interfaces(bus, path).await.map_err(|e| Error::call(what(el), e))?;
        if !ifaces.contains(Interface::Action) {
            return Ok(Vec::new());
        }
        self.a11y()?.actions(bus, path).await.map_err(|e| Error::call(what(el), e))
    }

    pub async fn click(
        &self,
        el: &El,
        button: u8,
        count: u8,
        dispatch: Dispatch,
        aim: Aim,
    ) -> Result<Acted, Error> {
        let plain = button == 1 && count == 1;
        if plain && dispatch != Dispatch::Foreground {
            let actions = self.actions_of(el).await?;
            let pick = CLICK_ACTIONS
                .iter()
                .find_map(|want| actions.iter().position(|a| a.eq_ignore_ascii_case(want)));
            if let Some(i) = pick {
                let ok = self.do_action_at(el, i).await?;
                if !ok {
                    return Err(Error::Refused(format!(
                        "{} refused its {} action",
                        self.describe(el).await,
                        actions[i]
                    )));
                }
                return Ok(semantic(format!("accessibility:{}", actions[i])));
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
        let aim = self.aim_at(el, aim).await;
        // Raise first: a GTK 4 box is placed from its window, which activation may move.
        let guard = self.raise(aim).await?;
        let (x, y) = self.center(el).await?;
        self.press_at(guard, x, y, button, count).await
    }

    pub async fn click_at(
        &self,
        x: i32,
        y: i32,
        button: u8,
        count: u8,
        aim: Aim,
    ) -> Result<Acted, Error> {
        let guard = self.raise(aim).await?;
        self.press_at(guard, x, y, button, count).await
    }

    /// Clicks at (x, y): on the target's window (`NotFocused` when the point is on another),
    /// or, with no target, on whatever is there, which the result names.
    async fn press_at(
        &self,
        guard: Option<super::Guard>,
        x: i32,
        y: i32,
        button: u8,
        count: u8,
    ) -> Result<Acted, Error> {
        let to = match &guard {
            Some(g) => Some(self.check_point(g, x, y).await?),
            None => self.window_at(x, y).await?,
        };
        // What the press lands on, read before it changes anything.
        let pid =
            to.as_ref().and_then(|w| w.app_id.as_deref()).and_then(crate::desktop::atspi::app_pid);
        let element = match (pid, self.a11y()) {
            (Some(pid), Ok(a)) => a.element_at(pid, x, y).await,
            _ => None,
        };
        self.xrun(move |xx| xx.click(x, y, button, count)).await?;
        let changed = self.focus_after(guard.as_ref()).await;
        Ok(Acted { element, ..landed(real("xtest", Some((x, y))), to, changed) })
    }

    pub(super) async fn ifaces(&self, el: &El) -> Result<::atspi::InterfaceSet, Error> {
        let (bus, path) = self.parts(el)?;
        self.a11y()?.interfaces(bus, path).await.map_err(|e| Error::call(what(el), e))
    }

    pub(super) async fn not_editable(&self, el: &El) -> Error {
        Error::NotEditable {
            what: self.describe(el).await,
            available: self.actions_of(el).await.unwrap_or_default(),
        }
    }

    pub(super) async fn read_text(&self, el: &El) -> Result<String, Error> {
        let (bus, path) = self.parts(el)?;
        self.a11y()?.text(bus, path).await.map_err(|e| Error::call(what(el), e))
    }

    pub(super) async fn focus_element(&self, el: &El) -> Result<(), Error> {
        let (bus, path) = self.parts(el)?;
        let ok = self.a11y()?.grab_focus(bus, path).await.unwrap_or(false);
        if !ok {
            let (x, y) = self.center(el).await?;
            self.xrun(move |xx| xx.click(x, y, 1, 1)).await?;
        }
        Ok(())
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
        let ok = self.do_action_at(el, i).await?;
        if !ok {
            return Err(Error::Refused(format!(
                "{} refused its {name} action",
                self.describe(el).await
            )));
        }
        Ok(semantic(format!("accessibility:{name}")))
    }
}
