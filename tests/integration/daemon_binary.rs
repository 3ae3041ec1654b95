//! The `gloveboxd` binary as a user runs it: its own embedded desktop, the banner, a token
//! file it creates, a wscat-style session, and a clean SIGTERM that stops its children.

use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::time::{Duration, Instant};

use glovebox_tests::binary::{alive, Running};
use glovebox_tests::raw::Raw;
use serde_json::json;

fn xvfb_pids_of(display: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let cmd = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let args: Vec<String> =
            cmd.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
        if args.first().is_some_and(|a| a.ends_with("Xvfb"))
            && args.get(1).map(String::as_str) == Some(display)
        {
            pids.push(pid);
        }
    }
    pids
}

#[tokio::test(flavor = "multi_thread")]
async fn embedded_desktop_end_to_end() {
    let mut d = Running::start(&["--desktop", "embedded"]);
    assert!(
        d.banner.iter().any(|l| l.contains("wscat -c ws://")),
        "banner has a wscat line: {:?}",
        d.banner
    );
    let mode =
        std::fs::metadata(d.state.path.join("token")).expect("token file").permissions().mode();
    assert_eq!(mode & 0o777, 0o600);

    let health: serde_json::Value = {
        let out = std::process::Command::new("curl")
            .args(["-s", &format!("http://{}/healthz", d.addr)])
            .output()
            .expect("curl");
        serde_json::from_slice(&out.stdout).expect("json")
    };
    assert_eq!(health["backends"]["desktop"], json!({"status": "ready"}), "{health}");
    assert!(!health.to_string().contains("pid"), "/healthz names no internals: {health}");

    let mut c = Raw::connect(&d.url, Some(&d.token())).await.expect("token from the file works");
    let hello = c.hello(Some("bin")).await;
    let desktop = &hello["backends"]["desktop"];
    assert_eq!(desktop["status"], "ready");
    assert_eq!(desktop["mode"], "embedded");
    assert_eq!(desktop["accessibility_bus"], true);
    let display = desktop["display"].as_str().expect("display").to_owned();
    let xvfb = xvfb_pids_of(&display);
    assert_eq!(xvfb.len(), 1, "one Xvfb on {display}");
    let r = c.call("computer.wait", json!({"duration_ms": 5})).await;
    assert!(r["result"].is_object(), "{r}");

    let status = d.terminate(Duration::from_secs(15));
    assert!(status.success(), "clean exit on SIGTERM: {status}");
    assert!(c.closed().await, "the connection was closed");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while xvfb.iter().any(|p| alive(*p)) {
        assert!(std::time::Instant::now() < deadline, "Xvfb outlived the daemon");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[test]
fn a_given_token_file_is_used() {
    let dir = glovebox_tests::TempDir::new("tokfile");
    let path = dir.path.join("tokens");
    std::fs::write(&path, format!("{ABC} actor\n{WATCH} observer\n")).expect("write");
    let path_s = path.display().to_string();
    let d = Running::start(&["--desktop", "auto", "--token-file", &path_s]);
    assert!(d.banner.iter().any(|l| l.contains(&path_s)), "{:?}", d.banner);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let mut o = Raw::connect(&d.url, Some(WATCH)).await.expect("observer token");
        assert_eq!(o.hello(None).await["role"], "observer");
        assert_eq!(Raw::connect(&d.url, Some("nope")).await.err(), Some(401));
    });
}

const ABC: &str = "abc123-a-token-of-at-least-32-chars";
const WATCH: &str = "watch-a-token-of-at-least-32-chars";
const OLD: &str = "old-token-0123456789abcdef0123456789";
const KEPT: &str = "kept-token-0123456789abcdef0123456789";
const NEW: &str = "new-token-0123456789abcdef0123456789";
const DEMOTED: &str = "demoted-token-0123456789abcdef012345";

