//! The clipboard: `paste` into an element or the focused widget, `clipboard_get`, `clipboard_set`.

use glovebox_protocol::contract::Checked;
use serde_json::json;

use super::{desktop, element, out, s, target, Fut};
use crate::dispatch::{Ctx, Output};

pub(super) fn paste(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let a = call.args;
        let t = target(&ctx, &d, &a).await?;
        let el = element(&ctx, &t, &a, "ref")?;
        let html = s(&a, "format") == Some("html");
        let r =
            d.paste(el.as_ref(), s(&a, "text").unwrap_or_default(), html, t.aim(&a, "ref")).await?;
        Ok(out(&t, r))
    })
}

pub(super) fn clipboard_get(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let html = s(&call.args, "format") == Some("html");
        let text = d.clipboard_get(html).await?;
        Ok(Output::new(
            json!({"text": text, "format": if html { "html" } else { "text" }, "empty": text.is_none()}),
        ))
    })
}

pub(super) fn clipboard_set(ctx: Ctx, call: Checked) -> Fut {
    Box::pin(async move {
        let d = desktop(&ctx)?;
        let html = s(&call.args, "format") == Some("html");
        let text = s(&call.args, "text").unwrap_or_default();
        d.clipboard_set(text, html).await?;
        Ok(Output::new(
            json!({"set": true, "text": text, "format": if html { "html" } else { "text" }}),
        ))
    })
}
