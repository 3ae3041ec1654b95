//! A secret in a cross-site frame (another renderer process draws it) is painted over in
//! captures; a page that goes to another origin is said to carry a secret only while a
//! field of it still held the value.

use std::time::Instant;

use glovebox_tests::browser::Site;
use glovebox_tests::image::rgb_of;
use glovebox_tests::raw::Raw;
use glovebox_tests::{ACTOR, DEADLINE};
use serde_json::{json, Value};

use super::{inked, line_box, ok, ref_of, start, VALUE};

/// The first line of a full snapshot holding `needle`, waited for (a frame loads late).
async fn line_with(c: &mut Raw, needle: &str) -> String {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let snap = ok(c, "browser.snapshot", json!({"disable_diffing": true})).await;
        let text = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
        if let Some(line) = text.lines().find(|l| l.contains(needle) && l.contains(" @")) {
            return line.to_owned();
        }
        assert!(Instant::now() < deadline, "no line with {needle:?} in:\n{text}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

fn full() -> Value {
    json!({"disable_diffing": true})
}

fn ref_on(line: &str) -> String {
    glovebox_protocol::outline::line_ref(line).expect("ref").to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cross_site_frame_is_painted_and_leaving_counts_only_a_held_value() {
    let site = Site::start().await;
    let other = site.other_host("");
    let secrets = json!([{"name": "github", "value": VALUE, "origins": [site.url(""), other]}]);
    let (mut d, _dir) = start(&secrets, "debug");
    let mut c = Raw::connect(&d.url, Some(ACTOR)).await.expect("connect");
    c.hello(Some("agent")).await;

    // The sign-in form sits in a frame of the other site.
    ok(&mut c, "browser.navigate", json!({"url": site.url("login-frame.html")})).await;
    let pass_line = line_with(&mut c, "\"Password\"").await;
    let user_line = line_with(&mut c, "\"User\"").await;
    let filled =
        ok(&mut c, "browser.fill", json!({"ref": ref_on(&pass_line), "secret": "github"})).await;
    assert_eq!(filled["result"]["value"], "[secret:github]", "{filled}");
    assert_eq!(filled["result"]["verified"], true, "{filled}");
    ok(&mut c, "browser.fill", json!({"ref": ref_on(&user_line), "text": "alice"})).await;

    let shot = ok(&mut c, "browser.screenshot", json!({})).await;
    let shot = &shot["result"];
    assert!(shot["redacted"].as_u64().is_some_and(|n| n >= 1), "painted: {}", shot["redacted"]);
    let (w, _, rgb) = rgb_of(shot);
    let scale = shot["scale"].as_f64().unwrap_or(1.0);
    let pass_box = line_box(&pass_line, 4.0, scale);
    let user_box = line_box(&user_line, 4.0, scale);
    assert!(inked(&rgb, w, pass_box) > 0.99, "the frame's secret field is painted over");
    assert!(inked(&rgb, w, user_box) < 0.5, "and its plain field is not");
    let capture = &filled["capture"];
    assert!(capture["redacted"].as_u64().is_some_and(|n| n >= 1), "the fill's capture too");
    assert!(inked(&rgb_of(capture).2, w, pass_box) > 0.99, "the fill's capture paints it");

    // Typed, then cleared by the page: going elsewhere carries nothing.
    ok(&mut c, "browser.navigate", json!({"url": site.url("login.html")})).await;
    let pass = ref_of(&ok(&mut c, "browser.snapshot", full()).await, "\"Password\"");
    ok(&mut c, "browser.fill", json!({"ref": pass, "secret": "github"})).await;
    let clear = "document.querySelector('[name=pass]').value = ''; 'cleared'";
    ok(&mut c, "browser.evaluate", json!({"script": clear})).await;
    let away = ok(&mut c, "browser.navigate", json!({"url": site.other_host("refs.html")})).await;
    let said = &away["result"];
    assert!(said.get("secrets_left").is_none(), "nothing left with it: {said}");

    // Typed and left in: the navigation to another origin carries it, and says it checked.
    ok(&mut c, "browser.navigate", json!({"url": site.url("login.html")})).await;
    let pass = ref_of(&ok(&mut c, "browser.snapshot", full()).await, "\"Password\"");
    ok(&mut c, "browser.fill", json!({"ref": pass, "secret": "github"})).await;
    let away = ok(&mut c, "browser.navigate", json!({"url": site.other_host("refs.html")})).await;
    let left: &Value = &away["result"]["secrets_left"][0];
    assert_eq!(left["secret"], "github", "{left}");
    assert_eq!(left["held"], true, "{left}");
    assert!(left.get("unchecked").is_none(), "{left}");
    assert!(!away.to_string().contains(VALUE), "the answer holds the value");

    drop(c);
    let status = d.terminate(std::time::Duration::from_secs(15));
    assert!(status.success(), "{status}");
}
