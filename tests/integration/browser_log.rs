//! A normal browser session leaves no WARN from chromiumoxide in the daemon's log: the events
//! of this Chromium the crate cannot read are read by the daemon (`browser/cdp/handler.rs`),
//! not shown to every operator as warnings (issue 34).

use glovebox_tests::binary::Running;
use glovebox_tests::browser::Site;
use glovebox_tests::raw::Raw;
use glovebox_tests::ACTOR;
use serde_json::{json, Value};

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"].clone()
}

/// The ref on the first outline line containing `needle`.
fn ref_of(snapshot: &Value, needle: &str) -> String {
    let text = snapshot["result"]["snapshot"].as_str().unwrap_or_default();
    let line = text
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{text}"));
    glovebox_protocol::outline::line_ref(line).expect("ref").to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_browser_session_logs_no_warning_from_chromiumoxide() {
    let site = Site::start().await;
    let dir = glovebox_tests::TempDir::new("browser-log");
    let log_path = dir.path.join("stderr");
    let mut d = Running::start_logged(
        &["--desktop", "embedded"],
        &[("GLOVEBOX_TOKEN", ACTOR), ("GLOVEBOX_LOG", "debug")],
        &log_path,
    );
    let mut c = Raw::connect(&d.url, Some(ACTOR)).await.expect("connect");
    c.hello(Some("agent")).await;
    ok(&mut c, "browser.navigate", json!({"url": site.url("form.html")})).await;
    let snap = ok(&mut c, "browser.snapshot", json!({})).await;
    let button = ref_of(&snap, "\"Double\"");
    ok(&mut c, "browser.click", json!({"ref": button})).await;
    ok(&mut c, "browser.navigate", json!({"url": site.url("pages.html")})).await;
    ok(&mut c, "browser.snapshot", json!({})).await;
    drop(c);
    let status = d.terminate(glovebox_tests::DEADLINE);
    assert!(status.success(), "the daemon stopped cleanly: {status}");

    let log = std::fs::read_to_string(&log_path).expect("the log");
    assert!(log.contains("glovebox_daemon::browser"), "the log is the session's:\n{log}");
    let warned: Vec<&str> =
        log.lines().filter(|l| l.contains("WARN") && l.contains("chromiumoxide")).collect();
    assert!(
        warned.is_empty(),
        "{} WARN lines from chromiumoxide, e.g. {:?}",
        warned.len(),
        warned.first()
    );
    // What the crate could not read is still told, once per event method, at debug level.
    let unread: Vec<&str> =
        log.lines().filter(|l| l.contains("chromiumoxide cannot read")).collect();
    eprintln!("events chromiumoxide cannot read: {unread:#?}");
}
