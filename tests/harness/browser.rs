//! Browser tests: fixture pages served on a loopback port, a private Xvfb for a headful
//! Chromium, and the in-process daemon with the CDP backend plugged in. Each test gets its own
//! desktop, Chromium (own port, own profile) and state dir, so tests run in parallel.

use std::path::PathBuf;
use std::sync::Arc;

use glovebox_daemon::browser::Browsers;
use glovebox_daemon::desktop::embedded::{self, DesktopEnv, DesktopMode};
use glovebox_daemon::desktop::Desktop;
use glovebox_daemon::process::Supervisor;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::{InProcess, Options, TempDir};

/// A tiny HTTP/1.0 server for `tests/fixtures/`; `?delay=<ms>` answers late,
/// `/redirect?to=<url>` answers 302 to it. Every request is logged as `host path`.
pub struct Site {
    pub base: String,
    /// `127.0.0.1:<port>` or `localhost:<port>` (the Host header) and the path, per request.
    pub hits: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Site {
    pub async fn start() -> Site {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind site");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let hits = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = hits.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut s, _)) = listener.accept().await {
                let root = root.clone();
                let log = log.clone();
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 8192];
                    let mut n = 0;
                    while n < buf.len() {
                        match s.read(&mut buf[n..]).await {
                            Ok(0) | Err(_) => return,
                            Ok(k) => n += k,
                        }
                        if buf[..n].windows(4).any(|w| w == b"\r\n\r\n") {
                            break;
                        }
                    }
                    let head = String::from_utf8_lossy(&buf[..n]).to_string();
                    let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
                    let host = head
                        .lines()
                        .find_map(|l| l.strip_prefix("Host: ").or(l.strip_prefix("host: ")))
                        .unwrap_or_default()
                        .trim()
                        .to_owned();
                    log.lock().unwrap_or_else(|p| p.into_inner()).push(format!("{host} {path}"));
                    if let Some(to) = path.strip_prefix("/redirect?to=") {
                        let header = format!(
                            "HTTP/1.0 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        );
                        let _ = s.write_all(header.as_bytes()).await;
                        let _ = s.shutdown().await;
                        return;
                    }
                    // `/big?bytes=N`: an attachment of N bytes, sent 64 KiB at a time.
                    if let Some(n) = path.strip_prefix("/big?bytes=") {
                        let n: usize = n.parse().unwrap_or(0);
                        let header = format!(
                            "HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"big.bin\"\r\nContent-Length: {n}\r\nConnection: close\r\n\r\n"
                        );
                        let _ = s.write_all(header.as_bytes()).await;
                        let chunk = vec![b'z'; 64 * 1024];
                        let mut sent = 0;
                        while sent < n {
                            let k = chunk.len().min(n - sent);
                            if s.write_all(&chunk[..k]).await.is_err() {
                                return;
                            }
                            sent += k;
                            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                        }
                        let _ = s.shutdown().await;
                        return;
                    }
                    // `?delay=<ms>` holds the answer back, like a slow server.
                    let delay = path
                        .split("delay=")
                        .nth(1)
                        .and_then(|d| d.split('&').next())
                        .and_then(|d| d.parse::<u64>().ok());
                    if let Some(ms) = delay {
                        tokio::time::sleep(std::time::Duration::from_millis(ms.min(5000))).await;
                    }
                    let path = path.split(['?', '#']).next().unwrap_or("/").trim_start_matches('/');
                    let file = root.join(if path.is_empty() { "index.html" } else { path });
                    let ok = !path.contains("..") && file.is_file();
                    let (status, body) = if ok {
                        ("200 OK", std::fs::read(&file).unwrap_or_default())
                    } else {
                        ("404 Not Found", b"not found".to_vec())
                    };
                    let mime = match file.extension().and_then(|e| e.to_str()) {
                        Some("html") => "text/html; charset=utf-8",
                        Some("js") => "text/javascript",
                        _ => "application/octet-stream",
                    };
                    let header = format!(
                        "HTTP/1.0 {status}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
                        body.len()
                    );
                    let _ = s.write_all(header.as_bytes()).await;
                    let _ = s.write_all(&body).await;
                    let _ = s.shutdown().await;
                });
            }
        });
        Site { base, hits, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.base)
    }

    /// The same server under the name `localhost`: another host to the policy, and another
    /// site to the browser.
    pub fn other_host(&self, path: &str) -> String {
        format!("{}/{path}", self.base.replace("127.0.0.1", "localhost"))
    }

    /// Requests that reached the server under the name `localhost`.
    pub fn other_host_hits(&self) -> Vec<String> {
        let hits = self.hits.lock().unwrap_or_else(|p| p.into_inner());
        hits.iter().filter(|h| h.starts_with("localhost")).cloned().collect()
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Everything one browser test needs. Drop stops Chromium before the X server.
pub struct BrowserEnv {
    pub daemon: InProcess,
    pub site: Site,
    pub browsers: Arc<Browsers>,
    pub supervisor: Supervisor,
    pub desktop: DesktopEnv,
    pub dir: TempDir,
}

impl BrowserEnv {
    pub async fn start() -> BrowserEnv {
        Self::with_policy(serde_json::json!({"rules": []})).await
    }

    /// With `policy` (the `--policy` file's JSON) as the daemon's approval rules.
    pub async fn with_policy(policy: serde_json::Value) -> BrowserEnv {
        Self::with_config(policy, Arc::new(|_| {})).await
    }

    /// With `policy` and a last word on the daemon's configuration.
    pub async fn with_config(policy: serde_json::Value, extra: crate::Configure) -> BrowserEnv {
        let policy: glovebox_daemon::approval::policy::Policy =
            serde_json::from_value(policy).expect("a valid policy");
        let dir = TempDir::new("browser");
        let supervisor = Supervisor::new(&dir.path);
        let desktop = embedded::start(DesktopMode::Embedded, &dir.path, &supervisor)
            .expect("embedded desktop (Xvfb) starts");
        let browsers = Arc::new(Browsers::new(
            dir.path.join("state"),
            supervisor.clone(),
            desktop.env().to_vec(),
        ));
        // The desktop backend too, as the daemon runs: browser pastes go through its
        // clipboard.
        let desk =
            Desktop::connect(&desktop, supervisor.clone()).await.expect("desktop backend connects");
        let b = browsers.clone();
        let daemon = InProcess::with(Options {
            configure: Some(Arc::new(move |c| {
                // As in `gloveboxd`, where both share one state dir: what the browser
                // downloads is under the daemon's file roots.
                let roots = vec![c.state_dir.join("files"), b.downloads_dir()];
                c.files = glovebox_daemon::files::FileRoots::new(&c.state_dir, roots, Vec::new());
                c.browser = Some(b.clone());
                c.desktop = desk.clone().into();
                c.policy = policy.clone();
                extra(c);
            })),
            ..Options::default()
        })
        .await;
        let site = Site::start().await;
        BrowserEnv { daemon, site, browsers, supervisor, desktop, dir }
    }
}

impl Drop for BrowserEnv {
    fn drop(&mut self) {
        // Newest children first: Chromium goes before Xvfb.
        self.desktop.stop();
        self.supervisor.stop_all();
    }
}
