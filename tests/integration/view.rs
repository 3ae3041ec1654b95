//! The view page in a real headless Chromium against the real daemon and desktop: its way in
//! (a single-use code for a cookie, 401 without, the page's own origin on its socket), the
//! live desktop on its canvas, takeover and hand-back with a real app, an approval granted
//! from the page, and an agent's request for a person.

use std::sync::Arc;
use std::time::{Duration, Instant};

use glovebox_daemon::approval::policy::Policy;
use glovebox_tests::desktop::{ok, DesktopFixture};
use glovebox_tests::http::Http;
use glovebox_tests::image::rgb_of;
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::viewer::{ViewPage, Viewer};
use glovebox_tests::{InProcess, Options, ACTOR, ADMIN, APPROVER, DEADLINE, OBSERVER};
use serde_json::{json, Value};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{ConnectionExt as _, CreateWindowAux, WindowClass};

/// A fresh view link of `token` (`view.link`, as `gloveboxd view-link` asks for it).
pub(crate) async fn link(d: &InProcess, token: &str) -> String {
    let mut c = Raw::connect(&d.url(), Some(token)).await.expect("connect");
    let r = c.call("view.link", json!({})).await;
    let path = r["result"]["path"].as_str().unwrap_or_else(|| panic!("view.link: {r}"));
    format!("http://{}{path}", d.addr)
}

fn path_of(link: &str) -> String {
    link.splitn(4, '/').nth(3).map(|p| format!("/{p}")).expect("a path")
}

