//! Navigation: open a URL, reload, step through history, wait for the document to be ready,
//! and read the tab's URL and title.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::Tab;
use crate::browser::BrowserError;

impl Tab {
    /// Wait (bounded) until a main-frame navigation after `before` was seen and handled.
    async fn wait_navigated(&self, before: u64, deadline: Instant) -> Result<(), BrowserError> {
        let mut rx = self.watch.navigations.clone();
        let left = deadline.saturating_duration_since(Instant::now());
        let r = match tokio::time::timeout(left, rx.wait_for(|n| *n > before)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(_)) => Err(self.conn.gone()),
            Err(_) => Err(BrowserError::Failed("the navigation did not happen in time".into())),
        };
        r
    }

    /// Wait (bounded) until the document is interactive.
    pub async fn wait_ready(&self, timeout: Duration) -> Result<(), BrowserError> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.eval("document.readyState").await {
                Ok(v) if v != "loading" => return Ok(()),
                Err(e @ BrowserError::Unavailable(_)) => return Err(e),
                Err(BrowserError::DialogOpened(_)) => return Ok(()),
                Err(BrowserError::Failed(m)) if m.contains("dialog is open") => return Ok(()),
                _ => {}
            }
            if Instant::now() > deadline {
                return Err(BrowserError::Failed(format!(
                    "the page was not ready within {} ms",
                    timeout.as_millis()
                )));
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    pub async fn navigate(&self, url: &str, timeout: Duration) -> Result<(), BrowserError> {
        let deadline = Instant::now() + timeout;
        let before = self.navigations();
        let r = self.cmd("Page.navigate", json!({"url": url})).await?;
        if let Some(err) = r["errorText"].as_str().filter(|e| !e.is_empty()) {
            return Err(BrowserError::Failed(format!("opening {url} failed: {err}")));
        }
        if r.get("loaderId").is_none_or(Value::is_null) {
            return Ok(()); // same-document navigation
        }
        self.wait_navigated(before, deadline).await?;
        self.wait_ready(deadline.saturating_duration_since(Instant::now())).await
    }

    pub async fn reload(&self, timeout: Duration) -> Result<(), BrowserError> {
        let deadline = Instant::now() + timeout;
        let before = self.navigations();
        self.cmd("Page.reload", json!({})).await?;
        self.wait_navigated(before, deadline).await?;
        self.wait_ready(deadline.saturating_duration_since(Instant::now())).await
    }

    /// One step back (-1) or forward (+1) in the tab's history.
    pub async fn history(&self, step: i64, timeout: Duration) -> Result<(), BrowserError> {
        let deadline = Instant::now() + timeout;
        let h = self.cmd("Page.getNavigationHistory", json!({})).await?;
        let current = h["currentIndex"].as_i64().unwrap_or(0);
        let entries = h["entries"].as_array().cloned().unwrap_or_default();
        let Some(entry) = usize::try_from(current + step).ok().and_then(|i| entries.get(i)) else {
            let which = if step < 0 { "back" } else { "forward" };
            return Err(BrowserError::Failed(format!(
                "there is no page to go {which} to in this tab's history"
            )));
        };
        let before = self.navigations();
        self.cmd("Page.navigateToHistoryEntry", json!({"entryId": entry["id"]})).await?;
        self.wait_navigated(before, deadline).await?;
        self.wait_ready(deadline.saturating_duration_since(Instant::now())).await
    }

    /// URL and title from the browser (works while a dialog is open).
    pub async fn info(&self) -> Result<(String, String), BrowserError> {
        let r = self.conn.call("Target.getTargetInfo", json!({"targetId": self.target_id})).await?;
        let i = &r["targetInfo"];
        Ok((
            i["url"].as_str().unwrap_or_default().to_owned(),
            i["title"].as_str().unwrap_or_default().to_owned(),
        ))
    }
}
