//! Profiles that outlive the daemon (issue 31 point 2), through the `gloveboxd` binary on its
//! embedded desktop: a party's named profile keeps a login (a cookie and localStorage) across
//! a restart, another profile and another party do not see it, and a storageState file in
//! Playwright's shape loads into a session's context and saves back out of it; one written by
//! Playwright itself loads into a profile a `tab_new` opened.

use base64::Engine as _;
use glovebox_tests::binary::Running;
use glovebox_tests::browser::Site;
use glovebox_tests::raw::{code, Raw};
use serde_json::{json, Value};

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"]["result"].clone()
}

/// A session of the daemon's token in `profile`, if any.
async fn session(d: &Running, profile: Option<&str>) -> Raw {
    let mut c = Raw::connect(&d.url, Some(&d.token())).await.expect("connect");
    let mut hello = json!({"protocol": 1});
    if let Some(p) = profile {
        hello["profile"] = json!(p);
    }
    let r = c.call("session.hello", hello).await;
    assert!(r.get("result").is_some(), "{r}");
    c
}

/// What the page at `url` reads of its cookies and localStorage.
async fn jar(c: &mut Raw, url: &str) -> String {
    ok(c, "browser.navigate", json!({"url": url, "capture": false})).await;
    let read = "document.cookie + '|' + (localStorage.getItem('who') || '')";
    let r = ok(c, "browser.evaluate", json!({"script": read, "capture": false})).await;
    r["value"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profiles_login_survives_a_restart_and_storage_state_goes_both_ways() {
    let site = Site::start().await;
    let page = site.url("refs.html");
    let d = Running::start(&["--desktop", "embedded"]);
    let mut work = session(&d, Some("work")).await;
    assert_eq!(jar(&mut work, &page).await, "|");
    let login =
        "document.cookie = 'sid=w0rk; max-age=86400'; localStorage.setItem('who', 'work'); true";
    ok(&mut work, "browser.evaluate", json!({"script": login, "capture": false})).await;
    assert_eq!(jar(&mut work, &page).await, "sid=w0rk|work");
    // The party's default context and another profile hold none of it.
    let mut plain = session(&d, None).await;
    assert_eq!(jar(&mut plain, &page).await, "|");
    let mut home = session(&d, Some("home")).await;
    assert_eq!(jar(&mut home, &page).await, "|");
    let bad = Raw::connect(&d.url, Some(&d.token())).await;
    let r = bad
        .expect("connect")
        .call("session.hello", json!({"protocol": 1, "profile": "../x"}))
        .await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");
    drop((work, plain, home));

    // Restarted: the profile comes back logged in.
    let d = d.restart(&["--desktop", "embedded"]);
    let mut work = session(&d, Some("work")).await;
    assert_eq!(jar(&mut work, &page).await, "sid=w0rk|work", "the login survived the restart");

    // Saving asks a person by default; an admin's policy file could allow it. Loading a
    // file in Playwright's storageState shape needs no one.
    let r = work.call("browser.storage_state", json!({})).await;
    assert_eq!(code(&r), "APPROVAL_REQUIRED", "{r}");
    let origin = page.split("/refs.html").next().unwrap_or_default().to_owned();
    let host = origin.trim_start_matches("http://").split(':').next().unwrap_or_default();
    let pw = json!({
        "cookies": [{"name": "pw", "value": "from-playwright", "domain": host, "path": "/",
                     "expires": -1, "httpOnly": false, "secure": false, "sameSite": "Lax"}],
        "origins": [{"origin": origin, "localStorage": [{"name": "who", "value": "pw"}]}]
    });
    let data = base64::engine::general_purpose::STANDARD.encode(pw.to_string());
    ok(&mut work, "files.put", json!({"name": "pw-state.json", "data": data})).await;
    let mut fresh = session(&d, Some("fresh")).await;
    ok(&mut fresh, "browser.navigate", json!({"url": "about:blank", "capture": false})).await;
    let loaded = ok(&mut fresh, "browser.storage_state", json!({"load": "pw-state.json"})).await;
    assert_eq!((loaded["loaded"].clone(), loaded["cookies"].clone()), (json!(true), json!(1)));
    assert_eq!(jar(&mut fresh, &page).await, "pw=from-playwright|pw", "{loaded}");
    let r = fresh.call("browser.storage_state", json!({"load": "missing.json"})).await;
    assert_eq!(code(&r), "FORBIDDEN", "{r}");
}

/// A storageState file Playwright wrote (it logged in on the site in its own Chromium) loads
/// into a profile that `browser.tab_new {profile}` opened; the page sees its cookie and
/// localStorage, and so does the profile after a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_storage_state_that_playwright_wrote_loads_into_a_profile_tab_new_opened() {
    let site = Site::start().await;
    let page = site.url("refs.html");
    let dir = glovebox_tests::TempDir::new("pw-state");
    let out = dir.path.join("state.json");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/storage_state_playwright.py");
    let ran = std::process::Command::new("python3")
        .arg(script)
        .arg(&page)
        .arg(&out)
        .output()
        .expect("python3 runs");
    assert!(ran.status.success(), "playwright: {}", String::from_utf8_lossy(&ran.stderr));
    let written = std::fs::read(&out).expect("playwright wrote its storageState");
    let state: Value = serde_json::from_slice(&written).expect("JSON");
    assert!(state["cookies"].as_array().is_some_and(|c| !c.is_empty()), "{state}");

    let d = Running::start(&["--desktop", "embedded"]);
    let mut c = session(&d, None).await;
    let data = base64::engine::general_purpose::STANDARD.encode(&written);
    ok(&mut c, "files.put", json!({"name": "pw-real.json", "data": data})).await;
    let bad = c.call("browser.tab_new", json!({"profile": "a/b", "capture": false})).await;
    assert_eq!(code(&bad), "CONTRACT_VIOLATION", "{bad}");
    let opened = json!({"profile": "shop", "url": "about:blank", "capture": false});
    ok(&mut c, "browser.tab_new", opened).await;
    let loaded = ok(&mut c, "browser.storage_state", json!({"load": "pw-real.json"})).await;
    assert_eq!(loaded["loaded"], true, "{loaded}");
    assert_eq!(jar(&mut c, &page).await, "pwsid=pw-login|playwright", "{loaded}");
    // The party's default context holds none of it.
    let mut plain = session(&d, None).await;
    assert_eq!(jar(&mut plain, &page).await, "|");
    drop((c, plain));

    let d = d.restart(&["--desktop", "embedded"]);
    let mut c = session(&d, None).await;
    ok(&mut c, "browser.tab_new", json!({"profile": "shop", "capture": false})).await;
    assert_eq!(jar(&mut c, &page).await, "pwsid=pw-login|playwright", "kept on disk");
}
