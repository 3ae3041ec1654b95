//! The models' own computer tools through the real daemon (issue 38): every action of
//! Anthropic's computer tool and of OpenAI's computer_call, on the desktop (real XTest into a
//! headful Chromium on Xvfb, 1280x800, declared as 1024x768) and on the session's tab through
//! DevTools, against a page that logs every pointer, wheel and key event with its coordinates
//! (`fixtures/native.html`). The requests and answers are checked against the vendors'
//! published types (`tests/native/shapes.py`, with the `anthropic` and `openai` SDKs).

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::image::rgb_of;
use glovebox_tests::raw::Raw;
use serde_json::{json, Value};

/// The tool definition a runtime gives the model: XGA on the 1280x800 screen.
fn tool() -> Value {
    json!({"type": "computer_20251124", "name": "computer", "display_width_px": 1024,
           "display_height_px": 768, "enable_zoom": true})
}

fn openai_tool() -> Value {
    json!({"type": "computer_use_preview", "display_width": 1024, "display_height": 768,
           "environment": "linux"})
}

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"]["result"].clone()
}

async fn eval(c: &mut Raw, script: &str) -> Value {
    ok(c, "browser.evaluate", json!({"script": script})).await["value"].clone()
}

/// What the calls sent and got, for the vendors' types.
#[derive(Default)]
struct Seen {
    anthropic: Vec<Value>,
    openai: Vec<Value>,
}

/// One Anthropic action on `target`; its answer, which must not be an error.
async fn claude(c: &mut Raw, seen: &mut Seen, target: &str, input: Value) -> Value {
    let r = claude_may_fail(c, seen, target, input.clone()).await;
    assert_eq!(r["is_error"], false, "{input}: {r}");
    r
}

async fn claude_may_fail(c: &mut Raw, seen: &mut Seen, target: &str, input: Value) -> Value {
    let params = json!({"tool": tool(), "input": input, "target": target});
    let r = ok(c, "native.anthropic", params).await;
    let mut short = r.clone();
    // The shapes check needs one image's bytes, not every one's.
    if seen.anthropic.len() > 2 {
        for b in short["content"].as_array_mut().into_iter().flatten() {
            if b["type"] == "image" {
                b["source"]["data"] = json!("iVBORw0KGgo=");
            }
        }
    }
    // A refused input is not the model's valid shape: only its answer is checked.
    let refused = r["is_error"] == true;
    seen.anthropic.push(json!({"input": input, "result": short, "refused": refused}));
    r
}

/// OpenAI actions (one or a batch) on `target`, with the declared display.
async fn gpt(c: &mut Raw, seen: &mut Seen, target: &str, actions: Value, checks: Value) -> Value {
    let params = json!({"actions": actions, "tool": openai_tool(), "target": target,
                        "pending_safety_checks": checks});
    let r = ok(c, "native.openai", params).await;
    let mut short = r.clone();
    if seen.openai.len() > 1 {
        short["output"]["image_url"] = json!("data:image/png;base64,iVBORw0KGgo=");
    }
    seen.openai.push(json!({"actions": actions, "pending_safety_checks": checks, "result": short}));
    r
}

/// The image block of an Anthropic answer: width, height, RGB.
fn image(r: &Value) -> (usize, usize, Vec<u8>) {
    let blocks = r["content"].as_array().expect("content");
    let img = blocks.iter().find(|b| b["type"] == "image").expect("an image block");
    assert_eq!(img["source"]["media_type"], "image/png", "{img}");
    rgb_of(&img["source"])
}

/// The page's event log from index `from`.
async fn log_from(c: &mut Raw, from: usize) -> Vec<Value> {
    let v = eval(c, &format!("JSON.stringify(window.log.slice({from}))")).await;
    serde_json::from_str(v.as_str().unwrap_or("[]")).expect("log")
}

async fn log_len(c: &mut Raw) -> usize {
    eval(c, "window.log.length").await.as_u64().unwrap_or(0) as usize
}

fn events<'a>(log: &'a [Value], kind: &str) -> Vec<&'a Value> {
    log.iter().filter(|e| e["t"] == kind).collect()
}

