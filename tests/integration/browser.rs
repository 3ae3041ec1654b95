//! The browser backend on a real headful Chromium (Debian's `chromium`) under a private Xvfb,
//! driven through the real daemon over the real WebSocket. Scenarios are grouped so each test
//! needs one Chromium (two cores).

use std::time::Instant;

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::image::rgb_of;
use glovebox_tests::raw::{code, Raw};
use glovebox_tests::DEADLINE;
use serde_json::{json, Value};

/// The result of a call that must succeed.
async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"].clone()
}

/// The ref on the first outline line containing `needle`.
fn ref_of(snapshot: &Value, needle: &str) -> String {
    let text = snapshot["result"]["snapshot"].as_str().unwrap_or_default();
    let line = text
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{text}"));
    glovebox_protocol::outline::line_ref(line).expect("ref").to_owned()
}

async fn eval(c: &mut Raw, script: &str) -> Value {
    ok(c, "browser.evaluate", json!({"script": script})).await["result"]["value"].clone()
}

async fn eval_on(c: &mut Raw, tab: &str, script: &str) -> Value {
    ok(c, "browser.evaluate", json!({"script": script, "tab_id": tab})).await["result"]["value"]
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn form_and_input_on_real_chromium() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    let t = Instant::now();
    let nav = ok(&mut c, "browser.navigate", json!({"url": env.site.url("form.html")})).await;
    let first_ms = t.elapsed().as_millis();
    assert_eq!(nav["result"]["title"], "Test form", "{nav}");
    // The party's first call opens its first tab, in its own browser context.
    assert_eq!(nav["target"]["tab_source"], "new", "{nav}");
    assert!(nav["target"]["browser_id"].as_str().unwrap_or_default().starts_with("chrome-"));

    let t = Instant::now();
    let snap = ok(&mut c, "browser.snapshot", json!({})).await;
    let snap_ms = t.elapsed().as_millis();
    let text = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
    assert!(text.contains("heading \"Test form\""), "{text}");
    assert!(text.contains("value=\"••••\"") && !text.contains("secret-pw"), "masked: {text}");
    assert!(text.contains("clickable \"Settings\""), "icon button gets a ref: {text}");
    assert_eq!(snap["target"]["tab_source"], "session");
    let name = ref_of(&snap, "textbox \"Name\"");
    let inner = ref_of(&snap, "button \"Inner\"");
    let shadow = ref_of(&snap, "button \"Shadow\"");
    ok(&mut c, "browser.click", json!({"ref": inner})).await;
    ok(&mut c, "browser.click", json!({"ref": shadow})).await;
    let hits =
        eval(&mut c, "log.filter(e => e.type === 'inner' || e.type === 'shadow').map(e => e.type)")
            .await;
    assert_eq!(
        hits,
        json!(["inner", "shadow"]),
        "iframe and shadow-root elements are clickable by ref"
    );

    // 1. Form.
    let t = Instant::now();
    let fill = ok(&mut c, "browser.fill", json!({"ref": name, "text": "新名字 Glovebox 🚀"})).await;
    let fill_ms = t.elapsed().as_millis();
    assert_eq!(fill["result"]["value"], "新名字 Glovebox 🚀", "{fill}");
    let inputs =
        eval(&mut c, "log.filter(e => e.type === 'input' && e.target === 'name').length").await;
    assert!(inputs.as_u64().unwrap_or(0) >= 1, "input event seen: {inputs}");
    let cleared = ok(&mut c, "browser.fill", json!({"ref": name, "text": ""})).await;
    assert_eq!(cleared["result"]["value"], "");
    assert_eq!(eval(&mut c, "document.getElementById('name').value").await, "");

    let snap = ok(&mut c, "browser.snapshot", json!({"disable_diffing": true})).await;
    let dbl = ref_of(&snap, "button \"Double\"");
    let ctxb = ref_of(&snap, "button \"Context\"");
    let under = ref_of(&snap, "button \"Under\"");
    assert_eq!(ref_of(&snap, "textbox \"Name\""), name, "unchanged element keeps its ref");
    ok(&mut c, "browser.double_click", json!({"ref": dbl})).await;
    let d = eval(
        &mut c,
        "log.filter(e => e.type === 'dblclick' && e.target === 'dbl').map(e => e.detail)",
    )
    .await;
    assert_eq!(d, json!([2]), "dblclick with detail 2");
    ok(&mut c, "browser.click", json!({"ref": ctxb, "button": "right"})).await;
    let r = eval(&mut c, "[log.some(e => e.type === 'mousedown' && e.target === 'ctx' && e.button === 2), log.some(e => e.type === 'contextmenu' && e.target === 'ctx')]").await;
    assert_eq!(r, json!([true, true]), "right button: mousedown 2 and contextmenu");
    let p = eval(&mut c, "(() => { const r = document.getElementById('tri').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()").await;
    let click = ok(&mut c, "browser.click", json!({"x": p[0], "y": p[1], "click_count": 3})).await;
    assert_eq!(click["result"]["click_count"], 3);
    let d = eval(
        &mut c,
        "log.filter(e => e.type === 'click' && e.target === 'tri').map(e => e.detail)",
    )
    .await;
    assert_eq!(d, json!([1, 2, 3]), "triple click at a viewport point");
    let covered = c.call("browser.click", json!({"ref": under})).await;
    assert_eq!(code(&covered), "ACTION_FAILED", "{covered}");
    assert!(covered.to_string().contains("covered by div#overlay"), "{covered}");

    let content = ok(&mut c, "browser.get_content", json!({})).await;
    assert!(content["result"]["text"].as_str().unwrap_or_default().contains("Triple zone"));
    let t = Instant::now();
    let shot = ok(&mut c, "browser.screenshot", json!({})).await;
    let shot_ms = t.elapsed().as_millis();
    assert_eq!(shot["result"]["mime"], "image/png");
    assert_eq!(shot["result"]["scale"], 1.0, "{}", shot["result"]["width"]);
    let small = ok(
        &mut c,
        "browser.screenshot",
        json!({"format": "jpeg", "max_width": 320, "quality": 60}),
    )
    .await;
    assert_eq!(small["result"]["mime"], "image/jpeg");
    assert_eq!(small["result"]["width"], 320, "scaled to max_width");
    let scale = small["result"]["scale"].as_f64().unwrap_or(1.0);
    let full_w = shot["result"]["width"].as_f64().unwrap_or(1.0);
    assert!(scale < 1.0 && (scale - 320.0 / full_w).abs() < 0.01, "truthful scale {scale}");

    // 2b. Annotated screenshot: the controls in view outlined and tagged with their refs on
    // the image, the refs usable at once, the page left exactly as it was.
    let dom = "[document.getElementsByTagName('*').length, document.documentElement.outerHTML]";
    let dom_before = eval(&mut c, dom).await;
    let dbl_clicks = "log.filter(e => e.type === 'click' && e.target === 'dbl').length";
    let clicks_before = eval(&mut c, dbl_clicks).await.as_u64().unwrap_or(0);
    let t = Instant::now();
    let ann = ok(&mut c, "browser.screenshot_annotate", json!({})).await;
    let ann_ms = t.elapsed().as_millis();
    let r = &ann["result"];
    assert_eq!(r["mime"], "image/png", "{}", r["labels"]);
    assert!(r["snapshot_id"].as_str().is_some_and(|s| s.starts_with('s')), "{}", r["snapshot_id"]);
    let (plain, annotated) = (rgb_of(&shot["result"]), rgb_of(r));
    let view = eval(&mut c, "[innerWidth, innerHeight]").await;
    assert_eq!(
        (annotated.0, annotated.1),
        (view[0].as_u64().unwrap_or(0) as usize, view[1].as_u64().unwrap_or(0) as usize),
        "a PNG of the viewport at scale 1"
    );
    assert_eq!(
        (r["width"].as_u64(), r["height"].as_u64()),
        (Some(annotated.0 as u64), Some(annotated.1 as u64))
    );
    let labels = r["labels"].as_array().cloned().unwrap_or_default();
    let label = |role: &str, name: &str| {
        labels
            .iter()
            .find(|l| l["role"] == role && l["name"] == name)
            .unwrap_or_else(|| panic!("no label for {role} {name:?} in {labels:?}"))
            .clone()
    };
    let (dbl_label, name_label) = (label("button", "Double"), label("textbox", "Name"));
    assert_eq!(name_label["ref"], name.as_str(), "the session's refs: {name_label}");
    label("clickable", "Settings");
    for l in &labels {
        let b = &l["box"];
        let f = |k: &str| b[k].as_f64().unwrap_or(f64::NAN);
        assert!(
            f("x") < view[0].as_f64().unwrap_or(0.0)
                && f("y") < view[1].as_f64().unwrap_or(0.0)
                && f("x") + f("width") > 0.0
                && f("y") + f("height") > 0.0,
            "only what the viewport shows: {l}"
        );
    }
    // The outline is on the image: the left edge of the Double button's box changed colour.
    let b = &dbl_label["box"];
    let (x, y) = (
        b["x"].as_u64().unwrap_or(0) as usize,
        (b["y"].as_u64().unwrap_or(0) + b["height"].as_u64().unwrap_or(0) / 2) as usize,
    );
    let px = |img: &(usize, usize, Vec<u8>)| img.2[(y * img.0 + x) * 3..][..3].to_vec();
    assert_ne!(px(&plain), px(&annotated), "an outline drawn at {x},{y}");
    // A label's ref acts right away, and the page holds nothing the annotation added.
    ok(&mut c, "browser.click", json!({"ref": dbl_label["ref"]})).await;
    let clicks = eval(&mut c, dbl_clicks).await.as_u64().unwrap_or(0);
    assert_eq!(clicks, clicks_before + 1, "the labelled button was clicked");
    assert_eq!(eval(&mut c, dom).await, dom_before, "the page is exactly as it was");
    let snap = ok(&mut c, "browser.snapshot", json!({"disable_diffing": true})).await;
    let text = snap["result"]["snapshot"].as_str().unwrap_or_default();
    for l in &labels {
        let line = format!("[{}]", l["ref"].as_str().unwrap_or_default());
        assert!(text.contains(&line), "{line} is in the snapshot:\n{text}");
    }

    // 3. Input.
    let snap = ok(&mut c, "browser.snapshot", json!({"disable_diffing": true})).await;
    let field = ref_of(&snap, "textbox \"Field\"");
    let area = ref_of(&snap, "textbox \"Area\"");
    let paster = ref_of(&snap, "\"Paster\"");
    let editor = ref_of(&snap, "\"Editor\"");
    let v = ok(&mut c, "browser.set_value", json!({"ref": field, "value": "设置的值 🚀"})).await;
    assert_eq!(v["result"]["value"], "设置的值 🚀");
    let sel = ok(&mut c, "browser.select_text", json!({"ref": field, "text": "的值"})).await;
    assert_eq!(sel["result"]["start"], 2, "{sel}");
    ok(&mut c, "browser.keyboard_type", json!({"text": "新"})).await;
    assert_eq!(eval(&mut c, "document.getElementById('field').value").await, "设置新 🚀");
    ok(&mut c, "browser.set_value", json!({"ref": area, "value": "hello world hello"})).await;
    let none = c.call("browser.select_text", json!({"ref": area, "text": "nope"})).await;
    assert_eq!(code(&none), "ACTION_FAILED", "{none}");
    assert!(none.to_string().contains("0 times"), "{none}");
    let two = c.call("browser.select_text", json!({"ref": area, "text": "hello"})).await;
    assert_eq!(code(&two), "AMBIGUOUS_TARGET", "{two}");
    assert!(two.to_string().contains("\"count\":2"), "{two}");
    ok(
        &mut c,
        "browser.select_text",
        json!({"ref": area, "text": "hello", "prefix": "world ", "selection_type": "cursor_after"}),
    )
    .await;
    ok(&mut c, "browser.keyboard_type", json!({"text": "!"})).await;
    assert_eq!(eval(&mut c, "document.getElementById('area').value").await, "hello world hello!");
    let pasted = ok(
        &mut c,
        "browser.paste",
        json!({"ref": paster, "text": "<b>bold</b>", "format": "html"}),
    )
    .await;
    assert_eq!(pasted["result"]["via"], "paste_event", "{pasted}");
    assert_eq!(pasted["result"]["trusted"], true, "{pasted}");
    assert_eq!(pasted["result"]["consumed"], true, "{pasted}");
    assert_eq!(pasted["result"]["read_from_clipboard"], true, "{pasted}");
    assert_eq!(eval(&mut c, "window.pasted.trusted").await, true, "a real paste event");
    assert!(
        eval(&mut c, "window.pasted.html")
            .await
            .as_str()
            .is_some_and(|h| h.contains("<b>bold</b>")),
        "the page's handler read the html"
    );
    assert_eq!(eval(&mut c, "window.pasted.text").await, "bold");
    let pasted = ok(&mut c, "browser.paste", json!({"ref": editor, "text": "plain words"})).await;
    assert_eq!(pasted["result"]["consumed"], false, "{pasted}");
    assert_eq!(pasted["result"]["clipboard_restored"], true, "{pasted}");
    assert_eq!(eval(&mut c, "document.getElementById('editor').innerText").await, "plain words");
    let sec = c.call("browser.secondary_action", json!({"ref": field, "name": "expand"})).await;
    assert_eq!(code(&sec), "UNSUPPORTED", "{sec}");
    let sc = ok(&mut c, "browser.scroll", json!({"selector": "#box", "pages": 1})).await;
    assert_eq!(sc["result"]["before"]["y"], 0, "{sc}");
    assert_eq!(sc["result"]["after"]["y"], 120, "{sc}");
    ok(&mut c, "browser.focus", json!({"ref": field})).await;
    ok(&mut c, "browser.keydown", json!({"key": "Shift"})).await;
    ok(&mut c, "browser.press", json!({"key": "a"})).await;
    let k = ok(&mut c, "browser.keyup", json!({"key": "Shift"})).await;
    assert_eq!(k["result"]["held"], json!([]));
    ok(&mut c, "browser.press", json!({"key": "b"})).await;
    let keys = eval(&mut c, "log.filter(e => e.type === 'keydown' && e.target === 'field' && e.key.toLowerCase() !== 'shift').map(e => [e.key, e.shift])").await;
    assert_eq!(keys, json!([["A", true], ["b", false]]), "held Shift applies, then not");
    ok(&mut c, "browser.keydown", json!({"key": "Shift"})).await;
    let failed = c.call("browser.click", json!({"selector": "#nope"})).await;
    assert_eq!(code(&failed), "TARGET_NOT_FOUND", "{failed}");
    ok(&mut c, "browser.press", json!({"key": "d"})).await;
    let last = eval(&mut c, "log.filter(e => e.type === 'keydown' && e.target === 'field').map(e => [e.key, e.shift]).pop()").await;
    assert_eq!(last, json!(["d", false]), "a failed op released the held Shift");
    let chk = ok(&mut c, "browser.check", json!({"selector": "#agree"})).await;
    assert_eq!(chk["result"]["checked"], true);
    let s = ok(&mut c, "browser.select", json!({"selector": "#color", "value": "g"})).await;
    assert_eq!(s["result"]["value"], "g");
    let bad = c.call("browser.select", json!({"selector": "#color", "value": "blue"})).await;
    assert_eq!(code(&bad), "ACTION_FAILED", "{bad}");
    let ev = c.call("browser.evaluate", json!({"script": "throw new Error('boom')"})).await;
    assert_eq!(code(&ev), "ACTION_FAILED", "{ev}");
    assert_eq!(eval(&mut c, "const x = 20; return x + 1;").await, 21, "function body form");

    // The rest of the table: keys, drag, upload, waits, history, pdf, probe.
    ok(&mut c, "browser.press", json!({"key": "F2"})).await;
    ok(&mut c, "browser.press", json!({"key": "Shift+Home"})).await;
    let drag =
        ok(&mut c, "browser.drag", json!({"selector": "#src", "target_selector": "#dst"})).await;
    assert!(drag["result"]["to"]["x"].as_f64().is_some(), "{drag}");
    let up = eval(&mut c, "log.filter(e => e.type === 'mouseup').map(e => e.target).pop()").await;
    assert_eq!(up, "dst", "the button went up over the drop target");
    // Uploads come from the state dir's files/ (a relative path starts there).
    std::fs::write(env.daemon.state.path.join("files/upload.txt"), "hi").expect("write");
    ok(&mut c, "browser.upload", json!({"selector": "#file", "files": ["upload.txt"]})).await;
    assert_eq!(eval(&mut c, "document.getElementById('file').files[0].name").await, "upload.txt");
    let missing = c
        .call("browser.upload", json!({"selector": "#file", "files": ["/nope/missing.txt"]}))
        .await;
    assert_eq!(code(&missing), "FORBIDDEN", "{missing}");
    eval(&mut c, "setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p id=late>late</p>'), 150)").await;
    let w = ok(&mut c, "browser.wait", json!({"selector": "#late", "timeout": 5000})).await;
    assert_eq!(w["result"]["waited_for"], "visible");
    let gone = c.call("browser.wait", json!({"selector": "#never", "timeout": 200})).await;
    assert_eq!(code(&gone), "ACTION_FAILED", "{gone}");
    ok(&mut c, "browser.wait", json!({"duration_ms": 10})).await;
    ok(&mut c, "browser.hover", json!({"selector": "#dbl"})).await;
    let html = ok(&mut c, "browser.get_html", json!({"selector": "#tri"})).await;
    assert_eq!(html["result"]["html"], "<div id=\"tri\">Triple zone</div>");
    let both =
        ok(&mut c, "browser.state_and_screenshot", json!({"format": "webp", "max_width": 400}))
            .await;
    assert_eq!(both["result"]["consistent"], true);
    assert_eq!(both["result"]["screenshot"]["width"], 400);
    let pdf = ok(&mut c, "browser.pdf", json!({})).await;
    let path = pdf["result"]["artifact"]["path"].as_str().expect("pdf path").to_owned();
    assert!(std::fs::read(&path).expect("pdf").starts_with(b"%PDF"));
    let probe = ok(&mut c, "browser.probe", json!({})).await;
    assert_eq!(probe["result"]["accessibility"], true);
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("refs.html")})).await;
    let back = ok(&mut c, "browser.go_back", json!({})).await;
    assert_eq!(back["result"]["title"], "Test form");
    let fwd = ok(&mut c, "browser.go_forward", json!({})).await;
    assert_eq!(fwd["result"]["title"], "Refs");
    ok(&mut c, "browser.reload", json!({})).await;
    let t2 = ok(&mut c, "browser.tab_new", json!({})).await;
    let closed = ok(&mut c, "browser.tab_close", json!({"tab_id": t2["result"]["tab_id"]})).await;
    assert_eq!(closed["result"]["closed"]["tab_id"], t2["result"]["tab_id"]);
    let state = ok(&mut c, "context.get_state", json!({})).await;
    assert!(state["result"]["browsers"].as_array().is_some_and(|b| !b.is_empty()), "{state}");

    eprintln!("timings: first navigate (starts Chromium) {first_ms} ms, snapshot {snap_ms} ms, fill {fill_ms} ms, screenshot {shot_ms} ms, annotated screenshot {ann_ms} ms");
    drop(env);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tabs_refs_discovery_and_faults() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    let refs = env.site.url("refs.html");

    // Discovery: the default browser starts on demand.
    let got = ok(&mut c, "context.get_browser", json!({})).await;
    let browser_id = got["result"]["browser_id"].as_str().expect("id").to_owned();
    let list = ok(&mut c, "context.list_browsers", json!({})).await;
    let mine: Vec<&Value> = list["result"]["browsers"]
        .as_array()
        .expect("list")
        .iter()
        .filter(|b| b["browser_id"] == browser_id.as_str())
        .collect();
    assert_eq!(mine.len(), 1, "{list}");
    assert_eq!(mine[0]["default"], true);

    // 2. Stable refs across tabs.
    let a = ok(&mut c, "browser.navigate", json!({"url": refs})).await;
    let tab_a = a["target"]["tab_id"].as_str().expect("tab").to_owned();
    let s1 = ok(&mut c, "browser.snapshot", json!({})).await;
    let q = ref_of(&s1, "textbox \"Query\"");
    let go = ref_of(&s1, "button \"Go\"");
    let b = ok(&mut c, "browser.tab_new", json!({"url": format!("{refs}?b")})).await;
    let tab_b = b["result"]["tab_id"].as_str().expect("tab b").to_owned();
    assert_ne!(tab_a, tab_b);
    let tabs = ok(&mut c, "browser.tab_list", json!({})).await;
    let selected: Vec<&Value> = tabs["result"]["tabs"]
        .as_array()
        .expect("tabs")
        .iter()
        .filter(|t| t["selected"] == true)
        .collect();
    assert_eq!(selected.len(), 1);
    assert_eq!(selected[0]["tab_id"], tab_b.as_str(), "tab_new moved the session to B");
    let fill = ok(&mut c, "browser.fill", json!({"ref": q, "text": "on A", "tab_id": tab_a})).await;
    assert_eq!(fill["target"]["tab_source"], "explicit");
    assert_eq!(fill["target"]["tab_id"], tab_a.as_str());
    assert_eq!(eval_on(&mut c, &tab_a, "document.getElementById('q').value").await, "on A");
    assert_eq!(eval(&mut c, "document.getElementById('q').value").await, "", "B untouched");
    let refused = c.call("browser.click", json!({"ref": go})).await;
    assert_eq!(code(&refused), "NO_SNAPSHOT", "a ref without tab_id now names tab B: {refused}");
    let by_index = ok(&mut c, "browser.get_title", json!({"tab_index": 0})).await;
    assert_eq!(by_index["target"]["tab_id"], tab_a.as_str(), "tab_index 0 is the first tab");
    let both = c.call("browser.get_title", json!({"tab_index": 0, "tab_id": tab_a})).await;
    assert_eq!(code(&both), "CONTRACT_VIOLATION", "{both}");
    let sel = ok(&mut c, "browser.tab_select", json!({"tab_id": tab_a})).await;
    assert_eq!(sel["target"]["tab_source"], "explicit");

    // A second session snapshotting the same tab does not disturb the first.
    let mut other = env.daemon.actor().await;
    let o = ok(&mut other, "browser.snapshot", json!({"tab_id": tab_a})).await;
    assert!(o["result"]["snapshot"].as_str().unwrap_or_default().contains("button \"Go\""));
    let s2 = ok(&mut c, "browser.snapshot", json!({"disable_diffing": true})).await;
    assert_eq!(ref_of(&s2, "button \"Go\""), go, "unchanged element keeps its ref");
    let page1 = ok(&mut c, "browser.snapshot", json!({"limit": 2, "disable_diffing": true})).await;
    assert_eq!(page1["result"]["truncated"], true, "{page1}");
    let cursor = page1["result"]["next_cursor"].as_str().expect("cursor").to_owned();
    let page2 = ok(&mut c, "browser.snapshot", json!({"cursor": cursor})).await;
    assert_eq!(page2["result"]["mode"], "continued", "{page2}");
    let s2 = ok(&mut c, "browser.snapshot", json!({"disable_diffing": true})).await;
    let s2_id = s2["result"]["snapshot_id"].as_str().expect("sid").to_owned();
    ok(&mut c, "browser.click", json!({"ref": go})).await;
    assert_eq!(eval(&mut c, "document.getElementById('out').textContent").await, "went");
    eval(&mut c, "document.body.insertAdjacentHTML('beforeend', '<button>Fresh</button>')").await;
    let s3 = ok(&mut c, "browser.snapshot", json!({})).await;
    assert_eq!(s3["result"]["mode"], "incremental", "{s3}");
    let fresh = ref_of(&s3, "button \"Fresh\"");
    let mismatch = c.call("browser.click", json!({"ref": fresh, "snapshot_id": s2_id})).await;
    assert_eq!(code(&mismatch), "SNAPSHOT_MISMATCH", "{mismatch}");
    ok(&mut c, "browser.navigate", json!({"url": format!("{refs}?again"), "tab_id": tab_a})).await;
    let stale = c.call("browser.click", json!({"ref": go, "tab_id": tab_a})).await;
    assert_eq!(code(&stale), "STALE_REF", "{stale}");
    assert!(stale.to_string().contains("navigated"), "{stale}");
    let stale_other = other.call("browser.click", json!({"ref": go, "tab_id": tab_a})).await;
    assert_eq!(code(&stale_other), "STALE_REF", "every session: {stale_other}");

    // 4. Discovery: a second Chromium, duplicate URLs, a URL as browser_id.
    let port = glovebox_daemon::browser::discovery::free_port().expect("port");
    glovebox_daemon::browser::launch::start(
        &env.supervisor,
        "chromium",
        &env.dir.path.join("second-profile"),
        port,
        env.desktop.env(),
    )
    .await
    .expect("second chromium");
    // Another Chromium on the host is neither listed nor driven, until the operator allows it.
    let other = format!("chrome-{port}");
    let list = ok(&mut c, "context.list_browsers", json!({})).await;
    assert!(!list.to_string().contains(&other), "{list}");
    let refused = c.call("browser.tab_list", json!({"browser_id": other})).await;
    assert_eq!(code(&refused), "TARGET_NOT_FOUND", "{refused}");
    env.browsers.allow(port);
    let list = ok(&mut c, "context.list_browsers", json!({})).await;
    assert!(list.to_string().contains(&other), "{list}");
    ok(&mut c, "browser.tab_list", json!({"browser_id": other})).await;
    let dup = format!("{refs}?dup");
    ok(&mut c, "browser.tab_new", json!({"url": dup, "visible": false})).await;
    ok(&mut c, "browser.tab_new", json!({"url": dup, "visible": false})).await;
    let amb = c.call("context.get_browser", json!({"url": dup})).await;
    assert_eq!(code(&amb), "AMBIGUOUS_TARGET", "{amb}");
    assert_eq!(amb["error"]["data"]["details"]["candidates"].as_array().map(Vec::len), Some(2));
    let one = ok(&mut c, "context.get_browser", json!({"url": format!("{refs}?b")})).await;
    assert_eq!(one["result"]["tab"]["tab_id"], tab_b.as_str());
    let bad = c.call("context.get_browser", json!({"browser_id": "http://127.0.0.1:9222"})).await;
    assert_eq!(code(&bad), "CONTRACT_VIOLATION", "{bad}");

    // Tab marks are persisted.
    ok(
        &mut c,
        "browser.tab_mark",
        json!({"tab_id": tab_a, "kind": "deliverable", "note": "the result"}),
    )
    .await;
    let got = ok(&mut c, "browser.tab_get", json!({"tab_id": tab_a})).await;
    assert_eq!(got["result"]["mark"]["kind"], "deliverable");
    assert!(env.dir.path.join("state/browser-tab-marks.json").is_file());

    // 5. Faults: an alert never blocks other calls.
    ok(&mut c, "browser.tab_select", json!({"tab_id": tab_a})).await;
    let snap = ok(&mut c, "browser.snapshot", json!({})).await;
    let warn = ref_of(&snap, "button \"Warn\"");
    let clicked = ok(&mut c, "browser.click", json!({"ref": warn})).await;
    assert_eq!(clicked["result"]["dialog"]["message"], "careful", "{clicked}");
    let url = ok(&mut c, "browser.get_url", json!({})).await;
    assert_eq!(url["result"]["dialog"]["type"], "alert", "{url}");
    let blocked = c.call("browser.evaluate", json!({"script": "1"})).await;
    assert_eq!(code(&blocked), "ACTION_FAILED", "{blocked}");
    assert!(blocked.to_string().contains("dialog"), "{blocked}");
    let answered = ok(&mut c, "browser.dialog", json!({"accept": true})).await;
    assert_eq!(answered["result"]["dialog"]["message"], "careful");
    assert_eq!(eval(&mut c, "1 + 1").await, 2);
    // A page that alerts while it loads: the navigation reports the dialog, it does not fail.
    let nav = ok(
        &mut c,
        "browser.navigate",
        json!({"url": "data:text/html,<title>Loud</title><script>alert('loading')</script>"}),
    )
    .await;
    assert_eq!(nav["result"]["dialog"]["message"], "loading", "{nav}");
    ok(&mut c, "browser.dialog", json!({"accept": true})).await;
    assert_eq!(eval(&mut c, "document.title").await, "Loud");

    // Killing the default browser: the next call restarts it and old refs are stale.
    let list = ok(&mut c, "context.list_browsers", json!({})).await;
    let pid = list["result"]["browsers"]
        .as_array()
        .and_then(|a| a.iter().find(|b| b["default"] == true))
        .and_then(|b| b["pid"].as_u64())
        .expect("default pid") as u32;
    let mut watcher = env.daemon.actor().await;
    let sub = watcher.call("events.subscribe", json!({"topics": ["browser"]})).await;
    assert!(sub["result"].is_string(), "{sub}");
    env.supervisor.stop_pid(pid).expect("stop chromium");
    // Sessions are told.
    loop {
        let n = watcher.notification("events.event").await;
        if n["params"]["result"]["kind"] == "browser.exited" {
            break;
        }
    }
    let snap_ref = ref_of(&snap, "button \"Go\"");
    let after = c.call("browser.click", json!({"ref": snap_ref})).await;
    assert!(["STALE_REF", "BACKEND_UNAVAILABLE"].contains(&code(&after).as_str()), "{after}");
    let deadline = Instant::now() + DEADLINE;
    loop {
        let r = c.call("browser.navigate", json!({"url": refs})).await;
        if r.get("result").is_some() {
            break;
        }
        assert!(Instant::now() < deadline, "the default browser never came back: {r}");
    }
    drop(env);
}

