//! The element the accessibility tree shows at a screen point: the app's window holding the
//! point, then `Component.GetAccessibleAtPoint` down its children, for a click at a point to
//! name what it lands on.

use std::time::Duration;

use zbus::zvariant::OwnedObjectPath;

use super::{iface, A11y};

/// A point lookup takes at most this long; past it the click names no element.
const BUDGET: Duration = Duration::from_millis(400);
/// Levels descended at most.
const DEPTH: usize = 32;
/// Children looked at per level at most.
const CHILDREN: usize = 200;
/// What an accessible reference names when it names nothing.
const NULL: &str = "/org/a11y/atspi/null";

impl A11y {
    /// `role "name"` of the deepest element of app `pid` at screen point (x, y), when its
    /// toolkit reports screen extents and answers in time.
    pub async fn element_at(&self, pid: u32, x: i32, y: i32) -> Option<String> {
        tokio::time::timeout(BUDGET, self.deepest_at(pid, x, y)).await.ok().flatten()
    }

    async fn deepest_at(&self, pid: u32, x: i32, y: i32) -> Option<String> {
        let app = self.apps().await.ok()?.into_iter().find(|a| a.pid == pid && a.responding)?;
        // GTK 4 gives window-relative extents: the screen point means nothing there.
        if app.window_relative() {
            return None;
        }
        let bus = app.bus.as_str();
        let mut at = None;
        for (_, _, path, _) in &app.windows {
            let Ok((wx, wy, w, h)) = self.extents(bus, path).await else { continue };
            if x >= wx && y >= wy && x < wx + w && y < wy + h {
                at = Some(path.clone());
                break;
            }
        }
        let mut at = at?;
        for _ in 0..DEPTH {
            let next: zbus::Result<(String, OwnedObjectPath)> =
                self.call(bus, &at, iface::COMPONENT, "GetAccessibleAtPoint", &(x, y, 0u32)).await;
            let next = match next {
                Ok((_, p)) if p.as_str() != NULL && p.as_str() != at => Some(p.to_string()),
                // Some containers (GTK's notebook tab list) answer only for a part of what
                // they hold: their children's boxes tell.
                _ => self.child_at(bus, &at, x, y).await,
            };
            match next {
                Some(p) => at = p,
                None => break,
            }
        }
        Some(self.describe(bus, &at).await)
    }

    /// The smallest child of `path` whose box holds the point, else such a grandchild (GTK's
    /// notebook page tab is the box of its tab and holds the page's content).
    async fn child_at(&self, bus: &str, path: &str, x: i32, y: i32) -> Option<String> {
        if let Some(p) = self.holding(bus, path, x, y).await {
            return Some(p);
        }
        let kids = self.children(bus, path).await.ok()?;
        for (_, kid) in kids.iter().take(8) {
            if let Some(p) = self.holding(bus, kid.as_str(), x, y).await {
                return Some(p);
            }
        }
        None
    }

    /// The smallest child of `path` whose box holds the point.
    async fn holding(&self, bus: &str, path: &str, x: i32, y: i32) -> Option<String> {
        let kids = self.children(bus, path).await.ok()?;
        let boxes = futures::future::join_all(
            kids.iter().take(CHILDREN).map(|(_, p)| self.extents(bus, p.as_str())),
        )
        .await;
        kids.iter()
            .zip(boxes)
            .filter_map(|((_, p), b)| {
                let (bx, by, w, h) = b.ok()?;
                (w > 0 && h > 0 && x >= bx && y >= by && x < bx + w && y < by + h)
                    .then(|| (i64::from(w) * i64::from(h), p.to_string()))
            })
            .min_by_key(|(area, _)| *area)
            .map(|(_, p)| p)
    }
}
