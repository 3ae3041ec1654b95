//! The clipboard: `paste` into an element or the focused widget, `clipboard_get`, `clipboard_set`.

use glovebox_protocol::actions::computer::{self, Format};
use glovebox_protocol::results::computer as results;

use super::{desktop, element_opt, out, target};
use crate::dispatch::{secrets, Ctx, Output};
use crate::error::DaemonError;

pub(super) async fn paste(
    ctx: Ctx,
    p: computer::Paste,
) -> Result<Output<results::Paste>, DaemonError> {
    secrets::off_clipboard(&ctx.daemon.config.secrets, &p.text)?;
    let d = desktop(&ctx)?;
    let t = target(&ctx, &d, &p.common).await?;
    let el = element_opt(&ctx, &t, p.r#ref.as_deref())?;
    let html = p.format == Format::Html;
    let r = d.paste(el.as_ref(), &p.text, html, t.aim(p.r#ref.as_deref())).await?;
    Ok(out(&t, r))
}

/// The clipboard format's name.
fn format(html: bool) -> String {
    if html { "html" } else { "text" }.into()
}

pub(super) async fn clipboard_get(
    ctx: Ctx,
    p: computer::ClipboardGet,
) -> Result<Output<results::ClipboardGet>, DaemonError> {
    let d = desktop(&ctx)?;
    let html = p.format == Format::Html;
    let text = d.clipboard_get(html).await?;
    let empty = text.is_none();
    Ok(Output::new(results::ClipboardGet { text, format: format(html), empty }))
}

pub(super) async fn clipboard_set(
    ctx: Ctx,
    p: computer::ClipboardSet,
) -> Result<Output<results::ClipboardSet>, DaemonError> {
    secrets::off_clipboard(&ctx.daemon.config.secrets, &p.text)?;
    let d = desktop(&ctx)?;
    let html = p.format == Format::Html;
    d.clipboard_set(&p.text, html).await?;
    Ok(Output::new(results::ClipboardSet { set: true, text: p.text, format: format(html) }))
}
