//! Anthropic's computer tool (`computer_20250124`, `computer_20251124` and the toolset's
//! members): the tool definition's declared display and the model's `tool_use.input` read
//! into steps, refused the way the reference implementation refuses them (one line, sent
//! back as a tool_result with `is_error`), before anything is pressed.

use std::time::Duration;

use serde_json::{Map, Value};

use super::frame::Frame;
use super::keys;
use super::step::{Button, Pt, Step};

/// What a call comes to.
#[derive(Debug)]
pub struct Read {
    pub frame: Frame,
    pub steps: Vec<Step>,
    /// The answer carries a screenshot of the settled screen (all but cursor_position and
    /// zoom, which answer with text and a region).
    pub screenshot: bool,
}

/// The longest `duration` the reference accepts, in seconds.
const MAX_DURATION_S: f64 = 100.0;

fn declared(tool: &Map<String, Value>, real: (u32, u32)) -> Result<(u32, u32), String> {
    let kind = tool.get("type").and_then(Value::as_str).unwrap_or_default();
    if !kind.starts_with("computer") {
        return Err(format!(
            "tool type {kind:?} is not a computer tool (computer_20250124, computer_20251124, \
             a computer_toolset member)"
        ));
    }
    let size = super::frame::declared_size(tool, ("display_width_px", "display_height_px"), "")?;
    Ok(size.unwrap_or(real))
}

/// A coordinate as the reference accepts one: two non-negative whole numbers.
fn coordinate(v: &Value, frame: &Frame) -> Result<Pt, String> {
    let pair = v.as_array().filter(|a| a.len() == 2);
    let Some(pair) = pair else { return Err(format!("{v} must be a tuple of length 2")) };
    let n = |v: &Value| v.as_f64().filter(|n| *n >= 0.0 && n.fract() == 0.0);
    let (Some(x), Some(y)) = (n(&pair[0]), n(&pair[1])) else {
        return Err(format!("{v} must be a tuple of non-negative ints"));
    };
    frame.to_real(x, y).ok_or_else(|| {
        let (w, h) = frame.declared;
        format!("Coordinates {x}, {y} are out of bounds (the display is {w}x{h})")
    })
}

/// The keys a click or scroll holds down meanwhile (`text`, or `key` as some versions
/// send it): xdotool chords.
fn held(input: &Map<String, Value>) -> Result<Vec<String>, String> {
    match input.get("text").or(input.get("key")) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) => keys::xdotool(s),
        Some(v) => Err(format!("{v} must be a string")),
    }
}

fn duration(input: &Map<String, Value>) -> Result<Duration, String> {
    let d = input.get("duration");
    let Some(s) = d.and_then(Value::as_f64) else {
        return Err(format!("duration={} must be a number", d.cloned().unwrap_or(Value::Null)));
    };
    if s < 0.0 {
        return Err(format!("duration={s} must be non-negative"));
    }
    if s > MAX_DURATION_S {
        return Err(format!("duration={s} is too long."));
    }
    Ok(Duration::from_secs_f64(s))
}

/// The toolset (`computer_toolset_20260801`): one entry for the family, each member a tool
/// of its own whose `tool_use` names the action and carries no `action` in its input.
fn is_toolset(tool: &Map<String, Value>) -> bool {
    tool.get("type").and_then(Value::as_str).is_some_and(|t| t.starts_with("computer_toolset"))
}

/// The action: the input's `action` (the single computer tool), else, for a toolset
/// member, the `tool_use` block's name, which the runtime passes as the tool's `name`.
pub fn action_of<'a>(
    tool: &'a Map<String, Value>,
    input: &'a Map<String, Value>,
) -> Option<&'a str> {
    match input.get("action") {
        Some(Value::String(a)) => Some(a.as_str()),
        _ if is_toolset(tool) => tool.get("name").and_then(Value::as_str),
        _ => None,
    }
}

