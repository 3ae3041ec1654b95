//! The contract over the wire: tools.list, the seed's validation scenario, tools.call's MCP
//! shape, rpc.discover and context.documentation.

use glovebox_tests::raw::{code, field};
use glovebox_tests::InProcess;
use serde_json::{json, Value};

/// Every action of the design's catalogue, per tool.
const CATALOGUE: [(&str, &str); 3] = [
    ("context", "get_state list_apps get_app list_windows focus_window list_browsers get_browser request_human put_file list_secrets documentation"),
    ("browser", "navigate click double_click hover focus type fill set_value select check uncheck paste select_text secondary_action press keyboard_type keydown keyup scroll scroll_into_view drag upload wait dialog go_back go_forward reload tab_new tab_select tab_get tab_close tab_mark cdp_session cdp_revoke snapshot get_content get_html get_url get_title screenshot screenshot_annotate state_and_screenshot evaluate pdf tab_list downloads probe"),
    ("computer", "click double_click type fill set_value paste select_text secondary_action key keydown keyup scroll drag mouse_move mouse_down mouse_up window wait snapshot get_window_state screenshot state_and_screenshot get_text clipboard_get clipboard_set probe"),
];

#[tokio::test]
async fn tools_list_has_every_action_with_llm_ready_schemas() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let r = c.call("tools.list", json!({})).await;
    let tools = r["result"]["tools"].as_array().expect("tools").clone();
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["context", "browser", "computer"]);
    for (tool, actions) in CATALOGUE {
        let t = tools.iter().find(|t| t["name"] == tool).expect("tool listed");
        let schema = &t["inputSchema"];
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["additionalProperties"], false);
        assert!(schema.get("oneOf").is_none());
        let listed: Vec<&str> = schema["properties"]["action"]["enum"]
            .as_array()
            .expect("action enum")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for action in actions.split_whitespace() {
            assert!(listed.contains(&action), "{tool}.{action} missing from tools.list");
            let desc = t["description"].as_str().unwrap_or_default();
            assert!(desc.contains(&format!("- {action}(")), "{tool}.{action} undocumented");
        }
        assert_eq!(listed.len(), actions.split_whitespace().count(), "{tool} has extra actions");
    }
    d.stop().await;
}

/// `tools.list {per_action: true}` gives every action its input schema and the schema of its
/// outcome with its typed result; real outcomes fit theirs, and a result that breaks it is
/// caught by the same schema.
#[tokio::test]
async fn every_action_has_an_output_schema_that_its_outcomes_fit() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let r = c.call("tools.list", json!({"per_action": true})).await;
    let tools = r["result"]["tools"].as_array().expect("tools").clone();
    let mut schemas = std::collections::BTreeMap::new();
    for (tool, actions) in CATALOGUE {
        let t = tools.iter().find(|t| t["name"] == tool).expect("tool listed");
        let listed = t["actions"].as_array().expect("per-action list");
        assert_eq!(
            listed.len(),
            actions.split_whitespace().count(),
            "{tool}: one entry per action"
        );
        for action in actions.split_whitespace() {
            let a = listed.iter().find(|a| a["name"] == action).expect("action listed");
            let out = &a["outputSchema"];
            let result = &out["properties"]["result"];
            assert!(
                result["properties"].as_object().is_some_and(|p| !p.is_empty())
                    || result["title"] == format!("{tool}.{action} result"),
                "{tool}.{action}: no result schema: {out}"
            );
            assert_eq!(a["inputSchema"]["title"], format!("{tool}.{action}"));
            schemas.insert(format!("{tool}.{action}"), out.clone());
        }
    }
    // The plain list stays compact: no per-action entries.
    let plain = c.call("tools.list", json!({})).await;
    assert!(plain["result"]["tools"][0].get("actions").is_none());

    for (method, params) in [
        ("context.get_state", json!({})),
        ("context.documentation", json!({})),
        ("context.list_browsers", json!({})),
        ("computer.wait", json!({"duration_ms": 5})),
        ("browser.wait", json!({"duration_ms": 5})),
    ] {
        let r = c.call(method, params).await;
        let outcome = &r["result"];
        if outcome.is_null() {
            // A backend this daemon runs without answers an error; its schema is not at stake.
            assert!(r["error"]["data"]["code"] == "BACKEND_UNAVAILABLE", "{method}: {r}");
            continue;
        }
        let schema = &schemas[method];
        let validator = jsonschema::validator_for(schema).expect("the schema compiles");
        let errors: Vec<String> = validator.iter_errors(outcome).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{method}'s outcome breaks its schema: {errors:?}");
        let mut broken = outcome.clone();
        broken["result"] = json!("not an object");
        assert!(!validator.is_valid(&broken), "{method}: the schema holds nothing");
    }
    d.stop().await;
}

