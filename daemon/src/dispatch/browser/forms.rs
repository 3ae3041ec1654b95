//! Form actions: focus, type, fill, set a value or option, check, paste, select text and
//! upload files.

use glovebox_protocol::actions::browser::{self, Format, Mode};
use glovebox_protocol::actions::Params;
use glovebox_protocol::results::browser::{self as results, Checked, Filled};

use super::TabCx;
use crate::browser::actions::{Fill, Typed};
use crate::desktop::clipboard::Content;
use crate::dispatch::results::part;
use crate::dispatch::secrets;
use crate::error::DaemonError;

pub(super) async fn focus(cx: TabCx, p: browser::Focus) -> Result<results::Focus, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    Ok(cx.tab.focus(&e).await?)
}

pub(super) async fn type_text(cx: TabCx, p: browser::Type) -> Result<results::Type, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    let keys = p.mode == Mode::Keys;
    let vault = &cx.ctx.daemon.config.secrets;
    let Some(w) = secrets::wanted(vault, p.secret.as_deref(), p.secret_totp.as_deref())? else {
        let text = p.text.unwrap_or_default();
        let typed_text = cx.tab.type_text(&e, &text, keys, cx.held_modifiers(), true).await?;
        return typed::<browser::Type>(&text, keys, typed_text);
    };
    let origin =
        secrets::check_page(&cx.tab, &e, &w.secret, cx.ctx.daemon.desktop().as_deref()).await?;
    let typed_text = cx.tab.type_text(&e, &w.text, keys, cx.held_modifiers(), true).await?;
    secrets::follow(&cx.ctx.daemon, &cx.ctx.session.id, &cx.tab, &w, origin);
    typed::<browser::Type>(&w.shown, keys, typed_text)
}

pub(super) async fn fill(cx: TabCx, p: browser::Fill) -> Result<Filled, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    let vault = &cx.ctx.daemon.config.secrets;
    let wanted = secrets::wanted(vault, p.secret.as_deref(), p.secret_totp.as_deref())?;
    let with = match (p.values, &wanted) {
        (Some(v), _) => Fill::Values(v),
        (None, Some(w)) => Fill::Text(w.text.clone()),
        (None, None) => Fill::Text(p.text.unwrap_or_default()),
    };
    let Some(w) = wanted else { return filled(&cx, &e, &with, false).await };
    let origin =
        secrets::check_page(&cx.tab, &e, &w.secret, cx.ctx.daemon.desktop().as_deref()).await?;
    let out = filled(&cx, &e, &with, false).await?;
    secrets::follow(&cx.ctx.daemon, &cx.ctx.session.id, &cx.tab, &w, origin);
    Ok(out)
}

pub(super) async fn select(cx: TabCx, p: browser::Select) -> Result<Filled, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    let with = match p.values {
        Some(v) => Fill::Values(v),
        None => Fill::Text(p.value.unwrap_or_default()),
    };
    filled(&cx, &e, &with, true).await
}

async fn filled(
    cx: &TabCx,
    e: &crate::browser::actions::El,
    with: &Fill,
    select_only: bool,
) -> Result<Filled, DaemonError> {
    let f = cx.tab.fill(e, with, select_only).await?;
    Ok(Filled { value: f.value, kind: f.kind, via: f.via.to_owned(), verified: true })
}

pub(super) async fn set_value(
    cx: TabCx,
    p: browser::SetValue,
) -> Result<results::SetValue, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    let value = cx.tab.set_value(&e, &p.value, false).await?;
    Ok(results::SetValue { value })
}

pub(super) async fn check(cx: TabCx, p: browser::Check) -> Result<Checked, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    let checked = cx.tab.set_checked(&e, true).await?;
    Ok(Checked { checked, verified: true })
}

pub(super) async fn uncheck(cx: TabCx, p: browser::Uncheck) -> Result<Checked, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    let checked = cx.tab.set_checked(&e, false).await?;
    Ok(Checked { checked, verified: true })
}

