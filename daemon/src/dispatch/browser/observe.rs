//! Observation actions: URL, title, content, snapshots, screenshots (plain and annotated with
//! refs), evaluate, PDF and the backend probe.

use std::time::Instant;

use glovebox_protocol::actions::browser::{self, Common, Format};
use glovebox_protocol::results::browser::{self as results, Image, Label, Rect};

use super::{poisoned, TabCx};
use crate::browser::annotate::{self, Tag};
use crate::browser::snapshot;
use crate::dispatch::secrets;
use crate::dispatch::text::TextRange;
use crate::error::DaemonError;
use crate::registry::snapshots::{Budget, Scope};

pub(super) async fn get_url(cx: TabCx, _: browser::GetUrl) -> Result<results::GetUrl, DaemonError> {
    let (url, _) = cx.tab.info().await?;
    Ok(results::GetUrl { url, dialog: cx.tab.dialog() })
}

pub(super) async fn get_title(
    cx: TabCx,
    _: browser::GetTitle,
) -> Result<results::GetTitle, DaemonError> {
    let (_, title) = cx.tab.info().await?;
    Ok(results::GetTitle { title, dialog: cx.tab.dialog() })
}

pub(super) async fn get_content(
    cx: TabCx,
    p: browser::GetContent,
) -> Result<results::GetContent, DaemonError> {
    let e = cx.element_opt(p.element.as_ref(), &p.common).await?;
    let max = cx.ctx.daemon.config.max_text_chars;
    let length = p.length.map(|l| l as usize);
    let r = cx.tab.text_range(e.as_ref(), p.offset as usize, length, max).await?;
    let range = TextRange { offset: r.offset, returned: r.returned, total: r.total_chars };
    Ok(results::GetContent {
        text: r.text,
        offset: range.offset,
        total_chars: range.total,
        truncated: range.next_offset().is_some(),
        next_offset: range.next_offset(),
        limit_chars: range.limit_chars(length, max),
    })
}

pub(super) async fn get_html(
    cx: TabCx,
    p: browser::GetHtml,
) -> Result<results::GetHtml, DaemonError> {
    let e = cx.element_opt(p.element.as_ref(), &p.common).await?;
    let max = cx.ctx.daemon.config.max_text_chars;
    let b = cx.tab.content(e.as_ref(), true, max).await?;
    let cut = b.total_chars;
    Ok(results::GetHtml { html: b.text, truncated: cut.map(|_| true), total_chars: cut })
}

pub(super) async fn snapshot(
    cx: TabCx,
    p: browser::Snapshot,
) -> Result<results::Snapshot, DaemonError> {
    let o = Outline {
        budget: budget(p.limit, p.query.as_deref(), p.disable_diffing),
        cursor: p.cursor.as_deref(),
        scope_ref: p.scope_ref.as_deref(),
    };
    snapshot_of(&cx, &o, &p.common).await
}

pub(super) async fn screenshot(cx: TabCx, p: browser::Screenshot) -> Result<Image, DaemonError> {
    let s = Shot {
        full_page: p.full_page,
        format: p.format,
        quality: p.quality,
        max_width: p.max_width,
    };
    shot(&cx, &s).await
}

pub(super) async fn screenshot_annotate(
    cx: TabCx,
    p: browser::ScreenshotAnnotate,
) -> Result<results::ScreenshotAnnotate, DaemonError> {
    annotated(&cx, p.max_width).await
}

pub(super) async fn state_and_screenshot(
    cx: TabCx,
    p: browser::StateAndScreenshot,
) -> Result<results::StateAndScreenshot, DaemonError> {
    let before = cx.tab.navigations();
    let o = Outline {
        budget: budget(p.limit, p.query.as_deref(), p.disable_diffing),
        cursor: None,
        scope_ref: p.scope_ref.as_deref(),
    };
    let snapshot = snapshot_of(&cx, &o, &p.common).await?;
    let s = Shot {
        full_page: p.full_page,
        format: p.format,
        quality: p.quality,
        max_width: p.max_width,
    };
    let screenshot = shot(&cx, &s).await?;
    let consistent = cx.tab.navigations() == before;
    Ok(results::StateAndScreenshot { snapshot, screenshot, consistent })
}

pub(super) async fn evaluate(
    cx: TabCx,
    p: browser::Evaluate,
) -> Result<results::Evaluate, DaemonError> {
    let max = cx.ctx.daemon.config.max_text_chars;
    Ok(cx.tab.evaluate(&p.script, max).await?)
}

pub(super) async fn pdf(cx: TabCx, _: browser::Pdf) -> Result<results::Pdf, DaemonError> {
    Ok(cx.tab.pdf(cx.ctx.daemon.config.downloads_quota_bytes).await?)
}

pub(super) async fn probe(cx: TabCx, _: browser::Probe) -> Result<results::Probe, DaemonError> {
    let started = Instant::now();
    let p = cx.tab.probe().await;
    Ok(results::Probe {
        cdp: p.script,
        input: p.script,
        accessibility: p.accessibility,
        screenshot: p.layout,
        dialog: cx.tab.dialog(),
        probe_ms: started.elapsed().as_millis() as u64,
    })
}

/// What an outline asks for: its page budget, a page to continue, a subtree.
struct Outline<'a> {
    budget: Budget,
    cursor: Option<&'a str>,
    scope_ref: Option<&'a str>,
}

/// What a screenshot asks for.
struct Shot {
    full_page: bool,
    /// The contract narrows it to an image format for these actions.
    format: Format,
    quality: Option<u32>,
    max_width: Option<u32>,
}

