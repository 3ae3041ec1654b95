//! Where real input lands, on a private desktop with real apps: input naming an app, a window
//! or a ref reaches it (its window activated first) or is refused with `NOT_FOCUSED`, and never
//! lands in the app that happened to be active; input naming nothing says where it went; a
//! paste over a selection replaces it in GTK 3, GTK 4 and Qt; a paste that cannot land is an
//! error; a launched app comes up active and on top.

use std::time::{Duration, Instant};

use glovebox_tests::desktop::{ok, DesktopFixture};
use glovebox_tests::image::rgb_of;
use glovebox_tests::raw::code;
use glovebox_tests::Raw;
use serde_json::{json, Value};

/// An app with a text field: its app id, window and the field's ref.
struct Editor {
    app: String,
    win: String,
    field: String,
}

async fn editor(f: &DesktopFixture, c: &mut Raw, argv: &[&str], words: &[&str]) -> Editor {
    let pid = f.launch(argv);
    let app = f.wait_app(c, pid).await;
    let (field, line) = f.wait_line(c, &app, words).await;
    assert!(!field.is_empty(), "{argv:?}: no ref on {line}");
    let win = f.wait_window(c, &app).await;
    Editor { app, win, field }
}

async fn fill(c: &mut Raw, e: &Editor, text: &str) {
    let r =
        ok(&c.call("computer.fill", json!({"app_id": e.app, "ref": e.field, "text": text})).await);
    assert_eq!(r["value"], text, "{r}");
}

async fn activate(c: &mut Raw, e: &Editor) {
    let r = ok(&c.call("context.focus_window", json!({"window_id": e.win})).await);
    assert_eq!(r["focus_verified"], true, "{r}");
}

