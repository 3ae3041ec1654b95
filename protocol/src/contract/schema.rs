//! JSON Schemas generated from the contract table.
//!
//! Two views of one table: the flat per-tool schema LLM runtimes get from `tools.list` (root
//! object, `additionalProperties: false`, an `action` enum, no top-level `oneOf`) and a
//! per-action schema for the direct `<tool>.<action>` methods.

use serde_json::{json, Map, Value};

use super::spec::{Action, IdKind, Locator, Param, Tool, Ty};

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
        Ty::Object => json!({"type": "object"}),
        Ty::ObjectList => json!({"type": "array", "items": {"type": "object"}}),
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

/// One line per action for the tool description, as a signature:
/// `- click(ref|selector|x,y|nx,ny, button?, click_count?): <summary>`; `?` marks what may
/// be left out. Params the tool's own description explains (`dispatch`, the drop point) are
/// not repeated on every line.
pub fn action_line(tool: &Tool, action: &Action) -> String {
    let el = tool.element_key_names().join("|");
    let target = match action.locator {
        Locator::None => None,
        Locator::Element => Some(el),
        Locator::ElementOptional => Some(format!("{el}?")),
        Locator::ElementOrPoint => Some(format!("{el}|x,y|nx,ny")),
        Locator::AnyOptional => Some(format!("{el}|x,y|nx,ny?")),
        Locator::Point => Some("x,y|nx,ny".to_owned()),
        Locator::PointOptional => Some("x,y|nx,ny?".to_owned()),
    };
    let required = action.required.iter().map(|p| p.name.to_owned());
    let optional = action
        .optional
        .iter()
        .filter(|p| !names_word(tool.description, p.name))
        .map(|p| format!("{}?", p.name));
    let params: Vec<String> = target.into_iter().chain(required).chain(optional).collect();
    format!("- {}({}): {}", action.name, params.join(", "), short_summary(action.summary))
}

/// The flat view's spelling of a param schema: an enum needs no type, a whole bound no `.0`,
/// "not empty" / "no whitespace" and the bounds of an object's fields (a region's, whose
/// description names them) are left to validation, whose refusal names the field (each
/// action's own schema keeps them).
fn compact(s: &mut Value) {
    let Some(obj) = s.as_object_mut() else { return };
    if obj.get("type").and_then(Value::as_str) == Some("object") && obj.contains_key("properties") {
        for key in ["properties", "required", "additionalProperties"] {
            obj.remove(key);
        }
    }
    if obj.contains_key("enum") {
        obj.remove("type");
    }
    if obj.get("pattern").and_then(Value::as_str) == Some("^\\S+$") {
        obj.remove("pattern");
    }
    obj.remove("minLength");
    // A flag is off unless given; only the ones that default to on say so.
    if obj.get("default") == Some(&Value::Bool(false)) {
        obj.remove("default");
    }
    // No bound is a bound the JSON integer type already has.
    if obj.get("maximum").and_then(Value::as_i64) == Some(i64::from(i32::MAX)) {
        obj.remove("maximum");
    }
    for key in ["minimum", "maximum"] {
        if let Some(n) = obj.get(key).and_then(Value::as_f64) {
            if n.fract() == 0.0 && n.abs() < 1e15 {
                obj.insert(key.into(), Value::from(n as i64));
            }
        }
    }
}

/// Whether `text` has `word` as a whole word.
fn names_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == word)
}

/// The head of an action's summary for `tools.list`, which every host sends to its model on
/// every turn: without asides in parentheses, up to the first `; `. The whole summary is in
/// `context.documentation` and OpenRPC.
pub fn short_summary(summary: &str) -> String {
    let plain = without_asides(summary);
    // What follows a `: ` past the first word lists what comes back: the result's fields.
    let fields = plain.match_indices(": ").map(|(i, _)| i).find(|&i| plain[..i].contains(' '));
    let cut = [plain.find("; "), fields].into_iter().flatten().min();
    cut.map_or(plain.clone(), |i| plain[..i].to_owned())
}

/// `text` without its ` (…)` asides.
pub fn without_asides(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ").replace(" ,", ",").replace(" ;", ";")
}

/// What a tool call's `structuredContent` holds (the outcome without image data), compact:
/// each action's own `result` is described in `context.documentation`, not here. Nothing
/// is required, so a failure's `{error}` fits it too.
pub fn tool_output_schema(tool: &Tool) -> Value {
    let obj = json!({"type": "object"});
    json!({"type": "object", "properties": {
        "tool": {"const": tool.name}, "op_id": {"type": "string"}, "result": obj, "error": obj,
    }})
}

