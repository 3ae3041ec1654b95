//! Trusted mouse input (move, click, drag) with a guard that releases a held button, and
//! scrolling an element's scroller or the page.

use chromiumoxide::Page;
use serde_json::{json, Value};

use chromiumoxide::cdp::browser_protocol::input::DispatchMouseEventParams;
use glovebox_protocol::results::browser as results;

use super::witness::{Input, Witness};
use super::{El, Tab};
use crate::browser::cdp::Dialog;
use crate::browser::mouse::{self, Button, Mouse};
use crate::browser::BrowserError;

impl Tab {
    async fn mouse(
        &self,
        kind: Mouse,
        x: f64,
        y: f64,
        button: Button,
        count: u32,
        modifiers: u32,
    ) -> Result<(), BrowserError> {
        // The button is down while it is pressed; a move with none down names no button.
        let pressed: &[Button] =
            if kind == Mouse::Pressed { std::slice::from_ref(&button) } else { &[] };
        let button = if kind == Mouse::Moved && pressed.is_empty() { Button::None } else { button };
        self.mouse_raw(kind, (x, y), (button, count), pressed, modifiers).await
    }

    /// A trusted click (1-3 presses) at a viewport point; the button is released on failure.
    /// Returns a dialog the click opened.
    pub async fn click_at(
        &self,
        x: f64,
        y: f64,
        button: Button,
        count: u32,
        modifiers: u32,
    ) -> Result<Option<Dialog>, BrowserError> {
        self.press_at(x, y, button, count, modifiers, true).await
    }

    /// [`Tab::click_at`]; `move_first` false when the pointer is at the point already.
    async fn press_at(
        &self,
        x: f64,
        y: f64,
        button: Button,
        count: u32,
        modifiers: u32,
        move_first: bool,
    ) -> Result<Option<Dialog>, BrowserError> {
        // A cancel or deadline drops this future: the guard still lets the button go.
        let mut guard = ButtonGuard::new(&self.page, x, y, button);
        // The events go out back to back and the tab handles them in order; waiting for each
        // acknowledgement before sending the next would add a round trip per event.
        let run = async {
            let mut events = Vec::new();
            if move_first {
                events.push(self.mouse(Mouse::Moved, x, y, Button::None, 0, modifiers));
            }
            for i in 1..=count {
                events.push(self.mouse(Mouse::Pressed, x, y, button, i, modifiers));
                events.push(self.mouse(Mouse::Released, x, y, button, i, modifiers));
            }
            futures::future::join_all(events).await.into_iter().collect::<Result<Vec<()>, _>>()
        };
        let out = run.await;
        guard.armed = false;
        match out {
            Ok(_) => Ok(None),
            Err(BrowserError::DialogOpened(d)) => Ok(Some(d)),
            Err(e) => {
                let _ = self.mouse(Mouse::Released, x, y, button, 1, modifiers).await;
                Err(e)
            }
        }
    }

