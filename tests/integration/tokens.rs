//! Observations worth their tokens: `capture: "auto"` (the default of `tools.call`) sends an
//! image only when the action caused what its text does not show, and says why (on the
//! desktop, a change its outline explains pixel for pixel needs none); the compact desktop
//! outline of gnome-calculator. Real Chromium, real Xvfb and GTK apps.

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::desktop::{find_line, ok as done, DesktopFixture};
use glovebox_tests::raw::Raw;
use serde_json::{json, Value};

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    let cut: String = r.to_string().chars().take(1500).collect();
    assert!(r.get("result").is_some(), "{method} {params} failed: {cut}");
    r["result"].clone()
}

/// A `tools.call` with no `capture` (so `auto`): its image blocks and its outcome.
async fn auto(c: &mut Raw, tool: &str, args: Value) -> (usize, Value, String) {
    let r = ok(c, "tools.call", json!({"name": tool, "arguments": args})).await;
    let content = r["content"].as_array().cloned().unwrap_or_default();
    let images = content.iter().filter(|b| b["type"] == "image").count();
    let text = content[0]["text"].as_str().unwrap_or_default().to_owned();
    assert_eq!(r["isError"], false, "{tool} {args}: {text}");
    (images, r["structuredContent"].clone(), text)
}

/// The ref of the first outline line holding every word.
fn ref_of(outline: &str, words: &[&str]) -> String {
    find_line(outline, words).unwrap_or_else(|| panic!("no {words:?} in\n{outline}")).0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_capture_sends_an_image_only_for_what_the_text_misses() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("tokens.html")})).await;
    let snap = ok(&mut c, "browser.snapshot", json!({})).await;
    let outline = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
    let (name, open) = (ref_of(&outline, &["textbox"]), ref_of(&outline, &["Open dialog"]));
    let (tab, save) = (ref_of(&outline, &["New tab"]), ref_of(&outline, &["button \"Save"]));

    // A verified fill changes only its field: no image, and the outcome says why.
    let fill = json!({"action": "fill", "ref": name, "text": "Ada"});
    let (images, o, text) = auto(&mut c, "browser", fill).await;
    assert_eq!(images, 0, "{text}");
    assert_eq!(o["capture"]["sent"], false, "{o}");
    assert_eq!(o["capture"]["why"], "verified value, no other change", "{o}");
    assert!(text.contains("no image: verified value"), "{text}");
    let changes = o["changes"]["snapshot"].as_str().unwrap_or_default();
    assert!(changes.contains("value=\"Ada\""), "the changed field shows: {o}");
    assert!(o["tokens"]["image"] == 0, "{o}");
    // No image to take: the settle stopped at what the outline needs.
    assert_eq!(o["settle"]["lean"], true, "{o}");

    // A change elsewhere on the page: an image.
    let (images, o, text) = auto(&mut c, "browser", json!({"action": "click", "ref": save})).await;
    assert_eq!(images, 1, "{text}");
    assert_eq!(o["capture"]["sent"], true, "{o}");
    assert!(o["changes"]["snapshot"].as_str().is_some_and(|s| s.contains("Saved at noon")), "{o}");
    // The image waited for the paint: its settle is a whole one.
    assert!(o["settle"].get("lean").is_none(), "{o}");

    // A click that opens a dialog: an image.
    let (images, o, text) = auto(&mut c, "browser", json!({"action": "click", "ref": open})).await;
    assert_eq!(images, 1, "{text}");
    assert!(o["capture"]["why"].as_str().is_some_and(|w| w.contains("outside")), "{o}");
    let close = ref_of(o["changes"]["snapshot"].as_str().unwrap_or_default(), &["Close it"]);
    ok(&mut c, "browser.click", json!({"ref": close, "capture": false})).await;

    // A click that opens a tab: an image, and the tab named.
    let (images, o, text) = auto(&mut c, "browser", json!({"action": "click", "ref": tab})).await;
    assert_eq!(images, 1, "{text}");
    assert_eq!(o["capture"]["why"], "a tab opened", "{o}");

    // Observing never captures; a read-only evaluate changes nothing and sends no image.
    let (images, _, text) = auto(&mut c, "browser", json!({"action": "get_title"})).await;
    assert_eq!(images, 0, "{text}");
    ok(&mut c, "browser.snapshot", json!({})).await;
    let read = json!({"action": "evaluate", "script": "document.title"});
    let (images, o, text) = auto(&mut c, "browser", read).await;
    assert_eq!(images, 0, "{text}");
    assert_eq!(o["capture"]["sent"], false, "{o}");

    // `capture: true` keeps its meaning under tools.call.
    let r = ok(
        &mut c,
        "tools.call",
        json!({"name": "browser", "arguments": {"action": "fill", "ref": name, "text": "Bo"},
               "capture": true}),
    )
    .await;
    let images =
        r["content"].as_array().map_or(0, |c| c.iter().filter(|b| b["type"] == "image").count());
    assert_eq!(images, 1, "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_desktop_click_by_coordinates_sends_an_image_a_change_its_outline_explains_none() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["gnome-calculator"]);
    let app = f.wait_app(&mut c, pid).await;
    let (_, line) = f.wait_line(&mut c, &app, &["button \"7 7\"", "@"]).await;
    let at = line.split('@').nth(1).and_then(|s| s.split(' ').next()).expect("box");
    let (x, y) = at.split_once(',').expect("x,y");
    let (x, y): (i64, i64) = (x.parse().expect("x"), y.parse().expect("y"));
    let click = json!({"action": "click", "x": x + 5, "y": y + 5});
    let (images, o, text) = auto(&mut c, "computer", click).await;
    assert_eq!(images, 1, "{text}");
    assert_eq!(o["capture"]["why"], "a desktop action by coordinates", "{o}");
    // The image frames what changed (the button and the display), not the whole screen,
    // and the text says where it lies.
    let r = &o["capture"]["region"];
    let n = |k: &str| r[k].as_i64().unwrap_or(-1);
    let (rx, ry, rw, rh) = (n("x"), n("y"), n("width"), n("height"));
    assert!(rw > 0 && rh > 0 && rw * rh < 1280 * 800 / 2, "framed: {r}");
    let (px, py) = (x + 5, y + 5);
    assert!(px >= rx && px < rx + rw && py >= ry && py < ry + rh, "the click is in it: {r}");
    let said = (rx, ry) == (0, 0) || text.contains(&format!("at {rx},{ry} on the screen"));
    assert!(said, "{text}");

    // A sum typed into the display and Return: the display and the history change, both in
    // the outline's changes, and no pixel changes outside their boxes: no image.
    // The pointer leaves the app, so no hover or tooltip changes it meanwhile.
    let wins = done(&c.call("context.list_windows", json!({"app_id": app})).await);
    let left = wins["windows"][0]["frame"]["x"].as_i64().unwrap_or(0);
    let away = json!({"x": if left > 400 { 10 } else { 1270 }, "y": 10, "capture": false});
    done(&c.call("computer.mouse_move", away).await);
    let whole = json!({"app_id": app, "limit": 5000, "disable_diffing": true});
    let snap = done(&c.call("computer.snapshot", whole).await);
    let outline = snap["snapshot"].as_str().unwrap_or_default().to_owned();
    let display = ref_of(&outline, &["GtkSourceView"]);
    let fill = json!({"action": "fill", "app_id": app, "ref": display, "text": "12+7"});
    let (images, _, text) = auto(&mut c, "computer", fill).await;
    assert_eq!(images, 0, "{text}");
    let enter = json!({"action": "key", "app_id": app, "key": "Return"});
    let (images, o, text) = auto(&mut c, "computer", enter).await;
    assert_eq!(images, 0, "{text}");
    assert_eq!(o["capture"]["why"], "every changed pixel lies in a changed line's box", "{o}");
    assert!(o["changes"]["snapshot"].as_str().is_some_and(|s| s.contains("value=\"19\"")), "{o}");
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dialog_opening_sends_an_image_and_its_closing_a_text_naming_it() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["mousepad", "--disable-server"]);
    let app = f.wait_app(&mut c, pid).await;
    f.wait_line(&mut c, &app, &["text", "editable"]).await;
    // A baseline outline of the app, as an agent has after its first look.
    done(&c.call("computer.snapshot", json!({"app_id": app})).await);
    let save = json!({"action": "key", "app_id": app, "key": "ctrl+s"});
    let (images, o, text) = auto(&mut c, "computer", save).await;
    assert_eq!(images, 1, "{text}");
    assert_eq!(o["capture"]["why"], "a window opened; the image shows it", "{o}");
    // Escape closes it: the text names the closed window, what it covered is the app the
    // outline describes, and the app's title bar repaints as it takes the focus back.
    let escape = json!({"action": "key", "app_id": app, "key": "Escape"});
    let (images, o, text) = auto(&mut c, "computer", escape).await;
    assert_eq!(images, 0, "{text}");
    let closed = o["settle"]["windows_closed"].as_array().cloned().unwrap_or_default();
    assert!(closed.iter().any(|w| w["title"].as_str().is_some_and(|t| t.contains("Save"))), "{o}");
    assert!(text.contains("closed window \"Save"), "{text}");
    let why = o["capture"]["why"].as_str().unwrap_or_default();
    assert!(why.starts_with("a window closed"), "{o}");
    f.stop().await;
}

