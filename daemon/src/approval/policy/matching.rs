//! Whether a rule applies to a call: the classes the call's contract entry puts it in, the
//! site it navigates to, and the rule's argument globs.

use glovebox_protocol::contract::{Action, Gate};
use glovebox_protocol::url::Site;
use serde_json::{Map, Value};

use super::{ActionClass, Resolved, Rule};

/// The URL a call would load, if it loads one (an action gated as `navigate` loads its `url`).
pub(super) fn navigation_url<'a>(action: &Action, args: &'a Map<String, Value>) -> Option<&'a str> {
    match action.gate {
        Some(Gate::Navigate { url }) => args.get(url).and_then(Value::as_str),
        _ => None,
    }
}

fn class_of(action: &Action, args: &Map<String, Value>, url: Option<&str>) -> Vec<ActionClass> {
    let mut classes = vec![ActionClass::Any];
    if action.class.mutating() {
        classes.push(ActionClass::Mutating);
    }
    match action.gate {
        Some(Gate::Launch { flag }) if args.get(flag) == Some(&Value::Bool(true)) => {
            classes.push(ActionClass::Exec);
        }
        Some(Gate::Evaluate) => classes.push(ActionClass::Evaluate),
        Some(Gate::Upload) => classes.push(ActionClass::Upload),
        Some(Gate::ClipboardRead) => classes.push(ActionClass::ClipboardRead),
        Some(Gate::Cdp) => classes.push(ActionClass::Cdp),
        Some(Gate::StorageState) if !args.contains_key("load") => {
            classes.push(ActionClass::StorageState)
        }
        Some(Gate::Secret) if ["secret", "secret_totp"].iter().any(|k| args.contains_key(*k)) => {
            classes.push(ActionClass::Secret);
        }
        Some(Gate::Navigate { .. } | Gate::Launch { .. } | Gate::Secret | Gate::StorageState)
        | None => {}
    }
    if url.is_some() {
        classes.push(ActionClass::Navigate);
    }
    classes
}

pub(super) fn applies(
    rule: &Rule,
    action: &Action,
    args: &Map<String, Value>,
    url: Option<&str>,
    resolved: &Resolved,
) -> bool {
    if !class_of(action, args, url).contains(&rule.class) {
        return false;
    }
    if !rule.schemes.is_empty() || !rule.hosts.is_empty() {
        // A URL that does not parse names no site: only rules without schemes and hosts
        // apply to it (the validator refuses such URLs before the policy sees them).
        let Some(site) = url.and_then(Site::parse) else { return false };
        if !site_matches(rule, &site) {
            return false;
        }
    }
    rule.args.iter().all(|(k, pattern)| {
        let Some(p) = pattern.as_str().map(str::to_lowercase) else { return false };
        let also: &[String] = if k == "app" { &resolved.app } else { &[] };
        match args.get(k) {
            Some(Value::String(v)) => {
                std::iter::once(v).chain(also).any(|v| glob(&p, &v.to_lowercase()))
            }
            Some(v) => glob(&p, &v.to_string().to_lowercase()),
            None => false,
        }
    })
}

/// Schemes a host rule without schemes speaks about: web pages, not `view-source:` of one.
/// (A page's WebSockets are judged by the host and port of their connection, as a page's.)
const WEB: [&str; 4] = ["http", "https", "blob", "filesystem"];

/// Whether `site` is one of the rule's schemes and hosts (no schemes: any, or with hosts the
/// web ones; no hosts: any).
pub(super) fn site_matches(rule: &Rule, site: &Site) -> bool {
    let scheme_ok = if rule.schemes.is_empty() {
        rule.hosts.is_empty() || WEB.contains(&site.scheme.as_str())
    } else {
        rule.schemes.iter().any(|s| s.eq_ignore_ascii_case(&site.scheme))
    };
    let host_ok = rule.hosts.is_empty()
        || rule
            .hosts
            .iter()
            .any(|h| glob(h.trim_end_matches('.').to_ascii_lowercase().as_str(), &site.host));
    scheme_ok && host_ok
}

/// `*` matches any run of characters; everything else matches itself.
pub(super) fn glob(pattern: &str, text: &str) -> bool {
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
