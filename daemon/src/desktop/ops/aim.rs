//! Where real input lands. Input through the X server goes to whichever window is active (keys)
//! or under the pointer (buttons), not to the app an agent named; so before such input the
//! named target's window is activated through the window manager and checked active, and
//! checked again afterwards. Input that names no target goes where the X server sends it,
//! and the result says which window that was.

use std::time::Duration;

use super::{FocusChange, WindowRef};
use crate::desktop::x11::{self, Allowed, WindowInfo};
use crate::desktop::{Desktop, Error};

/// How long the window manager gets to activate a target's window.
const ACTIVATE_WAIT: Duration = Duration::from_millis(1500);

/// What an input was aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aim {
    /// Nothing named: keys go to the active window, the pointer to the window under it.
    Free,
    /// A window (`window_id`), its own dialogs included.
    Window(u32),
    /// An app (`app_id`, or the app of a ref): any of its windows.
    App(u32),
}

/// `w` as results name it.
pub(super) fn ref_of(w: &WindowInfo) -> WindowRef {
    WindowRef { window_id: w.window_id.clone(), app_id: w.app_id.clone(), title: w.title.clone() }
}

/// A target made active: what counts as it, and the window that was active when input began.
#[derive(Debug, Clone)]
pub struct Guard {
    pub allowed: Allowed,
    pub window: WindowRef,
    /// Whether the daemon had to activate it first.
    pub activated: bool,
}

fn target_name(aim: Aim) -> String {
    match aim {
        Aim::Free => "the desktop".into(),
        Aim::Window(x) => x11::window_id(x),
        Aim::App(pid) => format!("app:{pid}"),
    }
}

/// The windows that count as `aim`: the window and every dialog transient for it (at any
/// depth) or modal in its app; for an app, all of its windows.
fn allowed_of(aim: Aim, wins: &[WindowInfo]) -> Allowed {
    match aim {
        Aim::Free => Allowed::default(),
        Aim::App(pid) => Allowed {
            xids: wins.iter().filter(|w| w.pid == Some(pid)).map(|w| w.xid).collect(),
            pid: Some(pid),
        },
        Aim::Window(xid) => {
            let pid = wins.iter().find(|w| w.xid == xid).and_then(|w| w.pid);
            let mut xids = vec![xid];
            loop {
                let more: Vec<u32> = wins
                    .iter()
                    .filter(|w| !xids.contains(&w.xid))
                    .filter(|w| {
                        w.transient_for.is_some_and(|t| xids.contains(&t))
                            || (w.modal && pid.is_some() && w.pid == pid)
                    })
                    .map(|w| w.xid)
                    .collect();
                if more.is_empty() {
                    break;
                }
                xids.extend(more);
            }
            Allowed { xids, pid: None }
        }
    }
}

impl Desktop {
    fn window_ref(wins: &[WindowInfo], xid: Option<u32>) -> Option<WindowRef> {
        let xid = xid?;
        Some(wins.iter().find(|w| w.xid == xid).map(ref_of).unwrap_or_else(|| WindowRef {
            window_id: x11::window_id(xid),
            app_id: None,
            title: String::new(),
        }))
    }

    /// The active window now.
    pub async fn active_ref(&self) -> Result<Option<WindowRef>, Error> {
        let wins = self.windows().await?;
        let active = wins.iter().find(|w| w.active).map(|w| w.xid);
        Ok(Self::window_ref(&wins, active))
    }

    /// The top-most managed window whose frame holds the screen point.
    pub async fn window_at(&self, x: i32, y: i32) -> Result<Option<WindowRef>, Error> {
        let wins = self.windows().await?;
        Ok(top_at(&wins, x, y).map(ref_of))
    }

    /// The centre of the window input aimed at `aim` would go to (the named window, or the
    /// app's top-most shown one); `None` for [`Aim::Free`] or a target with no window.
    pub async fn target_center(&self, aim: Aim) -> Result<Option<(i32, i32)>, Error> {
        if aim == Aim::Free {
            return Ok(None);
        }
        let wins = self.windows().await?;
        let allowed = allowed_of(aim, &wins);
        let pick = wins
            .iter()
            .filter(|w| match aim {
                Aim::Window(xid) => w.xid == xid,
                _ => allowed.xids.contains(&w.xid),
            })
            .max_by_key(|w| (!w.minimized, w.active, w.stack));
        Ok(pick.map(|w| {
            let c = &w.client;
            (c.x + c.width as i32 / 2, c.y + c.height as i32 / 2)
        }))
    }

    /// Makes `aim`'s window active, or `NotFocused` naming the window that is. `None` for
    /// [`Aim::Free`]: nothing to activate.
    pub async fn raise(&self, aim: Aim) -> Result<Option<Guard>, Error> {
        if aim == Aim::Free {
            return Ok(None);
        }
        let wins = self.windows().await?;
        if let Aim::Window(xid) = aim {
            if !wins.iter().any(|w| w.xid == xid) {
                return Err(Error::NotFound { kind: "window", id: x11::window_id(xid) });
            }
        }
        let allowed = allowed_of(aim, &wins);
        let active = wins.iter().find(|w| w.active);
        let refused = |reason: String, active: Option<WindowRef>| Error::NotFocused {
            target: target_name(aim),
            active,
            reason,
        };
        if allowed.xids.is_empty() {
            return Err(refused("it has no window to send input to".into(), active.map(ref_of)));
        }
        if let Some(w) = active.filter(|w| !w.minimized && holds(&allowed, w)) {
            return Ok(Some(Guard { allowed, window: ref_of(w), activated: false }));
        }
        // The window to ask for: the named one, or the app's top-most shown window.
        let pick = match aim {
            Aim::Window(xid) => xid,
            _ => wins
                .iter()
                .filter(|w| allowed.xids.contains(&w.xid))
                .max_by_key(|w| (!w.minimized, w.stack))
                .map_or(allowed.xids[0], |w| w.xid),
        };
        let a = allowed.clone();
        let (ok, now) = self.xrun(move |x| x.activate_into(pick, &a, ACTIVATE_WAIT)).await?;
        let wins = self.windows().await?;
        let now_ref = Self::window_ref(&wins, now);
        match wins.iter().find(|w| Some(w.xid) == now) {
            Some(w) if ok && !w.minimized => {
                Ok(Some(Guard { allowed, window: ref_of(w), activated: true }))
            }
            _ => Err(refused(
                format!(
                    "the window manager did not activate it within {} ms",
                    ACTIVATE_WAIT.as_millis()
                ),
                now_ref,
            )),
        }
    }

