//! Apps and windows: listing, finding by name or executable, and launching on demand.

use std::time::{Duration, Instant};

use glovebox_protocol::results::computer::{App, AppWindow};

use super::aim::ref_of;
use super::{Aim, WindowRef};
use crate::desktop::atspi::AppInfo;
use crate::desktop::x11::WindowInfo;
use crate::desktop::{launch, Desktop, Error};

/// How long after a launched process exited an app it may have handed over to (a
/// single-instance app's running one) is waited for to show a new window.
const HANDOFF_WAIT: Duration = Duration::from_secs(3);

/// What `get_app` found or started.
#[derive(Debug, Clone)]
pub enum Got {
    Found(AppInfo),
    Launched { pid: u32, app: Option<AppInfo>, argv: Vec<String> },
}

/// The X window of an app's AT-SPI frame titled `title`: the same pid's window with that
/// title, or, when the app has one titled frame and one window, that window (titles can lag
/// each other). Untitled helper frames get none rather than a wrong one.
pub(super) fn x_window_of<'a>(
    title: &str,
    titles: &[&str],
    own: &[&'a WindowInfo],
) -> Option<&'a WindowInfo> {
    if title.is_empty() {
        return None;
    }
    let single = titles.iter().filter(|t| !t.is_empty()).count() == 1 && own.len() == 1;
    own.iter().find(|w| w.title == title).or_else(|| own.first().filter(|_| single)).copied()
}

impl Desktop {
    /// What launching `app` would run, by every name it goes by (see [`launch::names`]).
    pub fn launch_names(&self, app: &str) -> Vec<String> {
        launch::names(app, &self.endpoints.env)
    }

    pub async fn apps(&self) -> Result<Vec<AppInfo>, Error> {
        self.a11y()?.apps().await
    }

    pub async fn windows(&self) -> Result<Vec<WindowInfo>, Error> {
        self.xrun(|x| x.windows()).await
    }

    pub async fn list_apps(&self) -> Result<Vec<App>, Error> {
        let (apps, wins) = futures::join!(self.apps(), self.windows());
        let wins = wins.unwrap_or_default();
        Ok(apps?
            .into_iter()
            .map(|a| {
                let own: Vec<&WindowInfo> = wins.iter().filter(|w| w.pid == Some(a.pid)).collect();
                let titles: Vec<&str> = a.windows.iter().map(|w| w.0.as_str()).collect();
                let windows = a
                    .windows
                    .iter()
                    .map(|(title, role, _, active)| {
                        let x = x_window_of(title, &titles, &own);
                        AppWindow {
                            window_id: x.map(|w| w.window_id.clone()),
                            title: title.clone(),
                            role: role.clone(),
                            // The window manager knows which window is active; AT-SPI may lag.
                            active: x.map_or(*active, |w| w.active),
                        }
                    })
                    .collect();
                let toolkit = if a.toolkit_version.is_empty() {
                    a.toolkit.clone()
                } else {
                    format!("{} {}", a.toolkit, a.toolkit_version)
                };
                App {
                    app_id: a.app_id(),
                    name: a.name,
                    pid: a.pid,
                    toolkit,
                    accessible: true,
                    responding: a.responding,
                    windows,
                }
            })
            .collect())
    }

    pub async fn app(&self, pid: u32) -> Result<AppInfo, Error> {
        self.apps()
            .await?
            .into_iter()
            .find(|a| a.pid == pid)
            .ok_or_else(|| Error::NotFound { kind: "app", id: format!("app:{pid}") })
    }

    fn candidates(apps: &[&AppInfo]) -> Vec<serde_json::Value> {
        apps.iter()
            .map(|a| {
                let titles: Vec<&str> = a.windows.iter().map(|w| w.0.as_str()).collect();
                serde_json::json!({"app_id": a.app_id(), "name": a.name, "pid": a.pid, "windows": titles})
            })
            .collect()
    }