#[tokio::test]
async fn the_page_and_its_socket_need_a_code_or_its_cookie() {
    let d = InProcess::start().await;
    let host = d.addr.to_string();
    let within = Duration::from_secs(5);
    let get = |path: String, headers: Vec<(String, String)>| {
        let addr = d.addr;
        async move {
            let mut h = Http::connect(addr).await;
            let hs: Vec<(&str, &str)> =
                headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            h.send("GET", &path, &hs, within).await
        }
    };
    let with_host = |extra: &[(&str, &str)]| {
        let mut v = vec![("Host".to_owned(), host.clone())];
        v.extend(extra.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        v
    };
    assert_eq!(get("/view".into(), with_host(&[])).await.status, 401);
    assert_eq!(get("/view?code=guessed".into(), with_host(&[])).await.status, 401);
    let upgrade = [
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    assert_eq!(get("/view/socket".into(), with_host(&upgrade)).await.status, 401);

    let path = path_of(&link(&d, OBSERVER).await);
    let r = get(path.clone(), with_host(&[])).await;
    assert_eq!(r.status, 303, "{r:?}");
    assert_eq!(r.header("location").as_deref(), Some("/view"), "the code leaves the address bar");
    let set = r.header("set-cookie").expect("a cookie");
    for part in ["HttpOnly", "SameSite=Strict", "Path=/view"] {
        assert!(set.contains(part), "{set}");
    }
    assert_eq!(get(path, with_host(&[])).await.status, 401, "a code works once");
    let cookie = set.split(';').next().expect("name=value").to_owned();
    let page = get("/view".into(), with_host(&[("Cookie", &cookie)])).await;
    assert_eq!(page.status, 200);
    assert!(page.header("content-type").is_some_and(|t| t.starts_with("text/html")));
    assert!(page
        .header("content-security-policy")
        .is_some_and(|c| c.contains("connect-src 'self'")));
    assert!(
        !page.body.contains("http://") && !page.body.contains("https://"),
        "nothing fetched from elsewhere"
    );

    let mut socket = upgrade.to_vec();
    socket.push(("Cookie", &cookie));
    let mut foreign = socket.clone();
    foreign.push(("Origin", "http://evil.example"));
    assert_eq!(get("/view/socket".into(), with_host(&foreign)).await.status, 403);
    let own = format!("http://{host}");
    let mut same = socket.clone();
    same.push(("Origin", &own));
    assert_eq!(get("/view/socket".into(), with_host(&same)).await.status, 101);
    d.stop().await;
}

/// The canvas downscaled to `w` x `h` (RGB), read in the page.
async fn canvas_grid(p: &ViewPage, w: u32, h: u32) -> Vec<u8> {
    let v = p
        .eval(&format!(
            "(() => {{ const c = document.getElementById('screen'); const o = document.createElement('canvas'); \
             o.width = {w}; o.height = {h}; const x = o.getContext('2d'); x.imageSmoothingQuality = 'high'; \
             x.drawImage(c, 0, 0, {w}, {h}); const d = x.getImageData(0, 0, {w}, {h}).data; const out = []; \
             for (let i = 0; i < d.length; i += 4) out.push(d[i], d[i + 1], d[i + 2]); return out; }})()"
        ))
        .await;
    v.as_array().expect("pixels").iter().map(|x| x.as_u64().unwrap_or(0) as u8).collect()
}

/// RGB pixels averaged into a `w` x `h` grid.
fn grid(width: usize, height: usize, rgb: &[u8], w: usize, h: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(w * h * 3);
    for gy in 0..h {
        for gx in 0..w {
            let (x0, x1) = (gx * width / w, (gx + 1) * width / w);
            let (y0, y1) = (gy * height / h, (gy + 1) * height / h);
            let mut acc = [0u64; 3];
            let mut n = 0u64;
            for y in y0..y1 {
                for x in x0..x1 {
                    let i = (y * width + x) * 3;
                    for c in 0..3 {
                        acc[c] += u64::from(rgb[i + c]);
                    }
                    n += 1;
                }
            }
            out.extend(acc.iter().map(|a| (a / n.max(1)) as u8));
        }
    }
    out
}

/// The colour of screen pixel (x, y) on the canvas.
async fn canvas_pixel(p: &ViewPage, x: i32, y: i32) -> [u8; 3] {
    let v = p
        .eval(&format!(
            "Array.from(document.getElementById('screen').getContext('2d').getImageData({x}, {y}, 1, 1).data)"
        ))
        .await;
    let c = |i: usize| v[i].as_u64().unwrap_or(0) as u8;
    [c(0), c(1), c(2)]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_canvas_shows_the_desktop_live_and_nothing_leaves_loopback() {
    let f = DesktopFixture::start().await;
    let mut agent = f.daemon.actor().await;
    let viewer = Viewer::start().await;
    let p = viewer.open(&link(&f.daemon, OBSERVER).await).await;
    p.wait_for("window.glovebox.frames >= 1", "the first frame").await;
    assert_eq!(p.eval("location.pathname + location.search").await, "/view");

    // An idle screen sends nothing: frames stop once the desktop is quiet.
    let deadline = Instant::now() + DEADLINE;
    loop {
        let before = p.eval("window.glovebox.frames").await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        if p.eval("window.glovebox.frames").await == before {
            break;
        }
        assert!(Instant::now() < deadline, "frames kept coming from an idle screen");
    }
    let shot = ok(&agent.call("computer.screenshot", json!({"format": "png"})).await);
    let (w, h, rgb) = rgb_of(&shot);
    assert_eq!(
        p.eval(
            "[document.getElementById('screen').width, document.getElementById('screen').height]"
        )
        .await,
        json!([w, h])
    );
    let (gw, gh) = (32, 20);
    let want = grid(w, h, &rgb, gw, gh);
    let got = canvas_grid(&p, gw as u32, gh as u32).await;
    let diff: u64 = want.iter().zip(&got).map(|(a, b)| u64::from(a.abs_diff(*b))).sum();
    let mean = diff as f64 / want.len() as f64;
    assert!(mean < 8.0, "the canvas differs from computer.screenshot by {mean:.1} per channel");

    // A window the test opens is on the canvas within a second.
    let (conn, screen) = glovebox_daemon::desktop::xauth::connect(f.env.display()).expect("X");
    let root = conn.setup().roots[screen].root;
    let win = conn.generate_id().expect("id");
    let aux = CreateWindowAux::new().background_pixel(0x00ff_0000);
    conn.create_window(0, win, root, 100, 100, 320, 200, 0, WindowClass::INPUT_OUTPUT, 0, &aux)
        .expect("create");
    conn.map_window(win).expect("map");
    conn.flush().expect("flush");
    let mapped = Instant::now();
    loop {
        let t =
            conn.translate_coordinates(win, root, 160, 100).expect("ask").reply().expect("where");
        let px = canvas_pixel(&p, i32::from(t.dst_x), i32::from(t.dst_y)).await;
        if px[0] > 200 && px[1] < 60 && px[2] < 60 {
            break;
        }
        assert!(
            mapped.elapsed() < Duration::from_secs(1),
            "the red window is not on the canvas after 1 s: {px:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let own = format!("{}", f.daemon.addr);
    let urls = p.urls();
    assert!(urls.iter().any(|u| u.contains("/view/socket")), "{urls:?}");
    for u in &urls {
        let local = u.starts_with(&format!("http://{own}/"))
            || u.starts_with(&format!("ws://{own}/"))
            || u.starts_with("data:")
            || u.starts_with("blob:")
            || u == "about:blank";
        assert!(local, "a request left the daemon's origin: {u} (all: {urls:?})");
    }
    drop(conn);
    f.stop().await;
}

/// The box centre of the first snapshot line with all `words`.
fn centre(line: &str) -> (f64, f64) {
    let at = line.split('@').nth(1).expect("a box");
    let mut parts = at.split_whitespace();
    let (x, y) = parts.next().and_then(|p| p.split_once(',')).expect("x,y");
    let (w, h) = parts.next().and_then(|p| p.split_once('x')).expect("wxh");
    let n = |s: &str| s.parse::<f64>().expect("number");
    (n(x) + n(w) / 2.0, n(y) + n(h) / 2.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_takes_over_presses_a_real_button_and_hands_back() {
    let f = DesktopFixture::start().await;
    let mut agent = f.daemon.actor().await;
    agent.call("events.subscribe", json!({"topics": ["session", "desktop"]})).await;
    let pid = f.launch(&["zenity", "--question", "--title", "Handoff", "--text", "Press Yes"]);
    let app = f.wait_app(&mut agent, pid).await;
    let (_, line) = f.wait_line(&mut agent, &app, &["button", "Yes", "@"]).await;
    let (bx, by) = centre(&line);
    let window = f.wait_window(&mut agent, &app).await;
    let viewer = Viewer::start().await;

    // An observer watches: no Take over, and its input is refused.
    let watch = viewer.open(&link(&f.daemon, OBSERVER).await).await;
    watch
        .wait_for("window.glovebox.hello !== null && window.glovebox.state !== null", "hello")
        .await;
    assert_eq!(watch.eval("window.glovebox.hello.can_control").await, false);
    assert_eq!(watch.eval("document.getElementById('takeover').hidden").await, true);
    watch.eval("window.glovebox.send({t: 'take_over'}); window.glovebox.send({t: 'move', x: 3, y: 3}); 1").await;
    watch
        .wait_for(
            "window.glovebox.refused.filter(r => r.code === 'FORBIDDEN').length === 2",
            "both refused",
        )
        .await;
    assert_eq!(watch.eval("window.glovebox.state.control").await, Value::Null, "nobody took over");

    // The actor's page takes over: the agent's mutating calls answer PAUSED with the reason.
    let page = viewer.open(&link(&f.daemon, ACTOR).await).await;
    page.wait_for(
        "window.glovebox.hello !== null && !document.getElementById('takeover').hidden",
        "Take over shown",
    )
    .await;
    page.wait_for("window.glovebox.frames >= 1", "a frame").await;
    page.click_on("#takeover").await;
    page.wait_for(
        "window.glovebox.state.control && window.glovebox.state.control.mine === true",
        "in control",
    )
    .await;
    let r = agent.call("computer.click", json!({"x": 5, "y": 5})).await;
    assert_eq!(code(&r), "PAUSED", "{r}");
    assert_eq!(r["error"]["data"]["details"]["reason"], "human_in_control", "{r}");
    assert!(
        r["error"]["data"]["message"].as_str().is_some_and(|m| m.contains("takeover.ended")),
        "{r}"
    );
    let status = agent.call("session.status", json!({})).await;
    assert!(status["result"]["human_in_control"].is_string(), "{status}");
    // A second person sees who is in control and cannot take it.
    watch
        .wait_for(
            "document.getElementById('control').textContent.startsWith('in control: actor')",
            "who",
        )
        .await;
    let admin = viewer.open(&link(&f.daemon, ADMIN).await).await;
    admin.wait_for("window.glovebox.state !== null", "admin state").await;
    admin.eval("window.glovebox.send({t: 'take_over'}); 1").await;
    admin
        .wait_for("window.glovebox.refused.some(r => r.code === 'IN_CONTROL')", "one controller")
        .await;

    // A click on the canvas at the button presses it in the real app: the dialog closes.
    let (x, y) = page.screen_point(bx, by).await;
    page.click(x, y).await;
    let deadline = Instant::now() + DEADLINE;
    while !f.windows_of(&mut agent, &app).await.is_empty() {
        assert!(
            Instant::now() < deadline,
            "the dialog did not close after the click on the canvas"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The window's going is on the bus before the hand-back, which reports it.
    let deadline = Instant::now() + DEADLINE;
    loop {
        let n = tokio::time::timeout(DEADLINE, agent.notification("events.event"))
            .await
            .expect("an event");
        let ev = &n["params"]["result"];
        if ev["kind"] == "window.closed" && ev["data"]["window_id"] == window.as_str() {
            break;
        }
        assert!(Instant::now() < deadline, "no window.closed for {window}");
    }

    // Hand back: the agent hears takeover.ended with what changed, and its next call runs.
    page.eval("document.getElementById('handback').click(); 1").await;
    let deadline = Instant::now() + DEADLINE;
    let ended = loop {
        let n = tokio::time::timeout(DEADLINE, agent.notification("events.event"))
            .await
            .expect("an event");
        if n["params"]["result"]["kind"] == "takeover.ended" {
            break n["params"]["result"]["data"].clone();
        }
        assert!(Instant::now() < deadline, "no takeover.ended");
    };
    let closed = ended["changed"]["windows_closed"].as_array().cloned().unwrap_or_default();
    assert!(closed.iter().any(|w| w["window_id"] == window.as_str()), "{ended}");
    let r = agent.call("computer.mouse_move", json!({"x": 7, "y": 7})).await;
    assert!(r.get("result").is_some(), "the agent runs again: {r}");
    page.wait_for("window.glovebox.state.control === null", "nobody in control").await;
    f.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_granted_on_the_page_lets_the_call_run_once() {
    let policy: Policy = serde_json::from_value(json!({"rules": [
        {"name": "ask-long-waits", "class": "any", "args": {"duration_ms": "7*"}, "decision": "ask"},
    ]}))
    .expect("policy");
    let configure = Arc::new(move |c: &mut glovebox_daemon::Config| c.policy = policy.clone());
    let d = InProcess::with(Options { configure: Some(configure), ..Options::default() }).await;
    let mut agent = d.actor().await;
    let call = json!({"duration_ms": 70, "op_id": "from-the-page"});
    let r = agent.call("computer.wait", call.clone()).await;
    assert_eq!(code(&r), "APPROVAL_REQUIRED", "{r}");
    let id = r["error"]["data"]["details"]["approval_id"].as_str().expect("id").to_owned();

    let viewer = Viewer::start().await;
    // The agent's own page lists it without its arguments and offers no Grant.
    let own = viewer.open(&link(&d, ACTOR).await).await;
    own.wait_for(&format!("!!document.querySelector('#approvals li[data-id=\"{id}\"]')"), "listed")
        .await;
    assert_eq!(own.eval("document.querySelectorAll('#approvals .grant').length").await, 0);
    own.eval(&format!("window.glovebox.send({{t: 'grant', approval_id: '{id}'}}); 1")).await;
    own.wait_for(
        "window.glovebox.refused.some(r => r.code === 'FORBIDDEN')",
        "an actor may not approve",
    )
    .await;

    let page = viewer.open(&link(&d, APPROVER).await).await;
    let item = format!("#approvals li[data-id=\"{id}\"]");
    page.wait_for(&format!("!!document.querySelector('{item} .grant')"), "Grant shown").await;
    assert!(page
        .eval(&format!("document.querySelector('{item}').textContent"))
        .await
        .as_str()
        .is_some_and(|t| t.contains("70")));
    page.click_on(&format!("{item} .grant")).await;
    page.wait_for(&format!("!document.querySelector('{item}')"), "answered").await;
    let ran = agent.call("computer.wait", call.clone()).await;
    assert!(ran["result"]["result"]["waited_ms"].as_u64().is_some_and(|ms| ms >= 70), "{ran}");
    let again = agent.call("computer.wait", call).await;
    assert_eq!(again["result"], ran["result"], "the op replays; it does not run twice");
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_for_a_person_is_on_the_page_within_a_second() {
    let d = InProcess::start().await;
    let mut agent = d.actor().await;
    let viewer = Viewer::start().await;
    let page = viewer.open(&link(&d, ACTOR).await).await;
    page.wait_for("window.glovebox.state !== null", "state").await;
    let bad = agent.call("session.request_human", json!({"reason": "  "})).await;
    assert_eq!(code(&bad), "CONTRACT_VIOLATION", "{bad}");
    let r = agent
        .call(
            "session.request_human",
            json!({"reason": "Solve the CAPTCHA on tab t1", "tab_id": "t1"}),
        )
        .await;
    let id = r["result"]["request_id"].as_str().unwrap_or_else(|| panic!("{r}")).to_owned();
    assert_eq!(r["result"]["state"], "pending");
    assert_eq!(r["result"]["view_pages_open"], 1, "{r}");
    let took = page
        .wait_within(
            &format!("!!document.querySelector('#requests li[data-id=\"{id}\"]')"),
            Duration::from_secs(1),
            "the request on the page",
        )
        .await;
    assert!(page
        .eval(&format!("document.querySelector('#requests li[data-id=\"{id}\"]').textContent"))
        .await
        .as_str()
        .is_some_and(|t| t.contains("CAPTCHA")));
    let status = agent.call("session.status", json!({})).await;
    assert_eq!(status["result"]["human_requests"], json!([id]), "{status} ({took:?})");
    // An observer may not ask.
    let mut watcher = Raw::connect(&d.url(), Some(OBSERVER)).await.expect("observer");
    watcher.hello(None).await;
    let r = watcher.call("session.request_human", json!({"reason": "help"})).await;
    assert_eq!(code(&r), "FORBIDDEN", "{r}");
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_request_human_waits_for_the_hand_back() {
    let d = InProcess::start().await;
    let mut agent = d.actor().await;
    // Nobody answers: the action says pending before its deadline, it does not time out.
    let r = agent
        .call("context.request_human", json!({"reason": "log in, please", "timeout_ms": 600}))
        .await;
    assert_eq!(r["result"]["result"]["handed_back"], false, "{r}");
    assert_eq!(r["result"]["result"]["state"], "pending", "{r}");

    let viewer = Viewer::start().await;
    let page = viewer.open(&link(&d, ACTOR).await).await;
    page.wait_for("window.glovebox.state !== null", "state").await;
    let call = agent
        .send("context.request_human", json!({"reason": "type the 2FA code", "timeout_ms": 20000}))
        .await;
    page.wait_for("window.glovebox.state.requests.some(r => r.state === 'pending' && r.reason.includes('2FA'))", "the request").await;
    page.click_on("#takeover").await;
    page.wait_for(
        "window.glovebox.state.control && window.glovebox.state.control.mine",
        "in control",
    )
    .await;
    page.eval("document.getElementById('handback').click(); 1").await;
    let r = agent.response(call).await;
    let out = &r["result"]["result"];
    assert_eq!(out["handed_back"], true, "{r}");
    assert!(out["takeover"]["by"].as_str().is_some_and(|b| b.starts_with("actor ")), "{r}");
    page.wait_for(
        "window.glovebox.state.requests.every(r => r.state === 'handed_back')",
        "answered on the page",
    )
    .await;
    d.stop().await;
}

/// Whether any key of the X keyboard is down now (XQueryKeymap: XTest presses included).
fn keys_down(conn: &impl x11rb::connection::Connection) -> Vec<u8> {
    let map = conn.query_keymap().expect("ask").reply().expect("keymap").keys;
    (0..=255u8).filter(|k| map[usize::from(*k) / 8] & (1 << (k % 8)) != 0).collect()
}

/// Waits until no key is down; panics with `what` at the deadline.
async fn wait_no_keys(conn: &impl x11rb::connection::Connection, what: &str) {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let down = keys_down(conn);
        if down.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: keycodes {down:?} still down");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Holds Shift on the page's canvas (a trusted CDP key press) and waits until the X server
/// has it down.
async fn hold_shift(page: &ViewPage, conn: &impl x11rb::connection::Connection) {
    use chromiumoxide::cdp::browser_protocol::input::{
        DispatchKeyEventParams, DispatchKeyEventType,
    };
    page.eval("document.getElementById('screen').focus(); 1").await;
    let press = DispatchKeyEventParams::builder()
        .r#type(DispatchKeyEventType::RawKeyDown)
        .key("Shift")
        .code("ShiftLeft")
        .windows_virtual_key_code(16)
        .build()
        .expect("a key event");
    page.page.execute(press).await.expect("key down");
    let deadline = Instant::now() + DEADLINE;
    while keys_down(conn).is_empty() {
        assert!(Instant::now() < deadline, "Shift held on the page is not down on the desktop");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_and_a_paste_from_the_page_reach_the_desktop_and_a_blur_lets_go() {
    let f = DesktopFixture::start().await;
    let mut agent = f.daemon.actor().await;
    let pid = f.launch(&["zenity", "--entry", "--title", "Code", "--text", "Enter the code"]);
    let app = f.wait_app(&mut agent, pid).await;
    let (_, line) = f.wait_line(&mut agent, &app, &["text", "@"]).await;
    let (ex, ey) = centre(&line);
    let (conn, _) = glovebox_daemon::desktop::xauth::connect(f.env.display()).expect("X");
    let viewer = Viewer::start().await;
    let page = viewer.open(&link(&f.daemon, ACTOR).await).await;
    page.wait_for(
        "window.glovebox.frames >= 1 && !document.getElementById('takeover').hidden",
        "ready",
    )
    .await;
    page.click_on("#takeover").await;
    page.wait_for(
        "window.glovebox.state.control && window.glovebox.state.control.mine === true",
        "in control",
    )
    .await;

    // Keys typed on the canvas: printable ones as text, Backspace by keysym.
    let (x, y) = page.screen_point(ex, ey).await;
    page.click(x, y).await;
    let canvas = page.page.find_element("#screen").await.expect("the canvas");
    canvas.focus().await.expect("focus");
    canvas.type_str("2fa-91x").await.expect("typed");
    canvas.press_key("Backspace").await.expect("backspace");
    f.wait_line(&mut agent, &app, &["text", "2fa-91"]).await;
    let (_, now) = f.wait_line(&mut agent, &app, &["text", "@"]).await;
    assert!(!now.contains("2fa-91x"), "Backspace reached the entry: {now}");
    wait_no_keys(&conn, "after typing").await;

    // A paste from the page lands on the desktop's clipboard.
    page.eval("document.getElementById('paste-text').value = '482913'; document.getElementById('paste').click(); 1")
        .await;
    page.wait_for(
        "document.getElementById('notice').textContent.startsWith('6 characters')",
        "pasted",
    )
    .await;
    let clip = ok(&agent.call("computer.clipboard_get", json!({})).await);
    assert_eq!(clip["text"], "482913", "{clip}");

    // A key held while the page loses focus is let go on the desktop.
    hold_shift(&page, &conn).await;
    page.eval("window.dispatchEvent(new Event('blur')); 1").await;
    wait_no_keys(&conn, "after the page lost focus").await;

    // And one held while the socket drops (the page closes) is let go too.
    hold_shift(&page, &conn).await;
    page.page.clone().close().await.expect("the page closes");
    wait_no_keys(&conn, "after the page's socket dropped").await;
    f.stop().await;
}
