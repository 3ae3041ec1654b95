//! Faults for `bench load --faults`: while the sessions run, the default Chromium and the
//! test app are killed at random moments (the app is launched again), and sessions drop
//! their connection in the middle of a call. Afterwards every session must answer again.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use serde_json::Value;

use super::call;
use crate::client::Client;

/// What was broken during the run.
#[derive(Debug, Default, Clone, Copy)]
pub struct Injected {
    pub browser_kills: u64,
    pub app_kills: u64,
}

/// The text the user had on the clipboard before the run; it must still be there after.
pub const USER_CLIPBOARD: &str = "the user's clipboard, kept through every fault";

/// Kill the browser or the app every 1.5-4 s (seeded) until `stop_at`.
pub async fn inject(
    url: &str,
    token: &str,
    app: Arc<Mutex<String>>,
    stop_at: Instant,
) -> anyhow::Result<Injected> {
    let mut c = Client::connect(url, token).await?;
    c.hello().await?;
    let mut rng: u64 = 0x5eed_fa17;
    let mut done = Injected::default();
    loop {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        tokio::time::sleep(Duration::from_millis(1500 + rng % 2500)).await;
        if Instant::now() >= stop_at {
            return Ok(done);
        }
        if rng.is_multiple_of(2) {
            let list = call(&mut c, "context.list_browsers", "{}").await?;
            let pid = list["result"]["browsers"]
                .as_array()
                .and_then(|b| b.iter().find(|b| b["default"] == true))
                .and_then(|b| b["pid"].as_u64());
            if let Some(pid) = pid {
                kill(pid)?;
                done.browser_kills += 1;
            }
        } else {
            let id = lock(&app).clone();
            let pid: u64 = id.trim_start_matches("app:").parse().context("an app:<pid> id")?;
            kill(pid)?;
            done.app_kills += 1;
            *lock(&app) = relaunch(&mut c).await?;
        }
    }
}

/// Launch the app again; its new id once the bus lists it.
async fn relaunch(c: &mut Client) -> anyhow::Result<String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (text, _) = c.call("context.get_app", r#"{"app":"mousepad","launch":true}"#).await?;
        let v: Value = serde_json::from_str(&text)?;
        if let Some(id) = v["result"]["result"]["app_id"].as_str() {
            return Ok(id.to_owned());
        }
        anyhow::ensure!(Instant::now() < deadline, "mousepad did not come back: {text}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn kill(pid: u64) -> anyhow::Result<()> {
    let status = std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status()?;
    anyhow::ensure!(status.success(), "kill -KILL {pid} failed");
    Ok(())
}

pub fn lock(app: &Mutex<String>) -> std::sync::MutexGuard<'_, String> {
    app.lock().unwrap_or_else(|p| p.into_inner())
}
