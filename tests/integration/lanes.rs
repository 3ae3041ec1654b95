//! One lane per party (issue 31) on real Chromium: a session with no tab of its own never
//! takes the tab another session works in, and a session whose tab another navigated hears
//! which session did it; downloads of one name never overwrite each other; a party's
//! cookies, storage, tabs, downloads and tab events are its own; a click the page never
//! heard fails and says so.

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
    let by = format!("session {}", same_id.as_str().unwrap_or_default());
    assert_eq!(r["error"]["data"]["details"]["by"], by.as_str(), "the stale ref names who: {r}");
    drop(env);
}

/// Two downloads of one name in one party, and one in another party: three files, each
/// result naming its own path, none overwritten; the other party's lands in its own folder.
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
        paths.push((download(c, "#dl").await, page));
    }
    paths.push((download(&mut a, "#dl").await, "refs.html"));
    let (a1, b1, a2) = (&paths[0].0, &paths[1].0, &paths[2].0);
    assert!(a1.ends_with("q3-report.csv") && b1.ends_with("q3-report.csv"), "{paths:?}");
    assert!(a2.ends_with("q3-report (2).csv"), "a taken name gets a number: {paths:?}");
    let dir = |p: &str| std::path::Path::new(p).parent().map(std::path::Path::to_path_buf);
    assert_eq!(dir(a1), dir(a2), "one party, one folder: {paths:?}");
    assert_ne!(dir(a1), dir(b1), "each party its own folder: {paths:?}");
    for (path, page) in &paths {
        wait_file(path, page).await;
    }
    drop(env);
}

/// Clicks `selector` and returns the path the result names for its download.
async fn download(c: &mut Raw, selector: &str) -> String {
    let click = ok(c, "browser.click", json!({"selector": selector})).await;
    let named = click["result"]["downloads"][0]["path"].as_str().unwrap_or_default();
    assert!(!named.is_empty(), "the result names the download's path: {click}");
    named.to_owned()
}

