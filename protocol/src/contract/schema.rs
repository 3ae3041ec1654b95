//! JSON Schemas generated from the contract table.
//!
//! Two views of one table: the flat per-tool schema LLM runtimes get from `tools.list` (root
//! object, `additionalProperties: false`, an `action` enum, no top-level `oneOf`) and a
//! per-action schema for the direct `<tool>.<action>` methods.

use serde_json::{json, Map, Value};

use super::spec::{Action, IdKind, Param, Tool, Ty};

pub const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The schema of one parameter value.
pub fn param_schema(param: &Param) -> Value {
    let mut s = match param.ty {
        Ty::Str { allow_empty: true } => json!({"type": "string"}),
        Ty::Str { allow_empty: false } => json!({"type": "string", "minLength": 1}),
        Ty::Url => json!({"type": "string", "minLength": 1, "format": "uri"}),
        Ty::Id(kind) => {
            let pattern = match kind {
                IdKind::Browser => "^chrome-[1-9][0-9]{0,4}$",
                IdKind::App => "^app:[0-9]+$",
                IdKind::Token => "^\\S+$",
            };
            json!({"type": "string", "pattern": pattern})
        }
        Ty::Int { min, max } => json!({"type": "integer", "minimum": min, "maximum": max}),
        Ty::Num { min, max } => json!({"type": "number", "minimum": min, "maximum": max}),
        Ty::Bool => json!({"type": "boolean"}),
        Ty::Enum(values) => json!({"type": "string", "enum": values}),
        Ty::StrList => {
            json!({"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}})
        }
        Ty::Region => json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["x", "y", "width", "height"],
            "properties": {
                "x": {"type": "integer", "minimum": 0, "maximum": 65535},
                "y": {"type": "integer", "minimum": 0, "maximum": 65535},
                "width": {"type": "integer", "minimum": 1, "maximum": 65535},
                "height": {"type": "integer", "minimum": 1, "maximum": 65535},
            },
        }),
    };
    s["description"] = Value::from(param.doc);
    if let Some(d) = param.default {
        s["default"] = d.to_json();
    }
    s
}

/// One line per action for the tool description: `- click: ... [target: ...; optional ...]`.
pub fn action_line(tool: &Tool, action: &Action) -> String {
    let mut parts = Vec::new();
    if let Some(t) = action.locator.describe(&tool.element_key_names()) {
        parts.push(t);
    }
    let req: Vec<&str> = action.required.iter().map(|p| p.name).collect();
    if !req.is_empty() {
        parts.push(format!("required {}", req.join(", ")));
    }
    let opt: Vec<&str> = action.optional.iter().map(|p| p.name).collect();
    if !opt.is_empty() {
        parts.push(format!("optional {}", opt.join(", ")));
    }
    if parts.is_empty() {
        format!("- {}: {}", action.name, action.summary)
    } else {
        format!("- {}: {} [{}]", action.name, action.summary, parts.join("; "))
    }
}

/// The tool description shown to the LLM: purpose, every action, the common parameters.
pub fn tool_description(tool: &Tool) -> String {
    let mut out = format!("{}\nActions:\n", tool.description);
    for action in tool.actions {
        out.push_str(&action_line(tool, action));
        out.push('\n');
    }
    if !tool.common.is_empty() {
        let common: Vec<&str> = tool.common.iter().map(|p| p.name).collect();
        out.push_str(&format!("Every action also accepts: {}.\n", common.join(", ")));
    }
    out
}

/// The flat schema of a whole tool (`tools.list` inputSchema).
pub fn tool_schema(tool: &Tool) -> Value {
    let mut props = Map::new();
    let names: Vec<&str> = tool.actions.iter().map(|a| a.name).collect();
    props.insert(
        "action".into(),
        json!({"type": "string", "enum": names, "description": "what to do; see the tool description"}),
    );
    for action in tool.actions {
        for param in tool.accepted(action) {
            if props.contains_key(param.name) {
                continue;
            }
            let mut s = param_schema(param);
            let users: Vec<&str> = tool
                .actions
                .iter()
                .filter(|a| tool.accepted(a).iter().any(|p| p.name == param.name))
                .map(|a| a.name)
                .collect();
            if users.len() < tool.actions.len() {
                let doc = format!("{} (for {})", param.doc, users.join(", "));
                s["description"] = Value::from(doc);
            }
            // In the flat view one name serves several actions: keep the loosest string rule.
            if let Some(obj) = s.as_object_mut() {
                if tool.actions.iter().any(|a| allows_empty(tool, a, param.name)) {
                    obj.remove("minLength");
                }
                if param.default.is_some() && !same_default_everywhere(tool, param) {
                    obj.remove("default");
                }
            }
            props.insert(param.name.into(), s);
        }
    }
    for (name, schema) in op_key_schemas() {
        props.insert(name.into(), schema);
    }
    json!({
        "$schema": DRAFT,
        "title": tool.name,
        "type": "object",
        "additionalProperties": false,
        "required": ["action"],
        "properties": props,
    })
}

/// The op keys as tool arguments: what an MCP host (which sends nothing beside the
/// arguments) passes to make a call idempotent, bound it, or skip its capture.
pub fn op_key_schemas() -> [(&'static str, Value); 4] {
    [
        (
            "op_id",
            json!({"type": "string", "description": "idempotency key: re-sending it returns the first outcome"}),
        ),
        (
            "timeout_ms",
            json!({"type": "integer", "minimum": 1, "maximum": crate::wire::MAX_TIMEOUT_MS, "description": "deadline of the whole call (default 30000)"}),
        ),
        (
            "capture",
            json!({"type": "boolean", "description": "false: no screenshot after a state change"}),
        ),
        (
            "follow",
            json!({"type": "boolean", "description": "when the action opens a tab, move the session to it"}),
        ),
    ]
}

fn allows_empty(tool: &Tool, action: &Action, name: &str) -> bool {
    tool.accepted(action)
        .iter()
        .any(|p| p.name == name && matches!(p.ty, Ty::Str { allow_empty: true }))
}

fn same_default_everywhere(tool: &Tool, param: &Param) -> bool {
    tool.actions.iter().all(|a| {
        tool.accepted(a).iter().filter(|p| p.name == param.name).all(|p| p.default == param.default)
    })
}

/// The schema of one action's params (direct method view).
pub fn action_schema(tool: &Tool, action: &Action) -> Value {
    let mut props = Map::new();
    for param in tool.accepted(action) {
        props.insert(param.name.into(), param_schema(param));
    }
    let required: Vec<&str> = action.required.iter().map(|p| p.name).collect();
    json!({
        "$schema": DRAFT,
        "title": tool.method(action),
        "description": action.summary,
        "type": "object",
        "additionalProperties": false,
        "required": required,
        "properties": props,
    })
}
