//! What a page scheduled after an action, as DevTools reports it (`instrument.rs`): one-shot
//! timers and animation frames with when they are due, and CSS animations and transitions with
//! when they end. A settle waits for what is due within its cap; recurring work and infinite
//! animations are told apart here and only reported (`ignored`).
//!
//! How work is told apart (`classify`):
//! - `setInterval` is recurring;
//! - a `setTimeout` installed from the callback of a timer set at the same place (a clock
//!   re-arming itself, a polling loop), or from a `setInterval` callback, is recurring;
//! - an animation frame requested from the callback of one requested at the same place is a
//!   frame loop (the DOM quiet window still sees what it changes);
//! - a timer due after the cap is beyond it;
//! - an animation without an iteration count (CSS `infinite`) is infinite;
//! - anything else installed since the action is waited for until it fired (or ended).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::sync::watch;

use super::super::lock;

/// A timer not seen firing by this long after it was due no longer holds a settle (it was
/// cleared, or its fire went unnoticed).
pub const LATE: Duration = Duration::from_millis(100);
/// Work older than this is forgotten.
const KEEP: Duration = Duration::from_secs(15);
/// At most this many entries of each kind are kept (a page installing timers in a loop).
const MAX: usize = 512;
/// At most this many ignored items are named in a result.
const NAMED: usize = 10;

/// Where a script scheduled something: script id, line, column of the call.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Site {
    pub script: String,
    pub line: i64,
    pub column: i64,
}

/// What was installed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Install {
    /// `setTimeout`, with its delay in ms when it could be read (else taken as 0).
    Timeout(Option<f64>),
    Interval(Option<f64>),
    Frame,
}

/// The async task the install ran in: how it was scheduled (DevTools' async stack
/// description: `setTimeout`, `setInterval`, `requestAnimationFrame`, `Promise.then`, ...)
/// and where.
#[derive(Debug, Clone, PartialEq)]
pub struct Parent {
    pub kind: String,
    pub site: Option<Site>,
}

/// What a settle does with one install.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Wait until it fires, due after this delay.
    Wait(Duration),
    /// Not waited for; the text says why (for `settle.ignored`).
    Ignore(String),
}

/// Classifies an install at `site` made in `parent` (whether it is due within a settle's cap
/// is `Work::pending`'s to say).
pub fn classify(install: Install, site: &Site, parent: Option<&Parent>) -> Verdict {
    let same_place = parent.is_some_and(|p| p.site.as_ref() == Some(site));
    let from = parent.map(|p| p.kind.as_str()).unwrap_or_default();
    let ms = |d: Option<f64>| d.filter(|d| d.is_finite() && *d > 0.0).unwrap_or(0.0);
    match install {
        Install::Interval(d) => Verdict::Ignore(format!("setInterval {:.0} ms", ms(d))),
        Install::Timeout(d) if from == "setTimeout" && same_place => {
            Verdict::Ignore(format!("setTimeout {:.0} ms re-armed by its own callback", ms(d)))
        }
        Install::Timeout(d) if from == "setInterval" => {
            Verdict::Ignore(format!("setTimeout {:.0} ms from a setInterval callback", ms(d)))
        }
        Install::Timeout(d) => Verdict::Wait(Duration::from_secs_f64(ms(d) / 1000.0)),
        Install::Frame if from == "requestAnimationFrame" && same_place => {
            Verdict::Ignore("requestAnimationFrame loop".into())
        }
        Install::Frame => Verdict::Wait(Duration::ZERO),
    }
}

/// One CSS animation or transition (or Web Animation) as the Animation domain reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    pub id: String,
    pub name: String,
    /// ms; `None` = infinite.
    pub iterations: Option<f64>,
    pub delay: f64,
    pub end_delay: f64,
    pub duration: f64,
    pub current_time: f64,
    pub playback_rate: f64,
    /// Driven by scrolling, not time.
    pub scroll_driven: bool,
}

impl Animation {
    /// How long until it ends from now, or why it is not waited for.
    pub fn remaining(&self) -> Result<Duration, String> {
        let Some(iterations) = self.iterations else {
            return Err(format!("infinite animation {}", self.name));
        };
        if self.scroll_driven {
            return Err(format!("scroll-driven animation {}", self.name));
        }
        let rate = if self.playback_rate > 0.0 { self.playback_rate } else { 1.0 };
        let total = self.delay + self.duration * iterations + self.end_delay;
        let ms = ((total - self.current_time.max(0.0)) / rate).max(0.0);
        Ok(Duration::from_secs_f64(ms / 1000.0))
    }
}