/// How the page's client pixels map to what the model declared: on the desktop the screen
/// (1280x800 in 1024x768: scale 0.8, bars of 64 above and below) with the viewport at
/// `offset` on it; on a tab its viewport fitted the same way.
#[derive(Clone, Copy, Debug)]
struct Map {
    offset: (f64, f64),
    scale: f64,
    bars: (f64, f64),
}

impl Map {
    fn fit(real: (f64, f64), offset: (f64, f64)) -> Map {
        let scale = (1024.0 / real.0).min(768.0 / real.1);
        let bars = ((1024.0 - real.0 * scale) / 2.0, (768.0 - real.1 * scale) / 2.0);
        Map { offset, scale, bars }
    }

    /// The declared point over a client point.
    fn declared(&self, x: f64, y: f64) -> [i64; 2] {
        let (sx, sy) = (x + self.offset.0, y + self.offset.1);
        [
            (sx * self.scale + self.bars.0).round() as i64,
            (sy * self.scale + self.bars.1).round() as i64,
        ]
    }

    /// The client point under a declared one.
    fn client(&self, d: [i64; 2]) -> (f64, f64) {
        let sx = (d[0] as f64 - self.bars.0) / self.scale;
        let sy = (d[1] as f64 - self.bars.1) / self.scale;
        (sx - self.offset.0, sy - self.offset.1)
    }
}

/// The centre of an element of the page, in client pixels.
async fn centre(c: &mut Raw, id: &str) -> (f64, f64) {
    let v = eval(
        c,
        &format!(
            "(() => {{ const r = document.getElementById('{id}').getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2]; }})()"
        ),
    )
    .await;
    (v[0].as_f64().expect("x"), v[1].as_f64().expect("y"))
}

/// `[selectionStart, selectionEnd, value.length]` of the field.
async fn selection(c: &mut Raw) -> Value {
    eval(c, "(() => { const f = document.getElementById('field'); return [f.selectionStart, f.selectionEnd, f.value.length]; })()").await
}

async fn open(env: &BrowserEnv) -> Raw {
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("native.html")})).await;
    c
}

