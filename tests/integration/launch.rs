//! `get_app {launch: true}` with a single-instance app: the process launched hands over to
//! the one already running and exits (mousepad, started by a link under another name so the
//! query does not find the running one first); the answer is that app, never the pid that
//! is gone. A program that ends before any window showed is an error.

use glovebox_tests::desktop::{ok, DesktopFixture};
use glovebox_tests::raw::code;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_launch_handed_over_to_a_running_instance_answers_that_app() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["mousepad"]);
    let app = f.wait_app(&mut c, pid).await;
    f.wait_line(&mut c, &app, &["text", "editable"]).await;
    let dir = std::env::temp_dir().join(format!("glovebox-handoff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory for the link");
    let link = dir.join("notepad");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("/usr/bin/mousepad", &link).expect("a link to mousepad");

    let launch = json!({"app": link, "launch": true, "timeout_ms": 30000});
    let got = ok(&c.call("context.get_app", launch).await);
    assert_eq!(got["app_id"], app.as_str(), "the running mousepad: {got}");
    assert_eq!((got["launched"].clone(), got["accessible"].clone()), (json!(true), json!(true)));

    let r = c.call("context.get_app", json!({"app": "/bin/true", "launch": true})).await;
    assert_eq!(code(&r), "ACTION_FAILED", "{r}");
    let message = r["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("ended") && message.contains("before"), "{r}");
    let _ = std::fs::remove_dir_all(&dir);
    f.stop().await;
}
