//! The desktop backend against real apps on a private embedded desktop: AT-SPI snapshots and
//! refs, semantic and real input, keys, the clipboard and windows. Each test has its own Xvfb.

use std::time::{Duration, Instant};

use glovebox_tests::desktop::{find_line, ok, DesktopFixture};
use glovebox_tests::raw::code;
use glovebox_tests::DEADLINE;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn appfinder_fill_filters_and_right_click_opens_a_menu() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let r = c
        .call(
            "context.get_app",
            json!({"app": "xfce4-appfinder", "launch": true, "timeout_ms": 30000}),
        )
        .await;
    let got = ok(&r);
    assert_eq!(got["accessible"], true, "{got}");
    let app = got["app_id"].as_str().expect("app_id").to_owned();
    assert!(got["snapshot"]["snapshot_id"].is_string(), "{got}");

    let (entry, line) = f.wait_line(&mut c, &app, &["text", "editable"]).await;
    assert!(line.contains('@'), "the entry has a box: {line}");
    let r = ok(&c.call("computer.fill", json!({"ref": entry, "text": "term"})).await);
    assert_eq!(r["via"], "accessibility:set_text_contents", "{r}");
    assert_eq!(r["actual_dispatch"], "background");
    assert_eq!(r["value"], "term");

    let got_text = ok(&c.call("computer.get_text", json!({"ref": entry})).await);
    assert_eq!(got_text["text"], "term");
    // The list filters: XTerm stays, Mousepad goes.
    let deadline = Instant::now() + DEADLINE;
    loop {
        let snap = ok(&c
            .call(
                "computer.snapshot",
                json!({"app_id": app, "disable_diffing": true, "limit": 5000}),
            )
            .await);
        let text = snap["snapshot"].as_str().unwrap_or_default();
        if text.contains("\"XTerm") && !text.contains("\"Mousepad") {
            break;
        }
        assert!(Instant::now() < deadline, "the list did not filter:\n{text}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Right-click by ref: pointer replay at the box centre opens the context menu.
    let r = ok(&c.call("computer.click", json!({"ref": entry, "button": "right"})).await);
    assert_eq!(r["via"], "xtest", "{r}");
    assert_eq!(r["actual_dispatch"], "foreground");
    let w = ok(&c
        .call("computer.wait", json!({"app_id": app, "until": "element_appears", "query": "menu item Select All", "timeout": 10000}))
        .await);
    assert_eq!(w["happened"], true, "{w}");
    let (_, menu) = f.wait_line(&mut c, &app, &["menu item", "Select All"]).await;
    assert!(menu.contains("menu item"), "{menu}");
    ok(&c.call("computer.key", json!({"key": "Escape"})).await);
    let w = ok(&c
        .call("computer.wait", json!({"app_id": app, "until": "element_disappears", "query": "menu item Select All", "timeout": 10000}))
        .await);
    assert_eq!(w["happened"], true, "Escape closed the menu: {w}");

    let r = ok(&c.call("computer.fill", json!({"ref": entry, "text": ""})).await);
    assert_eq!(r["value"], "");

    // Double-click a visible application row: the app starts and shows up on the bus.
    let (row, line) = f.wait_line(&mut c, &app, &["table cell \"Mousepad", "@"]).await;
    let r = ok(&c.call("computer.double_click", json!({"app_id": app, "ref": row})).await);
    assert_eq!(r["via"], "xtest", "{line}: {r}");
    let deadline = Instant::now() + DEADLINE;
    loop {
        let apps = ok(&c.call("context.list_apps", json!({})).await);
        let wins = ok(&c.call("context.list_windows", json!({})).await);
        let app_up =
            apps["apps"].as_array().is_some_and(|a| a.iter().any(|a| a["name"] == "mousepad"));
        let win_up = wins["windows"].as_array().is_some_and(|w| {
            w.iter().any(|w| w["title"].as_str().is_some_and(|t| t.contains("Mousepad")))
        });
        if app_up && win_up {
            break;
        }
        assert!(Instant::now() < deadline, "mousepad never showed up: {apps} {wins}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pointer_actions_on_boxless_elements_are_no_geometry() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let r = c
        .call(
            "context.get_app",
            json!({"app": "xfce4-appfinder", "launch": true, "timeout_ms": 30000}),
        )
        .await;
    let app = ok(&r)["app_id"].as_str().expect("app_id").to_owned();
    let (cell, line) = f.wait_line(&mut c, &app, &["(no box)", "table cell"]).await;
    for (action, extra) in
        [("computer.double_click", json!({})), ("computer.click", json!({"button": "right"}))]
    {
        let mut params = json!({"ref": cell});
        params.as_object_mut().expect("obj").extend(extra.as_object().cloned().unwrap_or_default());
        let r = c.call(action, params).await;
        assert_eq!(code(&r), "NO_GEOMETRY", "{action} on {line}: {r}");
    }
    let snap = ok(&c.call("computer.snapshot", json!({"app_id": app})).await);
    assert_eq!(snap["mode"], "incremental");
    assert_eq!(snap["added"], 0, "{snap}");
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entry_values_selection_paste_and_refusals() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["zenity", "--entry", "--text", "Name"]);
    let app = f.wait_app(&mut c, pid).await;
    ok(&c.call("computer.clipboard_set", json!({"text": "user clipboard"})).await);

    let (entry, _) = f.wait_line(&mut c, &app, &["text", "editable"]).await;
    let r = ok(&c
        .call("computer.set_value", json!({"app_id": app, "ref": entry, "value": "set-value-text"}))
        .await);
    assert_eq!(r["value"], "set-value-text", "{r}");
    let r = ok(&c
        .call("computer.select_text", json!({"app_id": app, "ref": entry, "text": "value"}))
        .await);
    assert_eq!((r["start"].as_i64(), r["end"].as_i64()), (Some(4), Some(9)), "{r}");
    let t = ok(&c.call("computer.get_text", json!({"app_id": app, "ref": entry})).await);
    assert_eq!(t["selection"], json!([4, 9]), "{t}");

    // Type at the caret, through EditableText.
    ok(&c
        .call(
            "computer.select_text",
            json!({"app_id": app, "ref": entry, "text": "set", "selection_type": "cursor_after"}),
        )
        .await);
    let r = ok(&c.call("computer.type", json!({"app_id": app, "ref": entry, "text": "☃"})).await);
    assert_eq!(r["via"], "accessibility:insert_text", "{r}");
    let t = ok(&c.call("computer.get_text", json!({"app_id": app, "ref": entry})).await);
    assert_eq!(t["text"], "set☃-value-text", "{t}");

    ok(&c.call("computer.fill", json!({"app_id": app, "ref": entry, "text": ""})).await);
    let r = ok(&c
        .call("computer.paste", json!({"app_id": app, "ref": entry, "text": "粘贴 pasted 🚀"}))
        .await);
    assert_eq!(r["verified"], true, "{r}");
    assert_eq!(r["read_by_app"], true, "the app fetched the text from our selection: {r}");
    assert_eq!(r["clipboard_restored"], true, "{r}");
    let t = ok(&c.call("computer.get_text", json!({"app_id": app, "ref": entry})).await);
    assert_eq!(t["text"], "粘贴 pasted 🚀");
    // Without a ref the paste goes to the focused widget; the restore waits for the app to
    // have read the selection, not a fixed pause.
    ok(&c.call("computer.fill", json!({"app_id": app, "ref": entry, "text": ""})).await);
    let r = ok(&c.call("computer.paste", json!({"app_id": app, "text": "no ref"})).await);
    assert_eq!(r["read_by_app"], true, "{r}");
    assert_eq!(r["clipboard_restored"], true, "{r}");
    let t = ok(&c.call("computer.get_text", json!({"app_id": app, "ref": entry})).await);
    assert_eq!(t["text"], "no ref");
    ok(&c
        .call("computer.fill", json!({"app_id": app, "ref": entry, "text": "粘贴 pasted 🚀"}))
        .await);
    let clip = ok(&c.call("computer.clipboard_get", json!({})).await);
    assert_eq!(clip["text"], "user clipboard");

    let r = c
        .call(
            "computer.secondary_action",
            json!({"app_id": app, "ref": entry, "name": "no-such-action"}),
        )
        .await;
    assert_eq!(code(&r), "UNSUPPORTED", "{r}");
    assert!(r["error"]["data"]["details"]["available"].is_array(), "{r}");

    let snap =
        ok(&c.call("computer.snapshot", json!({"app_id": app, "disable_diffing": true})).await);
    let text = snap["snapshot"].as_str().unwrap_or_default();
    let (button, _) = find_line(text, &["push button", "OK"]).expect("OK button");
    let r = c.call("computer.set_value", json!({"app_id": app, "ref": button, "value": "x"})).await;
    assert_eq!(code(&r), "NOT_EDITABLE", "{r}");
    let available = &r["error"]["data"]["details"]["available"];
    assert!(
        available.as_array().is_some_and(|a| a
            .iter()
            .any(|x| x.as_str().is_some_and(|x| x.eq_ignore_ascii_case("click")))),
        "{r}"
    );
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apps_are_found_ambiguous_or_inaccessible_and_refs_are_per_session() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let a = f.launch(&["mousepad", "--disable-server"]);
    let b = f.launch(&["mousepad", "--disable-server"]);
    let (ida, idb) = (f.wait_app(&mut c, a).await, f.wait_app(&mut c, b).await);

    let r = c.call("context.get_app", json!({"app": "mousepad"})).await;
    assert_eq!(code(&r), "AMBIGUOUS_TARGET", "{r}");
    let ids: Vec<String> = r["error"]["data"]["details"]["candidates"]
        .as_array()
        .map(|c| c.iter().filter_map(|x| x["app_id"].as_str().map(String::from)).collect())
        .unwrap_or_default();
    assert!(ids.contains(&ida) && ids.contains(&idb), "{r}");

    let t = Instant::now();
    let got = ok(&c.call("context.get_app", json!({"app": ida})).await);
    assert_eq!(got["app_id"], ida.as_str());
    eprintln!("get_app + snapshot of mousepad: {:?}", t.elapsed());
    let t = Instant::now();
    let snap =
        ok(&c.call("computer.snapshot", json!({"app_id": ida, "disable_diffing": true})).await);
    eprintln!("snapshot of mousepad: {:?} ({} refs)", t.elapsed(), snap["ref_count"]);

    let r = c.call("context.get_app", json!({"app": "no-such-app", "launch": true})).await;
    assert_eq!(code(&r), "TARGET_NOT_FOUND", "{r}");

    let r = ok(&c
        .call("context.get_app", json!({"app": "xterm", "launch": true, "timeout_ms": 30000}))
        .await);
    assert_eq!(r["accessible"], false, "{r}");
    assert!(r["pid"].as_u64().is_some(), "{r}");
    let w = ok(&c
        .call("computer.wait", json!({"until": "window_opens", "query": "xterm", "timeout": 10000}))
        .await);
    assert_eq!(w["happened"], true, "{w}");

    // Another session's snapshots leave this session's refs valid.
    let (text_ref, _) = f.wait_line(&mut c, &ida, &["text", "editable"]).await;
    let mut other = glovebox_tests::Raw::connect(&f.daemon.url(), Some(glovebox_tests::ACTOR))
        .await
        .expect("connect");
    other.hello(Some("other")).await;
    for _ in 0..2 {
        ok(&other.call("computer.snapshot", json!({"app_id": ida, "disable_diffing": true})).await);
    }
    let r = ok(&c.call("computer.get_text", json!({"app_id": ida, "ref": text_ref})).await);
    assert!(r["text"].is_string(), "{r}");
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unicode_typed_through_editable_text_and_xtest_reads_back() {
    // Ends with characters the keymap lacks: their keycodes are released right after the last
    // keystroke, which must still come out right (the app reads the keymap lazily).
    const TEXT: &str = "Grüße, 你好, 🚀 ~!@#$%^&*()_+{}|:\"<>?ßü你";
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["mousepad", "--disable-server"]);
    let app = f.wait_app(&mut c, pid).await;
    let (view, _) = f.wait_line(&mut c, &app, &["text", "editable"]).await;

    let r = ok(&c.call("computer.type", json!({"app_id": app, "ref": view, "text": TEXT})).await);
    assert_eq!(r["via"], "accessibility:insert_text", "{r}");
    let t = ok(&c.call("computer.get_text", json!({"app_id": app, "ref": view})).await);
    assert_eq!(t["text"], TEXT);

    ok(&c.call("computer.fill", json!({"app_id": app, "ref": view, "text": ""})).await);
    let r = ok(&c
        .call(
            "computer.type",
            json!({"app_id": app, "ref": view, "text": TEXT, "dispatch": "foreground"}),
        )
        .await);
    assert_eq!(r["via"], "xtest", "{r}");
    let deadline = Instant::now() + DEADLINE;
    loop {
        let t = ok(&c.call("computer.get_text", json!({"app_id": app, "ref": view})).await);
        if t["text"] == TEXT {
            break;
        }
        assert!(Instant::now() < deadline, "typed text reads back as {}", t["text"]);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Typing with the window_id of a minimized window brings it back, active, and types there.
    let wins = ok(&c.call("context.list_windows", json!({})).await);
    let win = wins["windows"]
        .as_array()
        .and_then(|w| w.iter().find(|w| w["pid"] == pid))
        .cloned()
        .expect("window");
    let id = win["window_id"].as_str().expect("id").to_owned();
    let r = ok(&c.call("computer.window", json!({"window_id": id, "operation": "minimize"})).await);
    assert_eq!(r["window"]["minimized"], true, "{r}");
    let r = ok(&c.call("computer.type", json!({"window_id": id, "text": "here"})).await);
    assert_eq!(r["delivered_to"]["window_id"], id.as_str(), "{r}");
    let deadline = Instant::now() + DEADLINE;
    loop {
        let t = ok(&c.call("computer.get_text", json!({"app_id": app, "ref": view})).await);
        if t["text"] == format!("{TEXT}here") {
            break;
        }
        assert!(Instant::now() < deadline, "typed text reads back as {}", t["text"]);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let wins = ok(&c.call("context.list_windows", json!({})).await);
    let win = wins["windows"]
        .as_array()
        .and_then(|w| w.iter().find(|w| w["window_id"] == id.as_str()))
        .cloned();
    assert_eq!(
        win.as_ref().map(|w| (w["active"].clone(), w["minimized"].clone())),
        Some((json!(true), json!(false))),
        "{wins}"
    );

    let r = ok(&c.call("context.focus_window", json!({"window_id": id})).await);
    assert_eq!(r["focus_verified"], true, "{r}");
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn screenshots_scale_truthfully_and_held_keys_are_tracked() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let r = ok(&c
        .call("computer.screenshot", json!({"max_width": 640, "format": "jpeg", "quality": 60}))
        .await);
    assert_eq!(r["mime"], "image/jpeg", "{}", r.to_string().chars().take(400).collect::<String>());
    assert_eq!(r["captured_via"], "mit-shm");
    assert_eq!(r["width"], 640);
    let scale = r["scale"].as_f64().expect("scale");
    assert!(scale < 1.0 && scale > 0.0, "{r}");
    let r = ok(&c
        .call(
            "computer.screenshot",
            json!({"region": {"x": 10, "y": 10, "width": 100, "height": 50}, "format": "webp"}),
        )
        .await);
    assert_eq!(
        (r["width"].as_u64(), r["height"].as_u64(), r["scale"].as_f64()),
        (Some(100), Some(50), Some(1.0))
    );

    let r = ok(&c.call("computer.keydown", json!({"key": "Shift"})).await);
    assert_eq!(r["held"], json!(["Shift"]));
    let r = ok(&c.call("computer.keydown", json!({"key": "Control"})).await);
    assert_eq!(r["held"], json!(["Shift", "Control"]));
    let r = ok(&c.call("computer.keyup", json!({"key": "Control"})).await);
    assert_eq!(r["held"], json!(["Shift"]));
    // A failing call releases (and forgets) what the session holds.
    let r = c.call("computer.secondary_action", json!({"ref": "e999", "name": "x"})).await;
    assert_eq!(code(&r), "NO_SNAPSHOT", "{r}");
    let r = ok(&c.call("computer.keydown", json!({"key": "Alt"})).await);
    assert_eq!(r["held"], json!(["Alt"]), "Shift was released by the failure");
    let r = ok(&c.call("computer.keyup", json!({"key": "Alt"})).await);
    assert_eq!(r["held"], json!([]));
    let r = ok(&c.call("computer.mouse_down", json!({"x": 5, "y": 5, "button": "middle"})).await);
    assert_eq!(r["buttons_held"], json!([2]));
    let r = ok(&c.call("computer.mouse_up", json!({"button": "middle"})).await);
    assert_eq!(r["buttons_held"], json!([]));
    let r = ok(&c.call("computer.key", json!({"key": "Control+Shift+F24"})).await);
    assert_eq!(r["via"], "xtest");

    // A dropped connection releases (and forgets) the keys its session held.
    let url = f.daemon.url();
    let mut a =
        glovebox_tests::Raw::connect(&url, Some(glovebox_tests::ACTOR)).await.expect("connect");
    a.hello(Some("holder")).await;
    let r = ok(&a.call("computer.keydown", json!({"key": "Shift"})).await);
    assert_eq!(r["held"], json!(["Shift"]));
    drop(a);
    let deadline = Instant::now() + DEADLINE;
    loop {
        let mut b =
            glovebox_tests::Raw::connect(&url, Some(glovebox_tests::ACTOR)).await.expect("connect");
        let hello = b.call("session.hello", json!({"protocol": 1, "session": "holder"})).await;
        if hello.get("result").is_some() {
            let r = ok(&b.call("computer.keydown", json!({"key": "Alt"})).await);
            ok(&b.call("computer.keyup", json!({"key": "Alt"})).await);
            if r["held"] == json!(["Alt"]) {
                break;
            }
        }
        assert!(Instant::now() < deadline, "Shift stayed held after the disconnect: {hello}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let p = ok(&c.call("computer.probe", json!({})).await);
    assert_eq!(p["screenshot"]["available"], true, "{p}");
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gtk4_boxes_are_screen_coordinates() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["gnome-calculator"]);
    let app = f.wait_app(&mut c, pid).await;
    let (_, line) = f.wait_line(&mut c, &app, &["button \"Undo", "@"]).await;
    let wins = ok(&c.call("context.list_windows", json!({"app_id": app})).await);
    let win = wins["windows"][0]["client"].clone();
    let (wx, wy) = (win["x"].as_i64().expect("x"), win["y"].as_i64().expect("y"));
    let at = line.split('@').nth(1).and_then(|s| s.split(' ').next()).expect("box");
    let (bx, by) = at
        .split_once(',')
        .map(|(x, y)| (x.parse::<i64>().expect("x"), y.parse::<i64>().expect("y")))
        .expect("x,y");
    assert!(wx > 0 || wy > 0, "the window is not at the origin: {wins}");
    assert!(bx >= wx && by >= wy, "button {line} lies inside the window at {wx},{wy}");
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diffed_snapshots_see_text_changes_and_window_moves() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["mousepad", "--disable-server"]);
    let app = f.wait_app(&mut c, pid).await;
    let (view, _) = f.wait_line(&mut c, &app, &["text", "editable"]).await;
    let params = json!({"app_id": app, "limit": 5000});

    ok(&c.call("computer.snapshot", params.clone()).await);
    let same = ok(&c.call("computer.snapshot", params.clone()).await);
    assert_eq!(same["mode"], "incremental", "{same}");
    assert_eq!((same["added"].as_u64(), same["updated"].as_u64()), (Some(0), Some(0)), "{same}");

    // A text change is an event from the app: the next diffed snapshot walks again.
    ok(&c.call("computer.fill", json!({"app_id": app, "ref": view, "text": "hello"})).await);
    let changed = ok(&c.call("computer.snapshot", params.clone()).await);
    let text = changed["snapshot"].as_str().unwrap_or_default();
    assert!(text.contains("value=\"hello\""), "the new text shows: {changed}");

    // A moved window sends no event, but every box moves with it.
    let wins = ok(&c.call("context.list_windows", json!({"app_id": app})).await);
    let id = wins["windows"][0]["window_id"].as_str().expect("window id").to_owned();
    let before = find_line(text, &[&format!("[{view}]")]).expect("view line").1;
    ok(&c
        .call("computer.window", json!({"window_id": id, "operation": "move", "x": 137, "y": 91}))
        .await);
    let deadline = Instant::now() + DEADLINE;
    loop {
        let moved = ok(&c.call("computer.snapshot", params.clone()).await);
        let text = moved["snapshot"].as_str().unwrap_or_default();
        if let Some((_, after)) = find_line(text, &[&format!("[{view}]")]) {
            if after != before {
                break;
            }
        }
        assert!(Instant::now() < deadline, "the box never moved from {before}: {moved}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    f.stop().await;
}