/// Waits until `path` holds the fixture `page`.
async fn wait_file(path: &str, page: &str) {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(page);
    let want = std::fs::read(fixture).expect("fixture");
    let deadline = std::time::Instant::now() + glovebox_tests::DEADLINE;
    loop {
        if std::fs::read(path).is_ok_and(|got| got == want) {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "{path} never held {page}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// What a page of the origin reads of its cookies and storage, in the session's own tab.
async fn jar(c: &mut Raw) -> String {
    let read = "document.cookie + '|' + (localStorage.getItem('who') || '')";
    let r = ok(c, "browser.evaluate", json!({"script": read, "capture": false})).await;
    r["result"]["value"].as_str().unwrap_or_default().to_owned()
}

fn tab_ids(list: &Value) -> Vec<String> {
    let tabs = list["result"]["tabs"].as_array().cloned().unwrap_or_default();
    tabs.iter().filter_map(|t| t["tab_id"].as_str().map(str::to_owned)).collect()
}

/// Two parties and an observer of the first: cookies, storage, tabs and downloads of party A
/// are not B's; A's observer sees A's; a session with a context of its own starts empty; an
/// admin sees every tab with its owner.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partys_cookies_storage_tabs_and_downloads_are_its_own() {
    let env = BrowserEnv::start().await;
    let page = env.site.url("refs.html");
    let mut a = env.daemon.actor().await;
    let nav = ok(&mut a, "browser.navigate", json!({"url": page})).await;
    let a_tab = nav["target"]["tab_id"].as_str().expect("a's tab").to_owned();
    let set = "document.cookie = 'who=a; max-age=3600'; localStorage.setItem('who', 'a'); true";
    ok(&mut a, "browser.evaluate", json!({"script": set})).await;
    assert_eq!(jar(&mut a).await, "who=a|a");
    let link = "const l = document.createElement('a'); l.id = 'dl'; l.textContent = 'save'; \
                l.href = '/refs.html'; l.download = 'a-secret.csv'; document.body.prepend(l); true";
    ok(&mut a, "browser.evaluate", json!({"script": link})).await;
    let a_file = download(&mut a, "#dl").await;
    wait_file(&a_file, "refs.html").await;

    // B, another party, on the same origin: none of A's cookies, storage, tabs or files.
    let mut b = Raw::connect(&env.daemon.url(), Some(OTHER_ACTOR)).await.expect("connect");
    b.hello(None).await;
    let nav = ok(&mut b, "browser.navigate", json!({"url": page})).await;
    let b_tab = nav["target"]["tab_id"].as_str().expect("b's tab").to_owned();
    assert_ne!(b_tab, a_tab);
    assert_eq!(jar(&mut b).await, "|", "B reads none of A's cookies or storage");
    let b_tabs = tab_ids(&ok(&mut b, "browser.tab_list", json!({})).await);
    assert_eq!(b_tabs, vec![b_tab.clone()], "B lists its own tab only");
    for (method, params) in [
        ("browser.get_content", json!({"tab_id": a_tab})),
        ("browser.tab_get", json!({"tab_id": a_tab})),
        ("browser.tab_select", json!({"tab_id": a_tab})),
        ("browser.navigate", json!({"tab_id": a_tab, "url": page})),
    ] {
        let r = b.call(method, params).await;
        assert_eq!(code(&r), "TARGET_NOT_FOUND", "{method} on A's tab: {r}");
    }
    let listed = ok(&mut b, "browser.downloads", json!({})).await;
    assert!(!listed.to_string().contains("a-secret"), "B lists none of A's files: {listed}");
    let r = b.call("browser.upload", json!({"selector": "body", "files": [a_file]})).await;
    assert_eq!(code(&r), "FORBIDDEN", "B cannot hand A's download to a page: {r}");
    assert!(url_of(&mut a, &a_tab).await.ends_with("refs.html"), "A's tab stayed");

    // A's observer, of A's party: A's tab and A's download.
    let mut o = Raw::connect(&env.daemon.url(), Some(glovebox_tests::OBSERVER)).await.expect("o");
    o.hello(None).await;
    let o_tabs = tab_ids(&ok(&mut o, "browser.tab_list", json!({})).await);
    assert!(o_tabs.contains(&a_tab) && !o_tabs.contains(&b_tab), "{o_tabs:?}");
    let content = ok(&mut o, "browser.get_content", json!({"tab_id": a_tab})).await;
    assert!(content["result"].to_string().len() > 10, "{content}");
    let listed = ok(&mut o, "browser.downloads", json!({})).await;
    assert!(listed.to_string().contains("a-secret"), "A's observer sees A's files: {listed}");

    // A session of A with a context of its own: a fresh jar.
    let mut fresh = Raw::connect(&env.daemon.url(), Some(glovebox_tests::ACTOR)).await.expect("c");
    let hello = fresh.call("session.hello", json!({"protocol": 1, "browser_context": "own"})).await;
    assert!(hello.get("result").is_some(), "{hello}");
    ok(&mut fresh, "browser.navigate", json!({"url": page})).await;
    assert_eq!(jar(&mut fresh).await, "|", "its own context holds nothing of A's");
    let bad = Raw::connect(&env.daemon.url(), Some(glovebox_tests::ACTOR)).await;
    let mut bad = bad.expect("connect");
    let r = bad.call("session.hello", json!({"protocol": 1, "browser_context": "mine"})).await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");

    // An admin sees every party's tab, each with its owner.
    let mut admin = Raw::connect(&env.daemon.url(), Some(glovebox_tests::ADMIN)).await.expect("a");
    admin.hello(None).await;
    let all = ok(&mut admin, "browser.tab_list", json!({})).await;
    let tabs = all["result"]["tabs"].as_array().cloned().unwrap_or_default();
    let owner = |id: &str| tabs.iter().find(|t| t["tab_id"] == id).map(|t| t["owner"].clone());
    let (oa, ob) = (owner(&a_tab), owner(&b_tab));
    assert!(oa.as_ref().is_some_and(Value::is_string), "{all}");
    assert!(ob.as_ref().is_some_and(Value::is_string) && oa != ob, "{all}");
    drop(env);
}

/// Two parties click in their own tabs while other tabs come forward (a tab the first party
/// opened over its own, another session's of the same party, an admin's): every click lands
/// in its own page, 20 each, alternating, each verified by the page's own counter.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clicks_land_in_each_partys_tab_whatever_is_in_front() {
    let env = BrowserEnv::start().await;
    let page = "data:text/html,<title>counter</title><button id=b \
                onclick=\"n.textContent=%2Bn.textContent%2B1\">add</button><span id=n>0</span>";
    let mut a = env.daemon.actor().await;
    let mut b = Raw::connect(&env.daemon.url(), Some(OTHER_ACTOR)).await.expect("connect");
    b.hello(None).await;
    let mut tabs = Vec::new();
    for c in [&mut a, &mut b] {
        let nav = ok(c, "browser.navigate", json!({"url": page})).await;
        tabs.push(nav["target"]["tab_id"].as_str().expect("tab").to_owned());
    }
    // a's counter goes to the back of its window behind a tab a opens; a second session of
    // a's party and an admin open tabs of their own.
    let over = json!({"url": env.site.url("refs.html"), "visible": true});
    ok(&mut a, "browser.tab_new", over).await;
    let mut a2 = env.daemon.actor().await;
    ok(&mut a2, "browser.navigate", json!({"url": env.site.url("refs.html")})).await;
    let mut admin = Raw::connect(&env.daemon.url(), Some(glovebox_tests::ADMIN)).await.expect("c");
    admin.hello(None).await;
    let front = json!({"url": env.site.url("form.html"), "visible": true});
    ok(&mut admin, "browser.tab_new", front).await;
    let shown = json!({"script": "document.visibilityState", "tab_id": tabs[0], "capture": false});
    let vis = ok(&mut a, "browser.evaluate", shown).await;
    assert_eq!(vis["result"]["value"], "hidden", "a's counter is behind another tab: {vis}");
    for i in 1..=20 {
        for (c, tab) in [(&mut a, &tabs[0]), (&mut b, &tabs[1])] {
            let click = json!({"selector": "#b", "tab_id": tab, "capture": false});
            let r = ok(c, "browser.click", click).await;
            assert!(r["result"].get("unchecked").is_none(), "the page's receipt is checked: {r}");
            let read = json!({"script": "n.textContent", "tab_id": tab, "capture": false});
            let n = ok(c, "browser.evaluate", read).await;
            assert_eq!(n["result"]["value"], i.to_string(), "click {i} in {tab}: {r} {n}");
        }
    }
    drop(env);
}

/// The event `kind` about `tab` that `c` hears next, with what it heard before it.
async fn hear(c: &mut Raw, kind: &str, tab: &str) -> (Value, Vec<Value>) {
    let mut before = Vec::new();
    loop {
        let n = c.notification("events.event").await;
        let ev = n["params"]["result"].clone();
        if ev["kind"] == kind && ev["data"]["tab_id"] == tab {
            return (ev, before);
        }
        before.push(ev);
    }
}

/// A tab's events reach its own party's subscribers and admins, never another party's: B's
/// new tab, its navigation and its close are not even named to A.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partys_tab_events_reach_only_that_party_and_admins() {
    let env = BrowserEnv::start().await;
    let page = env.site.url("refs.html");
    let mut a = env.daemon.actor().await;
    ok(&mut a, "browser.navigate", json!({"url": page})).await;
    let mut b = Raw::connect(&env.daemon.url(), Some(OTHER_ACTOR)).await.expect("connect");
    b.hello(None).await;
    let mut admin =
        Raw::connect(&env.daemon.url(), Some(glovebox_tests::ADMIN)).await.expect("connect");
    admin.hello(None).await;
    for c in [&mut a, &mut b, &mut admin] {
        let sub = c.call("events.subscribe", json!({"topics": ["browser"]})).await;
        assert!(sub["result"].is_string(), "{sub}");
    }

    let nav = ok(&mut b, "browser.navigate", json!({"url": page})).await;
    let b_tab = nav["target"]["tab_id"].as_str().expect("b's tab").to_owned();
    let opened = ok(&mut b, "browser.tab_new", json!({"url": page})).await;
    let b_new = opened["result"]["tab_id"].as_str().expect("b's new tab").to_owned();
    ok(&mut b, "browser.tab_close", json!({"tab_id": b_new})).await;
    // B hears its own tab's close; the admin heard its opening, whole.
    hear(&mut b, "tab.closed", &b_new).await;
    let (created, _) = hear(&mut admin, "tab.created", &b_new).await;
    assert!(
        created["data"]["url"].is_string() && created["data"]["redacted"].is_null(),
        "{created}"
    );

    // A's own new tab comes after all of B's events on the bus: what A heard before it holds
    // none of B's tabs.
    let mine = ok(&mut a, "browser.tab_new", json!({"url": page})).await;
    let a_new = mine["result"]["tab_id"].as_str().expect("a's new tab").to_owned();
    let (_, before) = hear(&mut a, "tab.created", &a_new).await;
    for ev in &before {
        let tab = ev["data"]["tab_id"].as_str().unwrap_or_default();
        assert!(tab != b_tab && tab != b_new, "A heard of B's tab: {ev}");
    }
}

