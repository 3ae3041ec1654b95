//! Pointer actions: click, double click, hover, scroll, scroll into view and drag, at an
//! element's centre or a viewport point.

use glovebox_protocol::actions::browser::{self, Common};
use glovebox_protocol::actions::{keys, Element, Target};
use glovebox_protocol::results::browser::{self as results, Point, Pointed};

use super::target::aim_key;
use super::TabCx;
use crate::browser::actions::{Input, Press, Pressed, Witness};
use crate::browser::mouse::Button;
use crate::error::DaemonError;

pub(super) async fn click(cx: TabCx, p: browser::Click) -> Result<Pointed, DaemonError> {
    pointer_at(&cx, &p.target, &p.common, Some((p.button, p.click_count))).await
}

pub(super) async fn double_click(
    cx: TabCx,
    p: browser::DoubleClick,
) -> Result<Pointed, DaemonError> {
    pointer_at(&cx, &p.target, &p.common, Some((p.button, p.click_count))).await
}

pub(super) async fn hover(cx: TabCx, p: browser::Hover) -> Result<Pointed, DaemonError> {
    pointer_at(&cx, &p.target, &p.common, None).await
}

/// Move to the target and, with `click`, press there: the result says where and on what.
async fn pointer_at(
    cx: &TabCx,
    target: &browser::Target,
    c: &Common,
    click: Option<(browser::Button, u32)>,
) -> Result<Pointed, DaemonError> {
    let (tab, mods) = (&cx.tab, cx.held_modifiers());
    let pointed = |x, y, element, p: Pressed| Pointed {
        x,
        y,
        element,
        button: click.map(|(b, _)| b.as_str().to_owned()),
        click_count: click.map(|(_, n)| n),
        dialog: p.dialog,
        unchecked: p.unchecked,
    };
    // A press is witnessed: the page must hear it (`browser/actions/witness.rs`).
    let w = Witness::new();
    let press = if click.is_some() { Press::Witnessed(w) } else { Press::None };
    let click = click.map(|(b, n)| (Button::from(b), n));
    // By ref: the pointer's move overlaps the aim (see `Tab::pointer_at_key`).
    if let Some(Element::Ref(r)) = target.element() {
        let key = cx.ref_key(r, c)?;
        let aimed = aim_key(tab, r, &key, press);
        let click = click.map(|(b, n)| (b, n, w));
        let (((x, y), what), p) = tab.pointer_at_key(&key, aimed, click, mods).await?;
        return Ok(pointed(x, y, Some(what), p));
    }
    // Else the witness counts in the daemon's world of the tab's own document.
    let (x, y, what, unarmed) = match target {
        Target::Element(e) => {
            let ((x, y), what) = cx.aim(e, c, press).await?;
            (x, y, Some(what), None)
        }
        Target::Point(pt) => {
            let (x, y) = cx.point(pt).await?;
            let unarmed = match click {
                Some(_) => tab.arm_at(x, y, w).await?,
                None => None,
            };
            (x, y, None, unarmed)
        }
    };
    let Some((button, count)) = click else {
        tab.hover_at(x, y, mods).await?;
        return Ok(pointed(x, y, what, Pressed::default()));
    };
    let dialog = tab.click_at(x, y, button, count, mods).await?;
    let on = what.clone().unwrap_or_else(|| format!("the point {},{}", x.round(), y.round()));
    let unchecked = tab.heard_here(w, unarmed, dialog.is_some(), Input::Click, &on).await?;
    Ok(pointed(x, y, what, Pressed { dialog, unchecked }))
}

pub(super) async fn scroll(cx: TabCx, p: browser::Scroll) -> Result<results::Scroll, DaemonError> {
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
) -> Result<results::ScrollIntoView, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    let bounds = cx.tab.scroll_into_view(&e).await?;
    Ok(results::ScrollIntoView { bounds })
}

pub(super) async fn drag(cx: TabCx, p: browser::Drag) -> Result<results::Drag, DaemonError> {
    let tab = &cx.tab;
    // Any ref takes a drag, a text line's too: the aim finds a text node's box.
    let from = match &p.target {
        Target::Element(e) => cx.aim(e, &p.common, Press::Unwitnessed).await?.0,
        Target::Point(pt) => cx.point(pt).await?,
    };
    // The drop target: an element, else a point (the contract asks for one of them).
    let drop_el = keys::element(p.target_ref.clone(), p.target_selector.clone());
    let to = match (drop_el, keys::point(p.to_x, p.to_y, p.to_nx, p.to_ny)) {
        (Some(e), _) => cx.aim(&e, &p.common, Press::None).await?.0,
        (None, Some(pt)) => cx.point(&pt).await?,
        (None, None) => return Err(crate::dispatch::no_drop_target("browser.drag")),
    };
    tab.drag(from, to, p.button.into(), cx.held_modifiers()).await?;
    let point = |(x, y)| Point { x, y };
    Ok(results::Drag { from: point(from), to: point(to) })
}
