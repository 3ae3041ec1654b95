//! The witness of delivery: whether the page heard the trusted input the daemon sent. A
//! press's aim arms a counter of trusted events on the target's window, in the daemon's
//! world (the page cannot see or stop it before it counts); after the input the counter is
//! read. Chromium answers an input command even when the page never gets the event (input
//! ignored, a renderer that drops it), so the answer alone proves nothing.

use std::sync::atomic::{AtomicU64, Ordering};

use chromiumoxide::cdp::browser_protocol::dom_debugger::GetEventListenersParams;

use super::world::{evaluate, Answer};
use super::Tab;
use crate::browser::BrowserError;

/// The world's witness functions (part of its `INIT`): `witnessArm(win, kind, id)` starts
/// counting the trusted events of `kind` ("pointer" or "keys") that `win` hears, under `id`;
/// `witnessRead(id, ms)` answers how many came since (waiting up to `ms` for the first), or
/// -1 when nothing was armed under `id`. The
/// listeners are added once per window, capturing at the window, so they run before any the
/// page added later and see every event that reaches the page.
pub(super) const FUNCTIONS: &str = "witnessArm(win, kind, id) { \
  const slot = '__gbHeard_' + kind; let w = win[slot]; \
  if (!w) { w = {n: 0}; \
    const types = kind === 'keys' ? ['keydown', 'keyup', 'keypress', 'beforeinput', 'input'] \
      : ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu']; \
    for (const t of types) win.addEventListener(t, (e) => { if (!e.isTrusted) return; w.n++; \
      const wake = w.wake; w.wake = null; if (wake) wake(); }, true); \
    Object.defineProperty(win, slot, {value: w}); } \
  this.armed = {w, id, from: w.n}; }, \
witnessRead(id, ms) { const s = this.armed; if (!s || s.id !== id) return -1; \
  const got = () => s.w.n - s.from; if (got() > 0) return got(); \
  return new Promise((r) => { s.w.wake = () => r(got()); setTimeout(() => r(got()), ms); }); }";

/// What a witness counts: a press of the pointer or of keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Click,
    KeyPress,
}

impl Input {
    /// As an error names it.
    fn word(self) -> &'static str {
        match self {
            Input::Click => "click",
            Input::KeyPress => "key press",
        }
    }

    /// The event types the page's own capturing listeners could stop before the witness's.
    fn stoppable(self) -> &'static [&'static str] {
        match self {
            Input::Click => &["pointerdown", "pointerup", "mousedown", "mouseup", "click"],
            Input::KeyPress => &["keydown", "keyup", "keypress"],
        }
    }
}

/// One input's witness: the id its counter is armed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Witness(u64);

