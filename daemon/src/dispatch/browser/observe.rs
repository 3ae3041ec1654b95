//! Observation actions: URL, title, content, snapshots, screenshots (plain and annotated with
//! refs), evaluate, PDF and the backend probe.

use std::time::Instant;

use serde_json::{json, Map, Value};

use super::target::element;
use super::{poisoned, s, u, unsupported, with_dialog, On, OnTab};
use crate::browser::annotate::{self, Tag};
use crate::browser::{snapshot, Tab};
use crate::dispatch::text::{ranged, TextRange};
use crate::dispatch::Ctx;
use crate::error::DaemonError;
use crate::registry::snapshots::{Budget, Scope};

/// `get_*`, `snapshot`, `screenshot`, `screenshot_annotate`, `state_and_screenshot`,
/// `evaluate`, `pdf`, `probe`.
pub(super) struct Observe;

impl OnTab for Observe {
    async fn act(on: On<'_>) -> Result<Value, DaemonError> {
        let On { ctx, tab, action, args, .. } = on;
        let el = || element(ctx, tab, args, "ref", "selector");
        Ok(match action {
            "get_url" => {
                let (url, _) = tab.info().await?;
                with_dialog(json!({"url": url}), tab.dialog())
            }
            "get_title" => {
                let (_, title) = tab.info().await?;
                with_dialog(json!({"title": title}), tab.dialog())
            }
            "get_content" => {
                let e = el().await?;
                let max = ctx.daemon.config.max_text_chars;
                let offset = u(args, "offset").unwrap_or(0) as usize;
                let length = u(args, "length").map(|l| l as usize);
                let r = tab.text_range(e.as_ref(), offset, length, max).await?;
                let range =
                    TextRange { offset: r.offset, returned: r.returned, total: r.total_chars };
                ranged(json!({"text": r.text}), range, length, max)
            }
            "get_html" => {
                let e = el().await?;
                let max = ctx.daemon.config.max_text_chars;
                let b = tab.content(e.as_ref(), true, max).await?;
                let mut out = json!({"html": b.text});
                if let Some(total) = b.total_chars {
                    out["truncated"] = json!(true);
                    out["total_chars"] = json!(total);
                }
                out
            }
            "snapshot" => snapshot_of(ctx, tab, args).await?,
            "screenshot" => shot(tab, args).await?,
            "screenshot_annotate" => annotated(ctx, tab, args).await?,
            "state_and_screenshot" => {
                let before = tab.navigations();
                let snap = snapshot_of(ctx, tab, args).await?;
                let image = shot(tab, args).await?;
                json!({"snapshot": snap, "screenshot": image, "consistent": tab.navigations() == before})
            }
            "evaluate" => {
                let max = ctx.daemon.config.max_text_chars;
                tab.evaluate(s(args, "script").unwrap_or_default(), max).await?
            }
            "pdf" => tab.pdf(ctx.daemon.config.downloads_quota_bytes).await?,
            "probe" => {
                let started = Instant::now();
                let cdp = tab.eval("1").await.is_ok();
                let ax = tab.cmd("Accessibility.getFullAXTree", json!({"depth": 1})).await.is_ok();
                let shot = tab.cmd("Page.getLayoutMetrics", json!({})).await.is_ok();
                json!({"cdp": cdp, "input": cdp, "accessibility": ax, "screenshot": shot,
                   "dialog": tab.dialog(), "probe_ms": started.elapsed().as_millis() as u64})
            }
            other => return Err(unsupported(other)),
        })
    }
}

/// A page's bytes are capped in proportion to its line limit, so the default 300 lines stay
/// under about 2,000 tokens (bytes / 4) and a cursor continues them; never below one long
/// line, never above the registry's ceiling. Lines past the default view count double: a
/// caller asking for thousands of lines wants a big page whole, whose lines run longer.
const BYTES_PER_LINE: usize = 26;
const DEFAULT_LINES: usize = 300;
const MIN_PAGE_BYTES: usize = 2_048;

fn budget(args: &Map<String, Value>) -> Budget {
    let limit = u(args, "limit").unwrap_or(DEFAULT_LINES as u64) as usize;
    let ceiling = Budget::default().max_bytes;
    let bytes = limit * BYTES_PER_LINE + limit.saturating_sub(DEFAULT_LINES) * BYTES_PER_LINE;
    Budget {
        limit,
        max_bytes: bytes.clamp(MIN_PAGE_BYTES, ceiling),
        query: s(args, "query").map(String::from),
        disable_diffing: args.get("disable_diffing") == Some(&Value::Bool(true)),
    }
}