/// A click the page never hears is no success. A code client tells Chromium to ignore the
/// tab's input (`Input.setIgnoreInputEvents`); Chromium still answers every input command,
/// and the daemon's witness finds the page heard nothing: by selector, by ref and at a point
/// the click fails as ACTION_FAILED saying so, and the page's counter stays; so does a key
/// press. Once input flows again, the same clicks land and the key is heard, checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_the_page_never_hears_fails_and_says_so() {
    let policy = json!({"rules": [{"name": "code-ok", "class": "cdp", "decision": "allow"}]});
    let env = BrowserEnv::with_policy(policy).await;
    let mut a = env.daemon.actor().await;
    let page =
        "data:text/html,<title>counter</title><button id=b style=\"width:200px;height:80px\" \
                onclick=\"n.textContent=%2Bn.textContent%2B1\">add</button><span id=n>0</span>";
    ok(&mut a, "browser.navigate", json!({"url": page})).await;
    let snap = ok(&mut a, "browser.snapshot", json!({})).await;
    let outline = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
    let button = outline
        .lines()
        .find(|l| l.contains("button \"add\""))
        .unwrap_or_else(|| panic!("the button in {outline}"));
    let r = line_ref(button).expect("its ref").to_owned();

    let got = ok(&mut a, "browser.cdp_session", json!({})).await;
    let mut ws = Raw::connect(got["result"]["url"].as_str().expect("url"), None).await.expect("c");
    let targets = devtools(&mut ws, 1, "Target.getTargets", json!({}), None).await;
    let infos = targets["result"]["targetInfos"].as_array().cloned().unwrap_or_default();
    let page_id = infos.iter().find(|t| t["type"] == "page").expect("the page")["targetId"].clone();
    let attach = json!({"targetId": page_id, "flatten": true});
    let attached = devtools(&mut ws, 2, "Target.attachToTarget", attach, None).await;
    let session = attached["result"]["sessionId"].as_str().expect("a session").to_owned();
    let ignore = json!({"ignore": true});
    let set = devtools(&mut ws, 3, "Input.setIgnoreInputEvents", ignore, Some(&session)).await;
    assert!(set.get("result").is_some(), "{set}");

    let count = json!({"script": "n.textContent", "capture": false});
    for click in [json!({"selector": "#b"}), json!({"ref": r}), json!({"x": 100, "y": 40})] {
        let mut p = click.clone();
        p["capture"] = json!(false);
        let failed = a.call("browser.click", p).await;
        assert_eq!(code(&failed), "ACTION_FAILED", "{click}: {failed}");
        let msg = failed["error"]["message"].as_str().unwrap_or_default();
        assert!(msg.contains("did not receive the click"), "{click}: {failed}");
        let n = ok(&mut a, "browser.evaluate", count.clone()).await;
        assert_eq!(n["result"]["value"], "0", "{click}: the page's counter stays");
    }
    let key = a.call("browser.press", json!({"key": "Enter", "capture": false})).await;
    assert_eq!(code(&key), "ACTION_FAILED", "{key}");
    let msg = key["error"]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("did not receive the key press"), "{key}");

    let flow = json!({"ignore": false});
    devtools(&mut ws, 4, "Input.setIgnoreInputEvents", flow, Some(&session)).await;
    for (i, click) in [json!({"selector": "#b"}), json!({"ref": r}), json!({"x": 100, "y": 40})]
        .into_iter()
        .enumerate()
    {
        let mut p = click.clone();
        p["capture"] = json!(false);
        let landed = ok(&mut a, "browser.click", p).await;
        assert!(landed["result"].get("unchecked").is_none(), "{click}: checked: {landed}");
        let n = ok(&mut a, "browser.evaluate", count.clone()).await;
        assert_eq!(n["result"]["value"], (i + 1).to_string(), "{click}: {landed}");
    }
    let key = ok(&mut a, "browser.press", json!({"key": "Enter", "capture": false})).await;
    assert!(key["result"].get("unchecked").is_none(), "checked: {key}");
}

