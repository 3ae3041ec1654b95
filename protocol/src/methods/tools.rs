//! `tools.*`: the tools as LLM runtimes see them, and a call of one.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{mp, Access, Method, MethodParam};
use crate::wire::{ToolCallParams, ToolInfo};

/// `tools.list`.
pub struct List;

/// `tools.list` params.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListParams {
    /// Also list each tool's actions with their own schemas.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub per_action: bool,
}

/// `tools.list` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ToolList {
    pub tools: Vec<ToolInfo>,
}

impl Method for List {
    const NAME: &'static str = "tools.list";
    const SUMMARY: &'static str =
        "the tools as LLM runtimes expect them: name, description, inputSchema, outputSchema";
    const ACCESS: Access = Access::Read;
    const PARAMS: &'static [MethodParam] = &[mp(
        "per_action",
        "boolean",
        false,
        "also list each tool's actions, each with its inputSchema and the outputSchema of its typed result",
    )];
    type Params = ListParams;
    type Result = ToolList;
}

/// `tools.call`: its result is MCP's `{content, structuredContent, isError}`.
pub struct Call;

impl Method for Call {
    const NAME: &'static str = "tools.call";
    const SUMMARY: &'static str = "run one tool action; MCP-shaped result";
    const ACCESS: Access = Access::PerAction;
    const PARAMS: &'static [MethodParam] = &[
        mp("name", "string", true, "tool name: context, browser or computer"),
        mp("arguments", "object", true, "the action and its parameters"),
        mp("op_id", "string", false, "idempotency key; re-sent within 10 min: same outcome"),
        mp("timeout_ms", "integer", false, "op deadline in ms (default 30000, max 180000)"),
        mp("capture", "boolean", false, "false: no screenshot after a state change"),
    ];
    type Params = ToolCallParams;
    type Result = Value;
}
