//! Navigation: open a URL, reload, step through history, wait for the document to be ready,
//! and read the tab's URL and title.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::{
    GetNavigationHistoryParams, NavigateParams, NavigateToHistoryEntryParams, ReloadParams,
};
use chromiumoxide::cdp::browser_protocol::target::GetTargetInfoParams;
use chromiumoxide::types::Command;

use super::Tab;
use crate::browser::cdp::Dialog;
use crate::browser::BrowserError;

impl Tab {
    /// Wait (bounded) until a main-frame navigation after `before` was seen and handled.
    async fn wait_navigated(&self, before: u64, deadline: Instant) -> Result<(), BrowserError> {
        let mut rx = self.watch.navigations.clone();
        let left = deadline.saturating_duration_since(Instant::now());
        let r = match tokio::time::timeout(left, rx.wait_for(|n| *n > before)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(_)) => Err(self.conn.gone()),
            Err(_) => Err(BrowserError::Timeout("the navigation did not happen in time".into())),
        };
        r
    }

    /// Wait (bounded) until the document is interactive.
    pub async fn wait_ready(&self, timeout: Duration) -> Result<(), BrowserError> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.eval::<serde_json::Value>("document.readyState").await {
                Ok(v) if v != "loading" => return Ok(()),
                Err(e @ BrowserError::Unavailable(_)) => return Err(e),
                Err(BrowserError::DialogOpened(_) | BrowserError::DialogOpen(_)) => return Ok(()),
                _ => {}
            }
            if Instant::now() > deadline {
                return Err(BrowserError::Timeout(format!(
                    "the page was not ready within {} ms",
                    timeout.as_millis()
                )));
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    /// Wait (bounded) until the navigation after `before` is seen and its document is
    /// interactive. A JavaScript dialog that opens meanwhile (an `alert()` while loading, a
    /// `beforeunload` prompt) ends the wait and is returned: the page waits on it.
    async fn arrive(&self, before: u64, deadline: Instant) -> Result<Option<Dialog>, BrowserError> {
        let mut dialogs = self.watch.dialog.clone();
        tokio::select! {
            r = async {
                self.wait_navigated(before, deadline).await?;
                self.wait_ready(deadline.saturating_duration_since(Instant::now())).await
            } => r.map(|()| self.dialog()),
            d = dialogs.wait_for(Option::is_some) => Ok(d.ok().and_then(|d| d.clone())),
        }
    }

    /// Start a navigation with `cmd`; a dialog that opens before the browser answers is
    /// returned instead of the answer.
    async fn start<C>(&self, cmd: C) -> Result<StartOr<C::Response>, BrowserError>
    where
        C: Command + Send,
        C::Response: Send,
    {
        match self.run(cmd).await {
            Ok(r) => Ok(StartOr::Started(r)),
            Err(BrowserError::DialogOpened(d)) => Ok(StartOr::Dialog(d)),
            Err(e) => Err(e),
        }
    }

    /// Open `url`; a dialog the page opened on the way.
    pub async fn navigate(
        &self,
        url: &str,
        timeout: Duration,
    ) -> Result<Option<Dialog>, BrowserError> {
        let deadline = Instant::now() + timeout;
        let before = self.navigations();
        let mark = self.conn.effects().mark();
        // The op pipeline judged `url` already: the guard lets this one load pass an `ask`
        // rule (not its redirects), never a `deny`.
        self.conn.guard().expect(&self.target_id, url);
        let r = match self.start(NavigateParams::new(url)).await? {
            StartOr::Started(r) => r,
            StartOr::Dialog(d) => return Ok(Some(d)),
        };
        if let Some(err) = r.error_text.filter(|e| !e.is_empty()) {
            self.unless_blocked(mark)?;
            return Err(BrowserError::LoadFailed { url: url.to_owned(), reason: err });
        }
        if r.loader_id.is_none() {
            return Ok(self.dialog()); // same-document navigation
        }
        self.arrive(before, deadline).await
    }

    /// Reload the tab. No approval stands behind it: the guard judges the load afresh, and
    /// a page a rule keeps from loading is `Blocked`.
    pub async fn reload(&self, timeout: Duration) -> Result<Option<Dialog>, BrowserError> {
        let deadline = Instant::now() + timeout;
        let before = self.navigations();
        let mark = self.conn.effects().mark();
        if let StartOr::Dialog(d) = self.start(ReloadParams::default()).await? {
            return Ok(Some(d));
        }
        let arrived = self.arrive(before, deadline).await;
        self.unless_blocked(mark)?;
        arrived
    }

    /// `Blocked` when the guard blocked this tab's page load since `mark`.
    fn unless_blocked(&self, mark: u64) -> Result<(), BrowserError> {
        let tab = Some(self.tab_id.as_str());
        let seen = self.conn.effects().since(mark, &self.browser_id, |t| t == tab);
        for e in seen.into_iter().rev() {
            if let super::super::effects::Effect::Blocked { url, rule, channel: None } = e.effect {
                return Err(BrowserError::Blocked { url, rule });
            }
        }
        Ok(())
    }

    /// One step back (-1) or forward (+1) in the tab's history.
    pub async fn history(
        &self,
        step: i64,
        timeout: Duration,
    ) -> Result<Option<Dialog>, BrowserError> {
        let deadline = Instant::now() + timeout;
        let h = self.run(GetNavigationHistoryParams::default()).await?;
        let entries = h.entries;
        let at = usize::try_from(h.current_index + step).ok();
        let Some(entry) = at.and_then(|i| entries.get(i)) else {
            let which = if step < 0 { "back" } else { "forward" };
            return Err(BrowserError::OutOfRange(format!(
                "there is no page to go {which} to in this tab's history"
            )));
        };
        let before = self.navigations();
        let mark = self.conn.effects().mark();
        // As a reload: the entry's page is judged afresh.
        let params = NavigateToHistoryEntryParams::new(entry.id);
        if let StartOr::Dialog(d) = self.start(params).await? {
            return Ok(Some(d));
        }
        let arrived = self.arrive(before, deadline).await;
        self.unless_blocked(mark)?;
        arrived
    }

    /// URL and title from the browser (works while a dialog is open).
    pub async fn info(&self) -> Result<(String, String), BrowserError> {
        let ask = GetTargetInfoParams { target_id: Some(self.target_id.clone().into()) };
        let i = self.conn.run(ask).await?.target_info;
        Ok((i.url, i.title))
    }
}

/// How starting a navigation went.
enum StartOr<R> {
    Started(R),
    Dialog(Dialog),
}
