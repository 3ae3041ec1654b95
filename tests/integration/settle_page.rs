//! What a page does a little after an action is in the action's capture: changes by timers
//! (0 to 800 ms, and a timer set by a timer), a 300 ms transition and a fetch started 100 ms
//! after the click, each checked by the pixels of the capture against a later screenshot;
//! work that never ends (a clock, a ticker, an infinite animation) does not hold a settle;
//! a page with a cross-site iframe settles about as fast as with a same-site one. Where a
//! page changes on its own (a clock), what differs between two later screenshots is masked.

use std::time::Duration;

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::image::rgb_of;
use glovebox_tests::raw::Raw;
use serde_json::{json, Value};

/// The result of a call that must succeed.
async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"].clone()
}

/// The ref on the first outline line containing `needle`.
async fn ref_of(c: &mut Raw, needle: &str) -> String {
    let snap = ok(c, "browser.snapshot", json!({"disable_diffing": true})).await;
    let text = snap["result"]["snapshot"].as_str().unwrap_or_default();
    let line = text
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{text}"));
    glovebox_protocol::outline::line_ref(line).expect("ref").to_owned()
}

/// The RGB pixel at the middle of the 300 px box at the top of the viewport.
fn box_pixel(image: &Value) -> [u8; 3] {
    let (w, _, rgb) = rgb_of(image);
    let i = (150 * w + w / 2) * 3;
    [rgb[i], rgb[i + 1], rgb[i + 2]]
}

/// The share of pixels in the box's rows that differ between two images.
fn box_differs(a: &Value, b: &Value) -> f64 {
    let ((w, _, a), (_, _, b)) = (rgb_of(a), rgb_of(b));
    let n = 300 * w * 3;
    let diff = a[..n].chunks(3).zip(b[..n].chunks(3)).filter(|(x, y)| x != y).count();
    diff as f64 / (300 * w) as f64
}

const GREEN: [u8; 3] = [0, 160, 0];

/// The share of pixels in which `capture` differs from the settled screen, two screenshots
/// taken 1.5 s and 2 s after the action; pixels that differ between those two change on their
/// own (a clock, a caret) and are masked.
async fn not_final(c: &mut Raw, capture: &Value) -> f64 {
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let later = ok(c, "browser.screenshot", json!({})).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let again = ok(c, "browser.screenshot", json!({})).await;
    let (w, h, cap) = rgb_of(capture);
    let ((lw, lh, later), (_, _, again)) = (rgb_of(&later["result"]), rgb_of(&again["result"]));
    assert_eq!((w, h), (lw, lh), "the capture and the later screenshots differ in size");
    let px = |img: &[u8], i: usize| [img[i * 3], img[i * 3 + 1], img[i * 3 + 2]];
    let steady = (0..w * h).filter(|&i| px(&later, i) == px(&again, i));
    let (mut n, mut diff) = (0usize, 0usize);
    for i in steady {
        n += 1;
        diff += usize::from(px(&cap, i) != px(&later, i));
    }
    assert!(n > w * h / 2, "most of the page changes on its own");
    diff as f64 / n as f64
}

