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
//! decides; no match allows. `args` globs compare case-insensitively, and for the `app` of a
//! launch also against what it resolves to ([`Resolved`]: the executable's path, with
//! symlinks resolved, and the desktop entry's id and name), so a rule about `*xterm*` also
//! stops `XTerm`, `/usr/bin/xterm` and `x-terminal-emulator`.

use glovebox_protocol::contract::Action;
use glovebox_protocol::url::Site;
use serde::Deserialize;
use serde_json::{Map, Value};

mod matching;

use matching::{applies, navigation_url, site_matches};

/// What a rule says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Deny,
    Ask,
}

/// Who may answer an `ask` rule: an approver or admin token (the default), or, for a call
/// from an MCP host that can ask its user (elicitation), that user.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Approve {
    #[default]
    Approver,
    Elicitation,
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
    /// Hands a code client a DevTools endpoint on a tab (browser.cdp_session); asks by
    /// default.
    Cdp,
    /// Writes a session's cookies and storage to a file (browser.storage_state without
    /// load); asks by default.
    StorageState,
    /// Types a named secret (`secret`, `secret_totp`); allowed by default on the secret's
    /// own origins (and apps), which the daemon checks whatever a rule says.
    Secret,
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
    /// For `ask`: who may answer.
    #[serde(default)]
    pub approve: Approve,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    #[serde(default)]
    pub rules: Vec<Rule>,
}

impl Policy {
    /// Who may answer the `ask` rule named `rule` (an approver when there is no such rule).
    pub fn approve_of(&self, rule: &str) -> Approve {
        self.rules.iter().find(|r| r.name == rule).map_or(Approve::Approver, |r| r.approve)
    }
}

/// What a call's parameters stand for in the world, found by the backend before the policy
/// is asked (the policy itself looks at nothing but the call).
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    /// The names `app` of a launch goes by: the executable path as found and with symlinks
    /// resolved, its file name, the desktop entry's id and Name.
    pub app: Vec<String>,
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
        vec![
            Rule {
                name: "default: no file:, chrome:, chrome-extension: or javascript: navigation"
                    .into(),
                class: ActionClass::Navigate,
                schemes: [
                    "file",
                    "chrome",
                    // The PDF viewer's pages hand `chrome.fileSystem` and `chrome.tabs` to a
                    // script run in them.
                    "chrome-extension",
                    "chrome-untrusted",
                    "devtools",
                    "javascript",
                    "view-source",
                ]
                .map(String::from)
                .to_vec(),
                hosts: Vec::new(),
                args: Map::new(),
                approve: Approve::Approver,
                decision: Verdict::Deny,
            },
            // A DevTools endpoint reaches past every action's own checks (cookies, storage,
            // any script): a person agrees first unless the policy file allows it.
            Rule {
                name: "default: a code session (browser.cdp_session) asks".into(),
                class: ActionClass::Cdp,
                schemes: Vec::new(),
                hosts: Vec::new(),
                args: Map::new(),
                approve: Approve::Approver,
                decision: Verdict::Ask,
            },
            // Saved cookies are logins that work anywhere: a person agrees first.
            Rule {
                name: "default: saving cookies and storage (browser.storage_state) asks".into(),
                class: ActionClass::StorageState,
                schemes: Vec::new(),
                hosts: Vec::new(),
                args: Map::new(),
                approve: Approve::Approver,
                decision: Verdict::Ask,
            },
        ]
    }

    /// Decide one validated call.
    pub fn decide(&self, action: &Action, args: &Map<String, Value>) -> Decision {
        self.decide_resolved(action, args, &Resolved::default())
    }

    /// Decide one validated call, its `app` also judged by the names it resolves to.
    pub fn decide_resolved(
        &self,
        action: &Action,
        args: &Map<String, Value>,
        resolved: &Resolved,
    ) -> Decision {
        let defaults = Self::defaults();
        let url = navigation_url(action, args);
        for rule in self.rules.iter().chain(defaults.iter()) {
            if applies(rule, action, args, url, resolved) {
                return Decision { verdict: rule.decision, rule: Some(rule.name.clone()) };
            }
        }
        Decision { verdict: Verdict::Allow, rule: None }
    }
}

impl Policy {
    /// The verdict on a request the browser is about to make (a link, `location`, a form, a
    /// redirect, a popup, a frame, and with host rules any sub-request): the `navigate`
    /// rules decide, the file's first, then the defaults, as they do for `browser.navigate`;
    /// no match allows. Rules about other classes (`mutating`, `any`) do not speak about it.
    pub fn judge_navigation(&self, url: &str) -> Decision {
        let Some(site) = Site::parse(url) else {
            return Decision { verdict: Verdict::Allow, rule: None };
        };
        let defaults = Self::defaults();
        let rules = self.rules.iter().chain(defaults.iter());
        for rule in rules.filter(|r| r.class == ActionClass::Navigate && r.args.is_empty()) {
            if site_matches(rule, &site) {
                return Decision { verdict: rule.decision, rule: Some(rule.name.clone()) };
            }
        }
        Decision { verdict: Verdict::Allow, rule: None }
    }

