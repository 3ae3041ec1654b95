//! The `native` tool: the computer tools the models were trained on, executed as they are.
//! A runtime passes the model's `tool_use` (Anthropic) or `computer_call` actions (OpenAI)
//! through unchanged and gets back what goes into the tool result; the vendor shapes are
//! read by the daemon's handlers (`dispatch/native/`), so the table only says where they go.

use serde_json::{Map, Value};

use super::rules::action;
use super::spec::{Action, Backend, Class, Locator as L, Param, Tool, Ty, DESKTOP_EVENTS};
use super::validate::Violation;

const fn p(name: &'static str, ty: Ty, doc: &'static str) -> Param {
    Param { name, ty, doc, default: None }
}

const TARGET: Param = p(
    "target",
    Ty::Enum(&["desktop", "browser"]),
    "where the actions go: desktop (the default: real input on the whole screen) or browser \
     (the session's tab through DevTools, coordinates in its viewport)",
);
const ANTHROPIC_TOOL: Param = p(
    "tool",
    Ty::Object,
    "the tool definition the model was given: type (computer_20250124, computer_20251124, \
     a computer_toolset_20260801 member), display_width_px, display_height_px, and \
     optionally display_number and enable_zoom",
);
const ANTHROPIC_INPUT: Param = p(
    "input",
    Ty::Object,
    "the model's tool_use.input, verbatim: action and its coordinate, text, scroll_direction, \
     scroll_amount, duration, region, start_coordinate",
);
const OPENAI_ACTION: Param = p(
    "action",
    Ty::Object,
    "one computer_call action as the model sent it (type click, double_click, drag, keypress, \
     move, scroll, type, wait or screenshot); direct calls only: in tools.call, action names \
     the tool's action, so a single one goes in actions",
);
const OPENAI_ACTIONS: Param = p(
    "actions",
    Ty::ObjectList,
    "a batch of computer_call actions, run in order until the first that fails",
);
const OPENAI_DISPLAY: Param = p(
    "tool",
    Ty::Object,
    "the computer tool definition the model was given (display_width, display_height); \
     without it the screenshot is the screen's own size",
);
const SAFETY_CHECKS: Param = p(
    "pending_safety_checks",
    Ty::ObjectList,
    "the computer_call's pending_safety_checks, answered back as acknowledged_safety_checks",
);

/// A native action: real input, so the approval policy sees it as any acting action.
const fn native(name: &'static str, summary: &'static str) -> Action {
    action(name, summary, Class::Act, L::None).on(Backend::Desktop, DESKTOP_EVENTS)
}

/// Exactly one of `action` and `actions`, and a batch with at least one action.
fn one_or_a_batch(args: &Map<String, Value>) -> Result<(), Violation> {
    match (args.get("action"), args.get("actions")) {
        (None, None) => Err(Violation::new(
            "action",
            "native.openai needs action (one computer_call action) or actions (a batch)",
        )),
        (_, Some(Value::Array(list))) if list.is_empty() => {
            Err(Violation::new("actions", "actions is an empty batch; send at least one action"))
        }
        _ => Ok(()),
    }
}

#[rustfmt::skip] // one line per action: the table reads as a table
pub static NATIVE: Tool = Tool {
    name: "native",
    description: "Run a model's own computer tool call as the vendor defined it, and answer \
                  what goes back to the model: anthropic takes the computer tool definition \
                  and the tool_use input; openai one computer_call action or a batch. \
                  Coordinates are in the declared display size, scaled to the screen; the \
                  screenshot is taken once the screen settled and is scaled back. target: \
                  desktop (default) or browser (the session's tab).",
    element_keys: &[],
    point_keys: &[],
    common: &[TARGET],
    actions: &[
        native("anthropic", "run one action of Anthropic's computer tool (tool, input); returns content (text and a base64 image block) and is_error, ready for a tool_result")
            .req(&[ANTHROPIC_TOOL, ANTHROPIC_INPUT]),
        native("openai", "run OpenAI computer_call actions (action, or actions in order); returns output (a computer_screenshot with a data: URL), acknowledged_safety_checks, and the index of the action that failed")
            .opt(&[OPENAI_ACTION, OPENAI_ACTIONS, OPENAI_DISPLAY, SAFETY_CHECKS])
            .excl(&[("action", "actions")]).check(&[one_or_a_batch]),
    ],
    listed: false,
};
