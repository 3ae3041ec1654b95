//! Human documentation generated from the contract table: the JSON returned by
//! `context.documentation`, the markdown reference in `docs/protocol.md`, the OpenRPC document
//! and the contract version hash.

use serde_json::{json, Value};

use super::schema::{action_schema, param_schema, tool_description, tool_schema};
use super::spec::{Action, Tool, Ty};
use super::TOOLS;
use crate::error::ErrorCode;
use crate::methods::METHODS;
use crate::wire::OP_KEYS;

/// Rules every client must know, stated once.
pub const RULES: &[(&str, &str)] = &[
    ("identity", "ids are discovered, never guessed: browser_id chrome-<port>, tab_id stable for the tab's life, app_id app:<pid>, window_id stable for the window's life; omitted ids fall back to the session's selection and every result echoes the target it used"),
    ("outline", "a snapshot is an outline, one element per line, two spaces per level: role \"name\" [eN], then @x,y wxh when it shows in the viewport or on screen (hidden content is not listed; content scrolled out of its box has no box), value=\"...\" and (states); a control with no name of its own is named by its icon (aria-label, title, alt, SVG title or icon class) and an element that only acts like one is clickable \"hint\"; an option whose value differs from its label shows value=\"...\", and select takes either; incremental snapshots list only lines that are new (+ ) or changed (~ ), each run under an in line naming its nearest unchanged ancestor, plus removed_refs (the first 50; removed_count says how many); a box that moved or resized by under 4 px is not a change"),
    ("values", "names and values are JSON strings; a value is exact (whitespace, newlines and quotes escaped, nothing trimmed) up to 200 characters in a page and 100 on the desktop; a longer one shows its first characters then …(N chars) with N the whole length, e.g. value=\"abc\"…(5000 chars); browser.get_content {ref} and computer.get_text {ref} read the whole"),
    ("views", "a snapshot with query or scope_ref, or of one window of an app, is a view (view says which): the next plain snapshot still diffs against the previous plain one, and refs the view does not show keep working; query words match case-insensitively in any order: a line matches when it holds a word and every word is in it or its ancestors' lines (query_match all), else lines holding any word are returned (query_match any); each comes with its ancestors and the controls of its row"),
    ("refs", "refs eN come from a snapshot, belong to the session, survive for unchanged elements, and fail with STALE_REF once the element is gone or the page navigated; a ref from an older snapshot than the one named is SNAPSHOT_MISMATCH"),
    ("coordinates", "desktop x,y are screen pixels, browser x,y are CSS viewport pixels; nx,ny in [0,1] are fractions of the screen or viewport; every screenshot states width, height, scale and coordinate_space"),
    ("timing", "every call is an op with op_id and timeout_ms (default 30000, max 180000); re-sending an op_id within 10 minutes returns the first outcome; timeout is a readiness deadline, duration_ms a fixed pause"),
    ("results", "each action's returns is its result's shape (field?: may be absent or null); a browser action's result may also name what it caused: navigation_blocked [{url, rule, tab_id}], opened_tabs [{tab_id, url}], downloads [{path, url, bytes, state, reason?}], navigated_to; every result's whole JSON Schema is in OpenRPC and tools.list {per_action: true}"),
    ("validation", "a call that breaks the contract is refused with CONTRACT_VIOLATION before any side effect; details.field names the parameter"),
];

/// The contract as data (`context.documentation`).
pub fn documentation() -> Value {
    let tools: Vec<Value> = TOOLS.iter().map(|t| tool_doc(t)).collect();
    let rules: serde_json::Map<String, Value> =
        RULES.iter().map(|(k, v)| ((*k).to_owned(), Value::from(*v))).collect();
    let errors: Vec<Value> = ErrorCode::ALL
        .iter()
        .map(|c| json!({"code": c.as_str(), "rpc_code": c.rpc_code(), "meaning": c.meaning()}))
        .collect();
    json!({
        "protocol": crate::PROTOCOL_VERSION,
        "contract_version": contract_version(),
        "tools": tools,
        "rules": rules,
        "errors": errors,
        "op_keys": OP_KEYS,
    })
}

fn tool_doc(tool: &Tool) -> Value {
    let actions: Vec<Value> = tool
        .actions
        .iter()
        .map(|a| {
            let names = |ps: &[super::spec::Param]| ps.iter().map(|p| p.name).collect::<Vec<_>>();
            let allow_empty: Vec<&str> = a
                .own_params()
                .filter(|p| matches!(p.ty, Ty::Str { allow_empty: true }))
                .map(|p| p.name)
                .collect();
            json!({
                "name": a.name,
                "summary": a.summary,
                "mutating": a.class.mutating(),
                "actor_only": a.class.actor_only(),
                "required": names(a.required),
                "optional": names(a.optional),
                "target": a.locator.describe(&tool.element_key_names()),
                "exclusive": a.exclusive,
                "allow_empty": allow_empty,
                "facts": facts(a),
                "returns": crate::results::own_schema(tool.name, a.name)
                    .map(|s| crate::results::signature(&s)),
            })
        })
        .collect();
    let params: serde_json::Map<String, Value> = TOOLS
        .iter()
        .filter(|t| t.name == tool.name)
        .flat_map(|t| t.actions.iter().flat_map(|a| t.accepted(a)))
        .map(|p| (p.name.to_owned(), param_schema(p)))
        .collect();
    json!({
        "name": tool.name,
        "description": tool.description,
        "common_parameters": tool.common.iter().map(|p| p.name).collect::<Vec<_>>(),
        "element_keys": tool.element_key_names(),
        "actions": actions,
        "parameters": params,
    })
}