#[derive(Debug, Clone)]
struct Item {
    at: Instant,
    due: Instant,
    site: Option<Site>,
    kind: Kind,
    /// The animation's id, else what it is (`setTimeout 400 ms`).
    what: String,
    /// How a result names it.
    name: String,
    done: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Timer,
    Frame,
    Animation,
}

#[derive(Debug, Default)]
struct Inner {
    items: Vec<Item>,
    ignored: Vec<(Instant, String)>,
    /// The last time something waited for fired or ended.
    last: Option<Instant>,
}

/// A tab's scheduled work, fed by its DevTools events.
#[derive(Debug)]
pub struct Work {
    inner: Mutex<Inner>,
    tick: watch::Sender<u64>,
}

impl Default for Work {
    fn default() -> Self {
        Work { inner: Mutex::default(), tick: watch::channel(0).0 }
    }
}

/// What a tab has pending since an action.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Pending {
    pub timers: usize,
    pub animations: usize,
    /// Timers and animation frames still to come, and when due: what may still change the
    /// DOM.
    pub busy: Vec<(String, Instant)>,
    /// Animations not ended yet, and when they end: what changes only the pixels.
    pub painting: Vec<(String, Instant)>,
    pub ignored: Vec<String>,
    /// The last fire or end of something waited for.
    pub last: Option<Instant>,
}