/// Reads a call: the tool's declared display over `real` and the input's action.
pub fn read(
    tool: &Map<String, Value>,
    input: &Map<String, Value>,
    real: (u32, u32),
) -> Result<Read, String> {
    let frame = Frame::new(declared(tool, real)?, real);
    let Some(action) = action_of(tool, input) else {
        return Err("action is required: one of the computer tool's actions".into());
    };
    let has = |k: &str| input.get(k).is_some_and(|v| !v.is_null());
    let text = || match input.get("text") {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(v) if !v.is_null() => Err(format!("{v} must be a string")),
        _ => Err(format!("text is required for {action}")),
    };
    let at = || input.get("coordinate").filter(|v| !v.is_null()).map(|v| coordinate(v, &frame));
    let click = |button: Button, count: u8| -> Result<Vec<Step>, String> {
        let at = at().transpose()?;
        Ok(vec![Step::Click { at, button, count, hold: held(input)? }])
    };
    let no_coordinate = || {
        if has("coordinate") {
            Err(format!("coordinate is not accepted for {action}"))
        } else {
            Ok(())
        }
    };
    let mut screenshot = true;
    let steps = match action {
        "key" | "type" => {
            no_coordinate()?;
            let text = text()?;
            if action == "key" {
                vec![Step::Keys(keys::xdotool(&text)?)]
            } else {
                vec![Step::Type(text)]
            }
        }
        "hold_key" => {
            let t = duration(input)?;
            let chords = keys::xdotool(&text()?)?;
            chords.into_iter().map(|chord| Step::HoldKey { chord, hold: t }).collect()
        }
        "mouse_move" => {
            let to = at().ok_or_else(|| format!("coordinate is required for {action}"))??;
            vec![Step::Move { to, hold: vec![] }]
        }
        "left_click" => click(Button::Left, 1)?,
        "right_click" => click(Button::Right, 1)?,
        "middle_click" => click(Button::Middle, 1)?,
        "double_click" => click(Button::Left, 2)?,
        "triple_click" => click(Button::Left, 3)?,
        "left_mouse_down" | "left_mouse_up" => {
            no_coordinate()?;
            vec![Step::Button { at: None, button: Button::Left, down: action == "left_mouse_down" }]
        }
        "left_click_drag" => {
            let to = at().ok_or_else(|| format!("coordinate is required for {action}"))??;
            left_drag(input, &frame, to)?
        }
        "scroll" => vec![scroll(input, &frame)?],
        "wait" => vec![Step::Wait(duration(input)?)],
        "screenshot" => {
            no_coordinate()?;
            vec![Step::Screenshot]
        }
        "cursor_position" => {
            no_coordinate()?;
            screenshot = false;
            vec![Step::CursorPosition]
        }
        "zoom" => {
            screenshot = false;
            vec![zoom(tool, input, &frame)?]
        }
        other => return Err(format!("Invalid action: {other}")),
    };
    Ok(Read { frame, steps, screenshot })
}

/// A drag with the left button to `to`, from `start_coordinate` or where the pointer is.
fn left_drag(input: &Map<String, Value>, frame: &Frame, to: Pt) -> Result<Vec<Step>, String> {
    Ok(match input.get("start_coordinate").filter(|v| !v.is_null()) {
        Some(v) => {
            let path = vec![coordinate(v, frame)?, to];
            vec![Step::Drag { path, button: Button::Left, hold: held(input)? }]
        }
        // From where the pointer is, as the first version of the tool did.
        None => vec![
            Step::Button { at: None, button: Button::Left, down: true },
            Step::Move { to, hold: vec![] },
            Step::Button { at: Some(to), button: Button::Left, down: false },
        ],
    })
}

/// A scroll of `scroll_amount` clicks toward `scroll_direction`, at `coordinate` if given.
fn scroll(input: &Map<String, Value>, frame: &Frame) -> Result<Step, String> {
    let dir = input.get("scroll_direction").and_then(Value::as_str).unwrap_or_default();
    let amount = input.get("scroll_amount");
    let n = amount.and_then(Value::as_u64).filter(|n| *n <= 1_000).ok_or_else(|| {
        let shown = amount.cloned().unwrap_or(Value::Null);
        format!("scroll_amount={shown} must be a non-negative int")
    })? as i32;
    let (dx, dy) = match dir {
        "up" => (0, -n),
        "down" => (0, n),
        "left" => (-n, 0),
        "right" => (n, 0),
        _ => {
            return Err(format!(
                "scroll_direction={dir:?} must be 'up', 'down', 'left', or 'right'"
            ))
        }
    };
    let at = input.get("coordinate").filter(|v| !v.is_null());
    let at = at.map(|v| coordinate(v, frame)).transpose()?;
    let pixels = (f64::from(dx) * 100.0, f64::from(dy) * 100.0);
    Ok(Step::Scroll { at, dx, dy, pixels, hold: held(input)? })
}

