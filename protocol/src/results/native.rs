//! Typed results of the `native` tool: what goes back to the model in the vendor's own shape
//! (Anthropic's tool_result content, OpenAI's computer_call_output), checked in the tests
//! against the vendors' published SDK types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One block of an Anthropic tool_result's content.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    /// Words for the model: a cursor position, an error's one-line reason.
    Text {
        /// The text.
        text: String,
    },
    /// The settled screen (or a zoomed region) as a base64 image.
    Image {
        /// Where the image's bytes are.
        source: ImageSource,
    },
}

/// A base64 image source (`{"type": "base64", "media_type": "image/png", "data": ...}`).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct ImageSource {
    /// Always `base64`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `image/png`.
    pub media_type: String,
    /// The image, base64.
    pub data: String,
}

/// `native.anthropic`: a tool_result's `content` and `is_error`, as they go to the model.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Anthropic {
    /// Text blocks and at most one image block, in the order the model reads them.
    pub content: Vec<Block>,
    /// The action was refused or failed; the text block says why in one line.
    pub is_error: bool,
    /// The action the input named, as the model named it (`left_click`, ...).
    pub action: String,
}

/// An OpenAI `computer_screenshot`: the settled screen as a `data:` URL.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Screenshot {
    /// Always `computer_screenshot`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `data:image/png;base64,...`.
    pub image_url: String,
}

/// The action of a batch that failed; the ones after it did not run.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Failed {
    /// Its index in the batch (0 for a single action).
    pub index: usize,
    /// Its `type`, as the model sent it.
    #[serde(rename = "type")]
    pub kind: String,
    /// Why, in one line.
    pub reason: String,
}

/// `native.openai`: the `output` of a computer_call_output, the safety checks to acknowledge,
/// and how far the batch went.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Openai {
    /// The computer_call_output's `output`.
    pub output: Screenshot,
    /// The pending_safety_checks the call carried, to send back as acknowledged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acknowledged_safety_checks: Vec<Map<String, Value>>,
    /// How many actions ran to the end.
    pub ran: usize,
    /// The action that failed, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<Failed>,
}
