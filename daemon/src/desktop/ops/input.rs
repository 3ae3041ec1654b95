//! Keys and pointer: chords, held keys and buttons, moves, wheel scrolls and drags (XTest).

use super::Acted;
use crate::desktop::{keys, Desktop, Error};

impl Desktop {
    pub async fn key(&self, chord: &str) -> Result<Acted, Error> {
        let c = keys::parse_chord(chord).map_err(|reason| Error::Unsupported {
            action: "key".into(),
            reason,
            available: vec![],
        })?;
        self.xrun(move |x| x.chord(&c.modifiers, c.key)).await?;
        Ok(Acted::real("xtest", None))
    }

    /// Presses (down) or releases every key of a chord; returns the keysym names pressed.
    pub async fn key_toggle(&self, chord: &str, down: bool) -> Result<Vec<String>, Error> {
        let c = keys::parse_chord(chord).map_err(|reason| Error::Unsupported {
            action: "keydown".into(),
            reason,
            available: vec![],
        })?;
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
        Ok(syms.iter().map(|s| format!("0x{s:x}")).collect())
    }

    pub async fn mouse_move(&self, x: i32, y: i32) -> Result<(), Error> {
        self.xrun(move |xx| xx.move_to(x, y)).await
    }

    pub async fn mouse_button(
        &self,
        at: Option<(i32, i32)>,
        button: u8,
        down: bool,
    ) -> Result<(i32, i32), Error> {
        self.xrun(move |xx| {
            if let Some((x, y)) = at {
                xx.move_to(x, y)?;
            }
            xx.button(button, down)?;
            let (x, y) = xx.pointer()?;
            Ok((i32::from(x), i32::from(y)))
        })
        .await
    }

    /// Wheel clicks at a point (each about 3 lines / 50 px in GTK).
    pub async fn scroll(
        &self,
        x: i32,
        y: i32,
        direction: &str,
        clicks: u32,
    ) -> Result<Acted, Error> {
        let button = match direction {
            "up" => 4,
            "left" => 6,
            "right" => 7,
            _ => 5,
        };
        self.xrun(move |xx| {
            xx.move_to(x, y)?;
            for _ in 0..clicks.max(1) {
                xx.click(x, y, button, 1)?;
            }
            Ok(())
        })
        .await?;
        Ok(Acted::real("xtest", Some((x, y))))
    }

    pub async fn drag(&self, from: (i32, i32), to: (i32, i32), button: u8) -> Result<Acted, Error> {
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
        Ok(Acted::real("xtest", Some(to)))
    }
}
