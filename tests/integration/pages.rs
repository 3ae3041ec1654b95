//! Pages no one here has seen (issue 32), each class reproduced in `pages.html` on real
//! Chromium: controls known only by their listeners get refs and take clicks, a dropdown's
//! items carry their labels, two controls in one pointing box are two refs, every ref takes
//! the actions its kind allows, a file input is no trap, and points off the screen or the
//! viewport are refused.

use glovebox_protocol::outline::line_ref;
use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::raw::{code, Raw};
use serde_json::{json, Value};

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"]["result"].clone()
}

async fn eval(c: &mut Raw, script: &str) -> Value {
    ok(c, "browser.evaluate", json!({"script": script})).await["value"].clone()
}

/// The whole outline, without diffing.
async fn outline(c: &mut Raw) -> String {
    let snap = ok(c, "browser.snapshot", json!({"limit": 2000, "disable_diffing": true})).await;
    snap["snapshot"].as_str().unwrap_or_default().to_owned()
}

/// The first line holding `needle`.
fn line<'a>(text: &'a str, needle: &str) -> &'a str {
    text.lines().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("no {needle:?} in:\n{text}"))
}

fn ref_in(text: &str, needle: &str) -> String {
    line_ref(line(text, needle)).unwrap_or_else(|| panic!("no ref on {needle:?}:\n{text}")).into()
}

async fn open(env: &BrowserEnv) -> Raw {
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("pages.html")})).await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn controls_known_by_their_listeners_get_refs_and_take_clicks() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let t = outline(&mut c).await;

    // jQuery-style spans, a datepicker's links without href, icon spans with a background.
    let plus = ref_in(&t, "clickable \"+\"");
    let minus = ref_in(&t, "clickable \"-\"");
    let prev = ref_in(&t, "clickable \"Prev\"");
    let next = ref_in(&t, "clickable \"Next\"");
    let reply = ref_in(&t, "clickable \"span .reply\"");
    let more = ref_in(&t, "clickable \"span .more\"");
    // An icon font's glyph is no name: its icon class is.
    assert!(line(&t, "fa-trash").contains("clickable \"i .fa-trash\""), "{t}");
    assert!(t.contains("text \"December 2016\""), "the month is text of its own: {t}");
    // Listeners on the document and the body make nothing a control.
    assert!(!t.contains("clickable \"Listeners only"), "{t}");

    ok(&mut c, "browser.click", json!({"ref": plus})).await;
    ok(&mut c, "browser.click", json!({"ref": plus})).await;
    ok(&mut c, "browser.click", json!({"ref": minus})).await;
    assert_eq!(eval(&mut c, "document.getElementById('qty').textContent").await, "2");
    ok(&mut c, "browser.click", json!({"ref": prev})).await;
    assert_eq!(eval(&mut c, "month.textContent").await, "November 2016");
    ok(&mut c, "browser.click", json!({"ref": next})).await;
    assert_eq!(eval(&mut c, "month.textContent").await, "December 2016");
    ok(&mut c, "browser.click", json!({"ref": reply})).await;
    assert_eq!(eval(&mut c, "out.textContent").await, "reply");
    ok(&mut c, "browser.click", json!({"ref": more})).await;
    assert_eq!(eval(&mut c, "out.textContent").await, "more");
    // Inside a shadow root and a same-origin frame, read as roots of their own.
    let star = ref_in(&t, "clickable \"Star\"");
    ok(&mut c, "browser.click", json!({"ref": star})).await;
    assert_eq!(eval(&mut c, "out.textContent").await, "star");
    let bell = ref_in(&t, "clickable \"Bell\"");
    ok(&mut c, "browser.click", json!({"ref": bell})).await;
    assert_eq!(eval(&mut c, "out.textContent").await, "bell");
    drop(env);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropdowns_items_and_two_controls_in_one_box_have_their_own_lines() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let t = outline(&mut c).await;

    // "Reply" and "Forward" in one pointing box: two refs, the box only their group.
    let reply = ref_in(&t, "clickable \"Reply\"");
    let forward = ref_in(&t, "clickable \"Forward\"");
    assert_ne!(reply, forward);
    assert!(!t.contains("\"Reply Forward\""), "{t}");
    ok(&mut c, "browser.click", json!({"ref": reply})).await;
    assert_eq!(eval(&mut c, "document.getElementById('reply-form').hidden").await, false);
    assert_eq!(eval(&mut c, "document.getElementById('forward-form').hidden").await, true);
    ok(&mut c, "browser.click", json!({"ref": forward})).await;
    assert_eq!(eval(&mut c, "document.getElementById('forward-form').hidden").await, false);

    // The dropdown opens; each item is its own control named by its own text.
    let dd = ref_in(&t, "5ft 9in");
    ok(&mut c, "browser.click", json!({"ref": dd})).await;
    let open = outline(&mut c).await;
    for item in ["5ft 9in", "5ft 10in", "5ft 11in"] {
        let l = open
            .lines()
            .find(|l| l.contains(&format!("listitem \"{item}\"")) && l.contains("(delegated)"))
            .unwrap_or_else(|| panic!("no item {item:?}:\n{open}"));
        assert!(line_ref(l).is_some(), "{l}");
    }
    let ten = ref_in(&open, "listitem \"5ft 10in\"");
    ok(&mut c, "browser.click", json!({"ref": ten})).await;
    assert_eq!(
        eval(&mut c, "document.getElementById('height-current').textContent").await,
        "5ft 10in"
    );
    drop(env);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_ref_takes_every_action_its_kind_allows() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let t = outline(&mut c).await;
    // One line of each kind: structural, a text node's line, a listener's control, a group,
    // a native control, and an element read as one line of text.
    let kinds = [
        "heading \"Listeners only\"",
        "text \"Quantity\"",
        "clickable \"Prev\"",
        "group",
        "button \"Attach files\"",
        "listitem \"Plain item\"",
        "text \"The quick brown fox",
    ];
    for kind in kinds {
        let r = ref_in(&t, kind);
        let hover = ok(&mut c, "browser.hover", json!({"ref": r})).await;
        assert!(hover["element"].is_string(), "{kind}: {hover}");
        ok(&mut c, "browser.drag", json!({"ref": r, "to_x": 700, "to_y": 500})).await;
        let click = ok(&mut c, "browser.click", json!({"ref": r})).await;
        assert!(click["element"].is_string(), "{kind}: {click}");
    }
    // Text lines take select_text: a text node's line and an element's.
    let para = ref_in(&t, "text \"The quick brown fox");
    let sel = ok(&mut c, "browser.select_text", json!({"ref": para, "text": "brown fox"})).await;
    assert_eq!(sel["selected"], "brown fox", "{sel}");
    assert_eq!(eval(&mut c, "getSelection().toString()").await, "brown fox");
    let item = ref_in(&t, "listitem \"Plain item\"");
    ok(&mut c, "browser.select_text", json!({"ref": item, "text": "Plain"})).await;
    assert_eq!(eval(&mut c, "getSelection().toString()").await, "Plain");
    drop(env);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_input_refuses_a_click_and_a_scripted_chooser_is_reported() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let t = outline(&mut c).await;
    let receipt = ref_in(&t, "button \"Receipt\"");
    assert!(line(&t, "button \"Receipt\"").ends_with("(file)"), "{t}");
    let windows = |v: &Value| v["windows"].as_array().map(Vec::len).unwrap_or_default();
    let before = ok(&mut c, "context.list_windows", json!({})).await;
    assert!(windows(&before) >= 1, "Chromium's window is listed: {before}");

    let r = c.call("browser.click", json!({"ref": receipt})).await;
    assert_eq!(code(&r), "NOT_EDITABLE", "{r}");
    assert_eq!(r["error"]["data"]["details"]["available"], json!(["upload"]), "{r}");

    // A chooser the page opens by script is intercepted and named in the result.
    let attach = ref_in(&t, "button \"Attach files\"");
    let clicked = ok(&mut c, "browser.click", json!({"ref": attach})).await;
    assert_eq!(clicked["file_chooser"], json!({"multiple": true}), "{clicked}");
    let after = ok(&mut c, "context.list_windows", json!({})).await;
    assert_eq!(windows(&after), windows(&before), "no window opened: {before} -> {after}");
    drop(env);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn points_off_the_screen_or_the_viewport_are_refused_naming_the_size() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let r = c.call("browser.click", json!({"x": 5000, "y": 10})).await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");
    assert!(r.to_string().contains("outside the viewport, which is"), "{r}");
    let r = c.call("computer.click", json!({"x": 5000, "y": 10})).await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");
    assert!(r.to_string().contains("off the screen, which is"), "{r}");
    // Inside, both still act.
    ok(&mut c, "browser.click", json!({"x": 5, "y": 5})).await;
    drop(env);
}