impl Work {
    /// Runs `f` on the state; when it says something waited for came or went, the stamp
    /// changes and settles wake up.
    fn with(&self, f: impl FnOnce(&mut Inner, Instant) -> bool) {
        let now = Instant::now();
        let mut inner = lock(&self.inner);
        inner.items.retain(|i| now.duration_since(i.at) < KEEP);
        inner.ignored.retain(|(t, _)| now.duration_since(*t) < KEEP);
        let changed = f(&mut inner, now);
        if inner.items.len() > MAX {
            let cut = inner.items.len() - MAX;
            inner.items.drain(..cut);
        }
        if inner.ignored.len() > MAX {
            let cut = inner.ignored.len() - MAX;
            inner.ignored.drain(..cut);
        }
        drop(inner);
        if changed {
            self.tick.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// A number that changes whenever work waited for comes or goes.
    pub fn stamp(&self) -> u64 {
        *self.tick.borrow()
    }

    /// A timer or animation frame was installed at `site`.
    pub fn installed(&self, install: Install, site: Site, parent: Option<&Parent>) {
        let verdict = classify(install, &site, parent);
        self.with(|inner, now| match verdict {
            Verdict::Ignore(why) => {
                inner.ignored.push((now, why));
                false
            }
            Verdict::Wait(delay) => {
                let (kind, what) = match install {
                    Install::Frame => (Kind::Frame, "requestAnimationFrame".to_owned()),
                    _ => (Kind::Timer, format!("setTimeout {} ms", delay.as_millis())),
                };
                let (site, name) = (Some(site), what.clone());
                let due = now + delay;
                inner.items.push(Item { at: now, due, site, kind, what, name, done: false });
                true
            }
        });
    }

    /// An install the input's trace saw, made at `at`.
    pub fn traced(&self, t: &super::trace::Traced, at: Instant) {
        let ms = |d: Option<f64>| d.filter(|d| d.is_finite() && *d > 0.0).unwrap_or(0.0);
        let verdict = match t.install {
            Install::Timeout(d) if t.from_callback => {
                Verdict::Ignore(format!("setTimeout {:.0} ms set by a timer's callback", ms(d)))
            }
            Install::Frame if t.from_callback => {
                Verdict::Ignore("requestAnimationFrame loop".into())
            }
            Install::Interval(d) => Verdict::Ignore(format!("setInterval {:.0} ms", ms(d))),
            Install::Timeout(d) => Verdict::Wait(Duration::from_secs_f64(ms(d) / 1000.0)),
            Install::Frame => Verdict::Wait(Duration::ZERO),
        };
        self.with(|inner, now| match verdict {
            Verdict::Ignore(why) => {
                inner.ignored.push((now, why));
                false
            }
            Verdict::Wait(delay) => {
                let (kind, what) = match t.install {
                    Install::Frame => (Kind::Frame, "requestAnimationFrame".to_owned()),
                    _ => (Kind::Timer, format!("setTimeout {} ms", delay.as_millis())),
                };
                let (name, due, done) = (what.clone(), at + delay, t.over);
                inner.items.push(Item { at, due, site: None, kind, what, name, done });
                // It fired about when due, not when the trace was read (tens of ms later):
                // the quiet window counts from then (what it changed, the DOM watch saw).
                if done {
                    inner.last = inner.last.max(Some(due.min(now)));
                }
                true
            }
        });
    }

    /// A timer (`frame`: an animation frame) scheduled at `site` fires: the one due first
    /// of those set there, or with no site the one due first of all that are due.
    pub fn fired(&self, frame: bool, site: Option<&Site>) {
        let kind = if frame { Kind::Frame } else { Kind::Timer };
        self.with(|inner, now| {
            let hit = inner
                .items
                .iter_mut()
                .filter(|i| !i.done && i.kind == kind)
                // Set where it fired from; or one the trace saw (no site known) that is due.
                .filter(|i| match (site, &i.site) {
                    (Some(s), Some(mine)) => mine == s,
                    _ => i.due <= now + LATE,
                })
                .min_by_key(|i| i.due);
            let Some(i) = hit else { return false };
            i.done = true;
            inner.last = Some(now);
            true
        });
    }

    /// An animation started (or was updated): waited for until it ends, unless it is
    /// infinite or ends beyond the cap.
    pub fn animation(&self, a: &Animation) {
        self.with(|inner, now| {
            inner.items.retain(|i| !(i.kind == Kind::Animation && i.what == a.id));
            match a.remaining() {
                Err(why) => {
                    inner.ignored.push((now, why));
                    false
                }
                Ok(d) => {
                    inner.items.push(Item {
                        at: now,
                        due: now + d,
                        site: None,
                        kind: Kind::Animation,
                        what: a.id.clone(),
                        name: format!("animation {} {:.0} ms", a.name, d.as_secs_f64() * 1000.0),
                        done: false,
                    });
                    true
                }
            }
        });
    }

    /// An animation was cancelled (its element went, its class was removed).
    pub fn animation_gone(&self, id: &str) {
        self.with(|inner, now| {
            let mut changed = false;
            for i in inner.items.iter_mut().filter(|i| i.kind == Kind::Animation && i.what == id) {
                changed |= !i.done;
                i.done = true;
            }
            if changed {
                inner.last = Some(now);
            }
            changed
        });
    }

    /// What was installed since `since` and is still to come at `now`; what is due after
    /// `cap` is named as ignored.
    pub fn pending(&self, since: Instant, now: Instant, cap: Instant) -> Pending {
        let inner = lock(&self.inner);
        let mut p = Pending::default();
        let mut ignored: Vec<String> = Vec::new();
        for i in inner.items.iter().filter(|i| i.at >= since) {
            if i.due > cap {
                ignored.push(format!("{} beyond the cap", i.name));
                continue;
            }
            match i.kind {
                Kind::Animation => p.animations += 1,
                _ => p.timers += 1,
            }
            // An animation is over at its end; a timer once seen firing, or a while after it
            // was due.
            let over = match i.kind {
                Kind::Animation => i.done || i.due <= now,
                _ => i.done || i.due + LATE <= now,
            };
            if over {
                let end = if i.done { None } else { Some(i.due) };
                p.last = p.last.max(end);
            } else if i.kind == Kind::Animation {
                p.painting.push((i.name.clone(), i.due));
            } else {
                p.busy.push((i.name.clone(), i.due));
            }
        }
        p.last = p.last.max(inner.last.filter(|t| *t >= since));
        ignored.truncate(NAMED);
        for (_, why) in inner.ignored.iter().filter(|(t, _)| *t >= since) {
            if !ignored.contains(why) && ignored.len() < NAMED {
                ignored.push(why.clone());
            }
        }
        p.ignored = ignored;
        p
    }

    /// A receiver that changes whenever work comes or goes.
    pub fn ticks(&self) -> watch::Receiver<u64> {
        self.tick.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(col: i64) -> Site {
        Site { script: "7".into(), line: 0, column: col }
    }

    fn parent(kind: &str, col: Option<i64>) -> Parent {
        Parent { kind: kind.into(), site: col.map(site) }
    }

    #[test]
    fn recurring_and_far_work_is_told_apart_from_what_to_wait_for() {
        let wait = |ms| Verdict::Wait(Duration::from_millis(ms));
        let ignore = |s: &str| Verdict::Ignore(s.into());
        #[rustfmt::skip]
        let table: Vec<(Install, Option<Parent>, Verdict)> = vec![
            // A click handler's timers: waited for, whatever their delay within the cap.
            (Install::Timeout(Some(400.0)), None, wait(400)),
            (Install::Timeout(Some(0.0)), Some(parent("Promise.then", Some(3))), wait(0)),
            (Install::Timeout(None), None, wait(0)),
            (Install::Timeout(Some(-5.0)), None, wait(0)),
            // Set from a one-shot timer set elsewhere (a chain the click started): waited for.
            (Install::Timeout(Some(50.0)), Some(parent("setTimeout", Some(3))), wait(50)),
            // A clock re-arming itself from its own callback.
            (Install::Timeout(Some(1000.0)), Some(parent("setTimeout", Some(9))),
             ignore("setTimeout 1000 ms re-armed by its own callback")),
            (Install::Interval(Some(1000.0)), None, ignore("setInterval 1000 ms")),
            (Install::Timeout(Some(10.0)), Some(parent("setInterval", Some(1))),
             ignore("setTimeout 10 ms from a setInterval callback")),
            (Install::Frame, None, wait(0)),
            (Install::Frame, Some(parent("requestAnimationFrame", Some(9))),
             ignore("requestAnimationFrame loop")),
            (Install::Frame, Some(parent("requestAnimationFrame", Some(4))), wait(0)),
        ];
        for (install, parent, want) in table {
            let got = classify(install, &site(9), parent.as_ref());
            assert_eq!(got, want, "{install:?} in {parent:?}");
        }
    }

    #[test]
    fn animations_end_or_are_infinite() {
        let a = Animation {
            id: "1".into(),
            name: "opacity".into(),
            iterations: Some(1.0),
            delay: 0.0,
            end_delay: 0.0,
            duration: 300.0,
            current_time: 16.0,
            playback_rate: 1.0,
            scroll_driven: false,
        };
        assert_eq!(a.remaining(), Ok(Duration::from_millis(284)));
        let spin = Animation { iterations: None, name: "spin".into(), ..a.clone() };
        assert_eq!(spin.remaining(), Err("infinite animation spin".into()));
        let twice = Animation { iterations: Some(2.0), playback_rate: 2.0, ..a };
        assert_eq!(twice.remaining(), Ok(Duration::from_millis(292)));
    }

    #[test]
    fn a_settle_waits_for_timers_until_they_fire_and_names_the_ignored() {
        let since = Instant::now();
        let w = Work::default();
        let cap = since + Duration::from_millis(1500);
        w.installed(Install::Timeout(Some(400.0)), site(1), None);
        w.installed(Install::Interval(Some(1000.0)), site(2), None);
        w.installed(Install::Timeout(Some(5000.0)), site(4), None);
        let p = w.pending(since, Instant::now(), cap);
        assert_eq!((p.timers, p.busy.len()), (1, 1), "{p:?}");
        assert_eq!(
            p.ignored,
            ["setTimeout 5000 ms beyond the cap".to_owned(), "setInterval 1000 ms".to_owned()]
        );
        // Another timer's fire (set elsewhere) does not count; this one's does.
        w.fired(false, Some(&site(5)));
        assert_eq!(w.pending(since, Instant::now(), cap).busy.len(), 1);
        w.fired(false, Some(&site(1)));
        let p = w.pending(since, Instant::now(), cap);
        assert!(p.busy.is_empty() && p.last.is_some(), "{p:?}");
        // A timer never seen firing stops holding a settle a while after it was due.
        w.installed(Install::Timeout(Some(0.0)), site(3), None);
        let later = Instant::now() + LATE + Duration::from_millis(1);
        assert!(w.pending(since, later, cap).busy.is_empty());
        // Work from before the action is not this settle's.
        let after = Instant::now() + Duration::from_secs(1);
        assert_eq!(w.pending(after, later, cap).timers, 0);
    }

    #[test]
    fn an_animation_under_way_holds_the_paint_not_the_dom() {
        let w = Work::default();
        let since = Instant::now();
        w.animation(&Animation {
            id: "a".into(),
            name: "fade".into(),
            iterations: Some(1.0),
            delay: 0.0,
            end_delay: 0.0,
            duration: 500.0,
            current_time: 0.0,
            playback_rate: 1.0,
            scroll_driven: false,
        });
        let p = w.pending(since, Instant::now(), since + Duration::from_secs(2));
        assert!(p.busy.is_empty() && p.painting.len() == 1 && p.animations == 1, "{p:?}");
    }
}
