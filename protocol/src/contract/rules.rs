//! Cross-parameter rules of the browser and computer tables, and the const builders those
//! tables are written with.
//!
//! A rule runs after the generic checks (types, required, locator, exclusive pairs), so it may
//! assume every present value has its declared type. Its `Violation` names the parameter to
//! change and says what to send instead.

use serde_json::{Map, Value};

use super::spec::{Action, Backend, Class, Gate, Locator, Param, Rule, Settle};
use super::validate::Violation;

type Args = Map<String, Value>;
type Outcome = Result<(), Violation>;

// ---- Builders: one line per action in the tables. ----

/// An action with no parameters and no rules; chain `req`, `opt`, `excl` and `check`.
pub(crate) const fn action(
    name: &'static str,
    summary: &'static str,
    class: Class,
    locator: Locator,
) -> Action {
    Action {
        name,
        summary,
        class,
        locator,
        required: &[],
        optional: &[],
        exclusive: &[],
        rules: &[],
        settle: None,
        gate: None,
        backend: Backend::Daemon,
        events: &[],
    }
}

impl Action {
    /// Settles (and captures) as `kind` after it runs.
    pub(crate) const fn settles(self, kind: Settle) -> Self {
        Action { settle: Some(kind), ..self }
    }

    pub(crate) const fn gated(self, gate: Gate) -> Self {
        Action { gate: Some(gate), ..self }
    }

    pub(crate) const fn on(self, backend: Backend, events: &'static [&'static str]) -> Self {
        Action { backend, events, ..self }
    }

    pub(crate) const fn req(self, required: &'static [Param]) -> Self {
        Action { required, ..self }
    }

    pub(crate) const fn opt(self, optional: &'static [Param]) -> Self {
        Action { optional, ..self }
    }

    pub(crate) const fn excl(self, exclusive: &'static [(&'static str, &'static str)]) -> Self {
        Action { exclusive, ..self }
    }

    pub(crate) const fn check(self, rules: &'static [Rule]) -> Self {
        Action { rules, ..self }
    }
}

fn has(args: &Args, key: &str) -> bool {
    args.contains_key(key)
}

fn word<'a>(args: &'a Args, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str)
}

// ---- Tabs (browser). ----

/// `tab_id` and the legacy `tab_index` both pick the tab: at most one.
pub fn tab_pick_exclusive(args: &Args) -> Outcome {
    if has(args, "tab_id") && has(args, "tab_index") {
        return Err(Violation::new(
            "tab_index",
            "tab_id and tab_index both pick the tab; send only tab_id (tab_index is the legacy \
             position)",
        ));
    }
    Ok(())
}

/// `tab_select` and `tab_get` name their tab explicitly.
pub fn tab_required(args: &Args) -> Outcome {
    if !has(args, "tab_id") && !has(args, "tab_index") {
        return Err(Violation::new(
            "tab_id",
            "tab_id (or the legacy tab_index) is required: it names the tab; get ids from tab_list",
        ));
    }
    Ok(())
}

pub fn tab_mark(args: &Args) -> Outcome {
    let clear = args.get("clear") == Some(&Value::Bool(true));
    if !clear && !has(args, "kind") {
        return Err(Violation::new(
            "kind",
            "tab_mark needs kind deliverable or handoff, or clear true to remove the mark",
        ));
    }
    if clear && has(args, "note") {
        return Err(Violation::new(
            "note",
            "clear removes the mark; a note goes with kind, not with clear",
        ));
    }
    Ok(())
}

/// `fill` takes its new content as `text`, or as `values` for a multiple select.
pub fn fill_text_or_values(args: &Args) -> Outcome {
    if !["text", "values", "secret", "secret_totp"].iter().any(|k| has(args, k)) {
        return Err(Violation::new(
            "text",
            "fill needs text (\"\" clears the field), values for a <select multiple>, or secret",
        ));
    }
    Ok(())
}

