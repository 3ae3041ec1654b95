//! Hardening, second part, through the real daemon: what each role may read (the clipboard,
//! approval arguments), approvals a session may pile up, the policy judging what a launch
//! really runs, and bounds on what a page can make the daemon carry (evaluate, content,
//! full-page screenshots, captures over the answer limit, annotation labels).

use std::sync::Arc;
use std::time::Instant;

use glovebox_daemon::approval::policy::Policy;
use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::{InProcess, Options, ADMIN, APPROVER, OBSERVER};
use serde_json::{json, Value};

async fn with_policy(rules: Value) -> InProcess {
    let policy: Policy = serde_json::from_value(json!({ "rules": rules })).expect("policy");
    let configure = Arc::new(move |c: &mut glovebox_daemon::Config| c.policy = policy.clone());
    InProcess::with(Options { configure: Some(configure), ..Options::default() }).await
}

async fn connect(d: &InProcess, token: &str) -> Raw {
    let mut c = Raw::connect(&d.url(), Some(token)).await.expect("connect");
    c.hello(None).await;
    c
}

#[tokio::test]
async fn observers_may_not_read_the_clipboard() {
    let d = InProcess::start().await;
    let mut o = connect(&d, OBSERVER).await;
    let direct = o.call("computer.clipboard_get", json!({})).await;
    assert_eq!(code(&direct), "FORBIDDEN", "{direct}");
    let tools = o
        .call("tools.call", json!({"name": "computer", "arguments": {"action": "clipboard_get"}}))
        .await;
    let refused = &tools["result"]["structuredContent"]["error"]["code"];
    assert_eq!(refused, "FORBIDDEN", "through tools.call too: {tools}");
    // Other reads stay open to observers.
    let wait = o.call("computer.wait", json!({"duration_ms": 1})).await;
    assert!(wait.get("result").is_some(), "{wait}");
    // An actor gets past the role check (here to a missing desktop backend).
    let mut a = d.actor().await;
    let r = a.call("computer.clipboard_get", json!({})).await;
    assert_ne!(code(&r), "FORBIDDEN", "{r}");
    d.stop().await;
}

#[tokio::test]
async fn approval_arguments_reach_approvers_and_admins_only() {
    let d = with_policy(json!([
        {"name": "ask-waits", "class": "any", "args": {"duration_ms": "7*"}, "decision": "ask"}
    ]))
    .await;
    let mut actor = d.actor().await;
    let mut own = d.actor().await;
    let mut approver = connect(&d, APPROVER).await;
    let mut admin = connect(&d, ADMIN).await;
    for c in [&mut own, &mut approver, &mut admin] {
        let r = c.call("events.subscribe", json!({"topics": ["approvals"]})).await;
        assert!(r.get("result").is_some(), "{r}");
    }
    let r = actor.call("computer.wait", json!({"duration_ms": 77, "op_id": "secret-op"})).await;
    assert_eq!(code(&r), "APPROVAL_REQUIRED", "{r}");
    let seen = |c: Value| c["params"]["result"]["data"].clone();
    let mine = seen(own.notification("events.event").await);
    assert_eq!(mine["op_id"], "secret-op", "the actor's token sees its approval: {mine}");
    assert!(mine.get("arguments").is_none(), "without its arguments: {mine}");
    for c in [&mut approver, &mut admin] {
        let full = seen(c.notification("events.event").await);
        assert_eq!(full["arguments"]["duration_ms"], 77, "{full}");
    }
    let listed = actor.call("approval.list", json!({})).await;
    let list = listed["result"]["approvals"].as_array().cloned().unwrap_or_default();
    assert_eq!(list.len(), 1, "{listed}");
    assert!(list[0].get("arguments").is_none(), "{listed}");
    let listed = approver.call("approval.list", json!({})).await;
    assert_eq!(listed["result"]["approvals"][0]["arguments"]["duration_ms"], 77, "{listed}");
    // Another actor token sees nothing of it.
    let mut other = connect(&d, glovebox_tests::OTHER_ACTOR).await;
    let listed = other.call("approval.list", json!({})).await;
    assert_eq!(listed["result"]["approvals"], json!([]), "{listed}");
    d.stop().await;
}

