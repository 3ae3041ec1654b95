//! Faults: when the X server goes away, desktop calls answer `BACKEND_UNAVAILABLE` with a
//! remedy and the daemon keeps serving everything else; when the AT-SPI bus dies and comes
//! back, the daemon reconnects by itself; an app that stops answering or dies during a
//! snapshot leaves a partial snapshot with warnings; a subscriber that stops reading slows
//! nobody down; a tab whose renderer dies answers at once, and a reload brings it back.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::CrashParams;
use glovebox_tests::desktop::{ok, DesktopFixture};
use glovebox_tests::raw::code;
use glovebox_tests::DEADLINE;
use serde_json::{json, Value};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vanished_display_is_backend_unavailable() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    ok(&c.call("computer.screenshot", json!({"max_width": 320})).await);
    let xvfb = *f.env.started_pids().first().expect("the X server's pid");
    f.supervisor.stop_pid(xvfb).expect("stop Xvfb");
    for (method, params) in [
        ("computer.screenshot", json!({})),
        ("computer.click", json!({"x": 10, "y": 10})),
        ("context.list_windows", json!({})),
    ] {
        let r = c.call(method, params).await;
        assert_eq!(code(&r), "BACKEND_UNAVAILABLE", "{method}: {r}");
        let remedy = r["error"]["data"]["details"]["remedy"].as_str().unwrap_or_default();
        assert!(!remedy.is_empty(), "{method} names a remedy: {r}");
    }
    // The rest of the daemon still answers.
    let status = c.call("session.status", json!({})).await;
    assert!(status["result"]["session_id"].is_string(), "{status}");
    f.stop().await;
}

/// A subscriber that stops reading its socket slows nobody down (its own queue is bounded:
/// past it the oldest events are dropped and counted in `dropped`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_tab_answers_at_once_and_a_reload_revives_it() {
    let env = glovebox_tests::browser::BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    let nav = c.call("browser.navigate", json!({"url": env.site.url("form.html")})).await;
    ok(&nav);
    let target = &nav["result"]["target"];
    let id = |k: &str| target[k].as_str().expect("the target names it").to_owned();
    let (b, t) = (id("browser_id"), id("tab_id"));
    let tab = env.browsers.tab(&b, &t).await.expect("the tab");
    // Page.crash never answers: its renderer is gone.
    let _ = tokio::time::timeout(Duration::from_secs(3), tab.run(CrashParams::default())).await;
    let (r, took) = timed(c.call("browser.snapshot", json!({}))).await;
    assert_eq!(code(&r), "ACTION_FAILED", "{r}");
    assert!(r.to_string().contains("crashed") && r.to_string().contains("browser.reload"), "{r}");
    assert!(took < Duration::from_secs(5), "a dead tab answered after {took:?}");
    ok(&c.call("browser.reload", json!({})).await);
    let snap = c.call("browser.snapshot", json!({})).await;
    ok(&snap);
    assert!(snap.to_string().contains("Test form"), "{snap}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_blocks_nobody() {
    let options =
        glovebox_tests::Options { max_ops_per_sec: Some(1_000_000), ..Default::default() };
    let d = glovebox_tests::InProcess::with(options).await;
    let mut slow =
        glovebox_tests::Raw::connect(&d.url(), Some(glovebox_tests::ACTOR)).await.expect("connect");
    slow.hello(Some("slow")).await;
    let sub = slow.call("events.subscribe", json!({})).await;
    assert!(sub["result"].is_string(), "{sub}");
    // From here on `slow` reads nothing while every op below publishes two events to it.
    let mut fast = d.actor().await;
    let mut worst = std::time::Duration::ZERO;
    let started = std::time::Instant::now();
    for _ in 0..3000 {
        let t = std::time::Instant::now();
        let r = fast.call("computer.wait", json!({"duration_ms": 0})).await;
        assert!(r["result"].is_object(), "{r}");
        worst = worst.max(t.elapsed());
    }
    assert!(
        started.elapsed() < glovebox_tests::DEADLINE,
        "3000 calls took {:?}",
        started.elapsed()
    );
    assert!(worst < std::time::Duration::from_secs(1), "one call took {worst:?}");
    // The slow subscriber, read at last, still gets well-formed events and answers.
    let n = slow.notification("events.event").await;
    assert!(n["params"]["result"]["seq"].as_u64().is_some(), "{n}");
    let status = slow.call("session.status", json!({})).await;
    assert!(
        status["result"]["session_id"].as_str().is_some_and(|s| s.starts_with("slow@")),
        "{status}"
    );
    d.stop().await;
}

