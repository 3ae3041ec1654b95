//! Pointer actions: click, double click, hover, scroll, scroll into view and drag, at an
//! element's centre or a viewport point.

use glovebox_protocol::actions::browser::{self, Common};
use glovebox_protocol::actions::{keys, Element, Target};
use serde_json::{json, Value};

use super::target::aim_key;
use super::{with_dialog, TabCx};
use crate::error::DaemonError;

pub(super) async fn click(cx: TabCx, p: browser::Click) -> Result<Value, DaemonError> {
    pointer_at(&cx, &p.target, &p.common, Some((p.button, p.click_count))).await
}

pub(super) async fn double_click(cx: TabCx, p: browser::DoubleClick) -> Result<Value, DaemonError> {
    pointer_at(&cx, &p.target, &p.common, Some((p.button, p.click_count))).await
}

pub(super) async fn hover(cx: TabCx, p: browser::Hover) -> Result<Value, DaemonError> {
    pointer_at(&cx, &p.target, &p.common, None).await
}

/// Move to the target and, with `click`, press there: the result says where and on what.
async fn pointer_at(
    cx: &TabCx,
    target: &browser::Target,
    c: &Common,
    click: Option<(browser::Button, u32)>,
) -> Result<Value, DaemonError> {
    let (tab, mods) = (&cx.tab, cx.held_modifiers());
    let click = click.map(|(b, n)| (b.as_str(), n));
    // By ref: the pointer's move overlaps the aim (see `Tab::pointer_at_key`).
    if let Some(Element::Ref(r)) = target.element() {
        let key = cx.ref_key(r, c)?;
        let aimed = aim_key(tab, r, &key);
        let (((x, y), what), d) = tab.pointer_at_key(&key, aimed, click, mods).await?;
        let mut out = json!({"x": x, "y": y, "element": what});
        if let Some((button, count)) = click {
            out["button"] = json!(button);
            out["click_count"] = json!(count);
        }
        return Ok(with_dialog(out, d));
    }
    let (x, y, what) = match target {
        Target::Element(e) => {
            let ((x, y), what) = cx.aim(e, c).await?;
            (x, y, json!(what))
        }
        Target::Point(pt) => {
            let (x, y) = cx.point(pt).await?;
            (x, y, Value::Null)
        }
    };
    match click {
        None => {
            tab.hover_at(x, y, mods).await?;
            Ok(json!({"x": x, "y": y, "element": what}))
        }
        Some((button, count)) => {
            let d = tab.click_at(x, y, button, count, mods).await?;
            let out =
                json!({"x": x, "y": y, "button": button, "click_count": count, "element": what});
            Ok(with_dialog(out, d))
        }
    }
}

pub(super) async fn scroll(cx: TabCx, p: browser::Scroll) -> Result<Value, DaemonError> {
    let (el, pt) = match &p.target {
        Some(Target::Element(e)) => (Some(cx.element(e, &p.common).await?), None),
        Some(Target::Point(pt)) => (None, Some(cx.point(pt).await?)),
        None => (None, None),
    };
    let amount = p.amount.map(f64::from);
    Ok(cx.tab.scroll(el.as_ref(), pt, p.direction.as_str(), amount, p.pages).await?)
}

pub(super) async fn scroll_into_view(
    cx: TabCx,
    p: browser::ScrollIntoView,
) -> Result<Value, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    Ok(json!({"box": cx.tab.scroll_into_view(&e).await?}))
}

pub(super) async fn drag(cx: TabCx, p: browser::Drag) -> Result<Value, DaemonError> {
    let tab = &cx.tab;
    let from = match &p.target {
        Target::Element(e) => tab.center(&cx.element(e, &p.common).await?).await?,
        Target::Point(pt) => cx.point(pt).await?,
    };
    // The drop target: an element, else a point (the contract asks for one of them).
    let drop_el = keys::element(p.target_ref.clone(), p.target_selector.clone());
    let to = match (drop_el, keys::point(p.to_x, p.to_y, p.to_nx, p.to_ny)) {
        (Some(e), _) => tab.center(&cx.element(&e, &p.common).await?).await?,
        (None, Some(pt)) => cx.point(&pt).await?,
        (None, None) => return Err(crate::dispatch::no_drop_target("browser.drag")),
    };
    tab.drag(from, to, p.button.as_str(), cx.held_modifiers()).await?;
    Ok(json!({"from": {"x": from.0, "y": from.1}, "to": {"x": to.0, "y": to.1}}))
}
