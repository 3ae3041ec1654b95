//! A second display connection that only listens: screen damage (X DAMAGE on the root, so
//! settling after an action waits exactly as long as the screen changes), windows mapped but
//! not painted yet (a menu that is opening) and windows unmapped (a dialog that closed), and
//! root property changes (the EWMH client list and active window, which become window
//! events).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::watch;
use x11rb::connection::Connection as _;
use x11rb::protocol::damage::{self, ConnectionExt as _, ReportLevel};
use x11rb::protocol::xproto::{
    ChangeWindowAttributesAux, ConnectionExt as _, EventMask, Rectangle, WindowClass,
};
use x11rb::protocol::Event;

use super::x_err;
use crate::desktop::Error;

/// How many damaged rectangles are remembered (newest last).
const RING: usize = 512;

/// A mapped window that never paints stops holding settles after this.
const UNPAINTED_FOR: std::time::Duration = std::time::Duration::from_secs(2);
/// How many window maps and unmaps are remembered.
const WINDOW_RING: usize = 64;
/// The quiet window once a window was mapped or unmapped since the action: a new dialog
/// fills in after its first paint (a GTK file chooser lists its folder 100-200 ms later).
const WINDOW_QUIET: std::time::Duration = std::time::Duration::from_millis(250);

/// How a settle on the screen ended and what it covered.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settled {
    pub quiet: bool,
    /// Windows mapped or unmapped since the action.
    pub windows: usize,
    /// At the cap: what was still going on.
    pub busy: Vec<String>,
}

/// A rectangle of the screen in root coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

impl Rect {
    pub fn intersects(&self, o: &Rect) -> bool {
        self.x < o.x + o.width
            && o.x < self.x + self.width
            && self.y < o.y + o.height
            && o.y < self.y + self.height
    }
}

impl From<Rectangle> for Rect {
    fn from(r: Rectangle) -> Self {
        Rect {
            x: i32::from(r.x),
            y: i32::from(r.y),
            width: i32::from(r.width),
            height: i32::from(r.height),
        }
    }
}

/// What changed on the root window's properties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootChange {
    ClientList,
    ActiveWindow,
}

/// Recent screen damage, shared between the listening thread and the settle loops.
#[derive(Debug)]
pub struct Damage {
    ring: Mutex<VecDeque<(Instant, Rect)>>,
    /// Windows mapped and not painted since: (when mapped, where).
    unpainted: Mutex<Vec<(Instant, Rect)>>,
    /// Recent window maps and unmaps (top-level: frames, menus, tooltips).
    windows: Mutex<VecDeque<Instant>>,
    /// Bumped on every damage event; settle loops wait on it.
    tick: watch::Sender<u64>,
    /// False once the listening connection is gone (no damage can be seen any more).
    live: watch::Sender<bool>,
}

impl Damage {
    fn new() -> Self {
        Damage {
            ring: Mutex::new(VecDeque::with_capacity(RING)),
            unpainted: Mutex::new(Vec::new()),
            windows: Mutex::new(VecDeque::with_capacity(WINDOW_RING)),
            tick: watch::channel(0).0,
            live: watch::channel(true).0,
        }
    }

    fn mapped(&self, r: Rect) {
        let now = Instant::now();
        let mut u = self.unpainted.lock().unwrap_or_else(|p| p.into_inner());
        u.retain(|(t, _)| now.duration_since(*t) < UNPAINTED_FOR);
        u.push((now, r));
        drop(u);
        self.window_changed(now);
    }

