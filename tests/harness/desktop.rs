//! A private embedded desktop (Xvfb, D-Bus, AT-SPI bus, openbox) per test, with the desktop
//! backend plugged into an in-process daemon. Apps are started with the desktop's environment;
//! nothing reads or changes this process's DISPLAY, so tests run in parallel.

use std::sync::Arc;
use std::time::Instant;

use glovebox_daemon::desktop::embedded::{self, DesktopEnv, DesktopMode};
use glovebox_daemon::desktop::Desktop;
use glovebox_daemon::process::Supervisor;
use serde_json::{json, Value};

use crate::{InProcess, Options, Raw, TempDir, DEADLINE};

pub struct DesktopFixture {
    pub daemon: InProcess,
    pub env: Arc<DesktopEnv>,
    pub supervisor: Supervisor,
    pub desktop: Arc<Desktop>,
    _state: TempDir,
}

impl DesktopFixture {
    pub async fn start() -> DesktopFixture {
        let state = TempDir::new("desktop");
        let supervisor = Supervisor::new(&state.path);
        let (path, sup) = (state.path.clone(), supervisor.clone());
        let env = tokio::task::spawn_blocking(move || {
            embedded::start(DesktopMode::Embedded, &path, &sup)
        })
        .await
        .expect("desktop thread")
        .expect("embedded desktop starts");
        let env = Arc::new(env);
        let desktop =
            Desktop::connect(&env, supervisor.clone()).await.expect("desktop backend connects");
        let d = desktop.clone();
        let daemon = InProcess::with(Options {
            configure: Some(Arc::new(move |c| c.desktop = d.clone().into())),
            ..Options::default()
        })
        .await;
        DesktopFixture { daemon, env, supervisor, desktop, _state: state }
    }

    /// Starts an app with the desktop's environment; returns its pid.
    pub fn launch(&self, argv: &[&str]) -> u32 {
        self.supervisor.launch_app(argv, self.env.env()).expect("app starts")
    }

    /// Polls `list_apps` until an app with `pid` is on the bus; returns its app_id.
    pub async fn wait_app(&self, c: &mut Raw, pid: u32) -> String {
        let id = format!("app:{pid}");
        let deadline = Instant::now() + DEADLINE;
        loop {
            let r = c.call("context.list_apps", json!({})).await;
            let apps = r["result"]["result"]["apps"].as_array().cloned().unwrap_or_default();
            if apps.iter().any(|a| a["app_id"] == id.as_str()) {
                return id;
            }
            assert!(Instant::now() < deadline, "app {id} never appeared: {r}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }

    /// Polls snapshots of `app_id` until a line matches all `words`; returns (ref, line).
    pub async fn wait_line(&self, c: &mut Raw, app_id: &str, words: &[&str]) -> (String, String) {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let r = c
                .call(
                    "computer.snapshot",
                    json!({"app_id": app_id, "disable_diffing": true, "limit": 5000}),
                )
                .await;
            let text = r["result"]["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
            if let Some(found) = find_line(&text, words) {
                return found;
            }
            assert!(Instant::now() < deadline, "no line with {words:?} in:\n{text}\n{r}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }

    /// The app's windows as `context.list_windows` lists them.
    pub async fn windows_of(&self, c: &mut Raw, app_id: &str) -> Vec<Value> {
        let r = c.call("context.list_windows", json!({"app_id": app_id})).await;
        ok(&r)["windows"].as_array().cloned().unwrap_or_default()
    }

    /// Waits until the app has a window; returns its window_id.
    pub async fn wait_window(&self, c: &mut Raw, app_id: &str) -> String {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(w) = self.windows_of(c, app_id).await.first() {
                return w["window_id"].as_str().expect("window_id").to_owned();
            }
            assert!(Instant::now() < deadline, "{app_id} never mapped a window");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// The active window per EWMH (`_NET_ACTIVE_WINDOW`), as list_windows reports it.
    pub async fn active_window(&self, c: &mut Raw) -> Option<Value> {
        let r = c.call("context.list_windows", json!({})).await;
        ok(&r)["windows"].as_array()?.iter().find(|w| w["active"] == true).cloned()
    }

    /// An element's text, read through AT-SPI.
    pub async fn text_of(&self, c: &mut Raw, app_id: &str, r: &str) -> String {
        let got = c.call("computer.get_text", json!({"app_id": app_id, "ref": r})).await;
        ok(&got)["text"].as_str().expect("text").to_owned()
    }

    pub async fn stop(self) {
        drop(self);
    }
}

impl Drop for DesktopFixture {
    /// Stops the apps, the buses and Xvfb, also when a test panics.
    fn drop(&mut self) {
        self.env.stop();
    }
}

/// The first outline line containing all `words`, with its ref.
pub fn find_line(snapshot: &str, words: &[&str]) -> Option<(String, String)> {
    snapshot
        .lines()
        .find(|l| words.iter().all(|w| l.contains(w)))
        .map(|l| (line_ref(l), l.to_owned()))
}

pub fn line_ref(line: &str) -> String {
    glovebox_protocol::outline::line_ref(line).unwrap_or_default().to_owned()
}

/// The action result of a successful tool call, or a panic showing the error.
pub fn ok(r: &Value) -> Value {
    assert!(r.get("result").is_some(), "call failed: {r}");
    r["result"]["result"].clone()
}
