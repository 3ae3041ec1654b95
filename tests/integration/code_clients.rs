//! Code clients on a tab (`browser.cdp_session`): Playwright for Python (PyPI `playwright`)
//! and Puppeteer (npm `puppeteer-core`), real clients no one here wrote, connect to the
//! endpoint unchanged and see one context with one page. They evaluate, click, fill, set a
//! cookie and intercept a request; a load the policy denies and `file:///etc/passwd` fail
//! while their own interception is on; the agent's other tab stays out of sight; a second
//! connection is refused while one is open; revoking closes the client's connection within
//! a second, and so does revoking its token; an observer gets no endpoint.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Duration;

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::OBSERVER;
use serde_json::{json, Value};

/// Code sessions allowed (they ask by default); the host `localhost` denied.
fn policy() -> Value {
    json!({"rules": [
        {"name": "code-ok", "class": "cdp", "decision": "allow"},
        {"name": "no-localhost", "class": "navigate", "hosts": ["localhost"], "decision": "deny"},
    ]})
}

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"].clone()
}

/// A client script run with `args`, talked to line by line: the child, its stdin and its next
/// JSON line (each waited for within `wait`).
fn spawn(mut cmd: Command, wait: Duration) -> (Child, ChildStdin, impl Fn() -> Value) {
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("the client starts");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let next = move || -> Value {
        let line = rx.recv_timeout(wait).expect("the client's next line in time");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    };
    let stdin = child.stdin.take().expect("stdin");
    (child, stdin, next)
}

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp")
}

fn playwright(args: &[&str]) -> Command {
    let mut cmd = Command::new("python3");
    cmd.arg(tests_dir().join("cdp_playwright.py")).args(args);
    cmd
}

fn puppeteer(args: &[&str]) -> Command {
    let modules = tests_dir().join("node_modules");
    assert!(
        modules.join("puppeteer-core").exists(),
        "run `cargo xtask test` to install tests/mcp's npm packages"
    );
    let mut cmd = Command::new(modules.join(".bin").join("node"));
    cmd.arg(tests_dir().join("cdp_puppeteer.mjs")).args(args);
    // puppeteer-core downloads nothing; say so anyway.
    cmd.env("PUPPETEER_SKIP_DOWNLOAD", "1");
    cmd
}

/// What both clients must have found on the endpoint.
fn assert_found(found: &Value, site: &str, other_tab: &str) {
    // The tab's own context (its party's); Puppeteer counts its default-context object
    // beside it, which holds no page (`pages` below).
    let contexts = found["contexts"].as_u64().unwrap_or_default();
    assert!((1..=2).contains(&contexts), "{found}");
    let pages = found["pages"].as_array().cloned().unwrap_or_default();
    assert_eq!(pages.len(), 1, "one page, the tab: {found}");
    assert!(!pages.iter().any(|p| p.as_str() == Some(other_tab)), "{found}");
    assert_eq!(found["evaluate"], 2, "{found}");
    assert_eq!(found["clicked"], "went", "{found}");
    assert_eq!(found["filled"], "typed by code", "{found}");
    assert!(found["cookie"].as_str().unwrap_or_default().contains("gb=code"), "{found}");
    assert_eq!(found["routed"], "from-route", "{found}");
    let denied = found["denied"].as_str().unwrap_or_default();
    assert!(denied.contains("ERR_BLOCKED_BY_CLIENT"), "the guard failed it: {found}");
    let file = found["file"].as_str().unwrap_or_default();
    assert!(file.contains("no-files") || file.contains("rule"), "the policy refused it: {found}");
    assert!(found["new_page"].as_str().is_some_and(|e| e.contains("one-tab")), "{found}");
    assert_eq!(found["after"], format!("{site}/form.html"), "{found}");
    assert_eq!(found["pages_after"].as_array().map(Vec::len), Some(1), "{found}");
}