/// Polls the field until `done` holds for its text (real input is handled on the app's time).
async fn wait_text(
    f: &DesktopFixture,
    c: &mut Raw,
    e: &Editor,
    done: impl Fn(&str) -> bool,
) -> String {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let t = f.text_of(c, &e.app, &e.field).await;
        if done(&t) || Instant::now() >= deadline {
            return t;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_naming_an_inactive_editor_lands_there_or_is_refused() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let first = editor(&f, &mut c, &["mousepad", "--disable-server"], &["text", "editable"]).await;
    let second = editor(&f, &mut c, &["featherpad"], &["text", "editable"]).await;
    fill(&mut c, &first, "first").await;
    fill(&mut c, &second, "second").await;

    let by_app = json!({"app_id": first.app});
    let by_ref = json!({"app_id": first.app, "ref": first.field});
    let by_window = json!({"window_id": first.win});
    // (action, how it names the first editor, extra params, what lands in the first editor)
    let cases = [
        ("computer.type", &by_app, json!({"text": "T1"}), "T1"),
        ("computer.type", &by_ref, json!({"text": "T2", "dispatch": "foreground"}), "T2"),
        ("computer.type", &by_ref, json!({"text": "T3"}), "T3"),
        ("computer.type", &by_window, json!({"text": "T4"}), "T4"),
        ("computer.paste", &by_app, json!({"text": "P1"}), "P1"),
        ("computer.paste", &by_ref, json!({"text": "P2"}), "P2"),
        ("computer.paste", &by_window, json!({"text": "P3"}), "P3"),
        ("computer.key", &by_app, json!({"key": "Return"}), "\n"),
        ("computer.key", &by_window, json!({"key": "Return"}), "\n"),
    ];
    for (action, names, extra, lands) in cases {
        activate(&mut c, &second).await;
        let before = f.text_of(&mut c, &first.app, &first.field).await;
        let mut params = names.clone();
        params.as_object_mut().expect("object").extend(extra.as_object().cloned().expect("extra"));
        let r = c.call(action, params.clone()).await;
        let case = format!("{action} {params}");
        let outcome = r["result"]["result"]["via"].as_str().map(String::from);
        eprintln!("{case}: {}", outcome.unwrap_or_else(|| r["error"]["message"].to_string()));
        if r.get("result").is_some() {
            let res = ok(&r);
            if res["via"] != "accessibility:insert_text" {
                assert_eq!(res["delivered_to"]["app_id"], first.app.as_str(), "{case}: {res}");
                assert_eq!(res["delivered_to"]["window_id"], first.win.as_str(), "{case}: {res}");
            }
            let n = before.matches(lands).count();
            let now = wait_text(&f, &mut c, &first, |t| t.matches(lands).count() > n).await;
            assert!(
                now.matches(lands).count() > n,
                "{case}: the first editor holds {now:?}: {res}"
            );
        } else {
            assert_eq!(code(&r), "NOT_FOCUSED", "{case}: {r}");
            assert!(r["error"]["data"]["details"]["active"].is_object(), "{case}: {r}");
            let now = f.text_of(&mut c, &first.app, &first.field).await;
            assert_eq!(now, before, "{case}: refused, so nothing was typed: {r}");
        }
        let other = f.text_of(&mut c, &second.app, &second.field).await;
        assert_eq!(other, "second", "{case} reached the active editor: {r}");
    }

    // Keys naming nothing go to the active window, and the result says which.
    activate(&mut c, &second).await;
    let r = ok(&c.call("computer.key", json!({"key": "F24"})).await);
    assert_eq!(r["delivered_to"]["window_id"], second.win.as_str(), "{r}");
    assert_eq!(r["delivered_to"]["app_id"], second.app.as_str(), "{r}");
    // A pointer move naming nothing names the window under the point.
    let wins = f.windows_of(&mut c, &second.app).await;
    let frame = &wins[0]["frame"];
    let (x, y) = (
        frame["x"].as_i64().expect("x") + frame["width"].as_i64().expect("w") / 2,
        frame["y"].as_i64().expect("y") + frame["height"].as_i64().expect("h") / 2,
    );
    let r = ok(&c.call("computer.mouse_move", json!({"x": x, "y": y})).await);
    assert_eq!(r["delivered_to"]["window_id"], second.win.as_str(), "{r}");

    // A click naming the first editor at a point on no window of it is refused.
    let all = ok(&c.call("context.list_windows", json!({})).await);
    let probe = ok(&c.call("computer.probe", json!({})).await);
    let (sw, sh) = (
        probe["display"]["width"].as_i64().expect("width"),
        probe["display"]["height"].as_i64().expect("height"),
    );
    let inside = |w: &Value, x: i64, y: i64| {
        let f = &w["frame"];
        let (fx, fy) = (f["x"].as_i64().unwrap_or(0), f["y"].as_i64().unwrap_or(0));
        x >= fx
            && y >= fy
            && x < fx + f["width"].as_i64().unwrap_or(0)
            && y < fy + f["height"].as_i64().unwrap_or(0)
    };
    let mine = f.windows_of(&mut c, &first.app).await;
    let spot = [(sw - 2, sh - 2), (2, sh - 2), (sw - 2, 2), (2, 2), (x, y)]
        .into_iter()
        .find(|(x, y)| !mine.iter().any(|w| inside(w, *x, *y)))
        .expect("a point off the first editor");
    let before = f.text_of(&mut c, &first.app, &first.field).await;
    let r = c.call("computer.click", json!({"app_id": first.app, "x": spot.0, "y": spot.1})).await;
    assert_eq!(code(&r), "NOT_FOCUSED", "click at {spot:?} off {mine:?} in {all}: {r}");
    assert_eq!(f.text_of(&mut c, &first.app, &first.field).await, before);
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paste_or_typing_over_a_selection_replaces_it_in_gtk3_gtk4_and_qt() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let calc = editor(&f, &mut c, &["gnome-calculator"], &["text", "editable"]).await;
    let gtk3 = editor(&f, &mut c, &["mousepad", "--disable-server"], &["text", "editable"]).await;
    let qt = editor(&f, &mut c, &["featherpad"], &["text", "editable"]).await;
    for (e, other) in [(&calc, &qt), (&gtk3, &calc), (&qt, &gtk3)] {
        fill(&mut c, e, "11+22+33").await;
        // The editor is not the active window: an AT-SPI selection answers at once anyway
        // (timed without the settle and capture that follow it).
        activate(&mut c, other).await;
        let t = Instant::now();
        let r = ok(&c
            .call(
                "computer.select_text",
                json!({"app_id": e.app, "ref": e.field, "text": "22", "capture": false}),
            )
            .await);
        let took = t.elapsed();
        eprintln!("{}: select_text on an inactive window took {took:?}", e.app);
        assert!(took < Duration::from_millis(500), "{}: select_text took {took:?}: {r}", e.app);
        let r = ok(&c
            .call("computer.paste", json!({"app_id": e.app, "ref": e.field, "text": "45"}))
            .await);
        assert_eq!(r["value"], "11+45+33", "{}: {r}", e.app);
        assert_eq!(r["verified"], true, "{}: {r}", e.app);
        assert_eq!(f.text_of(&mut c, &e.app, &e.field).await, "11+45+33");

        // Typing over a selection: through EditableText, then as keystrokes.
        activate(&mut c, other).await;
        ok(&c
            .call("computer.select_text", json!({"app_id": e.app, "ref": e.field, "text": "11"}))
            .await);
        let r = ok(&c
            .call("computer.type", json!({"app_id": e.app, "ref": e.field, "text": "67"}))
            .await);
        assert_eq!(r["value"], "67+45+33", "{}: {r}", e.app);
        ok(&c
            .call("computer.select_text", json!({"app_id": e.app, "ref": e.field, "text": "33"}))
            .await);
        let r = ok(&c
            .call(
                "computer.type",
                json!({"app_id": e.app, "ref": e.field, "text": "89", "dispatch": "foreground"}),
            )
            .await);
        assert_eq!(r["value"], "67+45+89", "{}: {r}", e.app);
        assert_eq!(r["delivered_to"]["app_id"], e.app.as_str(), "{r}");
    }
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paste_that_cannot_land_is_an_error() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["zenity", "--text-info", "--title", "Viewer"]);
    let app = f.wait_app(&mut c, pid).await;
    let (view, line) = f.wait_line(&mut c, &app, &["text", "@"]).await;
    assert!(!line.contains("editable"), "a read-only view: {line}");
    let before = ok(&c.call("computer.get_text", json!({"app_id": app, "ref": view})).await);
    let r = c
        .call("computer.paste", json!({"app_id": app, "ref": view, "text": "lands nowhere"}))
        .await;
    assert_eq!(code(&r), "ACTION_FAILED", "{r}");
    let msg = r["error"]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("holds"), "the error says what the field holds: {r}");
    let after = ok(&c.call("computer.get_text", json!({"app_id": app, "ref": view})).await);
    assert_eq!(after["text"], before["text"], "{r}");
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_launched_app_comes_up_active_over_a_full_screen_window() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let cover = editor(&f, &mut c, &["mousepad", "--disable-server"], &["text", "editable"]).await;
    let r = ok(&c
        .call("computer.window", json!({"window_id": cover.win, "operation": "maximize"}))
        .await);
    assert_eq!(r["window"]["maximized"], true, "{r}");
    let before = rgb_of(&ok(&c.call("computer.screenshot", json!({"format": "png"})).await));

    let got = ok(&c
        .call(
            "context.get_app",
            json!({"app": "gnome-calculator", "launch": true, "timeout_ms": 30000}),
        )
        .await);
    assert_eq!(got["launched"], true, "{got}");
    assert_eq!(got["window_active"], true, "{got}");
    let win = got["window_id"].as_str().expect("window_id").to_owned();
    let active = f.active_window(&mut c).await.expect("an active window");
    assert_eq!(active["window_id"], win.as_str(), "EWMH agrees: {active}");
    // Its snapshot shows its window (get_app waited for it on the bus) active, as EWMH has it.
    let snap = got["snapshot"]["snapshot"].as_str().unwrap_or_default();
    assert!(snap.lines().any(|l| l.trim_start().starts_with("window")), "{}", got["snapshot"]);
    let app = got["app_id"].as_str().expect("app_id").to_owned();
    let (_, frame) = f.wait_line(&mut c, &app, &["window \"Calculator"]).await;
    assert!(frame.contains("(active"), "the new window is active: {frame} {got}");
    let top =
        |l: &&str| ["frame", "window", "dialog"].iter().any(|r| l.trim_start().starts_with(r));
    let cover_snap = ok(&c
        .call("computer.snapshot", json!({"app_id": cover.app, "disable_diffing": true}))
        .await);
    let cover_text = cover_snap["snapshot"].as_str().unwrap_or_default();
    let cover_frame = cover_text.lines().find(top).unwrap_or_default();
    assert!(!cover_frame.contains("active"), "the covered window is not: {cover_frame}");
    assert!(!cover_text.contains("focused"), "nothing in it is focused: {cover_text}");

    // The next capture shows the new window where the maximized one was.
    let after = rgb_of(&ok(&c.call("computer.screenshot", json!({"format": "png"})).await));
    assert_changed_where(&before, &after, &active["client"], &win);
    f.stop().await;
}

