//! Typed results of every contract action, one item per action named as its params struct
//! (`results::browser::Click` answers `actions::browser::Click`), and the parts they share.
//!
//! A result serializes to exactly what the wire carries in an outcome's `result`; its JSON
//! Schema (schemars) is what OpenRPC, `context.documentation` and the committed schema files
//! give for the action. Fields absent on the wire when there is nothing to say are `Option`s
//! skipped when `None`; fields the wire sends as `null` are `Option`s always serialized.

pub mod browser;
pub mod computer;
pub mod context;
pub mod native;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A page of a ref-annotated outline, as a snapshot action answers it (the browser's adds
/// the page's url and title, the desktop's its app and window).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Outline {
    /// Names this snapshot; refs resolve in the latest one unless a call names another.
    pub snapshot_id: String,
    /// `full`, `incremental` (only what changed since the previous one) or `continued`.
    pub mode: String,
    /// The outline: one line per node, refs as `[ref=eN]`.
    pub snapshot: String,
    /// How many refs the outline names.
    pub ref_count: usize,
    /// Lines in this page.
    pub lines: usize,
    /// Why the snapshot is full although diffing was possible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_because: Option<String>,
    /// Incremental: nodes added since the previous snapshot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub added: Option<usize>,
    /// Incremental: nodes changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<usize>,
    /// Incremental: nodes left out as unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unchanged: Option<usize>,
    /// The first 50 refs gone since the previous snapshot.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed_refs: Vec<String>,
    /// How many refs went, all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removed_count: Option<usize>,
    /// A query view: `all`, `any` or `none` of the query's words matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query_match: Option<String>,
    /// `query`, `scope` or `window`: a view; the next plain snapshot diffs against the last
    /// plain one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<String>,
    /// More lines remain: continue with `next_cursor`.
    pub truncated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated_reason: Option<String>,
    /// Pass as `cursor` for the next page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Rough token count of `snapshot` (bytes / 4).
    pub token_estimate: usize,
    /// What the walk had to leave out; the outline holds what was read before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// What a browser action caused beyond its own answer, added to its result by the daemon
/// from the browser's effects log, each only when something of the kind happened.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq, Default)]
pub struct Effects {
    /// Loads the navigation policy refused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub navigation_blocked: Vec<Blocked>,
    /// Tabs the action opened (popups, target=_blank); `follow` moves the session there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opened_tabs: Vec<Opened>,
    /// Downloads the action started, saved under the session's downloads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub downloads: Vec<Downloaded>,
    /// Where the action's tab navigated, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub navigated_to: Option<String>,
    /// A file chooser the page opened (set its files with `upload`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_chooser: Option<FileChooser>,
    /// Secrets typed into the tab's page when it went to another origin (a form posted them
    /// there, or a script took the page away): by name, never a value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets_left: Vec<SecretLeft>,
}

/// A secret whose page navigated to another origin after it was typed there, while a field
/// or text of the page still held it (or when that could not be checked).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct SecretLeft {
    /// Its name.
    pub secret: String,
    /// The origin of the document it was typed into.
    pub typed_on: String,
    /// The origin the tab went to.
    pub now_on: String,
    /// `true`: a field or text of the page held the value when the action began; `null`:
    /// that could not be checked (`unchecked` says why), so it may have. A page that no
    /// longer held the value is not named here.
    pub held: Option<bool>,
    /// Why `held` is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unchecked: Option<String>,
}

/// A file chooser a page opened, intercepted by the daemon.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct FileChooser {
    /// Several files.
    pub multiple: bool,
}

impl Effects {
    pub fn is_empty(&self) -> bool {
        *self == Effects::default()
    }
}

/// A load the navigation policy refused.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Blocked {
    pub url: String,
    /// The rule that refused it.
    pub rule: String,
    /// The tab it was meant for.
    pub tab_id: Option<String>,
    /// What it was when not a page load: `websocket` (refused by the browser's egress proxy
    /// before it reached the host).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// A tab an action opened.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Opened {
    pub tab_id: Option<String>,
    pub url: String,
}

/// A download an action started.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Downloaded {
    /// Where the file is (or will be) in the workspace.
    pub path: String,
    pub url: String,
    /// Bytes received so far.
    pub bytes: u64,
    /// `in_progress`, `completed`, `canceled` or `refused`.
    pub state: String,
    /// Why it was refused or canceled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
/// The generator of every result schema: draft 2020-12, subschemas inlined so a schema can
/// sit inside OpenRPC or an MCP tool without a `$defs` of its own.
pub fn generator() -> schemars::SchemaGenerator {
    schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator()
}

