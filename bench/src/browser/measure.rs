//! The rounds of `bench browser`: per round, Playwright MCP's snapshots of both pages (its
//! own tab, brought to the front), then ours on our own tab: the default view, full
//! snapshots paged to the end, click by ref, fill and screenshots beside the bare CDP call.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde_json::json;

use super::cdp::Cdp;
use super::mcp::{self, Mcp};
use super::{no_capture, ok, on, Options, Page, PageRounds, PAGES};
use crate::client::Client;
use crate::daemon::Daemon;
use crate::stats::Summary;

const WARMUP: usize = 2;
/// The pause before each measured click and screenshot.
const IDLE: Duration = Duration::from_millis(50);

/// Every round; the Chromium version and one `PageRounds` per page.
pub async fn all(
    d: &Daemon,
    port: u16,
    site: &str,
    o: &Options,
    peer: Option<&PathBuf>,
) -> anyhow::Result<(String, Vec<PageRounds>)> {
    let mut c = Client::connect(&d.url, &d.token).await?;
    c.hello().await?;
    // The session works in the bench's Chromium from here on (the daemon's own has no port).
    ok(&mut c, "context.get_browser", json!({"browser_id": format!("chrome-{port}")})).await?;
    let chromium = super::cdp::version(port).unwrap_or_else(|e| format!("? ({e})"));
    let mut out: Vec<PageRounds> = PAGES.iter().map(|_| PageRounds::default()).collect();
    for round in 1..=o.rounds {
        if let Some(cli) = peer {
            let mut pw = Mcp::start(cli, port)?;
            // Its own tab: attached over CDP it would otherwise adopt one of the open tabs.
            pw.tool("browser_tabs", &json!({"action": "new"}))?;
            for (p, r) in PAGES.iter().zip(out.iter_mut()) {
                peer_snapshots(&mut c, &mut pw, &format!("{site}/{}?pw", p.path), o, r)
                    .await
                    .with_context(|| format!("Playwright MCP on {}", p.path))?;
                peer_keys(&mut pw, p, r)
                    .await
                    .with_context(|| format!("Playwright MCP typing on {}", p.path))?;
            }
            pw.tool("browser_tabs", &json!({"action": "close"}))?;
        }
        for (p, r) in PAGES.iter().zip(out.iter_mut()) {
            // A fresh tab per visit, as Playwright MCP gets one per round: refs start low.
            let url = format!("{site}/{}?gb", p.path);
            let (t, _) = ok(&mut c, "browser.tab_new", json!({})).await?;
            let tab = t["result"]["result"]["tab_id"].as_str().context("no tab_id")?.to_owned();
            ok(&mut c, "browser.navigate", no_capture(&tab, json!({"url": url}))).await?;
            ours(&mut c, port, &tab, p, o, r)
                .await
                .with_context(|| format!("glovebox on {}", p.path))?;
            ok(&mut c, "browser.tab_close", json!({"tab_id": tab})).await?;
        }
        eprintln!("bench: round {round}/{} done", o.rounds);
    }
    Ok((chromium, out))
}

/// Bring the tab whose URL ends with `marker` to the front; its id.
async fn front(c: &mut Client, marker: &str) -> anyhow::Result<String> {
    let (list, _) = ok(c, "browser.tab_list", json!({})).await?;
    let tabs = list["result"]["result"]["tabs"].as_array().cloned().unwrap_or_default();
    let Some(t) = tabs.iter().find(|t| t["url"].as_str().is_some_and(|u| u.ends_with(marker)))
    else {
        bail!("no tab at *{marker}: {tabs:?}");
    };
    let id = t["tab_id"].as_str().unwrap_or_default().to_owned();
    ok(c, "browser.tab_select", json!({"tab_id": id})).await?;
    Ok(id)
}

async fn peer_snapshots(
    c: &mut Client,
    pw: &mut Mcp,
    url: &str,
    o: &Options,
    r: &mut PageRounds,
) -> anyhow::Result<()> {
    pw.tool("browser_navigate", &json!({"url": url}))?;
    front(c, "?pw").await?;
    let mut samples = Vec::new();
    let (mut bytes, mut refs) = (0, 0);
    for k in 0..WARMUP + o.snapshots {
        let (text, took) = pw.tool("browser_snapshot", &json!({}))?;
        if k >= WARMUP {
            samples.push(took);
        }
        (bytes, refs) = (text.len(), mcp::ref_count(&text));
        r.peer_text = text;
    }
    r.peer_snapshot.push(Summary::of(&mut samples));
    r.peer_bytes.push(bytes);
    r.peer_refs.push(refs);
    Ok(())
}

/// 1,000 characters from every key of a US keyboard (letters, Shift symbols, space), a
/// different arrangement per `k`.
pub fn keys_text(k: usize) -> String {
    const KEYS: &[u8] = b"abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 -=[]\\;',./`~!@#$%^&*()_+{}|:\"<>?";
    (0..1000).map(|i| char::from(KEYS[(i * 7 + k) % KEYS.len()])).collect()
}