/// The seed's scenario: eight bad calls refused before anything runs, then a valid wait.
#[tokio::test]
async fn seed_validation_scenario() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let cases = [
        ("browser", json!({"action": "click", "ref": "e1", "selector": "#go"}), "selector"),
        ("browser", json!({"action": "wait", "selector": "#go", "timeout": 90000}), "timeout"),
        (
            "browser",
            json!({"action": "double_click", "ref": "e1", "click_count": 3}),
            "click_count",
        ),
        (
            "browser",
            json!({"action": "navigate", "url": "http://127.0.0.1/", "text": "hi"}),
            "text",
        ),
        ("browser", json!({"action": "wait", "timeout": 1000, "duration_ms": 10}), "duration_ms"),
        ("computer", json!({"action": "wait", "amount": 3, "duration_ms": 10}), "amount"),
        ("browser", json!({"action": "click"}), "ref"),
        ("computer", json!({"action": "type", "text": ""}), "text"),
    ];
    for (tool, args, want) in cases {
        // Direct method form.
        let mut params = args.clone();
        let action = params["action"].as_str().expect("action").to_owned();
        params.as_object_mut().expect("object").remove("action");
        let r = c.call(&format!("{tool}.{action}"), params).await;
        assert_eq!(code(&r), "CONTRACT_VIOLATION", "{tool} {args}: {r}");
        assert_eq!(r["error"]["code"], -32602);
        assert_eq!(field(&r), want, "{tool} {args}: {r}");
        let msg = r["error"]["data"]["message"].as_str().unwrap_or_default();
        assert!(msg.contains(want), "the message names {want}: {msg}");
        // tools.call form: the same refusal, MCP-shaped.
        let r = c.call("tools.call", json!({"name": tool, "arguments": args})).await;
        assert_eq!(r["result"]["isError"], true, "{r}");
        let err = &r["result"]["structuredContent"]["error"];
        assert_eq!(err["code"], "CONTRACT_VIOLATION");
        assert_eq!(err["details"]["field"], want);
    }
    let ok = c
        .call(
            "tools.call",
            json!({"name": "computer", "arguments": {"action": "wait", "duration_ms": 20}}),
        )
        .await;
    let result = &ok["result"];
    assert_eq!(result["isError"], false, "{ok}");
    assert!(result["structuredContent"]["result"]["waited_ms"].as_u64().is_some_and(|ms| ms >= 20));
    assert_eq!(result["content"][0]["type"], "text");
    d.stop().await;
}

#[tokio::test]
async fn validation_details_are_precise() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let cases = [
        ("browser.navigate", json!({"url": "http://x.test", "text": "a", "foo": 1}), "foo"),
        ("browser.click", json!({"ref": "e1", "button": "huge"}), "button"),
        ("browser.click", json!({"ref": "e1", "click_count": 1.5}), "click_count"),
        ("browser.scroll", json!({"pages": 0.05}), "pages"),
        ("browser.click", json!({"nx": 0.5}), "ny"),
        ("browser.click", json!({"x": 1, "y": 2, "nx": 0.1, "ny": 0.2}), "nx"),
        ("browser.click", json!({"ref": "e1", "x": 1, "y": 2}), "x"),
        ("browser.click", json!({"ref": "e1", "tab_id": "T1", "tab_index": 0}), "tab_index"),
        ("browser.get_url", json!({"browser_id": "http://127.0.0.1:9222"}), "browser_id"),
        ("browser.get_url", json!({"browser_id": "chrome-70000"}), "browser_id"),
        ("computer.snapshot", json!({"app_id": "mousepad"}), "app_id"),
        ("computer.wait", json!({"duration_ms": 10, "timeout_ms": 200000}), "timeout_ms"),
        ("computer.wait", json!({"duration_ms": 10, "op_id": 7}), "op_id"),
    ];
    for (method, params, want) in cases {
        let r = c.call(method, params.clone()).await;
        assert_eq!(code(&r), "CONTRACT_VIOLATION", "{method} {params}: {r}");
        assert_eq!(field(&r), want, "{method} {params}: {r}");
    }
    let r =
        c.call("browser.navigate", json!({"url": "http://x.test", "text": "a", "foo": 1})).await;
    assert_eq!(
        r["error"]["data"]["details"]["fields"],
        json!(["foo", "text"]),
        "every unknown named"
    );
    d.stop().await;
}

