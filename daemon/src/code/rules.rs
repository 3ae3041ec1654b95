//! What a code client may ask of the browser: the rules of an endpoint that holds one tab.
//! Pure: [`judge`] looks at one call and the endpoint's [`Scope`], never at the browser.
//!
//! At the browser level only `Target`, `Browser` and `Storage` calls are taken, and of those
//! only what stays inside the tab, its popups and its browser context. In a session of the
//! tab every domain is the page's own, but the same `Target`, `Browser`, `Storage` and
//! `SystemInfo` rules hold there too, and `Page.navigate` to a URL the policy denies
//! outside the web's schemes is refused here (a web URL goes on to the guard, which blocks it
//! in the browser and reports it as `navigation_blocked`).

use std::collections::HashSet;

use serde_json::{json, Value};

use crate::browser::cdp::guard::Verdict;

/// What is known of the endpoint when a call comes.
pub struct Scope<'a> {
    /// The targets the client may see: the tab, its tab target and its popups.
    pub targets: &'a HashSet<String>,
    /// The tab's browser context.
    pub context: Option<&'a str>,
    /// The tab's current origin (`https://host:port`), for permission grants.
    pub origin: Option<String>,
    /// The policy's verdict on loading a URL.
    pub judge: &'a (dyn Fn(&str) -> Verdict + Sync),
}