    /// Whether any rule names hosts: then the browser's guard also checks sub-requests.
    pub fn has_host_rules(&self) -> bool {
        self.rules.iter().any(|r| r.class == ActionClass::Navigate && !r.hosts.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::matching::glob;
    use super::*;
    use glovebox_protocol::contract::{tool, validate_tool_call};
    use serde_json::json;

    fn decide(policy: &Policy, tool_name: &str, args: &Value) -> (Verdict, Option<String>) {
        let t = tool(tool_name).expect("tool");
        let c = validate_tool_call(t, args).expect("valid");
        let d = policy.decide(c.action, &c.args);
        (d.verdict, d.rule)
    }

    #[test]
    fn defaults_refuse_local_schemes_only() {
        let p = Policy::default();
        for url in [
            "file:///etc/passwd",
            "FILE:///x",
            "chrome://settings",
            "chrome-extension://mhjfbmdgcfjbbpaeojofohoefgiehjai/index.html",
            "javascript:alert(1)",
            "view-source:http://a",
            "fi\nle:///etc/passwd",
            "\u{1}file:///etc/passwd",
            "chr\tome://version",
            "java\tscript:alert(1)",
            "about:version",
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
    fn hostile_spellings_cannot_talk_the_policy_round() {
        let p: Policy = serde_json::from_value(json!({"rules": [
            {"name": "no-evil", "class": "navigate", "hosts": ["evil.test", "127.0.0.1"], "decision": "deny"},
            {"name": "corp", "class": "navigate", "hosts": ["*.corp.localhost"], "decision": "allow"},
            {"name": "nothing-else", "class": "navigate", "decision": "deny"},
        ]}))
        .expect("parses");
        let nav = |u: &str| {
            let t = tool("browser").expect("tool");
            match validate_tool_call(t, &json!({"action": "navigate", "url": u})) {
                Ok(c) => p.decide(c.action, &c.args).rule.unwrap_or_default(),
                Err(v) => format!("refused: {}", v.field),
            }
        };
        // The file's catch-all comes before the defaults; both deny.
        let default = "nothing-else";
        for (url, want) in [
            ("fi\nle:///etc/passwd", default),
            ("\u{1}file:///etc/passwd", default),
            ("chr\tome://version", default),
            ("java\tscript:alert(1)", default),
            ("about:version", default),
            ("view-source:https://x.corp.localhost/", default),
            ("http://127.0.0.1:18765\\@x.corp.localhost/", "no-evil"),
            ("http://evil.test./", "no-evil"),
            ("http://evi%6C.test/", "no-evil"),
            ("http://ｅｖｉｌ.test/", "no-evil"),
            ("http:\\\\evil.test\\", "no-evil"),
            ("http://0x7f.0.0.1/", "no-evil"),
            ("http://user@evil.test@x.corp.localhost/", "corp"),
            ("https://wiki.corp.localhost./a", "corp"),
            ("https://corp.localhost.evil.test/", "nothing-else"),
            ("%66ile:///etc/passwd", "refused: url"),
            ("chrome-devtools://devtools/bundled/inspector.html", "refused: url"),
        ] {
            assert_eq!(nav(url), want, "{url:?}");
        }
        // The same rules judge what the page loads by itself.
        assert_eq!(p.judge_navigation("http://EVIL.test./x").rule.as_deref(), Some("no-evil"));
        assert_eq!(p.judge_navigation("http://a.corp.localhost/").verdict, Verdict::Allow);
        assert_eq!(p.judge_navigation("https://other.test/").verdict, Verdict::Deny);
        assert!(p.has_host_rules());
    }

    #[test]
    fn app_globs_see_every_name_a_launch_goes_by() {
        let p: Policy = serde_json::from_value(json!({"rules": [
            {"name": "no-xterm", "class": "exec", "args": {"app": "*xterm*"}, "decision": "deny"},
        ]}))
        .expect("parses");
        let t = tool("context").expect("tool");
        let judge = |app: &str, names: &[&str]| {
            let args = json!({"action": "get_app", "app": app, "launch": true});
            let c = validate_tool_call(t, &args).expect("valid");
            let r = Resolved { app: names.iter().map(|n| n.to_string()).collect() };
            p.decide_resolved(c.action, &c.args, &r).verdict
        };
        assert_eq!(judge("XTerm", &[]), Verdict::Deny, "case does not matter");
        assert_eq!(judge("/usr/bin/xterm", &[]), Verdict::Deny);
        let alt = ["/usr/bin/x-terminal-emulator", "/usr/bin/lxterm", "lxterm"];
        assert_eq!(judge("x-terminal-emulator", &alt), Verdict::Deny, "the symlink's target");
        assert_eq!(judge("Terminal", &["debian-xterm", "/usr/bin/xterm"]), Verdict::Deny);
        assert_eq!(judge("mousepad", &["/usr/bin/mousepad"]), Verdict::Allow);
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
