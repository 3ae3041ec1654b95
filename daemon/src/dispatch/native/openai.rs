//! OpenAI's computer tool: the actions of a `computer_call` (one, or a batch) read into
//! steps, every one of them before any runs, so a batch with a bad action changes nothing.
//! Coordinates are in the declared display (`display_width`, `display_height` of the tool
//! definition, else the screen's own size); `scroll_x`, `scroll_y` are pixels.

use std::time::Duration;

use serde_json::{Map, Value};

use super::frame::Frame;
use super::keys;
use super::step::{Button, Pt, Step};

/// One action of the batch: its `type` as sent, and what it comes to.
#[derive(Debug)]
pub struct Action {
    pub kind: String,
    pub steps: Vec<Step>,
}

/// The pixels one wheel click scrolls on the desktop (GTK and Chromium: about 50).
const WHEEL_CLICK_PX: f64 = 50.0;

/// How long `wait` waits when the action says nothing (OpenAI's sample waits a second or two).
const WAIT: Duration = Duration::from_secs(1);

/// The declared display of the tool definition, else `real`.
pub fn frame(tool: Option<&Map<String, Value>>, real: (u32, u32)) -> Result<Frame, String> {
    let Some(tool) = tool else { return Ok(Frame::new(real, real)) };
    let size = super::frame::declared_size(tool, ("display_width", "display_height"), "tool.")?;
    Ok(Frame::new(size.unwrap_or(real), real))
}

fn point(a: &Map<String, Value>, kind: &str, frame: &Frame) -> Result<Pt, String> {
    let n = |k: &str| a.get(k).and_then(Value::as_f64);
    let (Some(x), Some(y)) = (n("x"), n("y")) else {
        return Err(format!("{kind} needs x and y"));
    };
    frame.to_real(x, y).ok_or_else(|| {
        let (w, h) = frame.declared;
        format!("coordinates ({x}, {y}) are outside the {w}x{h} display")
    })
}

/// The keys held during a pointer action (`keys`), each a chord of one key.
fn held(a: &Map<String, Value>) -> Result<Vec<String>, String> {
    match a.get("keys") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(list)) => {
            let names: Vec<String> = list
                .iter()
                .map(|k| k.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or("keys must be a list of key names")?;
            if names.is_empty() {
                return Ok(Vec::new());
            }
            Ok(vec![keys::openai(&names)?])
        }
        Some(_) => Err("keys must be a list of key names".into()),
    }
}

fn button(a: &Map<String, Value>) -> Result<Button, String> {
    match a.get("button").and_then(Value::as_str).unwrap_or("left") {
        "left" => Ok(Button::Left),
        "right" => Ok(Button::Right),
        "wheel" | "middle" => Ok(Button::Middle),
        "back" => Ok(Button::Back),
        "forward" => Ok(Button::Forward),
        other => Err(format!("button {other:?} is not left, right, wheel, back or forward")),
    }
}

/// Wheel clicks for a distance in pixels (at least one for any distance).
fn clicks(px: f64) -> i32 {
    if px == 0.0 {
        return 0;
    }
    let n = (px.abs() / WHEEL_CLICK_PX).ceil().max(1.0) as i32;
    if px < 0.0 {
        -n
    } else {
        n
    }
}

