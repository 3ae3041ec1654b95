//! Keys and pointer: chords, held keys and buttons, moves, wheel scrolls and drags (XTest).
//! A named target's window is made active first (`aim.rs`); every result names the window the
//! input went to.

use glovebox_protocol::actions::computer::Direction;

use super::{landed, real, Acted, Aim, Guard, WindowRef};
use crate::desktop::{keys, Desktop, Error};

/// Which way the wheel turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wheel {
    Up,
    Down,
    Left,
    Right,
}

impl Wheel {
    /// The X button that turns the wheel this way (4 to 7).
    fn button(self) -> u8 {
        match self {
            Wheel::Up => 4,
            Wheel::Down => 5,
            Wheel::Left => 6,
            Wheel::Right => 7,
        }
    }
}

impl From<Direction> for Wheel {
    fn from(d: Direction) -> Wheel {
        match d {
            Direction::Up => Wheel::Up,
            Direction::Down => Wheel::Down,
            Direction::Left => Wheel::Left,
            Direction::Right => Wheel::Right,
        }
    }
}

impl Desktop {
    /// Where keys go: the target made active, or (nothing named) the active window.
    async fn keys_to(&self, aim: Aim) -> Result<(Option<Guard>, Option<WindowRef>), Error> {
        let guard = self.raise(aim).await?;
        let to = match &guard {
            Some(g) => Some(g.window.clone()),
            None => self.active_ref().await?,
        };
        Ok((guard, to))
    }

    /// Where a button at (x, y) goes: the target made active and found under the point, or
    /// (nothing named) the window under the point.
    async fn pointer_to(
        &self,
        aim: Aim,
        x: i32,
        y: i32,
    ) -> Result<(Option<Guard>, Option<WindowRef>), Error> {
        let guard = self.raise(aim).await?;
        let to = match &guard {
            Some(g) => Some(self.check_point(g, x, y).await?),
            None => self.window_at(x, y).await?,
        };
        Ok((guard, to))
    }

    pub async fn key(&self, chord: &str, aim: Aim) -> Result<Acted, Error> {
        let c = keys::parse_chord(chord).map_err(|reason| Error::Unsupported {
            action: "key".into(),
            reason,
            available: vec![],
        })?;
        let (guard, to) = self.keys_to(aim).await?;
        self.xrun(move |x| x.chord(&c.modifiers, c.key)).await?;
        let changed = self.focus_after(guard.as_ref()).await;
        Ok(landed(real("xtest", None), to, changed))
    }

    /// Presses (down) or releases every key of a chord. A press goes to the target made
    /// active; a release is never refused (a key must not stay down).
    pub async fn key_toggle(&self, chord: &str, down: bool, aim: Aim) -> Result<Acted, Error> {
        let c = keys::parse_chord(chord).map_err(|reason| Error::Unsupported {
            action: "keydown".into(),
            reason,
            available: vec![],
        })?;
        let (guard, to) =
            if down { self.keys_to(aim).await? } else { (None, self.active_ref().await?) };
        let syms: Vec<u32> = c.modifiers.iter().copied().chain(std::iter::once(c.key)).collect();
        let order: Vec<u32> =
            if down { syms.clone() } else { syms.iter().rev().copied().collect() };
        self.xrun(move |x| {
            for s in order {
                x.key(s, down)?;
            }
            Ok(())
        })
        .await?;
        let changed = self.focus_after(guard.as_ref()).await;
        Ok(landed(real("xtest", None), to, changed))
    }

    pub async fn mouse_move(&self, x: i32, y: i32, aim: Aim) -> Result<Acted, Error> {
        let (guard, to) = self.pointer_to(aim, x, y).await?;
        self.xrun(move |xx| xx.move_to(x, y)).await?;
        let changed = self.focus_after(guard.as_ref()).await;
        Ok(landed(real("xtest", Some((x, y))), to, changed))
    }

    /// A button down or up at `at` (else where the pointer is). A release is never refused.
    pub async fn mouse_button(
        &self,
        at: Option<(i32, i32)>,
        button: u8,
        down: bool,
        aim: Aim,
    ) -> Result<Acted, Error> {
        let (px, py) = match at {
            Some(p) => p,
            None => {
                let (x, y) = self.xrun(|xx| xx.pointer()).await?;
                (i32::from(x), i32::from(y))
            }
        };
        let (guard, to) = if down {
            self.pointer_to(aim, px, py).await?
        } else {
            (None, self.window_at(px, py).await?)
        };
        let (x, y) = self
            .xrun(move |xx| {
                if let Some((x, y)) = at {
                    xx.move_to(x, y)?;
                }
                xx.button(button, down)?;
                let (x, y) = xx.pointer()?;
                Ok((i32::from(x), i32::from(y)))
            })
            .await?;
        let changed = self.focus_after(guard.as_ref()).await;
        Ok(landed(real("xtest", Some((x, y))), to, changed))
    }

    /// Wheel clicks at a point (each about 3 lines / 50 px in GTK).
    pub async fn scroll(
        &self,
        x: i32,
        y: i32,
        wheel: Wheel,
        clicks: u32,
        aim: Aim,
    ) -> Result<Acted, Error> {
        let button = wheel.button();
        let (guard, to) = self.pointer_to(aim, x, y).await?;
        self.xrun(move |xx| {
            xx.move_to(x, y)?;
            for _ in 0..clicks.max(1) {
                xx.click(x, y, button, 1)?;
            }
            Ok(())
        })
        .await?;
        let changed = self.focus_after(guard.as_ref()).await;
        Ok(landed(real("xtest", Some((x, y))), to, changed))
    }

    pub async fn drag(
        &self,
        from: (i32, i32),
        to: (i32, i32),
        button: u8,
        aim: Aim,
    ) -> Result<Acted, Error> {
        let (guard, at) = self.pointer_to(aim, from.0, from.1).await?;
        self.xrun(move |xx| {
            xx.move_to(from.0, from.1)?;
            xx.button(button, true)?;
            let steps = 8;
            let mut r = Ok(());
            for i in 1..=steps {
                let x = from.0 + (to.0 - from.0) * i / steps;
                let y = from.1 + (to.1 - from.1) * i / steps;
                r = xx.move_to(x, y);
                if r.is_err() {
                    break;
                }
            }
            let up = xx.button(button, false);
            r.and(up)
        })
        .await?;
        let changed = self.focus_after(guard.as_ref()).await;
        Ok(landed(real("xtest", Some(to)), at, changed))
    }
}