/// The shared flow: an endpoint on the session's tab, a client through it, then the agent's
/// view, a second connection, revocation.
async fn flow(client: fn(&[&str]) -> Command) {
    let env = BrowserEnv::with_policy(policy()).await;
    let mut c = env.daemon.actor().await;
    // The agent's other tab, then its own.
    let other = env.site.url("form.html?other");
    ok(&mut c, "browser.tab_new", json!({"url": other})).await;
    ok(&mut c, "browser.tab_new", json!({"url": env.site.url("refs.html")})).await;
    let snap = ok(&mut c, "browser.snapshot", json!({})).await;
    let text = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
    let go = text.lines().find(|l| l.contains("button \"Go\"")).expect("Go");
    let go = glovebox_protocol::outline::line_ref(go).expect("ref").to_owned();

    let got = ok(&mut c, "browser.cdp_session", json!({"ttl_s": 120})).await["result"].clone();
    let url = got["url"].as_str().expect("url").to_owned();
    let cdp_id = got["cdp_id"].as_str().expect("cdp_id").to_owned();
    assert!(url.starts_with(&format!("ws://{}/cdp/", env.daemon.addr)), "{got}");
    assert_eq!(url.rsplit('/').next().map(str::len), Some(32), "128 bits: {got}");
    let tab_id = got["tab_id"].as_str().expect("tab_id").to_owned();
    let listed = ok(&mut c, "browser.tab_get", json!({"tab_id": tab_id})).await;
    assert_eq!(listed["result"]["code_sessions"][0]["cdp_id"], cdp_id.as_str(), "{listed}");

    let denied = env.site.other_host("refs.html");
    let site = env.site.base.clone();
    let (mut child, mut stdin, next) =
        spawn(client(&[&url, &site, &denied]), Duration::from_secs(60));
    let found = tokio::task::spawn_blocking({
        let next_found = next;
        move || (next_found(), next_found)
    })
    .await
    .expect("client ran");
    let (found, next) = found;
    assert_found(&found, &site, &other);
    assert!(env.site.other_host_hits().is_empty(), "the denied host saw nothing");

    // One connection at a time.
    let second = Raw::connect(&url, None).await.err();
    assert_eq!(second, Some(409), "a second connection while the first is open");

    // The agent's view: the code's navigation shows, the old refs are stale.
    // (Chromium may still be committing what the client's last load left behind.)
    let want = format!("{site}/form.html");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        let now = ok(&mut c, "browser.get_url", json!({})).await;
        if now["result"]["url"] == want.as_str() {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the code's navigation shows: {now}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let stale = c.call("browser.click", json!({"ref": go})).await;
    assert_eq!(code(&stale), "STALE_REF", "{stale}");
    let tabs = ok(&mut c, "browser.tab_list", json!({})).await;
    let marked: Vec<&Value> = tabs["result"]["tabs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t.get("code_sessions").is_some())
        .collect();
    assert_eq!(marked.len(), 1, "the tab with the live code session: {tabs}");
    assert_eq!(marked[0]["code_sessions"][0]["connected"], true, "{tabs}");

    // Revocation closes the client's connection within a second.
    writeln!(stdin, "wait-close").expect("stdin");
    let revoked = ok(&mut c, "browser.cdp_revoke", json!({"cdp_id": cdp_id})).await;
    assert_eq!(revoked["result"]["revoked"], true, "{revoked}");
    let closed = tokio::task::spawn_blocking(next).await.expect("client");
    assert_eq!(closed["disconnected"], true, "{closed}");
    assert!(closed["ms"].as_f64().is_some_and(|ms| ms < 1500.0), "{closed}");
    let _ = child.wait();
    let gone = Raw::connect(&url, None).await.err();
    assert_eq!(gone, Some(404), "a revoked endpoint is gone");
    let again = c.call("browser.cdp_revoke", json!({"cdp_id": cdp_id})).await;
    assert_eq!(code(&again), "TARGET_NOT_FOUND", "{again}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn playwright_connects_over_cdp_to_one_tab() {
    flow(playwright).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puppeteer_connects_to_one_tab() {
    flow(puppeteer).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observers_get_no_endpoint_and_the_default_asks() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("refs.html")})).await;
    let mut o = Raw::connect(&env.daemon.url(), Some(OBSERVER)).await.expect("observer");
    o.hello(None).await;
    let refused = o.call("browser.cdp_session", json!({})).await;
    assert_eq!(code(&refused), "FORBIDDEN", "{refused}");
    // Without a rule of the policy file's, an approver must agree first.
    let asked = c.call("browser.cdp_session", json!({"op_id": "cdp-1", "timeout_ms": 300})).await;
    let why = asked.to_string();
    assert!(why.contains("code session") || why.contains("APPROVAL"), "{asked}");
    let bad = c.call("browser.cdp_session", json!({"ttl_s": 3601})).await;
    assert_eq!(code(&bad), "CONTRACT_VIOLATION", "{bad}");
}

/// An endpoint on the tab `tab` (the session's when `None`) with `ttl_s`; its URL.
async fn endpoint(c: &mut Raw, tab: Option<&str>, ttl_s: u64) -> String {
    let mut p = json!({"ttl_s": ttl_s});
    if let Some(t) = tab {
        p["tab_id"] = json!(t);
    }
    let got = ok(c, "browser.cdp_session", p).await;
    got["result"]["url"].as_str().expect("url").to_owned()
}

/// How long until the daemon closes `ws`, from `since`.
async fn closes_within(ws: &mut Raw, since: std::time::Instant) -> Duration {
    assert!(ws.closed().await, "the daemon closed the connection");
    since.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoint_ends_with_its_time_its_tab_and_its_session() {
    let env = BrowserEnv::with_policy(policy()).await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("refs.html")})).await;

    // Its time: one second.
    let asked = std::time::Instant::now();
    let url = endpoint(&mut c, None, 1).await;
    let mut ws = Raw::connect(&url, None).await.expect("the client connects");
    let took = closes_within(&mut ws, asked).await;
    assert!(took < Duration::from_millis(2300), "ttl 1 s, closed after {took:?}");
    assert_eq!(Raw::connect(&url, None).await.err(), Some(404), "expired");

    // Its tab's close.
    let tab = ok(&mut c, "browser.tab_new", json!({"url": env.site.url("form.html")})).await;
    let tab = tab["result"]["tab_id"].as_str().expect("tab").to_owned();
    let url = endpoint(&mut c, Some(&tab), 600).await;
    let mut ws = Raw::connect(&url, None).await.expect("the client connects");
    ok(&mut c, "browser.tab_close", json!({"tab_id": tab})).await;
    let closed = std::time::Instant::now();
    let took = closes_within(&mut ws, closed).await;
    assert!(took < Duration::from_secs(1), "the tab closed; the endpoint after {took:?}");

    // The session's close.
    let mut other = env.daemon.actor().await;
    let url = endpoint(&mut other, None, 600).await;
    let mut ws = Raw::connect(&url, None).await.expect("the client connects");
    let bye = other.call("session.close", json!({})).await;
    assert_eq!(bye["result"]["closed"], true, "{bye}");
    let took = closes_within(&mut ws, std::time::Instant::now()).await;
    assert!(took < Duration::from_secs(1), "the session closed; the endpoint after {took:?}");
    assert_eq!(Raw::connect(&url, None).await.err(), Some(404));

    // A page's WebSocket (it carries an Origin) never gets in.
    let url = endpoint(&mut c, None, 600).await;
    let page = Raw::connect_with(&url, None, &[("Origin", env.site.base.as_str())]).await;
    assert_eq!(page.err(), Some(403), "a web page's socket");
}

