//! A person's browser for the view page: Debian's Chromium, headless, on its own profile and
//! a DevTools port of its own, driven by the test over CDP (chromiumoxide). Every request and
//! WebSocket the page opens is logged, so a test can say none left loopback.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::network::{
    EnableParams, EventRequestWillBeSent, EventWebSocketCreated,
};
use chromiumoxide::layout::Point;
use chromiumoxide::{Browser, Page};
use futures::StreamExt as _;
use serde_json::Value;

use crate::{TempDir, DEADLINE};

pub struct Viewer {
    pub browser: Browser,
    child: Child,
    _profile: TempDir,
    handler: tokio::task::JoinHandle<()>,
}

/// One open page and the URLs it asked for.
pub struct ViewPage {
    pub page: Page,
    pub urls: Arc<Mutex<Vec<String>>>,
}

impl Viewer {
    pub async fn start() -> Viewer {
        let profile = TempDir::new("viewer");
        let program =
            std::env::var("GLOVEBOX_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
        let child = Command::new(program)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--remote-debugging-port=0",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-gpu",
                "--window-size=1400,1000",
                "about:blank",
            ])
            .arg(format!("--user-data-dir={}", profile.path.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        // Chromium writes its port and path once DevTools listens.
        let file: PathBuf = profile.path.join("DevToolsActivePort");
        let deadline = Instant::now() + DEADLINE;
        let url = loop {
            if let Ok(text) = std::fs::read_to_string(&file) {
                let mut lines = text.lines();
                if let (Some(port), Some(path)) = (lines.next(), lines.next()) {
                    break format!("ws://127.0.0.1:{port}{path}");
                }
            }
            assert!(Instant::now() < deadline, "headless chromium never wrote {}", file.display());
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let (browser, mut handler) = tokio::time::timeout(DEADLINE, Browser::connect(url))
            .await
            .expect("connect in time")
            .expect("CDP connects");
        let handler = tokio::spawn(async move { while handler.next().await.is_some() {} });
        Viewer { browser, child, _profile: profile, handler }
    }

    /// A new page logging its requests, at `url`.
    pub async fn open(&self, url: &str) -> ViewPage {
        let page = self.browser.new_page("about:blank").await.expect("a page");
        page.execute(EnableParams::default()).await.expect("network events");
        let urls = Arc::new(Mutex::new(Vec::new()));
        let mut reqs = page.event_listener::<EventRequestWillBeSent>().await.expect("listener");
        let mut sockets = page.event_listener::<EventWebSocketCreated>().await.expect("listener");
        let log = urls.clone();
        tokio::spawn(async move {
            loop {
                let url = tokio::select! {
                    Some(r) = reqs.next() => r.request.url.clone(),
                    Some(s) = sockets.next() => s.url.clone(),
                    else => return,
                };
                log.lock().unwrap_or_else(|p| p.into_inner()).push(url);
            }
        });
        tokio::time::timeout(DEADLINE, page.goto(url))
            .await
            .expect("loads in time")
            .expect("loads");
        ViewPage { page, urls }
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        self.handler.abort();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl ViewPage {
    /// The value of `js` in the page.
    pub async fn eval(&self, js: &str) -> Value {
        let r = tokio::time::timeout(DEADLINE, self.page.evaluate(js))
            .await
            .expect("evaluates in time")
            .unwrap_or_else(|e| panic!("{js}: {e}"));
        r.into_value::<Value>().unwrap_or(Value::Null)
    }

    /// Polls `js` until it is true; panics with `what` at the deadline.
    pub async fn wait_for(&self, js: &str, what: &str) {
        self.wait_within(js, DEADLINE, what).await;
    }

    /// Polls `js` every 20 ms until it is true within `within`; how long it took.
    pub async fn wait_within(&self, js: &str, within: Duration, what: &str) -> Duration {
        let start = Instant::now();
        loop {
            if self.eval(js).await == Value::Bool(true) {
                return start.elapsed();
            }
            assert!(start.elapsed() < within, "{what}: not within {within:?} ({js})");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// A trusted click (CDP input) at page coordinates.
    pub async fn click(&self, x: f64, y: f64) {
        tokio::time::timeout(DEADLINE, self.page.click(Point { x, y }))
            .await
            .expect("clicked in time")
            .expect("click");
    }

    /// A trusted click on the element `selector` names.
    pub async fn click_on(&self, selector: &str) {
        let el = tokio::time::timeout(DEADLINE, self.page.find_element(selector))
            .await
            .expect("found in time")
            .unwrap_or_else(|e| panic!("{selector}: {e}"));
        tokio::time::timeout(DEADLINE, el.click())
            .await
            .expect("clicked in time")
            .unwrap_or_else(|e| panic!("click {selector}: {e}"));
    }

    /// Page coordinates of screen pixel (x, y) on the view's canvas.
    pub async fn screen_point(&self, x: f64, y: f64) -> (f64, f64) {
        let r = self
            .eval(&format!(
                "(() => {{ const c = document.getElementById('screen'); const r = c.getBoundingClientRect(); \
                 const k = r.width / c.width; return [r.left + {x} * k, r.top + {y} * k]; }})()"
            ))
            .await;
        (r[0].as_f64().expect("x"), r[1].as_f64().expect("y"))
    }

    /// The URLs the page asked for so far.
    pub fn urls(&self) -> Vec<String> {
        self.urls.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}
