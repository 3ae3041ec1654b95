//! The Chromium both clients drive in `bench browser`. The daemon's own browser has no
//! debugging port (its DevTools are on a pipe), so the bench starts one on a port, with the
//! flags `daemon/src/browser/launch.rs` gives the daemon's, and lets the daemon drive it with
//! `--browser-allow`; Playwright MCP and the bare DevTools client attach to the same port.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context as _;

/// A Chromium on `port` under `display`; killed on drop.
pub struct Chromium {
    child: Child,
    profile: std::path::PathBuf,
}

impl Chromium {
    pub fn start(display: &str, port: u16, dir: &std::path::Path) -> anyhow::Result<Chromium> {
        let profile = dir.join("bench-chromium-profile");
        let child = Command::new("chromium")
            .args([
                format!("--remote-debugging-port={port}"),
                "--remote-debugging-address=127.0.0.1".into(),
                "--no-sandbox".into(),
                "--test-type".into(),
                "--disable-gpu".into(),
                "--no-first-run".into(),
                "--no-default-browser-check".into(),
                "--disable-background-networking".into(),
                "--disable-component-update".into(),
                "--disable-sync".into(),
                "--disable-quic".into(),
                "--disable-features=Translate,MediaRouter,OptimizationHints,BackForwardCache"
                    .into(),
                "--password-store=basic".into(),
                "--force-renderer-accessibility".into(),
                format!("--user-data-dir={}", profile.display()),
                "--window-position=0,0".into(),
                "--window-size=1280,800".into(),
                "about:blank".into(),
            ])
            .env("DISPLAY", display)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start chromium")?;
        let mut c = Chromium { child, profile };
        let deadline = Instant::now() + Duration::from_secs(30);
        while super::cdp::version(port).is_err() {
            if Instant::now() > deadline || c.child.try_wait()?.is_some() {
                anyhow::bail!("chromium did not answer on port {port}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(c)
    }
}

impl Drop for Chromium {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A free loopback port.
pub fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port())
}