    /// Apps matching `query`: an app id, a name, a desktop entry or an executable name/path.
    pub async fn find_apps(&self, query: &str) -> Result<Vec<AppInfo>, Error> {
        let apps = self.apps().await?;
        if let Some(pid) = crate::desktop::atspi::app_pid(query) {
            return Ok(apps.into_iter().filter(|a| a.pid == pid).collect());
        }
        let q = query.to_lowercase();
        let base = std::path::Path::new(query)
            .file_name()
            .and_then(|b| b.to_str())
            .unwrap_or(query)
            .to_lowercase();
        let entry = launch::find_entry(query, &self.endpoints.env);
        let entry_name = entry.as_ref().map(|(_, n, _)| n.to_lowercase());
        let entry_bin = entry.as_ref().and_then(|(_, _, exec)| {
            launch::exec_argv(exec).first().and_then(|p| {
                std::path::Path::new(p).file_name().map(|f| f.to_string_lossy().to_lowercase())
            })
        });
        Ok(apps
            .into_iter()
            .filter(|a| {
                let name = a.name.to_lowercase();
                let comm = std::fs::read_to_string(format!("/proc/{}/comm", a.pid))
                    .unwrap_or_default()
                    .trim()
                    .to_lowercase();
                let exe = std::fs::read_link(format!("/proc/{}/exe", a.pid))
                    .ok()
                    .and_then(|p| p.file_name().map(|f| f.to_string_lossy().to_lowercase()))
                    .unwrap_or_default();
                name == q
                    || name == base
                    || (!comm.is_empty() && comm == base)
                    || (!exe.is_empty() && exe == base)
                    || entry_name.as_deref() == Some(name.as_str())
                    || entry_bin.as_deref().is_some_and(|b| b == comm || b == exe)
            })
            .collect())
    }