/// Playwright MCP typing key by key (`browser_type` with `slowly: true`) into the page's
/// field: 1,000 characters (at its default timeout it may fail: kept with the time it
/// took), then 100 characters for its rate.
async fn peer_keys(pw: &mut Mcp, p: &Page, r: &mut PageRounds) -> anyhow::Result<()> {
    let line = r.peer_text.lines().find(|l| l.contains(p.fill)).map(String::from);
    let Some(pref) = line.as_deref().and_then(mcp::line_ref) else {
        bail!("no {:?} with a ref in Playwright's snapshot", p.fill);
    };
    let args =
        |text: String| json!({"element": p.fill, "target": pref, "text": text, "slowly": true});
    let start = Instant::now();
    match pw.tool("browser_type", &args(keys_text(0))) {
        Ok((_, took)) => r.peer_keys.push(Ok(took)),
        Err(e) => {
            // Its answer spans lines (a call log); the first words say what failed.
            let text = format!("{e:#}").split_whitespace().collect::<Vec<_>>().join(" ");
            let why: String = text.chars().take(120).collect();
            r.peer_keys.push(Err((why, start.elapsed())));
        }
    }
    let short: String = keys_text(1).chars().take(100).collect();
    // A fresh snapshot: a failed call may have left the page elsewhere.
    pw.tool("browser_snapshot", &json!({}))?;
    let (_, took) = pw.tool("browser_type", &args(short))?;
    r.peer_keys_short.push(took);
    Ok(())
}

/// A full snapshot paged to its end: the text, the summed round trips, the pages.
async fn full(c: &mut Client, tab: &str) -> anyhow::Result<(String, Duration, usize)> {
    let (v, mut took) =
        ok(c, "browser.snapshot", on(tab, json!({"disable_diffing": true, "limit": 5000}))).await?;
    let mut r = v["result"]["result"].clone();
    let mut text = r["snapshot"].as_str().unwrap_or_default().to_owned();
    let mut pages = 1;
    while let Some(cursor) = r["next_cursor"].as_str().map(String::from) {
        let (v, t) =
            ok(c, "browser.snapshot", on(tab, json!({"cursor": cursor, "limit": 5000}))).await?;
        took += t;
        r = v["result"]["result"].clone();
        text.push_str(r["snapshot"].as_str().unwrap_or_default());
        pages += 1;
    }
    Ok((text, took, pages))
}

/// The ref on the first outline line that contains `needle`.
fn ref_on(text: &str, needle: &str) -> anyhow::Result<String> {
    let line = text.lines().find(|l| l.contains(needle));
    line.and_then(glovebox_protocol::outline::line_ref)
        .map(String::from)
        .with_context(|| format!("no line with {needle:?} and a ref"))
}

/// How many outline lines with a ref each role has.
fn roles(text: &str, r: &mut PageRounds) {
    r.addressable.clear();
    for line in text.lines().filter(|l| glovebox_protocol::outline::line_ref(l).is_some()) {
        let role = line.trim_start().split([' ', '"']).next();
        *r.addressable.entry(role.unwrap_or_default().to_owned()).or_default() += 1;
    }
}