/// The answer to raw DevTools call `id` on `ws`, skipping events.
async fn answer(ws: &mut Raw, id: u64) -> Value {
    loop {
        let m = ws.recv().await;
        if m["id"] == id {
            return m;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_view_page_shows_the_code_session_and_what_it_did() {
    let env = BrowserEnv::with_policy(policy()).await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("refs.html")})).await;
    let got = ok(&mut c, "browser.cdp_session", json!({})).await["result"].clone();
    let (url, cdp_id) = (got["url"].as_str().expect("url"), got["cdp_id"].as_str().expect("id"));
    // A bare DevTools client: the page, attached, evaluated in.
    let mut ws = Raw::connect(url, None).await.expect("connects");
    ws.send_text(&json!({"id": 1, "method": "Target.getTargets"}).to_string()).await;
    let targets = answer(&mut ws, 1).await;
    let infos = targets["result"]["targetInfos"].as_array().cloned().unwrap_or_default();
    let pages: Vec<&Value> = infos.iter().filter(|t| t["type"] == "page").collect();
    assert_eq!(pages.len(), 1, "{targets}");
    let attach = json!({"id": 2, "method": "Target.attachToTarget",
                        "params": {"targetId": pages[0]["targetId"], "flatten": true}});
    ws.send_text(&attach.to_string()).await;
    let session = answer(&mut ws, 2).await["result"]["sessionId"].clone();
    let eval = json!({"id": 3, "method": "Runtime.evaluate", "sessionId": session,
                      "params": {"expression": "document.title", "returnByValue": true}});
    ws.send_text(&eval.to_string()).await;
    assert_eq!(answer(&mut ws, 3).await["result"]["result"]["value"], "Refs");
    let other = json!({"id": 4, "method": "Target.attachToTarget",
                       "params": {"targetId": "0123456789ABCDEF0123456789ABCDEF", "flatten": true}});
    ws.send_text(&other.to_string()).await;
    let refused = answer(&mut ws, 4).await;
    assert!(
        refused["error"]["message"].as_str().is_some_and(|m| m.contains("other-target")),
        "{refused}"
    );

    let viewer = glovebox_tests::viewer::Viewer::start().await;
    let page = viewer.open(&crate::view::link(&env.daemon, glovebox_tests::ACTOR).await).await;
    let by = format!("cdp:{cdp_id}");
    let listed = format!("document.getElementById('code').textContent.includes('{by}')");
    page.wait_for(&listed, "the code session listed").await;
    let acted = format!(
        "document.getElementById('sessions').textContent.includes('{by} Runtime.evaluate')"
    );
    page.wait_for(&acted, "what it did, in its session's ops").await;
}

