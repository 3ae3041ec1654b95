//! The holes an outside probe found, each reproduced and shown closed on the real daemon and
//! a real Chromium: hostile URL spellings, navigations the page starts itself, uploads of the
//! daemon's own files, the browser's DevTools out of a page's reach, other Chromiums, sessions
//! that belong to their token, and unknown parameters sent as null.

use std::time::{Duration, Instant};

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::{InProcess, ADMIN, DEADLINE, OBSERVER, OTHER_ACTOR};
use serde_json::{json, Value};

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"].clone()
}

async fn eval(c: &mut Raw, script: &str) -> Value {
    ok(c, "browser.evaluate", json!({"script": script})).await["result"]["value"].clone()
}

async fn url_now(c: &mut Raw) -> String {
    ok(c, "browser.get_url", json!({})).await["result"]["url"].as_str().unwrap_or_default().into()
}

async fn tab_count(c: &mut Raw) -> usize {
    let list = ok(c, "browser.tab_list", json!({})).await;
    list["result"]["tabs"].as_array().map_or(0, Vec::len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_policy_holds_in_the_browser_whoever_navigates() {
    // `localhost` is the same server as 127.0.0.1 under another name: the denied host.
    let env = BrowserEnv::with_policy(json!({"rules": [
        {"name": "no-localhost", "class": "navigate", "hosts": ["localhost"], "decision": "deny"},
    ]}))
    .await;
    let site = &env.site;
    let mut c = env.daemon.actor().await;
    let start = site.url("refs.html");
    ok(&mut c, "browser.navigate", json!({"url": start})).await;
    let tabs = tab_count(&mut c).await;

    // H1 and H2: hostile spellings are refused before anything loads, at once.
    let port = site.base.rsplit(':').next().unwrap_or_default().to_owned();
    let hostile = [
        "fi\nle:///etc/passwd".to_owned(),
        "\u{1}file:///etc/passwd".into(),
        "chr\tome://version".into(),
        "java\tscript:document.title='owned'".into(),
        "%66ile:///etc/passwd".into(),
        "chrome-devtools://devtools/bundled/inspector.html".into(),
        format!("http://localhost.:{port}/form.html"),
        format!("http://loca%6Chost:{port}/form.html"),
        format!("http://ｌｏｃａｌｈｏｓｔ:{port}/form.html"),
        format!("http:\\\\localhost:{port}\\form.html"),
    ];
    for url in &hostile {
        for action in ["browser.navigate", "browser.tab_new"] {
            let t = Instant::now();
            let r = c.call(action, json!({"url": url})).await;
            let why = code(&r);
            assert!(
                ["APPROVAL_DENIED", "CONTRACT_VIOLATION"].contains(&why.as_str()),
                "{url:?}: {r}"
            );
            assert!(t.elapsed() < Duration::from_secs(2), "{url:?} answered late");
        }
    }
    assert_eq!(url_now(&mut c).await, start, "the tab stayed where it was");
    assert_eq!(tab_count(&mut c).await, tabs, "no tab was left behind");
    assert_eq!(eval(&mut c, "document.title").await, "Refs", "no script ran");

    // Navigations the page starts itself: a link, location, a form, a redirect, a popup.
    let mut watcher = env.daemon.actor().await;
    watcher.call("events.subscribe", json!({"topics": ["browser"]})).await;
    let denied = site.other_host("form.html");
    let redirect = site.url(&format!("redirect?to={denied}"));
    let setup = format!(
        "document.body.insertAdjacentHTML('beforeend', `
          <a id=link href='{denied}'>away</a>
          <a id=popup target=_blank href='{denied}?popup'>popup</a>
          <a id=bounce href='{redirect}'>bounce</a>
          <form id=f action='{denied}'><button id=send>send</button></form>`); 1"
    );
    eval(&mut c, &setup).await;
    for selector in ["#link", "#send", "#bounce", "#popup"] {
        let r = ok(&mut c, "browser.click", json!({"selector": selector})).await;
        let blocked = &r["result"]["navigation_blocked"];
        assert_eq!(blocked[0]["rule"], "no-localhost", "{selector}: {r}");
        assert!(blocked[0]["url"].as_str().is_some_and(|u| u.contains("localhost")), "{r}");
        let event = loop {
            let n = watcher.notification("events.event").await;
            if n["params"]["result"]["kind"] == "navigation_blocked" {
                break n;
            }
        };
        assert_eq!(event["params"]["result"]["data"]["rule"], "no-localhost", "{event}");
        // A blocked load shows an error page: back to the start for the next link.
        if !url_now(&mut c).await.starts_with(&start) {
            ok(&mut c, "browser.navigate", json!({"url": start})).await;
            eval(&mut c, &setup).await;
        }
    }
    eval(&mut c, &format!("location.href = '{denied}'; 1")).await;
    let deadline = Instant::now() + DEADLINE;
    loop {
        let n = watcher.notification("events.event").await;
        if n["params"]["result"]["kind"] == "navigation_blocked" {
            break;
        }
        assert!(Instant::now() < deadline, "no event for the location change");
    }
    assert_eq!(site.other_host_hits(), Vec::<String>::new(), "the denied host saw no request");
    // With host rules the guard stops sub-requests to the host too.
    let fetched =
        eval(&mut c, &format!("fetch('{denied}').then(() => 'reached', e => 'blocked: ' + e)"))
            .await;
    assert!(fetched.as_str().is_some_and(|s| s.starts_with("blocked")), "{fetched}");
    assert_eq!(site.other_host_hits(), Vec::<String>::new(), "the denied host saw no request");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_and_the_state_dir_are_out_of_a_pages_reach() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("form.html")})).await;

    // H4: the daemon's Chromium has no debugging port; the relay refuses a page.
    let list = ok(&mut c, "context.list_browsers", json!({})).await;
    let own = &list["result"]["browsers"][0];
    let pid = own["pid"].as_u64().expect("pid");
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).expect("cmdline");
    let cmdline = String::from_utf8_lossy(&cmdline);
    assert!(!cmdline.contains("--remote-debugging-port"), "{cmdline}");
    assert!(cmdline.contains("--remote-debugging-pipe"), "{cmdline}");
    let port = own["port"].as_u64().expect("port");
    let probe = format!(
        "Promise.all([
           fetch('http://127.0.0.1:{port}/json/version').then(r => 'http ' + r.status, e => 'http refused'),
           new Promise(done => {{
             const ws = new WebSocket('ws://127.0.0.1:{port}/devtools/browser');
             ws.onopen = () => done('ws open');
             ws.onerror = () => done('ws refused');
           }}),
         ]).then(a => a.join(', '))"
    );
    let seen = eval(&mut c, &probe).await;
    assert!(
        !seen.to_string().contains("http 200") && seen.to_string().contains("ws refused"),
        "{seen}"
    );
    // The target list of the browser is only reachable through the daemon.
    let tabs = ok(&mut c, "browser.tab_list", json!({})).await;
    assert!(tabs["result"]["tabs"].as_array().is_some_and(|t| !t.is_empty()), "{tabs}");

    // H3: uploads come only from the file roots, never the state dir's own files.
    let state = &env.daemon.state.path;
    std::fs::write(state.join("token"), "secret-token actor\n").expect("token");
    let _ = std::os::unix::fs::symlink(state.join("token"), state.join("files/innocent.txt"));
    let token = state.join("token").display().to_string();
    for files in
        [json!([token]), json!(["innocent.txt"]), json!(["../token"]), json!(["/etc/passwd"])]
    {
        let r = c.call("browser.upload", json!({"selector": "#file", "files": files})).await;
        assert_eq!(code(&r), "FORBIDDEN", "{files}: {r}");
        assert!(r["error"]["data"]["details"]["roots"].is_array(), "{r}");
    }
    assert_eq!(eval(&mut c, "document.getElementById('file').files.length").await, 0);

    // A remote client puts a file into files/ first, then uploads it by name.
    let put = c.call("files.put", json!({"name": "report.txt", "data": "aGVsbG8="})).await;
    assert_eq!(put["result"]["bytes"], 5, "{put}");
    ok(&mut c, "browser.upload", json!({"selector": "#file", "files": ["report.txt"]})).await;
    assert_eq!(eval(&mut c, "document.getElementById('file').files[0].size").await, 5);
    for bad in [
        json!({"name": "../token", "data": ""}),
        json!({"name": "x", "data": "%%"}),
        json!({"name": "a\nb.txt", "data": ""}),
        json!({"name": "invoice\u{202e}fdp.exe", "data": ""}),
        json!({"name": "-rf", "data": ""}),
    ] {
        let r = c.call("files.put", bad.clone()).await;
        assert_eq!(code(&r), "CONTRACT_VIOLATION", "{bad}: {r}");
    }
    // An upload from outside the roots is refused alike whether or not the file exists, and
    // the error names the roots relative to the state dir.
    let refused = |path: &str| json!({"selector": "#file", "files": [path]});
    let there = c.call("browser.upload", refused("/etc/passwd")).await;
    let absent = c.call("browser.upload", refused("/etc/no-such-file-here")).await;
    let why = |r: &Value| {
        r["error"]["data"]["message"]
            .as_str()
            .unwrap_or_default()
            .replace("passwd", "X")
            .replace("no-such-file-here", "X")
    };
    assert_eq!(why(&there), why(&absent), "no existence oracle: {there} / {absent}");
    // (The browser's downloads here are its own state dir's, outside the daemon's.)
    assert_eq!(there["error"]["data"]["details"]["roots"][0], "files", "{there}");
    let mut watcher = Raw::connect(&env.daemon.url(), Some(OBSERVER)).await.expect("observer");
    watcher.hello(None).await;
    let r = watcher.call("files.put", json!({"name": "y", "data": ""})).await;
    assert_eq!(code(&r), "FORBIDDEN", "{r}");

    // Every unknown parameter is refused, null or not; the tab lives.
    let tab = ok(&mut c, "browser.tab_new", json!({"url": env.site.url("refs.html")})).await;
    let tab_id = tab["result"]["tab_id"].as_str().expect("tab").to_owned();
    let r = c.call("browser.tab_close", json!({"tab_id": tab_id, "no_such_param": null})).await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");
    ok(&mut c, "browser.tab_get", json!({"tab_id": tab_id})).await;
}

#[tokio::test]
async fn sessions_belong_to_the_token_that_made_them_and_names_are_its_own() {
    let d = InProcess::start().await;
    let mut owner = d.actor().await;
    let hello = ok(&mut owner, "session.status", json!({})).await;
    let minted = hello["session_id"].as_str().expect("id").to_owned();
    assert_eq!(minted.len(), 34 + 17, "128 random bits and the token's tag: {minted}");
    let mut named = Raw::connect(&d.url(), Some(glovebox_tests::ACTOR)).await.expect("actor");
    let mine = named.hello(Some("mine")).await["session_id"].as_str().expect("id").to_owned();
    assert!(mine.starts_with("mine@"), "{mine}");
    ok(&mut named, "computer.wait", json!({"duration_ms": 1, "op_id": "w1"})).await;

    // An observer of another token subscribes: it hears nothing of this session.
    let mut observer = Raw::connect(&d.url(), Some(OBSERVER)).await.expect("observer");
    observer.hello(None).await;
    observer.call("events.subscribe", json!({"topics": ["ops", "session"]})).await;

    drop(named);
    for token in [OTHER_ACTOR, OBSERVER] {
        // Its id, as the owner's hello gave it, is refused to another token.
        let mut thief = Raw::connect(&d.url(), Some(token)).await.expect("connect");
        let r = thief.call("session.hello", json!({"protocol": 1, "session": mine})).await;
        assert_eq!(code(&r), "FORBIDDEN", "{token}: {r}");
        let r = thief.call("op.status", json!({"op_id": "w1"})).await;
        assert_eq!(code(&r), "HANDSHAKE_REQUIRED", "{r}");
        // The same name is that token's own session: nothing of the owner's is in it.
        let r = thief.call("session.hello", json!({"protocol": 1, "session": "mine"})).await;
        assert_eq!(r["result"]["resumed"], false, "{token}: {r}");
        assert_ne!(r["result"]["session_id"], mine.as_str(), "{r}");
        let r = thief.call("op.status", json!({"op_id": "w1"})).await;
        assert!(r.get("error").is_some(), "another session's op: {r}");
    }
    // The owner's token resumes it; its op outcome is still there.
    let mut back = Raw::connect(&d.url(), Some(glovebox_tests::ACTOR)).await.expect("actor");
    let deadline = Instant::now() + DEADLINE;
    let params = json!({"protocol": 1, "session": "mine"});
    loop {
        let r = back.call("session.hello", params.clone()).await;
        if r.get("result").is_some() {
            assert_eq!(r["result"]["resumed"], true, "{r}");
            break;
        }
        assert!(Instant::now() < deadline, "{r}");
    }
    ok(&mut back, "op.status", json!({"op_id": "w1"})).await;
    ok(&mut back, "computer.wait", json!({"duration_ms": 1})).await;
    // An admin may use any session.
    drop(owner);
    let mut admin = Raw::connect(&d.url(), Some(ADMIN)).await.expect("admin");
    let deadline = Instant::now() + DEADLINE;
    loop {
        let r = admin.call("session.hello", json!({"protocol": 1, "session": minted})).await;
        if r.get("result").is_some() {
            break;
        }
        assert!(code(&r) == "SESSION_BUSY" && Instant::now() < deadline, "{r}");
    }

    // The observer heard only its own token's sessions' events, none of the owner's "mine".
    let probe = observer.call("session.status", json!({})).await;
    assert!(probe.get("result").is_some(), "{probe}");
    let own = probe["result"]["session_id"].as_str().unwrap_or_default().to_owned();
    let mut seen = Vec::new();
    while let Ok(n) =
        tokio::time::timeout(Duration::from_millis(300), observer.notification("events.event"))
            .await
    {
        seen.push(n["params"]["result"]["data"]["session"].as_str().unwrap_or_default().to_owned());
    }
    // Its own token's sessions only (the thief's "mine" above is one of them).
    let tag = own.rsplit_once('@').map(|(_, t)| t.to_owned()).unwrap_or_default();
    assert!(
        seen.iter().all(|s| s.ends_with(&format!("@{tag}")) && *s != mine),
        "another token's session events leaked: {seen:?}"
    );
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_token_s_observer_hears_of_a_tab_but_not_where_it_is() {
    let env = BrowserEnv::start().await;
    let mut actor = env.daemon.actor().await;
    let mut own = env.daemon.actor().await;
    own.call("events.subscribe", json!({"topics": ["browser"]})).await;
    let mut observer = Raw::connect(&env.daemon.url(), Some(OBSERVER)).await.expect("observer");
    observer.hello(None).await;
    observer.call("events.subscribe", json!({"topics": ["browser"]})).await;

    let url = format!("{}?secret-marker-4711", env.site.url("form.html"));
    let nav = ok(&mut actor, "browser.navigate", json!({"url": url})).await;
    let tab = nav["target"]["tab_id"].as_str().expect("tab").to_owned();
    // The actor's token hears the navigation whole.
    let deadline = Instant::now() + DEADLINE;
    loop {
        let n = own.notification("events.event").await;
        let ev = &n["params"]["result"];
        if ev["kind"] == "navigated" && ev["data"]["url"] == url.as_str() {
            break;
        }
        assert!(Instant::now() < deadline, "the actor's token never heard {url}");
    }
    // The other token's observer hears that the tab navigated, never where to.
    let deadline = Instant::now() + DEADLINE;
    loop {
        let n = observer.notification("events.event").await;
        assert!(!n.to_string().contains("secret-marker-4711"), "a URL leaked: {n}");
        let ev = &n["params"]["result"];
        if ev["kind"] == "navigated" && ev["data"]["tab_id"] == tab.as_str() {
            assert_eq!(ev["data"]["redacted"], true, "{n}");
            break;
        }
        assert!(Instant::now() < deadline, "the observer heard nothing of {tab}");
    }

    // A tab the actor's page opens, and a file it downloads, are the actor's token's too:
    // heard whole there, without where to by the other token.
    let setup = format!(
        "document.body.insertAdjacentHTML('beforeend', `
          <a id=pop target=_blank href='{form}?popup-marker-4712'>pop</a>
          <a id=dl href='{csv}?download-marker-4713'>dl</a>`); 1",
        form = env.site.url("form.html"),
        csv = env.site.url("report.csv"),
    );
    ok(&mut actor, "browser.evaluate", json!({"script": setup})).await;
    let r = ok(&mut actor, "browser.click", json!({"selector": "#pop"})).await;
    let popup = r["result"]["opened_tabs"][0]["tab_id"].as_str().expect("a popup").to_owned();
    ok(&mut actor, "browser.click", json!({"selector": "#dl"})).await;
    let heard = |ev: &Value| {
        (ev["kind"] == "tab.created" && ev["data"]["tab_id"] == popup.as_str())
            || ev["kind"] == "download.finished"
    };
    for (who, c) in [("the actor's token", &mut own), ("the other token", &mut observer)] {
        let (mut popped, mut downloaded) = (false, false);
        let deadline = Instant::now() + DEADLINE;
        while !(popped && downloaded) {
            let n = c.notification("events.event").await;
            let ev = &n["params"]["result"];
            let mine = who == "the actor's token";
            if !mine {
                assert!(!n.to_string().contains("-marker-471"), "a URL leaked: {n}");
            }
            if heard(ev) {
                // A new tab's URL is often still empty when it is created.
                if ev["kind"] == "download.finished" {
                    let url = ev["data"]["url"].as_str().unwrap_or_default();
                    assert_eq!(url.contains("download-marker-4713"), mine, "{who}: {n}");
                }
                assert_eq!(ev["data"]["redacted"].as_bool().unwrap_or(false), !mine, "{who}: {n}");
                popped |= ev["kind"] == "tab.created";
                downloaded |= ev["kind"] == "download.finished";
            }
            assert!(Instant::now() < deadline, "{who} never heard of the popup and download");
        }
    }
}

/// N4: an approval covers exactly the approved URL's load. A redirect to an `ask` host from
/// an allowed load, a reload of it, and a step back onto it through the history are each
/// judged afresh: refused with the rule, and the host sees no request of theirs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_covers_the_approved_load_and_nothing_after_it() {
    let env = BrowserEnv::with_policy(json!({"rules": [
        {"name": "ask-localhost", "class": "navigate", "hosts": ["localhost"], "decision": "ask"},
    ]}))
    .await;
    let site = &env.site;
    let mut c = env.daemon.actor().await;
    let start = site.url("refs.html");
    ok(&mut c, "browser.navigate", json!({"url": start})).await;
    let asked = site.other_host("form.html");

    // A redirect from an allowed load the daemon started.
    let bounce = site.url(&format!("redirect?to={asked}"));
    let r = c.call("browser.navigate", json!({"url": bounce})).await;
    assert_eq!(code(&r), "APPROVAL_DENIED", "the redirect's hop: {r}");
    assert_eq!(r["error"]["data"]["details"]["rule"], "ask-localhost", "{r}");
    assert_eq!(site.other_host_hits(), Vec::<String>::new(), "no request reached the host");

    // The approved load itself runs, once.
    let call = json!({"url": asked, "op_id": "to-asked"});
    let r = c.call("browser.navigate", call.clone()).await;
    assert_eq!(code(&r), "APPROVAL_REQUIRED", "{r}");
    let id = r["error"]["data"]["details"]["approval_id"].as_str().expect("an approval").to_owned();
    let mut admin = Raw::connect(&env.daemon.url(), Some(ADMIN)).await.expect("admin");
    admin.hello(None).await;
    ok(&mut admin, "approval.grant", json!({"approval_id": id})).await;
    ok(&mut c, "browser.navigate", call).await;
    assert_eq!(url_now(&mut c).await, asked);
    // Its page's loads (and the page's own sub-requests, which pass an `ask`, such as its
    // favicon) reached the host; the page was loaded once.
    let pages = |hits: Vec<String>| hits.into_iter().filter(|h| h.ends_with("/form.html")).count();
    assert_eq!(pages(site.other_host_hits()), 1, "the approved load");

    // A reload of it is a new load no one approved.
    let r = c.call("browser.reload", json!({})).await;
    assert_eq!(code(&r), "APPROVAL_DENIED", "the reload: {r}");
    assert_eq!(pages(site.other_host_hits()), 1, "the reload never reached the host");

    // Back onto it through the history, from an allowed page.
    ok(&mut c, "browser.navigate", json!({"url": start})).await;
    let r = c.call("browser.go_back", json!({})).await;
    assert_eq!(code(&r), "APPROVAL_DENIED", "back onto the asked page: {r}");
    assert_eq!(pages(site.other_host_hits()), 1, "going back never reached the host");
}

/// `files.put` stores within its quota (`--files-quota-bytes`); a file that would go over is
/// refused with the limit, and nothing is stored.
#[tokio::test]
async fn stored_files_stay_under_their_quota() {
    let configure: glovebox_tests::Configure =
        std::sync::Arc::new(|c| c.files = c.files.clone().with_quota(8));
    let d = InProcess::with(glovebox_tests::Options {
        configure: Some(configure),
        ..glovebox_tests::Options::default()
    })
    .await;
    let mut c = d.actor().await;
    ok(&mut c, "files.put", json!({"name": "a.txt", "data": "aGVsbG8="})).await;
    // Replacing a file counts its new size, not both.
    ok(&mut c, "files.put", json!({"name": "a.txt", "data": "aGVsbG8h"})).await;
    let r = c.call("files.put", json!({"name": "b.txt", "data": "aGVsbG8="})).await;
    assert_eq!(code(&r), "REQUEST_TOO_LARGE", "{r}");
    assert_eq!(r["error"]["data"]["details"]["limit"], "files_quota_bytes", "{r}");
    assert!(!d.state.path.join("files/b.txt").exists(), "nothing stored");
    d.stop().await;
}

/// N5: every spelling of a denied host is that host, and every way a page reaches it is
/// refused before a byte does: `navigate`, a page's `fetch`, and its WebSockets (which
/// DevTools `Fetch` never sees; the browser's egress proxy refuses them), each named in the
/// result as `navigation_blocked`. The denied address's listener sees no connection at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_spelling_and_channel_of_a_denied_host_is_refused() {
    let listener = tokio::net::TcpListener::bind("127.0.0.2:0").await.expect("127.0.0.2");
    let port = listener.local_addr().expect("port").port();
    let reached = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = reached.clone();
    tokio::spawn(async move {
        while listener.accept().await.is_ok() {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    });
    let env = BrowserEnv::with_policy(json!({"rules": [
        {"name": "no-127-0-0-2", "class": "navigate", "hosts": ["127.0.0.2"], "decision": "deny"},
    ]}))
    .await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("refs.html")})).await;
    let spellings = [
        format!("127.0.0.2:{port}"),
        format!("[::ffff:127.0.0.2]:{port}"),
        format!("[::ffff:7f00:2]:{port}"),
        format!("[::127.0.0.2]:{port}"),
        format!("2130706434:{port}"),
    ];
    for host in &spellings {
        let r = c.call("browser.navigate", json!({"url": format!("http://{host}/")})).await;
        assert_eq!(code(&r), "APPROVAL_DENIED", "navigate to {host}: {r}");
        let fetched =
            eval(&mut c, &format!("fetch('http://{host}/').then(() => 'reached', e => 'refused')"))
                .await;
        assert_eq!(fetched, "refused", "fetch of {host}");
        let script = format!(
            "new Promise(done => {{
               const ws = new WebSocket('ws://{host}/');
               ws.onopen = () => done('open');
               ws.onerror = () => done('refused');
             }})"
        );
        let r = ok(&mut c, "browser.evaluate", json!({"script": script})).await;
        assert_eq!(r["result"]["value"], "refused", "WebSocket to {host}: {r}");
        let blocked = &r["result"]["navigation_blocked"];
        assert_eq!(blocked[0]["kind"], "websocket", "named in the result: {r}");
        assert_eq!(blocked[0]["rule"], "no-127-0-0-2", "{r}");
    }
    assert_eq!(reached.load(std::sync::atomic::Ordering::SeqCst), 0, "no connection reached it");
}