async fn ours(
    c: &mut Client,
    port: u16,
    tab: &str,
    p: &Page,
    o: &Options,
    r: &mut PageRounds,
) -> anyhow::Result<()> {
    // The default view: what an agent sees on its first look at the page.
    let (v, took) = ok(c, "browser.snapshot", on(tab, json!({}))).await?;
    let view = &v["result"]["result"];
    r.default_ms.push(took.as_secs_f64() * 1e3);
    r.default_bytes.push(view["snapshot"].as_str().unwrap_or_default().len());
    r.default_cursor.push(view["next_cursor"].is_string());
    r.default_text = view["snapshot"].as_str().unwrap_or_default().to_owned();

    let (mut samples, mut text, mut pages) = (Vec::new(), String::new(), 0);
    for k in 0..WARMUP + o.snapshots {
        let (t, took, n) = full(c, tab).await?;
        if k >= WARMUP {
            samples.push(took);
        }
        (text, pages) = (t, n);
    }
    r.full_snapshot.push(Summary::of(&mut samples));
    r.full_bytes.push(text.len());
    r.full_pages.push(pages);
    roles(&text, r);
    r.full_text.clone_from(&text);

    let target = ref_on(&text, p.click.0)?;
    let mut samples = Vec::new();
    let mut at = json!(null);
    for k in 0..WARMUP + o.clicks {
        // Each click starts on an idle page, as an agent's would: a click right behind
        // another one meets the renderer mid-frame and is acknowledged sooner.
        tokio::time::sleep(IDLE).await;
        let (v, took) = ok(c, "browser.click", no_capture(tab, json!({"ref": target}))).await?;
        at = v["result"]["result"].clone();
        if k >= WARMUP {
            samples.push(took);
        }
    }
    let (v, _) = ok(c, "browser.evaluate", no_capture(tab, json!({"script": p.click.1}))).await?;
    let seen = &v["result"]["result"]["value"];
    if p.path == "big.html" && seen != "b25_2_2" {
        bail!("the clicks did not land: #out is {seen}");
    }
    // The floor: the same three mouse events, pipelined, at the point we clicked, from the
    // bench's own DevTools socket. A block of its own: input from a second DevTools client
    // makes Chromium hold the daemon's next mouseMoved until a frame (about twice the click
    // time when the two alternate), which would measure the two clients' interplay instead.
    let mut bare = Cdp::attach(port, tab).await?;
    let (x, y) = (at["x"].as_f64().unwrap_or(0.0), at["y"].as_f64().unwrap_or(0.0));
    let mut floor = Vec::new();
    for k in 0..WARMUP + o.clicks {
        tokio::time::sleep(IDLE).await;
        let bare_took = bare.batch(&mouse_click(x, y)).await?;
        if k >= WARMUP {
            floor.push(bare_took);
        }
    }
    // What a bare client pays that looks before it clicks, as ours does: one evaluate (the
    // element at the point and the centre of its box), then the same events there.
    let look = format!(
        "(() => {{ const e = document.elementFromPoint({x}, {y}); const r = e.getBoundingClientRect(); \
         return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
    );
    let mut looked = Vec::new();
    for k in 0..WARMUP + o.clicks {
        tokio::time::sleep(IDLE).await;
        let start = Instant::now();
        let params = json!({"expression": look, "returnByValue": true});
        let (v, _) = bare.call("Runtime.evaluate", params).await?;
        let centre = &v["result"]["value"];
        let (cx, cy) = (centre[0].as_f64().unwrap_or(x), centre[1].as_f64().unwrap_or(y));
        bare.batch(&mouse_click(cx, cy)).await?;
        if k >= WARMUP {
            looked.push(start.elapsed());
        }
    }
    r.bare_looked_click.push(Summary::of(&mut looked));
    r.click.push(Summary::of(&mut samples));
    r.bare_click.push(Summary::of(&mut floor));

    let field = ref_on(&text, p.fill)?;
    let mut samples = Vec::new();
    for k in 0..WARMUP + o.fills {
        // A different text each time, so no fill is a no-op.
        let fill: String = (0..1000).map(|i| char::from(b'a' + ((i + k) % 26) as u8)).collect();
        let (v, took) =
            ok(c, "browser.fill", no_capture(tab, json!({"ref": field, "text": fill}))).await?;
        if v["result"]["result"]["value"] != json!(fill) {
            bail!("fill did not read back its 1,000 characters");
        }
        if k >= WARMUP {
            samples.push(took);
        }
    }
    r.fill.push(Summary::of(&mut samples));

    // Key by key: 1,000 characters of a US keyboard, Shift and all, each typing read back
    // whole (none lost, none out of order).
    let mut samples = Vec::new();
    for k in 0..1 + o.keys {
        ok(c, "browser.fill", no_capture(tab, json!({"ref": field, "text": ""}))).await?;
        let text = keys_text(k);
        let params = json!({"ref": field, "text": text, "mode": "keys"});
        let (v, took) = ok(c, "browser.keyboard_type", no_capture(tab, params)).await?;
        let got = &v["result"]["result"];
        if got["value"] != json!(text) || got["verified"] != true {
            bail!(
                "keys mode lost characters: {}",
                got.to_string().chars().take(300).collect::<String>()
            );
        }
        if k >= 1 {
            samples.push(took);
        }
    }
    r.keys.push(Summary::of(&mut samples));

    // Ours and the bare call take turns, so drift hits both alike, each after the same idle
    // pause: back to back, a capture that starts the moment the other client's ends waits
    // on what Chromium and the two CPUs still do for that one (ours 4-15 ms longer in most
    // such runs, with a plain Python client too), which is not what an agent meets.
    let (mut mine, mut floor) = (Vec::new(), Vec::new());
    for k in 0..WARMUP + o.shots {
        tokio::time::sleep(IDLE).await;
        let (v, took) = ok(c, "browser.screenshot", on(tab, json!({}))).await?;
        tokio::time::sleep(IDLE).await;
        let (b, bare_took) = bare.call("Page.captureScreenshot", json!({"format": "png"})).await?;
        if k >= WARMUP {
            mine.push(took);
            floor.push(bare_took);
        }
        r.shot_bytes.push(v["result"]["result"]["bytes"].as_u64().unwrap_or(0) as usize);
        if b["data"].as_str().is_none_or(str::is_empty) {
            bail!("the bare Page.captureScreenshot returned no data");
        }
    }
    r.shot.push(Summary::of(&mut mine));
    r.bare_shot.push(Summary::of(&mut floor));
    Ok(())
}

/// A left click at a viewport point as three DevTools mouse events: move, press, release.
fn mouse_click(x: f64, y: f64) -> [(&'static str, serde_json::Value); 3] {
    let ev = |kind: &str, buttons: u8, count: u8| {
        let button = if kind == "mouseMoved" { "none" } else { "left" };
        (
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": button, "buttons": buttons,
                   "clickCount": count}),
        )
    };
    [ev("mouseMoved", 0, 0), ev("mousePressed", 1, 1), ev("mouseReleased", 0, 1)]
}