/// The schema of `tool.action`'s result as the wire carries it (a browser action's with the
/// [`Effects`] it may name), titled with the method; `None` for an unknown action.
pub fn schema(tool: &str, action: &str) -> Option<serde_json::Value> {
    let mut s = own_schema(tool, action)?;
    let entry = crate::contract::tool(tool)?.action(action)?;
    if entry.backend == crate::contract::Backend::Browser {
        let effects = generator().into_root_schema_for::<Effects>().to_value();
        if let (Some(props), Some(more)) = (
            s.get_mut("properties").and_then(|p| p.as_object_mut()),
            effects["properties"].as_object(),
        ) {
            for (k, v) in more {
                props.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    Some(s)
}

/// The schema of `tool.action`'s own result type, without the [`Effects`] the daemon may add.
pub fn own_schema(tool: &str, action: &str) -> Option<serde_json::Value> {
    let list = match tool {
        "context" => crate::actions::context::RESULT_SCHEMAS,
        "browser" => crate::actions::browser::RESULT_SCHEMAS,
        "computer" => crate::actions::computer::RESULT_SCHEMAS,
        "native" => crate::actions::native::RESULT_SCHEMAS,
        _ => return None,
    };
    let of = list.iter().find(|(a, _)| *a == action)?.1;
    let mut s = of().to_value();
    if let Some(obj) = s.as_object_mut() {
        obj.remove("$schema");
        obj.insert("title".into(), format!("{tool}.{action} result").into());
    }
    Some(s)
}

/// A result schema as one compact line a model reads at a glance, e.g.
/// `{x: number, y: number, element?: string, dialog?: {type: string, message: string}}`:
/// `?` marks a field that may be absent or null, `|null` one always sent that may be null;
/// objects nested deeper than three levels show as `{…}`.
pub fn signature(schema: &serde_json::Value) -> String {
    render(schema, 0)
}

fn render(s: &serde_json::Value, depth: usize) -> String {
    use serde_json::Value;
    if let Some(options) = s.get("anyOf").or_else(|| s.get("oneOf")).and_then(Value::as_array) {
        let parts: Vec<String> = options.iter().map(|o| render(o, depth)).collect();
        return parts.join("|");
    }
    if let Some(c) = s.get("const") {
        return c.to_string();
    }
    if let Some(words) = s.get("enum").and_then(Value::as_array) {
        return words.iter().map(Value::to_string).collect::<Vec<_>>().join("|");
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return "any".into(),
    };
    let nullable = types.contains(&"null");
    let shown: Vec<String> = types
        .iter()
        .filter(|t| **t != "null")
        .map(|t| match *t {
            "object" => object(s, depth),
            "array" => {
                let item = s.get("items").map_or_else(|| "any".into(), |i| render(i, depth));
                if item.contains('|') {
                    format!("({item})[]")
                } else {
                    format!("{item}[]")
                }
            }
            other => other.to_owned(),
        })
        .collect();
    let mut out = shown.join("|");
    if nullable {
        out.push_str("|null");
    }
    out
}

fn object(s: &serde_json::Value, depth: usize) -> String {
    let Some(props) = s.get("properties").and_then(|p| p.as_object()) else {
        return match s.get("additionalProperties") {
            Some(v) if v.is_object() => format!("{{[key]: {}}}", render(v, depth + 1)),
            _ => "object".into(),
        };
    };
    if depth >= 3 {
        return "{…}".into();
    }
    let required: Vec<&str> = s
        .get("required")
        .and_then(|r| r.as_array())
        .map(|r| r.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default();
    let fields: Vec<String> = props
        .iter()
        .map(|(name, p)| {
            let ty = render(p, depth + 1);
            if required.contains(&name.as_str()) {
                format!("{name}: {ty}")
            } else {
                format!("{name}?: {}", ty.strip_suffix("|null").unwrap_or(&ty))
            }
        })
        .collect();
    format!("{{{}}}", fields.join(", "))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_signature_reads_as_the_result_does() {
        let click = super::own_schema("browser", "click").expect("browser.click");
        let sig = super::signature(&click);
        assert!(sig.starts_with("{button?: string, click_count?: integer, dialog?: {"), "{sig}");
        assert!(
            sig.ends_with("element?: string, unchecked?: string, x: number, y: number}"),
            "{sig}"
        );
        let with = super::signature(&super::schema("browser", "click").expect("browser.click"));
        assert!(with.contains("opened_tabs?: {tab_id?: string, url: string}[]"), "{with}");
        let wait = super::schema("computer", "wait").expect("computer.wait");
        assert!(super::signature(&wait).contains("waited_ms: integer"));
    }
}