/// A page's bytes are capped in proportion to its line limit, so the default 300 lines stay
/// under about 2,000 tokens (bytes / 4) and a cursor continues them; never below one long
/// line, never above the registry's ceiling. Lines past the default view count double: a
/// caller asking for thousands of lines wants a big page whole, whose lines run longer.
const BYTES_PER_LINE: usize = 26;
const DEFAULT_LINES: usize = 300;
const MIN_PAGE_BYTES: usize = 2_048;

fn budget(limit: u32, query: Option<&str>, disable_diffing: bool) -> Budget {
    let limit = limit as usize;
    let ceiling = Budget::default().max_bytes;
    let bytes = limit * BYTES_PER_LINE + limit.saturating_sub(DEFAULT_LINES) * BYTES_PER_LINE;
    Budget {
        limit,
        max_bytes: bytes.clamp(MIN_PAGE_BYTES, ceiling),
        query: query.map(String::from),
        disable_diffing,
    }
}

async fn snapshot_of(
    cx: &TabCx,
    o: &Outline<'_>,
    c: &Common,
) -> Result<results::Snapshot, DaemonError> {
    let (ctx, tab, budget) = (&cx.ctx, &cx.tab, &o.budget);
    if let Some(cursor) = o.cursor {
        let snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
        let outline = snaps.continue_from(cursor, budget)?.into();
        return Ok(results::Snapshot { outline, url: None, title: None, dialog: None });
    }
    let scope = match o.scope_ref {
        Some(r) => Some(cx.ref_key(r, c)?),
        None => None,
    };
    let nodes = snapshot::outline(tab, scope.as_deref()).await?;
    let (url, title) = tab.info().await.unwrap_or_default();
    let view = {
        let mut snaps = ctx.session.snapshots.lock().map_err(|_| poisoned())?;
        let scope = o.scope_ref.map_or(Scope::Whole, Scope::Subtree);
        snaps.record(&tab.key(), scope, &nodes, budget)
    };
    Ok(results::Snapshot {
        outline: view.into(),
        url: Some(url),
        title: Some(title),
        dialog: tab.dialog(),
    })
}

/// A full snapshot recorded for the session (its refs work at once), the viewport captured,
/// and each control the viewport shows outlined and tagged with its ref on the image. The
/// page itself is never touched.
async fn annotated(
    cx: &TabCx,
    max_width: Option<u32>,
) -> Result<results::ScreenshotAnnotate, DaemonError> {
    let (ctx, tab) = (&cx.ctx, &cx.tab);
    let (nodes, marks) = snapshot::outline_marked(tab, None).await?;
    let (snapshot_id, refs) =
        ctx.session.snapshots.lock().map_err(|_| poisoned())?.record_unseen(&tab.key(), &nodes);
    let (max_labels, limit) = (ctx.daemon.config.max_labels, ctx.daemon.config.max_capture);
    let vault = &ctx.daemon.config.secrets;
    let shot =
        secrets::screenshot(vault, tab, (false, "png"), None, max_width.map(u64::from), limit)
            .await?;
    let mut image: Image = shot;
    let mut marks: Vec<_> =
        marks.into_iter().filter_map(|m| Some((refs.get(&m.key)?.clone(), m))).collect();
    // Past a few hundred tags an image is unreadable and drawing costs; the first ones in
    // document order are drawn and the answer says how many were left out.
    let omitted = marks.len().saturating_sub(max_labels);
    marks.truncate(max_labels);
    let tags: Vec<Tag> =
        marks.iter().map(|(r, m)| Tag { r#ref: r.clone(), bounds: m.bounds }).collect();
    image.data = annotate::draw(&image.data, image.scale, &tags)?;
    image.bytes = base64_len(&image.data);
    let labels = marks
        .iter()
        .map(|(r, m)| {
            // Whole CSS pixels, as the outline's `@x,y wxh` says them.
            let [x, y, width, height] =
                [m.bounds.0, m.bounds.1, m.bounds.2, m.bounds.3].map(|v| v.round() as i64);
            let bounds = Rect { x, y, width, height };
            Label { r#ref: r.clone(), role: m.role.clone(), name: m.name.clone(), bounds }
        })
        .collect();
    Ok(results::ScreenshotAnnotate {
        image,
        labels,
        snapshot_id,
        labels_omitted: (omitted > 0).then_some(omitted),
        labels_limit: (omitted > 0).then_some(max_labels),
        dialog: tab.dialog(),
    })
}

fn base64_len(data: &str) -> usize {
    data.len() / 4 * 3 - data.bytes().rev().take_while(|b| *b == b'=').count()
}

/// A screenshot, as `screenshot` and `state_and_screenshot` answer it.
async fn shot(cx: &TabCx, s: &Shot) -> Result<Image, DaemonError> {
    let (quality, max_width) = (s.quality.map(u64::from), s.max_width.map(u64::from));
    let limit = cx.ctx.daemon.config.max_capture;
    let (vault, how) = (&cx.ctx.daemon.config.secrets, (s.full_page, s.format.as_str()));
    secrets::screenshot(vault, &cx.tab, how, quality, max_width, limit).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(limit: u32) -> usize {
        budget(limit, None, false).max_bytes
    }

    #[test]
    fn the_byte_budget_follows_the_line_limit() {
        let default = browser::Snapshot::default().limit;
        assert_eq!(default as usize, DEFAULT_LINES, "the table's default is the default view");
        assert_eq!(bytes(default), 7_800, "the default view stays under ~2,000 tokens");
        assert_eq!(bytes(2), MIN_PAGE_BYTES, "room for one long line");
        assert_eq!(bytes(1_000), 7_800 + 700 * 52, "past 300, 52 a line");
        assert_eq!(bytes(5_000), 252_200, "a 5,000-line page whole");
    }
}