/// `type`, `keyboard_type` and `computer.type` take exactly one of `text`, `secret` and
/// `secret_totp`; `fill` takes at most one of them (or `values`).
pub fn text_or_secret(args: &Args) -> Outcome {
    let given: Vec<&str> =
        ["text", "secret", "secret_totp", "values"].into_iter().filter(|k| has(args, k)).collect();
    match given.as_slice() {
        [_] => Ok(()),
        [] => Err(Violation::new(
            "text",
            "send text, or secret (a name from context.list_secrets), or secret_totp",
        )),
        [first, second, ..] => Err(Violation::new(
            *second,
            format!("{first} and {second} are exclusive: send one of text, secret and secret_totp"),
        )),
    }
}

/// `select` picks by `value`, or several by `values` in a multiple select.
pub fn select_value_or_values(args: &Args) -> Outcome {
    if !has(args, "value") && !has(args, "values") {
        return Err(Violation::new(
            "value",
            "select needs value (an option's value or label), or values for a <select multiple>",
        ));
    }
    Ok(())
}

pub fn dialog_prompt(args: &Args) -> Outcome {
    if args.get("accept") == Some(&Value::Bool(false)) && has(args, "prompt_text") {
        return Err(Violation::new(
            "prompt_text",
            "prompt_text is the answer given when accepting a prompt; drop it or send accept true",
        ));
    }
    Ok(())
}

// ---- Pointer. ----

pub fn double_click_count(args: &Args) -> Outcome {
    match args.get("click_count").and_then(Value::as_f64) {
        Some(n) if n != 2.0 => Err(Violation::new(
            "click_count",
            "double_click always uses click_count 2; omit click_count or use click with \
             click_count",
        )),
        _ => Ok(()),
    }
}

pub fn browser_drag_target(args: &Args) -> Outcome {
    drop_target(args, &["target_ref", "target_selector"], "target_ref, target_selector")
}

pub fn computer_drag_target(args: &Args) -> Outcome {
    drop_target(args, &["target_ref"], "target_ref")
}

