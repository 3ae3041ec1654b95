//! Pointer actions: click, double click, hover, scroll, scroll into view and drag, at an
//! element's centre or a viewport point.

use serde_json::{json, Value};

use super::target::{aim, aim_key, element, held_modifiers, point, ref_key};
use super::{n, need, s, u, unsupported, with_dialog, On, OnTab};
use crate::error::DaemonError;

/// `click`, `double_click`, `hover`, `scroll`, `scroll_into_view`, `drag`.
pub(super) struct Pointer;

impl OnTab for Pointer {
    async fn act(on: On<'_>) -> Result<Value, DaemonError> {
        let On { ctx, tab, f, action, args, .. } = on;
        let el = || element(ctx, tab, args, "ref", "selector");
        let mods = held_modifiers(ctx, &f.tab_id);
        Ok(match action {
            "click" | "double_click" | "hover" => {
                let button = s(args, "button").unwrap_or("left");
                let count = if action == "double_click" {
                    2
                } else {
                    u(args, "click_count").unwrap_or(1) as u32
                };
                let click = (action != "hover").then_some((button, count));
                // By ref: the pointer's move overlaps the aim (see `Tab::pointer_at_key`).
                if let Some((r, key)) = ref_key(ctx, tab, args)? {
                    let aimed = aim_key(tab, &r, &key);
                    let (((x, y), what), d) = tab.pointer_at_key(&key, aimed, click, mods).await?;
                    let mut out = json!({"x": x, "y": y, "element": what});
                    if click.is_some() {
                        out["button"] = json!(button);
                        out["click_count"] = json!(count);
                    }
                    return Ok(with_dialog(out, d));
                }
                let (x, y, what) = match aim(ctx, tab, args).await? {
                    Some(((x, y), what)) => (x, y, json!(what)),
                    None => {
                        let (x, y) =
                            point(tab, args, ["x", "y", "nx", "ny"]).await?.ok_or_else(|| {
                                DaemonError::ActionFailed("give ref, selector or a point".into())
                            })?;
                        (x, y, Value::Null)
                    }
                };
                if action == "hover" {
                    tab.hover_at(x, y, mods).await?;
                    json!({"x": x, "y": y, "element": what})
                } else {
                    let d = tab.click_at(x, y, button, count, mods).await?;
                    with_dialog(
                        json!({"x": x, "y": y, "button": button, "click_count": count, "element": what}),
                        d,
                    )
                }
            }
            "scroll" => {
                let e = el().await?;
                let pt = if e.is_none() {
                    point(tab, args, ["x", "y", "nx", "ny"]).await?
                } else {
                    None
                };
                tab.scroll(
                    e.as_ref(),
                    pt,
                    s(args, "direction").unwrap_or("down"),
                    n(args, "amount"),
                    n(args, "pages"),
                )
                .await?
            }
            "scroll_into_view" => {
                let e = need(el().await?)?;
                json!({"box": tab.scroll_into_view(&e).await?})
            }
            "drag" => {
                let src = el().await?;
                let from = match &src {
                    Some(e) => tab.center(e).await?,
                    None => point(tab, args, ["x", "y", "nx", "ny"]).await?.ok_or_else(|| {
                        DaemonError::ActionFailed(
                            "give the drag source as ref, selector or a point".into(),
                        )
                    })?,
                };
                let dst = element(ctx, tab, args, "target_ref", "target_selector").await?;
                let to = match &dst {
                    Some(e) => tab.center(e).await?,
                    None => point(tab, args, ["to_x", "to_y", "to_nx", "to_ny"])
                        .await?
                        .ok_or_else(|| DaemonError::ActionFailed("give the drop target".into()))?,
                };
                let button = s(args, "button").unwrap_or("left");
                tab.drag(from, to, button, mods).await?;
                json!({"from": {"x": from.0, "y": from.1}, "to": {"x": to.0, "y": to.1}})
            }
            other => return Err(unsupported(other)),
        })
    }
}