/// Revoking the token (its line gone from the token file, then SIGHUP) closes its code
/// client's connection within a second, through the `gloveboxd` binary as users run it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoint_ends_when_its_token_is_revoked() {
    use glovebox_daemon::auth::{hashed_line, Role};
    const GONE: &str = "revoked-token-0123456789abcdef0123456789";
    const STAYS: &str = "kept-token-0123456789abcdef0123456789ab";
    let dir = glovebox_tests::TempDir::new("cdp-revoke");
    let (tokens, rules) = (dir.path.join("tokens"), dir.path.join("policy.json"));
    let line = hashed_line(GONE, Role::Actor);
    std::fs::write(&tokens, format!("{line}\n{STAYS} actor\n")).expect("write tokens");
    std::fs::write(&rules, policy().to_string()).expect("write policy");
    let (tokens_s, rules_s) = (tokens.display().to_string(), rules.display().to_string());
    let d = glovebox_tests::binary::Running::start(&[
        "--desktop",
        "embedded",
        "--token-file",
        &tokens_s,
        "--policy",
        &rules_s,
    ]);
    let site = glovebox_tests::browser::Site::start().await;
    let mut c = Raw::connect(&d.url, Some(GONE)).await.expect("the token works");
    c.hello(None).await;
    ok(&mut c, "browser.navigate", json!({"url": site.url("refs.html")})).await;
    let url = endpoint(&mut c, None, 600).await;
    let mut ws = Raw::connect(&url, None).await.expect("the client connects");
    ws.send_text(&json!({"id": 1, "method": "Target.getTargets"}).to_string()).await;
    let targets = answer(&mut ws, 1).await;
    assert!(targets["result"]["targetInfos"].is_array(), "the endpoint works: {targets}");

    std::fs::write(&tokens, format!("{STAYS} actor\n")).expect("rewrite tokens");
    let hup = std::time::Instant::now();
    d.signal("HUP");
    let took = closes_within(&mut ws, hup).await;
    assert!(took < Duration::from_secs(1), "revoked; the endpoint closed after {took:?}");
    assert_eq!(Raw::connect(&url, None).await.err(), Some(404), "a revoked endpoint is gone");
}