/// gnome-calculator 43's whole outline before the compact rules (commit 20ad522, measured
/// by this test): 8,925 characters (9,183 with a tooltip window up), 32 buttons.
const CALCULATOR_CHARS_BEFORE: usize = 8_925;
const CALCULATOR_BUTTONS: usize = 32;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gnome_calculator_outline_is_compact_and_every_button_keeps_its_ref() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["gnome-calculator"]);
    let app = f.wait_app(&mut c, pid).await;
    f.wait_line(&mut c, &app, &["button \"7 7\"", "@"]).await;
    let whole = json!({"app_id": app, "limit": 5000, "disable_diffing": true});
    let snap = done(&c.call("computer.snapshot", whole).await);
    let outline = snap["snapshot"].as_str().unwrap_or_default().to_owned();
    // A tooltip window comes and goes with the pointer: counted on neither side.
    let tip = outline
        .find("widget \"GtkTooltipWindow\"")
        .map_or(outline.len(), |i| outline[..i].rfind('\n').map_or(0, |n| n + 1));
    let chars = outline[..tip].chars().count();
    let buttons: Vec<&str> =
        outline.lines().filter(|l| l.trim_start().starts_with("button ")).collect();
    eprintln!("gnome-calculator: {chars} characters, {} buttons\n{outline}", buttons.len());
    assert!(chars * 10 <= CALCULATOR_CHARS_BEFORE * 6, "{chars} characters: {outline}");
    assert!(buttons.len() >= CALCULATOR_BUTTONS, "{outline}");
    assert!(buttons.iter().all(|l| l.contains("[e")), "every button has a ref: {outline}");
    assert!(!outline.contains("clipboard.copy"), "{outline}");
    // A button works by its ref.
    let (seven, _) = find_line(&outline, &["button \"7 7\""]).expect("7");
    done(&c.call("computer.click", json!({"app_id": app, "ref": seven})).await);
    f.wait_line(&mut c, &app, &["GtkSourceView", "value=\"7\""]).await;
    f.stop().await;
}
