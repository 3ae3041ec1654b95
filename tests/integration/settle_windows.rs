//! Windows an action opens or closes on the real desktop: Ctrl+S in mousepad comes back with
//! the Save dialog in its capture (it maps a while after the key), and Escape in the dialog,
//! then Return in it (the file is saved), come back with it gone, each checked by the pixels
//! of the dialog's box against screenshots before and after.

use std::time::{Duration, Instant};

use glovebox_tests::desktop::{ok, DesktopFixture};
use glovebox_tests::raw::Raw;
use glovebox_tests::DEADLINE;
use serde_json::{json, Value};

/// The share of pixels inside `frame` ({x, y, width, height}) that differ between two images.
fn differing(a: &Value, b: &Value, frame: &Value) -> f64 {
    let ((w, h, a), (_, _, b)) =
        (glovebox_tests::image::rgb_of(a), glovebox_tests::image::rgb_of(b));
    let n = |k: &str| frame[k].as_i64().unwrap_or(0).max(0) as usize;
    let (x0, y0) = (n("x").min(w), n("y").min(h));
    let (x1, y1) = ((x0 + n("width")).min(w), (y0 + n("height")).min(h));
    let mut diff = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            let i = (y * w + x) * 3;
            diff += usize::from(a[i..i + 3] != b[i..i + 3]);
        }
    }
    diff as f64 / ((x1 - x0) * (y1 - y0)).max(1) as f64
}

/// The outcome of a call that must succeed, its `settle` checked quiet.
async fn settled(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params).await;
    let out = r["result"].clone();
    assert!(out.is_object(), "{method} failed: {r}");
    let mut shown = out.clone();
    shown["capture"]["data"] = json!("...");
    assert_eq!(out["settle"]["reason"], "quiet", "{method}: {shown}");
    out
}

/// The app's window whose title has `title`, once listed.
async fn window_titled(f: &DesktopFixture, c: &mut Raw, app: &str, title: &str) -> Value {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let wins = f.windows_of(c, app).await;
        if let Some(w) =
            wins.iter().find(|w| w["title"].as_str().is_some_and(|t| t.contains(title)))
        {
            return w.clone();
        }
        assert!(Instant::now() < deadline, "no window titled {title:?}: {wins:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shortcut_brings_its_dialog_into_the_capture_and_escape_or_return_takes_it_out() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["mousepad"]);
    let app = f.wait_app(&mut c, pid).await;
    f.wait_line(&mut c, &app, &["text", "editable"]).await;
    let dir = std::env::temp_dir().join(format!("glovebox-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory to save in");
    let path = dir.join("saved.txt");
    // Twice: the second dialog comes up faster (GTK keeps what it loaded), and Return saves.
    for close in ["Escape", "Return"] {
        let before = ok(&c.call("computer.screenshot", json!({})).await);
        let opened = settled(&mut c, "computer.key", json!({"key": "ctrl+s", "app_id": app})).await;
        assert!(opened["settle"]["windows"].as_u64().unwrap_or(0) >= 1, "{}", opened["settle"]);
        let dialog = window_titled(&f, &mut c, &app, "Save").await;
        // The settle names the window it waited for, as the text an MCP host reads does.
        let named = opened["settle"]["windows_opened"].as_array().cloned().unwrap_or_default();
        assert!(
            named.iter().any(|w| w["window_id"] == dialog["window_id"]
                && w["title"].as_str().is_some_and(|t| t.contains("Save"))),
            "{}",
            opened["settle"]
        );
        let frame = &dialog["frame"];
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let later = ok(&c.call("computer.screenshot", json!({})).await);
        let capture = &opened["capture"];
        // The dialog is mostly white over a white text area: a few percent of its box change.
        let shown = differing(&before, capture, frame);
        assert!(shown > 0.03, "the capture lacks the dialog {frame}: {shown}");
        // A blinking caret may differ.
        let late = differing(capture, &later, frame);
        assert!(late < 0.01, "the capture is not final {frame}: {late}");

        if close == "Return" {
            // The name field has the focus: a whole path in it names the folder too.
            let name = path.to_str().expect("a UTF-8 path");
            let id = dialog["window_id"].as_str().expect("the dialog's window_id");
            ok(&c.call("computer.key", json!({"key": "ctrl+a", "window_id": id})).await);
            ok(&c.call("computer.type", json!({"text": name, "window_id": id})).await);
        }
        let closed = settled(&mut c, "computer.key", json!({"key": close, "app_id": app})).await;
        assert!(closed["settle"]["windows"].as_u64().unwrap_or(0) >= 1, "{}", closed["settle"]);
        let gone_named = closed["settle"]["windows_closed"].as_array().cloned().unwrap_or_default();
        assert!(
            gone_named.iter().any(|w| w["window_id"] == dialog["window_id"]),
            "{}",
            closed["settle"]
        );
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let after = ok(&c.call("computer.screenshot", json!({})).await);
        let capture = &closed["capture"];
        let gone = differing(capture, &later, frame);
        assert!(gone > 0.03, "{close}: the capture still has the dialog: {gone}");
        let late = differing(capture, &after, frame);
        assert!(late < 0.01, "{close}: the capture is not final: {late}");
        let wins = f.windows_of(&mut c, &app).await;
        let open = wins.iter().any(|w| w["title"].as_str().is_some_and(|t| t.contains("Save")));
        assert!(!open, "{close} left the dialog open: {wins:?}");
    }
    assert!(path.exists(), "Return did not save {}", path.display());
    let _ = std::fs::remove_dir_all(&dir);
    f.stop().await;
}
