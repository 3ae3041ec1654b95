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