/// A zoom into `region` of the display, if the tool's definition enables it.
fn zoom(
    tool: &Map<String, Value>,
    input: &Map<String, Value>,
    frame: &Frame,
) -> Result<Step, String> {
    let enabled = if is_toolset(tool) {
        tool.get("configs").and_then(|c| c.pointer("/zoom/enabled")).and_then(Value::as_bool)
            != Some(false)
    } else {
        tool.get("enable_zoom").and_then(Value::as_bool) == Some(true)
    };
    if !enabled {
        return Err(
            "zoom is not enabled for this tool: its definition needs enable_zoom: true".into()
        );
    }
    let r = input.get("region").and_then(Value::as_array).filter(|a| a.len() == 4);
    let nums: Option<Vec<f64>> =
        r.map(|a| a.iter().filter_map(|v| v.as_f64().filter(|n| *n >= 0.0)).collect());
    let Some([x0, y0, x1, y1]) = nums.as_deref().and_then(|n| <[f64; 4]>::try_from(n).ok()) else {
        return Err("region must be [x0, y0, x1, y1]: four non-negative numbers".into());
    };
    if x1 <= x0 || y1 <= y0 {
        return Err(format!(
            "region [{x0}, {y0}, {x1}, {y1}] is empty: x1 and y1 must be past x0 and y0"
        ));
    }
    let real = frame.region_to_real([x0, y0, x1, y1]).ok_or_else(|| {
        let (w, h) = frame.declared;
        format!("region [{x0}, {y0}, {x1}, {y1}] is out of bounds (the display is {w}x{h})")
    })?;
    Ok(Step::Zoom(real))
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Map, Value};

    use super::read;
    use crate::dispatch::native::step::{Button, Step};

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    fn steps(input: Value) -> Result<Vec<Step>, String> {
        let tool = obj(json!({"type": "computer_20250124", "name": "computer",
                              "display_width_px": 1024, "display_height_px": 768,
                              "enable_zoom": true}));
        read(&tool, &obj(input), (1280, 800)).map(|r| r.steps)
    }

    #[test]
    fn actions_become_steps_in_screen_pixels() {
        assert_eq!(
            steps(json!({"action": "left_click", "coordinate": [512, 384]})).expect("read"),
            [Step::Click { at: Some((640, 400)), button: Button::Left, count: 1, hold: vec![] }]
        );
        assert_eq!(
            steps(json!({"action": "key", "text": "ctrl+a"})).expect("read"),
            [Step::Keys(vec!["ctrl+a".into()])]
        );
        assert_eq!(
            steps(json!({"action": "zoom", "region": [0, 64, 512, 384]})).expect("read"),
            [Step::Zoom((0, 0, 641, 401))]
        );
        assert!(matches!(
            steps(json!({"action": "triple_click"})).expect("read")[0],
            Step::Click { count: 3, at: None, .. }
        ));
    }

    #[test]
    fn refusals_read_as_the_reference_words_them() {
        let e = |v| steps(v).expect_err("refused");
        assert_eq!(
            e(json!({"action": "left_click", "coordinate": [1024, 10]})),
            "Coordinates 1024, 10 are out of bounds (the display is 1024x768)"
        );
        assert_eq!(
            e(json!({"action": "type", "text": "x", "coordinate": [1, 100]})),
            "coordinate is not accepted for type"
        );
        assert_eq!(e(json!({"action": "fly"})), "Invalid action: fly");
        assert_eq!(e(json!({"action": "key"})), "text is required for key");
        assert_eq!(e(json!({"action": "key", "text": "ctrl+nope"})), "unknown key \"nope\"");
        assert_eq!(
            e(json!({"action": "mouse_move", "coordinate": [1.5, 2]})),
            "[1.5,2] must be a tuple of non-negative ints"
        );
        assert_eq!(e(json!({"action": "wait", "duration": 101})), "duration=101 is too long.");
    }
}