/// The centre of an outline line's box `@x,y wxh`.
fn centre(line: &str) -> (i64, i64) {
    let at = line.split(" @").nth(1).unwrap_or_else(|| panic!("no box on {line:?}"));
    let mut it = at.split([',', ' ', 'x']).filter_map(|n| n.parse::<i64>().ok());
    let mut n = || it.next().unwrap_or_else(|| panic!("a box of four numbers in {line:?}"));
    let (x, y, w, h) = (n(), n(), n(), n());
    (x + w / 2, y + h / 2)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_desktop_click_at_a_point_names_the_element_and_stays_in_its_window() {
    use glovebox_tests::desktop::{ok as tool_ok, DesktopFixture};
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["mousepad", "--disable-server"]);
    let app = f.wait_app(&mut c, pid).await;
    let win = f.wait_window(&mut c, &app).await;
    let (_, field) = f.wait_line(&mut c, &app, &["text", "editable", " @"]).await;
    let (x, y) = centre(&field);
    let r = tool_ok(&c.call("computer.click", json!({"app_id": app, "x": x, "y": y})).await);
    let element = r["element"].as_str().unwrap_or_else(|| panic!("no element named: {r}"));
    assert!(element.starts_with("text"), "the editor's text under {x},{y}: {r}");

    // A point outside the frame of the window the call names is refused before anything
    // is sent.
    let frame = f.windows_of(&mut c, &app).await[0]["frame"].clone();
    let n = |k: &str| frame[k].as_i64().unwrap_or(0);
    let probe = tool_ok(&c.call("computer.probe", json!({})).await);
    let (sw, sh) = (probe["display"]["width"].as_i64(), probe["display"]["height"].as_i64());
    let (sw, sh) = (sw.expect("width"), sh.expect("height"));
    let spot = [
        (n("x") + n("width") + 5, y),
        (x, n("y") + n("height") + 5),
        (n("x") - 5, y),
        (x, n("y") - 5),
    ]
    .into_iter()
    .find(|&(px, py)| px >= 0 && py >= 0 && px < sw && py < sh)
    .unwrap_or_else(|| panic!("a point on the screen off the window {frame}"));
    let r = c.call("computer.click", json!({"window_id": win, "x": spot.0, "y": spot.1})).await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");
    assert!(r.to_string().contains("outside the frame of window"), "{r}");
    f.stop().await;
}
