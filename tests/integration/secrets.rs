//! Secrets the model never sees (issue 37), through the `gloveboxd` binary at trace level
//! with a real Chromium: a named secret is typed only into its own origin (the served host
//! receives it), refused elsewhere and into a form that posts elsewhere, and no answer,
//! capture, view page frame, event or log line holds its value; its TOTP seed yields a code the host takes.
//! `frames.rs`: a cross-site frame's field, and leaving a page; `desktop.rs`: a desktop field.

mod desktop;
mod frames;

use std::time::{Duration, Instant};

use glovebox_tests::binary::Running;
use glovebox_tests::browser::Site;
use glovebox_tests::image::rgb_of;
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::{ACTOR, DEADLINE};
use serde_json::{json, Value};

const VALUE: &str = "hunter2-Sekrit-9f3";
const SEED: &str = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

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

/// The TOTP codes a host accepts now: this step and the one before.
fn codes_now() -> Vec<String> {
    let bytes = totp_rs::Secret::Encoded(SEED.into()).to_bytes().expect("base32");
    let totp = totp_rs::TOTP::new_unchecked(totp_rs::Algorithm::SHA1, 6, 1, 30, bytes);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    vec![totp.generate(now), totp.generate(now.saturating_sub(30))]
}

/// The share of pixels of `rgb` (`w` wide) in the box that are the painted ink.
fn inked(rgb: &[u8], w: usize, (x, y, bw, bh): (usize, usize, usize, usize)) -> f64 {
    let mut ink = 0;
    for yy in y..y + bh {
        for xx in x..x + bw {
            let i = (yy * w + xx) * 3;
            if rgb[i..i + 3] == [32, 32, 32] {
                ink += 1;
            }
        }
    }
    f64::from(ink) / (bw * bh) as f64
}

/// The field's box in image pixels of a capture at `scale`, shrunk inside its border.
async fn field_box(c: &mut Raw, name: &str, scale: f64) -> (usize, usize, usize, usize) {
    let script = format!(
        "(() => {{ const r = document.querySelector('[name={name}]').getBoundingClientRect(); \
         return [r.left, r.top, r.width, r.height]; }})()"
    );
    let v = ok(c, "browser.evaluate", json!({"script": script})).await;
    let n: Vec<f64> =
        v["result"]["value"].as_array().expect("a box").iter().filter_map(Value::as_f64).collect();
    let px = |v: f64| (v * scale).round() as usize;
    (px(n[0] + 4.0), px(n[1] + 4.0), px(n[2] - 8.0), px(n[3] - 8.0))
}

/// The field's box in screen pixels (the viewport at the bottom of its window), shrunk
/// inside its border.
async fn screen_box(c: &mut Raw, name: &str) -> (usize, usize, usize, usize) {
    let script = format!(
        "(() => {{ const r = document.querySelector('[name={name}]').getBoundingClientRect(); \
         const d = devicePixelRatio, x = screenX + (outerWidth - innerWidth) / 2, \
         y = screenY + outerHeight - innerHeight; \
         return [x + (r.left + 4) * d, y + (r.top + 4) * d, (r.width - 8) * d, (r.height - 8) * d]; }})()"
    );
    let v = ok(c, "browser.evaluate", json!({"script": script})).await;
    let n: Vec<f64> =
        v["result"]["value"].as_array().expect("a box").iter().filter_map(Value::as_f64).collect();
    (n[0].ceil() as usize, n[1].ceil() as usize, n[2] as usize, n[3] as usize)
}

/// The binary with an embedded desktop, `secrets` as its file (0600) and its log at
/// `level` in the returned dir's `stderr`.
fn start(secrets: &Value, level: &str) -> (Running, glovebox_tests::TempDir) {
    let dir = glovebox_tests::TempDir::new("secrets");
    let file = dir.path.join("secrets.json");
    std::fs::write(&file, secrets.to_string()).expect("write the secrets");
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
    let d = Running::start_logged(
        &["--desktop", "embedded", "--secrets", file.to_str().expect("utf-8")],
        &[("GLOVEBOX_TOKEN", ACTOR), ("GLOVEBOX_LOG", level)],
        &dir.path.join("stderr"),
    );
    (d, dir)
}

