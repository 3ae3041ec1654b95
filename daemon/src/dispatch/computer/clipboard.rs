//! The clipboard: `paste` into an element or the focused widget, `clipboard_get`, `clipboard_set`.

use glovebox_protocol::actions::computer::{self, Format};
use serde_json::json;

use super::{desktop, element_opt, out, target};
use crate::dispatch::{Ctx, Output};
use crate::error::DaemonError;

pub(super) async fn paste(ctx: Ctx, p: computer::Paste) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element_opt(&ctx, &t, p.r#ref.as_deref())?;
    let html = p.format == Format::Html;
    let r = d.paste(el.as_ref(), &p.text, html, t.aim(p.r#ref.as_deref())).await?;
    Ok(out(&t, r))
}

pub(super) async fn clipboard_get(
    ctx: Ctx,
    p: computer::ClipboardGet,
) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let html = p.format == Format::Html;
    let text = d.clipboard_get(html).await?;
    Ok(Output::new(
        json!({"text": text, "format": if html { "html" } else { "text" }, "empty": text.is_none()}),
    ))
}

pub(super) async fn clipboard_set(
    ctx: Ctx,
    p: computer::ClipboardSet,
) -> Result<Output, DaemonError> {
    let d = desktop(&ctx)?;
    let html = p.format == Format::Html;
    d.clipboard_set(&p.text, html).await?;
    Ok(Output::new(
        json!({"set": true, "text": p.text, "format": if html { "html" } else { "text" }}),
    ))
}