#[tokio::test]
async fn discover_and_documentation_cover_the_contract() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    let doc = c.call("rpc.discover", json!({})).await["result"].clone();
    assert_eq!(doc["openrpc"], "1.3.2");
    let methods: Vec<&str> = doc["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    for m in [
        "session.hello",
        "tools.call",
        "op.cancel",
        "events.subscribe",
        "browser.click",
        "computer.clipboard_set",
    ] {
        assert!(methods.contains(&m), "{m} missing from rpc.discover");
    }
    let r = c.call("context.documentation", json!({})).await;
    let docs = &r["result"]["result"];
    for (tool, actions) in CATALOGUE {
        let t = docs["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .find(|t| t["name"] == tool)
            .expect("tool")
            .clone();
        for action in actions.split_whitespace() {
            let a = t["actions"].as_array().expect("actions").iter().find(|a| a["name"] == action);
            let a = a.unwrap_or_else(|| panic!("{tool}.{action} undocumented"));
            assert!(a["summary"].as_str().is_some_and(|s| !s.is_empty()));
        }
        // Each action is either available now or named under its backend with the reason.
        let caps = &docs["capabilities"][tool];
        let mut seen: Vec<String> = caps["available"]
            .as_array()
            .expect("available")
            .iter()
            .filter_map(|a| a.as_str().map(String::from))
            .collect();
        for (backend, why) in caps["unavailable"].as_object().expect("unavailable") {
            let reason = why["reason"].as_str().unwrap_or_default();
            assert!(!reason.is_empty(), "{tool}: {backend} unavailable without a reason");
            seen.extend(
                why["actions"]
                    .as_array()
                    .expect("actions")
                    .iter()
                    .filter_map(|a| a.as_str().map(String::from)),
            );
        }
        seen.sort();
        let mut all: Vec<String> = glovebox_protocol::contract::TOOLS
            .iter()
            .find(|t| t.name == tool)
            .expect("a tool")
            .actions
            .iter()
            .map(|a| a.name.to_owned())
            .collect();
        all.sort();
        assert_eq!(seen, all, "{tool}: every action once, available or not");
    }
    // The facts of each entry, in the documentation and in rpc.discover.
    let browser = docs["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == "browser")
        .expect("browser")
        .clone();
    let click = browser["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .find(|a| a["name"] == "click")
        .expect("click")
        .clone();
    assert_eq!(click["facts"]["settle"], "pointer", "{click}");
    assert_eq!(click["facts"]["backend"], "browser");
    let m = doc["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .find(|m| m["name"] == "browser.evaluate")
        .expect("evaluate")
        .clone();
    assert_eq!(m["x-glovebox"]["approval"], "evaluate", "{m}");
    for rule in ["identity", "refs", "coordinates", "timing", "validation"] {
        assert!(docs["rules"][rule].is_string(), "rule {rule}");
    }
    let errors = docs["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), glovebox_protocol::error::ErrorCode::ALL.len());
    for code in ["REQUEST_TOO_LARGE", "BATCH_TOO_LARGE", "RESULT_TOO_LARGE"] {
        assert!(errors.iter().any(|e| e["code"] == code), "{code} undocumented");
    }
    d.stop().await;
}

#[tokio::test]
async fn unconfigured_backends_answer_backend_unavailable_with_a_remedy() {
    let d = InProcess::start().await;
    let mut c = d.actor().await;
    // Built actions without their backend configured: BACKEND_UNAVAILABLE with a remedy.
    // (UNSUPPORTED with what works is met on real backends: browser.rs and desktop.rs.)
    for (method, params) in [
        ("browser.navigate", json!({"url": "http://127.0.0.1:1/"})),
        ("browser.screenshot_annotate", json!({})),
    ] {
        let r = c.call(method, params).await;
        assert_eq!(code(&r), "BACKEND_UNAVAILABLE", "{method}: {r}");
        assert!(r["error"]["data"]["details"]["remedy"].is_string(), "{r}");
    }
    let state = c.call("context.get_state", json!({})).await;
    assert!(state["result"]["result"]["browsers_error"]["code"].is_string(), "{state}");
    d.stop().await;
}