/// Reads one action.
pub fn read(a: &Map<String, Value>, frame: &Frame) -> Result<Action, String> {
    let kind = match a.get("type") {
        Some(Value::String(t)) => t.clone(),
        _ => return Err("an action needs a type (click, double_click, drag, keypress, move, scroll, type, wait, screenshot)".into()),
    };
    let steps = match kind.as_str() {
        "click" => {
            let at = Some(point(a, &kind, frame)?);
            vec![Step::Click { at, button: button(a)?, count: 1, hold: held(a)? }]
        }
        "double_click" => {
            let at = Some(point(a, &kind, frame)?);
            vec![Step::Click { at, button: Button::Left, count: 2, hold: held(a)? }]
        }
        "move" => vec![Step::Move { to: point(a, &kind, frame)?, hold: held(a)? }],
        "drag" => {
            let list = a.get("path").and_then(Value::as_array).ok_or("drag needs a path of {x, y} points")?;
            let path = list
                .iter()
                .map(|p| p.as_object().ok_or("drag's path holds {x, y} points".to_owned()).and_then(|p| point(p, "drag", frame)))
                .collect::<Result<Vec<Pt>, String>>()?;
            if path.len() < 2 {
                return Err("drag needs a path of at least two points".into());
            }
            vec![Step::Drag { path, button: Button::Left, hold: held(a)? }]
        }
        "keypress" => {
            let list = a.get("keys").and_then(Value::as_array).ok_or("keypress needs keys, a list of key names")?;
            let names: Vec<String> =
                list.iter().map(|k| k.as_str().map(str::to_owned)).collect::<Option<_>>().ok_or("keys must be a list of key names")?;
            vec![Step::Keys(vec![keys::openai(&names)?])]
        }
        "type" => match a.get("text") {
            Some(Value::String(t)) => vec![Step::Type(t.clone())],
            _ => return Err("type needs text, a string".into()),
        },
        "scroll" => {
            let at = Some(point(a, &kind, frame)?);
            let px = |k: &str| a.get(k).and_then(Value::as_f64).unwrap_or(0.0);
            let (sx, sy) = (px("scroll_x"), px("scroll_y"));
            vec![Step::Scroll { at, dx: clicks(sx), dy: clicks(sy), pixels: (sx, sy), hold: held(a)? }]
        }
        "wait" => {
            let ms = a.get("ms").or(a.get("duration_ms")).and_then(Value::as_u64);
            vec![Step::Wait(ms.map(Duration::from_millis).unwrap_or(WAIT).min(Duration::from_secs(100)))]
        }
        "screenshot" => vec![Step::Screenshot],
        other => return Err(format!("unknown action type {other:?}: click, double_click, drag, keypress, move, scroll, type, wait or screenshot")),
    };
    Ok(Action { kind, steps })
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::{frame, read};
    use crate::dispatch::native::step::{Button, Step};

    fn one(v: Value) -> Result<Vec<Step>, String> {
        let tool =
            json!({"type": "computer_use_preview", "display_width": 1024, "display_height": 768});
        let f = frame(tool.as_object(), (1280, 800)).expect("read");
        let Value::Object(a) = v else { return Err(format!("{v} is no object")) };
        read(&a, &f).map(|a| a.steps)
    }

    #[test]
    fn actions_become_steps() {
        assert_eq!(
            one(json!({"type": "click", "button": "wheel", "x": 512, "y": 384})).expect("read"),
            [Step::Click { at: Some((640, 400)), button: Button::Middle, count: 1, hold: vec![] }]
        );
        assert_eq!(
            one(json!({"type": "keypress", "keys": ["CTRL", "A"]})).expect("read"),
            [Step::Keys(vec!["CTRL+a".into()])]
        );
        assert!(matches!(
            &one(json!({"type": "scroll", "x": 10, "y": 100, "scroll_x": 0, "scroll_y": -120}))
                .expect("read")[0],
            Step::Scroll { dx: 0, dy: -3, .. }
        ));
        assert!(
            matches!(&one(json!({"type": "drag", "path": [{"x": 1, "y": 100}, {"x": 5, "y": 100}, {"x": 9, "y": 100}]})).expect("read")[0],
            Step::Drag { path, .. } if path.len() == 3)
        );
    }

    #[test]
    fn bad_actions_are_named() {
        let e = |v| one(v).expect_err("refused");
        assert_eq!(
            e(json!({"type": "keypress", "keys": ["CTRL", "HYPER"]})),
            "unknown key \"HYPER\""
        );
        assert_eq!(
            e(json!({"type": "click", "x": 2000, "y": 100})),
            "coordinates (2000, 100) are outside the 1024x768 display"
        );
        assert_eq!(
            e(json!({"type": "click", "button": "thumb", "x": 1, "y": 100})),
            "button \"thumb\" is not left, right, wheel, back or forward"
        );
        assert!(e(json!({"type": "teleport"})).starts_with("unknown action type \"teleport\""));
    }
}