/// What `tool.action` answers on success, the op's outcome, with the action's own result
/// schema (`crate::results::schema`) in `result`: OpenRPC's view of the direct method.
pub fn outcome_schema(tool: &Tool, action: &Action) -> Value {
    let result = crate::results::schema(tool.name, action.name).unwrap_or_else(|| json!({}));
    let obj = |doc: &str| json!({"type": "object", "description": doc});
    json!({
        "type": "object",
        "required": ["op_id", "tool", "action", "result", "timing"],
        "properties": {
            "op_id": {"type": "string", "description": "the op's id; re-sending it replays this outcome"},
            "tool": {"const": tool.name},
            "action": {"const": action.name},
            "target": obj("what the call acted on: its ids and where they came from"),
            "result": result,
            "settle": obj("how the screen settled before the capture: reason, waited_ms, what the wait covered"),
            "capture": obj("the screenshot taken once the screen settled; with capture auto, sent and why"),
            "changes": obj("with capture auto: the incremental outline of what the action changed"),
            "no_capture": {"type": "string", "description": "why a state-changing action came back without a capture"},
            "tokens": obj("the outcome's size in model tokens: text and image"),
            "timing": obj("exec_ms, settle_ms and capture_ms"),
        },
    })
}

/// Every action of `tool` with its own input schema and its outcome's schema
/// (`tools.list {per_action: true}`).
pub fn action_infos(tool: &Tool) -> Vec<crate::wire::ActionInfo> {
    tool.actions
        .iter()
        .map(|a| crate::wire::ActionInfo {
            name: a.name.into(),
            description: a.summary.into(),
            input_schema: action_schema(tool, a),
            output_schema: outcome_schema(tool, a),
        })
        .collect()
}

/// The tool description shown to the LLM: purpose, every action, the common parameters.
pub fn tool_description(tool: &Tool) -> String {
    let mut out = format!("{}\nActions:\n", tool.description);
    for action in tool.actions {
        out.push_str(&action_line(tool, action));
        out.push('\n');
    }
    let common: Vec<&str> = tool
        .common
        .iter()
        .map(|p| p.name)
        .filter(|name| !names_word(tool.description, name))
        .collect();
    if !common.is_empty() {
        out.push_str(&format!("Every action also accepts: {}.\n", common.join(", ")));
    }
    out
}

/// The flat schema of a whole tool (`tools.list` inputSchema).
pub fn tool_schema(tool: &Tool) -> Value {
    let mut props = Map::new();
    let names: Vec<&str> = tool.actions.iter().map(|a| a.name).collect();
    props.insert("action".into(), json!({"enum": names}));
    for action in tool.actions {
        for param in tool.accepted(action) {
            if props.contains_key(param.name) {
                continue;
            }
            let mut s = param_schema(param);
            // The head of the doc only (the whole is in each action's schema); which actions
            // take it is on each action's line of the tool description.
            // A param the tool's description explains (coordinates, the common ids) is
            // explained once, there.
            if names_word(tool.description, param.name) {
                if let Some(obj) = s.as_object_mut() {
                    obj.remove("description");
                }
            } else {
                s["description"] = Value::from(without_asides(param.doc));
            }
            compact(&mut s);
            // In the flat view one name serves several actions: keep the loosest string rule.
            if let Some(obj) = s.as_object_mut() {
                if tool.actions.iter().any(|a| allows_empty(tool, a, param.name)) {
                    obj.remove("minLength");
                    // A flag is off unless given; only the ones that default to on say so.
                    if obj.get("default") == Some(&Value::Bool(false)) {
                        obj.remove("default");
                    }
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
        "type": "object",
        "additionalProperties": false,
        "required": ["action"],
        "properties": props,
    })
}

/// The op keys as tool arguments: what an MCP host (which sends nothing beside the
/// arguments) passes to make a call idempotent, bound it, or skip its capture.
pub fn op_key_schemas() -> [(&'static str, Value); 5] {
    [
        ("op_id", json!({"type": "string", "description": "idempotency key: a re-send replays"})),
        (
            "timeout_ms",
            json!({"type": "integer", "minimum": 1, "maximum": crate::wire::MAX_TIMEOUT_MS, "description": "deadline of the whole call (default 30000)"}),
        ),
        (
            "capture",
            json!({"enum": [true, false, "auto"], "description": "auto: image if text misses a change"}),
        ),
        (
            "follow",
            json!({"type": "boolean", "description": "move the session to a tab the action opens"}),
        ),
        (
            "session",
            json!({"type": "string", "description": "stateless MCP: a result's session, or new"}),
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
