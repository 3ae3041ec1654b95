//! One lane per party (issue 31) on real Chromium: a session with no tab of its own never
//! takes the tab another session works in, and a session whose tab another navigated hears
//! which session did it; downloads of one name never overwrite each other.

use glovebox_protocol::outline::line_ref;
use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::OTHER_ACTOR;
use serde_json::{json, Value};

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"].clone()
}

async fn url_of(c: &mut Raw, tab_id: &str) -> String {
    let got = ok(c, "browser.tab_get", json!({"tab_id": tab_id})).await;
    got["result"]["url"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_session_never_takes_another_sessions_tab() {
    let env = BrowserEnv::start().await;
    let refs = env.site.url("refs.html");
    let form = env.site.url("form.html");
    let mut a = env.daemon.actor().await;
    let nav = ok(&mut a, "browser.navigate", json!({"url": refs})).await;
    let a_tab = nav["target"]["tab_id"].as_str().expect("a's tab").to_owned();
    let snap = ok(&mut a, "browser.snapshot", json!({})).await;
    let text = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
    let a_ref = text.lines().find_map(line_ref).expect("a ref in a's snapshot").to_owned();

    // Another token's new session and a new session of the same token: each works in a tab
    // of its own, and a's page stays where a left it.
    let mut other = Raw::connect(&env.daemon.url(), Some(OTHER_ACTOR)).await.expect("connect");
    other.hello(None).await;
    let mut same = env.daemon.actor().await;
    for c in [&mut other, &mut same] {
        let nav = ok(c, "browser.navigate", json!({"url": form})).await;
        assert_eq!(nav["target"]["tab_source"], "new", "{nav}");
        assert_ne!(nav["target"]["tab_id"], a_tab.as_str(), "{nav}");
    }
    assert!(url_of(&mut a, &a_tab).await.ends_with("refs.html"), "a's tab was not navigated");
    let snap = ok(&mut a, "browser.snapshot", json!({})).await;
    assert_eq!(snap["target"]["tab_id"], a_tab.as_str(), "a still works in its tab");
    ok(&mut a, "browser.hover", json!({"ref": a_ref})).await;

    // A session that navigates a's tab by its id is named in a's stale ref.
    let snap = ok(&mut a, "browser.snapshot", json!({"disable_diffing": true})).await;
    let text = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
    let a_ref = text.lines().find_map(line_ref).expect("a ref").to_owned();
    let nav = ok(&mut same, "browser.navigate", json!({"url": form, "tab_id": a_tab})).await;
    assert_eq!(nav["target"]["tab_source"], "explicit");
    let same_id = ok(&mut same, "session.status", json!({})).await["session_id"].clone();
    let r = a.call("browser.hover", json!({"ref": a_ref})).await;
    assert_eq!(code(&r), "STALE_REF", "{r}");
    let by = format!("by session {}", same_id.as_str().unwrap_or_default());
    assert!(r.to_string().contains(&by), "the stale ref names who navigated: {r}");
    drop(env);
}

/// Two sessions of two tokens download a file of one name: two files, each result naming its
/// own path, neither overwritten.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn downloads_of_one_name_never_overwrite() {
    let env = BrowserEnv::start().await;
    let mut a = env.daemon.actor().await;
    let mut b = Raw::connect(&env.daemon.url(), Some(OTHER_ACTOR)).await.expect("connect");
    b.hello(None).await;
    let mut paths = Vec::new();
    for (c, page) in [(&mut a, "refs.html"), (&mut b, "form.html")] {
        ok(c, "browser.navigate", json!({"url": env.site.url(page)})).await;
        let link = format!(
            "const a = document.createElement('a'); a.id = 'dl'; a.textContent = 'save'; \
             a.href = '/{page}'; a.download = 'q3-report.csv'; document.body.prepend(a); true"
        );
        ok(c, "browser.evaluate", json!({"script": link})).await;
        let click = ok(c, "browser.click", json!({"selector": "#dl"})).await;
        let named = click["result"]["downloads"][0]["path"].as_str().unwrap_or_default();
        assert!(!named.is_empty(), "the result names the download's path: {click}");
        paths.push((named.to_owned(), page));
    }
    assert_ne!(paths[0].0, paths[1].0, "{paths:?}");
    assert!(paths[1].0.ends_with("q3-report (2).csv"), "{paths:?}");
    let deadline = std::time::Instant::now() + glovebox_tests::DEADLINE;
    for (path, page) in &paths {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(page);
        let want = std::fs::read(fixture).expect("fixture");
        loop {
            if std::fs::read(path).is_ok_and(|got| got == want) {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "{path} never held {page}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
    drop(env);
}