    /// A window was mapped or unmapped: the screen changes (what was under it repaints).
    fn window_changed(&self, now: Instant) {
        let mut w = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        if w.len() == WINDOW_RING {
            w.pop_front();
        }
        w.push_back(now);
        drop(w);
        self.tick.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Window maps and unmaps after `since`, and the newest.
    fn windows_since(&self, since: Instant) -> (usize, Option<Instant>) {
        let w = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        let n = w.iter().filter(|t| **t > since).count();
        (n, w.back().copied().filter(|t| *t > since))
    }

    fn record(&self, r: Rect) {
        self.unpainted.lock().unwrap_or_else(|p| p.into_inner()).retain(|(_, w)| !w.intersects(&r));
        let mut ring = self.ring.lock().unwrap_or_else(|p| p.into_inner());
        if ring.len() == RING {
            ring.pop_front();
        }
        ring.push_back((Instant::now(), r));
        drop(ring);
        self.tick.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// The time of the newest damage after `since` inside `region` (anywhere when `None`).
    pub fn last_in(&self, region: Option<Rect>, since: Instant) -> Option<Instant> {
        let ring = self.ring.lock().unwrap_or_else(|p| p.into_inner());
        ring.iter()
            .rev()
            .take_while(|(t, _)| *t > since)
            .find(|(_, r)| region.is_none_or(|g| g.intersects(r)))
            .map(|(t, _)| *t)
    }

    /// Whether a window mapped after `since` has not painted yet.
    fn opening(&self, since: Instant) -> bool {
        let now = Instant::now();
        let u = self.unpainted.lock().unwrap_or_else(|p| p.into_inner());
        u.iter().any(|(t, _)| *t > since && now.duration_since(*t) < UNPAINTED_FOR)
    }

    /// A receiver that changes on every damage event.
    pub fn ticks(&self) -> watch::Receiver<u64> {
        self.tick.subscribe()
    }

    pub fn is_live(&self) -> bool {
        *self.live.borrow()
    }

    /// Waits until nothing in `region` (the screen when `None`) was damaged for `quiet`,
    /// counting from `from` at the earliest (and from the last window map or unmap), and
    /// every window mapped after `since` has painted, or `cap`. `expect_window`: the action
    /// may open or close a window (a shortcut, Return in a dialog), so a quiet screen only
    /// ends the wait once a window was mapped or unmapped since `since`, or this long after.
    pub async fn settle(
        &self,
        region: Option<Rect>,
        since: Instant,
        from: Instant,
        quiet: std::time::Duration,
        cap: Instant,
        expect_window: Option<std::time::Duration>,
    ) -> Settled {
        let mut ticks = self.ticks();
        loop {
            let now = Instant::now();
            let (windows, last_window) = self.windows_since(since);
            let last = self.last_in(region, since).max(last_window);
            let quiet = if windows > 0 { quiet.max(WINDOW_QUIET) } else { quiet };
            let quiet_at = last.unwrap_or(from).max(from) + quiet;
            let opening = self.opening(since);
            let waiting_for_window =
                expect_window.map(|g| since + g).filter(|until| windows == 0 && now < *until);
            if now >= quiet_at && !opening && waiting_for_window.is_none() {
                return Settled { quiet: true, windows, busy: Vec::new() };
            }
            if now >= cap {
                let mut busy = Vec::new();
                if now < quiet_at {
                    busy.push("damage".to_owned());
                }
                if opening {
                    busy.push("window mapped, not painted".to_owned());
                }
                return Settled { quiet: false, windows, busy };
            }
            ticks.borrow_and_update();
            let wake = if now < quiet_at {
                quiet_at
            } else if let Some(until) = waiting_for_window.filter(|_| !opening) {
                until
            } else {
                cap
            };
            let _ = tokio::time::timeout_at(wake.min(cap).into(), ticks.changed()).await;
        }
    }
}

/// Opens the listening connection and starts its thread. `on_root` runs on that thread for
/// every change of the window list or the active window.
pub fn start(
    display: &str,
    on_root: Box<dyn FnMut(RootChange) + Send>,
) -> Result<Arc<Damage>, Error> {
    let (conn, screen) = crate::desktop::xauth::connect(display)
        .map_err(|e| Error::Display(format!("cannot connect to {display}: {e}")))?;
    let root = conn.setup().roots[screen].root;
    let intern = |name: &str| -> Result<u32, Error> {
        Ok(conn.intern_atom(false, name.as_bytes()).map_err(x_err)?.reply().map_err(x_err)?.atom)
    };
    let client_list = intern("_NET_CLIENT_LIST")?;
    let active = intern("_NET_ACTIVE_WINDOW")?;
    conn.damage_query_version(1, 1).map_err(x_err)?.reply().map_err(x_err)?;
    let id = conn.generate_id().map_err(x_err)?;
    conn.damage_create(id, root, ReportLevel::RAW_RECTANGLES).map_err(x_err)?;
    let mask = ChangeWindowAttributesAux::new()
        .event_mask(EventMask::PROPERTY_CHANGE | EventMask::SUBSTRUCTURE_NOTIFY);
    conn.change_window_attributes(root, &mask).map_err(x_err)?.check().map_err(x_err)?;
    let damage = Arc::new(Damage::new());
    let shared = damage.clone();
    let mut on_root = on_root;
    std::thread::Builder::new()
        .name("x-watch".into())
        .spawn(move || {
            loop {
                match conn.wait_for_event() {
                    Ok(Event::DamageNotify(e)) => shared.record(e.area.into()),
                    Ok(Event::MapNotify(e)) => {
                        // Input-only windows never paint: they must not hold a settle.
                        let attrs = conn.get_window_attributes(e.window).ok();
                        let attrs = attrs.and_then(|c| c.reply().ok());
                        if attrs.is_none_or(|a| a.class == WindowClass::INPUT_ONLY) {
                            continue;
                        }
                        let geo = conn.get_geometry(e.window).ok().and_then(|c| c.reply().ok());
                        if let Some(g) = geo.filter(|g| g.width > 1 && g.height > 1) {
                            let (x, y) = (i32::from(g.x), i32::from(g.y));
                            let (width, height) = (i32::from(g.width), i32::from(g.height));
                            shared.mapped(Rect { x, y, width, height });
                        }
                    }
                    // A window going away uncovers what was under it: the screen changes.
                    Ok(Event::UnmapNotify(e)) if e.event == root => {
                        shared.window_changed(Instant::now());
                    }
                    // A window manager may take a closed client's frame away without
                    // unmapping it first.
                    Ok(Event::DestroyNotify(e)) if e.event == root => {
                        shared.window_changed(Instant::now());
                    }
                    Ok(Event::PropertyNotify(e)) if e.window == root => {
                        if e.atom == client_list {
                            on_root(RootChange::ClientList);
                        } else if e.atom == active {
                            on_root(RootChange::ActiveWindow);
                        }
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::warn!(%e, "the display's watch connection closed");
                        break;
                    }
                }
            }
            shared.live.send_replace(false);
            let _ = damage::destroy(&conn, id);
        })
        .map_err(|e| Error::Start(format!("cannot start the display watch thread: {e}")))?;
    Ok(damage)
}