/// A view page of `token`, opened the way a person opens one: `view.link`, the link's code
/// for the cookie, the socket with the cookie; its first message read.
async fn view_page(
    d: &Running,
    token: &str,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    use futures::StreamExt as _;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
    let mut c = Raw::connect(&d.url, Some(token)).await.expect("connect");
    c.hello(None).await;
    let link = c.call("view.link", json!({})).await;
    let path = link["result"]["path"].as_str().expect("a view link").to_owned();
    let mut http = glovebox_tests::http::Http::connect(d.socket_addr()).await;
    let r = http.send("GET", &path, &[], glovebox_tests::DEADLINE).await;
    let cookie = r.header("set-cookie").expect("the code gives a cookie");
    let cookie = cookie.split(';').next().expect("name=value").to_owned();
    let mut req = format!("ws://{}/view/socket", d.addr).into_client_request().expect("request");
    req.headers_mut().insert("cookie", cookie.parse().expect("header"));
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.expect("the view socket opens");
    let hello = ws.next().await.expect("a message").expect("hello");
    assert!(hello.to_text().is_ok_and(|t| t.contains("\"hello\"")), "{hello:?}");
    ws
}

/// Whether the page's socket is closed within `within` (messages before the close skipped).
async fn page_closed<S>(ws: &mut tokio_tungstenite::WebSocketStream<S>, within: Duration) -> bool
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    use futures::StreamExt as _;
    use tokio_tungstenite::tungstenite::Message;
    tokio::time::timeout(within, async {
        loop {
            match ws.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .is_ok()
}

/// An MCP call of `token` that waits 6 s, run by `tests/mcp/channels.py`: returns once the
/// call runs, with the line its end will bring.
fn mcp_wait(d: &Running, token: &str) -> std::sync::mpsc::Receiver<serde_json::Value> {
    use std::io::BufRead as _;
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp").join("channels.py");
    let url = format!("http://{}/mcp", d.addr);
    let mut child = std::process::Command::new("python3")
        .arg(script)
        .args(["revoked", &url, token])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    let (started_tx, started) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if line == "calling" {
                let _ = started_tx.send(());
            } else if let Ok(v) = serde_json::from_str(&line) {
                let _ = tx.send(v);
            }
        }
        let _ = child.wait();
    });
    started.recv_timeout(glovebox_tests::DEADLINE).expect("the MCP call started");
    rx
}

