//! The approval policy: rules by action class and argument patterns -> allow, deny or ask.
//! Pure: `decide` looks only at the call, never at the world.
//!
//! Policy file (`--policy FILE`, JSON):
//! ```json
//! {"rules": [
//!   {"name": "ask-uploads", "class": "upload", "decision": "ask"},
//!   {"name": "intranet-only", "class": "navigate", "hosts": ["*.corp.test"], "decision": "allow"},
//!   {"name": "no-other-sites", "class": "navigate", "decision": "deny"},
//!   {"name": "no-rm", "class": "exec", "args": {"app": "*rm*"}, "decision": "deny"}
//! ]}
//! ```
//! Rules are tried in order, the file's first, then the built-in defaults; the first match
//! decides; no match allows.

use glovebox_protocol::contract::{Action, Class, Tool};
use serde::Deserialize;
use serde_json::{Map, Value};

/// What a rule says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Deny,
    Ask,
}

/// The kind of call a rule is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionClass {
    /// Starts a process (get_app with launch).
    Exec,
    /// Runs page script (browser.evaluate).
    Evaluate,
    /// Hands local files to a page (browser.upload).
    Upload,
    /// Reads the clipboard (computer.clipboard_get).
    ClipboardRead,
    /// Loads a URL (navigate, tab_new with url).
    Navigate,
    /// Any action that changes something.
    Mutating,
    /// Every action.
    Any,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    pub name: String,
    pub class: ActionClass,
    /// Only URLs with these schemes (navigate), e.g. "file".
    #[serde(default)]
    pub schemes: Vec<String>,
    /// Only URLs whose host matches one of these globs (navigate).
    #[serde(default)]
    pub hosts: Vec<String>,
    /// Only calls whose string params match these globs, e.g. {"app": "*rm*"}.
    #[serde(default)]
    pub args: Map<String, Value>,
    pub decision: Verdict,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    #[serde(default)]
    pub rules: Vec<Rule>,
}

/// The outcome for one call: the verdict and the rule that gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub verdict: Verdict,
    pub rule: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("cannot read the policy file {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("the policy file {path} is not valid: {source}")]
    Parse { path: String, source: serde_json::Error },
}

impl Policy {
    pub fn load(path: &std::path::Path) -> Result<Policy, PolicyError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|source| PolicyError::Read { path: name.clone(), source })?;
        serde_json::from_str(&text).map_err(|source| PolicyError::Parse { path: name, source })
    }

    /// The built-in rules, tried after the file's.
    pub fn defaults() -> Vec<Rule> {
        vec![Rule {
            name: "default: no file:, chrome: or javascript: navigation".into(),
            class: ActionClass::Navigate,
            schemes: [
                "file",
                "chrome",
                "chrome-untrusted",
                "devtools",
                "javascript",
                "view-source",
            ]
            .map(String::from)
            .to_vec(),
            hosts: Vec::new(),
            args: Map::new(),
            decision: Verdict::Deny,
        }]
    }

    /// Decide one validated call.
    pub fn decide(&self, tool: &Tool, action: &Action, args: &Map<String, Value>) -> Decision {
        let defaults = Self::defaults();
        let url = navigation_url(tool, action, args);
        for rule in self.rules.iter().chain(defaults.iter()) {
            if applies(rule, tool, action, args, url) {
                return Decision { verdict: rule.decision, rule: Some(rule.name.clone()) };
            }
        }
        Decision { verdict: Verdict::Allow, rule: None }
    }
}

/// The URL a call would load, if it loads one.
fn navigation_url<'a>(
    tool: &Tool,
    action: &Action,
    args: &'a Map<String, Value>,
) -> Option<&'a str> {
    match (tool.name, action.name) {
        ("browser", "navigate" | "tab_new") => args.get("url").and_then(Value::as_str),
        _ => None,
    }
}

fn class_of(
    tool: &Tool,
    action: &Action,
    args: &Map<String, Value>,
    url: Option<&str>,
) -> Vec<ActionClass> {
    let mut classes = vec![ActionClass::Any];
    if action.class.mutating() {
        classes.push(ActionClass::Mutating);
    }
    if action.class == Class::Exec && args.get("launch") == Some(&Value::Bool(true)) {
        classes.push(ActionClass::Exec);
    }
    match (tool.name, action.name) {
        ("browser", "evaluate") => classes.push(ActionClass::Evaluate),
        ("browser", "upload") => classes.push(ActionClass::Upload),
        ("computer", "clipboard_get") => classes.push(ActionClass::ClipboardRead),
        _ => {}
    }
    if url.is_some() {
        classes.push(ActionClass::Navigate);
    }
    classes
}

