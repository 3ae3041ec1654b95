//! Contract tests: one line per case in, what the caller sees out.
//!
//! Each case is `<tool> <arguments JSON>`; the expectation repeats it and, indented below it,
//! `ok <arguments with defaults filled>` or `CONTRACT_VIOLATION field=<f>: <message>`.
//! Refresh with `UPDATE_EXPECT=1` and read every expectation that changed.

use std::collections::BTreeMap;

use expect_test::{expect, Expect};
use serde_json::{Map, Value};

use super::{
    tool, validate_direct, validate_tool_call, Checked, Class, Tool, Ty, Violation, BROWSER,
    COMPUTER, TOOLS,
};

fn render(result: Result<Checked, Violation>) -> String {
    match result {
        Ok(checked) => {
            typed_round_trip(&checked);
            format!("ok {}", Value::Object(checked.args))
        }
        Err(v) => format!("CONTRACT_VIOLATION field={}: {}", v.field, v.message),
    }
}

/// A call the validator passed reads into its typed params struct, which writes back the same
/// arguments less those at their default: the generated types and the table agree.
fn typed_round_trip(checked: &Checked) {
    let method = checked.tool.method(checked.action);
    let trip = crate::actions::round_trip_of(checked.tool.name, checked.action.name)
        .unwrap_or_else(|| panic!("{method} has no typed params"));
    let back = trip(checked).unwrap_or_else(|e| panic!("{method}: {e}"));
    let back = back.as_object().unwrap_or_else(|| panic!("{method}: {back}"));
    let same = |a: &Value, b: &Value| match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    };
    let accepted = checked.tool.accepted(checked.action);
    for (k, v) in &checked.args {
        match back.get(k) {
            Some(w) => assert!(same(v, w), "{method}: {k} was {v}, wrote {w}"),
            None => {
                let default = accepted.iter().find(|p| p.name == k).and_then(|p| p.default);
                assert!(
                    default.is_some_and(|d| same(&d.to_json(), v)),
                    "{method}: {k}={v} was dropped though it is not its default"
                );
            }
        }
    }
    for k in back.keys() {
        assert!(checked.args.contains_key(k), "{method}: wrote {k}, which the call had not");
    }
}

#[test]
fn every_action_has_typed_params() {
    for tool in TOOLS {
        for action in tool.actions {
            let found = crate::actions::round_trip_of(tool.name, action.name).is_some();
            assert!(found, "{} has no typed params; run cargo xtask codegen", tool.method(action));
        }
    }
}

fn check(cases: &str, expect: &Expect) {
    let mut out = String::new();
    for case in cases.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (tool_name, json) = case.split_once(' ').expect("a case is `<tool> <json>`");
        let tool = tool(tool_name).expect("a known tool");
        let args: Value = serde_json::from_str(json).expect("the case's arguments are JSON");
        out.push_str(&format!("{case}\n  {}\n", render(validate_tool_call(tool, &args))));
    }
    expect.assert_eq(&out);
}

