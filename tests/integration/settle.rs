//! Settle, capture, events and session control on the real desktop: a click that opens a
//! menu comes back with the menu in its capture, a click that changes nothing comes back after
//! the quiet window, cancel and disconnect release keys and buttons (checked in the X server),
//! op ids run once, windows opened by other processes and focus changes arrive as events, and
//! a tab settles on its network.

use std::time::{Duration, Instant};

use glovebox_tests::desktop::{ok, DesktopFixture};
use glovebox_tests::raw::code;
use glovebox_tests::{Raw, ACTOR, DEADLINE};
use serde_json::{json, Value};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::ConnectionExt as _;

/// An RGB image decoded from a capture or screenshot result.
struct Image {
    width: usize,
    rgb: Vec<u8>,
}

fn decode(v: &Value) -> Image {
    let (width, _, rgb) = glovebox_tests::image::rgb_of(v);
    Image { width, rgb }
}

/// The share of pixels inside (x, y, w, h) that differ between two images of the screen.
fn differing(a: &Image, b: &Image, (x, y, w, h): (usize, usize, usize, usize)) -> f64 {
    let mut diff = 0;
    for row in y..y + h {
        for col in x..x + w {
            let i = (row * a.width + col) * 3;
            if a.rgb[i..i + 3] != b.rgb[i..i + 3] {
                diff += 1;
            }
        }
    }
    diff as f64 / (w * h).max(1) as f64
}

/// The `@x,y wxh` box at the end of an outline line.
fn line_box(line: &str) -> (usize, usize, usize, usize) {
    let b = line.rsplit('@').next().expect("a box");
    let nums: Vec<usize> = b
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(4)
        .map(|s| s.parse().expect("number"))
        .collect();
    (nums[0], nums[1], nums[2], nums[3])
}

fn x11(f: &DesktopFixture) -> x11rb::rust_connection::RustConnection {
    glovebox_daemon::desktop::xauth::connect(f.env.display()).expect("X connection").0
}

/// Whether any key is down on the X server.
fn keys_down(conn: &x11rb::rust_connection::RustConnection) -> bool {
    conn.query_keymap().expect("keymap").reply().expect("keymap").keys.iter().any(|b| *b != 0)
}

/// The pointer's button mask (Button1 = 0x100).
fn buttons(conn: &x11rb::rust_connection::RustConnection) -> u16 {
    let root = conn.setup().roots[0].root;
    let p = conn.query_pointer(root).expect("pointer").reply().expect("pointer");
    u16::from(p.mask) & 0x1f00
}

/// The whole outcome of a tool call, or a panic with the error.
fn outcome(r: &Value) -> Value {
    assert!(r.get("result").is_some(), "call failed: {r}");
    r["result"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_menu_click_is_captured_settled_and_a_no_op_returns_after_the_quiet_window() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["mousepad"]);
    let app = f.wait_app(&mut c, pid).await;
    let (file, _) = f.wait_line(&mut c, &app, &["menu", "\"File\""]).await;
    let before = decode(&ok(&c.call("computer.screenshot", json!({})).await));

    let r = outcome(&c.call("computer.click", json!({"ref": file, "app_id": app})).await);
    assert_eq!(r["settle"]["reason"], "quiet", "{}", strip(&r));
    let capture = &r["capture"];
    assert_eq!(capture["mime"], "image/png");
    assert!(capture["capture_id"].is_string(), "{}", strip(&r));
    assert!(r["tokens"]["image"].as_u64().unwrap_or(0) > 1000, "{}", strip(&r));
    let shown = decode(capture);
    // "New" itself (names' runs of whitespace are collapsed in outlines), the item the menu
    // opens on, highlighted.
    let (_, item) = f.wait_line(&mut c, &app, &["menu item \"New\"", "@"]).await;
    let after = decode(&ok(&c.call("computer.screenshot", json!({})).await));
    // The menu's own box: the capture shows it (it differs from before the click) and shows
    // it finished (it matches a screenshot taken well after).
    let item_box = line_box(&item);
    assert!(differing(&before, &shown, item_box) > 0.2, "the capture lacks the menu: {item}");
    assert!(differing(&shown, &after, item_box) < 0.01, "the capture is not final: {item}");

    // The same capture again by id.
    let id = capture["capture_id"].as_str().expect("capture_id");
    let again = c.call("capture.get", json!({"capture_id": id})).await;
    assert_eq!(again["result"]["data"], capture["data"]);
    let missing = c.call("capture.get", json!({"capture_id": "c999999"})).await;
    assert_eq!(code(&missing), "TARGET_NOT_FOUND", "{missing}");

    ok(&c.call("computer.key", json!({"key": "Escape"})).await);
    // A click on the empty desktop changes nothing: back after the quiet window, not the cap.
    let r = outcome(&c.call("computer.click", json!({"x": 1270, "y": 790})).await);
    assert_eq!(r["settle"]["reason"], "quiet", "{}", strip(&r));
    let waited = r["settle"]["waited_ms"].as_u64().expect("waited_ms");
    assert!((80..700).contains(&waited), "waited {waited} ms: {}", strip(&r));
    // capture:false skips both.
    let r = outcome(
        &c.call("computer.mouse_move", json!({"x": 1260, "y": 790, "capture": false})).await,
    );
    assert!(r.get("capture").is_none() && r.get("settle").is_none(), "{}", strip(&r));
    // tools.call hands the capture over as MCP image content.
    let r = c
        .call(
            "tools.call",
            json!({"name": "computer", "arguments": {"action": "mouse_move", "x": 1250, "y": 790}}),
        )
        .await;
    let content = r["result"]["content"].as_array().expect("content");
    assert!(content.iter().any(|c| c["type"] == "image" && c["mimeType"] == "image/png"), "{r}");
    let meta = &r["result"]["structuredContent"]["capture"];
    assert!(meta["capture_id"].is_string() && meta.get("data").is_none(), "sent once: {meta}");
    f.stop().await;
}

