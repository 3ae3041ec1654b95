//! Browsers and tabs by id: `chrome-<port>` -> its connection (opened on first use), a tab id
//! -> its [`Tab`]; listing, finding, opening, closing and selecting tabs, each seen through
//! the caller's lane.

use std::sync::Arc;

use serde::Serialize;
use serde_json::json;

use chromiumoxide::cdp::browser_protocol::browser::GetVersionParams;
use chromiumoxide::cdp::browser_protocol::target::{
    ActivateTargetParams, CloseTargetParams, CreateTargetParams,
};
use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, EvaluateReturns};

use super::cdp::{self, Conn, TargetInfo};
use super::{discovery, tab_id_of, target_key, BrowserError, Browsers, Lane, Mark, Tab};

/// One browser as `list_browsers` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct BrowserInfo {
    pub browser_id: String,
    pub port: u16,
    pub pid: Option<u32>,
    pub default: bool,
    pub status: &'static str,
    pub version: String,
    pub tabs: usize,
}

/// One tab as `tab_list` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct TabInfo {
    pub tab_id: String,
    pub tab_index: usize,
    pub url: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
    /// The lane whose tab it is, shown to admins (who see every lane's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

impl Browsers {
    /// The connection to `browser_id`, opened on first use. The default browser is started
    /// (again) when it is the one asked for and does not run.
    pub async fn conn(&self, browser_id: &str) -> Result<Arc<Conn>, BrowserError> {
        let port = parse_browser_id(browser_id)?;
        let is_default = self.default.lock().await.as_ref().is_some_and(|c| c.port == port);
        let not_ours = || BrowserError::NotFound { kind: "browser", id: browser_id.to_owned() };
        if !is_default && !self.allowed().contains(&port) {
            return Err(not_ours());
        }
        if is_default {
            self.ensure_default().await?;
        }
        // Read before taking `conns`: `ensure_default` takes the two the other way round.
        let relay =
            self.default.lock().await.as_ref().filter(|c| c.port == port).map(|c| c.relay.clone());
        let mut conns = self.conns.lock().await;
        if let Some(c) = conns.get(&port) {
            if c.is_alive() {
                return Ok(c.clone());
            }
            conns.remove(&port);
        }
        let endpoint = match relay {
            Some(c) => cdp::Endpoint {
                port,
                url: c.url.clone(),
                liveness: cdp::Liveness::Pipe(c.watch()),
                downloads: Some(self.downloads_dir()),
                downloads_quota: self.downloads_quota(),
            },
            None if discovery::version(port).await.is_ok() => cdp::Endpoint {
                port,
                url: format!("http://127.0.0.1:{port}"),
                liveness: cdp::Liveness::Port(port),
                downloads: None,
                downloads_quota: self.downloads_quota(),
            },
            None => return Err(not_ours()),
        };
        let conn = Conn::connect(
            endpoint,
            self.invalidator.clone(),
            self.events.clone(),
            self.guard.clone(),
            self.effects.clone(),
        )
        .await?;
        conns.insert(port, conn.clone());
        Ok(conn)
    }

    /// Whether `target_id` is an open page of `browser_id` (as its connection's events
    /// tell; no round trip).
    pub async fn is_open(&self, browser_id: &str, target_id: &str) -> bool {
        let Ok(port) = parse_browser_id(browser_id) else { return false };
        let conns = self.conns.lock().await;
        conns.get(&port).is_some_and(|c| c.is_alive() && c.has_page(target_id))
    }

    /// The browsers the daemon may drive: its own (once started) and the allowed ones.
    fn ours(&self) -> Vec<u16> {
        let mut ports: Vec<u16> = self.default_port().into_iter().collect();
        for p in self.allowed() {
            if !ports.contains(&p) {
                ports.push(p);
            }
        }
        ports
    }

    /// The browsers the daemon drives: its own and those `--browser-allow` names. Other
    /// Chromiums on the host (another daemon's, a user's) are not listed.
    pub async fn list(&self) -> Result<Vec<BrowserInfo>, BrowserError> {
        let default = self.default_port();
        let default_pid = self.default.lock().await.as_ref().map(|c| c.pid);
        let scanned = discovery::scan();
        let mut out = Vec::new();
        for port in self.ours() {
            let is_default = default == Some(port);
            let conn = self.conn(&format!("chrome-{port}")).await;
            let (status, version, tabs) = match &conn {
                Ok(c) => {
                    let v = c.run(GetVersionParams::default()).await.map(|v| v.product);
                    let tabs = c.targets().await.map(|t| t.len()).unwrap_or(0);
                    ("up", v.unwrap_or_default(), tabs)
                }
                Err(_) if is_default => ("down", String::new(), 0),
                Err(_) => continue,
            };
            let pid = if is_default {
                default_pid
            } else {
                scanned.iter().find(|(p, _)| *p == port).and_then(|(_, pid)| *pid)
            };
            out.push(BrowserInfo {
                browser_id: format!("chrome-{port}"),
                port,
                pid,
                default: is_default,
                status,
                version,
                tabs,
            });
        }
        out.sort_by_key(|b| (!b.default, b.port));
        Ok(out)
    }