    /// A pointer action on the element behind a snapshot key: its aim (scroll into view,
    /// centre, hit test) and, while the aim runs, the pointer's move to where the element
    /// was aimed at last time, so the move's round trip (and the frame it waits for) overlaps
    /// the aim's instead of following it. When the aim finds the element elsewhere the
    /// pointer moves on there before anything is pressed, so hover effects land on it as a
    /// person's pointer would. `click`: (button, count) and the witness the aim armed; None
    /// hovers. The aimed point, what the element is, and what the press did.
    pub async fn pointer_at_key<E: From<BrowserError>>(
        &self,
        key: &str,
        aim: impl std::future::Future<Output = Result<super::elements::Aim, E>>,
        click: Option<(Button, u32, Witness)>,
        modifiers: u32,
    ) -> Result<(super::elements::Aim, Pressed), E> {
        let navs = self.navigations();
        let early = {
            let aims = crate::browser::lock(&self.watch.aims);
            aims.get(key).filter(|(n, _)| *n == navs).map(|(_, p)| *p)
        };
        let moved = async {
            match early {
                Some((x, y)) => self.mouse(Mouse::Moved, x, y, Button::None, 0, modifiers).await,
                None => Ok(()),
            }
        };
        let act = async {
            let aimed = aim.await?;
            let (x, y) = aimed.0;
            {
                let mut aims = crate::browser::lock(&self.watch.aims);
                // A bound, not an LRU: refs of one page seldom number more.
                if aims.len() >= 4_096 {
                    aims.clear();
                }
                aims.insert(key.to_owned(), (navs, (x, y)));
            }
            let pressed = match click {
                Some((button, count, w)) => {
                    let premoved = early == Some((x, y));
                    let dialog = self.press_at(x, y, button, count, modifiers, !premoved).await?;
                    let k = super::world::Key::parse(key);
                    let unchecked = match (&dialog, k) {
                        (None, Some(k)) => {
                            self.heard(k.frame.as_deref(), k.ctx, w, Input::Click, &aimed.1).await?
                        }
                        _ => None,
                    };
                    Pressed { dialog, unchecked }
                }
                None if early == Some((x, y)) => Pressed::default(),
                None => {
                    self.hover_at(x, y, modifiers).await?;
                    Pressed::default()
                }
            };
            Ok::<_, E>((aimed, pressed))
        };
        let (m, out) = tokio::join!(moved, act);
        let out = out?;
        match m {
            Ok(()) | Err(BrowserError::DialogOpened(_)) => Ok(out),
            Err(e) => Err(e.into()),
        }
    }

    pub async fn hover_at(&self, x: f64, y: f64, modifiers: u32) -> Result<(), BrowserError> {
        self.mouse(Mouse::Moved, x, y, Button::None, 0, modifiers).await
    }

    /// Press at one point, move in steps, release at the other; released on failure.
    pub async fn drag(
        &self,
        from: (f64, f64),
        to: (f64, f64),
        button: Button,
        modifiers: u32,
    ) -> Result<(), BrowserError> {
        self.mouse(Mouse::Moved, from.0, from.1, Button::None, 0, modifiers).await?;
        let mut guard = ButtonGuard::new(&self.page, to.0, to.1, button);
        self.mouse(Mouse::Pressed, from.0, from.1, button, 1, modifiers).await?;
        let held = [button];
        let steps = 8;
        let moved = async {
            for i in 1..=steps {
                let t = f64::from(i) / f64::from(steps);
                let at = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
                self.mouse_raw(Mouse::Moved, at, (button, 0), &held, modifiers).await?;
            }
            Ok::<(), BrowserError>(())
        };
        let mut r = moved.await;
        // A drop where the page has not finished moving things is lost: a sortable list
        // ignores the pointer for a few frames after each swap (and while it animates one).
        // As a hand would, dwell over the target, moving by a pixel so the page hears the
        // pointer there again once it is ready, then drop.
        if r.is_ok() {
            for nudge in [1.0, 0.0] {
                self.dwell().await;
                let at = (to.0, to.1 + nudge);
                if let Err(e) =
                    self.mouse_raw(Mouse::Moved, at, (button, 0), &held, modifiers).await
                {
                    r = Err(e);
                    break;
                }
            }
            self.dwell().await;
        }
        let released = self.mouse(Mouse::Released, to.0, to.1, button, 1, modifiers).await;
        guard.armed = false;
        r.and(released)
    }

    /// A drag's pause over its target: `DWELL` of the page's time, and until the page's
    /// running animations and transitions end, at most `LINGER`.
    async fn dwell(&self) {
        let expr = format!(
            "Promise.race([Promise.all([new Promise((r) => setTimeout(r, {})), \
             ...document.getAnimations().filter((a) => a.playState === 'running') \
             .map((a) => a.finished.catch(() => null))]), \
             new Promise((r) => setTimeout(r, {}))]).then(() => true)",
            DWELL.as_millis(),
            LINGER.as_millis()
        );
        // The page's own timers and promises answer it: bounded here too.
        let _ = tokio::time::timeout(LINGER * 2, self.eval::<Value>(&expr)).await;
    }

