//! What the view page needs of the display: the screen as a JPEG frame, when it changes
//! (X DAMAGE ticks), where the pointer is, and a person's raw input through XTest (pointer,
//! buttons, keys by keysym, Unicode text typed as the keymap allows). These calls block on
//! the X connection: callers run them on a blocking thread.

use crate::desktop::x11::{Encoded, ImageFormat};
use crate::desktop::{Desktop, Error};

impl Desktop {
    /// Screen rectangles every capture (view frames, screenshots, captures) paints over
    /// from now on: where a page shows a secret's value.
    pub fn cover_screen(&self, rects: Vec<(i32, i32, u32, u32)>) {
        self.x.set_covered(rects);
    }

    /// One more rectangle to paint over (a field about to receive a secret).
    pub fn cover_more(&self, rect: (i32, i32, u32, u32)) {
        self.x.add_covered(rect);
    }

    /// The whole screen as JPEG at `quality` (refresh the desktop fields' boxes first:
    /// [`Desktop::cover_fields`]).
    pub fn frame(&self, quality: u8) -> Result<Encoded, Error> {
        self.x.capture(None, ImageFormat::Jpeg, quality, None)
    }

    /// A receiver that changes whenever the screen is damaged; `None` when the server has
    /// no DAMAGE (or its watch connection is gone).
    pub fn damage_ticks(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        self.damage.as_ref().filter(|d| d.is_live()).map(|d| d.ticks())
    }

    /// The pointer's position on the screen.
    pub fn pointer_at(&self) -> Result<(i16, i16), Error> {
        self.x.pointer()
    }

    pub fn human_move(&self, x: i32, y: i32) -> Result<(), Error> {
        self.x.move_to(x, y)
    }

    pub fn human_button(&self, button: u8, down: bool) -> Result<(), Error> {
        self.x.button(button, down)
    }

    pub fn human_key(&self, keysym: u32, down: bool) -> Result<(), Error> {
        self.x.key(keysym, down)
    }

    pub fn human_text(&self, text: &str) -> Result<(), Error> {
        self.x.type_text(text)
    }
}
