//! Acting on an element or a point: clicks, typing, fill, values, text selection and
//! secondary actions.

use glovebox_protocol::actions::computer::{self, Button};
use glovebox_protocol::actions::Target;
use serde_json::json;

use super::{acted, button, desktop, dispatch, element, element_opt, out, point, target};
use crate::dispatch::{Ctx, Output};
use crate::error::DaemonError;

pub(super) async fn click(ctx: Ctx, p: computer::Click) -> Result<Output, DaemonError> {
    let computer::Click { target, button, click_count, dispatch, common } = p;
    press(&ctx, &common, &target, button, click_count, dispatch).await
}

pub(super) async fn double_click(
    ctx: Ctx,
    p: computer::DoubleClick,
) -> Result<Output, DaemonError> {
    let computer::DoubleClick { target, button, click_count, dispatch, common } = p;
    press(&ctx, &common, &target, button, click_count, dispatch).await
}

/// Click `on` `count` times: an element through accessibility or input, a point by input.
async fn press(
    ctx: &Ctx,
    common: &computer::Common,
    on: &computer::Target,
    b: Button,
    count: u32,
    how: computer::Dispatch,
) -> Result<Output, DaemonError> {
    let d = desktop(ctx)?;
    let t = target(ctx, &d, common).await?;
    let count = count as u8;
    let r = match on {
        Target::Element(r) => {
            let el = element(ctx, &t, r)?;
            d.click(&el, button(b), count, dispatch(how), t.aim(Some(r))).await?
        }
        Target::Point(pt) => {
            let (x, y) = point(&d, pt);
            d.click_at(x, y, button(b), count, t.aim(None)).await?
        }
    };
    Ok(acted(&t, r, json!({"button": b.as_str(), "click_count": count})))
}

pub(super) async fn type_text(ctx: Ctx, p: computer::Type) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element_opt(&ctx, &t, p.r#ref.as_deref())?;
    let aim = t.aim(p.r#ref.as_deref());
    let r = d.type_text(el.as_ref(), &p.text, dispatch(p.dispatch), aim).await?;
    Ok(acted(&t, r, json!({"typed_chars": p.text.chars().count()})))
}

pub(super) async fn fill(ctx: Ctx, p: computer::Fill) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element_opt(&ctx, &t, p.r#ref.as_deref())?;
    let aim = t.aim(p.r#ref.as_deref());
    let r = d.fill(el.as_ref(), &p.text, dispatch(p.dispatch), aim).await?;
    Ok(acted(&t, r, json!({})))
}

pub(super) async fn set_value(ctx: Ctx, p: computer::SetValue) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element(&ctx, &t, &p.r#ref)?;
    let r = d.set_value(&el, &p.value, dispatch(p.dispatch)).await?;
    Ok(acted(&t, r, json!({})))
}

pub(super) async fn select_text(ctx: Ctx, p: computer::SelectText) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element(&ctx, &t, &p.r#ref)?;
    let kind = p.selection_type.as_str();
    let (prefix, suffix) = (p.prefix.as_deref().unwrap_or(""), p.suffix.as_deref().unwrap_or(""));
    let (start, end) = d.select_text(&el, &p.text, prefix, suffix, kind).await?;
    Ok(out(
        &t,
        json!({"start": start, "end": end, "selection_type": kind,
               "via": "accessibility:text", "actual_dispatch": "background"}),
    ))
}

pub(super) async fn secondary_action(
    ctx: Ctx,
    p: computer::SecondaryAction,
) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element(&ctx, &t, &p.r#ref)?;
    let r = d.secondary_action(&el, &p.name).await?;
    Ok(acted(&t, r, json!({"name": p.name})))
}

pub(super) async fn get_text(ctx: Ctx, p: computer::GetText) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element(&ctx, &t, &p.r#ref)?;
    let r = d.get_text(&el).await?;
    // The whole text came over the bus (AT-SPI has no cheaper count); the range and the
    // daemon's limit cut it here.
    let length = p.length.map(|l| l as usize);
    let max = ctx.daemon.config.max_text_chars;
    let (text, range) = crate::dispatch::text::slice(&r.text, p.offset as usize, length, max);
    let body = json!({"text": text, "length": r.length, "caret": r.caret,
                      "selection": r.selection});
    Ok(out(&t, crate::dispatch::text::ranged(body, range, length, max)))
}
