//! What both vendors' actions come down to, once read: steps in real pixels with keys in the
//! daemon's spelling. `anthropic.rs` and `openai.rs` read their shapes into these; `desktop.rs`
//! and `browser.rs` run them.

use std::time::Duration;

/// A mouse button (X numbering: 1 left, 2 middle, 3 right, 8 back, 9 forward).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Button {
    Left,
    Middle,
    Right,
    Back,
    Forward,
}

impl Button {
    pub fn x(self) -> u8 {
        match self {
            Button::Left => 1,
            Button::Middle => 2,
            Button::Right => 3,
            Button::Back => 8,
            Button::Forward => 9,
        }
    }
}

/// A point in real pixels (screen, or the tab's viewport).
pub type Pt = (i32, i32);

/// One thing to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Move the pointer, with keys held meanwhile.
    Move { to: Pt, hold: Vec<String> },
    /// Click `count` times at a point (else where the pointer is), with keys held meanwhile.
    Click { at: Option<Pt>, button: Button, count: u8, hold: Vec<String> },
    /// Press or release a button where the pointer is (after moving to `at`).
    Button { at: Option<Pt>, button: Button, down: bool },
    /// Press at the first point, pass through the others, release at the last, with keys
    /// held meanwhile.
    Drag { path: Vec<Pt>, button: Button, hold: Vec<String> },
    /// Press chords one after the other.
    Keys(Vec<String>),
    /// Hold a chord down for a while.
    HoldKey { chord: String, hold: Duration },
    /// Type text into whatever has the focus.
    Type(String),
    /// Wheel at a point (else where the pointer is): `dx`, `dy` in wheel clicks (positive:
    /// right, down); `pixels` the distance the model asked for, for a tab's wheel event.
    Scroll { at: Option<Pt>, dx: i32, dy: i32, pixels: (f64, f64), hold: Vec<String> },
    /// Let time pass (the model asked for it).
    Wait(Duration),
    /// Nothing but the screenshot that ends every call.
    Screenshot,
    /// Say where the pointer is.
    CursorPosition,
    /// The pixels of a region, unscaled (x, y, width, height in real pixels).
    Zoom((i32, i32, u32, u32)),
}

impl Step {
    /// What its settle waits for, when it changes anything.
    pub fn settle(&self) -> Option<crate::settle::Kind> {
        use crate::settle::Kind;
        match self {
            Step::Move { .. } | Step::Click { .. } | Step::Button { .. } | Step::Drag { .. } => {
                Some(Kind::Pointer)
            }
            Step::Keys(_) | Step::HoldKey { .. } => Some(Kind::Key),
            Step::Type(_) => Some(Kind::Type),
            Step::Scroll { .. } => Some(Kind::Scroll),
            Step::Wait(_) | Step::Screenshot | Step::CursorPosition | Step::Zoom(_) => None,
        }
    }

    /// A chord it presses that may open or close a window (its settle waits for one).
    pub fn may_open_window(&self) -> bool {
        match self {
            Step::Keys(chords) => chords.iter().any(|c| crate::desktop::may_open_window(c)),
            _ => false,
        }
    }
}