pub(super) async fn paste(cx: TabCx, p: browser::Paste) -> Result<results::Paste, DaemonError> {
    let (tab, ctx) = (&cx.tab, &cx.ctx);
    secrets::off_clipboard(&ctx.daemon.config.secrets, &p.text)?;
    let e = cx.element_opt(p.element.as_ref(), &p.common).await?;
    let text = p.text.as_str();
    let format = p.format.as_str();
    let html = match p.format {
        Format::Html => Some(text.to_owned()),
        Format::Markdown => Some(format!("<p>{}</p>", html_escape(text))),
        _ => None,
    };
    let plain = if p.format == Format::Html { strip_tags(text) } else { text.to_owned() };
    // A real paste through the system clipboard where the daemon owns one (the browser
    // shares its display); else a synthetic event and the editing fallbacks.
    if let Some(desk) = ctx.daemon.desktop() {
        let content = Content { text: Some(plain.clone()), html: html.clone() };
        let reads = desk.clipboard_reads();
        let (pasted, restore) = desk
            .with_clipboard(content, tab.paste_trusted(e.as_ref()))
            .await
            .map_err(DaemonError::from)?;
        if let Some(consumed) = pasted? {
            // False when the browser pasted from another clipboard than the daemon's (it
            // runs on another display).
            let read = desk.clipboard_reads() > reads;
            return Ok(results::Paste {
                via: "paste_event".into(),
                trusted: true,
                consumed: Some(consumed),
                format: format.into(),
                read_from_clipboard: Some(read),
                clipboard_restored: Some(restore.restored),
                clipboard_changed_meanwhile: Some(restore.changed_meanwhile),
            });
        }
    }
    let via = tab.paste(e.as_ref(), &plain, html.as_deref()).await?;
    Ok(results::Paste {
        via: via.into(),
        trusted: false,
        consumed: None,
        format: format.into(),
        read_from_clipboard: None,
        clipboard_restored: None,
        clipboard_changed_meanwhile: None,
    })
}

pub(super) async fn select_text(
    cx: TabCx,
    p: browser::SelectText,
) -> Result<results::SelectText, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    let (prefix, suffix) =
        (p.prefix.as_deref().unwrap_or_default(), p.suffix.as_deref().unwrap_or_default());
    let kind = p.selection_type.as_str();
    Ok(cx.tab.select_text(&e, &p.text, prefix, suffix, kind).await?)
}

pub(super) async fn upload(cx: TabCx, p: browser::Upload) -> Result<results::Upload, DaemonError> {
    let e = cx.element(&p.element, &p.common).await?;
    let roots = &cx.ctx.daemon.config.files;
    let (lane, downloads) = (cx.ctx.session.lane(), cx.b.downloads_dir());
    let own = (!lane.all).then_some(lane.key.as_str());
    let abs = p
        .files
        .iter()
        .map(|f| {
            let real = roots.readable_in_lane(f, &downloads, own)?;
            roots.hand_to_page(f, real).map(|f| f.display().to_string())
        })
        .collect::<Result<Vec<_>, _>>()?;
    cx.tab.upload(&e, &abs).await?;
    Ok(results::Upload { files: abs })
}

/// The result of `type` and `keyboard_type` (`P`): what was typed, how, and what the field
/// reads.
pub(super) fn typed<P: Params>(
    text: &str,
    keys: bool,
    t: Typed,
) -> Result<results::Typed, DaemonError> {
    Ok(results::Typed {
        typed: text.to_owned(),
        mode: if keys { "keys" } else { "insert" }.into(),
        value: part::<P, _>(t.value)?,
        verified: t.verified,
        keys_sent: keys.then_some(t.sent),
        why: t.why.map(String::from),
        dialog: t.dialog,
    })
}

fn html_escape(t: &str) -> String {
    t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in html.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}