#[tokio::test]
async fn a_token_cannot_pile_up_approvals_nor_ask_without_end() {
    let d =
        with_policy(json!([{"name": "ask-all-waits", "class": "any", "decision": "ask"}])).await;
    let mut actor = d.actor().await;
    for i in 0..16 {
        let r =
            actor.call("computer.wait", json!({"duration_ms": 1, "op_id": format!("p{i}")})).await;
        assert_eq!(code(&r), "APPROVAL_REQUIRED", "{i}: {r}");
    }
    let r = actor.call("computer.wait", json!({"duration_ms": 1, "op_id": "p16"})).await;
    assert_eq!(code(&r), "TOO_MANY_APPROVALS", "{r}");
    assert_eq!(r["error"]["data"]["details"]["limit"], "pending_approvals", "{r}");
    assert_eq!(r["error"]["data"]["details"]["max"], 16, "{r}");
    // A fresh session of the same token is held to the same cap: it is the token's.
    let mut second = d.actor().await;
    let r = second.call("computer.wait", json!({"duration_ms": 1, "op_id": "q0"})).await;
    assert_eq!(code(&r), "TOO_MANY_APPROVALS", "per token, not per session: {r}");
    let mut approver = connect(&d, APPROVER).await;
    let listed = approver.call("approval.list", json!({})).await;
    assert_eq!(
        listed["result"]["approvals"].as_array().map(Vec::len),
        Some(16),
        "nothing more was parked"
    );
    // Answered asks free their places, but a token asks at most 30 times a minute: the
    // 16 denied and 14 more fill the minute, and the 31st is refused with its own limit.
    let ids: Vec<String> = listed["result"]["approvals"]
        .as_array()
        .expect("approvals")
        .iter()
        .map(|a| a["approval_id"].as_str().expect("approval_id").to_owned())
        .collect();
    for id in ids {
        let r = approver.call("approval.deny", json!({"approval_id": id})).await;
        assert!(r.get("result").is_some(), "{r}");
    }
    for i in 17..31 {
        let r =
            actor.call("computer.wait", json!({"duration_ms": 1, "op_id": format!("p{i}")})).await;
        assert_eq!(code(&r), "APPROVAL_REQUIRED", "{i}: {r}");
    }
    let r = actor.call("computer.wait", json!({"duration_ms": 1, "op_id": "p31"})).await;
    assert_eq!(code(&r), "TOO_MANY_APPROVALS", "{r}");
    assert_eq!(r["error"]["data"]["details"]["limit"], "asks_per_minute", "{r}");
    assert_eq!(r["error"]["data"]["details"]["max"], 30, "{r}");
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deny_on_a_glob_stops_every_name_of_the_program() {
    let env = BrowserEnv::with_policy(json!({"rules": [
        {"name": "no-xterm", "class": "exec", "args": {"app": "*xterm*"}, "decision": "deny"}
    ]}))
    .await;
    let mut c = env.daemon.actor().await;
    let alt = std::fs::canonicalize("/usr/bin/x-terminal-emulator").expect("the alternative");
    eprintln!("x-terminal-emulator resolves to {}", alt.display());
    for app in ["XTerm", "x-terminal-emulator", "/usr/bin/xterm", "xterm"] {
        let r = c
            .call("context.get_app", json!({"app": app, "launch": true, "timeout_ms": 10000}))
            .await;
        assert_eq!(code(&r), "APPROVAL_DENIED", "{app}: {r}");
        assert_eq!(r["error"]["data"]["details"]["rule"], "no-xterm", "{app}: {r}");
    }
    let windows = c.call("context.list_windows", json!({})).await;
    assert!(windows.get("result").is_some(), "{windows}");
    let text = windows.to_string().to_lowercase();
    assert!(!text.contains("xterm"), "nothing was launched: {windows}");
}

fn rss_kib() -> u64 {
    kib_of(std::process::id(), "VmRSS:")
}

/// A `/proc/PID/status` figure in KiB (`VmRSS:` now, `VmHWM:` the peak).
fn kib_of(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect(key)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_results_are_bounded_inside_the_page() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    let nav = c.call("browser.navigate", json!({"url": env.site.url("wide.html")})).await;
    assert!(nav.get("result").is_some(), "{nav}");
    let before = rss_kib();
    let t = Instant::now();
    let big = c
        .call(
            "browser.evaluate",
            json!({"script": "'x'.repeat(200 * 1024 * 1024)", "timeout_ms": 120000}),
        )
        .await;
    let eval_ms = t.elapsed().as_millis();
    let after = rss_kib();
    let r = &big["result"]["result"];
    assert_eq!(r["truncated"], true, "{}", &big.to_string()[..300.min(big.to_string().len())]);
    assert_eq!(r["total_chars"], 200 * 1024 * 1024);
    assert_eq!(r["value"].as_str().map(str::len), Some(1024 * 1024));
    eprintln!("evaluate of a 200 MB string: {eval_ms} ms; RSS {before} KiB -> {after} KiB");
    // The test process holds every parallel test's daemon and browser client, so only what
    // this call added is the daemon's: the 200 MB string stayed in the page.
    assert!(after.saturating_sub(before) < 64 * 1024, "RSS grew {before} -> {after} KiB");
    // An object is cut by its JSON text; a small value is untouched.
    let obj =
        c.call("browser.evaluate", json!({"script": "({a: 'y'.repeat(2 * 1024 * 1024)})"})).await;
    assert_eq!(
        obj["result"]["result"]["as_json_text"], true,
        "{}",
        obj["result"]["result"]["total_chars"]
    );
    let small = c.call("browser.evaluate", json!({"script": "({a: [1, 2]})"})).await;
    assert_eq!(small["result"]["result"], json!({"value": {"a": [1, 2]}}), "{small}");
    let undef = c.call("browser.evaluate", json!({"script": "undefined"})).await;
    assert_eq!(undef["result"]["result"], json!({"value": null}), "{undef}");
    // get_html of a page grown past the bound.
    let grow = "document.body.insertAdjacentHTML('beforeend', '<p>' + 'z'.repeat(3 * 1024 * 1024) + '</p>'); 1";
    assert!(c.call("browser.evaluate", json!({"script": grow})).await.get("result").is_some());
    let html = c.call("browser.get_html", json!({})).await;
    let h = &html["result"]["result"];
    assert_eq!(h["truncated"], true, "{}", h["total_chars"]);
    assert!(h["total_chars"].as_u64().is_some_and(|n| n > 3 * 1024 * 1024), "{}", h["total_chars"]);
    assert_eq!(h["html"].as_str().map(|s| s.chars().count()), Some(1024 * 1024));
    let text = c.call("browser.get_content", json!({})).await;
    assert_eq!(text["result"]["result"]["truncated"], true);
    let title = c.call("browser.get_title", json!({})).await;
    assert_eq!(title["result"]["result"]["title"], "wide", "{title}");
}

/// The `gloveboxd` binary alone (not the test process, which holds every in-process daemon):
/// its peak resident memory through an `evaluate` of a 200 MB string stays under 200 MiB,
/// because the value is cut inside the page before DevTools sends it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daemon_binary_stays_small_through_a_200_mb_evaluate() {
    let mut d = glovebox_tests::binary::Running::start(&["--desktop", "embedded"]);
    let site = glovebox_tests::browser::Site::start().await;
    let mut c = Raw::connect(&d.url, Some(&d.token())).await.expect("connect");
    c.hello(None).await;
    let nav = c.call("browser.navigate", json!({"url": site.url("wide.html")})).await;
    assert!(nav.get("result").is_some(), "{nav}");
    let script = "'x'.repeat(200 * 1024 * 1024)";
    let big = c.call("browser.evaluate", json!({"script": script, "timeout_ms": 120000})).await;
    let r = &big["result"]["result"];
    assert_eq!(r["truncated"], true, "{}", &big.to_string()[..300.min(big.to_string().len())]);
    assert_eq!(r["total_chars"], 200 * 1024 * 1024);
    let peak = kib_of(d.child.id(), "VmHWM:");
    eprintln!("gloveboxd peak RSS through a 200 MB evaluate: {} MiB", peak / 1024);
    assert!(peak < 200 * 1024, "gloveboxd's peak RSS is {peak} KiB");
    let title = c.call("browser.get_title", json!({})).await;
    assert_eq!(title["result"]["result"]["title"], "wide", "{title}");
    let status = d.terminate(glovebox_tests::DEADLINE);
    assert!(status.success(), "{status:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_full_page_screenshot_is_clamped_and_chromium_lives() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    let nav = c.call("browser.navigate", json!({"url": env.site.url("wide.html")})).await;
    assert!(nav.get("result").is_some(), "{nav}");
    let t = Instant::now();
    let shot = c
        .call(
            "browser.screenshot",
            json!({"full_page": true, "format": "jpeg", "timeout_ms": 60000}),
        )
        .await;
    let shot_ms = t.elapsed().as_millis();
    let r = &shot["result"]["result"];
    let (w, h) = (r["width"].as_u64().unwrap_or(0), r["height"].as_u64().unwrap_or(0));
    eprintln!("full-page screenshot of a 100,000 px wide page: {w} x {h} in {shot_ms} ms");
    assert!(w > 0 && w <= 16_384 && h <= 16_384, "{w} x {h}: {}", r["truncated"]);
    assert!(w * h <= 64 * 1024 * 1024);
    assert_eq!(r["truncated"]["page_width"], 100_000.0, "{}", r["truncated"]);
    // Chromium is alive: the next call works.
    let url = c.call("browser.get_url", json!({})).await;
    assert!(
        url["result"]["result"]["url"].as_str().is_some_and(|u| u.ends_with("wide.html")),
        "{url}"
    );
}

/// A canvas of noise `w` x `h` px put first in the page: no capture of it compresses.
fn noise(w: u32, h: u32) -> String {
    format!(
        "const c = document.createElement('canvas'); c.width = {w}; c.height = {h}; \
         const g = c.getContext('2d'); const img = g.createImageData({w}, {h}); \
         const px = new Uint32Array(img.data.buffer); let x = 0x9e3779b9; \
         for (let i = 0; i < px.length; i++) {{ x ^= x << 13; x ^= x >>> 17; x ^= x << 5; px[i] = x | 0xff000000; }} \
         g.putImageData(img, 0, 0); document.body.prepend(c); return c.width;"
    )
}

/// The default browser's process id, as the daemon lists it.
async fn browser_pid(c: &mut Raw) -> Option<u64> {
    let list = c.call("context.list_browsers", json!({})).await;
    let browsers = list["result"]["result"]["browsers"].as_array()?.clone();
    browsers.iter().find(|b| b["default"] == true)?["pid"].as_u64()
}

/// A capture whose answer would pass `--max-response-bytes` is refused as RESULT_TOO_LARGE
/// (the browser's relay lets it go by unread), and the same browser answers the next calls,
/// captures included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_over_the_answer_limit_is_refused_and_the_browser_goes_on() {
    const LIMIT: usize = 1024 * 1024;
    let extra: glovebox_tests::Configure = Arc::new(|c| c.max_response_bytes = LIMIT);
    let env = BrowserEnv::with_config(json!({"rules": []}), extra).await;
    let mut c = env.daemon.actor().await;
    let url = env.site.url("wide.html");
    let nav = c.call("browser.navigate", json!({"url": url, "capture": false})).await;
    assert!(nav.get("result").is_some(), "{nav}");
    let painted = c.call("browser.evaluate", json!({"script": noise(2000, 1200)})).await;
    assert_eq!(painted["result"]["result"]["value"], 2000, "{painted}");
    let pid = browser_pid(&mut c).await;
    assert!(pid.is_some(), "the default browser runs");
    let shot = c
        .call(
            "browser.screenshot",
            json!({"full_page": true, "format": "png", "timeout_ms": 60000}),
        )
        .await;
    assert_eq!(
        code(&shot),
        "RESULT_TOO_LARGE",
        "{}",
        &shot.to_string()[..300.min(shot.to_string().len())]
    );
    let details = &shot["error"]["data"]["details"];
    assert_eq!(details["limit"], LIMIT, "{shot}");
    // 2000 x 1200 px of noise: megabytes of PNG, whatever the gradient beside it adds.
    assert!(details["size"].as_u64().is_some_and(|n| n > 4 * LIMIT as u64), "{shot}");
    // The browser is the same and answers: its text, and a small capture of the same page.
    let got = c.call("browser.get_url", json!({})).await;
    assert_eq!(got["result"]["result"]["url"], url, "{got}");
    let small = c.call("browser.screenshot", json!({"max_width": 64})).await;
    let r = &small["result"]["result"];
    assert_eq!(r["width"], 64, "{}", &small.to_string()[..300.min(small.to_string().len())]);
    assert!(r["data"].as_str().is_some_and(|d| !d.is_empty()));
    assert_eq!(browser_pid(&mut c).await, pid, "the same Chromium");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn annotation_draws_at_most_500_labels_and_says_how_many_are_left_out() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    let nav = c.call("browser.navigate", json!({"url": env.site.url("many.html")})).await;
    assert!(nav.get("result").is_some(), "{nav}");
    let n = c
        .call("browser.evaluate", json!({"script": "document.querySelectorAll('button').length"}))
        .await;
    assert_eq!(n["result"]["result"]["value"], 600, "{n}");
    let ann = c.call("browser.screenshot_annotate", json!({"timeout_ms": 60000})).await;
    let r = &ann["result"]["result"];
    let labels = r["labels"].as_array().map(Vec::len).unwrap_or(0);
    assert_eq!(labels, 500, "{}", r["labels_omitted"]);
    assert_eq!(r["labels_limit"], 500);
    assert!(r["labels_omitted"].as_u64().is_some_and(|n| n >= 100), "{}", r["labels_omitted"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn downloads_stay_under_their_quota_oldest_first() {
    let quota: u64 = 1024 * 1024;
    let env = BrowserEnv::with_config(
        json!({"rules": []}),
        Arc::new(move |c: &mut glovebox_daemon::Config| c.downloads_quota_bytes = quota),
    )
    .await;
    // The browser's state dir is the one its downloads/ lives in.
    let downloads = env.dir.path.join("state").join("downloads");
    std::fs::create_dir_all(&downloads).expect("downloads/");
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for (i, name) in ["oldest.bin", "older.bin", "newer.bin"].iter().enumerate() {
        let p = downloads.join(name);
        std::fs::write(&p, vec![7u8; 400 * 1024]).expect("write");
        let f = std::fs::File::options().write(true).open(&p).expect("open");
        f.set_modified(old + std::time::Duration::from_secs(i as u64 * 60)).expect("mtime");
    }
    let mut c = env.daemon.actor().await;
    let nav = c.call("browser.navigate", json!({"url": env.site.url("form.html")})).await;
    assert!(nav.get("result").is_some(), "{nav}");
    let pdf = c.call("browser.pdf", json!({})).await;
    let r = &pdf["result"]["result"];
    let path = r["artifact"]["path"].as_str().expect("a PDF path").to_owned();
    assert!(std::path::Path::new(&path).exists(), "{pdf}");
    let removed: Vec<String> = r["removed_for_quota"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
        .unwrap_or_default();
    assert!(
        removed.first().is_some_and(|p| p.ends_with("oldest.bin")),
        "oldest first: {removed:?}"
    );
    assert!(!downloads.join("oldest.bin").exists());
    assert!(downloads.join("newer.bin").exists(), "only as many as needed go: {removed:?}");
    let total: u64 = std::fs::read_dir(&downloads)
        .expect("list")
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum();
    assert!(total <= quota, "downloads/ holds {total} bytes, the quota is {quota}");
}

/// A download larger than the whole quota is canceled while it comes (its size is announced),
/// and says why; nothing of it stays in downloads/.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_larger_than_the_quota_is_canceled_while_it_comes() {
    let quota: u64 = 1024 * 1024;
    let env = BrowserEnv::with_config(
        json!({"rules": []}),
        Arc::new(move |c: &mut glovebox_daemon::Config| c.downloads_quota_bytes = quota),
    )
    .await;
    let mut c = env.daemon.actor().await;
    let nav = c.call("browser.navigate", json!({"url": env.site.url("form.html")})).await;
    assert!(nav.get("result").is_some(), "{nav}");
    let link = "const a = document.createElement('a'); a.id = 'big'; a.textContent = 'big'; \
                a.href = '/big?bytes=' + 16 * 1024 * 1024; document.body.prepend(a); true";
    assert!(c.call("browser.evaluate", json!({"script": link})).await.get("result").is_some());
    let click = c.call("browser.click", json!({"selector": "#big"})).await;
    assert!(click["result"]["result"]["downloads"].is_array(), "no download named: {click}");
    let deadline = Instant::now() + glovebox_tests::DEADLINE;
    let d = loop {
        let listed = c.call("browser.downloads", json!({})).await;
        let d = listed["result"]["result"]["downloads"][0].clone();
        if d["state"] != "in_progress" {
            break d;
        }
        assert!(Instant::now() < deadline, "never ended: {listed}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(d["state"], "canceled", "{d}");
    assert_eq!(d["reason"], "over_quota", "{d}");
    assert!(d["bytes"].as_u64().is_some_and(|b| b < 16 * 1024 * 1024), "{d}");
    let downloads = env.dir.path.join("state").join("downloads");
    let total: u64 = std::fs::read_dir(&downloads)
        .map(|rd| rd.flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum())
        .unwrap_or(0);
    assert!(total <= quota, "downloads/ holds {total} bytes, the quota is {quota}");
}