/// The AT-SPI bus dies and is started again: while it is down desktop calls answer
/// `BACKEND_UNAVAILABLE` at once with a remedy; once it is back the daemon has reconnected by
/// itself and sees apps started since, and refs from before the restart are stale (the new
/// bus hands its names out again).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_accessibility_bus_is_reconnected() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let before = f.launch(&["zenity", "--info", "--text", "before the restart"]);
    let before = f.wait_app(&mut c, before).await;
    let (old_ref, _) = f.wait_line(&mut c, &before, &["before the restart"]).await;
    let env = f.env.clone();
    tokio::task::spawn_blocking(move || env.stop_a11y_bus())
        .await
        .expect("thread")
        .expect("the AT-SPI bus stops");
    let deadline = Instant::now() + DEADLINE;
    loop {
        let (r, took) = timed(c.call("context.list_apps", json!({}))).await;
        assert!(took < Duration::from_secs(2), "list_apps took {took:?} with the bus down: {r}");
        if code(&r) == "BACKEND_UNAVAILABLE" {
            assert_names_remedy(&r);
            break;
        }
        assert!(Instant::now() < deadline, "the daemon never noticed the bus go: {r}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for (method, params) in
        [("computer.snapshot", json!({})), ("context.get_app", json!({"app": "zenity"}))]
    {
        let (r, took) = timed(c.call(method, params)).await;
        assert_eq!(code(&r), "BACKEND_UNAVAILABLE", "{method}: {r}");
        assert!(took < Duration::from_secs(2), "{method} took {took:?}");
        assert_names_remedy(&r);
    }
    let env = f.env.clone();
    tokio::task::spawn_blocking(move || env.start_a11y_bus())
        .await
        .expect("thread")
        .expect("the AT-SPI bus starts again");
    let pid = f.launch(&["zenity", "--info", "--text", "the bus is back"]);
    let app = f.wait_app(&mut c, pid).await;
    f.wait_line(&mut c, &app, &["the bus is back"]).await;
    let r = c.call("computer.click", json!({"app_id": before, "ref": old_ref})).await;
    assert_eq!(code(&r), "STALE_REF", "a ref from before the restart: {r}");
    f.stop().await;
}

/// An app that stops answering (SIGSTOP: every call to it runs into the per-call timeout) is
/// left out of a desktop snapshot with a warning naming it; the other apps are all there.
/// App listings stay quick meanwhile and list it as last seen, not responding, until it
/// answers again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stuck_app_leaves_a_partial_snapshot_with_a_warning() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let live = f.launch(&["zenity", "--info", "--text", "still answering"]);
    let stuck = f.launch(&["zenity", "--info", "--text", "about to stop"]);
    let live_id = f.wait_app(&mut c, live).await;
    let stuck_id = f.wait_app(&mut c, stuck).await;
    f.wait_line(&mut c, &live_id, &["still answering"]).await;
    f.wait_line(&mut c, &stuck_id, &["about to stop"]).await;
    let stopped = Stopped::new(stuck);
    let (r, took) =
        timed(c.call("computer.snapshot", json!({"max_depth": 20, "limit": 5000}))).await;
    let v = ok(&r);
    assert!(took < DEADLINE, "the snapshot took {took:?}");
    let text = v["snapshot"].as_str().unwrap_or_default();
    assert!(text.contains("still answering"), "the live app is in the snapshot:\n{text}");
    assert!(!text.contains("about to stop"), "the stuck app is not:\n{text}");
    let warnings = strings(&v["warnings"]);
    assert!(
        warnings.iter().any(|w| w.contains(&stuck_id) && w.contains("answer")),
        "a warning names {stuck_id}: {v}"
    );
    let responding = |r: &Value, id: &str| {
        let apps = ok(r)["apps"].as_array().cloned().unwrap_or_default();
        apps.iter().find(|a| a["app_id"] == id).map(|a| a["responding"] == true)
    };
    for _ in 0..2 {
        let (r, took) = timed(c.call("context.list_apps", json!({}))).await;
        assert!(took < Duration::from_secs(2), "list_apps took {took:?} beside a stuck app");
        assert_eq!(responding(&r, &live_id), Some(true), "{r}");
        assert_eq!(responding(&r, &stuck_id), Some(false), "listed as last seen: {r}");
    }
    drop(stopped);
    let deadline = Instant::now() + DEADLINE;
    loop {
        let r = c.call("context.list_apps", json!({})).await;
        if responding(&r, &stuck_id) == Some(true) {
            break;
        }
        assert!(Instant::now() < deadline, "the app never answered again: {r}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    f.stop().await;
}

/// An app killed while its big tree is walked: the snapshot either finished first, or comes
/// back partial with a warning naming the app, or (nothing read yet) says the app is gone;
/// it never fails otherwise and never hangs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_app_killed_mid_snapshot_gives_what_was_read() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["gtk3-demo"]);
    let app = f.wait_app(&mut c, pid).await;
    let params = json!({"app_id": app, "disable_diffing": true, "limit": 5000});
    // A full walk first: how long one takes, so the kill lands inside the next.
    let (r, took) = timed(c.call("computer.snapshot", params.clone())).await;
    let full = ok(&r)["lines"].as_u64().unwrap_or(0);
    let killer = tokio::spawn(async move {
        tokio::time::sleep(took / 2).await;
        signal(pid, "KILL");
    });
    let (r, took) = timed(c.call("computer.snapshot", params)).await;
    killer.await.expect("killer");
    assert!(took < DEADLINE, "the snapshot took {took:?}");
    eprintln!(
        "full walk: {full} lines; with the kill: {}",
        r.get("result").map_or_else(
            || code(&r),
            |_| format!("{} lines, warnings {}", ok(&r)["lines"], ok(&r)["warnings"])
        )
    );
    match r.get("result") {
        Some(_) => {
            let v = ok(&r);
            let lines = v["lines"].as_u64().unwrap_or(0);
            let warnings = strings(&v["warnings"]);
            assert!(
                warnings.iter().all(|w| w.contains(&app)),
                "warnings name the app: {warnings:?}"
            );
            assert!(
                lines >= full || !warnings.is_empty(),
                "a snapshot cut short ({lines} of {full} lines) says so: {v}"
            );
        }
        None => assert!(
            ["TARGET_NOT_FOUND", "STALE_REF"].contains(&code(&r).as_str()),
            "only a gone app may fail the snapshot: {r}"
        ),
    }
    f.stop().await;
}

async fn timed<F: std::future::Future<Output = Value>>(call: F) -> (Value, Duration) {
    let t = Instant::now();
    let r = call.await;
    (r, t.elapsed())
}

fn assert_names_remedy(r: &Value) {
    let remedy = r["error"]["data"]["details"]["remedy"].as_str().unwrap_or_default();
    assert!(!remedy.is_empty(), "names a remedy: {r}");
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().into_iter().flatten().filter_map(|w| w.as_str().map(String::from)).collect()
}

/// Sends `SIG<name>` to `pid`.
fn signal(pid: u32, name: &str) {
    let status = std::process::Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{name} {pid}");
}

/// A process stopped with SIGSTOP until this is dropped (so it can be stopped for good).
struct Stopped(u32);

impl Stopped {
    fn new(pid: u32) -> Stopped {
        signal(pid, "STOP");
        Stopped(pid)
    }
}

impl Drop for Stopped {
    fn drop(&mut self) {
        let _ = std::process::Command::new("kill").args(["-CONT", &self.0.to_string()]).status();
    }
}
