//! The daemon's life as an orchestrator sees it, through the `gloveboxd` binary: `/readyz`
//! answers 503 with the reason while the embedded desktop starts (its Xvfb held back by a gate
//! on PATH) and 200 once it is up; SIGTERM drains (running calls finish within
//! `--shutdown-grace-secs` or are cancelled at its end, new ones are `BACKEND_UNAVAILABLE`)
//! and the daemon exits 0 leaving no process it started.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use glovebox_tests::binary::{alive, descendants, Running};
use glovebox_tests::http::{Http, Reply};
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::{TempDir, DEADLINE};
use serde_json::json;

const AT_ONCE: Duration = Duration::from_secs(5);

async fn get(d: &Running, path: &str) -> Reply {
    Http::connect(d.socket_addr()).await.send("GET", path, &[], AT_ONCE).await
}

/// A directory holding an `Xvfb` that waits until `gate` exists, then runs the real one.
fn gated_xvfb(dir: &Path, gate: &Path) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let real = std::env::split_paths(&path)
        .map(|d| d.join("Xvfb"))
        .find(|p| p.is_file())
        .expect("Xvfb on PATH");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin dir");
    let script = format!(
        "#!/bin/sh\nwhile [ ! -e '{}' ]; do sleep 0.02; done\nexec '{}' \"$@\"\n",
        gate.display(),
        real.display()
    );
    let xvfb = bin.join("Xvfb");
    std::fs::write(&xvfb, script).expect("write the gate");
    std::fs::set_permissions(&xvfb, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    bin
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_is_503_while_the_desktop_starts_and_200_once_it_is_up() {
    let dir = TempDir::new("readyz");
    let gate = dir.path.join("open");
    let bin = gated_xvfb(&dir.path, &gate);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut d = Running::start_listening(&["--desktop", "embedded"], &[("PATH", &path)]);

    // The port answers before the desktop is up: alive, not ready, and calls are refused at
    // once rather than left waiting.
    let health = get(&d, "/healthz").await;
    assert_eq!(health.status, 200, "{}", health.body);
    assert_eq!(health.json()["backends"]["desktop"]["status"], "starting", "{}", health.body);
    let ready = get(&d, "/readyz").await;
    assert_eq!(ready.status, 503, "{}", ready.body);
    let body = ready.json();
    assert_eq!(body["ready"], false);
    assert_eq!(body["reason"], "the desktop is starting", "{body}");
    assert_eq!(body["checks"]["daemon"]["ok"], true, "{body}");
    assert_eq!(body["checks"]["desktop"]["ok"], false, "{body}");
    assert_eq!(ready.header("retry-after").as_deref(), Some("1"));
    let head = Http::connect(d.socket_addr()).await.send("HEAD", "/readyz", &[], AT_ONCE).await;
    assert_eq!((head.status, head.body.as_str()), (503, ""), "HEAD has no body");
    let foreign = Http::connect(d.socket_addr())
        .await
        .send("GET", "/readyz", &[("Host", "evil.test")], AT_ONCE)
        .await;
    assert_eq!(foreign.status, 403, "the Host rule of /healthz: {}", foreign.body);

    let mut c = Raw::connect(&d.url, Some(&d.token())).await.expect("connect");
    let hello = c.hello(None).await;
    assert_eq!(hello["backends"]["desktop"]["status"], "starting", "{hello}");
    let asked = Instant::now();
    let r = c.call("computer.wait", json!({"duration_ms": 5})).await;
    assert_eq!(code(&r), "BACKEND_UNAVAILABLE", "{r}");
    assert_eq!(r["error"]["data"]["details"]["backend"], "desktop", "{r}");
    assert!(asked.elapsed() < Duration::from_secs(1), "refused at once: {:?}", asked.elapsed());
    let r = c.call("browser.get_url", json!({})).await;
    assert_eq!(code(&r), "BACKEND_UNAVAILABLE", "the browser needs the display too: {r}");
    let still = get(&d, "/readyz").await;
    assert_eq!(still.status, 503, "the gate is still shut: {}", still.body);

    std::fs::write(&gate, "").expect("open the gate");
    let deadline = Instant::now() + DEADLINE;
    let ready = loop {
        let r = get(&d, "/readyz").await;
        if r.status == 200 {
            break r;
        }
        assert_eq!(r.status, 503, "{}", r.body);
        assert!(Instant::now() < deadline, "never ready: {}", r.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let body = ready.json();
    assert_eq!(body["ready"], true, "{body}");
    for check in ["daemon", "desktop", "accessibility_bus", "browser"] {
        assert_eq!(body["checks"][check], json!({"ok": true}), "{check}: {body}");
    }
    d.rest_of_banner();
    assert!(d.banner.iter().any(|l| l.contains("/readyz")), "{:?}", d.banner);
    let r = c.call("computer.wait", json!({"duration_ms": 5})).await;
    assert!(r["result"].is_object(), "calls run once ready: {r}");
    let status = d.terminate(DEADLINE);
    assert!(status.success(), "{status}");
}

/// Processes below the daemon, named, after checking the desktop's and the browser's are
/// among them.
fn children_of(d: &Running) -> Vec<(u32, String)> {
    let kids = descendants(d.child.id());
    for name in ["Xvfb", "dbus-daemon", "at-spi-bus-laun", "openbox", "chromium"] {
        assert!(kids.iter().any(|(_, c)| c == name), "no {name} among {kids:?}");
    }
    kids
}

/// Every one of `kids` is gone (the daemon stopped them before it exited).
async fn all_gone(kids: &[(u32, String)]) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left: Vec<_> = kids.iter().filter(|(p, _)| alive(*p)).collect();
        if left.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "left behind: {left:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A daemon with its desktop and browser up, a session, and `wait` (`duration_ms`) running.
async fn running_wait(grace_secs: &str, duration_ms: u64) -> (Running, Raw, u64) {
    let d = Running::start(&["--desktop", "embedded", "--shutdown-grace-secs", grace_secs]);
    let site = glovebox_tests::browser::Site::start().await;
    let mut c = Raw::connect(&d.url, Some(&d.token())).await.expect("connect");
    c.hello(Some("drain")).await;
    let nav = c.call("browser.navigate", json!({"url": site.url("refs.html")})).await;
    assert!(nav["result"].is_object(), "the browser runs: {nav}");
    let wait = c
        .send(
            "computer.wait",
            json!({"duration_ms": duration_ms, "op_id": "long", "timeout_ms": 60000}),
        )
        .await;
    let deadline = Instant::now() + DEADLINE;
    loop {
        let r = c.call("op.status", json!({"op_id": "long"})).await;
        if r["result"]["state"] == "running" {
            break;
        }
        assert!(Instant::now() < deadline, "the wait never ran: {r}");
    }
    (d, c, wait)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_a_running_wait_finish_refuses_new_calls_and_exits_0() {
    let (mut d, mut c, wait) = running_wait("10", 3000).await;
    let kids = children_of(&d);
    let term = Instant::now();
    d.signal("TERM");
    // The signal is handled on its own task: the drain has begun once readiness says so.
    let deadline = Instant::now() + DEADLINE;
    while get(&d, "/readyz").await.status != 503 {
        assert!(Instant::now() < deadline, "/readyz never said the daemon drains");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // Draining: the port answers, new calls are refused with the daemon named, on this
    // connection and on a new one; the running wait goes on.
    let r = c.call("computer.wait", json!({"duration_ms": 5})).await;
    assert_eq!(code(&r), "BACKEND_UNAVAILABLE", "{r}");
    assert_eq!(r["error"]["data"]["details"]["backend"], "daemon", "{r}");
    let r = c.call("browser.get_url", json!({})).await;
    assert_eq!(code(&r), "BACKEND_UNAVAILABLE", "{r}");
    let mut other = Raw::connect(&d.url, Some(&d.token())).await.expect("a new connection");
    other.hello(Some("late")).await;
    let r = other.call("computer.wait", json!({"duration_ms": 5})).await;
    assert_eq!(code(&r), "BACKEND_UNAVAILABLE", "{r}");
    let r = c.call("op.status", json!({"op_id": "long"})).await;
    assert_eq!(r["result"]["state"], "running", "{r}");
    let ready = get(&d, "/readyz").await;
    assert_eq!(ready.status, 503, "{}", ready.body);
    assert_eq!(ready.json()["reason"], "the daemon is shutting down", "{}", ready.body);
    assert_eq!(get(&d, "/healthz").await.status, 200, "still alive while it drains");
    assert!(term.elapsed() < Duration::from_millis(2500), "checked within the wait");

    let r = c.response(wait).await;
    assert!(r["result"].is_object(), "the wait finished: {r}");
    let waited = r["result"]["result"]["waited_ms"].as_u64().expect("waited_ms");
    assert!(waited >= 3000, "waited its whole {waited} ms");
    let status = d.wait_exit(DEADLINE);
    assert!(status.success(), "exit 0 after the drain: {status}");
    eprintln!("exited {:?} after SIGTERM", term.elapsed());
    all_gone(&kids).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_cancels_a_wait_longer_than_the_grace_period_and_exits_0() {
    let (mut d, mut c, wait) = running_wait("1", 30_000).await;
    let kids = children_of(&d);
    let term = Instant::now();
    d.signal("TERM");
    let r = c.response(wait).await;
    let after = term.elapsed();
    assert_eq!(code(&r), "CANCELLED", "cancelled at the grace deadline: {r}");
    assert!(after >= Duration::from_millis(900), "not before the grace period: {after:?}");
    assert!(after < Duration::from_secs(5), "at its end: {after:?}");
    let status = d.wait_exit(DEADLINE);
    assert!(status.success(), "exit 0 after the drain: {status}");
    eprintln!("cancelled {after:?} and exited {:?} after SIGTERM", term.elapsed());
    all_gone(&kids).await;
}

/// Keys and buttons a session holds go up in the drain: on a display the test owns (the
/// daemon adopts it with `--desktop existing`), so it can be read after the daemon is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_releases_held_keys_and_buttons() {
    use glovebox_daemon::desktop::embedded::{self, DesktopMode};
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::ConnectionExt as _;

    let state = TempDir::new("held");
    let sup = glovebox_daemon::process::Supervisor::new(&state.path);
    let (path, s) = (state.path.clone(), sup.clone());
    let desktop =
        tokio::task::spawn_blocking(move || embedded::start(DesktopMode::Embedded, &path, &s))
            .await
            .expect("desktop thread")
            .expect("embedded desktop starts");
    let env: Vec<(&str, &str)> = desktop
        .env()
        .iter()
        .filter(|(k, _)| {
            ["DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS"].contains(&k.as_str())
        })
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let mut d = Running::start_with_env(&["--desktop", "existing"], &env);
    let (x, _) = glovebox_daemon::desktop::xauth::connect(desktop.display()).expect("X");
    let root = x.setup().roots[0].root;
    let held = |x: &x11rb::rust_connection::RustConnection| {
        let keys = x.query_keymap().expect("keymap").reply().expect("keymap").keys;
        let mask =
            u16::from(x.query_pointer(root).expect("pointer").reply().expect("pointer").mask);
        (keys.iter().any(|b| *b != 0), mask & 0x1f00 != 0)
    };

    let mut c = Raw::connect(&d.url, Some(&d.token())).await.expect("connect");
    c.hello(Some("held")).await;
    let r = c.call("computer.keydown", json!({"key": "Shift"})).await;
    assert!(r["result"].is_object(), "{r}");
    let r = c.call("computer.mouse_down", json!({"x": 600, "y": 700})).await;
    assert!(r["result"].is_object(), "{r}");
    assert_eq!(held(&x), (true, true), "Shift and a button are down");
    let status = d.terminate(DEADLINE);
    assert!(status.success(), "{status}");
    assert_eq!(held(&x), (false, false), "released before the daemon exited");
    drop(x);
    desktop.stop();
}