    /// Waits until the app `pid` has a mapped window, then (unless `background`) makes it
    /// the active one. Returns that window and whether it is active; `None` when no window
    /// showed by `deadline`.
    pub async fn present(
        &self,
        pid: u32,
        background: bool,
        deadline: Instant,
    ) -> Result<Option<(WindowRef, bool)>, Error> {
        loop {
            let wins = self.windows().await?;
            let own = wins.iter().filter(|w| w.pid == Some(pid) && !w.minimized);
            if let Some(w) = own.max_by_key(|w| (w.active, w.stack)) {
                if background {
                    return Ok(Some((ref_of(w), w.active)));
                }
                return match self.raise(Aim::App(pid)).await {
                    Ok(Some(g)) => Ok(Some((g.window, true))),
                    Ok(None) => Ok(Some((ref_of(w), w.active))),
                    Err(Error::NotFocused { .. }) => Ok(Some((ref_of(w), false))),
                    Err(e) => Err(e),
                };
            }
            let gone = !std::path::Path::new(&format!("/proc/{pid}")).exists();
            if Instant::now() >= deadline || gone {
                return Ok(None);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the app `pid` is on the accessibility bus with a top-level window, or
    /// `until`; returns it as last seen (without a window at the deadline), if on the bus.
    pub async fn await_accessible_window(&self, pid: u32, until: Instant) -> Option<AppInfo> {
        let mut seen = None;
        loop {
            if let Ok(a) = self.app(pid).await {
                if !a.windows.is_empty() {
                    return Some(a);
                }
                seen = Some(a);
            }
            if Instant::now() >= until {
                return seen;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Selects one app by `query`, or (with `launch`) starts it and waits for it on the bus.
    pub async fn get_app(
        &self,
        query: &str,
        launch: bool,
        deadline: Instant,
    ) -> Result<Got, Error> {
        let found = self.find_apps(query).await?;
        match found.len() {
            1 => {
                return Ok(Got::Found(
                    found.into_iter().next().ok_or(Error::NotReady("app vanished".into()))?,
                ))
            }
            n if n > 1 => {
                let refs: Vec<&AppInfo> = found.iter().collect();
                return Err(Error::Ambiguous {
                    kind: "app",
                    query: query.to_owned(),
                    candidates: Self::candidates(&refs),
                });
            }
            _ => {}
        }
        if !launch || query.starts_with("app:") {
            return Err(Error::NotFound { kind: "app", id: query.to_owned() });
        }
        let Some(argv) = launch::resolve(query, &self.endpoints.env) else {
            return Err(Error::NotFound {
                kind: "app",
                id: format!("{query} (no running app, desktop entry, PATH executable or absolute path by that name)"),
            });
        };
        self.launch_and_wait(argv, deadline).await
    }

    /// Starts `argv` and waits for its app on the bus. A single-instance app's process may
    /// hand over to one already running and exit: that app (new, or with more windows than
    /// before; else, once the process ended well, the one app running the same program) is
    /// the one launched. A process that ends with no such app is an error, never a pid to
    /// act on.
    async fn launch_and_wait(&self, argv: Vec<String>, deadline: Instant) -> Result<Got, Error> {
        let windows = |a: &AppInfo| a.windows.len();
        let before: Vec<(u32, usize)> =
            self.apps().await?.iter().map(|a| (a.pid, windows(a))).collect();
        let pid = self
            .supervisor
            .launch_app(&argv, &self.endpoints.env)
            .map_err(|e| Error::Start(format!("cannot start {argv:?}: {e}")))?;
        let base = std::path::Path::new(&argv[0])
            .file_name()
            .map(|f| f.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        // The same program: by name, or by the file it runs (a link to it by another name).
        let file =
            launch::program_file(&argv[0], &self.endpoints.env).and_then(|p| p.canonicalize().ok());
        let same = |pid: u32| {
            let c = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
            c.trim().eq_ignore_ascii_case(&base) || (file.is_some() && exe == file)
        };
        let grew = |a: &AppInfo| match before.iter().find(|(p, _)| *p == a.pid) {
            None => true,
            Some((_, n)) => windows(a) > *n,
        };
        // Wait for the app on the bus; give up early when it has a window but no bus presence.
        let mut window_since: Option<Instant> = None;
        let mut exited_at: Option<Instant> = None;
        loop {
            if let Ok(apps) = self.apps().await {
                if let Some(a) = apps.iter().find(|a| a.pid == pid) {
                    return Ok(Got::Launched { pid, app: Some(a.clone()), argv });
                }
                if let Some(a) = apps.iter().find(|a| a.pid != pid && grew(a) && same(a.pid)) {
                    return Ok(Got::Launched { pid: a.pid, app: Some(a.clone()), argv });
                }
            }
            let has_window =
                self.windows().await.map(|w| w.iter().any(|w| w.pid == Some(pid))).unwrap_or(false);
            if has_window && window_since.is_none() {
                window_since = Some(Instant::now());
            }
            if exited_at.is_none() && !self.supervisor.is_running(pid) {
                exited_at = Some(Instant::now());
            }
            let handoff_over = exited_at.is_some_and(|t| t.elapsed() > HANDOFF_WAIT);
            if handoff_over || (exited_at.is_some() && Instant::now() >= deadline) {
                let status = self.supervisor.exit_status(pid);
                // Ended well with one app of the same program running: it handed over to
                // that one (which may have opened a tab, not a window).
                let apps = self.apps().await.unwrap_or_default();
                let mut same_program = apps.iter().filter(|a| same(a.pid));
                if let (true, Some(a), None) =
                    (status.is_some_and(|s| s.success()), same_program.next(), same_program.next())
                {
                    return Ok(Got::Launched { pid: a.pid, app: Some(a.clone()), argv });
                }
                let status = status.map_or(String::new(), |s| format!(" ({s})"));
                return Err(Error::Start(format!(
                    "{argv:?} ended{status} before it, or an app it handed over to, showed a \
                     window"
                )));
            }
            let gave_up = window_since.is_some_and(|t| t.elapsed() > Duration::from_millis(2500));
            if gave_up || Instant::now() >= deadline {
                return Ok(Got::Launched { pid, app: None, argv });
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desktop::x11::Frame;

    fn win(id: &str, title: &str) -> WindowInfo {
        let f = Frame { x: 0, y: 0, width: 10, height: 10 };
        WindowInfo {
            window_id: id.into(),
            xid: 0,
            pid: Some(1),
            app_id: None,
            title: title.into(),
            frame: f,
            client: f,
            active: true,
            minimized: false,
            maximized: false,
            transient_for: None,
            modal: false,
            stack: 0,
        }
    }

    #[test]
    fn frames_pair_with_windows_by_title_and_helpers_get_none() {
        let a = win("win:a", "Doc - Editor");
        let b = win("win:b", "Other - Editor");
        let own = [&a, &b];
        let titles = ["Other - Editor", "Doc - Editor", ""];
        assert_eq!(
            x_window_of("Doc - Editor", &titles, &own).map(|w| w.window_id.as_str()),
            Some("win:a")
        );
        assert_eq!(
            x_window_of("Other - Editor", &titles, &own).map(|w| w.window_id.as_str()),
            Some("win:b")
        );
        assert!(x_window_of("", &titles, &own).is_none(), "untitled helper frame");
        assert!(x_window_of("Gone", &titles, &own).is_none(), "two windows: no guess");
        // One titled frame, one window, titles out of step (the page retitled itself).
        let only = [&a];
        let titles = ["New title - Editor", "", ""];
        assert_eq!(
            x_window_of("New title - Editor", &titles, &only).map(|w| w.window_id.as_str()),
            Some("win:a")
        );
        assert!(x_window_of("", &titles, &only).is_none());
    }
}
