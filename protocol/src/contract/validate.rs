//! The validator: every call is checked against its contract entry before any side effect.
//!
//! The checks run in a fixed order (action, unknown parameters, types and ranges, required,
//! locator, exclusive pairs, action rules) so the first problem reported is always the most
//! basic one. Defaults are filled in only after the call has passed.

use serde_json::{Map, Value};

use super::spec::{Action, IdKind, Locator, Param, Tool, Ty};

/// Why a call was refused: the parameter at fault and what to do about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The parameter at fault (`action` for an unknown action).
    pub field: String,
    /// One sentence: what is wrong and what to send instead.
    pub message: String,
    /// Every offending parameter when there are several (unknown parameters).
    pub fields: Vec<String>,
}

impl Violation {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        let field = field.into();
        Violation { fields: vec![field.clone()], field, message: message.into() }
    }
}

/// A call that passed the contract: its action and its arguments with defaults filled in.
#[derive(Debug, Clone)]
pub struct Checked {
    pub tool: &'static Tool,
    pub action: &'static Action,
    pub args: Map<String, Value>,
}

/// Validate a `tools.call`-shaped argument object (`action` inside).
pub fn validate_tool_call(tool: &'static Tool, args: &Value) -> Result<Checked, Violation> {
    let Some(obj) = args.as_object() else {
        return Err(Violation::new("arguments", "arguments must be a JSON object"));
    };
    let name = match obj.get("action") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_ascii_lowercase(),
        Some(Value::String(_)) | None | Some(Value::Null) => {
            return Err(Violation::new(
                "action",
                format!("action is required; one of: {}", action_names(tool)),
            ))
        }
        Some(_) => return Err(Violation::new("action", "action must be a string")),
    };
    let Some(action) = tool.action(&name) else {
        return Err(Violation::new(
            "action",
            format!("unknown {} action \"{name}\"; use one of: {}", tool.name, action_names(tool)),
        ));
    };
    let mut rest = obj.clone();
    rest.remove("action");
    validate_action(tool, action, rest)
}

/// Validate the params of a direct `<tool>.<action>` call.
pub fn validate_direct(
    tool: &'static Tool,
    action: &'static Action,
    params: &Value,
) -> Result<Checked, Violation> {
    let obj = match params {
        Value::Object(m) => m.clone(),
        Value::Null => Map::new(),
        _ => return Err(Violation::new("params", "params must be a JSON object (by name)")),
    };
    // `action` is the discriminator of `tools.call`; a direct call names its action in the
    // method, so only an action with a param of that name (a vendor's own shape) takes one.
    let own_action = action.own_params().any(|p| p.name == "action");
    if obj.contains_key("action") && !own_action {
        return Err(Violation::new(
            "action",
            format!("{} already names the action; drop the action parameter", tool.method(action)),
        ));
    }
    validate_action(tool, action, obj)
}

fn action_names(tool: &Tool) -> String {
    tool.actions.iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
}

