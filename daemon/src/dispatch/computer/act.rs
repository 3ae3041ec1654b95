//! Acting on an element or a point: clicks, typing, fill, values, text selection and
//! secondary actions.

use glovebox_protocol::actions::computer::{self, Button};
use glovebox_protocol::actions::Target;
use glovebox_protocol::results::computer as results;

use super::{button, desktop, dispatch, element, element_opt, out, point, target};
use crate::dispatch::{secrets, Ctx, Output};
use crate::error::DaemonError;

pub(super) async fn click(
    ctx: Ctx,
    p: computer::Click,
) -> Result<Output<results::Click>, DaemonError> {
    let computer::Click { target, button, click_count, dispatch, common } = p;
    press(&ctx, &common, &target, button, click_count, dispatch).await
}

pub(super) async fn double_click(
    ctx: Ctx,
    p: computer::DoubleClick,
) -> Result<Output<results::DoubleClick>, DaemonError> {
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
) -> Result<Output<results::Click>, DaemonError> {
    let d = desktop(ctx)?;
    let t = target(ctx, &d, common).await?;
    let clicks = count as u8;
    let acted = match on {
        Target::Element(r) => {
            let el = element(ctx, &t, r)?;
            d.click(&el, button(b), clicks, dispatch(how), t.aim(Some(r))).await?
        }
        Target::Point(pt) => {
            let (x, y) = point(&d, &t, pt)?;
            d.click_at(x, y, button(b), clicks, t.aim(None)).await?
        }
    };
    let click_count = u32::from(clicks);
    Ok(out(&t, results::Click { acted, button: b.as_str().into(), click_count }))
}

pub(super) async fn type_text(
    ctx: Ctx,
    p: computer::Type,
) -> Result<Output<results::Type>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element_opt(&ctx, &t, p.r#ref.as_deref())?;
    let aim = t.aim(p.r#ref.as_deref());
    let vault = &ctx.daemon.config.secrets;
    let Some(w) = secrets::wanted(vault, p.secret.as_deref(), p.secret_totp.as_deref())? else {
        let text = p.text.unwrap_or_default();
        let acted = d.type_text(el.as_ref(), &text, dispatch(p.dispatch), aim).await?;
        let typed_chars = text.chars().count();
        return Ok(out(&t, results::Type { acted, typed_chars, not_covered: None }));
    };
    let pid = secrets::check_app(&d, t.pid, &w.secret).await?;
    // Painted over in every capture from the first key on, and after while it holds it.
    let typing = d.secret_typing(el.as_ref(), pid, &w.text).await;
    let acted = d.type_text(el.as_ref(), &w.text, dispatch(p.dispatch), aim).await;
    let found = typing.done(pid).await;
    let acted = acted?;
    // Said in the result, not only logged: the caller must know a capture may show it.
    let not_covered = (!found).then(|| {
        tracing::warn!(secret = w.secret.name, "no field of the app holds the secret typed");
        "no field of the app was found holding the value after typing, so captures do not \
         paint it over; avoid screenshots of this window while it shows"
            .to_owned()
    });
    Ok(out(&t, results::Type { acted, typed_chars: w.text.chars().count(), not_covered }))
}

pub(super) async fn fill(
    ctx: Ctx,
    p: computer::Fill,
) -> Result<Output<results::Fill>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element_opt(&ctx, &t, p.r#ref.as_deref())?;
    let aim = t.aim(p.r#ref.as_deref());
    Ok(out(&t, d.fill(el.as_ref(), &p.text, dispatch(p.dispatch), aim).await?))
}

pub(super) async fn set_value(
    ctx: Ctx,
    p: computer::SetValue,
) -> Result<Output<results::SetValue>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element(&ctx, &t, &p.r#ref)?;
    Ok(out(&t, d.set_value(&el, &p.value, dispatch(p.dispatch)).await?))
}

pub(super) async fn select_text(
    ctx: Ctx,
    p: computer::SelectText,
) -> Result<Output<results::SelectText>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element(&ctx, &t, &p.r#ref)?;
    let kind = p.selection_type.as_str();
    let (prefix, suffix) = (p.prefix.as_deref().unwrap_or(""), p.suffix.as_deref().unwrap_or(""));
    let (start, end) = d.select_text(&el, &p.text, prefix, suffix, kind).await?;
    Ok(out(
        &t,
        results::SelectText {
            start,
            end,
            selection_type: kind.into(),
            via: "accessibility:text".into(),
            actual_dispatch: "background".into(),
        },
    ))
}

pub(super) async fn secondary_action(
    ctx: Ctx,
    p: computer::SecondaryAction,
) -> Result<Output<results::SecondaryAction>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element(&ctx, &t, &p.r#ref)?;
    let acted = d.secondary_action(&el, &p.name).await?;
    Ok(out(&t, results::SecondaryAction { acted, name: p.name }))
}

pub(super) async fn get_text(
    ctx: Ctx,
    p: computer::GetText,
) -> Result<Output<results::GetText>, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element(&ctx, &t, &p.r#ref)?;
    let r = d.get_text(&el).await?;
    // The whole text came over the bus (AT-SPI has no cheaper count); the range and the
    // daemon's limit cut it here.
    let length = p.length.map(|l| l as usize);
    let max = ctx.daemon.config.max_text_chars;
    let (text, range) = crate::dispatch::text::slice(&r.text, p.offset as usize, length, max);
    let next_offset = range.next_offset();
    Ok(out(
        &t,
        results::GetText {
            text,
            length: r.length,
            caret: r.caret,
            selection: r.selection.map(|(start, end)| [start, end]),
            offset: range.offset,
            total_chars: range.total,
            truncated: next_offset.is_some(),
            next_offset,
            limit_chars: range.limit_chars(length, max),
        },
    ))
}