/// The box (`@x,y wxh`) of an outline line, shrunk by `inset` on each side and times `scale`.
fn line_box(line: &str, inset: f64, scale: f64) -> (usize, usize, usize, usize) {
    let at = line.split(" @").nth(1).unwrap_or_else(|| panic!("no box on {line:?}"));
    let word = at.split(' ').take(2).collect::<Vec<_>>().join(" ");
    let n: Vec<f64> = word
        .split([',', ' ', 'x'])
        .map(|v| v.parse().unwrap_or_else(|_| panic!("bad box {word:?}")))
        .collect();
    let px = |v: f64| (v * scale).round() as usize;
    (px(n[0] + inset), px(n[1] + inset), px(n[2] - 2.0 * inset), px(n[3] - 2.0 * inset))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_secret_goes_only_to_its_origin_and_nothing_shows_it() {
    let site = Site::start().await;
    let secrets =
        json!([{"name": "github", "value": VALUE, "origins": [site.url("")], "totp": SEED}]);
    let (mut d, dir) = start(&secrets, "trace");
    let log_path = dir.path.join("stderr");
    let mut watcher = Raw::connect(&d.url, Some(ACTOR)).await.expect("connect");
    watcher.hello(Some("watcher")).await;
    let topics = json!(["ops", "session", "browser", "desktop", "approvals"]);
    ok(&mut watcher, "events.subscribe", json!({"topics": topics})).await;
    let mut c = Raw::connect(&d.url, Some(ACTOR)).await.expect("connect");
    c.hello(Some("agent")).await;
    let mut answers: Vec<Value> = Vec::new();

    // The agent learns the name and where it goes, never the value.
    let listed = ok(&mut c, "context.list_secrets", json!({})).await;
    assert_eq!(listed["result"]["secrets"][0]["name"], "github", "{listed}");
    assert_eq!(listed["result"]["secrets"][0]["totp"], true, "{listed}");
    assert_eq!(listed["result"]["secrets"][0]["origins"][0], site.base, "{listed}");
    answers.push(listed);

    // On the secret's own origin: typed, and every reading of it shows the name.
    let page = format!("login.html?steal={}", site.other_host("steal"));
    answers.push(ok(&mut c, "browser.navigate", json!({"url": site.url(&page)})).await);
    let snap = ok(&mut c, "browser.snapshot", json!({})).await;
    let (user, pass) = (ref_of(&snap, "\"User\""), ref_of(&snap, "\"Password\""));
    let (otp, card) = (ref_of(&snap, "\"Code\""), ref_of(&snap, "\"Card\""));
    ok(&mut c, "browser.fill", json!({"ref": user, "text": "alice"})).await;
    let filled = ok(&mut c, "browser.fill", json!({"ref": pass, "secret": "github"})).await;
    assert_eq!(filled["result"]["value"], "[secret:github]", "{filled}");
    assert_eq!(filled["result"]["verified"], true, "{filled}");
    let typed = ok(&mut c, "browser.type", json!({"ref": otp, "secret_totp": "github"})).await;
    assert_eq!(typed["result"]["typed"], "[secret:github:totp]", "{typed}");
    assert_eq!(typed["result"]["verified"], true, "{typed}");
    let snap = ok(&mut c, "browser.snapshot", json!({})).await;
    let outline = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
    assert!(outline.contains("[secret:github]"), "the snapshot names it:\n{outline}");
    let content = ok(&mut c, "browser.get_content", json!({"ref": pass})).await;
    assert_eq!(content["result"]["text"], "[secret:github]", "{content}");
    let script = "document.querySelector('[name=pass]').value + ' and ' + document.title";
    let value = ok(&mut c, "browser.evaluate", json!({"script": script})).await;
    assert_eq!(value["result"]["value"], "[secret:github] and Sign in", "{value}");
    let html = ok(&mut c, "browser.get_html", json!({})).await;
    answers.extend([filled.clone(), typed, snap, content, value, html]);

    // The fill's capture has the field painted over; the same capture of the field holding
    // text that is no secret does not.
    let capture = &filled["capture"];
    assert!(capture["redacted"].as_u64().is_some_and(|n| n >= 1), "painted: {}", capture["mime"]);
    let (w, _, rgb) = rgb_of(capture);
    let scale = capture["scale"].as_f64().unwrap_or(1.0);
    let pass_box = field_box(&mut c, "pass", scale).await;
    assert!(inked(&rgb, w, pass_box) > 0.99, "the secret's field is painted over");
    let shot = ok(&mut c, "browser.screenshot", json!({})).await;
    assert!(inked(&rgb_of(&shot["result"]).2, w, pass_box) > 0.99, "and in a screenshot too");
    // The desktop's own capture (what the view page's frames are made of) covers it too.
    let screen = ok(&mut c, "computer.screenshot", json!({})).await;
    let (sw, _, screen_rgb) = rgb_of(&screen["result"]);
    let on_screen = screen_box(&mut c, "pass").await;
    assert!(inked(&screen_rgb, sw, on_screen) > 0.99, "the desktop capture paints it over");
    let user_on_screen = screen_box(&mut c, "user").await;
    assert!(inked(&screen_rgb, sw, user_on_screen) < 0.5, "and leaves a plain field alone");
    // The view page's frames, as the person watching gets them (JPEG: near the ink).
    let link = ok(&mut c, "view.link", json!({})).await;
    let path = link["path"].as_str().unwrap_or_else(|| panic!("view.link: {link}"));
    let viewer = glovebox_tests::viewer::Viewer::start().await;
    let view = viewer.open(&format!("http://{}{path}", d.socket_addr())).await;
    view.wait_for("window.glovebox.frames >= 1", "the first frame").await;
    let canvas_ink = |(x, y, w, h): (usize, usize, usize, usize)| {
        format!(
            "(() => {{ const d = document.getElementById('screen').getContext('2d')\
             .getImageData({x}, {y}, {w}, {h}).data; let n = 0; \
             for (let i = 0; i < d.length; i += 4) \
             if ([0, 1, 2].every(k => Math.abs(d[i + k] - 32) < 16)) n++; \
             return n / (d.length / 4); }})()"
        )
    };
    let framed = view.eval(&canvas_ink(on_screen)).await.as_f64().unwrap_or(0.0);
    assert!(framed > 0.95, "the view page's frame paints it over: {framed}");
    let plain_framed = view.eval(&canvas_ink(user_on_screen)).await.as_f64().unwrap_or(1.0);
    assert!(plain_framed < 0.5, "and leaves a plain field alone: {plain_framed}");
    drop(viewer);
    let plain = ok(&mut c, "browser.fill", json!({"ref": user, "text": "not-a-secret"})).await;
    let (_, _, plain_rgb) = rgb_of(&plain["capture"]);
    let user_box = field_box(&mut c, "user", scale).await;
    assert!(inked(&plain_rgb, w, user_box) < 0.5, "a plain field is not painted");
    assert!(plain["capture"].get("redacted").is_some(), "the secret's field still is");
    assert_eq!(inked(&plain_rgb, w, pass_box), inked(&rgb, w, pass_box));
    ok(&mut c, "browser.fill", json!({"ref": user, "text": "alice"})).await;

    // A form that posts to another origin gets nothing; the desktop's app is no app the
    // secret names.
    let r = c.call("browser.fill", json!({"ref": card, "secret": "github"})).await;
    assert_eq!(code(&r), "FORBIDDEN", "{r}");
    let msg = r["error"]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("posts to") && msg.contains(&site.base), "{r}");
    let empty = ok(
        &mut c,
        "browser.evaluate",
        json!({"script": "document.querySelector('[name=card]').value"}),
    )
    .await;
    assert_eq!(empty["result"]["value"], "", "nothing was typed: {empty}");
    let r = c.call("computer.type", json!({"secret": "github"})).await;
    assert_eq!(code(&r), "FORBIDDEN", "{r}");
    let r = c.call("computer.clipboard_set", json!({"text": format!("pw {VALUE}")})).await;
    assert_eq!(code(&r), "FORBIDDEN", "the clipboard never gets it: {r}");
    answers.push(r);
    let r = c.call("browser.type", json!({"ref": otp, "secret": "gitlab"})).await;
    assert_eq!(code(&r), "TARGET_NOT_FOUND", "{r}");

    // Submitted: the host receives the value and a code it accepts; the answer names them.
    let full = json!({"disable_diffing": true});
    let button = ref_of(&ok(&mut c, "browser.snapshot", full).await, "button \"Sign in\"");
    let clicked = ok(&mut c, "browser.click", json!({"ref": button})).await;
    let deadline = Instant::now() + DEADLINE;
    let hit = loop {
        let hits = site.hits.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Some(h) = hits.iter().find(|h| h.contains("/login-done.html?")) {
            break h.clone();
        }
        assert!(Instant::now() < deadline, "the form never reached the host: {hits:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(hit.contains(&format!("pass={VALUE}")), "the host got the password: {hit}");
    assert!(
        codes_now().iter().any(|code| hit.contains(&format!("otp={code}"))),
        "a code the host takes: {hit}"
    );
    let said = clicked.to_string();
    assert!(said.contains("pass=[secret:github]"), "{said}");
    answers.push(clicked);

    // Another origin: refused, naming where it may go, nothing typed.
    answers.push(ok(&mut c, "browser.navigate", json!({"url": site.url("login.html")})).await);
    let full = json!({"disable_diffing": true});
    let pass = ref_of(&ok(&mut c, "browser.snapshot", full).await, "\"Password\"");
    ok(&mut c, "browser.fill", json!({"ref": pass, "secret": "github"})).await;
    // The page it was typed into goes to another origin: the result says so.
    let away = ok(&mut c, "browser.navigate", json!({"url": site.other_host("login.html")})).await;
    let left = &away["result"]["secrets_left"][0];
    assert_eq!(left["secret"], "github", "{away}");
    assert_eq!(left["typed_on"], site.base, "{away}");
    assert_eq!(left["held"], true, "the field held it when the navigation began: {away}");
    let snap = ok(&mut c, "browser.snapshot", json!({})).await;
    let pass = ref_of(&snap, "\"Password\"");
    let r = c.call("browser.fill", json!({"ref": pass, "secret": "github"})).await;
    assert_eq!(code(&r), "FORBIDDEN", "{r}");
    assert_eq!(r["error"]["data"]["details"]["origins"][0], site.base, "{r}");
    let empty = ok(
        &mut c,
        "browser.evaluate",
        json!({"script": "document.querySelector('[name=pass]').value"}),
    )
    .await;
    assert_eq!(empty["result"]["value"], "", "nothing was typed: {empty}");
    answers.extend([away, r]);

    // Every event up to a last op, and every answer: none holds the value.
    ok(&mut c, "browser.get_url", json!({"op_id": "last"})).await;
    let mut events = Vec::new();
    loop {
        let e = watcher.notification("events.event").await;
        let ev = &e["params"]["result"];
        let last = ev["kind"] == "finished" && ev["data"]["op_id"] == "last";
        events.push(e);
        if last {
            break;
        }
    }
    let events = serde_json::to_string(&events).expect("json");
    assert!(events.contains("[secret:github]"), "the events name it where a value was");
    assert!(!events.contains(VALUE), "an event holds the value");
    let answers = serde_json::to_string(&answers).expect("json");
    assert!(!answers.contains(VALUE), "an answer holds the value");

    drop((c, watcher));
    let status = d.terminate(Duration::from_secs(15));
    assert!(status.success(), "{status}");
    let log = std::fs::read_to_string(&log_path).expect("the log");
    assert!(log.lines().count() > 100, "a trace log was written: {} lines", log.lines().count());
    assert!(log.contains("[secret:github]"), "the log names it where it would have shown it");
    assert!(!log.contains(VALUE), "the log holds the value");
}

/// Admins add and remove secrets at run time; actors see their names, observers nothing,
/// and no answer holds a value, also a refused one.
#[tokio::test]
async fn admins_put_and_delete_secrets_and_observers_see_none() {
    use glovebox_tests::{InProcess, ADMIN, OBSERVER};
    let d = InProcess::start().await;
    let mut admin = Raw::connect(&d.url(), Some(ADMIN)).await.expect("admin");
    admin.hello(None).await;
    let mut actor = d.actor().await;
    let mut observer = Raw::connect(&d.url(), Some(OBSERVER)).await.expect("observer");
    observer.hello(None).await;

    let put = json!({"name": "bank", "value": VALUE, "origins": ["HTTPS://Bank.example/login"]});
    let r = actor.call("secrets.put", put.clone()).await;
    assert_eq!(code(&r), "FORBIDDEN", "{r}");
    let r = ok(&mut admin, "secrets.put", put).await;
    assert_eq!(r["secret"]["origins"][0], "https://bank.example", "{r}");
    let listed = ok(&mut actor, "context.list_secrets", json!({})).await;
    assert_eq!(listed["result"]["secrets"][0]["name"], "bank", "{listed}");
    assert_eq!(code(&observer.call("context.list_secrets", json!({})).await), "FORBIDDEN");
    let bad = json!({"name": "x", "value": VALUE, "origins": ["not an origin"]});
    let r = admin.call("secrets.put", bad).await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");
    let r2 = admin.call("secrets.put", json!({"name": "y", "value": 7, "origins": []})).await;
    assert_eq!(code(&r2), "CONTRACT_VIOLATION", "{r2}");
    // Nothing kept but memory: persisting needs a --secrets file.
    let r3 = admin.call("secrets.delete", json!({"name": "bank", "persist": true})).await;
    assert_eq!(code(&r3), "CONTRACT_VIOLATION", "{r3}");
    ok(&mut admin, "secrets.delete", json!({"name": "bank"})).await;
    let r4 = admin.call("secrets.delete", json!({"name": "bank"})).await;
    assert_eq!(code(&r4), "TARGET_NOT_FOUND", "{r4}");
    let listed = ok(&mut actor, "context.list_secrets", json!({})).await;
    assert_eq!(listed["result"]["secrets"], json!([]), "{listed}");
    let said = serde_json::to_string(&[r, r2, r3, r4]).expect("json");
    assert!(!said.contains(VALUE), "a refusal holds the value: {said}");
}