fn validate_action(
    tool: &'static Tool,
    action: &'static Action,
    mut args: Map<String, Value>,
) -> Result<Checked, Violation> {
    let accepted = tool.accepted(action);
    let method = tool.method(action);

    // Unknown names are refused whatever their value, null included: a null only stands for
    // "not given" for a parameter the action takes.
    let mut unknown: Vec<String> =
        args.keys().filter(|k| !accepted.iter().any(|p| p.name == k.as_str())).cloned().collect();
    if !unknown.is_empty() {
        unknown.sort();
        let takes: Vec<&str> = accepted.iter().map(|p| p.name).collect();
        return Err(Violation {
            field: unknown[0].clone(),
            message: format!(
                "{method} does not take {}; it takes: {}",
                unknown.join(", "),
                takes.join(", ")
            ),
            fields: unknown,
        });
    }
    // An explicit null means "not given": LLM runtimes often send every key.
    args.retain(|_, v| !v.is_null());

    for param in &accepted {
        if let Some(value) = args.get(param.name) {
            check_type(param, value)?;
        }
    }

    for param in action.required {
        if !args.contains_key(param.name) {
            return Err(Violation::new(
                param.name,
                format!("{} is required for {method}: {}", param.name, param.doc),
            ));
        }
    }

    check_locator(tool, action, &args)?;

    for (a, b) in action.exclusive {
        if args.contains_key(*a) && args.contains_key(*b) {
            return Err(Violation::new(
                *b,
                format!("{a} and {b} are mutually exclusive for {method}; send only one"),
            ));
        }
    }

    for rule in action.rules {
        rule(&args)?;
    }

    for param in accepted.iter().filter(|p| matches!(p.ty, Ty::Url)) {
        if let Some(Value::String(text)) = args.get_mut(param.name) {
            if let Ok(url) = crate::url::parse_navigation(text) {
                *text = url.into();
            }
        }
    }

    // Whole numbers go on as integers (`2.0` is `2`), so typed params read them as such.
    for param in &accepted {
        match (param.ty, args.get_mut(param.name)) {
            (Ty::Int { .. }, Some(v)) => whole(v),
            (Ty::Region, Some(Value::Object(r))) => r.values_mut().for_each(whole),
            _ => {}
        }
    }

    for param in &accepted {
        if let Some(default) = param.default {
            args.entry(param.name).or_insert_with(|| default.to_json());
        }
    }
    Ok(Checked { tool, action, args })
}

/// A whole JSON number as an integer; others untouched.
fn whole(v: &mut Value) {
    if let Some(n) = v.as_f64().filter(|n| v.is_f64() && n.fract() == 0.0) {
        if n >= 0.0 && n <= u64::MAX as f64 {
            *v = Value::from(n as u64);
        } else if n >= i64::MIN as f64 && n < 0.0 {
            *v = Value::from(n as i64);
        }
    }
}

fn check_type(param: &Param, value: &Value) -> Result<(), Violation> {
    let name = param.name;
    let bad = |what: String| Err(Violation::new(name, what));
    match param.ty {
        Ty::Str { allow_empty } => match value {
            Value::String(s) if !allow_empty && s.trim().is_empty() => {
                bad(format!("{name} must not be empty: {}", param.doc))
            }
            Value::String(_) => Ok(()),
            _ => bad(format!("{name} must be a string")),
        },
        Ty::Url => match value {
            Value::String(s) => {
                crate::url::parse_navigation(s).map(|_| ()).map_err(|why| Violation::new(name, why))
            }
            _ => bad(format!("{name} must be a string URL")),
        },
        Ty::Id(kind) => match value {
            Value::String(s) => check_id(name, kind, s),
            _ => bad(format!("{name} must be a string id")),
        },
        Ty::Int { min, max } => {
            let Some(n) = value.as_f64() else {
                return bad(format!("{name} must be an integer"));
            };
            if n.fract() != 0.0 {
                return bad(format!("{name} must be a whole number, not {n}"));
            }
            if n < min as f64 || n > max as f64 {
                return bad(format!("{name} must be between {min} and {max}, got {n}"));
            }
            Ok(())
        }
        Ty::Num { min, max } => {
            let Some(n) = value.as_f64() else {
                return bad(format!("{name} must be a number"));
            };
            if n < min || n > max {
                return bad(format!("{name} must be between {min} and {max}, got {n}"));
            }
            Ok(())
        }
        Ty::Bool => match value {
            Value::Bool(_) => Ok(()),
            _ => bad(format!("{name} must be true or false")),
        },
        Ty::Enum(options) => match value.as_str() {
            Some(s) if options.contains(&s) => Ok(()),
            _ => bad(format!("{name} must be one of: {}", options.join(", "))),
        },
        Ty::StrList => match value {
            Value::Array(items)
                if !items.is_empty()
                    && items.iter().all(|i| i.as_str().is_some_and(|s| !s.is_empty())) =>
            {
                Ok(())
            }
            _ => bad(format!("{name} must be a non-empty array of non-empty strings")),
        },
        Ty::Region => check_region(name, value),
        Ty::Object => match value {
            Value::Object(_) => Ok(()),
            _ => bad(format!("{name} must be a JSON object: {}", param.doc)),
        },
        Ty::ObjectList => match value {
            Value::Array(items) if items.iter().all(Value::is_object) => Ok(()),
            _ => bad(format!("{name} must be a list of JSON objects: {}", param.doc)),
        },
    }
}

