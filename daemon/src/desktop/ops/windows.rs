//! Windows: the active-window check, focus, EWMH operations and screenshots.

use std::time::{Duration, Instant};

use crate::desktop::x11::{self, Encoded, ImageFormat, WindowInfo, WindowOp};
use crate::desktop::{Desktop, Error};

impl Desktop {
    pub async fn focus_window(&self, window: &str) -> Result<bool, Error> {
        let xid = x11::parse_window_id(window)
            .ok_or_else(|| Error::NotFound { kind: "window", id: window.to_owned() })?;
        let wins = self.windows().await?;
        if !wins.iter().any(|w| w.xid == xid) {
            return Err(Error::NotFound { kind: "window", id: window.to_owned() });
        }
        self.xrun(move |x| x.activate(xid, Duration::from_secs(5))).await
    }

    pub async fn window_op(&self, window: &str, op: WindowOp) -> Result<Option<WindowInfo>, Error> {
        let xid = x11::parse_window_id(window)
            .ok_or_else(|| Error::NotFound { kind: "window", id: window.to_owned() })?;
        let wins = self.windows().await?;
        if !wins.iter().any(|w| w.xid == xid) {
            return Err(Error::NotFound { kind: "window", id: window.to_owned() });
        }
        self.xrun(move |x| x.window_op(xid, op)).await?;
        // Poll briefly for the window manager to apply it.
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let now = self.windows().await?.into_iter().find(|w| w.xid == xid);
            let done = match (&now, op) {
                (None, _) => true,
                (Some(w), WindowOp::Minimize) => w.minimized,
                (Some(w), WindowOp::Maximize) => w.maximized,
                (Some(w), WindowOp::Restore) => !w.minimized && !w.maximized,
                (Some(w), WindowOp::Move(x, y)) => {
                    w.frame.x == x && w.frame.y == y || w.client.x == x && w.client.y == y
                }
                (Some(w), WindowOp::Resize(wd, ht)) => {
                    w.client.width == wd && w.client.height == ht
                }
                (Some(_), WindowOp::Close) => false,
            };
            if done || Instant::now() >= deadline {
                return Ok(now);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub async fn screenshot(
        &self,
        window: Option<&str>,
        region: Option<(i32, i32, u32, u32)>,
        format: ImageFormat,
        quality: u8,
        max_width: Option<u32>,
    ) -> Result<Encoded, Error> {
        let region = match window {
            Some(w) => {
                let xid = x11::parse_window_id(w)
                    .ok_or_else(|| Error::NotFound { kind: "window", id: w.to_owned() })?;
                let win = self
                    .windows()
                    .await?
                    .into_iter()
                    .find(|x| x.xid == xid)
                    .ok_or_else(|| Error::NotFound { kind: "window", id: w.to_owned() })?;
                Some((win.frame.x, win.frame.y, win.frame.width, win.frame.height))
            }
            None => region,
        };
        self.cover_fields().await;
        self.xrun(move |x| x.capture(region, format, quality, max_width)).await
    }

    /// The unscaled RGB pixels of a screen rectangle, or of the whole screen.
    pub async fn screen_rgb(
        &self,
        region: Option<(i32, i32, u32, u32)>,
    ) -> Result<(Vec<u8>, u32, u32), Error> {
        self.cover_fields().await;
        self.xrun(move |x| x.capture_rgb(region)).await
    }

    /// Where the pointer is, in screen pixels.
    pub async fn pointer(&self) -> Result<(i32, i32), Error> {
        let (x, y) = self.xrun(|x| x.pointer()).await?;
        Ok((i32::from(x), i32::from(y)))
    }
}