/// Call DevTools `method` as call `id` on `ws` (in `session`, else at the browser level) and
/// answer what it answered, skipping events.
async fn devtools(
    ws: &mut Raw,
    id: u64,
    method: &str,
    params: Value,
    session: Option<&str>,
) -> Value {
    let mut call = json!({"id": id, "method": method, "params": params});
    if let Some(s) = session {
        call["sessionId"] = json!(s);
    }
    ws.send_text(&call.to_string()).await;
    loop {
        let m = ws.recv().await;
        if m["id"] == id {
            return m;
        }
    }
}

/// A page that captures pointer events on its window and stops them there (as some consent
/// and anti-bot scripts do) hides them from the witness too: that click is not called lost,
/// its result says its receipt could not be checked, and the page's own listener saw it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_stops_events_on_its_window_gets_an_unchecked_click_not_a_failure() {
    let env = BrowserEnv::start().await;
    let mut a = env.daemon.actor().await;
    let page = "data:text/html,<script>window.stopped = 0; for (const t of ['pointerdown', \
                'pointerup', 'mousedown', 'mouseup', 'click']) addEventListener(t, (e) => { \
                stopped%2B%2B; e.stopImmediatePropagation(); }, true);</script>\
                <button id=b style=\"width:200px;height:80px\">add</button>";
    ok(&mut a, "browser.navigate", json!({"url": page})).await;
    let r = ok(&mut a, "browser.click", json!({"selector": "#b", "capture": false})).await;
    let why = r["result"]["unchecked"].as_str().unwrap_or_default();
    assert!(why.contains("captures") && why.contains("on its window"), "{r}");
    let seen = json!({"script": "stopped", "capture": false});
    let n = ok(&mut a, "browser.evaluate", seen).await;
    assert!(n["result"]["value"].as_i64().is_some_and(|n| n > 0), "the page heard it: {n}");
}
