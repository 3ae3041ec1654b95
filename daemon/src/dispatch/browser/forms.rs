//! Form actions: focus, type, fill, set a value or option, check, paste, select text and
//! upload files.

use serde_json::{json, Value};

use super::target::{element, held_modifiers};
use super::{need, s, unsupported, with_dialog, On, OnTab};
use crate::browser::actions::{Fill, Typed};
use crate::desktop::clipboard::Content;
use crate::error::DaemonError;

/// `focus`, `type`, `fill`, `set_value`, `select`, `check`, `uncheck`, `paste`, `select_text`,
/// `upload`.
pub(super) struct Forms;

impl OnTab for Forms {
    async fn act(on: On<'_>) -> Result<Value, DaemonError> {
        let On { ctx, tab, f, action, args, .. } = on;
        let el = || element(ctx, tab, args, "ref", "selector");
        Ok(match action {
            "focus" => tab.focus(&need(el().await?)?).await?,
            "type" => {
                let e = need(el().await?)?;
                let text = s(args, "text").unwrap_or_default();
                let keys = s(args, "mode") == Some("keys");
                let mods = held_modifiers(ctx, &f.tab_id);
                typed(text, keys, tab.type_text(&e, text, keys, mods, true).await?)
            }
            "fill" | "select" => {
                let e = need(el().await?)?;
                let key = if action == "fill" { "text" } else { "value" };
                let with = match args.get("values").and_then(Value::as_array) {
                    Some(v) => Fill::Values(
                        v.iter().filter_map(|v| v.as_str().map(String::from)).collect(),
                    ),
                    None => Fill::Text(s(args, key).unwrap_or_default().to_owned()),
                };
                let f = tab.fill(&e, &with, action == "select").await?;
                json!({"value": f.value, "kind": f.kind, "via": f.via, "verified": true})
            }
            "set_value" => {
                let e = need(el().await?)?;
                let v = tab.set_value(&e, s(args, "value").unwrap_or_default(), false).await?;
                json!({"value": v})
            }
            "check" | "uncheck" => {
                let e = need(el().await?)?;
                let checked = tab.set_checked(&e, action == "check").await?;
                json!({"checked": checked, "verified": true})
            }
            "paste" => {
                let e = el().await?;
                let text = s(args, "text").unwrap_or_default();
                let format = s(args, "format").unwrap_or("text");
                let html = match format {
                    "html" => Some(text.to_owned()),
                    "markdown" => Some(format!("<p>{}</p>", html_escape(text))),
                    _ => None,
                };
                let plain = if format == "html" { strip_tags(text) } else { text.to_owned() };
                // A real paste through the system clipboard where the daemon owns one (the
                // browser shares its display); else a synthetic event and the editing fallbacks.
                if let Some(desk) = ctx.daemon.desktop() {
                    let content = Content { text: Some(plain.clone()), html: html.clone() };
                    let reads = desk.clipboard_reads();
                    let (pasted, restore) = desk
                        .with_clipboard(content, tab.paste_trusted(e.as_ref()))
                        .await
                        .map_err(DaemonError::from)?;
                    if let Some(consumed) = pasted? {
                        // False when the browser pasted from another clipboard than the
                        // daemon's (it runs on another display).
                        let read = desk.clipboard_reads() > reads;
                        return Ok(json!({"via": "paste_event", "trusted": true,
                                     "consumed": consumed, "format": format,
                                     "read_from_clipboard": read,
                                     "clipboard_restored": restore.restored,
                                     "clipboard_changed_meanwhile": restore.changed_meanwhile}));
                    }
                }
                let via = tab.paste(e.as_ref(), &plain, html.as_deref()).await?;
                json!({"via": via, "trusted": false, "format": format})
            }
            "select_text" => {
                let e = need(el().await?)?;
                tab.select_text(
                    &e,
                    s(args, "text").unwrap_or_default(),
                    s(args, "prefix").unwrap_or_default(),
                    s(args, "suffix").unwrap_or_default(),
                    s(args, "selection_type").unwrap_or("select"),
                )
                .await?
            }
            "upload" => {
                let e = need(el().await?)?;
                let files: Vec<String> = args
                    .get("files")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
                    .unwrap_or_default();
                let roots = &ctx.daemon.config.files;
                let abs = files
                    .iter()
                    .map(|p| roots.readable(p).map(|p| p.display().to_string()))
                    .collect::<Result<Vec<_>, _>>()?;
                tab.upload(&e, &abs).await?;
                json!({"files": abs})
            }
            other => return Err(unsupported(other)),
        })
    }
}

/// The result of `type` and `keyboard_type`: what was typed, how, and what the field reads.
pub(super) fn typed(text: &str, keys: bool, t: Typed) -> Value {
    let mut out = json!({"typed": text, "mode": if keys { "keys" } else { "insert" },
                         "value": t.value, "verified": t.verified});
    if keys {
        out["keys_sent"] = json!(t.sent);
    }
    if let Some(why) = t.why {
        out["why"] = json!(why);
    }
    with_dialog(out, t.dialog)
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