    /// Whether the target of `guard` is still active; `NotFocused` naming the window that is,
    /// with `what` saying what was (not) sent.
    pub async fn still_active(&self, guard: &Guard, what: &str) -> Result<(), Error> {
        let a = guard.allowed.clone();
        let (ok, now) = self.xrun(move |x| Ok(x.active_allowed(&a))).await?;
        if ok {
            return Ok(());
        }
        let wins = self.windows().await?;
        Err(Error::NotFocused {
            target: guard.window.window_id.clone(),
            active: Self::window_ref(&wins, now),
            reason: format!("the focus moved away before the input; {what}"),
        })
    }

    /// After an input: the change of active window since `guard`, if any.
    pub async fn focus_after(&self, guard: Option<&Guard>) -> Option<FocusChange> {
        let g = guard?;
        let a = g.allowed.clone();
        let (ok, now) = self.xrun(move |x| Ok(x.active_allowed(&a))).await.ok()?;
        if ok {
            return None;
        }
        let wins = self.windows().await.ok()?;
        Some(FocusChange { from: Some(g.window.clone()), to: Self::window_ref(&wins, now) })
    }

    /// Refuses pointer input at (x, y) when the point does not lie on the target's window.
    pub async fn check_point(&self, guard: &Guard, x: i32, y: i32) -> Result<WindowRef, Error> {
        let wins = self.windows().await?;
        match top_at(&wins, x, y) {
            Some(w) if holds(&guard.allowed, w) => Ok(ref_of(w)),
            other => Err(Error::NotFocused {
                target: guard.window.window_id.clone(),
                active: other.map(ref_of),
                reason: format!(
                    "the point {x},{y} lies on {}, not on the target; nothing was clicked",
                    describe(other.map(ref_of).as_ref())
                ),
            }),
        }
    }
}

fn holds(allowed: &Allowed, w: &WindowInfo) -> bool {
    allowed.xids.contains(&w.xid) || (allowed.pid.is_some() && w.pid == allowed.pid)
}

fn top_at(wins: &[WindowInfo], x: i32, y: i32) -> Option<&WindowInfo> {
    wins.iter()
        .filter(|w| !w.minimized)
        .filter(|w| {
            let f = &w.frame;
            x >= f.x && y >= f.y && x < f.x + f.width as i32 && y < f.y + f.height as i32
        })
        .max_by_key(|w| w.stack)
}

/// A window for messages: id, title and app.
pub fn describe(r: Option<&WindowRef>) -> String {
    match r {
        Some(w) => format!(
            "{} {:?}{}",
            w.window_id,
            w.title,
            w.app_id.as_deref().map(|a| format!(" of {a}")).unwrap_or_default()
        ),
        None => "no window".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desktop::x11::Frame;

    fn win(
        xid: u32,
        pid: u32,
        transient_for: Option<u32>,
        modal: bool,
        stack: usize,
    ) -> WindowInfo {
        let f = Frame { x: 0, y: 0, width: 100, height: 100 };
        WindowInfo {
            window_id: x11::window_id(xid),
            xid,
            pid: Some(pid),
            app_id: Some(format!("app:{pid}")),
            title: String::new(),
            frame: f,
            client: f,
            active: false,
            minimized: false,
            maximized: false,
            transient_for,
            modal,
            stack,
        }
    }

    #[test]
    fn a_window_counts_its_dialogs_and_an_app_all_its_windows() {
        // 1 and 2 belong to app 10; 3 is a dialog of 1, 4 a dialog of that dialog, 5 a modal
        // of app 10 with no parent set; 6 is another app's window, transient for nothing.
        let wins = [
            win(1, 10, None, false, 0),
            win(2, 10, None, false, 1),
            win(3, 10, Some(1), false, 2),
            win(4, 10, Some(3), false, 3),
            win(5, 10, None, true, 4),
            win(6, 20, None, false, 5),
        ];
        let mut one = allowed_of(Aim::Window(1), &wins).xids;
        one.sort_unstable();
        assert_eq!(one, [1, 3, 4, 5]);
        assert_eq!(allowed_of(Aim::Window(6), &wins).xids, [6]);
        let app = allowed_of(Aim::App(10), &wins);
        assert_eq!((app.xids.len(), app.pid), (5, Some(10)));
        assert!(holds(&app, &win(9, 10, None, false, 0)), "a new window of the app counts");
        assert!(!holds(&allowed_of(Aim::Window(2), &wins), &wins[0]));
        // The top-most window at a point wins; a minimized one is not there.
        let mut top = win(7, 30, None, false, 9);
        assert_eq!(top_at(&[wins[0].clone(), top.clone()], 5, 5).map(|w| w.xid), Some(7));
        top.minimized = true;
        assert_eq!(top_at(&[wins[0].clone(), top], 5, 5).map(|w| w.xid), Some(1));
        assert!(top_at(&wins, 500, 5).is_none());
    }
}
