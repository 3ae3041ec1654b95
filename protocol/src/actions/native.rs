//! Typed params of the `native` tool's actions, generated from the contract table
//! (`protocol/src/contract/native.rs`) by `cargo xtask codegen`; do not edit.
//!
//! Run a model's own computer tool call as the vendor defined it, and answer what goes back to the
//! model: anthropic takes the computer tool definition and the tool_use input; openai one
//! computer_call action or a batch. Coordinates are in the declared display size, scaled to the
//! screen; the screenshot is taken once the screen settled and is scaled back. target: desktop
//! (default) or browser (the session's tab).

// The contract's docs quote URLs as examples, not as links.
#![allow(rustdoc::bare_urls)]

use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use super::{keys, Element, Missing, Params, Region};

/// One of `desktop`, `browser`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    #[serde(rename = "desktop")]
    Desktop,
    #[serde(rename = "browser")]
    Browser,
}

impl Target {
    /// The word the wire carries.
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Desktop => "desktop",
            Target::Browser => "browser",
        }
    }
}

/// What every `native` action takes besides its own params: `target`.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct Common {
    /// where the actions go: desktop (the default: real input on the whole screen) or browser (the
    /// session's tab through DevTools, coordinates in its viewport). One of `desktop`, `browser`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
}

/// What the daemon reads of any `native` action's params before its handler runs.
pub trait Shared {
    fn common(&self) -> &Common;
    /// The ref the action's locator names, if it names one.
    fn named_ref(&self) -> Option<&str>;
}

/// `native.anthropic`: run one action of Anthropic's computer tool (tool, input); returns content
/// (text and a base64 image block) and is_error, ready for a tool_result. Mutating (actor role); a
/// capture follows unless the call says capture false.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Anthropic", into = "wire::Anthropic")]
pub struct Anthropic {
    /// **Required.** the tool definition the model was given: type (computer_20250124,
    /// computer_20251124, a computer_toolset_20260801 member), display_width_px, display_height_px,
    /// and optionally display_number and enable_zoom.
    pub tool: serde_json::Map<String, serde_json::Value>,
    /// **Required.** the model's tool_use.input, verbatim: action and its coordinate, text,
    /// scroll_direction, scroll_amount, duration, region, start_coordinate.
    pub input: serde_json::Map<String, serde_json::Value>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Anthropic {
    /// The required params; every other one at the table's default.
    pub fn new(
        tool: serde_json::Map<String, serde_json::Value>,
        input: serde_json::Map<String, serde_json::Value>,
    ) -> Self {
        Anthropic { tool, input, common: Common::default() }
    }
}

impl Params for Anthropic {
    const TOOL: &'static str = "native";
    const ACTION: &'static str = "anthropic";
    type Result = crate::results::native::Anthropic;
}

impl Shared for Anthropic {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// `native.openai`: run OpenAI computer_call actions (action, or actions in order); returns output
/// (a computer_screenshot with a data: URL), acknowledged_safety_checks, and the index of the
/// action that failed. Mutating (actor role); a capture follows unless the call says capture false.
/// `action` and `actions` are exclusive.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(try_from = "wire::Openai", into = "wire::Openai")]
pub struct Openai {
    /// one computer_call action as the model sent it (type click, double_click, drag, keypress,
    /// move, scroll, type, wait or screenshot); direct calls only: in tools.call, action names the
    /// tool's action, so a single one goes in actions.
    pub action: Option<serde_json::Map<String, serde_json::Value>>,
    /// a batch of computer_call actions, run in order until the first that fails.
    pub actions: Option<Vec<serde_json::Map<String, serde_json::Value>>>,
    /// the computer tool definition the model was given (display_width, display_height); without it
    /// the screenshot is the screen's own size.
    pub tool: Option<serde_json::Map<String, serde_json::Value>>,
    /// the computer_call's pending_safety_checks, answered back as acknowledged_safety_checks.
    pub pending_safety_checks: Option<Vec<serde_json::Map<String, serde_json::Value>>>,
    /// The params every action of the tool takes.
    pub common: Common,
}

impl Default for Openai {
    /// Every param at the table's default.
    fn default() -> Self {
        Openai {
            action: None,
            actions: None,
            tool: None,
            pending_safety_checks: None,
            common: Common::default(),
        }
    }
}

impl Params for Openai {
    const TOOL: &'static str = "native";
    const ACTION: &'static str = "openai";
    type Result = crate::results::native::Openai;
}

impl Shared for Openai {
    fn common(&self) -> &Common {
        &self.common
    }

    fn named_ref(&self) -> Option<&str> {
        None
    }
}

/// Every action's params struct by action name, read from a checked call and written back (for the tests).
pub static ROUND_TRIPS: &[(&str, super::RoundTrip)] =
    &[("anthropic", super::round_trip::<Anthropic>), ("openai", super::round_trip::<Openai>)];

/// Every action's result schema by action name (`crate::results::native`).
pub static RESULT_SCHEMAS: &[(&str, super::ResultSchema)] = &[
    ("anthropic", <Anthropic as Params>::result_schema),
    ("openai", <Openai as Params>::result_schema),
];

/// The flat JSON shape of each action's params, as the wire has it: what the typed structs serialize to and deserialize from.
#[doc(hidden)]
pub mod wire {
    use serde::{Deserialize, Serialize};

    #[allow(unused_imports)]
    use super::super::{keys, Element, Missing, Region};
    #[allow(unused_imports)]
    use super::*;

    #[derive(Serialize, Deserialize, Default)]
    pub struct Anthropic {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub tool: Option<serde_json::Map<String, serde_json::Value>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub input: Option<serde_json::Map<String, serde_json::Value>>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Anthropic> for Anthropic {
        fn from(v: super::Anthropic) -> Self {
            Anthropic { tool: Some(v.tool), input: Some(v.input), common: v.common }
        }
    }

    impl TryFrom<Anthropic> for super::Anthropic {
        type Error = Missing;

        fn try_from(w: Anthropic) -> Result<Self, Missing> {
            Ok(super::Anthropic {
                tool: w.tool.ok_or(Missing("tool"))?,
                input: w.input.ok_or(Missing("input"))?,
                common: w.common,
            })
        }
    }

    #[derive(Serialize, Deserialize, Default)]
    pub struct Openai {
        #[serde(skip_serializing_if = "Option::is_none")]
        pub action: Option<serde_json::Map<String, serde_json::Value>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub actions: Option<Vec<serde_json::Map<String, serde_json::Value>>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub tool: Option<serde_json::Map<String, serde_json::Value>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub pending_safety_checks: Option<Vec<serde_json::Map<String, serde_json::Value>>>,
        #[serde(flatten)]
        pub common: Common,
    }

    impl From<super::Openai> for Openai {
        fn from(v: super::Openai) -> Self {
            Openai {
                action: v.action,
                actions: v.actions,
                tool: v.tool,
                pending_safety_checks: v.pending_safety_checks,
                common: v.common,
            }
        }
    }

    impl TryFrom<Openai> for super::Openai {
        type Error = Missing;

        fn try_from(w: Openai) -> Result<Self, Missing> {
            Ok(super::Openai {
                action: w.action,
                actions: w.actions,
                tool: w.tool,
                pending_safety_checks: w.pending_safety_checks,
                common: w.common,
            })
        }
    }
}