impl Witness {
    pub fn new() -> Witness {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Witness(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    pub fn id(self) -> u64 {
        self.0
    }
}

impl Default for Witness {
    fn default() -> Self {
        Witness::new()
    }
}

/// How long the page has, after Chromium answered the input, to show it heard it: the
/// events are dispatched before the answer, so the first one is nearly always there already;
/// the page wakes the wait at the first one that comes later.
const GRACE_MS: u64 = 80;

impl Tab {
    /// Arm `w` for pointer input at a viewport point of the tab's own document. Answers why
    /// it cannot be witnessed there (a frame at the point hears it, not the document).
    pub async fn arm_at(&self, x: f64, y: f64, w: Witness) -> Result<Option<String>, BrowserError> {
        let expr = format!(
            "(() => {{ const G = globalThis.__glovebox; const h = document.elementFromPoint({x}, {y}); \
             if (!G) return 'the daemon world is not in the page'; \
             if (h && /^(IFRAME|FRAME|EMBED|OBJECT)$/.test(h.tagName)) return 'the point is over a frame, whose document hears it'; \
             G.witnessArm(window, 'pointer', {}); return null; }})()",
            w.id()
        );
        self.arm(&expr).await
    }

    /// Arm `w` for key input in the focused document (through same-site frames). Answers
    /// why it cannot be witnessed (the focus is in a cross-site frame, whose document hears
    /// the keys).
    pub async fn arm_keys(&self, w: Witness) -> Result<Option<String>, BrowserError> {
        let expr = format!(
            "(() => {{ const G = globalThis.__glovebox; if (!G) return 'the daemon world is not in the page'; \
             let doc = document, e = doc.activeElement; \
             while (e && /^(IFRAME|FRAME)$/.test(e.tagName)) {{ let d = null; try {{ d = e.contentDocument; }} catch (x) {{}} \
               if (!d) return 'the focus is in a cross-site frame, whose document hears the keys'; doc = d; e = d.activeElement; }} \
             G.witnessArm(doc.defaultView, 'keys', {}); return null; }})()",
            w.id()
        );
        self.arm(&expr).await
    }

    async fn arm(&self, expr: &str) -> Result<Option<String>, BrowserError> {
        let ctx = self.world(None).await?;
        let r = self.run(evaluate(expr, Some(ctx), Answer::Value)).await?;
        Ok(super::value_of(r.result, r.exception_details)?.as_str().map(str::to_owned))
    }

    /// After input armed by [`Tab::arm_at`] or [`Tab::arm_keys`] (`unarmed`: why it was
    /// not): [`Tab::heard`] in the tab's own document, unless a dialog opened (the page
    /// heard it).
    pub async fn heard_here(
        &self,
        w: Witness,
        unarmed: Option<String>,
        dialog: bool,
        input: Input,
        what: &str,
    ) -> Result<Option<String>, BrowserError> {
        match (dialog, unarmed) {
            (true, _) => Ok(None),
            (false, Some(why)) => Ok(Some(format!("the page's receipt was not checked: {why}"))),
            (false, None) => {
                let ctx = self.world(None).await?;
                self.heard(None, ctx, w, input, what).await
            }
        }
    }

    /// Whether the page heard the input armed under `w` in the world `ctx` of `frame` (None:
    /// the tab's own). `Ok(None)` when it did, or when its document went away (the page
    /// answered by leaving); `Ok(Some(why))` when it cannot be told;
    /// [`BrowserError::Undelivered`] when the page heard nothing.
    pub async fn heard(
        &self,
        frame: Option<&str>,
        ctx: i64,
        w: Witness,
        input: Input,
        what: &str,
    ) -> Result<Option<String>, BrowserError> {
        let expr = format!(
            "(() => {{ const G = globalThis.__glovebox; return G ? G.witnessRead({}, {GRACE_MS}) : -1; }})()",
            w.id()
        );
        let r = self.run_in(frame, evaluate(&expr, Some(ctx), Answer::Awaited)).await;
        let n = match r.and_then(|r| super::value_of(r.result, r.exception_details)) {
            Ok(v) => v.as_i64().unwrap_or(-1),
            Err(BrowserError::ContextGone(_) | BrowserError::Gone(_)) => return Ok(None),
            Err(BrowserError::DialogOpen(_) | BrowserError::DialogOpened(_)) => return Ok(None),
            Err(e) => return Ok(Some(format!("the page's receipt was not checked: {e}"))),
        };
        if n > 0 {
            return Ok(None);
        }
        if n < 0 {
            return Ok(Some("the page's receipt was not checked: nothing was armed".into()));
        }
        // A listener the page put on the window before the witness's, capturing the same
        // events, may stop them there: then silence proves nothing.
        if let Some(why) = self.stopped_before(frame, input).await {
            return Ok(Some(format!("the page's receipt was not checked: {why}")));
        }
        Err(BrowserError::Undelivered { input: input.word(), what: what.to_owned() })
    }

    /// Why the page itself may have stopped the witnessed events before the witness heard
    /// them: listeners of its own capturing them on its window (`getEventListeners` over the
    /// page's window lists the page's own, not the witness's).
    async fn stopped_before(&self, frame: Option<&str>, input: Input) -> Option<String> {
        let r = self.run_in(frame, evaluate("window", None, Answer::Handle)).await;
        let win = r.ok()?.result.object_id?;
        let r = self.run_in(frame, GetEventListenersParams::new(win)).await.ok()?;
        let listeners = r.listeners;
        let capturing = |t: &str| listeners.iter().any(|l| l.r#type == t && l.use_capture);
        input.stoppable().iter().find(|t| capturing(t)).map(|t| {
            format!("the page captures {t} on its window before the witness and may stop it there")
        })
    }
}
