//! What a call acts on: its frozen browser and tab, the element it names by ref or
//! selector, a viewport point, and the modifier keys the session holds there.

use glovebox_protocol::actions::browser::{self, Common};
use glovebox_protocol::actions::{Element, Point};
use glovebox_protocol::contract::Violation;
use glovebox_protocol::wire::{TabSource, Target};

use super::{poisoned, select, TabCx};
use crate::browser::actions::{Aim, El, Press};
use crate::browser::{input, BrowserError, Browsers, Tab};
use crate::dispatch::Ctx;
use crate::error::DaemonError;

/// The frozen target of one call.
pub(in crate::dispatch) struct Frozen {
    pub browser_id: String,
    pub tab_id: String,
    pub source: TabSource,
}

impl Frozen {
    pub(super) fn target(&self) -> Target {
        Target::of_tab(&self.browser_id, &self.tab_id, self.source)
    }
}

/// The browser of a call: explicit, else the session's, else the default (started on demand).
pub(super) async fn browser_of(
    ctx: &Ctx,
    b: &Browsers,
    browser_id: Option<&str>,
) -> Result<String, DaemonError> {
    if let Some(id) = browser_id {
        return Ok(id.to_owned());
    }
    if let Some(id) = ctx.session.selection().browser_id {
        return Ok(id);
    }
    Ok(b.ensure_default().await?)
}

/// The tab a call acts on; `named_ref` is the ref its locator names, stale when the
/// session's tab is gone.
pub(super) async fn freeze(
    ctx: &Ctx,
    b: &Browsers,
    c: &Common,
    named_ref: Option<&str>,
) -> Result<Frozen, DaemonError> {
    let browser_id = browser_of(ctx, b, c.browser_id.as_deref()).await?;
    let sel = ctx.session.selection();
    let lane = ctx.session.lane();
    if let Some(t) = &c.tab_id {
        // Another lane's tab is as unknown as one that does not exist.
        b.check_tab(&browser_id, t, &lane).await?;
        return Ok(Frozen { browser_id, tab_id: t.clone(), source: TabSource::Explicit });
    }
    if let Some(i) = c.tab_index {
        let tabs = b.tabs(&browser_id, &lane).await?;
        let Some(t) = tabs.get(i as usize) else {
            return Err(DaemonError::TargetNotFound { kind: "tab", id: format!("tab_index {i}") });
        };
        return Ok(Frozen { browser_id, tab_id: t.tab_id.clone(), source: TabSource::Explicit });
    }
    if let (Some(sb), Some(st)) = (&sel.browser_id, &sel.tab_id) {
        if *sb == browser_id {
            let alive = b.tabs(&browser_id, &lane).await?.iter().any(|t| t.tab_id == *st);
            if alive {
                return Ok(Frozen { browser_id, tab_id: st.clone(), source: TabSource::Session });
            }
            // The session's tab is gone (closed, or its browser restarted): its refs are
            // stale; a call without refs moves on to the active tab.
            if let Some(r) = named_ref {
                let key = crate::browser::target_key(&browser_id, st);
                let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
                snaps.resolve(&key, r, c.snapshot_id.as_deref())?;
                return Err(DaemonError::StaleRef {
                    r#ref: crate::registry::snapshots::normalize_ref(r),
                    reason: format!("the session's tab {st} is gone"),
                    by: None,
                });
            }
        }
    }
    // The lane's tab in front, unless another session works in it (or the lane has none):
    // then a tab of its own, so no session navigates or types in another's page.
    let front = b.front_tab(&browser_id, &lane).await?;
    let (tab_id, source) = match front {
        Some(t) if !ctx.daemon.sessions.tab_held_by_other(&t, &ctx.session) => {
            (t, TabSource::Active)
        }
        _ => (b.new_tab(&browser_id, None, (true, true), &lane).await?, TabSource::New),
    };
    // The session adopts it, unless the call named another browser than the session's.
    if c.browser_id.is_none() || sel.browser_id.is_none() {
        select(ctx, &browser_id, &tab_id);
    }
    Ok(Frozen { browser_id, tab_id, source })
}