/// What the daemon does around an action, from its entry: the settle (and capture) after it,
/// what the approval policy singles out, the backend it needs and the events it may lead to.
pub fn facts(a: &Action) -> Value {
    json!({
        "settle": a.settle.map(|k| k.name()),
        "captures": a.captures(),
        "approval": a.gate.map(|g| g.name()),
        "backend": a.backend.name(),
        "events": a.events,
    })
}

/// A short stable hash of everything a client depends on. Every `session.hello` answers it,
/// so it is worked out once: building every tool's schema took about 2 ms, most of the
/// daemon's work under a flood of connections.
pub fn contract_version() -> String {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(hash_contract).clone()
}

fn hash_contract() -> String {
    let mut text = String::new();
    for tool in TOOLS {
        text.push_str(&tool_schema(tool).to_string());
        text.push_str(&tool_description(tool));
        for a in tool.actions {
            text.push_str(&facts(a).to_string());
            let result = crate::results::schema(tool.name, a.name).unwrap_or_default();
            text.push_str(&result.to_string());
        }
    }
    for m in METHODS {
        text.push_str(m.name);
        for p in m.params {
            text.push_str(p.name);
            text.push_str(p.json_type);
        }
        text.push_str(&(m.result)().to_string());
    }
    // FNV-1a: stable across Rust versions, unlike DefaultHasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The OpenRPC document served by `rpc.discover`.
pub fn openrpc(daemon_version: &str) -> Value {
    let mut methods: Vec<Value> = METHODS
        .iter()
        .map(|m| {
            let params: Vec<Value> = m
                .params
                .iter()
                .map(|p| {
                    json!({"name": p.name, "required": p.required, "description": p.doc,
                           "schema": {"type": p.json_type}})
                })
                .collect();
            json!({"name": m.name, "summary": m.summary, "paramStructure": "by-name",
                   "params": params, "result": {"name": "result", "schema": (m.result)()}})
        })
        .collect();
    for tool in TOOLS {
        for action in tool.actions {
            let schema = action_schema(tool, action);
            let required = &schema["required"];
            let mut params: Vec<Value> = schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, s)| {
                    let req = required.as_array().is_some_and(|r| r.iter().any(|x| x == name));
                    json!({"name": name, "required": req, "schema": s})
                })
                .collect();
            for (name, schema) in super::schema::op_key_schemas() {
                params.push(json!({"name": name, "schema": schema}));
            }
            methods.push(json!({
                "name": tool.method(action),
                "summary": action.summary,
                "paramStructure": "by-name",
                "params": params,
                "result": {"name": "outcome", "schema": super::schema::outcome_schema(tool, action)},
                "x-glovebox": facts(action),
            }));
        }
    }
    json!({
        "openrpc": "1.3.2",
        "info": {"title": "gloveboxd", "version": daemon_version,
                 "x-contract-version": contract_version()},
        "methods": methods,
    })
}

/// The generated part of `docs/protocol.md`: every method, every action, every error code.
pub fn reference_markdown() -> String {
    let mut out = String::from("## Methods\n\n| method | who | what |\n| --- | --- | --- |\n");
    for m in METHODS {
        out.push_str(&format!("| `{}` | {:?} | {} |\n", m.name, m.access, m.summary));
    }
    for tool in TOOLS {
        out.push_str(&format!("\n## Tool `{}`\n\n{}\n\n", tool.name, tool.description));
        if !tool.common.is_empty() {
            let common: Vec<String> = tool.common.iter().map(|p| format!("`{}`", p.name)).collect();
            out.push_str(&format!("Every action also accepts {}.\n\n", common.join(", ")));
        }
        out.push_str("| action | target | required | optional | settles | does |\n");
        out.push_str("| --- | --- | --- | --- | --- | --- |\n");
        for a in tool.actions {
            let list = |ps: &[super::spec::Param]| {
                ps.iter().map(|p| format!("`{}`", p.name)).collect::<Vec<_>>().join(", ")
            };
            let target = a.locator.describe(&tool.element_key_names()).unwrap_or_default();
            let settles = a.settle.map(|k| k.name()).unwrap_or("no");
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} |\n",
                a.name,
                target,
                list(a.required),
                list(a.optional),
                settles,
                a.summary
            ));
        }
    }
    out.push_str("\n## Error codes\n\n| data.code | error.code | meaning |\n| --- | --- | --- |\n");
    for c in ErrorCode::ALL {
        out.push_str(&format!("| `{}` | {} | {} |\n", c.as_str(), c.rpc_code(), c.meaning()));
    }
    out
}