    /// Scroll an element's scroller (or the page) by pixels or pages; before/after positions.
    pub async fn scroll(
        &self,
        el: Option<&El>,
        point: Option<(f64, f64)>,
        direction: &str,
        amount: Option<f64>,
        pages: Option<f64>,
    ) -> Result<results::Scroll, BrowserError> {
        let body = "let e = this; \
            const scrollable = (n) => { if (!n || n.nodeType !== 1) return false; const s = getComputedStyle(n); const o = s.overflowY + s.overflowX; return /(auto|scroll|overlay)/.test(o) && (n.scrollHeight > n.clientHeight || n.scrollWidth > n.clientWidth); }; \
            if (c) e = document.elementFromPoint(c[0], c[1]); \
            while (e && e.nodeType === 1 && !scrollable(e) && e !== document.documentElement && e !== document.body) e = e.parentElement; \
            const page = !e || e.nodeType !== 1 || e === document.documentElement || e === document.body; \
            const sc = page ? (document.scrollingElement || document.documentElement) : e; \
            const dir = d2.dir; const vertical = dir === 'up' || dir === 'down'; \
            const size = vertical ? (page ? innerHeight : sc.clientHeight) : (page ? innerWidth : sc.clientWidth); \
            const dist = d2.amount != null ? d2.amount : (d2.pages != null ? d2.pages : 1) * size; \
            const before = {x: sc.scrollLeft, y: sc.scrollTop}; \
            sc.scrollBy({left: dir === 'left' ? -dist : dir === 'right' ? dist : 0, top: dir === 'up' ? -dist : dir === 'down' ? dist : 0, behavior: 'instant'}); \
            return {scrolled: page ? 'page' : d(sc), before, after: {x: sc.scrollLeft, y: sc.scrollTop}, distance: dist};";
        let target = match el {
            Some(e) => e.clone(),
            None => {
                let r = self.in_world("document.documentElement").await?;
                let object_id = r.result.object_id.map(String::from).unwrap_or_default();
                El { object_id, frame: None }
            }
        };
        let opts = json!({"dir": direction, "amount": amount, "pages": pages});
        let pt = point.map(|(x, y)| json!([x, y]));
        self.call(&target, body, &[Value::Null, Value::Null, pt.unwrap_or(Value::Null), opts]).await
    }

    pub async fn scroll_into_view(&self, el: &El) -> Result<results::Rect, BrowserError> {
        self.call(el, "this.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'}); const r = this.getBoundingClientRect(); return {x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height)};", ()).await
    }
}

/// What a press did: a dialog it opened, and why the page's receipt of it could not be
/// checked (see `witness.rs`; a press the page did not hear is an error instead).
#[derive(Debug, Default)]
pub struct Pressed {
    pub dialog: Option<Dialog>,
    pub unchecked: Option<String>,
}

/// How long a drag dwells over its target, twice, before it drops (a hand takes longer).
const DWELL: std::time::Duration = std::time::Duration::from_millis(60);

/// The longest one dwell waits for the page's animations.
const LINGER: std::time::Duration = std::time::Duration::from_millis(600);

/// Releases a mouse button when the action holding it is dropped half-way.
struct ButtonGuard {
    page: Page,
    params: DispatchMouseEventParams,
    armed: bool,
}

impl ButtonGuard {
    fn new(page: &Page, x: f64, y: f64, button: Button) -> Self {
        let params = mouse::event(Mouse::Released, (x, y), (button, 1), &[], 0);
        ButtonGuard { page: page.clone(), params, armed: true }
    }
}

impl Drop for ButtonGuard {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            let (page, params) = (self.page.clone(), self.params.clone());
            rt.spawn(async move {
                let _ = page.execute(params).await;
            });
        }
    }
}