/// The element `e` names on `tab`, a ref resolved in the session's snapshots (`snapshot_id`'s
/// or the latest).
pub(super) async fn element(
    ctx: &Ctx,
    tab: &Tab,
    e: &Element,
    snapshot_id: Option<&str>,
) -> Result<El, DaemonError> {
    match e {
        Element::Ref(r) => {
            let key = resolve(ctx, tab, r, snapshot_id)?;
            tab.element_by_key(&key).await.map_err(|e| stale(r, e))
        }
        Element::Selector(sel) => Ok(tab.element_by_selector(sel).await?),
    }
}

/// The snapshot key behind a ref.
fn resolve(
    ctx: &Ctx,
    tab: &Tab,
    r: &str,
    snapshot_id: Option<&str>,
) -> Result<String, DaemonError> {
    let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
    snaps.resolve(&tab.key(), r, snapshot_id)
}

impl TabCx {
    /// The element `e` names (see [`element`]).
    pub(super) async fn element(&self, e: &Element, c: &Common) -> Result<El, DaemonError> {
        element(&self.ctx, &self.tab, e, c.snapshot_id.as_deref()).await
    }

    /// The element an optional locator names, if any.
    pub(super) async fn element_opt(
        &self,
        e: Option<&Element>,
        c: &Common,
    ) -> Result<Option<El>, DaemonError> {
        match e {
            Some(e) => self.element(e, c).await.map(Some),
            None => Ok(None),
        }
    }

    /// The snapshot key behind a ref.
    pub(super) fn ref_key(&self, r: &str, c: &Common) -> Result<String, DaemonError> {
        resolve(&self.ctx, &self.tab, r, c.snapshot_id.as_deref())
    }

    /// Where a pointer action on `e` lands (scrolled into view, hit-tested) and what it is;
    /// `press`: a button goes down there.
    pub(super) async fn aim(
        &self,
        e: &Element,
        c: &Common,
        press: Press,
    ) -> Result<Aim, DaemonError> {
        match e {
            Element::Ref(r) => {
                let key = self.ref_key(r, c)?;
                aim_key(&self.tab, r, &key, press).await
            }
            Element::Selector(_) => {
                let el = self.element(e, c).await?;
                Ok(self.tab.aim(&el, press).await?)
            }
        }
    }

    /// A viewport point in CSS pixels; one outside the viewport is refused, naming its size
    /// (the browser would take it and hit nothing, or what the page lays out off-screen).
    pub(super) async fn point(&self, p: &browser::Point) -> Result<(f64, f64), DaemonError> {
        let (w, h) = self.tab.viewport().await?;
        let (x, y, field) = match *p {
            Point::Pixels { x, y } => (x, y, "x"),
            // A fraction of 1 is the last pixel, not the one past it.
            Point::Fraction { nx, ny } => ((nx * w).min(w - 1.0), (ny * h).min(h - 1.0), "nx"),
        };
        if x < 0.0 || y < 0.0 || x >= w || y >= h {
            let msg = format!(
                "the point {x},{y} is outside the viewport, which is {w}x{h} CSS pixels (x 0 to {}, y 0 to {}); scroll to bring what is there into view",
                w - 1.0,
                h - 1.0
            );
            return Err(DaemonError::Contract(Violation::new(field, msg)));
        }
        Ok((x, y))
    }

    /// Modifier bits of the keys this session holds on this tab.
    pub(super) fn held_modifiers(&self) -> u32 {
        self.ctx
            .session
            .held
            .lock()
            .map(|h| {
                h.browser_keys
                    .iter()
                    .filter(|(t, _)| *t == self.f.tab_id)
                    .filter_map(|(_, k)| input::modifier_bit(k))
                    .fold(0, |a, b| a | b)
            })
            .unwrap_or(0)
    }
}

/// [`Tab::aim_key`] for a ref's key; a gone element is a stale ref.
pub(super) async fn aim_key(
    tab: &Tab,
    r: &str,
    key: &str,
    press: Press,
) -> Result<Aim, DaemonError> {
    tab.aim_key(key, press).await.map_err(|e| stale(r, e))
}

/// A ref whose element is gone is stale; other failures keep their own code.
fn stale(r: &str, e: BrowserError) -> DaemonError {
    match e {
        BrowserError::Gone(why) => DaemonError::StaleRef {
            r#ref: crate::registry::snapshots::normalize_ref(r),
            reason: format!("the element is no longer in the page ({why})"),
            by: None,
        },
        other => other.into(),
    }
}