async fn snapshot_of(
    ctx: &Ctx,
    tab: &Tab,
    args: &Map<String, Value>,
) -> Result<Value, DaemonError> {
    let budget = budget(args);
    if let Some(c) = s(args, "cursor") {
        let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
        return Ok(snaps.continue_from(c, &budget)?.to_json());
    }
    let scope = match s(args, "scope_ref") {
        Some(r) => Some(ctx.session.snapshots.lock().map_err(|_| poisoned())?.resolve(
            &tab.key(),
            r,
            s(args, "snapshot_id"),
        )?),
        None => None,
    };
    let nodes = snapshot::outline(tab, scope.as_deref()).await?;
    let (url, title) = tab.info().await.unwrap_or_default();
    let view = {
        let mut snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
        let scope = s(args, "scope_ref").map_or(Scope::Whole, Scope::Subtree);
        snaps.record(&tab.key(), scope, &nodes, &budget)
    };
    let mut v = view.to_json();
    v["url"] = json!(url);
    v["title"] = json!(title);
    if let Some(d) = tab.dialog() {
        v["dialog"] = json!(d);
    }
    Ok(v)
}

/// The most ref tags one `screenshot_annotate` draws.
const MAX_LABELS: usize = 500;

/// A full snapshot recorded for the session (its refs work at once), the viewport captured,
/// and each control the viewport shows outlined and tagged with its ref on the image. The
/// page itself is never touched.
async fn annotated(ctx: &Ctx, tab: &Tab, args: &Map<String, Value>) -> Result<Value, DaemonError> {
    let (nodes, marks) = snapshot::outline_marked(tab, None).await?;
    let (snapshot_id, refs) =
        ctx.session.snapshots.lock().map_err(|_| poisoned())?.record_unseen(&tab.key(), &nodes);
    let mut image = tab.screenshot(false, "png", None, u(args, "max_width")).await?;
    let mut marks: Vec<_> =
        marks.into_iter().filter_map(|m| Some((refs.get(&m.key)?.clone(), m))).collect();
    // Past a few hundred tags an image is unreadable and drawing costs; the first ones in
    // document order are drawn and the answer says how many were left out.
    let omitted = marks.len().saturating_sub(MAX_LABELS);
    marks.truncate(MAX_LABELS);
    let tags: Vec<Tag> =
        marks.iter().map(|(r, m)| Tag { r#ref: r.clone(), bounds: m.bounds }).collect();
    let scale = image["scale"].as_f64().unwrap_or(1.0);
    let data = annotate::draw(image["data"].as_str().unwrap_or_default(), scale, &tags)?;
    let bytes = base64_len(&data);
    image["data"] = json!(data);
    image["bytes"] = json!(bytes);
    image["labels"] = marks
        .iter()
        .map(|(r, m)| {
            // Whole CSS pixels, as the outline's `@x,y wxh` says them.
            let [x, y, w, h] =
                [m.bounds.0, m.bounds.1, m.bounds.2, m.bounds.3].map(|v| v.round() as i64);
            json!({"ref": r, "role": m.role, "name": m.name,
                   "box": {"x": x, "y": y, "width": w, "height": h}})
        })
        .collect();
    image["snapshot_id"] = json!(snapshot_id);
    if omitted > 0 {
        image["labels_omitted"] = json!(omitted);
        image["labels_limit"] = json!(MAX_LABELS);
    }
    if let Some(d) = tab.dialog() {
        image["dialog"] = json!(d);
    }
    Ok(image)
}

fn base64_len(data: &str) -> usize {
    data.len() / 4 * 3 - data.bytes().rev().take_while(|b| *b == b'=').count()
}

async fn shot(tab: &Tab, args: &Map<String, Value>) -> Result<Value, DaemonError> {
    // The contract narrows format to an image format for these actions.
    let format = s(args, "format").unwrap_or("png");
    Ok(tab
        .screenshot(
            args.get("full_page") == Some(&Value::Bool(true)),
            format,
            u(args, "quality"),
            u(args, "max_width"),
        )
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(args: &Value) -> usize {
        budget(args.as_object().expect("object")).max_bytes
    }

    #[test]
    fn the_byte_budget_follows_the_line_limit() {
        assert_eq!(bytes(&json!({})), 7_800, "the default view stays under ~2,000 tokens");
        assert_eq!(bytes(&json!({"limit": 300})), 7_800);
        assert_eq!(bytes(&json!({"limit": 2})), MIN_PAGE_BYTES, "room for one long line");
        assert_eq!(bytes(&json!({"limit": 1_000})), 7_800 + 700 * 52, "past 300, 52 a line");
        assert_eq!(bytes(&json!({"limit": 5_000})), 252_200, "a 5,000-line page whole");
    }
}
