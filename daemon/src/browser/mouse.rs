//! The mouse as DevTools takes it: which button, which event, and the `buttons` bits of the
//! buttons held while it happens. The protocol's and the native tools' button words become
//! these enums at the handler (`From`), so no word reaches `Input.dispatchMouseEvent`.

use chromiumoxide::cdp::browser_protocol::input::{
    DispatchMouseEventParams, DispatchMouseEventType, MouseButton,
};

/// A mouse button, or none (a move with no button down).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Button {
    None,
    Left,
    Middle,
    Right,
    Back,
    Forward,
}

impl Button {
    /// Its bit in DevTools' `buttons`.
    fn bit(self) -> i64 {
        match self {
            Button::None => 0,
            Button::Left => 1,
            Button::Right => 2,
            Button::Middle => 4,
            Button::Back => 8,
            Button::Forward => 16,
        }
    }

    fn cdp(self) -> MouseButton {
        match self {
            Button::None => MouseButton::None,
            Button::Left => MouseButton::Left,
            Button::Middle => MouseButton::Middle,
            Button::Right => MouseButton::Right,
            Button::Back => MouseButton::Back,
            Button::Forward => MouseButton::Forward,
        }
    }
}

impl From<glovebox_protocol::actions::browser::Button> for Button {
    fn from(b: glovebox_protocol::actions::browser::Button) -> Button {
        use glovebox_protocol::actions::browser::Button as B;
        match b {
            B::Left => Button::Left,
            B::Middle => Button::Middle,
            B::Right => Button::Right,
        }
    }
}

/// What one mouse event does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mouse {
    Moved,
    Pressed,
    Released,
}

/// One mouse event at viewport point `at`: `button` (with `count`, the click count) while
/// `held` are down, with the `modifiers` bits.
pub fn event(
    kind: Mouse,
    (x, y): (f64, f64),
    (button, count): (Button, u32),
    held: &[Button],
    modifiers: u32,
) -> DispatchMouseEventParams {
    let r#type = match kind {
        Mouse::Moved => DispatchMouseEventType::MouseMoved,
        Mouse::Pressed => DispatchMouseEventType::MousePressed,
        Mouse::Released => DispatchMouseEventType::MouseReleased,
    };
    let mut e = DispatchMouseEventParams::new(r#type, x, y);
    e.button = Some(button.cdp());
    e.buttons = Some(held.iter().map(|b| b.bit()).sum());
    e.click_count = Some(i64::from(count));
    e.modifiers = Some(i64::from(modifiers));
    e
}

/// A wheel event at `at`: `dx`, `dy` in CSS pixels (positive: right, down).
pub fn wheel((x, y): (f64, f64), (dx, dy): (f64, f64), modifiers: u32) -> DispatchMouseEventParams {
    let mut e = DispatchMouseEventParams::new(DispatchMouseEventType::MouseWheel, x, y);
    e.delta_x = Some(dx);
    e.delta_y = Some(dy);
    e.modifiers = Some(i64::from(modifiers));
    e
}