    /// Tabs whose URL is `url` or starts with it followed by `/`, `?` or `#`, in the
    /// browsers the daemon drives.
    pub async fn find_tabs(
        &self,
        url: &str,
        lane: &Lane,
    ) -> Result<Vec<(String, TabInfo)>, BrowserError> {
        let ids: Vec<String> = self.ours().iter().map(|p| format!("chrome-{p}")).collect();
        let mut out = Vec::new();
        for id in ids {
            let Ok(tabs) = self.tabs(&id, lane).await else { continue };
            for t in tabs {
                if url_matches(&t.url, url) {
                    out.push((id.clone(), t));
                }
            }
        }
        Ok(out)
    }

    /// The tabs of a browser `lane` sees, in tab_index order (an index counts those only).
    pub async fn tabs(&self, browser_id: &str, lane: &Lane) -> Result<Vec<TabInfo>, BrowserError> {
        let conn = self.conn(browser_id).await?;
        let marks = self.marks();
        Ok(self
            .targets_of(&conn, lane)
            .await?
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                let tab_id = tab_id_of(&t.target_id);
                TabInfo {
                    mark: marks.get(&target_key(browser_id, &tab_id)).cloned(),
                    owner: lane.all.then(|| t.lane(&conn)).flatten(),
                    tab_id,
                    tab_index: i,
                    url: t.url,
                    title: t.title,
                }
            })
            .collect())
    }

    /// The page targets of `conn` that `lane` sees.
    async fn targets_of(&self, conn: &Conn, lane: &Lane) -> Result<Vec<TargetInfo>, BrowserError> {
        let mut targets = conn.targets().await?;
        targets.retain(|t| t.seen_by(conn, lane));
        Ok(targets)
    }

    /// `NotFound` unless `lane` sees tab `tab_id` of `browser_id` (another lane's tab is not
    /// told apart from one that does not exist).
    pub async fn check_tab(
        &self,
        browser_id: &str,
        tab_id: &str,
        lane: &Lane,
    ) -> Result<(), BrowserError> {
        let conn = self.conn(browser_id).await?;
        let seen = self.targets_of(&conn, lane).await?;
        match seen.iter().any(|t| tab_id_of(&t.target_id) == tab_id) {
            true => Ok(()),
            false => Err(BrowserError::NotFound { kind: "tab", id: tab_id.to_owned() }),
        }
    }

    /// A handle on one tab; `tab_id` must be a current tab of the browser.
    pub async fn tab(&self, browser_id: &str, tab_id: &str) -> Result<Tab, BrowserError> {
        let conn = self.conn(browser_id).await?;
        // A tab already watched and still open needs no round trip to the browser.
        if let Some((target, page, watch)) = conn.watched(tab_id).await {
            return Ok(Tab::from_parts(conn, &target, page, watch, self.downloads_dir()));
        }
        let targets = conn.targets().await?;
        let Some(t) = targets.iter().find(|t| tab_id_of(&t.target_id) == tab_id) else {
            return Err(BrowserError::NotFound { kind: "tab", id: tab_id.to_owned() });
        };
        Tab::open(conn, &t.target_id, self.downloads_dir()).await
    }

    /// The tab the browser shows in front (the first visible one), else its first tab; a
    /// browser without tabs gets a blank one.
    pub async fn active_tab(&self, browser_id: &str, lane: &Lane) -> Result<String, BrowserError> {
        match self.front_tab(browser_id, lane).await? {
            Some(tab) => Ok(tab),
            None => self.new_tab(browser_id, None, (true, true), lane).await,
        }
    }

    /// The tab of `lane` the browser shows in front (see [`Browsers::active_tab`]); `None`
    /// when the lane has no tab.
    pub async fn front_tab(
        &self,
        browser_id: &str,
        lane: &Lane,
    ) -> Result<Option<String>, BrowserError> {
        let conn = self.conn(browser_id).await?;
        let targets = self.targets_of(&conn, lane).await?;
        if targets.is_empty() {
            return Ok(None);
        }
        // The newest visible tab (the one in front); falls back to the newest tab.
        for t in targets.iter().rev() {
            let Ok((page, watch)) = conn.page(&t.target_id).await else { continue };
            // A tab showing a dialog is in front, and would not answer the evaluation.
            if watch.dialog.borrow().is_some() {
                return Ok(Some(tab_id_of(&t.target_id)));
            }
            let mut vis = EvaluateParams::new("document.visibilityState");
            vis.return_by_value = Some(true);
            let vis = tokio::time::timeout(std::time::Duration::from_secs(2), page.execute(vis));
            let visible = |v: &EvaluateReturns| v.result.value.as_ref() == Some(&json!("visible"));
            if vis.await.is_ok_and(|v| v.is_ok_and(|v| visible(&v.result))) {
                return Ok(Some(tab_id_of(&t.target_id)));
            }
        }
        Ok(targets.last().map(|t| tab_id_of(&t.target_id)))
    }

    /// Open a tab in `lane`'s context (in a window of its own with `window`, so that no
    /// other session's tab hides it); returns its tab id.
    pub async fn new_tab(
        &self,
        browser_id: &str,
        url: Option<&str>,
        (visible, window): (bool, bool),
        lane: &Lane,
    ) -> Result<String, BrowserError> {
        let conn = self.conn(browser_id).await?;
        // Blank first, then the URL: the guard must know the tab's id to tell the daemon's
        // own load from one the page starts.
        let mut params = CreateTargetParams::new("about:blank");
        params.background = Some(!visible);
        params.new_window = Some(window);
        if let Some(context) = self.context_of(&conn, lane).await? {
            // A context's first tab opens its first window.
            let targets = conn.targets().await?;
            if !targets.iter().any(|t| t.context.as_deref() == Some(context.as_str())) {
                params.new_window = Some(true);
            }
            params.browser_context_id = Some(context.into());
        }
        let target: String = conn.run(params).await?.target_id.into();
        let tab = Tab::open(conn.clone(), &target, self.downloads_dir()).await?;
        if let Some(saved) = conn.contexts().take_pending(&lane.key) {
            saved.write_storage(&tab).await?;
        }
        if let Some(url) = url {
            if let Err(e) = tab.navigate(url, std::time::Duration::from_secs(30)).await {
                let _ = conn.run(CloseTargetParams::new(target.clone())).await;
                return Err(e);
            }
        }
        if visible {
            let _ = conn.run(ActivateTargetParams::new(target.clone())).await;
        }
        Ok(tab_id_of(&target))
    }

    pub async fn close_tab(&self, browser_id: &str, tab_id: &str) -> Result<TabInfo, BrowserError> {
        let conn = self.conn(browser_id).await?;
        let targets = conn.targets().await?;
        let Some((i, t)) =
            targets.iter().enumerate().find(|(_, t)| tab_id_of(&t.target_id) == tab_id)
        else {
            return Err(BrowserError::NotFound { kind: "tab", id: tab_id.to_owned() });
        };
        conn.run(CloseTargetParams::new(t.target_id.clone())).await?;
        conn.forget(&t.target_id);
        self.invalidate(&target_key(browser_id, tab_id), "the tab was closed");
        Ok(TabInfo {
            tab_id: tab_id.to_owned(),
            tab_index: i,
            url: t.url.clone(),
            title: t.title.clone(),
            mark: None,
            owner: None,
        })
    }

    pub async fn select_tab(&self, browser_id: &str, tab_id: &str) -> Result<(), BrowserError> {
        let tab = self.tab(browser_id, tab_id).await?;
        tab.conn.run(ActivateTargetParams::new(tab.target_id.clone())).await?;
        Ok(())
    }
}

/// `chrome-<port>` -> port.
pub fn parse_browser_id(id: &str) -> Result<u16, BrowserError> {
    id.strip_prefix("chrome-")
        .and_then(|p| p.parse::<u16>().ok())
        .ok_or_else(|| BrowserError::NotFound { kind: "browser", id: id.to_owned() })
}

/// Exact, or a prefix followed by `/`, `?` or `#`.
pub fn url_matches(tab_url: &str, wanted: &str) -> bool {
    if tab_url == wanted {
        return true;
    }
    let w = wanted.trim_end_matches('/');
    tab_url
        .strip_prefix(w)
        .is_some_and(|rest| rest.starts_with('/') || rest.starts_with('?') || rest.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_match_exactly_or_by_prefix_at_a_boundary() {
        assert!(url_matches("http://a/x", "http://a/x"));
        assert!(url_matches("http://a/x?q=1", "http://a/x"));
        assert!(url_matches("http://a/x/y", "http://a/x"));
        assert!(url_matches("http://a/x#h", "http://a/x"));
        assert!(!url_matches("http://a/xy", "http://a/x"));
    }
}
