//! Results that say what really happened, on a real Chromium through the real daemon: each
//! image once as an MCP image block, tabs an action opened, downloads it started and where it
//! navigated, named in its result.

use std::time::Instant;

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::raw::Raw;
use glovebox_tests::DEADLINE;
use serde_json::{json, Value};

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {}", cut(&r));
    r["result"].clone()
}

/// A response shortened for a failure message (images are long).
fn cut(v: &Value) -> String {
    v.to_string().chars().take(1500).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_call_gives_each_image_once_as_an_image_block() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("form.html")})).await;
    let windows = ok(&mut c, "context.list_windows", json!({})).await;
    // The window the session's tab shows in (its party's context has a window of its own).
    let listed = windows["result"]["windows"].as_array().cloned().unwrap_or_default();
    let shows_form = |w: &&Value| w["title"].as_str().is_some_and(|t| t.contains("Test form"));
    let window = listed.iter().find(shows_form).unwrap_or(&windows["result"]["windows"][0]);
    let window = window["window_id"].as_str().expect("a window").to_owned();
    let calls = [
        ("browser", json!({"action": "screenshot"})),
        ("browser", json!({"action": "screenshot_annotate"})),
        ("browser", json!({"action": "state_and_screenshot"})),
        ("computer", json!({"action": "screenshot"})),
        ("computer", json!({"action": "get_window_state", "window_id": window})),
        ("browser", json!({"action": "click", "selector": "#name"})),
    ];
    for (tool, args) in calls {
        let r = ok(&mut c, "tools.call", json!({"name": tool, "arguments": args})).await;
        let content = r["content"].as_array().expect("content");
        let images: Vec<&Value> = content.iter().filter(|b| b["type"] == "image").collect();
        assert_eq!(images.len(), 1, "{tool} {args}: {}", cut(&r));
        assert!(images[0]["data"].as_str().is_some_and(|d| d.len() > 1000));
        // The text is a summary without image data: a line naming the op, the result, and
        // an outline it carries raw (cut beside the image, all of it in structuredContent).
        let text: String = content.iter().filter_map(|b| b["text"].as_str()).collect();
        assert!(text.len() < 4_000, "{tool} {args}: {} characters of text: {text}", text.len());
        let action = args["action"].as_str().unwrap_or_default();
        assert!(text.starts_with(&format!("{tool}.{action} succeeded")), "{text}");
        let result = &r["structuredContent"]["result"];
        if let Some(outline) = result["snapshot"]["snapshot"].as_str() {
            let first = outline.lines().next().unwrap_or_default();
            assert!(text.contains(&format!("\n{first}\n")), "the outline raw: {text}");
        }
        assert!(!r["structuredContent"]
            .to_string()
            .contains(images[0]["data"].as_str().unwrap_or("-")));
        let tokens = &r["structuredContent"]["tokens"];
        assert!(tokens["image"].as_u64().is_some_and(|n| n > 0), "{tool} {args}: {tokens}");
        let most = text.len() as u64 / 4 + 1;
        assert!(tokens["text"].as_u64().is_some_and(|n| n <= most), "{tool} {args}: {tokens}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_names_the_tabs_downloads_and_navigations_it_caused() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    let start = env.site.url("refs.html");
    let nav = ok(&mut c, "browser.navigate", json!({"url": start})).await;
    let tab = nav["target"]["tab_id"].as_str().expect("tab").to_owned();
    let setup = format!(
        "document.body.insertAdjacentHTML('beforeend', `
          <a id=popup target=_blank href='{form}'>popup</a>
          <a id=file href='{csv}'>report</a>
          <a id=away href='{form}?away'>away</a>`); 1",
        form = env.site.url("form.html"),
        csv = env.site.url("report.csv"),
    );
    ok(&mut c, "browser.evaluate", json!({"script": setup})).await;

    // A target=_blank link: the new tab is named, the session stays on its tab and the
    // capture shows that tab.
    let r = ok(&mut c, "browser.click", json!({"selector": "#popup"})).await;
    let opened = &r["result"]["opened_tabs"];
    assert_eq!(opened.as_array().map(Vec::len), Some(1), "{}", cut(&r));
    let new_tab = opened[0]["tab_id"].as_str().expect("tab id").to_owned();
    assert_ne!(new_tab, tab);
    assert!(r["capture"]["capture_id"].is_string(), "{}", cut(&r));
    assert_eq!(r["target"]["tab_id"], tab.as_str());
    let status = ok(&mut c, "session.status", json!({})).await;
    assert_eq!(status["selection"]["tab_id"], tab.as_str(), "the selection did not move");
    let got = ok(&mut c, "browser.tab_get", json!({"tab_id": new_tab})).await;
    assert!(got["result"]["url"].as_str().is_some_and(|u| u.contains("form.html")), "{got}");

    // With follow the session moves to the tab the click opened, and the capture shows it.
    ok(&mut c, "browser.tab_select", json!({"tab_id": tab})).await;
    let r = ok(&mut c, "browser.click", json!({"selector": "#popup", "follow": true})).await;
    let followed = r["result"]["opened_tabs"][0]["tab_id"].as_str().expect("opened").to_owned();
    assert_eq!(r["target"]["tab_id"], followed.as_str(), "{}", cut(&r));
    assert!(r["capture"]["capture_id"].is_string(), "{}", cut(&r));
    let status = ok(&mut c, "session.status", json!({})).await;
    assert_eq!(status["selection"]["tab_id"], followed.as_str());
    ok(&mut c, "browser.tab_select", json!({"tab_id": tab})).await;

    // A download: named with its file, which is under the state dir's downloads/.
    let r = ok(&mut c, "browser.click", json!({"selector": "#file", "tab_id": tab})).await;
    let d = &r["result"]["downloads"][0];
    let path = d["path"].as_str().unwrap_or_else(|| panic!("no download: {}", cut(&r))).to_owned();
    let downloads = env.dir.path.join("state").join("downloads");
    assert!(std::path::Path::new(&path).starts_with(&downloads), "{path} not in {downloads:?}");
    let deadline = Instant::now() + DEADLINE;
    while std::fs::read_to_string(&path).map_or(true, |t| !t.contains("beta,2")) {
        assert!(Instant::now() < deadline, "{path} never arrived whole");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    // The list says completed once Chromium does (its event may follow the file by a moment).
    let deadline = Instant::now() + DEADLINE;
    loop {
        let listed = ok(&mut c, "browser.downloads", json!({})).await;
        assert_eq!(listed["result"]["downloads"][0]["path"], path.as_str(), "{listed}");
        if listed["result"]["downloads"][0]["state"] == "completed" {
            assert_eq!(listed["result"]["downloads"][0]["bytes"], 26, "{listed}");
            break;
        }
        assert!(Instant::now() < deadline, "never completed: {listed}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    // A navigation the click caused is named.
    let r = ok(&mut c, "browser.click", json!({"selector": "#away", "tab_id": tab})).await;
    let to = r["result"]["navigated_to"].as_str().unwrap_or_default();
    assert!(to.contains("form.html?away"), "{}", cut(&r));
}
