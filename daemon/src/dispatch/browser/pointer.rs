//! Pointer actions: click, double click, hover, scroll, scroll into view and drag, at an
//! element's centre or a viewport point.

use glovebox_protocol::actions::browser::{self, Common};
use glovebox_protocol::actions::{keys, Element, Target};
use glovebox_protocol::results::browser::{self as results, Point, Pointed};

use super::target::aim_key;
use super::TabCx;
use crate::browser::mouse::Button;
use crate::dispatch::results::{decode, part};
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
    let pointed = |x, y, element, dialog| Pointed {
        x,
        y,
        element,
        button: click.map(|(b, _)| b.as_str().to_owned()),
        click_count: click.map(|(_, n)| n),
        dialog,
    };
    let click = click.map(|(b, n)| (Button::from(b), n));
    // By ref: the pointer's move overlaps the aim (see `Tab::pointer_at_key`).
    if let Some(Element::Ref(r)) = target.element() {
        let key = cx.ref_key(r, c)?;
        let aimed = aim_key(tab, r, &key, click.is_some());
        let (((x, y), what), d) = tab.pointer_at_key(&key, aimed, click, mods).await?;
        return Ok(pointed(x, y, Some(what), d));
    }
    let (x, y, what) = match target {
        Target::Element(e) => {
            let ((x, y), what) = cx.aim(e, c, click.is_some()).await?;
            (x, y, Some(what))
        }
        Target::Point(pt) => {
            let (x, y) = cx.point(pt).await?;
            (x, y, None)
        }
    };
    let dialog = match click {
        None => {
            tab.hover_at(x, y, mods).await?;
            None
        }
        Some((button, count)) => tab.click_at(x, y, button, count, mods).await?,
    };
    Ok(pointed(x, y, what, dialog))
}

pub(super) async fn scroll(cx: TabCx, p: browser::Scroll) -> Result<results::Scroll, DaemonError> {
    let (el, pt) = match &p.target {
        Some(Target::Element(e)) => (Some(cx.element(e, &p.common).await?), None),
        Some(Target::Point(pt)) => (None, Some(cx.point(pt).await?)),
        None => (None, None),
    };
    let amount = p.amount.map(f64::from);
    decode::<browser::Scroll>(
        cx.tab.scroll(el.as_ref(), pt, p.direction.as_str(), amount, p.pages).await?,
    )
}

pub(super) async fn scroll_into_view(
    cx: TabCx,
    p: browser::ScrollIntoView,
) -> Result<results::ScrollIntoView, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    let bounds = part::<browser::ScrollIntoView, _>(cx.tab.scroll_into_view(&e).await?)?;
    Ok(results::ScrollIntoView { bounds })
}

pub(super) async fn drag(cx: TabCx, p: browser::Drag) -> Result<results::Drag, DaemonError> {
    let tab = &cx.tab;
    // Any ref takes a drag, a text line's too: the aim finds a text node's box.
    let from = match &p.target {
        Target::Element(e) => cx.aim(e, &p.common, true).await?.0,
        Target::Point(pt) => cx.point(pt).await?,
    };
    // The drop target: an element, else a point (the contract asks for one of them).
    let drop_el = keys::element(p.target_ref.clone(), p.target_selector.clone());
    let to = match (drop_el, keys::point(p.to_x, p.to_y, p.to_nx, p.to_ny)) {
        (Some(e), _) => cx.aim(&e, &p.common, false).await?.0,
        (None, Some(pt)) => cx.point(&pt).await?,
        (None, None) => return Err(crate::dispatch::no_drop_target("browser.drag")),
    };
    tab.drag(from, to, p.button.into(), cx.held_modifiers()).await?;
    let point = |(x, y)| Point { x, y };
    Ok(results::Drag { from: point(from), to: point(to) })
}
