//! A secret typed into a desktop field (mousepad's text view, GTK 3) by `computer.type`:
//! every desktop capture paints the field over while its text holds the value, and stops
//! once it no longer does; the log never holds it.

use std::time::{Duration, Instant};

use glovebox_tests::image::rgb_of;
use glovebox_tests::raw::Raw;
use glovebox_tests::{ACTOR, DEADLINE};
use serde_json::{json, Value};

use super::{inked, line_box, ok, start, VALUE};

/// The first editable text line of `app` that has a box, waited for.
async fn text_view(c: &mut Raw, app: &str) -> String {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let snap =
            ok(c, "computer.snapshot", json!({"app_id": app, "disable_diffing": true})).await;
        let text = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
        let found = text.lines().find(|l| l.contains("text") && l.contains("editable"));
        if let Some(line) = found.filter(|l| l.contains(" @")) {
            return line.to_owned();
        }
        assert!(Instant::now() < deadline, "no editable text in:\n{text}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A screenshot of the whole screen: its result, and the ink share over the box of `line`
/// (inside its border).
async fn shot(c: &mut Raw, line: &str) -> (Value, f64) {
    let r = ok(c, "computer.screenshot", json!({})).await;
    let (w, _, rgb) = rgb_of(&r["result"]);
    let scale = r["result"]["scale"].as_f64().unwrap_or(1.0);
    let ink = inked(&rgb, w, line_box(line, 4.0, scale));
    (r["result"].clone(), ink)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_desktop_field_holding_a_secret_is_painted_over() {
    let secrets = json!([{"name": "mail", "value": VALUE, "origins": [], "apps": ["mousepad"]}]);
    let (mut d, dir) = start(&secrets, "debug");
    let mut c = Raw::connect(&d.url, Some(ACTOR)).await.expect("connect");
    c.hello(Some("agent")).await;
    let got = json!({"app": "mousepad", "launch": true, "timeout_ms": 30000});
    let got = ok(&mut c, "context.get_app", got).await;
    let app = got["result"]["app_id"].as_str().unwrap_or_else(|| panic!("{got}")).to_owned();
    let line = text_view(&mut c, &app).await;
    let view = glovebox_protocol::outline::line_ref(&line).expect("ref").to_owned();

    let (plain, before) = shot(&mut c, &line).await;
    assert!(plain.get("redacted").is_none(), "nothing to paint yet: {}", plain["redacted"]);
    assert!(before < 0.5, "the empty view is not ink: {before}");

    // Through accessibility (a ref): the answer names it, the screen paints it over.
    let typed =
        ok(&mut c, "computer.type", json!({"app_id": app, "ref": view, "secret": "mail"})).await;
    assert_eq!(typed["result"]["value"], "[secret:mail]", "{typed}");
    let (painted, ink) = shot(&mut c, &line).await;
    assert!(painted["redacted"].as_u64().is_some_and(|n| n >= 1), "{}", painted["redacted"]);
    assert!(ink > 0.99, "the field is painted over: {ink}");

    // Cleared: no longer painted.
    ok(&mut c, "computer.fill", json!({"app_id": app, "ref": view, "text": ""})).await;
    let (cleared, ink) = shot(&mut c, &line).await;
    assert!(cleared.get("redacted").is_none(), "{}", cleared["redacted"]);
    assert!(ink < 0.5, "the cleared field shows again: {ink}");

    // Real keys into the focused field (no ref): painted over too.
    ok(&mut c, "computer.type", json!({"app_id": app, "secret": "mail"})).await;
    let text = ok(&mut c, "computer.get_text", json!({"app_id": app, "ref": view})).await;
    assert_eq!(text["result"]["text"], "[secret:mail]", "typed into the view: {text}");
    let (painted, ink) = shot(&mut c, &line).await;
    assert!(painted["redacted"].as_u64().is_some_and(|n| n >= 1), "{}", painted["redacted"]);
    assert!(ink > 0.99, "the focused field is painted over: {ink}");
    let said = serde_json::to_string(&[&typed, &text, &painted]).expect("json");
    assert!(!said.contains(VALUE), "an answer holds the value");

    drop(c);
    let status = d.terminate(Duration::from_secs(15));
    assert!(status.success(), "{status}");
    let log = std::fs::read_to_string(dir.path.join("stderr")).expect("the log");
    assert!(!log.contains(VALUE), "the log holds the value");
}