/// Checks what the calls sent and got against the vendors' published types.
fn check_shapes(seen: &Seen) {
    let found = json!({
        "anthropic": {"tool": tool(), "calls": seen.anthropic},
        "openai": {"tool": openai_tool(), "calls": seen.openai},
    });
    let dir = std::env::temp_dir().join(format!("gb-native-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("shapes-{}.json", seen.anthropic.len() + seen.openai.len() * 1000));
    std::fs::write(&file, found.to_string()).expect("write the calls");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("native").join("shapes.py");
    let out =
        std::process::Command::new("python3").arg(script).arg(&file).output().expect("python3");
    let _ = std::fs::remove_file(&file);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let answer: Value = serde_json::from_str(text.trim()).unwrap_or_else(|_| {
        panic!("shapes.py said {text:?}; stderr {}", String::from_utf8_lossy(&out.stderr))
    });
    let want = (seen.anthropic.len() + seen.openai.len()) as u64;
    assert_eq!(answer["checked"], want, "the vendors' types refused a shape: {answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_actions_on_the_desktop_land_where_the_model_pointed() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let mut seen = Seen::default();
    let d = "desktop";

    // The centre of the declared display is the centre of the screen.
    let r = claude(&mut c, &mut seen, d, json!({"action": "left_click", "coordinate": [512, 384]}))
        .await;
    let log = log_from(&mut c, 0).await;
    let down = events(&log, "pointerdown");
    let down = down.last().expect("the click reached the page");
    let (sx, sy) = (down["sx"].as_f64().unwrap_or(-9.0), down["sy"].as_f64().unwrap_or(-9.0));
    assert!((sx - 640.0).abs() <= 1.0 && (sy - 400.0).abs() <= 1.0, "landed at {sx},{sy}: {down}");
    let offset = (sx - down["x"].as_f64().unwrap_or(0.0), sy - down["y"].as_f64().unwrap_or(0.0));
    let m = Map::fit((1280.0, 800.0), offset);
    // The screenshot is the declared size, the screen letterboxed in it.
    let (w, h, px) = image(&r);
    assert_eq!((w, h), (1024, 768), "the declared display");
    let at = |x: usize, y: usize| &px[(y * w + x) * 3..(y * w + x) * 3 + 3];
    assert_eq!(at(10, 10), [0, 0, 0], "a bar above");
    assert_eq!(at(10, 760), [0, 0, 0], "a bar below");
    let (rx, ry) = centre(&mut c, "red").await;
    let [dx, dy] = m.declared(rx, ry);
    assert_eq!(at(dx as usize, dy as usize), [255, 0, 0], "the red box where the model sees it");

    // Type into the field, select all with ctrl+a.
    let (fx, fy) = centre(&mut c, "field").await;
    claude(&mut c, &mut seen, d, json!({"action": "left_click", "coordinate": m.declared(fx, fy)}))
        .await;
    claude(&mut c, &mut seen, d, json!({"action": "type", "text": "Grüße 你好"})).await;
    assert_eq!(eval(&mut c, "document.getElementById('field').value").await, "Grüße 你好");
    claude(&mut c, &mut seen, d, json!({"action": "key", "text": "End"})).await;
    assert_eq!(selection(&mut c).await, json!([8, 8, 8]), "the caret at the end");
    claude(&mut c, &mut seen, d, json!({"action": "key", "text": "ctrl+a"})).await;
    assert_eq!(selection(&mut c).await, json!([0, 8, 8]), "ctrl+a selected it all");

    // The slider: dragged from its left end to its right.
    let (sx0, sy0) = centre(&mut c, "slider").await;
    let from = m.declared(sx0 - 195.0, sy0);
    let to = m.declared(sx0 + 195.0, sy0);
    let drag = json!({"action": "left_click_drag", "start_coordinate": from, "coordinate": to});
    claude(&mut c, &mut seen, d, drag).await;
    let v = eval(&mut c, "+document.getElementById('slider').value").await;
    assert!(v.as_f64().unwrap_or(0.0) >= 90.0, "the slider moved right: {v}");

    // Zoom: the red box's region at the screen's own resolution.
    let inner = [m.declared(rx - 60.0, ry - 25.0), m.declared(rx + 60.0, ry + 25.0)];
    let region = json!([inner[0][0], inner[0][1], inner[1][0], inner[1][1]]);
    let z = claude(&mut c, &mut seen, d, json!({"action": "zoom", "region": region})).await;
    let (zw, zh, zpx) = image(&z);
    let want_w = ((inner[1][0] - inner[0][0]) as f64 / 0.8).round() as i64;
    assert!((zw as i64 - want_w).abs() <= 2, "full resolution: {zw} wide, {want_w} wanted");
    assert!(zh > 40, "{zh} high");
    assert!(zpx.chunks(3).all(|p| p[0] > 240 && p[1] < 20 && p[2] < 20), "all red");

    // The pointer: moved, then said where it is.
    let pad = m.declared(300.0, 400.0);
    claude(&mut c, &mut seen, d, json!({"action": "mouse_move", "coordinate": pad})).await;
    let last = eval(&mut c, "window.last").await;
    assert!((last["x"].as_f64().unwrap_or(0.0) - 300.0).abs() <= 1.5, "{last}");
    let r = claude(&mut c, &mut seen, d, json!({"action": "cursor_position"})).await;
    assert_eq!(r["content"][0]["text"], format!("X={},Y={}", pad[0], pad[1]), "{r}");
    assert!(r["content"].as_array().is_some_and(|b| b.len() == 1), "no screenshot: {r}");

    // Every click kind, a held button, a held key, a wait and a screenshot.
    let n = log_len(&mut c).await;
    for action in ["right_click", "middle_click", "double_click", "triple_click"] {
        claude(&mut c, &mut seen, d, json!({"action": action, "coordinate": pad})).await;
    }
    let log = log_from(&mut c, n).await;
    let downs: Vec<i64> =
        events(&log, "pointerdown").iter().map(|e| e["b"].as_i64().unwrap_or(-1)).collect();
    assert_eq!(downs, [2, 1, 0, 0, 0, 0, 0], "right, middle, then 2 + 3 left presses: {log:?}");
    assert_eq!(events(&log, "contextmenu").len(), 1);
    assert_eq!(events(&log, "dblclick").len(), 2, "the double and the triple click");
    assert!(events(&log, "click").iter().any(|e| e["d"] == 3), "a third click: {log:?}");

    let n = log_len(&mut c).await;
    let pad2 = m.declared(500.0, 450.0);
    claude(&mut c, &mut seen, d, json!({"action": "left_mouse_down"})).await;
    claude(&mut c, &mut seen, d, json!({"action": "mouse_move", "coordinate": pad2})).await;
    claude(&mut c, &mut seen, d, json!({"action": "left_mouse_up"})).await;
    claude(&mut c, &mut seen, d, json!({"action": "hold_key", "text": "shift", "duration": 1}))
        .await;
    claude(&mut c, &mut seen, d, json!({"action": "wait", "duration": 0})).await;
    let shot = claude(&mut c, &mut seen, d, json!({"action": "screenshot"})).await;
    assert_eq!((image(&shot).0, image(&shot).1), (1024, 768));
    let log = log_from(&mut c, n).await;
    let (down, up) = (events(&log, "pointerdown"), events(&log, "pointerup"));
    assert!(down.len() == 1 && up.len() == 1, "{log:?}");
    assert!(
        (down[0]["x"].as_f64().unwrap_or(0.0) - 300.0).abs() <= 1.5,
        "pressed at the pad: {log:?}"
    );
    assert!(
        (up[0]["x"].as_f64().unwrap_or(0.0) - 500.0).abs() <= 1.5,
        "released after the move: {log:?}"
    );
    let shift: Vec<&str> =
        log.iter().filter(|e| e["k"] == "Shift").filter_map(|e| e["t"].as_str()).collect();
    assert_eq!(shift.first(), Some(&"keydown"), "{log:?}");
    assert_eq!(shift.last(), Some(&"keyup"), "{log:?}");

    // Scroll down, then up.
    let mid = m.declared(600.0, 400.0);
    let down = json!({"action": "scroll", "coordinate": mid, "scroll_direction": "down", "scroll_amount": 5});
    claude(&mut c, &mut seen, d, down).await;
    let y1 = eval(&mut c, "scrollY").await.as_f64().unwrap_or(0.0);
    assert!(y1 > 100.0, "scrolled down: {y1}");
    let up = json!({"action": "scroll", "coordinate": mid, "scroll_direction": "up", "scroll_amount": 5});
    claude(&mut c, &mut seen, d, up).await;
    let y2 = eval(&mut c, "scrollY").await.as_f64().unwrap_or(0.0);
    assert!(y2 < y1, "scrolled up: {y1} -> {y2}");

    // Refusals in the reference's words; nothing reaches the page.
    let n = log_len(&mut c).await;
    for (input, words) in [
        (json!({"action": "left_click", "coordinate": [1024, 300]}), "out of bounds"),
        (json!({"action": "left_click", "coordinate": [512, 10]}), "out of bounds"),
        (
            json!({"action": "type", "text": "x", "coordinate": [5, 100]}),
            "coordinate is not accepted for type",
        ),
        (json!({"action": "fly"}), "Invalid action: fly"),
        (json!({"action": "key", "text": "ctrl+Hyper_Q"}), "unknown key \"Hyper_Q\""),
    ] {
        let r = claude_may_fail(&mut c, &mut seen, d, input.clone()).await;
        assert_eq!(r["is_error"], true, "{input}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains(words) && !text.contains('\n'), "{input}: {text}");
    }
    assert_eq!(log_len(&mut c).await, n, "a refused call changes nothing");
    check_shapes(&seen);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_actions_and_a_batch_on_the_desktop_run_in_order() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let mut seen = Seen::default();
    let d = "desktop";
    let none = json!([]);

    // A click with a held key at the centre; the offset of the page on the screen from it.
    let r = gpt(
        &mut c,
        &mut seen,
        d,
        json!([{"type": "click", "button": "left", "x": 512, "y": 384, "keys": ["SHIFT"]}]),
        none.clone(),
    )
    .await;
    assert_eq!(r["ran"], 1, "{r}");
    let log = log_from(&mut c, 0).await;
    let down = *events(&log, "pointerdown").last().expect("a press");
    assert_eq!(down["shift"], true, "Shift held: {down}");
    let (sx, sy) = (down["sx"].as_f64().unwrap_or(0.0), down["sy"].as_f64().unwrap_or(0.0));
    assert!((sx - 640.0).abs() <= 1.0 && (sy - 400.0).abs() <= 1.0, "{down}");
    let m = Map::fit(
        (1280.0, 800.0),
        (sx - down["x"].as_f64().unwrap_or(0.0), sy - down["y"].as_f64().unwrap_or(0.0)),
    );
    let url = r["output"]["image_url"].as_str().unwrap_or_default();
    let png = url.strip_prefix("data:image/png;base64,").expect("a PNG data URL");
    let (w, h, _) = rgb_of(&json!({"data": png}));
    assert_eq!((w, h), (1024, 768));

    // The other buttons, a double click and a move.
    let [px, py] = m.declared(300.0, 400.0);
    let n = log_len(&mut c).await;
    for button in ["right", "wheel"] {
        let r = gpt(
            &mut c,
            &mut seen,
            d,
            json!([{"type": "click", "button": button, "x": px, "y": py}]),
            none.clone(),
        )
        .await;
        assert_eq!(r["ran"], 1, "{r}");
    }
    gpt(&mut c, &mut seen, d, json!([{"type": "double_click", "x": px, "y": py}]), none.clone())
        .await;
    let [qx, qy] = m.declared(450.0, 420.0);
    gpt(&mut c, &mut seen, d, json!([{"type": "move", "x": qx, "y": qy}]), none.clone()).await;
    let log = log_from(&mut c, n).await;
    let downs: Vec<i64> =
        events(&log, "pointerdown").iter().map(|e| e["b"].as_i64().unwrap_or(-1)).collect();
    assert_eq!(downs, [2, 1, 0, 0], "{log:?}");
    assert_eq!(events(&log, "dblclick").len(), 1, "{log:?}");
    let last = eval(&mut c, "window.last").await;
    assert!((last["x"].as_f64().unwrap_or(0.0) - 450.0).abs() <= 1.5, "{last}");

    // The slider along a path, right then back left.
    let (sx0, sy0) = centre(&mut c, "slider").await;
    let p = |dx: f64| {
        let [x, y] = m.declared(sx0 + dx, sy0);
        json!({"x": x, "y": y})
    };
    gpt(
        &mut c,
        &mut seen,
        d,
        json!([{"type": "drag", "path": [p(-195.0), p(0.0), p(195.0)]}]),
        none.clone(),
    )
    .await;
    let v = eval(&mut c, "+document.getElementById('slider').value").await;
    assert!(v.as_f64().unwrap_or(0.0) >= 90.0, "moved right: {v}");
    gpt(
        &mut c,
        &mut seen,
        d,
        json!([{"type": "drag", "path": [p(195.0), p(-195.0)]}]),
        none.clone(),
    )
    .await;
    let v = eval(&mut c, "+document.getElementById('slider').value").await;
    assert!(v.as_f64().unwrap_or(100.0) <= 10.0, "moved back left: {v}");

    // A batch of five in order: the field clicked, text typed, all selected, typed over, the
    // caret sent to the end.
    let (fx, fy) = centre(&mut c, "field").await;
    let [fx, fy] = m.declared(fx, fy);
    let batch = json!([
        {"type": "click", "button": "left", "x": fx, "y": fy},
        {"type": "type", "text": "Grüße 你好"},
        {"type": "keypress", "keys": ["CTRL", "A"]},
        {"type": "type", "text": "two"},
        {"type": "keypress", "keys": ["HOME"]},
    ]);
    let checks =
        json!([{"id": "cu_sc_1", "code": "malicious_instructions", "message": "check it"}]);
    let r = gpt(&mut c, &mut seen, d, batch, checks.clone()).await;
    assert_eq!((r["ran"].clone(), r.get("failed")), (json!(5), None), "{r}");
    assert_eq!(r["acknowledged_safety_checks"], checks, "passed through");
    assert_eq!(eval(&mut c, "document.getElementById('field').value").await, "two", "in order");
    assert_eq!(selection(&mut c).await, json!([0, 0, 3]), "the caret home last");
    gpt(&mut c, &mut seen, d, json!([{"type": "type", "text": "Grüße 你好"}]), none.clone()).await;
    assert_eq!(eval(&mut c, "document.getElementById('field').value").await, "Grüße 你好two");
    gpt(&mut c, &mut seen, d, json!([{"type": "keypress", "keys": ["CTRL", "A"]}]), none.clone())
        .await;
    assert_eq!(selection(&mut c).await, json!([0, 11, 11]), "CTRL+A selected it all");

    // A batch with a bad action stops before anything runs and names it.
    let n = log_len(&mut c).await;
    let bad = json!([
        {"type": "type", "text": "zzz"},
        {"type": "keypress", "keys": ["CTRL", "HYPER"]},
    ]);
    let r = gpt(&mut c, &mut seen, d, bad, none.clone()).await;
    assert_eq!(r["failed"]["index"], 1, "{r}");
    assert!(r["failed"]["reason"].as_str().unwrap_or_default().contains("HYPER"), "{r}");
    assert_eq!(r["ran"], 0);
    assert_eq!(log_len(&mut c).await, n, "nothing ran");

    // Scroll down and up by pixels; wait and screenshot.
    let [mx, my] = m.declared(600.0, 400.0);
    gpt(
        &mut c,
        &mut seen,
        d,
        json!([{"type": "scroll", "x": mx, "y": my, "scroll_x": 0, "scroll_y": 400}]),
        none.clone(),
    )
    .await;
    let y1 = eval(&mut c, "scrollY").await.as_f64().unwrap_or(0.0);
    assert!(y1 > 100.0, "{y1}");
    gpt(
        &mut c,
        &mut seen,
        d,
        json!([{"type": "scroll", "x": mx, "y": my, "scroll_x": 0, "scroll_y": -400}]),
        none.clone(),
    )
    .await;
    let y2 = eval(&mut c, "scrollY").await.as_f64().unwrap_or(0.0);
    assert!(y2 < y1, "{y1} -> {y2}");
    let r =
        gpt(&mut c, &mut seen, d, json!([{"type": "wait"}, {"type": "screenshot"}]), none.clone())
            .await;
    assert_eq!(r["ran"], 2, "{r}");

    // back and forward are real buttons (8, 9): the page goes back and comes forward.
    let here = eval(&mut c, "location.href").await;
    gpt(
        &mut c,
        &mut seen,
        d,
        json!([{"type": "click", "button": "back", "x": mx, "y": my}]),
        none.clone(),
    )
    .await;
    gpt(
        &mut c,
        &mut seen,
        d,
        json!([{"type": "click", "button": "forward", "x": mx, "y": my}]),
        none.clone(),
    )
    .await;
    assert_eq!(eval(&mut c, "location.href").await, here);
    check_shapes(&seen);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_shapes_act_on_the_sessions_tab_through_devtools() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let mut seen = Seen::default();
    let b = "browser";
    let vp = eval(&mut c, "[innerWidth, innerHeight]").await;
    let real = (vp[0].as_f64().expect("width"), vp[1].as_f64().expect("height"));
    let m = Map::fit(real, (0.0, 0.0));

    // A click at the declared point lands at the viewport point under it.
    let target = m.declared(300.0, 400.0);
    let r =
        claude(&mut c, &mut seen, b, json!({"action": "left_click", "coordinate": target})).await;
    let log = log_from(&mut c, 0).await;
    let down = *events(&log, "pointerdown").last().expect("a press");
    let (want_x, want_y) = m.client(target);
    assert!((down["x"].as_f64().unwrap_or(0.0) - want_x).abs() <= 1.0, "{down} vs {want_x}");
    assert!((down["y"].as_f64().unwrap_or(0.0) - want_y).abs() <= 1.0, "{down} vs {want_y}");
    assert_eq!((image(&r).0, image(&r).1), (1024, 768));

    // Typing, ctrl+a and CTRL+A select.
    let (fx, fy) = centre(&mut c, "field").await;
    claude(&mut c, &mut seen, b, json!({"action": "left_click", "coordinate": m.declared(fx, fy)}))
        .await;
    claude(&mut c, &mut seen, b, json!({"action": "type", "text": "Grüße 你好"})).await;
    assert_eq!(eval(&mut c, "document.getElementById('field').value").await, "Grüße 你好");
    claude(&mut c, &mut seen, b, json!({"action": "key", "text": "ctrl+a"})).await;
    assert_eq!(selection(&mut c).await, json!([0, 8, 8]));
    claude(&mut c, &mut seen, b, json!({"action": "key", "text": "End"})).await;
    gpt(&mut c, &mut seen, b, json!([{"type": "keypress", "keys": ["CTRL", "A"]}]), json!([]))
        .await;
    assert_eq!(selection(&mut c).await, json!([0, 8, 8]));

    // The slider, dragged both ways.
    let (sx0, sy0) = centre(&mut c, "slider").await;
    let drag = json!({"action": "left_click_drag", "start_coordinate": m.declared(sx0 - 195.0, sy0),
                      "coordinate": m.declared(sx0 + 195.0, sy0)});
    claude(&mut c, &mut seen, b, drag).await;
    assert!(
        eval(&mut c, "+document.getElementById('slider').value").await.as_f64().unwrap_or(0.0)
            >= 90.0
    );
    let p = |dx: f64| {
        let [x, y] = m.declared(sx0 + dx, sy0);
        json!({"x": x, "y": y})
    };
    gpt(
        &mut c,
        &mut seen,
        b,
        json!([{"type": "drag", "path": [p(195.0), p(0.0), p(-195.0)]}]),
        json!([]),
    )
    .await;
    assert!(
        eval(&mut c, "+document.getElementById('slider').value").await.as_f64().unwrap_or(100.0)
            <= 10.0
    );

    // Zoom on the red box; scroll both ways.
    let (rx, ry) = centre(&mut c, "red").await;
    let (a, z) = (m.declared(rx - 60.0, ry - 25.0), m.declared(rx + 60.0, ry + 25.0));
    let zoom =
        claude(&mut c, &mut seen, b, json!({"action": "zoom", "region": [a[0], a[1], z[0], z[1]]}))
            .await;
    let (_, _, px) = image(&zoom);
    assert!(px.chunks(3).all(|p| p[0] > 240 && p[1] < 20 && p[2] < 20), "all red");
    let mid = m.declared(600.0, 400.0);
    claude(&mut c, &mut seen, b, json!({"action": "scroll", "coordinate": mid, "scroll_direction": "down", "scroll_amount": 3})).await;
    let y1 = eval(&mut c, "scrollY").await.as_f64().unwrap_or(0.0);
    assert!(y1 > 100.0, "{y1}");
    gpt(
        &mut c,
        &mut seen,
        b,
        json!([{"type": "scroll", "x": mid[0], "y": mid[1], "scroll_x": 0, "scroll_y": -200}]),
        json!([]),
    )
    .await;
    let y2 = eval(&mut c, "scrollY").await.as_f64().unwrap_or(0.0);
    assert!(y2 < y1, "{y1} -> {y2}");
    let r = claude(&mut c, &mut seen, b, json!({"action": "cursor_position"})).await;
    assert_eq!(r["content"][0]["text"], format!("X={},Y={}", mid[0], mid[1]), "{r}");
    check_shapes(&seen);

    // The Rust SDK's typed calls, their answers read as the vendor-shaped result types.
    use glovebox_client::generated::{NativeAnthropic, NativeOpenai};
    use glovebox_protocol::actions::native::Target;
    use glovebox_protocol::results::native::Block;
    let opts = glovebox_client::ClientOptions::new("native-test", "0");
    let client = glovebox_client::Client::connect(&env.daemon.url(), glovebox_tests::ACTOR, opts)
        .await
        .expect("the SDK connects");
    let obj = |v: Value| v.as_object().cloned().unwrap_or_default();
    let mut call = NativeAnthropic::new(obj(tool()), obj(json!({"action": "screenshot"})));
    call.common.target = Some(Target::Browser);
    let shot = client.native_anthropic(call).result().await.expect("a typed answer");
    assert!(!shot.is_error && matches!(shot.content.last(), Some(Block::Image { .. })), "{shot:?}");
    let actions = vec![obj(json!({"type": "wait", "ms": 10})), obj(json!({"type": "screenshot"}))];
    let common = glovebox_protocol::actions::native::Common { target: Some(Target::Browser) };
    let call = NativeOpenai { actions: Some(actions), common, ..NativeOpenai::default() };
    let out = client.native_openai(call).result().await.expect("a typed answer");
    assert_eq!((out.ran, out.output.kind.as_str()), (2, "computer_screenshot"), "{out:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_calls_are_ops_under_the_policy_and_a_person_in_control() {
    let policy = json!({"rules": [
        {"name": "no-model-in-the-tab", "class": "mutating", "args": {"target": "browser"},
         "decision": "deny"},
    ]});
    let env = BrowserEnv::with_policy(policy).await;
    let mut c = open(&env).await;
    c.call("events.subscribe", json!({"topics": ["ops"]})).await;
    let click = json!({"type": "click", "button": "left", "x": 512, "y": 384});

    // An op with an id: sent twice, it runs once and answers the same.
    let call = json!({"action": click, "tool": openai_tool(), "op_id": "native-once"});
    let first = c.call("native.openai", call.clone()).await;
    let again = c.call("native.openai", call).await;
    assert_eq!(first["result"]["result"]["ran"], 1, "{first}");
    assert_eq!(first["result"], again["result"], "replayed, not run again");
    let log = log_from(&mut c, 0).await;
    assert_eq!(events(&log, "pointerdown").len(), 1, "one click: {log:?}");
    // The op list names the vendor's action.
    let started = loop {
        let ev = c.notification("events.event").await;
        if ev["params"]["result"]["kind"] == "started" {
            break ev;
        }
    };
    let data = &started["params"]["result"]["data"];
    assert_eq!(data["method"], "native.openai", "{started}");
    assert_eq!(data["summary"], "click", "{started}");

    // The approval policy judges it as the input it is.
    let denied = c
        .call("native.anthropic", json!({"tool": tool(), "target": "browser",
                                          "input": {"action": "left_click", "coordinate": [5, 300]}}))
        .await;
    assert_eq!(glovebox_tests::raw::code(&denied), "APPROVAL_DENIED", "{denied}");
    assert_eq!(log_len(&mut c).await, log.len(), "the denied click did not run");

    // A person in control: the model's call waits its turn (PAUSED), nothing runs.
    let viewer = glovebox_tests::viewer::Viewer::start().await;
    let page = viewer.open(&crate::view::link(&env.daemon, glovebox_tests::ACTOR).await).await;
    page.wait_for(
        "window.glovebox.hello !== null && !document.getElementById('takeover').hidden",
        "Take over shown",
    )
    .await;
    page.click_on("#takeover").await;
    page.wait_for(
        "window.glovebox.state.control && window.glovebox.state.control.mine === true",
        "in control",
    )
    .await;
    let input = json!({"action": "left_click", "coordinate": [512, 384]});
    let r = c.call("native.anthropic", json!({"tool": tool(), "input": input})).await;
    assert_eq!(glovebox_tests::raw::code(&r), "PAUSED", "{r}");
    assert_eq!(r["error"]["data"]["details"]["reason"], "human_in_control", "{r}");
}