/// SIGHUP: new tokens work at once, a revoked token's open connection is closed within 1 s,
/// so is a connection whose token's role changed, and a kept token's connection stays up.
/// Every other way in of those tokens ends as fast: their view pages close, and a running
/// MCP call is cancelled. The file keeps hashes (one plain line, still read).
#[test]
fn sighup_reloads_the_token_file_and_closes_revoked_connections() {
    use glovebox_daemon::auth::{hashed_line, Role};
    let dir = glovebox_tests::TempDir::new("hup");
    let path = dir.path.join("tokens");
    let (old, demoted) = (hashed_line(OLD, Role::Actor), hashed_line(DEMOTED, Role::Actor));
    std::fs::write(&path, format!("{old}\n{KEPT} actor\n{demoted}\n")).expect("write");
    let path_s = path.display().to_string();
    let d = Running::start(&["--desktop", "auto", "--token-file", &path_s]);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let mut old_page = view_page(&d, OLD).await;
        let mut demoted_page = view_page(&d, DEMOTED).await;
        let mut kept_page = view_page(&d, KEPT).await;
        let mut revoked = Raw::connect(&d.url, Some(OLD)).await.expect("old token works");
        revoked.hello(Some("hup")).await;
        let mut kept = Raw::connect(&d.url, Some(KEPT)).await.expect("kept token works");
        kept.hello(Some("kept")).await;
        let mut demoted = Raw::connect(&d.url, Some(DEMOTED)).await.expect("demoted works");
        demoted.hello(Some("demoted")).await;
        // The revoked connection has a long call running: it is cancelled, not waited for.
        let wait =
            revoked.send("computer.wait", json!({"duration_ms": 20000, "op_id": "long"})).await;
        let deadline = Instant::now() + glovebox_tests::DEADLINE;
        loop {
            let r = revoked.call("op.status", json!({"op_id": "long"})).await;
            if r["result"]["state"] == "running" {
                break;
            }
            assert!(Instant::now() < deadline, "the wait never ran: {r}");
        }
        let mcp = mcp_wait(&d, OLD);
        let (new, lower) = (hashed_line(NEW, Role::Observer), hashed_line(DEMOTED, Role::Observer));
        std::fs::write(&path, format!("{KEPT} actor\n{new}\n{lower}\n")).expect("rewrite");
        let hup = Instant::now();
        d.signal("HUP");
        assert!(page_closed(&mut old_page, Duration::from_secs(1)).await, "the revoked page");
        assert!(page_closed(&mut demoted_page, Duration::from_secs(1)).await, "the demoted page");
        let ended = mcp.recv_timeout(Duration::from_secs(2)).expect("the MCP call ended");
        eprintln!("after SIGHUP: pages closed, the MCP call ended: {ended}");
        let ms = ended["ended_after_ms"].as_u64().expect("ms");
        assert!(
            ms < 6000 && hup.elapsed() < Duration::from_secs(2),
            "cancelled, not run out: {ended}"
        );
        assert_eq!(ended["code"], "CANCELLED", "the call's answer says so: {ended}");
        assert!(!page_closed(&mut kept_page, Duration::from_millis(300)).await, "the kept page");
        let r = revoked.response(wait).await;
        assert_eq!(glovebox_tests::raw::code(&r), "CANCELLED", "the running call: {r}");
        assert!(revoked.closed().await, "the revoked token's connection is closed");
        let closed_ms = hup.elapsed().as_millis();
        eprintln!("revoked connection closed {closed_ms} ms after SIGHUP");
        assert!(closed_ms < 1000, "closed within 1 s of SIGHUP: {closed_ms} ms");
        assert!(demoted.closed().await, "a token whose role changed is closed too");
        assert_eq!(Raw::connect(&d.url, Some(OLD)).await.err(), Some(401));
        let mut fresh = Raw::connect(&d.url, Some(NEW)).await.expect("new token works");
        assert_eq!(fresh.hello(None).await["role"], "observer");
        let mut again = Raw::connect(&d.url, Some(DEMOTED)).await.expect("with its new role");
        assert_eq!(again.hello(None).await["role"], "observer");
        let r = kept.call("session.status", json!({})).await;
        assert!(
            r["result"]["session_id"].as_str().is_some_and(|s| s.starts_with("kept@")),
            "the kept token's connection stays: {r}"
        );

        // A token file with a short token: the old tokens stay, the error is logged.
        std::fs::write(&path, "short-token actor\n").expect("rewrite");
        d.signal("HUP");
        let r = kept.call("session.status", json!({})).await;
        assert!(r["result"]["session_id"].as_str().is_some_and(|s| s.starts_with("kept@")), "{r}");
        assert!(Raw::connect(&d.url, Some(NEW)).await.is_ok(), "the previous tokens stay");
        assert_eq!(Raw::connect(&d.url, Some("short-token")).await.err(), Some(401));
    });
}

