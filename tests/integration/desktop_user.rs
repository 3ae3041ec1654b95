//! The `gloveboxd` binary started as root runs its desktop as another user; the apps it
//! launches there are still driven through their accessibility trees: a GTK 3 editor is
//! named, filled and read back, and a calculator's button is pressed by ref. (An app of
//! another user refuses the daemon on its private socket; the daemon then goes by the bus.)

use std::time::{Duration, Instant};

use glovebox_tests::binary::Running;
use glovebox_tests::desktop::{find_line, ok};
use glovebox_tests::raw::Raw;
use glovebox_tests::DEADLINE;
use serde_json::{json, Value};

fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
}

/// Launches `app` through `context.get_app`; returns its app_id once the bus names it.
async fn launch(c: &mut Raw, app: &str) -> String {
    let r =
        c.call("context.get_app", json!({"app": app, "launch": true, "timeout_ms": 30000})).await;
    let id = ok(&r)["app_id"].as_str().expect("app_id").to_owned();
    let deadline = Instant::now() + DEADLINE;
    loop {
        let apps = ok(&c.call("context.list_apps", json!({})).await);
        let named = apps["apps"]
            .as_array()
            .is_some_and(|a| a.iter().any(|a| a["app_id"] == id.as_str() && a["name"] == app));
        if named {
            return id;
        }
        assert!(Instant::now() < deadline, "{app} is never named on the bus: {apps}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Polls snapshots of `app` until a line holds all `words`; returns (ref, line).
async fn wait_line(c: &mut Raw, app: &str, words: &[&str]) -> (String, String) {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let params = json!({"app_id": app, "disable_diffing": true, "limit": 5000});
        let r = c.call("computer.snapshot", params).await;
        let text = r["result"]["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
        if let Some(found) = find_line(&text, words) {
            return found;
        }
        assert!(Instant::now() < deadline, "no line with {words:?} in:\n{text}\n{r}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apps_of_the_desktop_user_are_driven_by_a_daemon_run_as_root() {
    if !is_root() {
        eprintln!(
            "desktop_user: not root, so the desktop runs as the daemon's user; nothing to check"
        );
        return;
    }
    let mut d = Running::start(&["--desktop", "embedded"]);
    let token = d.token();
    let mut c = Raw::connect(&d.url, Some(&token)).await.expect("the token works");
    c.hello(None).await;

    let editor = launch(&mut c, "mousepad").await;
    let (view, _) = wait_line(&mut c, &editor, &["text", "editable"]).await;
    let r = ok(&c
        .call("computer.fill", json!({"app_id": editor, "ref": view, "text": "typed as root"}))
        .await);
    assert_eq!(r["value"], "typed as root", "{r}");
    let (_, line) = wait_line(&mut c, &editor, &[&format!("[{view}]")]).await;
    assert!(line.contains("typed as root"), "the editor holds the text: {line}");

    // A GTK 4 calculator: its digit button, pressed by ref, shows in its entry.
    let calc = launch(&mut c, "gnome-calculator").await;
    let (seven, _) = wait_line(&mut c, &calc, &["button \"7 7\""]).await;
    let r = c.call("computer.click", json!({"app_id": calc, "ref": seven, "capture": false})).await;
    assert!(r.get("result").is_some(), "{r}");
    let deadline = Instant::now() + DEADLINE;
    loop {
        let params = json!({"app_id": calc, "disable_diffing": true, "limit": 5000});
        let r: Value = c.call("computer.snapshot", params).await;
        let text = r["result"]["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
        if text.lines().any(|l| l.contains("editable") && l.contains("value=\"7\"")) {
            break;
        }
        assert!(Instant::now() < deadline, "the entry never showed 7:\n{text}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let status = d.terminate(DEADLINE);
    assert!(status.success(), "the daemon stops cleanly: {status}");
}