/// What to do with one call.
#[derive(Debug, Clone, PartialEq)]
pub enum Judgement {
    /// Send it on to the browser.
    Forward,
    /// Answer it here with this result, sending nothing (the daemon keeps the setting).
    Answer(Value),
    /// Refuse it with an error naming the rule.
    Refuse { rule: &'static str, why: String },
    /// Refuse a load the policy denies (reported as `navigation_blocked`).
    Blocked { url: String, rule: String },
}

fn refuse(rule: &'static str, why: impl Into<String>) -> Judgement {
    Judgement::Refuse { rule, why: why.into() }
}

/// The error message of a refusal, naming its rule.
pub fn message(rule: &str, why: &str) -> String {
    format!("refused by the code session's rule {rule}: {why}")
}

/// Judge `method` with `params`; `browser_level`: sent on the endpoint's browser session.
pub fn judge(method: &str, params: &Value, browser_level: bool, scope: &Scope<'_>) -> Judgement {
    let (domain, name) = method.split_once('.').unwrap_or((method, ""));
    match domain {
        "Target" => target(name, params, scope),
        "Browser" => browser(name, params, scope),
        "Storage" => storage(params, scope),
        "SystemInfo" => refuse(
            "system-info",
            "SystemInfo describes the whole machine, outside this tab's context",
        ),
        _ if browser_level => refuse(
            "browser-level",
            format!("{method} is not taken at the browser level of a code session; send it in the tab's session"),
        ),
        "Page" if name == "navigate" => navigate(params, scope),
        _ => Judgement::Forward,
    }
}

fn ours(params: &Value, key: &str, scope: &Scope<'_>) -> bool {
    params[key].as_str().is_some_and(|t| scope.targets.contains(t))
}

fn target(name: &str, params: &Value, scope: &Scope<'_>) -> Judgement {
    let other = || {
        refuse(
            "other-target",
            format!("target {} is not this code session's tab", params["targetId"]),
        )
    };
    match name {
        "setDiscoverTargets" | "setAutoAttach" | "getTargets" | "getBrowserContexts"
        | "detachFromTarget" => Judgement::Forward,
        "getTargetInfo" if params.get("targetId").is_none() => Judgement::Forward,
        "attachToTarget" if params["flatten"] != json!(true) => {
            refuse("flatten", "attach with flatten: true; this endpoint speaks flattened sessions only")
        }
        "getTargetInfo" | "attachToTarget" | "activateTarget" | "closeTarget"
        | "autoAttachRelated" => {
            if ours(params, "targetId", scope) {
                Judgement::Forward
            } else {
                other()
            }
        }
        "createTarget" => refuse(
            "one-tab",
            "this endpoint holds one tab and opens no other; the agent opens tabs with browser.tab_new",
        ),
        "createBrowserContext" | "disposeBrowserContext" => {
            refuse("new-context", "this endpoint holds one tab in its own context; it makes no other")
        }
        _ => refuse("browser-target", format!("Target.{name} reaches beyond this tab")),
    }
}

fn browser(name: &str, params: &Value, scope: &Scope<'_>) -> Judgement {
    match name {
        "getVersion" | "getWindowBounds" | "setContentsSize" => Judgement::Forward,
        "getWindowForTarget"
            if params.get("targetId").is_none() || ours(params, "targetId", scope) =>
        {
            Judgement::Forward
        }
        "close" | "crash" | "crashGpuProcess" => {
            refuse("browser-close", "the browser is the daemon's; close the connection instead")
        }
        // Playwright sets it on connecting and fails without an answer; downloads stay the
        // daemon's (its downloads dir, its quota), so the call changes nothing.
        "setDownloadBehavior" => Judgement::Answer(json!({})),
        "grantPermissions" | "setPermission" => {
            if params
                .get("browserContextId")
                .is_some_and(|c| Some(c) != scope.context.map(Value::from).as_ref())
            {
                return refuse("outside-context", "that browser context is not this tab's");
            }
            let origin = params["origin"].as_str().map(|o| o.trim_end_matches('/'));
            match (origin, scope.origin.as_deref()) {
                (Some(o), Some(tab)) if o == tab => Judgement::Forward,
                _ => refuse(
                    "permissions-origin",
                    format!(
                        "permissions are granted to the tab's own origin ({}) only",
                        scope.origin.as_deref().unwrap_or("none yet")
                    ),
                ),
            }
        }
        _ => refuse("browser-wide", format!("Browser.{name} acts on the whole browser")),
    }
}

fn storage(params: &Value, scope: &Scope<'_>) -> Judgement {
    match params.get("browserContextId").and_then(Value::as_str) {
        Some(c) if Some(c) != scope.context => {
            refuse("outside-context", "that browser context is not this tab's")
        }
        _ => Judgement::Forward,
    }
}

/// A web URL goes to the guard in the browser; one the policy denies outside the web's
/// schemes (`file:`, `chrome:`, `javascript:`) is refused here.
fn navigate(params: &Value, scope: &Scope<'_>) -> Judgement {
    let Some(url) = params["url"].as_str() else { return Judgement::Forward };
    let web = ["http:", "https:"]
        .iter()
        .any(|s| url.get(..s.len()).is_some_and(|p| p.eq_ignore_ascii_case(s)));
    match (scope.judge)(url) {
        Verdict::Deny { rule } | Verdict::Ask { rule } if !web => {
            Judgement::Blocked { url: url.to_owned(), rule }
        }
        _ => Judgement::Forward,
    }
}

/// The origin of a web `url` as permission grants name it (`https://host:port`).
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if !["http", "https"].contains(&scheme.to_ascii_lowercase().as_str()) {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    (!host.is_empty())
        .then(|| format!("{}://{}", scheme.to_ascii_lowercase(), host.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope<'a>(
        targets: &'a HashSet<String>,
        judge: &'a (dyn Fn(&str) -> Verdict + Sync),
    ) -> Scope<'a> {
        Scope { targets, context: Some("C1"), origin: Some("https://a.test".into()), judge }
    }

    fn deny_files(url: &str) -> Verdict {
        if url.starts_with("file:") || url.contains("denied.test") {
            Verdict::Deny { rule: "no-files".into() }
        } else {
            Verdict::Allow
        }
    }

    fn rule(j: Judgement) -> &'static str {
        match j {
            Judgement::Refuse { rule, .. } => rule,
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn the_tab_and_only_the_tab() {
        let targets: HashSet<String> = ["T1".to_owned()].into();
        let s = scope(&targets, &deny_files);
        let j = |m: &str, p: Value| judge(m, &p, true, &s);
        assert_eq!(j("Target.setAutoAttach", json!({"autoAttach": true})), Judgement::Forward);
        assert_eq!(
            j("Target.attachToTarget", json!({"targetId": "T1", "flatten": true})),
            Judgement::Forward
        );
        assert_eq!(
            rule(j("Target.attachToTarget", json!({"targetId": "T2", "flatten": true}))),
            "other-target"
        );
        assert_eq!(rule(j("Target.attachToTarget", json!({"targetId": "T1"}))), "flatten");
        assert_eq!(rule(j("Target.closeTarget", json!({"targetId": "T2"}))), "other-target");
        assert_eq!(rule(j("Target.createTarget", json!({"url": "about:blank"}))), "one-tab");
        assert_eq!(rule(j("Target.createBrowserContext", json!({}))), "new-context");
        assert_eq!(rule(j("Target.attachToBrowserTarget", json!({}))), "browser-target");
        assert_eq!(rule(j("Browser.close", json!({}))), "browser-close");
        assert_eq!(
            j("Browser.setDownloadBehavior", json!({"behavior": "allow"})),
            Judgement::Answer(json!({}))
        );
        assert_eq!(
            rule(j("Browser.grantPermissions", json!({"permissions": ["geolocation"]}))),
            "permissions-origin"
        );
        assert_eq!(
            rule(j(
                "Browser.grantPermissions",
                json!({"origin": "https://b.test", "permissions": []})
            )),
            "permissions-origin"
        );
        assert_eq!(
            j("Browser.grantPermissions", json!({"origin": "https://a.test", "permissions": []})),
            Judgement::Forward
        );
        assert_eq!(rule(j("SystemInfo.getInfo", json!({}))), "system-info");
        assert_eq!(
            rule(j("Storage.getCookies", json!({"browserContextId": "C2"}))),
            "outside-context"
        );
        assert_eq!(j("Storage.setCookies", json!({"cookies": []})), Judgement::Forward);
        assert_eq!(rule(j("Tracing.start", json!({}))), "browser-level");
        assert_eq!(rule(j("Browser.getBrowserCommandLine", json!({}))), "browser-wide");
    }

    #[test]
    fn a_tab_session_is_the_pages_but_loads_stay_under_the_policy() {
        let targets: HashSet<String> = ["T1".to_owned()].into();
        let s = scope(&targets, &deny_files);
        let j = |m: &str, p: Value| judge(m, &p, false, &s);
        assert_eq!(j("Runtime.evaluate", json!({"expression": "1"})), Judgement::Forward);
        assert_eq!(j("Fetch.enable", json!({})), Judgement::Forward);
        assert_eq!(
            j("Page.navigate", json!({"url": "file:///etc/passwd"})),
            Judgement::Blocked { url: "file:///etc/passwd".into(), rule: "no-files".into() }
        );
        // A web URL goes on: the guard blocks it in the browser and says so.
        assert_eq!(j("Page.navigate", json!({"url": "http://denied.test/"})), Judgement::Forward);
        assert_eq!(rule(j("Target.createTarget", json!({"url": "about:blank"}))), "one-tab");
        assert_eq!(rule(j("SystemInfo.getProcessInfo", json!({}))), "system-info");
    }

    #[test]
    fn origins_as_grants_name_them() {
        assert_eq!(origin_of("https://a.test/x?y").as_deref(), Some("https://a.test"));
        assert_eq!(origin_of("http://127.0.0.1:8080/").as_deref(), Some("http://127.0.0.1:8080"));
        assert_eq!(origin_of("about:blank"), None);
    }
}
