//! Acting on an element or a point: clicks, typing, fill, values, text selection and
//! secondary actions.

use glovebox_protocol::contract::Checked;
use serde_json::json;

use super::{acted, button, desktop, element, int, need, out, point, s, target, Fut};
use crate::desktop::Dispatch;
use crate::dispatch::Ctx;
use crate::error::DaemonError;

pub(super) fn click(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let count = int(&a, "click_count").unwrap_or(if call.action.name == "double_click" {
            2
        } else {
            1
        }) as u8;
        let b = button(&a);
        let dispatch = Dispatch::parse(s(&a, "dispatch"));
        let r = match element(&ctx, &t, &a, "ref")? {
            Some(el) => d.click(&el, b, count, dispatch, t.aim(&a, "ref")).await?,
            None => {
                let (x, y) = point(&d, &a, "x", "y", "nx", "ny").ok_or_else(|| {
                    DaemonError::ActionFailed("click needs a ref or a point".into())
                })?;
                d.click_at(x, y, b, count, t.aim(&a, "ref")).await?
            }
        };
        Ok(acted(&t, r, json!({"button": s(&a, "button").unwrap_or("left"), "click_count": count})))
    })
}

pub(super) fn type_text(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = element(&ctx, &t, &a, "ref")?;
        let text = s(&a, "text").unwrap_or_default();
        let r = d
            .type_text(el.as_ref(), text, Dispatch::parse(s(&a, "dispatch")), t.aim(&a, "ref"))
            .await?;
        Ok(acted(&t, r, json!({"typed_chars": text.chars().count()})))
    })
}

pub(super) fn fill(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = element(&ctx, &t, &a, "ref")?;
        let r = d
            .fill(
                el.as_ref(),
                s(&a, "text").unwrap_or_default(),
                Dispatch::parse(s(&a, "dispatch")),
                t.aim(&a, "ref"),
            )
            .await?;
        Ok(acted(&t, r, json!({})))
    })
}

pub(super) fn set_value(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = need(element(&ctx, &t, &a, "ref")?)?;
        let r = d
            .set_value(&el, s(&a, "value").unwrap_or_default(), Dispatch::parse(s(&a, "dispatch")))
            .await?;
        Ok(acted(&t, r, json!({})))
    })
}

pub(super) fn select_text(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = need(element(&ctx, &t, &a, "ref")?)?;
        let kind = s(&a, "selection_type").unwrap_or("select");
        let (start, end) = d
            .select_text(
                &el,
                s(&a, "text").unwrap_or_default(),
                s(&a, "prefix").unwrap_or(""),
                s(&a, "suffix").unwrap_or(""),
                kind,
            )
            .await?;
        Ok(out(
            &t,
            json!({"start": start, "end": end, "selection_type": kind,
                          "via": "accessibility:text", "actual_dispatch": "background"}),
        ))
    })
}

pub(super) fn secondary_action(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = need(element(&ctx, &t, &a, "ref")?)?;
        let r = d.secondary_action(&el, s(&a, "name").unwrap_or_default()).await?;
        Ok(acted(&t, r, json!({"name": s(&a, "name")})))
    })
}

pub(super) fn get_text(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = need(element(&ctx, &t, &a, "ref")?)?;
        let r = d.get_text(&el).await?;
        // The whole text came over the bus (AT-SPI has no cheaper count); the range and the
        // daemon's limit cut it here.
        let offset = a.get("offset").and_then(serde_json::Value::as_u64).unwrap_or(0) as usize;
        let length = a.get("length").and_then(serde_json::Value::as_u64).map(|l| l as usize);
        let max = ctx.daemon.config.max_text_chars;
        let (text, range) = crate::dispatch::text::slice(&r.text, offset, length, max);
        let body = json!({"text": text, "length": r.length, "caret": r.caret,
                          "selection": r.selection});
        Ok(out(&t, crate::dispatch::text::ranged(body, range, length, max)))
    })
}