fn check_id(name: &str, kind: IdKind, s: &str) -> Result<(), Violation> {
    let ok = match kind {
        IdKind::Browser => s
            .strip_prefix("chrome-")
            .and_then(|p| p.parse::<u32>().ok().filter(|_| !p.starts_with('0')))
            .is_some_and(|port| (1..=65535).contains(&port)),
        IdKind::App => s
            .strip_prefix("app:")
            .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())),
        IdKind::Token => !s.is_empty() && !s.chars().any(char::is_whitespace),
    };
    if ok {
        return Ok(());
    }
    let remedy = match kind {
        IdKind::Browser => {
            "a browser id looks like chrome-9222; get one from context.list_browsers"
        }
        IdKind::App => "an app id looks like app:1234; get one from context.list_apps",
        IdKind::Token => "ids are single words returned by an earlier call",
    };
    Err(Violation::new(name, format!("{name} \"{s}\" is not an id: {remedy}")))
}

fn check_region(name: &str, value: &Value) -> Result<(), Violation> {
    let Some(obj) = value.as_object() else {
        return Err(Violation::new(name, format!("{name} must be {{x, y, width, height}}")));
    };
    for key in obj.keys() {
        if !["x", "y", "width", "height"].contains(&key.as_str()) {
            return Err(Violation::new(
                name,
                format!("{name} takes only x, y, width, height, not {key}"),
            ));
        }
    }
    for key in ["x", "y", "width", "height"] {
        let min = if key == "width" || key == "height" { 1 } else { 0 };
        match obj.get(key).and_then(Value::as_f64) {
            Some(n) if n.fract() == 0.0 && n >= min as f64 && n <= 65535.0 => {}
            _ => {
                return Err(Violation::new(
                    name,
                    format!("{name}.{key} must be a whole number between {min} and 65535"),
                ))
            }
        }
    }
    Ok(())
}

fn check_locator(tool: &Tool, action: &Action, args: &Map<String, Value>) -> Result<(), Violation> {
    let method = tool.method(action);
    let elements: Vec<&str> =
        tool.element_keys.iter().map(|p| p.name).filter(|k| args.contains_key(*k)).collect();
    if elements.len() > 1 {
        return Err(Violation::new(
            elements[1],
            format!("{method} takes one of {}, not both", elements.join(", ")),
        ));
    }
    let has = |k: &str| args.contains_key(k);
    for (a, b) in [("x", "y"), ("nx", "ny")] {
        if has(a) != has(b) {
            let missing = if has(a) { b } else { a };
            return Err(Violation::new(
                missing,
                format!("{a} and {b} go together; {method} got only one of them"),
            ));
        }
    }
    let pixel = has("x");
    let normalized = has("nx");
    if pixel && normalized {
        return Err(Violation::new(
            "nx",
            format!("{method} takes a point as x,y or as nx,ny, not both"),
        ));
    }
    let point = pixel || normalized;
    if let (Some(el), true) = (elements.first(), point) {
        let p = if pixel { "x" } else { "nx" };
        return Err(Violation::new(
            p,
            format!("{method} takes an element ({el}) or a point, not both"),
        ));
    }
    if action.locator.required() && elements.is_empty() && !point {
        let what = match action.locator {
            Locator::Point => "a point (x,y or nx,ny)".to_owned(),
            Locator::Element => tool.element_key_names().join(" or "),
            _ => format!("{} or a point (x,y or nx,ny)", tool.element_key_names().join(" or ")),
        };
        let field = if action.locator == Locator::Point { "x" } else { "ref" };
        return Err(Violation::new(field, format!("{method} needs a target: {what}")));
    }
    Ok(())
}