fn applies(
    rule: &Rule,
    tool: &Tool,
    action: &Action,
    args: &Map<String, Value>,
    url: Option<&str>,
) -> bool {
    if !class_of(tool, action, args, url).contains(&rule.class) {
        return false;
    }
    if !rule.schemes.is_empty() || !rule.hosts.is_empty() {
        let Some(url) = url else { return false };
        let (scheme, host) = split_url(url);
        if !rule.schemes.is_empty() && !rule.schemes.iter().any(|s| s.eq_ignore_ascii_case(&scheme))
        {
            return false;
        }
        if !rule.hosts.is_empty()
            && !rule.hosts.iter().any(|h| glob(&h.to_ascii_lowercase(), &host))
        {
            return false;
        }
    }
    rule.args.iter().all(|(k, pattern)| match (args.get(k), pattern.as_str()) {
        (Some(Value::String(v)), Some(p)) => glob(p, v),
        (Some(v), Some(p)) => glob(p, &v.to_string()),
        _ => false,
    })
}

/// Scheme and host of a URL, lower-cased; schemeless text counts as `http`.
fn split_url(url: &str) -> (String, String) {
    let url = url.trim();
    let (scheme, rest) = match url.split_once(':') {
        Some((s, rest))
            if !s.is_empty()
                && s.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) =>
        {
            (s.to_ascii_lowercase(), rest)
        }
        _ => ("http".to_owned(), url),
    };
    let rest = rest.trim_start_matches('/');
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = host.split(':').next().unwrap_or_default();
    (scheme, host.to_ascii_lowercase())
}

/// `*` matches any run of characters; everything else matches itself.
fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let mut rest = text;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(part) else { return false };
            rest = r;
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else if let Some(pos) = rest.find(part) {
            rest = &rest[pos + part.len()..];
        } else {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use glovebox_protocol::contract::{tool, validate_tool_call};
    use serde_json::json;

    fn decide(policy: &Policy, tool_name: &str, args: &Value) -> (Verdict, Option<String>) {
        let t = tool(tool_name).expect("tool");
        let c = validate_tool_call(t, args).expect("valid");
        let d = policy.decide(c.tool, c.action, &c.args);
        (d.verdict, d.rule)
    }

    #[test]
    fn defaults_refuse_local_schemes_only() {
        let p = Policy::default();
        for url in [
            "file:///etc/passwd",
            "FILE:///x",
            "chrome://settings",
            "javascript:alert(1)",
            "view-source:http://a",
        ] {
            assert_eq!(
                decide(&p, "browser", &json!({"action": "navigate", "url": url})).0,
                Verdict::Deny,
                "{url}"
            );
        }
        for url in ["http://127.0.0.1:8000/", "https://example.test/a?b#c", "example.test"] {
            assert_eq!(
                decide(&p, "browser", &json!({"action": "navigate", "url": url})).0,
                Verdict::Allow,
                "{url}"
            );
        }
        assert_eq!(
            decide(&p, "browser", &json!({"action": "tab_new", "url": "file:///etc"})).0,
            Verdict::Deny
        );
        assert_eq!(
            decide(&p, "browser", &json!({"action": "evaluate", "script": "1"})).0,
            Verdict::Allow
        );
        assert_eq!(
            decide(&p, "context", &json!({"action": "get_app", "app": "xterm", "launch": true})).0,
            Verdict::Allow
        );
    }

    #[test]
    fn rules_match_by_class_host_and_args_in_order() {
        let p: Policy = serde_json::from_value(json!({"rules": [
            {"name": "ask-launch-shells", "class": "exec", "args": {"app": "*term*"}, "decision": "ask"},
            {"name": "corp", "class": "navigate", "hosts": ["*.corp.test"], "decision": "allow"},
            {"name": "no-web", "class": "navigate", "schemes": ["http", "https"], "decision": "deny"},
            {"name": "ask-clipboard", "class": "clipboard_read", "decision": "ask"},
        ]}))
        .expect("parses");
        let launch = json!({"action": "get_app", "app": "xterm", "launch": true});
        assert_eq!(
            decide(&p, "context", &launch),
            (Verdict::Ask, Some("ask-launch-shells".into()))
        );
        let select = json!({"action": "get_app", "app": "xterm"});
        assert_eq!(decide(&p, "context", &select).0, Verdict::Allow, "no launch, no exec");
        let nav = |u: &str| decide(&p, "browser", &json!({"action": "navigate", "url": u}));
        assert_eq!(nav("https://wiki.corp.test/x").0, Verdict::Allow);
        assert_eq!(nav("https://user@evil.test:443/").1.as_deref(), Some("no-web"));
        assert_eq!(nav("file:///etc/passwd").0, Verdict::Deny, "defaults still apply");
        assert_eq!(decide(&p, "computer", &json!({"action": "clipboard_get"})).0, Verdict::Ask);
        assert!(serde_json::from_value::<Policy>(
            json!({"rules": [{"name": "x", "class": "nope", "decision": "ask"}]})
        )
        .is_err());
    }

    #[test]
    fn globs() {
        assert!(glob("*", ""));
        assert!(glob("a*c", "abbc"));
        assert!(glob("*.corp.test", "wiki.corp.test"));
        assert!(!glob("*.corp.test", "corp.test.evil"));
        assert!(glob("*rm*", "/bin/rm -rf"));
        assert!(!glob("abc", "abcd"));
    }
}