/// Most of the pixels inside `client` (a window's rectangle) differ between two captures:
/// the window now shows there.
fn assert_changed_where(
    before: &(usize, usize, Vec<u8>),
    after: &(usize, usize, Vec<u8>),
    client: &Value,
    win: &str,
) {
    let (x0, y0) =
        (client["x"].as_i64().expect("x") as usize, client["y"].as_i64().expect("y") as usize);
    let (w, h) = (
        client["width"].as_u64().expect("w") as usize,
        client["height"].as_u64().expect("h") as usize,
    );
    let (sw, a, b) = (after.0, &after.2, &before.2);
    let (mut differ, mut total) = (0usize, 0usize);
    for y in (y0..y0 + h).step_by(4) {
        for x in (x0..x0 + w).step_by(4) {
            let i = (y * sw + x) * 3;
            if i + 2 < a.len() && i + 2 < b.len() {
                total += 1;
                if a[i..i + 3] != b[i..i + 3] {
                    differ += 1;
                }
            }
        }
    }
    assert!(
        total > 0 && differ * 5 > total,
        "only {differ} of {total} pixels changed where {win} is"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_launched_app_comes_up_active_over_a_full_screen_chromium() {
    let env = glovebox_tests::browser::BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    let nav = c.call("browser.navigate", json!({"url": env.site.url("form.html")})).await;
    assert!(nav.get("result").is_some(), "{nav}");
    let windows = ok(&c.call("context.list_windows", json!({})).await);
    let chromium = windows["windows"]
        .as_array()
        .and_then(|w| w.first())
        .and_then(|w| w["window_id"].as_str())
        .expect("Chromium's window")
        .to_owned();
    // F11 as real input on Chromium's window: the browser goes full screen (EWMH's
    // _NET_WM_STATE_FULLSCREEN), covering the whole screen.
    let r = c.call("computer.key", json!({"window_id": chromium, "key": "F11"})).await;
    assert!(r.get("result").is_some(), "{r}");
    let screen = ok(&c.call("computer.screenshot", json!({"format": "png"})).await);
    let (sw, sh) = (screen["width"].as_u64().expect("w"), screen["height"].as_u64().expect("h"));
    let deadline = Instant::now() + glovebox_tests::DEADLINE;
    loop {
        let all = ok(&c.call("context.list_windows", json!({})).await);
        let w = all["windows"]
            .as_array()
            .and_then(|w| w.iter().find(|w| w["window_id"] == chromium.as_str()))
            .cloned();
        let g = w.as_ref().map(|w| &w["client"]);
        if g.is_some_and(|g| g["width"].as_u64() == Some(sw) && g["height"].as_u64() == Some(sh)) {
            break;
        }
        assert!(Instant::now() < deadline, "Chromium never covered the screen: {w:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let before = rgb_of(&ok(&c.call("computer.screenshot", json!({"format": "png"})).await));

    let got = ok(&c
        .call(
            "context.get_app",
            json!({"app": "gnome-calculator", "launch": true, "timeout_ms": 30000}),
        )
        .await);
    assert_eq!(got["launched"], true, "{got}");
    assert_eq!(got["window_active"], true, "{got}");
    let win = got["window_id"].as_str().expect("window_id").to_owned();
    let all = ok(&c.call("context.list_windows", json!({})).await);
    let active = all["windows"]
        .as_array()
        .and_then(|w| w.iter().find(|w| w["active"] == true))
        .cloned()
        .expect("an active window");
    assert_eq!(active["window_id"], win.as_str(), "EWMH agrees: {active}");
    // The next capture shows it over the full-screen browser.
    let after = rgb_of(&ok(&c.call("computer.screenshot", json!({"format": "png"})).await));
    assert_changed_where(&before, &after, &active["client"], &win);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_s_own_modal_dialog_counts_as_the_window() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let main = editor(&f, &mut c, &["mousepad", "--disable-server"], &["text", "editable"]).await;
    let other = editor(&f, &mut c, &["featherpad"], &["text", "editable"]).await;
    fill(&mut c, &other, "other").await;
    activate(&mut c, &main).await;
    ok(&c.call("computer.key", json!({"window_id": main.win, "key": "Control+o"})).await);
    let w = ok(&c
        .call("computer.wait", json!({"until": "window_opens", "query": "Open", "timeout": 10000}))
        .await);
    assert_eq!(w["happened"], true, "{w}");

    // With another app active, a key naming the main window goes to its open dialog.
    activate(&mut c, &other).await;
    let r = ok(&c.call("computer.key", json!({"window_id": main.win, "key": "Escape"})).await);
    let to = &r["delivered_to"];
    assert_eq!(to["app_id"], main.app.as_str(), "{r}");
    assert_ne!(to["window_id"], main.win.as_str(), "the dialog took it: {r}");
    let deadline = Instant::now() + glovebox_tests::DEADLINE;
    while f.windows_of(&mut c, &main.app).await.len() > 1 {
        assert!(Instant::now() < deadline, "Escape did not close the dialog: {r}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(f.text_of(&mut c, &other.app, &other.field).await, "other");
    f.stop().await;
}