#[test]
fn seed_scenario() {
    check(
        r#"
        browser {"action":"click","ref":"e1","selector":".go"}
        browser {"action":"wait","ref":"e1","timeout":90000}
        browser {"action":"double_click","ref":"e1","click_count":3}
        browser {"action":"navigate","url":"https://example.com/","text":"hi"}
        browser {"action":"wait","timeout":1000,"duration_ms":500}
        browser {"action":"wait","amount":5,"duration_ms":10}
        browser {"action":"click"}
        browser {"action":"type","ref":"e1","text":""}
        browser {"action":"wait","duration_ms":10}
        computer {"action":"wait","duration_ms":10}
        "#,
        &expect![[r#"
            browser {"action":"click","ref":"e1","selector":".go"}
              CONTRACT_VIOLATION field=selector: browser.click takes one of ref, selector, not both
            browser {"action":"wait","ref":"e1","timeout":90000}
              CONTRACT_VIOLATION field=timeout: timeout must be between 1 and 60000, got 90000
            browser {"action":"double_click","ref":"e1","click_count":3}
              CONTRACT_VIOLATION field=click_count: double_click always uses click_count 2; omit click_count or use click with click_count
            browser {"action":"navigate","url":"https://example.com/","text":"hi"}
              CONTRACT_VIOLATION field=text: browser.navigate does not take text; it takes: url, timeout, browser_id, tab_id, tab_index, snapshot_id
            browser {"action":"wait","timeout":1000,"duration_ms":500}
              CONTRACT_VIOLATION field=duration_ms: timeout and duration_ms are mutually exclusive for browser.wait; send only one
            browser {"action":"wait","amount":5,"duration_ms":10}
              CONTRACT_VIOLATION field=amount: browser.wait does not take amount; it takes: timeout, duration_ms, state, ref, selector, browser_id, tab_id, tab_index, snapshot_id
            browser {"action":"click"}
              CONTRACT_VIOLATION field=ref: browser.click needs a target: ref or selector or a point (x,y or nx,ny)
            browser {"action":"type","ref":"e1","text":""}
              CONTRACT_VIOLATION field=text: text must not be empty: the text, exactly as it should appear
            browser {"action":"wait","duration_ms":10}
              ok {"duration_ms":10}
            computer {"action":"wait","duration_ms":10}
              ok {"duration_ms":10}
        "#]],
    );
}

#[test]
fn generic_checks() {
    check(
        r#"
        browser {"action":"teleport"}
        browser {"action":"click","ref":"e1","foo":1,"bar":2}
        browser {"action":"navigate","url":5}
        browser {"action":"click","ref":"e1","button":"side"}
        browser {"action":"click","ref":"e1","click_count":1.5}
        browser {"action":"scroll","pages":0.05}
        browser {"action":"click","nx":0.5}
        browser {"action":"click","x":1,"y":2,"nx":0.1,"ny":0.2}
        browser {"action":"click","ref":"e1","x":1,"y":2}
        browser {"action":"get_url","browser_id":"http://x"}
        browser {"action":"get_url","browser_id":"chrome-70000"}
        browser {"action":"get_url","browser_id":"chrome-9222"}
        computer {"action":"probe","app_id":"mousepad"}
        browser {"action":"get_url","tab_id":"T1","tab_index":0}
        browser {"action":"click","ref":"e1","tab_id":null}
        browser {"action":"tab_close","tab_id":"T1","no_such_param":null}
        computer {"action":"click","selector":".go"}
        computer {"action":"click","x":10,"y":20.5}
        "#,
        &expect![[r#"
            browser {"action":"teleport"}
              CONTRACT_VIOLATION field=action: unknown browser action "teleport"; use one of: navigate, click, double_click, hover, focus, type, fill, set_value, select, check, uncheck, paste, select_text, secondary_action, press, keyboard_type, keydown, keyup, scroll, scroll_into_view, drag, upload, wait, dialog, go_back, go_forward, reload, tab_new, tab_select, tab_get, tab_close, tab_mark, cdp_session, cdp_revoke, storage_state, snapshot, get_content, get_html, get_url, get_title, screenshot, screenshot_annotate, state_and_screenshot, evaluate, pdf, tab_list, downloads, probe
            browser {"action":"click","ref":"e1","foo":1,"bar":2}
              CONTRACT_VIOLATION field=bar: browser.click does not take bar, foo; it takes: button, click_count, ref, selector, x, y, nx, ny, browser_id, tab_id, tab_index, snapshot_id
            browser {"action":"navigate","url":5}
              CONTRACT_VIOLATION field=url: url must be a string URL
            browser {"action":"click","ref":"e1","button":"side"}
              CONTRACT_VIOLATION field=button: button must be one of: left, middle, right
            browser {"action":"click","ref":"e1","click_count":1.5}
              CONTRACT_VIOLATION field=click_count: click_count must be a whole number, not 1.5
            browser {"action":"scroll","pages":0.05}
              CONTRACT_VIOLATION field=pages: pages must be between 0.1 and 20, got 0.05
            browser {"action":"click","nx":0.5}
              CONTRACT_VIOLATION field=ny: nx and ny go together; browser.click got only one of them
            browser {"action":"click","x":1,"y":2,"nx":0.1,"ny":0.2}
              CONTRACT_VIOLATION field=nx: browser.click takes a point as x,y or as nx,ny, not both
            browser {"action":"click","ref":"e1","x":1,"y":2}
              CONTRACT_VIOLATION field=x: browser.click takes an element (ref) or a point, not both
            browser {"action":"get_url","browser_id":"http://x"}
              CONTRACT_VIOLATION field=browser_id: browser_id "http://x" is not an id: a browser id looks like chrome-9222; get one from context.list_browsers
            browser {"action":"get_url","browser_id":"chrome-70000"}
              CONTRACT_VIOLATION field=browser_id: browser_id "chrome-70000" is not an id: a browser id looks like chrome-9222; get one from context.list_browsers
            browser {"action":"get_url","browser_id":"chrome-9222"}
              ok {"browser_id":"chrome-9222"}
            computer {"action":"probe","app_id":"mousepad"}
              CONTRACT_VIOLATION field=app_id: app_id "mousepad" is not an id: an app id looks like app:1234; get one from context.list_apps
            browser {"action":"get_url","tab_id":"T1","tab_index":0}
              CONTRACT_VIOLATION field=tab_index: tab_id and tab_index both pick the tab; send only tab_id (tab_index is the legacy position)
            browser {"action":"click","ref":"e1","tab_id":null}
              ok {"button":"left","click_count":1,"ref":"e1"}
            browser {"action":"tab_close","tab_id":"T1","no_such_param":null}
              CONTRACT_VIOLATION field=no_such_param: browser.tab_close does not take no_such_param; it takes: browser_id, tab_id, tab_index, snapshot_id
            computer {"action":"click","selector":".go"}
              CONTRACT_VIOLATION field=selector: computer.click does not take selector; it takes: button, click_count, dispatch, ref, x, y, nx, ny, app_id, window_id, snapshot_id
            computer {"action":"click","x":10,"y":20.5}
              CONTRACT_VIOLATION field=y: y must be a whole number, not 20.5
        "#]],
    );
}

#[test]
fn browser_actions() {
    check(
        r#"
        browser {"action":"navigate","url":"https://example.com/"}
        browser {"action":"navigate","url":" "}
        browser {"action":"navigate"}
        browser {"action":"double_click","x":5,"y":6}
        browser {"action":"double_click","ref":"e1","click_count":2}
        browser {"action":"hover","ref":"e1","button":"left"}
        browser {"action":"focus"}
        browser {"action":"type","text":"hi"}
        browser {"action":"fill","selector":"input[name=q]","text":""}
        browser {"action":"set_value","ref":"e1","value":""}
        browser {"action":"select","ref":"e1"}
        browser {"action":"select","ref":"e1","values":["a","Banana"]}
        browser {"action":"fill","ref":"e1"}
        browser {"action":"fill","ref":"e1","text":"a","values":["a"]}
        browser {"action":"fill","ref":"e1","values":[]}
        browser {"action":"type","ref":"e1","text":"ls","mode":"keys"}
        browser {"action":"type","ref":"e1","text":"ls","mode":"chords"}
        browser {"action":"keyboard_type","ref":"e1","text":"ls","mode":"keys"}
        browser {"action":"fill","ref":"e1","secret":"github"}
        browser {"action":"type","ref":"e1","text":"x","secret":"github"}
        browser {"action":"keyboard_type","secret_totp":"github"}
        browser {"action":"type","ref":"e1"}
        browser {"action":"get_content","ref":"e1","offset":10,"length":5}
        browser {"action":"get_content","ref":"e1","length":0}
        browser {"action":"get_content","ref":"e1","offset":-1}
        browser {"action":"paste","text":"<b>x</b>","format":"html"}
        browser {"action":"paste","text":"x","format":"png"}
        browser {"action":"select_text","ref":"e1","text":"hello","prefix":"world "}
        browser {"action":"secondary_action","ref":"e1"}
        browser {"action":"press"}
        browser {"action":"keyboard_type","text":"new"}
        browser {"action":"keydown"}
        browser {"action":"keyup","key":"Shift"}
        browser {"action":"scroll","amount":300,"pages":1}
        browser {"action":"scroll","ref":"e4","pages":1}
        browser {"action":"upload","ref":"e1","files":[]}
        browser {"action":"upload","ref":"e1","files":["report.pdf"]}
        browser {"action":"dialog"}
        browser {"action":"dialog","accept":false,"prompt_text":"x"}
        browser {"action":"go_back","timeout":0}
        browser {"action":"evaluate","script":""}
        "#,
        &expect![[r#"
            browser {"action":"navigate","url":"https://example.com/"}
              ok {"timeout":30000,"url":"https://example.com/"}
            browser {"action":"navigate","url":" "}
              CONTRACT_VIOLATION field=url: " " is not a URL (relative URL without a base); send an absolute URL such as https://example.com/
            browser {"action":"navigate"}
              CONTRACT_VIOLATION field=url: url is required for browser.navigate: the address to open, e.g. https://example.com/ (a bare host means http://)
            browser {"action":"double_click","x":5,"y":6}
              ok {"button":"left","click_count":2,"x":5,"y":6}
            browser {"action":"double_click","ref":"e1","click_count":2}
              ok {"button":"left","click_count":2,"ref":"e1"}
            browser {"action":"hover","ref":"e1","button":"left"}
              CONTRACT_VIOLATION field=button: browser.hover does not take button; it takes: ref, selector, x, y, nx, ny, browser_id, tab_id, tab_index, snapshot_id
            browser {"action":"focus"}
              CONTRACT_VIOLATION field=ref: browser.focus needs a target: ref or selector
            browser {"action":"type","text":"hi"}
              CONTRACT_VIOLATION field=ref: browser.type needs a target: ref or selector
            browser {"action":"fill","selector":"input[name=q]","text":""}
              ok {"selector":"input[name=q]","text":""}
            browser {"action":"set_value","ref":"e1","value":""}
              ok {"ref":"e1","value":""}
            browser {"action":"select","ref":"e1"}
              CONTRACT_VIOLATION field=value: select needs value (an option's value or label), or values for a <select multiple>
            browser {"action":"select","ref":"e1","values":["a","Banana"]}
              ok {"ref":"e1","values":["a","Banana"]}
            browser {"action":"fill","ref":"e1"}
              CONTRACT_VIOLATION field=text: fill needs text ("" clears the field), values for a <select multiple>, or secret
            browser {"action":"fill","ref":"e1","text":"a","values":["a"]}
              CONTRACT_VIOLATION field=values: text and values are mutually exclusive for browser.fill; send only one
            browser {"action":"fill","ref":"e1","values":[]}
              CONTRACT_VIOLATION field=values: values must be a non-empty array of non-empty strings
            browser {"action":"type","ref":"e1","text":"ls","mode":"keys"}
              ok {"mode":"keys","ref":"e1","text":"ls"}
            browser {"action":"type","ref":"e1","text":"ls","mode":"chords"}
              CONTRACT_VIOLATION field=mode: mode must be one of: insert, keys
            browser {"action":"keyboard_type","ref":"e1","text":"ls","mode":"keys"}
              ok {"mode":"keys","ref":"e1","text":"ls"}
            browser {"action":"fill","ref":"e1","secret":"github"}
              ok {"ref":"e1","secret":"github"}
            browser {"action":"type","ref":"e1","text":"x","secret":"github"}
              CONTRACT_VIOLATION field=secret: text and secret are exclusive: send one of text, secret and secret_totp
            browser {"action":"keyboard_type","secret_totp":"github"}
              ok {"mode":"insert","secret_totp":"github"}
            browser {"action":"type","ref":"e1"}
              CONTRACT_VIOLATION field=text: send text, or secret (a name from context.list_secrets), or secret_totp
            browser {"action":"get_content","ref":"e1","offset":10,"length":5}
              ok {"length":5,"offset":10,"ref":"e1"}
            browser {"action":"get_content","ref":"e1","length":0}
              CONTRACT_VIOLATION field=length: length must be between 1 and 2147483647, got 0
            browser {"action":"get_content","ref":"e1","offset":-1}
              CONTRACT_VIOLATION field=offset: offset must be between 0 and 2147483647, got -1
            browser {"action":"paste","text":"<b>x</b>","format":"html"}
              ok {"format":"html","text":"<b>x</b>"}
            browser {"action":"paste","text":"x","format":"png"}
              CONTRACT_VIOLATION field=format: paste takes format text, html or markdown
            browser {"action":"select_text","ref":"e1","text":"hello","prefix":"world "}
              ok {"prefix":"world ","ref":"e1","selection_type":"select","text":"hello"}
            browser {"action":"secondary_action","ref":"e1"}
              CONTRACT_VIOLATION field=name: name is required for browser.secondary_action: the action's name; the DOM has no such actions, so this is UNSUPPORTED
            browser {"action":"press"}
              CONTRACT_VIOLATION field=key: key is required for browser.press: a key or chord such as Enter, Control+Shift+T, F5, PageDown or +
            browser {"action":"keyboard_type","text":"new"}
              ok {"mode":"insert","text":"new"}
            browser {"action":"keydown"}
              CONTRACT_VIOLATION field=key: key is required for browser.keydown: a key or chord such as Enter, Control+Shift+T, F5, PageDown or +
            browser {"action":"keyup","key":"Shift"}
              ok {"key":"Shift"}
            browser {"action":"scroll","amount":300,"pages":1}
              CONTRACT_VIOLATION field=pages: amount and pages are mutually exclusive for browser.scroll; send only one
            browser {"action":"scroll","ref":"e4","pages":1}
              ok {"direction":"down","pages":1,"ref":"e4"}
            browser {"action":"upload","ref":"e1","files":[]}
              CONTRACT_VIOLATION field=files: files must be a non-empty array of non-empty strings
            browser {"action":"upload","ref":"e1","files":["report.pdf"]}
              ok {"files":["report.pdf"],"ref":"e1"}
            browser {"action":"dialog"}
              ok {"accept":true}
            browser {"action":"dialog","accept":false,"prompt_text":"x"}
              CONTRACT_VIOLATION field=prompt_text: prompt_text is the answer given when accepting a prompt; drop it or send accept true
            browser {"action":"go_back","timeout":0}
              CONTRACT_VIOLATION field=timeout: timeout must be between 1 and 60000, got 0
            browser {"action":"evaluate","script":""}
              CONTRACT_VIOLATION field=script: script must not be empty: a JavaScript expression or function body; await is allowed
        "#]],
    );
}

#[test]
fn browser_wait() {
    check(
        r#"
        browser {"action":"wait","ref":"e1","duration_ms":10}
        browser {"action":"wait","state":"hidden"}
        browser {"action":"wait","timeout":2000}
        browser {"action":"wait"}
        browser {"action":"wait","selector":".done","state":"visible","timeout":5000}
        browser {"action":"wait","ref":"e1","state":"gone"}
        "#,
        &expect![[r#"
            browser {"action":"wait","ref":"e1","duration_ms":10}
              CONTRACT_VIOLATION field=duration_ms: wait with a target uses timeout; duration_ms is a fixed pause without a target
            browser {"action":"wait","state":"hidden"}
              CONTRACT_VIOLATION field=state: state is what a target should become; send ref or selector with it, or drop state
            browser {"action":"wait","timeout":2000}
              CONTRACT_VIOLATION field=timeout: timeout bounds a wait for ref or selector; without a target send duration_ms for a fixed pause
            browser {"action":"wait"}
              CONTRACT_VIOLATION field=duration_ms: wait needs ref or selector to wait for, or duration_ms for a fixed pause
            browser {"action":"wait","selector":".done","state":"visible","timeout":5000}
              ok {"selector":".done","state":"visible","timeout":5000}
            browser {"action":"wait","ref":"e1","state":"gone"}
              CONTRACT_VIOLATION field=state: state must be one of: visible, hidden, attached, detached
        "#]],
    );
}

#[test]
fn browser_drag() {
    check(
        r#"
        browser {"action":"drag","ref":"e1","to_x":10,"to_y":20}
        browser {"action":"drag","x":1,"y":2,"target_selector":".bin"}
        browser {"action":"drag","ref":"e1"}
        browser {"action":"drag","ref":"e1","to_x":10}
        browser {"action":"drag","ref":"e1","target_ref":"e2","to_x":10,"to_y":20}
        browser {"action":"drag","ref":"e1","target_ref":"e2","target_selector":".bin"}
        browser {"action":"drag","target_ref":"e2"}
        "#,
        &expect![[r#"
            browser {"action":"drag","ref":"e1","to_x":10,"to_y":20}
              ok {"button":"left","ref":"e1","to_x":10,"to_y":20}
            browser {"action":"drag","x":1,"y":2,"target_selector":".bin"}
              ok {"button":"left","target_selector":".bin","x":1,"y":2}
            browser {"action":"drag","ref":"e1"}
              CONTRACT_VIOLATION field=target_ref: drag needs a drop target: target_ref, target_selector, to_x,to_y or to_nx,to_ny
            browser {"action":"drag","ref":"e1","to_x":10}
              CONTRACT_VIOLATION field=to_y: to_x and to_y go together; drag got only one of them
            browser {"action":"drag","ref":"e1","target_ref":"e2","to_x":10,"to_y":20}
              CONTRACT_VIOLATION field=to_x: drag takes one drop target, got target_ref and to_x; send only one
            browser {"action":"drag","ref":"e1","target_ref":"e2","target_selector":".bin"}
              CONTRACT_VIOLATION field=target_selector: drag takes one drop target, got target_ref and target_selector; send only one
            browser {"action":"drag","target_ref":"e2"}
              CONTRACT_VIOLATION field=ref: browser.drag needs a target: ref or selector or a point (x,y or nx,ny)
        "#]],
    );
}

#[test]
fn browser_tabs() {
    check(
        r#"
        browser {"action":"tab_new"}
        browser {"action":"tab_new","url":"https://example.com/","visible":false}
        browser {"action":"tab_select"}
        browser {"action":"tab_get","tab_index":2}
        browser {"action":"tab_get"}
        browser {"action":"tab_close","tab_id":"T1","tab_index":1}
        browser {"action":"tab_close"}
        browser {"action":"tab_mark"}
        browser {"action":"tab_mark","clear":true,"note":"done"}
        browser {"action":"tab_mark","kind":"handoff","note":"log in here"}
        "#,
        &expect![[r#"
            browser {"action":"tab_new"}
              ok {"visible":true}
            browser {"action":"tab_new","url":"https://example.com/","visible":false}
              ok {"url":"https://example.com/","visible":false}
            browser {"action":"tab_select"}
              CONTRACT_VIOLATION field=tab_id: tab_id (or the legacy tab_index) is required: it names the tab; get ids from tab_list
            browser {"action":"tab_get","tab_index":2}
              ok {"tab_index":2}
            browser {"action":"tab_get"}
              CONTRACT_VIOLATION field=tab_id: tab_id (or the legacy tab_index) is required: it names the tab; get ids from tab_list
            browser {"action":"tab_close","tab_id":"T1","tab_index":1}
              CONTRACT_VIOLATION field=tab_index: tab_id and tab_index both pick the tab; send only tab_id (tab_index is the legacy position)
            browser {"action":"tab_close"}
              ok {}
            browser {"action":"tab_mark"}
              CONTRACT_VIOLATION field=kind: tab_mark needs kind deliverable or handoff, or clear true to remove the mark
            browser {"action":"tab_mark","clear":true,"note":"done"}
              CONTRACT_VIOLATION field=note: clear removes the mark; a note goes with kind, not with clear
            browser {"action":"tab_mark","kind":"handoff","note":"log in here"}
              ok {"clear":false,"kind":"handoff","note":"log in here"}
        "#]],
    );
}

#[test]
fn browser_observe() {
    check(
        r#"
        browser {"action":"snapshot"}
        browser {"action":"snapshot","cursor":"c2","scope_ref":"e5"}
        browser {"action":"snapshot","cursor":"c2","limit":50}
        browser {"action":"get_content","selector":"main"}
        browser {"action":"screenshot","quality":80}
        browser {"action":"screenshot","format":"jpeg","quality":80,"full_page":true}
        browser {"action":"screenshot","format":"markdown"}
        browser {"action":"state_and_screenshot","cursor":"c2"}
        browser {"action":"state_and_screenshot","query":"login","max_width":800}
        browser {"action":"screenshot_annotate"}
        "#,
        &expect![[r#"
            browser {"action":"snapshot"}
              ok {"disable_diffing":false,"limit":300}
            browser {"action":"snapshot","cursor":"c2","scope_ref":"e5"}
              CONTRACT_VIOLATION field=scope_ref: cursor continues an earlier snapshot with its settings; drop scope_ref, or drop cursor to start a new snapshot
            browser {"action":"snapshot","cursor":"c2","limit":50}
              ok {"cursor":"c2","disable_diffing":false,"limit":50}
            browser {"action":"get_content","selector":"main"}
              ok {"offset":0,"selector":"main"}
            browser {"action":"screenshot","quality":80}
              CONTRACT_VIOLATION field=quality: quality applies only to format jpeg or webp; add format jpeg or webp, or drop quality
            browser {"action":"screenshot","format":"jpeg","quality":80,"full_page":true}
              ok {"format":"jpeg","full_page":true,"quality":80}
            browser {"action":"screenshot","format":"markdown"}
              CONTRACT_VIOLATION field=format: format markdown is for text; images take png, jpeg or webp
            browser {"action":"state_and_screenshot","cursor":"c2"}
              CONTRACT_VIOLATION field=cursor: browser.state_and_screenshot does not take cursor; it takes: limit, scope_ref, disable_diffing, query, full_page, format, quality, max_width, browser_id, tab_id, tab_index, snapshot_id
            browser {"action":"state_and_screenshot","query":"login","max_width":800}
              ok {"disable_diffing":false,"format":"png","full_page":false,"limit":300,"max_width":800,"query":"login"}
            browser {"action":"screenshot_annotate"}
              ok {}
        "#]],
    );
}

#[test]
fn computer_actions() {
    check(
        r#"
        computer {"action":"click","ref":"e3","dispatch":"background"}
        computer {"action":"click","x":10,"y":20,"dispatch":"background"}
        computer {"action":"double_click","ref":"e3","click_count":1}
        computer {"action":"type","text":"héllo 🚀","window_id":"w1"}
        computer {"action":"type","ref":"e1","text":""}
        computer {"action":"fill","text":""}
        computer {"action":"set_value","value":"3"}
        computer {"action":"paste","text":"x","format":"markdown"}
        computer {"action":"paste","text":"x","format":"jpeg"}
        computer {"action":"key","key":"Control+Shift+T"}
        computer {"action":"keydown","key":"Shift","dispatch":"foreground"}
        computer {"action":"keyup"}
        computer {"action":"scroll","nx":0.5,"ny":0.5,"amount":240}
        computer {"action":"drag","x":1,"y":2,"to_x":30,"to_y":40}
        computer {"action":"drag","ref":"e1","to_x":30,"to_y":40}
        computer {"action":"drag","x":1,"y":2,"to_nx":0.5}
        computer {"action":"drag","x":1,"y":2}
        computer {"action":"drag","x":1,"y":2,"target_ref":"e9","dispatch":"background"}
        computer {"action":"mouse_move"}
        computer {"action":"mouse_down","button":"right"}
        computer {"action":"mouse_up","ref":"e1"}
        "#,
        &expect![[r#"
            computer {"action":"click","ref":"e3","dispatch":"background"}
              ok {"button":"left","click_count":1,"dispatch":"background","ref":"e3"}
            computer {"action":"click","x":10,"y":20,"dispatch":"background"}
              CONTRACT_VIOLATION field=dispatch: dispatch background works through accessibility only, so it needs a ref, not a point; send ref, or use dispatch auto or foreground
            computer {"action":"double_click","ref":"e3","click_count":1}
              CONTRACT_VIOLATION field=click_count: double_click always uses click_count 2; omit click_count or use click with click_count
            computer {"action":"type","text":"héllo 🚀","window_id":"w1"}
              ok {"dispatch":"auto","text":"héllo 🚀","window_id":"w1"}
            computer {"action":"type","ref":"e1","text":""}
              CONTRACT_VIOLATION field=text: text must not be empty: the text, exactly as it should appear
            computer {"action":"fill","text":""}
              ok {"dispatch":"auto","text":""}
            computer {"action":"set_value","value":"3"}
              CONTRACT_VIOLATION field=ref: computer.set_value needs a target: ref
            computer {"action":"paste","text":"x","format":"markdown"}
              CONTRACT_VIOLATION field=format: format must be one of: png, jpeg, webp, text, html
            computer {"action":"paste","text":"x","format":"jpeg"}
              CONTRACT_VIOLATION field=format: paste and the clipboard take format text or html
            computer {"action":"key","key":"Control+Shift+T"}
              ok {"dispatch":"auto","key":"Control+Shift+T"}
            computer {"action":"keydown","key":"Shift","dispatch":"foreground"}
              ok {"dispatch":"foreground","key":"Shift"}
            computer {"action":"keyup"}
              CONTRACT_VIOLATION field=key: key is required for computer.keyup: a key or chord such as Enter, Control+Shift+T, F5, PageDown or +
            computer {"action":"scroll","nx":0.5,"ny":0.5,"amount":240}
              ok {"amount":240,"direction":"down","dispatch":"auto","nx":0.5,"ny":0.5}
            computer {"action":"drag","x":1,"y":2,"to_x":30,"to_y":40}
              ok {"button":"left","dispatch":"auto","to_x":30,"to_y":40,"x":1,"y":2}
            computer {"action":"drag","ref":"e1","to_x":30,"to_y":40}
              CONTRACT_VIOLATION field=ref: computer.drag does not take ref; it takes: to_x, to_y, to_nx, to_ny, target_ref, button, dispatch, x, y, nx, ny, app_id, window_id, snapshot_id
            computer {"action":"drag","x":1,"y":2,"to_nx":0.5}
              CONTRACT_VIOLATION field=to_ny: to_nx and to_ny go together; drag got only one of them
            computer {"action":"drag","x":1,"y":2}
              CONTRACT_VIOLATION field=target_ref: drag needs a drop target: target_ref, to_x,to_y or to_nx,to_ny
            computer {"action":"drag","x":1,"y":2,"target_ref":"e9","dispatch":"background"}
              CONTRACT_VIOLATION field=dispatch: this action is pointer input, which dispatch background never sends; use dispatch auto or foreground
            computer {"action":"mouse_move"}
              CONTRACT_VIOLATION field=x: computer.mouse_move needs a target: a point (x,y or nx,ny)
            computer {"action":"mouse_down","button":"right"}
              ok {"button":"right","dispatch":"auto"}
            computer {"action":"mouse_up","ref":"e1"}
              CONTRACT_VIOLATION field=ref: computer.mouse_up does not take ref; it takes: button, dispatch, x, y, nx, ny, app_id, window_id, snapshot_id
        "#]],
    );
}

#[test]
fn computer_window() {
    check(
        r#"
        computer {"action":"window","operation":"maximize"}
        computer {"action":"window","window_id":"w1","operation":"move"}
        computer {"action":"window","window_id":"w1","operation":"move","x":10}
        computer {"action":"window","window_id":"w1","operation":"move","x":10,"y":20}
        computer {"action":"window","window_id":"w1","operation":"resize","width":800}
        computer {"action":"window","window_id":"w1","operation":"resize","width":800,"height":600}
        computer {"action":"window","window_id":"w1","operation":"minimize","x":0,"y":0}
        computer {"action":"window","window_id":"w1","operation":"move","x":0,"y":0,"width":5,"height":5}
        computer {"action":"window","window_id":"w1","operation":"shade"}
        "#,
        &expect![[r#"
            computer {"action":"window","operation":"maximize"}
              CONTRACT_VIOLATION field=window_id: window_id is required: it names the window; get one from context.list_windows
            computer {"action":"window","window_id":"w1","operation":"move"}
              CONTRACT_VIOLATION field=x: window move needs x and y: the new top-left corner in screen pixels
            computer {"action":"window","window_id":"w1","operation":"move","x":10}
              CONTRACT_VIOLATION field=y: x and y go together; computer.window got only one of them
            computer {"action":"window","window_id":"w1","operation":"move","x":10,"y":20}
              ok {"operation":"move","window_id":"w1","x":10,"y":20}
            computer {"action":"window","window_id":"w1","operation":"resize","width":800}
              CONTRACT_VIOLATION field=height: width and height go together; window got only one of them
            computer {"action":"window","window_id":"w1","operation":"resize","width":800,"height":600}
              ok {"height":600,"operation":"resize","width":800,"window_id":"w1"}
            computer {"action":"window","window_id":"w1","operation":"minimize","x":0,"y":0}
              CONTRACT_VIOLATION field=x: x and y are only for operation move, not minimize; drop them
            computer {"action":"window","window_id":"w1","operation":"move","x":0,"y":0,"width":5,"height":5}
              CONTRACT_VIOLATION field=width: width and height are only for operation resize, not move; drop them
            computer {"action":"window","window_id":"w1","operation":"shade"}
              CONTRACT_VIOLATION field=operation: operation must be one of: minimize, maximize, restore, close, move, resize
        "#]],
    );
}

#[test]
fn computer_wait() {
    check(
        r#"
        computer {"action":"wait"}
        computer {"action":"wait","until":"window_opens","timeout":5000}
        computer {"action":"wait","until":"element_appears"}
        computer {"action":"wait","until":"element_disappears","query":"Saving","app_id":"app:42"}
        computer {"action":"wait","query":"Saving"}
        computer {"action":"wait","timeout":3000}
        computer {"action":"wait","until":"window_opens","duration_ms":100}
        computer {"action":"wait","timeout":3000,"duration_ms":100}
        computer {"action":"wait","amount":1000}
        "#,
        &expect![[r#"
            computer {"action":"wait"}
              CONTRACT_VIOLATION field=duration_ms: wait needs until (with query) to wait for something, or duration_ms for a fixed pause
            computer {"action":"wait","until":"window_opens","timeout":5000}
              ok {"timeout":5000,"until":"window_opens"}
            computer {"action":"wait","until":"element_appears"}
              CONTRACT_VIOLATION field=query: until element_appears needs query: words of the element's role, name or value
            computer {"action":"wait","until":"element_disappears","query":"Saving","app_id":"app:42"}
              ok {"app_id":"app:42","query":"Saving","until":"element_disappears"}
            computer {"action":"wait","query":"Saving"}
              CONTRACT_VIOLATION field=query: query says what until waits for; add until or drop query
            computer {"action":"wait","timeout":3000}
              CONTRACT_VIOLATION field=timeout: timeout bounds an until wait; for a fixed pause send duration_ms
            computer {"action":"wait","until":"window_opens","duration_ms":100}
              CONTRACT_VIOLATION field=duration_ms: wait with until uses timeout; duration_ms is a fixed pause without until
            computer {"action":"wait","timeout":3000,"duration_ms":100}
              CONTRACT_VIOLATION field=duration_ms: timeout and duration_ms are mutually exclusive for computer.wait; send only one
            computer {"action":"wait","amount":1000}
              CONTRACT_VIOLATION field=amount: computer.wait does not take amount; it takes: duration_ms, until, query, timeout, app_id, window_id, snapshot_id
        "#]],
    );
}

#[test]
fn computer_observe() {
    check(
        r#"
        computer {"action":"snapshot","app_id":"app:42","max_depth":12}
        computer {"action":"snapshot","cursor":"c3","max_depth":12}
        computer {"action":"get_window_state"}
        computer {"action":"get_window_state","window_id":"w1"}
        computer {"action":"screenshot","region":{"x":0,"y":0,"width":100,"height":50}}
        computer {"action":"screenshot","window_id":"w1","region":{"x":0,"y":0,"width":100,"height":50}}
        computer {"action":"screenshot","region":{"x":0,"y":0,"width":0,"height":50}}
        computer {"action":"screenshot","format":"webp","quality":70,"max_width":1024}
        computer {"action":"state_and_screenshot","quality":50}
        computer {"action":"get_text"}
        computer {"action":"clipboard_get","format":"png"}
        computer {"action":"clipboard_set","text":""}
        computer {"action":"probe","app_id":"app:42"}
        "#,
        &expect![[r#"
            computer {"action":"snapshot","app_id":"app:42","max_depth":12}
              ok {"app_id":"app:42","disable_diffing":false,"limit":300,"max_depth":12}
            computer {"action":"snapshot","cursor":"c3","max_depth":12}
              CONTRACT_VIOLATION field=max_depth: cursor continues an earlier snapshot with its settings; drop max_depth, or drop cursor to start a new snapshot
            computer {"action":"get_window_state"}
              CONTRACT_VIOLATION field=window_id: window_id is required: it names the window; get one from context.list_windows
            computer {"action":"get_window_state","window_id":"w1"}
              ok {"include_screenshot":true,"window_id":"w1"}
            computer {"action":"screenshot","region":{"x":0,"y":0,"width":100,"height":50}}
              ok {"format":"png","region":{"height":50,"width":100,"x":0,"y":0}}
            computer {"action":"screenshot","window_id":"w1","region":{"x":0,"y":0,"width":100,"height":50}}
              CONTRACT_VIOLATION field=region: window_id and region are mutually exclusive for computer.screenshot; send only one
            computer {"action":"screenshot","region":{"x":0,"y":0,"width":0,"height":50}}
              CONTRACT_VIOLATION field=region: region.width must be a whole number between 1 and 65535
            computer {"action":"screenshot","format":"webp","quality":70,"max_width":1024}
              ok {"format":"webp","max_width":1024,"quality":70}
            computer {"action":"state_and_screenshot","quality":50}
              CONTRACT_VIOLATION field=quality: quality applies only to format jpeg or webp; add format jpeg or webp, or drop quality
            computer {"action":"get_text"}
              CONTRACT_VIOLATION field=ref: computer.get_text needs a target: ref
            computer {"action":"clipboard_get","format":"png"}
              CONTRACT_VIOLATION field=format: paste and the clipboard take format text or html
            computer {"action":"clipboard_set","text":""}
              ok {"format":"text","text":""}
            computer {"action":"probe","app_id":"app:42"}
              ok {"app_id":"app:42"}
        "#]],
    );
}

#[test]
fn direct_calls_share_the_contract() {
    let wait = BROWSER.action("wait").expect("browser.wait exists");
    let args: Value = serde_json::from_str(r#"{"duration_ms":10}"#).expect("JSON");
    expect![[r#"ok {"duration_ms":10}"#]]
        .assert_eq(&render(validate_direct(&BROWSER, wait, &args)));
    let args: Value = serde_json::from_str(r#"{"action":"wait"}"#).expect("JSON");
    expect!["CONTRACT_VIOLATION field=action: browser.wait already names the action; drop the action parameter"].assert_eq(&render(validate_direct(&BROWSER, wait, &args)));
}

/// The action names of `shared/design/actions-v1.md`, per tool.
const CATALOGUE: [(&str, &[&str]); 2] = [
    (
        "browser",
        &[
            "navigate",
            "click",
            "double_click",
            "hover",
            "focus",
            "type",
            "fill",
            "set_value",
            "select",
            "check",
            "uncheck",
            "paste",
            "select_text",
            "secondary_action",
            "press",
            "keyboard_type",
            "keydown",
            "keyup",
            "scroll",
            "scroll_into_view",
            "drag",
            "upload",
            "wait",
            "dialog",
            "go_back",
            "go_forward",
            "reload",
            "tab_new",
            "tab_select",
            "tab_get",
            "tab_close",
            "tab_mark",
            "cdp_session",
            "cdp_revoke",
            "storage_state",
            "snapshot",
            "get_content",
            "get_html",
            "get_url",
            "get_title",
            "screenshot",
            "screenshot_annotate",
            "state_and_screenshot",
            "evaluate",
            "pdf",
            "tab_list",
            "downloads",
            "probe",
        ],
    ),
    (
        "computer",
        &[
            "click",
            "double_click",
            "type",
            "fill",
            "set_value",
            "paste",
            "select_text",
            "secondary_action",
            "key",
            "keydown",
            "keyup",
            "scroll",
            "drag",
            "mouse_move",
            "mouse_down",
            "mouse_up",
            "window",
            "wait",
            "snapshot",
            "get_window_state",
            "screenshot",
            "state_and_screenshot",
            "get_text",
            "clipboard_get",
            "clipboard_set",
            "probe",
        ],
    ),
];

#[test]
fn every_catalogue_action_exists_and_nothing_else() {
    for (tool_name, names) in CATALOGUE {
        let tool = super::tool(tool_name).expect("tool exists");
        let missing: Vec<&str> =
            names.iter().copied().filter(|n| tool.action(n).is_none()).collect();
        assert!(missing.is_empty(), "{tool_name} lacks {missing:?}");
        let extra: Vec<&str> =
            tool.actions.iter().map(|a| a.name).filter(|n| !names.contains(n)).collect();
        assert!(extra.is_empty(), "{tool_name} has actions not in the catalogue: {extra:?}");
        let mut seen = std::collections::HashSet::new();
        let dup: Vec<&str> =
            tool.actions.iter().map(|a| a.name).filter(|n| !seen.insert(*n)).collect();
        assert!(dup.is_empty(), "{tool_name} declares {dup:?} twice");
    }
}

/// The flat tool schema has one property per name, so a name has one type per tool.
#[test]
fn one_type_per_parameter_name() {
    fn loose(ty: Ty) -> Ty {
        match ty {
            Ty::Str { .. } => Ty::Str { allow_empty: true },
            other => other,
        }
    }
    for tool in TOOLS {
        let mut seen: BTreeMap<&str, (Ty, String)> = BTreeMap::new();
        let mut clashes = Vec::new();
        let keys = tool.element_keys.iter().chain(tool.point_keys).chain(tool.common);
        let everywhere = keys.map(|p| (p, "tool keys".to_owned()));
        let per_action = tool
            .actions
            .iter()
            .flat_map(|a| tool.accepted(a).into_iter().map(move |p| (p, a.name.to_owned())));
        for (param, place) in everywhere.chain(per_action) {
            match seen.get(param.name) {
                Some((ty, first)) if *ty != loose(param.ty) => clashes.push(format!(
                    "{}.{}: {:?} in {first} but {:?} in {place}",
                    tool.name, param.name, ty, param.ty
                )),
                Some(_) => {}
                None => {
                    seen.insert(param.name, (loose(param.ty), place));
                }
            }
        }
        assert!(clashes.is_empty(), "{clashes:#?}");
    }
}

#[test]
fn every_browser_action_refuses_tab_id_with_tab_index() {
    let mut args = Map::new();
    args.insert("tab_id".into(), Value::from("T1"));
    args.insert("tab_index".into(), Value::from(0));
    for action in BROWSER.actions {
        let refused =
            action.rules.iter().any(|rule| rule(&args).is_err_and(|v| v.field == "tab_index"));
        assert!(refused, "browser.{} accepts tab_id with tab_index", action.name);
    }
}

#[test]
fn classes() {
    let observe = |tool: &Tool| -> Vec<&str> {
        tool.actions.iter().filter(|a| a.class == Class::Observe).map(|a| a.name).collect()
    };
    expect![[r#"
        [
            "wait",
            "tab_get",
            "snapshot",
            "get_content",
            "get_html",
            "get_url",
            "get_title",
            "screenshot",
            "screenshot_annotate",
            "state_and_screenshot",
            "pdf",
            "tab_list",
            "downloads",
            "probe",
        ]
    "#]]
    .assert_debug_eq(&observe(&BROWSER));
    expect![[r#"
        [
            "wait",
            "snapshot",
            "get_window_state",
            "screenshot",
            "state_and_screenshot",
            "get_text",
            "probe",
        ]
    "#]]
    .assert_debug_eq(&observe(&COMPUTER));
    assert!(TOOLS
        .iter()
        .flat_map(|t| t.actions)
        .all(|a| a.class != Class::Exec || a.name == "get_app"));
}

/// Every computer action that sends input lets the caller choose how.
#[test]
fn computer_input_actions_take_dispatch() {
    let without: Vec<&str> = COMPUTER
        .actions
        .iter()
        .filter(|a| a.class == Class::Act && !a.optional.iter().any(|p| p.name == "dispatch"))
        .map(|a| a.name)
        .collect();
    expect![[r#"
        [
            "window",
            "clipboard_set",
        ]
    "#]]
    .assert_debug_eq(&without);
}

/// `tools.list` (and MCP's `tools/list`) goes to the model on every turn: all three tools,
/// their input and output schemas, in at most 20 KB.
#[test]
fn tools_list_fits_in_20_kb() {
    let tools: Vec<serde_json::Value> = super::TOOLS
        .iter()
        .filter(|t| t.listed)
        .map(|t| {
            serde_json::json!({"name": t.name, "description": super::schema::tool_description(t),
                               "inputSchema": super::schema::tool_schema(t),
                               "outputSchema": super::schema::tool_output_schema(t)})
        })
        .collect();
    let bytes =
        serde_json::to_string(&serde_json::json!({"tools": tools})).expect("serializes").len();
    eprintln!("tools.list: {bytes} bytes");
    assert!(bytes <= 20 * 1024, "tools.list is {bytes} bytes");
}

/// The facts the daemon reads from each entry, as a table: what settles as what, what the
/// approval policy singles out, the backend each needs and the events acting ones lead to.
#[test]
fn per_action_facts() {
    use super::spec::{Backend, Gate};
    let mut table = String::new();
    for tool in super::TOOLS {
        for a in tool.actions {
            // Only what changes something settles; reading never does.
            if a.settle.is_some() {
                assert!(a.class.mutating(), "{}.{} settles but changes nothing", tool.name, a.name);
            }
            // The parameters a gate names are the action's own.
            if let Some(Gate::Navigate { url: name } | Gate::Launch { flag: name }) = a.gate {
                assert!(
                    a.own_params().any(|p| p.name == name),
                    "{}.{} has no {name}",
                    tool.name,
                    a.name
                );
            }
            let backend = match tool.name {
                "browser" => Some(Backend::Browser),
                "computer" => Some(Backend::Desktop),
                _ => None,
            };
            assert!(backend.is_none_or(|b| b == a.backend), "{}.{}", tool.name, a.name);
            if a.settle.is_none() && a.gate.is_none() && a.events.is_empty() {
                continue;
            }
            table.push_str(&format!(
                "{}.{}: settle {}, approval {}, {}, events {}\n",
                tool.name,
                a.name,
                a.settle.map_or("-", |k| k.name()),
                a.gate.map_or("-", |g| g.name()),
                a.backend.name(),
                if a.events.is_empty() { "-".to_owned() } else { a.events.join(" ") },
            ));
        }
    }
    expect![[r#"
        context.get_app: settle -, approval launch, desktop, events app.started window.opened window.focused
        context.focus_window: settle window, approval -, desktop, events window.focused focus.changed
        context.request_human: settle -, approval -, daemon, events human.requested takeover.started takeover.ended
        browser.navigate: settle navigate, approval navigate, browser, events tab.created tab.closed download.finished dialog.opened
        browser.click: settle pointer, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.double_click: settle pointer, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.hover: settle pointer, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.focus: settle pointer, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.type: settle type, approval secret, browser, events tab.created tab.closed download.finished dialog.opened
        browser.fill: settle type, approval secret, browser, events tab.created tab.closed download.finished dialog.opened
        browser.set_value: settle type, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.select: settle pointer, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.check: settle pointer, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.uncheck: settle pointer, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.paste: settle type, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.select_text: settle type, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.secondary_action: settle pointer, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.press: settle key, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.keyboard_type: settle type, approval secret, browser, events tab.created tab.closed download.finished dialog.opened
        browser.keydown: settle -, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.keyup: settle -, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.scroll: settle scroll, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.scroll_into_view: settle scroll, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.drag: settle pointer, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.upload: settle pointer, approval upload, browser, events tab.created tab.closed download.finished dialog.opened
        browser.dialog: settle pointer, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.go_back: settle navigate, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.go_forward: settle navigate, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.reload: settle navigate, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.tab_new: settle navigate, approval navigate, browser, events tab.created tab.closed download.finished dialog.opened
        browser.tab_select: settle navigate, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.tab_close: settle -, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.tab_mark: settle -, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.cdp_session: settle -, approval cdp, browser, events tab.created tab.closed download.finished dialog.opened
        browser.cdp_revoke: settle -, approval -, browser, events tab.created tab.closed download.finished dialog.opened
        browser.storage_state: settle -, approval storage_state, browser, events tab.created tab.closed download.finished dialog.opened
        browser.evaluate: settle pointer, approval evaluate, browser, events tab.created tab.closed download.finished dialog.opened
        computer.click: settle pointer, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.double_click: settle pointer, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.type: settle type, approval secret, desktop, events window.opened window.closed window.focused focus.changed
        computer.fill: settle type, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.set_value: settle type, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.paste: settle type, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.select_text: settle type, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.secondary_action: settle pointer, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.key: settle key, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.keydown: settle -, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.keyup: settle -, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.scroll: settle scroll, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.drag: settle pointer, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.mouse_move: settle pointer, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.mouse_down: settle pointer, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.mouse_up: settle pointer, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.window: settle window, approval -, desktop, events window.opened window.closed window.focused focus.changed
        computer.clipboard_get: settle -, approval clipboard_read, desktop, events -
        native.anthropic: settle -, approval -, desktop, events window.opened window.closed window.focused focus.changed
        native.openai: settle -, approval -, desktop, events window.opened window.closed window.focused focus.changed
    "#]].assert_eq(&table);
}