/// The real `gloveboxd` on an embedded desktop: the browser is reported, starts on first use
/// (not at daemon start) with DISPLAY from the desktop, and answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_starts_its_default_browser_on_first_use() {
    let mut d = glovebox_tests::binary::Running::start(&["--desktop", "embedded"]);
    let site = glovebox_tests::browser::Site::start().await;
    let mut c = Raw::connect(&d.url, Some(&d.token())).await.expect("connect");
    let hello = c.hello(None).await;
    assert!(hello.to_string().contains("the default browser starts on first use"), "{hello}");
    let nav = ok(&mut c, "browser.navigate", json!({"url": site.url("refs.html")})).await;
    assert_eq!(nav["result"]["title"], "Refs", "{nav}");
    let snap = ok(&mut c, "browser.snapshot", json!({})).await;
    ref_of(&snap, "button \"Go\"");
    let status = d.terminate(DEADLINE);
    assert!(status.success(), "{status:?}");
}

/// A cross-site iframe, drawn by another renderer process: its elements show in the outline
/// under the iframe's line, and refs into it fill and click (the frame is scrolled into view).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cross_site_frames() {
    frame_page("frames.html", 1).await;
}

/// A cross-site frame inside a cross-site frame (three renderers, the middle one scrolled to
/// show the inner frame): the inner frame's lines nest two iframes deep, and its refs fill and
/// click where its elements are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nested_cross_site_frames() {
    frame_page("nested.html", 2).await;
}