/// An outcome without its base64 data, for messages.
fn strip(v: &Value) -> String {
    let mut v = v.clone();
    if let Some(c) = v.get_mut("capture").and_then(Value::as_object_mut) {
        c.remove("data");
    }
    v.to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_cancel_and_disconnect_leave_nothing_pressed() {
    let f = DesktopFixture::start().await;
    let x = x11(&f);
    let mut c = f.daemon.actor().await;
    // Paused: acting is refused, observing works; resumed: the click runs.
    c.call("session.pause", json!({})).await;
    let click = c.call("computer.click", json!({"x": 1270, "y": 10})).await;
    assert_eq!(code(&click), "PAUSED", "{click}");
    assert!(!keys_down(&x) && buttons(&x) == 0, "nothing was pressed");
    ok(&c.call("computer.screenshot", json!({"max_width": 320})).await);
    c.call("session.resume", json!({})).await;
    let click = ok(&c.call("computer.click", json!({"x": 1270, "y": 10})).await);
    assert_eq!(click["via"], "xtest", "{click}");

    ok(&c.call("computer.keydown", json!({"key": "Shift"})).await);
    assert!(keys_down(&x), "Shift is down in the X server");
    let wait = c.send("computer.wait", json!({"duration_ms": 20000, "op_id": "long-wait"})).await;
    // Let the wait start, then cancel it.
    let deadline = Instant::now() + DEADLINE;
    loop {
        let s = c.call("op.status", json!({"op_id": "long-wait"})).await;
        if s["result"]["state"] == "running" {
            break;
        }
        assert!(Instant::now() < deadline, "the wait never ran: {s}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let sent = Instant::now();
    let cancel = c.send("op.cancel", json!({"op_id": "long-wait"})).await;
    let r = c.response(wait).await;
    let took = sent.elapsed();
    assert_eq!(code(&r), "CANCELLED", "{r}");
    // Prompt, not at the wait's end (20 s); a loaded machine may take some tens of ms.
    assert!(took < Duration::from_millis(500), "cancelled after {took:?}");
    assert_eq!(c.response(cancel).await["result"]["cancelled"], true);
    assert!(!keys_down(&x), "Shift is up again");

    // A disconnect in the middle of a drag lets the button go; the session comes back.
    let url = f.daemon.url();
    let mut a = Raw::connect(&url, Some(ACTOR)).await.expect("connect");
    a.hello(Some("dragger")).await;
    let pid = f.launch(&["mousepad"]);
    let app = f.wait_app(&mut a, pid).await;
    ok(&a.call("context.get_app", json!({"app": app})).await);
    ok(&a.call("computer.mouse_down", json!({"x": 600, "y": 700})).await);
    ok(&a.call("computer.mouse_move", json!({"x": 640, "y": 720, "capture": false})).await);
    assert_eq!(buttons(&x), 0x100, "button 1 is down mid-drag");
    drop(a);
    let deadline = Instant::now() + DEADLINE;
    while buttons(&x) != 0 {
        assert!(Instant::now() < deadline, "the button stayed down after the disconnect");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let mut b = Raw::connect(&url, Some(ACTOR)).await.expect("reconnect");
    let hello = b.hello(Some("dragger")).await;
    assert_eq!(hello["resumed"], true, "{hello}");
    let status = b.call("session.status", json!({})).await;
    assert_eq!(status["result"]["selection"]["app_id"], app.as_str(), "{status}");
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_op_id_types_once_and_windows_arrive_as_events() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let mut events = f.daemon.actor().await;
    let sub = events.call("events.subscribe", json!({"topics": ["desktop"]})).await;
    assert!(sub["result"].is_string(), "{sub}");

    let pid = f.launch(&["mousepad"]);
    let app = f.wait_app(&mut c, pid).await;
    let (text, _) = f.wait_line(&mut c, &app, &["text", "editable"]).await;
    let call = json!({"ref": text, "app_id": app, "text": "once ", "op_id": "type-once"});
    let first = c.send("computer.type", call.clone()).await;
    let second = c.send("computer.type", call.clone()).await;
    let (a, b) = (outcome(&c.response(first).await), outcome(&c.response(second).await));
    let third = outcome(&c.call("computer.type", call).await);
    assert_eq!(a["op_id"], "type-once");
    assert_eq!(a["result"], b["result"]);
    assert_eq!(a["result"], third["result"]);
    let got = ok(&c.call("computer.get_text", json!({"ref": text, "app_id": app})).await);
    assert_eq!(got["text"], "once ", "typed exactly once: {got}");

    // The mousepad app and window were announced, and so is a window another process opens.
    let mine = |d: &Value| d["pid"] == pid;
    let got = wait_events(&mut events, &[("app.started", &mine), ("window.opened", &mine)]).await;
    let (started, opened) = (&got[0], &got[1]);
    assert_eq!(started["app_id"], app.as_str(), "{started}");
    assert!(opened["window_id"].is_string(), "{opened}");
    let xterm = f.launch(&["xterm"]);
    let mut w = f.daemon.actor().await;
    let seen = async {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let r = ok(&w.call("context.list_windows", json!({})).await);
            let wins = r["windows"].as_array().cloned().unwrap_or_default();
            if wins.iter().any(|x| x["pid"] == xterm) {
                return Instant::now();
            }
            assert!(Instant::now() < deadline, "xterm never showed a window");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    let event = async {
        wait_event(&mut events, "window.opened", |d| d["pid"] == xterm).await;
        Instant::now()
    };
    let (listed, announced) = tokio::join!(seen, event);
    let late = announced.saturating_duration_since(listed);
    assert!(late < Duration::from_millis(500), "window.opened came {late:?} after the window");

    // Keyboard focus moving inside an app is reported with the element.
    let zenity = f.launch(&["zenity", "--entry", "--text", "focus"]);
    let app = f.wait_app(&mut c, zenity).await;
    f.wait_line(&mut c, &app, &["text", "editable"]).await;
    ok(&c.call("computer.key", json!({"key": "Tab", "app_id": app, "capture": false})).await);
    let focus = wait_event(&mut events, "focus.changed", |d| d["app_id"] == app.as_str()).await;
    assert!(focus["element"].is_string(), "{focus}");
    f.stop().await;
}

/// Which events a test waits for: a kind and a test of the event's data.
type Wanted<'a> = (&'a str, &'a dyn Fn(&Value) -> bool);

/// The data of the first event of each wanted kind, in any order of arrival.
async fn wait_events(c: &mut Raw, wanted: &[Wanted<'_>]) -> Vec<Value> {
    let mut found: Vec<Option<Value>> = vec![None; wanted.len()];
    let deadline = Instant::now() + DEADLINE;
    while found.iter().any(Option::is_none) {
        let n = c.notification("events.event").await;
        let ev = &n["params"]["result"];
        for (i, (kind, matches)) in wanted.iter().enumerate() {
            if found[i].is_none() && ev["kind"] == *kind && matches(&ev["data"]) {
                found[i] = Some(ev["data"].clone());
            }
        }
        assert!(Instant::now() < deadline, "events still missing: found {found:?}; last {n}");
    }
    found.into_iter().flatten().collect()
}

/// The data of the next event of `kind` that `matches`.
async fn wait_event(c: &mut Raw, kind: &str, matches: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let n = c.notification("events.event").await;
        let ev = &n["params"]["result"];
        if ev["kind"] == kind && matches(&ev["data"]) {
            return ev["data"].clone();
        }
        assert!(Instant::now() < deadline, "no {kind} event; last {n}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tab_settles_on_its_network_and_tabs_come_as_events() {
    let env = glovebox_tests::browser::BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    let mut events = env.daemon.actor().await;
    let sub = events.call("events.subscribe", json!({"topics": ["browser"]})).await;
    assert!(sub["result"].is_string(), "{sub}");
    let url = env.site.url("settle.html");
    let nav = outcome(&c.call("browser.navigate", json!({"url": url})).await);
    assert_eq!(nav["settle"]["reason"], "quiet", "{}", strip(&nav));
    let tab = nav["target"]["tab_id"].as_str().expect("tab_id").to_owned();
    let navigated = wait_event(&mut events, "navigated", |d| d["url"] == url.as_str()).await;
    assert_eq!(navigated["tab_id"], tab.as_str());

    let snap = ok(&c.call("browser.snapshot", json!({})).await);
    let text = snap["snapshot"].as_str().unwrap_or_default();
    let load = glovebox_tests::desktop::find_line(text, &["button \"Load\""]).expect("Load").0;
    let noop = glovebox_tests::desktop::find_line(text, &["button \"Nothing\""]).expect("noop").0;
    // The click starts a 250 ms request; the page changes when it answers. The capture shows
    // the changed page because the settle waited for the request.
    let r = outcome(&c.call("browser.click", json!({"ref": load})).await);
    assert_eq!(r["settle"]["reason"], "quiet", "{}", strip(&r));
    let waited = r["settle"]["waited_ms"].as_f64().expect("waited_ms");
    let ran = r["timing"]["exec_ms"].as_f64().expect("exec_ms") + waited;
    assert!(ran >= 250.0, "the click and its settle took {ran} ms for a 250 ms request");
    let img = decode(&r["capture"]);
    let px = img.rgb.len() / 3 - img.width / 2;
    assert_eq!(img.rgb[px * 3..px * 3 + 3], [200, 0, 0], "the capture shows the final page");
    // A click that changes nothing comes back after the quiet window.
    let r = outcome(&c.call("browser.click", json!({"ref": noop})).await);
    assert_eq!(r["settle"]["reason"], "quiet", "{}", strip(&r));
    let waited = r["settle"]["waited_ms"].as_u64().expect("waited_ms");
    assert!(waited < 700, "waited {waited} ms for nothing");

    // A download lands under the state dir and is announced.
    let link = glovebox_tests::desktop::find_line(text, &["link \"Save\""]).expect("Save").0;
    ok(&c.call("browser.click", json!({"ref": link, "capture": false})).await);
    let done = wait_event(&mut events, "download.finished", |_| true).await;
    assert_eq!(done["state"], "completed", "{done}");
    let path = done["path"].as_str().expect("path");
    assert!(std::fs::read_to_string(path).expect("downloaded").contains("Settle"), "{done}");

    // A full-page capture of a very tall page is cut at the image limit and says so.
    let tall = "document.body.style.height = '40000px'; 1";
    ok(&c.call("browser.evaluate", json!({"script": tall, "capture": false})).await);
    let shot =
        ok(&c.call("browser.screenshot", json!({"full_page": true, "format": "jpeg"})).await);
    assert!(shot["height"].as_u64().unwrap_or(0) <= 16_384, "{}", strip(&shot));
    assert_eq!(shot["truncated"]["limit_px"], 16_384, "{}", strip(&shot));

    let new = outcome(&c.call("browser.tab_new", json!({})).await);
    let id = new["result"]["tab_id"].as_str().expect("tab_id").to_owned();
    wait_event(&mut events, "tab.created", |d| d["tab_id"] == id.as_str()).await;
    ok(&c.call("browser.tab_close", json!({"tab_id": id})).await);
    wait_event(&mut events, "tab.closed", |d| d["tab_id"] == id.as_str()).await;
}