/// An outcome without its image data, for messages.
fn strip(v: &Value) -> String {
    let mut v = v.clone();
    if let Some(c) = v.get_mut("capture").and_then(Value::as_object_mut) {
        c.remove("data");
    }
    v.to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn late_changes_are_in_the_capture_and_the_wait_follows_them() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("late.html"), "capture": false}))
        .await;
    // (button, when the change is due in ms, what the settle must have covered)
    let cases = [
        ("t0", 0, "timers"),
        ("t50", 50, "timers"),
        ("t150", 150, "timers"),
        ("t400", 400, "timers"),
        ("t800", 800, "timers"),
        ("chain", 300, "timers"),
        ("css", 300, "animations"),
        ("fetch", 250, "requests"),
    ];
    for (button, due, covered) in cases {
        let reset = "box().className = ''; true";
        ok(&mut c, "browser.evaluate", json!({"script": reset, "capture": false})).await;
        let r = ref_of(&mut c, &format!("button \"{button}\"")).await;
        let r = ok(&mut c, "browser.click", json!({"ref": r})).await;
        let settle = &r["settle"];
        assert_eq!(settle["reason"], "quiet", "{button}: {}", strip(&r));
        assert!(settle[covered].as_u64().unwrap_or(0) >= 1, "{button}: {}", strip(&r));
        let waited = settle["waited_ms"].as_u64().expect("waited_ms");
        let ran = waited + r["timing"]["exec_ms"].as_f64().unwrap_or(0.0) as u64;
        assert!(ran >= due, "{button}: the wait ended before the change was due: {}", strip(&r));
        // Generous here (two cores shared by many); the bench holds it to due + 150 ms.
        assert!(waited < due + 1000, "{button}: waited {waited} ms: {}", strip(&r));
        assert_eq!(box_pixel(&r["capture"]), GREEN, "{button}: {}", strip(&r));
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let later = ok(&mut c, "browser.screenshot", json!({})).await;
        assert!(
            box_differs(&r["capture"], &later["result"]) < 0.001,
            "{button}: the capture is not final"
        );
    }
    // A click that changes nothing is back after the quiet window.
    let noop = ref_of(&mut c, "button \"noop\"").await;
    let r = ok(&mut c, "browser.click", json!({"ref": noop})).await;
    assert_eq!(r["settle"]["reason"], "quiet", "{}", strip(&r));
    assert!(r["settle"]["waited_ms"].as_u64().unwrap_or(999) < 400, "{}", strip(&r));
    assert_eq!(r["settle"]["timers"], 0, "{}", strip(&r));
    assert!(not_final(&mut c, &r["capture"]).await < 0.001, "noop: the capture is not final");
    // An infinite animation started by the click is named, not waited for.
    let reset = "box().className = ''; true";
    ok(&mut c, "browser.evaluate", json!({"script": reset, "capture": false})).await;
    let spinner = ref_of(&mut c, "button \"spinner\"").await;
    let r = ok(&mut c, "browser.click", json!({"ref": spinner})).await;
    assert_eq!(r["settle"]["reason"], "quiet", "{}", strip(&r));
    assert!(r["settle"]["waited_ms"].as_u64().unwrap_or(999) < 900, "{}", strip(&r));
    let ignored = r["settle"]["ignored"].to_string();
    assert!(ignored.contains("infinite animation spin"), "{}", strip(&r));
    assert_eq!(box_pixel(&r["capture"]), GREEN, "{}", strip(&r));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ticking_clock_does_not_hold_a_settle() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("clock.html"), "capture": false}))
        .await;
    let t150 = ref_of(&mut c, "button \"t150\"").await;
    let r = ok(&mut c, "browser.click", json!({"ref": t150})).await;
    let settle = &r["settle"];
    assert_eq!(settle["reason"], "quiet", "{}", strip(&r));
    assert!(settle["waited_ms"].as_u64().unwrap_or(9999) < 900, "{}", strip(&r));
    assert_eq!(box_pixel(&r["capture"]), GREEN, "{}", strip(&r));
    // The clock's own ticking is masked; the rest is what the screen settled to.
    assert!(not_final(&mut c, &r["capture"]).await < 0.001, "t150: the capture is not final");
    // The 100 ms ticker re-armed itself during the wait: named, not waited for (seen re-armed
    // from its own callback, or in the input's trace set by a timer's callback).
    let ignored = settle["ignored"].to_string();
    assert!(ignored.contains("setTimeout 100 ms"), "{}", strip(&r));
    // A click on nothing, with the clock going: back after the quiet window.
    let r = ok(&mut c, "browser.click", json!({"x": 600, "y": 500})).await;
    assert_eq!(r["settle"]["reason"], "quiet", "{}", strip(&r));
    // Far from the cap (1.5 s) on a loaded machine; the bench holds a no-op to 120 ms.
    assert!(r["settle"]["waited_ms"].as_u64().unwrap_or(9999) < 1000, "{}", strip(&r));
    assert!(not_final(&mut c, &r["capture"]).await < 0.001, "no-op: the capture is not final");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_with_a_cross_site_frame_settles_like_one_with_a_same_site_frame() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("refs.html"), "capture": false}))
        .await;
    let same =
        ok(&mut c, "browser.navigate", json!({"url": env.site.url("frame-same.html")})).await;
    assert_eq!(same["settle"]["reason"], "quiet", "{}", strip(&same));
    let near = same["settle"]["waited_ms"].as_u64().expect("waited_ms");
    for action in ["navigate", "reload"] {
        let r = match action {
            "navigate" => {
                let url = env.site.url("frame-far.html");
                ok(&mut c, "browser.navigate", json!({"url": url})).await
            }
            _ => ok(&mut c, "browser.reload", json!({})).await,
        };
        assert_eq!(r["settle"]["reason"], "quiet", "{action}: {}", strip(&r));
        let far = r["settle"]["waited_ms"].as_u64().expect("waited_ms");
        // The bench holds it to 1.5x; here the bound is loose, far from the 10 s cap.
        assert!(far < near.max(200) * 3 + 1000, "{action}: {far} ms vs {near} ms same-site");
        assert!(r["settle"]["requests"].as_u64().unwrap_or(0) >= 2, "{}", strip(&r));
        // The cross-site frame's content is drawn in the capture, as it is 2 s later.
        let share = not_final(&mut c, &r["capture"]).await;
        assert!(share < 0.001, "{action}: {share:.4} of the capture is not final");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_still_loading_after_two_seconds_is_named_not_waited_for() {
    // A click's cap (1.5 s) would come first: raised, so the 2 s rule is what ends the wait.
    let raise = std::sync::Arc::new(|c: &mut glovebox_daemon::state::Config| {
        c.settle.set_cap("pointer=6000").expect("a cap");
    });
    let env = BrowserEnv::with_config(json!({"rules": []}), raise).await;
    let mut c = env.daemon.actor().await;
    let url = env.site.url("frame-slow.html");
    ok(&mut c, "browser.navigate", json!({"url": url, "capture": false})).await;
    let load = ref_of(&mut c, "button \"Load frame\"").await;
    let r = ok(&mut c, "browser.click", json!({"ref": load})).await;
    assert_eq!(r["settle"]["reason"], "quiet", "{}", strip(&r));
    let waited = r["settle"]["waited_ms"].as_u64().expect("waited_ms");
    assert!((1900..4500).contains(&waited), "waited {waited} ms: {}", strip(&r));
    let loading = r["settle"]["frames_loading"].to_string();
    assert!(loading.contains("refs.html?delay=6000"), "{}", strip(&r));
}