/// Exactly one drop target: an element key, `to_x,to_y` or `to_nx,to_ny`.
fn drop_target(args: &Args, element_keys: &[&'static str], listed: &str) -> Outcome {
    for (a, b) in [("to_x", "to_y"), ("to_nx", "to_ny")] {
        if has(args, a) != has(args, b) {
            let missing = if has(args, a) { b } else { a };
            return Err(Violation::new(
                missing,
                format!("{a} and {b} go together; drag got only one of them"),
            ));
        }
    }
    let mut forms: Vec<&str> = element_keys.iter().copied().filter(|k| has(args, k)).collect();
    forms.extend(["to_x", "to_nx"].into_iter().filter(|k| has(args, k)));
    match forms.as_slice() {
        [] => Err(Violation::new(
            element_keys[0],
            format!("drag needs a drop target: {listed}, to_x,to_y or to_nx,to_ny"),
        )),
        [_] => Ok(()),
        [first, second, ..] => Err(Violation::new(
            *second,
            format!("drag takes one drop target, got {first} and {second}; send only one"),
        )),
    }
}

/// Background dispatch never moves the pointer, so it needs an element, not a point.
pub fn background_needs_ref(args: &Args) -> Outcome {
    if word(args, "dispatch") == Some("background") && !has(args, "ref") {
        return Err(Violation::new(
            "dispatch",
            "dispatch background works through accessibility only, so it needs a ref, not a \
             point; send ref, or use dispatch auto or foreground",
        ));
    }
    Ok(())
}

/// Pure pointer actions cannot be done in the background.
pub fn pointer_input(args: &Args) -> Outcome {
    if word(args, "dispatch") == Some("background") {
        return Err(Violation::new(
            "dispatch",
            "this action is pointer input, which dispatch background never sends; use dispatch \
             auto or foreground",
        ));
    }
    Ok(())
}

// ---- Waiting. ----

pub fn browser_wait(args: &Args) -> Outcome {
    let target = has(args, "ref") || has(args, "selector");
    if target && has(args, "duration_ms") {
        return Err(Violation::new(
            "duration_ms",
            "wait with a target uses timeout; duration_ms is a fixed pause without a target",
        ));
    }
    if target {
        return Ok(());
    }
    if has(args, "state") {
        return Err(Violation::new(
            "state",
            "state is what a target should become; send ref or selector with it, or drop state",
        ));
    }
    if has(args, "timeout") {
        return Err(Violation::new(
            "timeout",
            "timeout bounds a wait for ref or selector; without a target send duration_ms for a \
             fixed pause",
        ));
    }
    if !has(args, "duration_ms") {
        return Err(Violation::new(
            "duration_ms",
            "wait needs ref or selector to wait for, or duration_ms for a fixed pause",
        ));
    }
    Ok(())
}

pub fn computer_wait(args: &Args) -> Outcome {
    let Some(until) = word(args, "until") else {
        for (key, message) in [
            ("timeout", "timeout bounds an until wait; for a fixed pause send duration_ms"),
            ("query", "query says what until waits for; add until or drop query"),
        ] {
            if has(args, key) {
                return Err(Violation::new(key, message));
            }
        }
        if !has(args, "duration_ms") {
            return Err(Violation::new(
                "duration_ms",
                "wait needs until (with query) to wait for something, or duration_ms for a fixed \
                 pause",
            ));
        }
        return Ok(());
    };
    if has(args, "duration_ms") {
        return Err(Violation::new(
            "duration_ms",
            "wait with until uses timeout; duration_ms is a fixed pause without until",
        ));
    }
    if until != "window_opens" && !has(args, "query") {
        return Err(Violation::new(
            "query",
            format!("until {until} needs query: words of the element's role, name or value"),
        ));
    }
    Ok(())
}

// ---- Observation. ----

/// A continuation page keeps the settings of the snapshot it continues.
pub fn cursor_alone(args: &Args) -> Outcome {
    if !has(args, "cursor") {
        return Ok(());
    }
    for key in ["scope_ref", "disable_diffing", "query", "max_depth"] {
        if has(args, key) {
            return Err(Violation::new(
                key,
                format!(
                    "cursor continues an earlier snapshot with its settings; drop {key}, or drop \
                     cursor to start a new snapshot"
                ),
            ));
        }
    }
    Ok(())
}

/// Screenshots take an image format, and `quality` only where it means something.
pub fn image_format(args: &Args) -> Outcome {
    let format = word(args, "format").unwrap_or("png");
    if !["png", "jpeg", "webp"].contains(&format) {
        return Err(Violation::new(
            "format",
            format!("format {format} is for text; images take png, jpeg or webp"),
        ));
    }
    if has(args, "quality") && format == "png" {
        return Err(Violation::new(
            "quality",
            "quality applies only to format jpeg or webp; add format jpeg or webp, or drop quality",
        ));
    }
    Ok(())
}

pub fn browser_paste_format(args: &Args) -> Outcome {
    text_formats(args, &["text", "html", "markdown"], "paste takes format text, html or markdown")
}

/// Computer paste and clipboard.
pub fn text_format(args: &Args) -> Outcome {
    text_formats(args, &["text", "html"], "paste and the clipboard take format text or html")
}

fn text_formats(args: &Args, allowed: &[&str], message: &str) -> Outcome {
    match word(args, "format") {
        Some(f) if !allowed.contains(&f) => Err(Violation::new("format", message)),
        _ => Ok(()),
    }
}

// ---- Windows (computer). ----

pub fn window_id_required(args: &Args) -> Outcome {
    if !has(args, "window_id") {
        return Err(Violation::new(
            "window_id",
            "window_id is required: it names the window; get one from context.list_windows",
        ));
    }
    Ok(())
}

/// `move` takes `x,y`, `resize` takes `width,height`; nothing else takes geometry.
pub fn window_geometry(args: &Args) -> Outcome {
    let op = word(args, "operation").unwrap_or_default();
    if has(args, "width") != has(args, "height") {
        let missing = if has(args, "width") { "height" } else { "width" };
        return Err(Violation::new(
            missing,
            "width and height go together; window got only one of them",
        ));
    }
    match (op, has(args, "x"), has(args, "width")) {
        ("move", false, _) => Err(Violation::new(
            "x",
            "window move needs x and y: the new top-left corner in screen pixels",
        )),
        ("resize", _, false) => {
            Err(Violation::new("width", "window resize needs width and height in screen pixels"))
        }
        (op, true, _) if op != "move" => Err(Violation::new(
            "x",
            format!("x and y are only for operation move, not {op}; drop them"),
        )),
        (op, _, true) if op != "resize" => Err(Violation::new(
            "width",
            format!("width and height are only for operation resize, not {op}; drop them"),
        )),
        _ => Ok(()),
    }
}
