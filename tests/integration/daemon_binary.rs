//! The `gloveboxd` binary as a user runs it: its own embedded desktop, the banner, a token
//! file it creates, a wscat-style session, and a clean SIGTERM that stops its children.

use std::os::unix::fs::PermissionsExt as _;
use std::time::Duration;

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
    std::fs::write(&path, "abc123 actor\nwatch observer\n").expect("write");
    let path_s = path.display().to_string();
    let d = Running::start(&["--desktop", "auto", "--token-file", &path_s]);
    assert!(d.banner.iter().any(|l| l.contains(&path_s)), "{:?}", d.banner);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let mut o = Raw::connect(&d.url, Some("watch")).await.expect("observer token");
        assert_eq!(o.hello(None).await["role"], "observer");
        assert_eq!(Raw::connect(&d.url, Some("nope")).await.err(), Some(401));
    });
}

#[test]
fn sighup_reloads_the_token_file_and_keeps_connections() {
    let dir = glovebox_tests::TempDir::new("hup");
    let path = dir.path.join("tokens");
    std::fs::write(&path, "old-token actor\nkept-token actor\n").expect("write");
    let path_s = path.display().to_string();
    let d = Running::start(&["--desktop", "auto", "--token-file", &path_s]);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let mut open = Raw::connect(&d.url, Some("old-token")).await.expect("old token works");
        open.hello(Some("hup")).await;
        std::fs::write(&path, "kept-token actor\nnew-token observer\n").expect("rewrite");
        d.signal("HUP");
        let deadline = std::time::Instant::now() + glovebox_tests::DEADLINE;
        while Raw::connect(&d.url, Some("old-token")).await.is_ok() {
            assert!(std::time::Instant::now() < deadline, "the revoked token still works");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(Raw::connect(&d.url, Some("old-token")).await.err(), Some(401));
        let mut fresh = Raw::connect(&d.url, Some("new-token")).await.expect("new token works");
        assert_eq!(fresh.hello(None).await["role"], "observer");
        assert!(Raw::connect(&d.url, Some("kept-token")).await.is_ok());
        let r = open.call("session.status", json!({})).await;
        assert_eq!(r["result"]["session_id"], "hup", "the open connection stays up: {r}");
    });
}

/// What `gloveboxd` leaves behind and hands on: children (the embedded Xvfb, openbox, a
/// launched app) get no `GLOVEBOX_*` variable, openbox and the app get the display's cookie
/// (`XAUTHORITY`) which Xvfb demands (`-auth`), and everything in the state dir is the
/// user's alone (files 0600, dirs 0700).
#[tokio::test(flavor = "multi_thread")]
async fn children_get_a_clean_environment_and_state_files_are_private() {
    const TOKEN: &str = "env-test-token-not-for-children";
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
    let xauthority = glovebox_daemon::desktop::xauth::path(&d.state.path, display_number(&display));
    for (what, pid) in [("xvfb", xvfb[0]), ("openbox", openbox[0]), ("xterm", app_pid)] {
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
