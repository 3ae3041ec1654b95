//! What a call acts on: its frozen browser and tab, the element it names by ref or
//! selector, a viewport point, and the modifier keys the session holds there.

use serde_json::{json, Map, Value};

use super::{n, poisoned, s, select, u};
use crate::browser::actions::Aim;
use crate::browser::actions::El;
use crate::browser::{input, BrowserError, Browsers, Tab};
use crate::dispatch::Ctx;
use crate::error::DaemonError;

/// The frozen target of one call.
pub(super) struct Frozen {
    pub browser_id: String,
    pub tab_id: String,
    pub source: &'static str,
}

impl Frozen {
    pub(super) fn json(&self) -> Value {
        json!({"browser_id": self.browser_id, "tab_id": self.tab_id, "tab_source": self.source})
    }
}

/// The browser of a call: explicit, else the session's, else the default (started on demand).
pub(super) async fn browser_of(
    ctx: &Ctx,
    b: &Browsers,
    args: &Map<String, Value>,
) -> Result<String, DaemonError> {
    if let Some(id) = s(args, "browser_id") {
        return Ok(id.to_owned());
    }
    if let Some(id) = ctx.session.selection().browser_id {
        return Ok(id);
    }
    Ok(b.ensure_default().await?)
}

pub(super) async fn freeze(
    ctx: &Ctx,
    b: &Browsers,
    args: &Map<String, Value>,
) -> Result<Frozen, DaemonError> {
    let browser_id = browser_of(ctx, b, args).await?;
    let sel = ctx.session.selection();
    if let Some(t) = s(args, "tab_id") {
        return Ok(Frozen { browser_id, tab_id: t.to_owned(), source: "explicit" });
    }
    if let Some(i) = u(args, "tab_index") {
        let tabs = b.tabs(&browser_id).await?;
        let Some(t) = tabs.get(i as usize) else {
            return Err(DaemonError::TargetNotFound { kind: "tab", id: format!("tab_index {i}") });
        };
        return Ok(Frozen { browser_id, tab_id: t.tab_id.clone(), source: "explicit" });
    }
    if let (Some(sb), Some(st)) = (&sel.browser_id, &sel.tab_id) {
        if *sb == browser_id {
            let alive = b.tabs(&browser_id).await?.iter().any(|t| t.tab_id == *st);
            if alive {
                return Ok(Frozen { browser_id, tab_id: st.clone(), source: "session" });
            }
            // The session's tab is gone (closed, or its browser restarted): its refs are
            // stale; a call without refs moves on to the active tab.
            if let Some(r) = s(args, "ref") {
                let key = crate::browser::target_key(&browser_id, st);
                let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
                snaps.resolve(&key, r, s(args, "snapshot_id"))?;
                return Err(DaemonError::StaleRef {
                    r#ref: crate::registry::snapshots::normalize_ref(r),
                    reason: format!("the session's tab {st} is gone"),
                });
            }
        }
    }
    let tab_id = b.active_tab(&browser_id).await?;
    // The session adopts it, unless the call named another browser than the session's.
    if !args.contains_key("browser_id") || sel.browser_id.is_none() {
        select(ctx, &browser_id, &tab_id);
    }
    Ok(Frozen { browser_id, tab_id, source: "active" })
}

/// The element a call names by `ref_key` or `sel_key`, if any.
pub(super) async fn element(
    ctx: &Ctx,
    tab: &Tab,
    args: &Map<String, Value>,
    ref_key: &str,
    sel_key: &str,
) -> Result<Option<El>, DaemonError> {
    if let Some(r) = s(args, ref_key) {
        let key = {
            let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
            snaps.resolve(&tab.key(), r, s(args, "snapshot_id"))?
        };
        return tab.element_by_key(&key).await.map(Some).map_err(|e| stale(r, e));
    }
    if let Some(sel) = s(args, sel_key) {
        return Ok(Some(tab.element_by_selector(sel).await?));
    }
    Ok(None)
}

/// The snapshot key behind the call's `ref`, if it names one.
pub(super) fn ref_key(
    ctx: &Ctx,
    tab: &Tab,
    args: &Map<String, Value>,
) -> Result<Option<(String, String)>, DaemonError> {
    let Some(r) = s(args, "ref") else { return Ok(None) };
    let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
    Ok(Some((r.to_owned(), snaps.resolve(&tab.key(), r, s(args, "snapshot_id"))?)))
}

/// [`Tab::aim_key`] for a ref's key; a gone element is a stale ref.
pub(super) async fn aim_key(tab: &Tab, r: &str, key: &str) -> Result<Aim, DaemonError> {
    tab.aim_key(key).await.map_err(|e| stale(r, e))
}

/// Where a pointer action on the element named by `ref` or `selector` lands (scrolled into
/// view, hit-tested) and what it is; None when the call names no element.
pub(super) async fn aim(
    ctx: &Ctx,
    tab: &Tab,
    args: &Map<String, Value>,
) -> Result<Option<Aim>, DaemonError> {
    if let Some(r) = s(args, "ref") {
        let key = {
            let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
            snaps.resolve(&tab.key(), r, s(args, "snapshot_id"))?
        };
        return tab.aim_key(&key).await.map(Some).map_err(|e| stale(r, e));
    }
    match element(ctx, tab, args, "ref", "selector").await? {
        Some(e) => Ok(Some(tab.aim(&e).await?)),
        None => Ok(None),
    }
}

/// A ref whose element is gone is stale; other failures keep their own code.
fn stale(r: &str, e: BrowserError) -> DaemonError {
    match e {
        BrowserError::Gone(why) => DaemonError::StaleRef {
            r#ref: crate::registry::snapshots::normalize_ref(r),
            reason: format!("the element is no longer in the page ({why})"),
        },
        other => other.into(),
    }
}

/// A viewport point from x,y or nx,ny (with the given key names).
pub(super) async fn point(
    tab: &Tab,
    args: &Map<String, Value>,
    keys: [&str; 4],
) -> Result<Option<(f64, f64)>, DaemonError> {
    if let (Some(x), Some(y)) = (n(args, keys[0]), n(args, keys[1])) {
        return Ok(Some((x, y)));
    }
    if let (Some(nx), Some(ny)) = (n(args, keys[2]), n(args, keys[3])) {
        let (w, h) = tab.viewport().await?;
        return Ok(Some((nx * w, ny * h)));
    }
    Ok(None)
}

/// Modifier bits of the keys this session holds on this tab.
pub(super) fn held_modifiers(ctx: &Ctx, tab_id: &str) -> u32 {
    ctx.session
        .held
        .lock()
        .map(|h| {
            h.browser_keys
                .iter()
                .filter(|(t, _)| t == tab_id)
                .filter_map(|(_, k)| input::modifier_bit(k))
                .fold(0, |a, b| a | b)
        })
        .unwrap_or(0)
}