/// `page` holds refs.html `frames` cross-site iframes deep: its lines nest under as many iframe
/// lines, and the Query box and the Go button there fill and click.
async fn frame_page(page: &str, frames: usize) {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url(page)})).await;
    // The frames load after their page: look again (bounded) until the inner lines show.
    let deadline = Instant::now() + DEADLINE;
    let snap = loop {
        let s = ok(&mut c, "browser.snapshot", json!({"disable_diffing": true})).await;
        if s["result"]["snapshot"].as_str().unwrap_or_default().contains("button \"Go\"") {
            break s;
        }
        assert!(Instant::now() < deadline, "the frame's lines never showed: {s}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    let text = snap["result"]["snapshot"].as_str().unwrap_or_default().to_owned();
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let go_line = lines.iter().position(|l| l.contains("button \"Go\"")).expect("Go line");
    let iframes: Vec<usize> =
        (0..go_line).filter(|&i| lines[i].trim_start().starts_with("iframe")).collect();
    assert_eq!(iframes.len(), frames, "{frames} iframe line(s) above Go:\n{text}");
    let mut depth = 0;
    for &i in &iframes {
        assert!(indent(lines[i]) >= depth, "each iframe nests in the one before:\n{text}");
        depth = indent(lines[i]) + 1;
    }
    assert!(indent(lines[go_line]) >= depth, "Go nests under the last iframe:\n{text}");
    assert!(!text.contains("frame not reachable"), "{text}");
    let go = ref_of(&snap, "button \"Go\"");
    let query = ref_of(&snap, "textbox \"Query\"");
    ok(&mut c, "browser.fill", json!({"ref": query, "text": "far away"})).await;
    let click = ok(&mut c, "browser.click", json!({"ref": go})).await;
    // What the frame's page did shows in the next outline.
    let deadline = Instant::now() + DEADLINE;
    loop {
        let s = ok(&mut c, "browser.snapshot", json!({"disable_diffing": true})).await;
        let t = s["result"]["snapshot"].as_str().unwrap_or_default();
        if t.contains("text \"went\"") && t.contains("value=\"far away\"") {
            break;
        }
        assert!(Instant::now() < deadline, "the click and fill never showed: {click} {t}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