/// A token shorter than 32 characters is refused at start, naming its line; so is a short
/// `GLOVEBOX_TOKEN`.
#[test]
fn short_tokens_are_refused_at_start() {
    let dir = glovebox_tests::TempDir::new("short");
    let path = dir.path.join("tokens");
    std::fs::write(&path, format!("# tokens\n{KEPT} actor\n0123456789 observer\n")).expect("write");
    let run = |env: &[(&str, &str)], token_file: bool| {
        let state = glovebox_tests::TempDir::new("short-state");
        let mut cmd = std::process::Command::new(glovebox_tests::binary::gloveboxd());
        cmd.args(["--listen", "127.0.0.1:0", "--desktop", "auto", "--state-dir"])
            .arg(&state.path)
            .env_remove("GLOVEBOX_TOKEN")
            .envs(env.iter().copied());
        if token_file {
            cmd.arg("--token-file").arg(&path);
        }
        let out = cmd.output().expect("gloveboxd runs");
        (out.status, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (status, stderr) = run(&[], true);
    assert!(!status.success(), "refused: {stderr}");
    assert!(stderr.contains("line 3") && stderr.contains("32"), "names the line: {stderr}");
    assert!(!stderr.contains("0123456789 "), "and not the token: {stderr}");
    let (status, stderr) = run(&[("GLOVEBOX_TOKEN", "too-short")], false);
    assert!(!status.success(), "a short GLOVEBOX_TOKEN is refused: {stderr}");
    assert!(stderr.contains("GLOVEBOX_TOKEN") && !stderr.contains("too-short"), "{stderr}");
}

/// At trace level the daemon logs neither the `?token=` of the upgrade nor its
/// `Authorization` header, a client's name is logged escaped, and a session name with a
/// control character is refused.
#[tokio::test(flavor = "multi_thread")]
async fn tokens_never_reach_the_log() {
    const TOKEN: &str = "trace-level-token-0123456789abcdef0123";
    let log = glovebox_tests::TempDir::new("log");
    let log_path = log.path.join("stderr");
    let mut d = Running::start_logged(
        &["--desktop", "auto"],
        &[("GLOVEBOX_TOKEN", TOKEN), ("GLOVEBOX_LOG", "trace")],
        &log_path,
    );
    let query = format!("{}?token={TOKEN}", d.url);
    let mut c = Raw::connect(&query, None).await.expect("the query token works");
    let r = c
        .call(
            "session.hello",
            json!({"protocol": 1, "client": {"name": "evil\nFAKE line", "version": "0"}}),
        )
        .await;
    assert!(r.get("result").is_some(), "{r}");
    let mut h = Raw::connect(&d.url, Some(TOKEN)).await.expect("the header token works");
    // An escape code in a session name would recolour (or rewrite) the reader's terminal:
    // such a name is refused, and shows in the log escaped if at all.
    let r = h.call("session.hello", json!({"protocol": 1, "session": "esc\u{1b}[31mred"})).await;
    assert_eq!(glovebox_tests::raw::code(&r), "CONTRACT_VIOLATION", "{r}");
    h.hello(Some("plain")).await;
    assert_eq!(
        Raw::connect(&d.url, Some("wrong-token-0123456789abcdef0123456")).await.err(),
        Some(401)
    );
    drop((c, h));
    let status = d.terminate(Duration::from_secs(15));
    assert!(status.success(), "{status}");
    let text = std::fs::read_to_string(&log_path).expect("the log");
    assert!(text.lines().count() > 10, "a trace log was written: {} lines", text.lines().count());
    assert!(!text.contains(TOKEN), "the token is not in the log");
    assert!(!text.contains("wrong-token-0123456789"), "nor a wrong one");
    assert!(text.contains("evil\\nFAKE line"), "the client name is escaped");
    assert!(!text.lines().any(|l| l.starts_with("FAKE line")), "no forged line");
    assert!(!text.contains("esc\u{1b}[31mred"), "no raw escape code from a client");
}

/// What `gloveboxd` leaves behind and hands on: children (the embedded Xvfb, openbox, a
/// launched app) get no `GLOVEBOX_*` variable, openbox and the app get the display's cookie
/// (`XAUTHORITY`) which Xvfb demands (`-auth`), and everything in the state dir is the
/// user's alone (files 0600, dirs 0700). Run as root, the children are the desktop user's,
/// and so is the cookie, outside the state dir.
#[tokio::test(flavor = "multi_thread")]
async fn children_get_a_clean_environment_and_state_files_are_private() {
    const TOKEN: &str = "env-test-token-not-for-children-0123456789";
    let d = Running::start_with_env(
        &["--desktop", "embedded"],
        &[("GLOVEBOX_TOKEN", TOKEN), ("GLOVEBOX_EXTRA", "also-not")],
    );
    let mut c = Raw::connect(&d.url, Some(TOKEN)).await.expect("the env token works");
    let hello = c.hello(Some("env")).await;
    let display = hello["backends"]["desktop"]["display"].as_str().expect("display").to_owned();
    let app = c
        .call("context.get_app", json!({"app": "xterm", "launch": true, "timeout_ms": 30000}))
        .await;
    let app_pid = app["result"]["result"]["pid"].as_u64().expect("a launched pid") as u32;
    let xvfb = xvfb_pids_of(&display);
    assert_eq!(xvfb.len(), 1, "one Xvfb on {display}");
    let openbox = pids_named("openbox", d.child.id());
    assert_eq!(openbox.len(), 1, "one openbox of this daemon: {openbox:?}");
    let xauthority = d.xauthority();
    let in_state = glovebox_daemon::desktop::xauth::path(&d.state.path, display_number(&display));
    let root = std::fs::metadata("/proc/self").expect("/proc/self").uid() == 0;
    assert_eq!(xauthority == in_state, !root, "as root the cookie is out of the state dir");
    let cookie_owner = std::fs::metadata(&xauthority).expect("the cookie").uid();
    for (what, pid) in [("xvfb", xvfb[0]), ("openbox", openbox[0]), ("xterm", app_pid)] {
        let owner = std::fs::metadata(format!("/proc/{pid}")).expect("/proc/<pid>").uid();
        assert_eq!(owner, cookie_owner, "{what} runs as the cookie's owner");
        assert!(!root || owner != 0, "{what} runs as root");
        let env = environ(pid);
        assert!(
            !env.iter().any(|(k, v)| k.starts_with("GLOVEBOX_") || v.contains(TOKEN)),
            "{what} (pid {pid}) inherited a GLOVEBOX_ variable: {env:?}"
        );
        assert!(env.iter().any(|(k, _)| k == "PATH"), "{what} has PATH: {env:?}");
        if what != "xvfb" {
            let x = env.iter().find(|(k, _)| k == "XAUTHORITY").map(|(_, v)| v.clone());
            assert_eq!(x.as_deref(), Some(xauthority.to_str().expect("utf-8")), "{what}");
        }
    }
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", xvfb[0])).expect("cmdline");
    assert!(String::from_utf8_lossy(&cmdline).contains("-auth"), "Xvfb demands the cookie");
    // Without the cookie the display refuses; with it, it answers.
    let anonymous = glovebox_daemon::desktop::xauth::connect_with(&display, &[0u8; 16]);
    assert!(anonymous.is_err(), "a client with a wrong cookie got in");
    d.trust_display(&display);
    assert!(glovebox_daemon::desktop::xauth::connect(&display).is_ok());
    // Everything the daemon wrote: files 0600, dirs 0700 (sockets are the buses' own).
    let mut seen = 0;
    let mut stack = vec![d.state.path.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir").flatten() {
            let meta = entry.metadata().expect("metadata");
            let mode = meta.permissions().mode() & 0o777;
            if meta.is_dir() {
                assert_eq!(mode & 0o077, 0, "dir {} is {mode:o}", entry.path().display());
                stack.push(entry.path());
            } else if meta.is_file() {
                assert_eq!(mode & 0o077, 0, "file {} is {mode:o}", entry.path().display());
                seen += 1;
            }
        }
    }
    let dir_mode = std::fs::metadata(&d.state.path).expect("state dir").permissions().mode();
    assert_eq!(dir_mode & 0o777, 0o700);
    assert!(seen >= 3, "logs and the cookie were looked at ({seen} files)");
    assert!(xauthority.exists());
}

fn display_number(display: &str) -> u32 {
    display.trim_start_matches(':').parse().expect("a local display")
}

/// `/proc/<pid>/environ` as pairs.
fn environ(pid: u32) -> Vec<(String, String)> {
    let raw = std::fs::read(format!("/proc/{pid}/environ")).expect("environ");
    raw.split(|b| *b == 0)
        .filter_map(|kv| std::str::from_utf8(kv).ok()?.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// Pids of processes called `name` whose parent is `parent`.
fn pids_named(name: &str, parent: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some((head, rest)) = stat.rsplit_once(')') else { continue };
        let comm = head.split_once('(').map(|(_, c)| c).unwrap_or_default();
        let ppid = rest.split_whitespace().nth(1).and_then(|p| p.parse::<u32>().ok());
        if comm == name && ppid == Some(parent) {
            out.push(pid);
        }
    }
    out
}
