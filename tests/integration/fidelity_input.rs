//! Inputs as faithful as the page (issue 15): whole reads and ranges of long text (a textarea
//! in Chromium, a mousepad document over AT-SPI), `fill` of every kind of field read back,
//! typing key by key into a page that listens to keys only, and clicks by ref on rows that
//! only scrolling their own box reveals. Real Chromium and a real mousepad.

use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::desktop::{ok as tool_ok, DesktopFixture};
use glovebox_tests::raw::{code, Raw};
use serde_json::{json, Value};

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"]["result"].clone()
}

async fn eval(c: &mut Raw, script: &str) -> Value {
    ok(c, "browser.evaluate", json!({"script": script})).await["value"].clone()
}

/// The refs of the lines containing each needle, from one full snapshot.
async fn refs(c: &mut Raw, needles: &[&str]) -> Vec<String> {
    let snap = ok(c, "browser.snapshot", json!({"limit": 5000, "disable_diffing": true})).await;
    let text = snap["snapshot"].as_str().unwrap_or_default().to_owned();
    needles
        .iter()
        .map(|n| {
            let line = text
                .lines()
                .find(|l| l.contains(n))
                .unwrap_or_else(|| panic!("no line with {n:?} in:\n{text}"));
            glovebox_protocol::outline::line_ref(line)
                .unwrap_or_else(|| panic!("no ref on {line:?}"))
                .to_owned()
        })
        .collect()
}

async fn open(env: &BrowserEnv) -> Raw {
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("fidelity-input.html")})).await;
    c
}

/// 5,000 characters with a space at the end, newlines and a character outside the BMP.
fn long_text() -> String {
    let mut s: String = (0..4_991).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    s.push_str("\n😀 end. ");
    assert_eq!(s.chars().count(), 4_999);
    s.push(' ');
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whole_reads_and_ranges_of_a_long_textarea() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let long = long_text();
    let set = format!("document.getElementById('long').value = {}; 1", json!(long));
    eval(&mut c, &set).await;
    let [r] = <[String; 1]>::try_from(refs(&mut c, &["textbox \"Long\""]).await).expect("ref");

    let whole = ok(&mut c, "browser.get_content", json!({"ref": r})).await;
    assert_eq!(whole["text"].as_str().map(|t| t.chars().count()), Some(5_000), "{whole}");
    assert_eq!(whole["text"], json!(long), "the whole value, trailing space and all");
    assert_eq!(
        (whole["total_chars"].as_u64(), whole["truncated"].as_bool()),
        (Some(5_000), Some(false))
    );

    let part =
        ok(&mut c, "browser.get_content", json!({"ref": r, "offset": 4_990, "length": 5})).await;
    assert_eq!(part["text"], "y\n😀 e", "the emoji counts as one character: {part}");
    assert_eq!(
        (part["truncated"].as_bool(), part["next_offset"].as_u64()),
        (Some(true), Some(4_995))
    );
    let tail = ok(&mut c, "browser.get_content", json!({"ref": r, "offset": 4_995})).await;
    assert_eq!(tail["text"], "nd.  ", "{tail}");
    assert!(tail.get("next_offset").is_none(), "{tail}");

    // Refused before anything runs, with a stable code.
    let bad = c.call("browser.get_content", json!({"ref": r, "offset": -1})).await;
    assert_eq!(code(&bad), "CONTRACT_VIOLATION", "{bad}");
    let bad = c.call("browser.get_content", json!({"ref": r, "length": 0})).await;
    assert_eq!(code(&bad), "CONTRACT_VIOLATION", "{bad}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daemon_limit_cuts_a_read_and_says_where_to_go_on() {
    let env = BrowserEnv::with_config(
        json!({"rules": []}),
        std::sync::Arc::new(|c: &mut glovebox_daemon::Config| c.max_text_chars = 1_000),
    )
    .await;
    let mut c = open(&env).await;
    let set = format!("document.getElementById('long').value = {}; 1", json!(long_text()));
    eval(&mut c, &set).await;
    let [r] = <[String; 1]>::try_from(refs(&mut c, &["textbox \"Long\""]).await).expect("ref");
    let first = ok(&mut c, "browser.get_content", json!({"ref": r})).await;
    assert_eq!(first["text"].as_str().map(|t| t.chars().count()), Some(1_000), "{first}");
    assert_eq!(first["truncated"], true);
    assert_eq!(
        (first["next_offset"].as_u64(), first["limit_chars"].as_u64()),
        (Some(1_000), Some(1_000))
    );
    assert_eq!(first["total_chars"], 5_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fill_reaches_every_field_a_person_types_into_or_picks_in() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let cases: &[(&str, &str, Value)] = &[
        ("textbox \"Text\"", "plain words", json!("plain words")),
        ("searchbox \"Search\"", "find me", json!("find me")),
        ("textbox \"Email\"", "a@b.example", json!("a@b.example")),
        ("textbox \"Url\"", "https://example.com/x", json!("https://example.com/x")),
        ("textbox \"Tel\"", "+1 555 0100", json!("+1 555 0100")),
        ("textbox \"Password\"", "s3cret pw", json!("s3cret pw")),
        ("spinbutton \"Number\"", "42.5", json!("42.5")),
        ("\"Date\"", "2012-07-28", json!("2012-07-28")),
        ("\"Time\"", "13:45", json!("13:45")),
        ("\"When\"", "2012-07-28T13:45", json!("2012-07-28T13:45")),
        ("\"Month\"", "2012-07", json!("2012-07")),
        ("\"Week\"", "2012-W30", json!("2012-W30")),
        ("\"Colour\"", "#1A2B3C", json!("#1a2b3c")),
        ("slider \"Volume\"", "35", json!("35")),
        ("combobox \"Fruit\"", "b", json!("b")),
        ("combobox \"Fruit\"", "Cherry", json!("c")),
        ("textbox \"Notes\"", "rich text here", json!("rich text here")),
    ];
    let needles: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let rs = refs(&mut c, &needles).await;
    for ((needle, text, want), r) in cases.iter().zip(&rs) {
        let got = ok(&mut c, "browser.fill", json!({"ref": r, "text": text})).await;
        assert_eq!(&got["value"], want, "fill {needle} with {text}: {got}");
        assert_eq!(got["verified"], true, "{got}");
    }
    let read = "['text','search','email','url','tel','password','number','date','time','datetime-local','month','week','color','range','fruit'].map(id => document.getElementById(id).value)";
    assert_eq!(
        eval(&mut c, read).await,
        json!([
            "plain words",
            "find me",
            "a@b.example",
            "https://example.com/x",
            "+1 555 0100",
            "s3cret pw",
            "42.5",
            "2012-07-28",
            "13:45",
            "2012-07-28T13:45",
            "2012-07",
            "2012-W30",
            "#1a2b3c",
            "35",
            "c"
        ]),
        "the page holds what fill said"
    );
    let changes = eval(&mut c, "changes").await;
    assert!(
        changes.as_array().is_some_and(|a| a.iter().any(|v| v == "date")),
        "change fired: {changes}"
    );
    assert_eq!(eval(&mut c, "document.getElementById('notes').innerText").await, "rich text here");

    // A multiple select takes a list, by value or label; the rest are deselected.
    let [tops, file, agree, date, fruit] = <[String; 5]>::try_from(
        refs(
            &mut c,
            &[
                "listbox \"Toppings\"",
                "\"Attachment\"",
                "checkbox \"Agree\"",
                "\"Date\"",
                "combobox \"Fruit\"",
            ],
        )
        .await,
    )
    .expect("refs");
    let got = ok(&mut c, "browser.fill", json!({"ref": tops, "values": ["ch", "Mushrooms"]})).await;
    assert_eq!(got["value"], json!(["ch", "mu"]), "{got}");
    let got = ok(&mut c, "browser.select", json!({"ref": tops, "values": ["Olives"]})).await;
    assert_eq!(got["value"], json!(["ol"]), "{got}");
    let got = ok(&mut c, "browser.select", json!({"ref": fruit, "value": "Banana"})).await;
    assert_eq!(got["value"], "b", "select by label: {got}");

    // What cannot be filled says what it is and what fits.
    let r = c.call("browser.fill", json!({"ref": file, "text": "/etc/passwd"})).await;
    assert_eq!(code(&r), "NOT_EDITABLE", "{r}");
    let msg = r["error"]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("file input") && msg.contains("upload"), "{r}");
    let r = c.call("browser.fill", json!({"ref": agree, "text": "yes"})).await;
    assert_eq!(code(&r), "NOT_EDITABLE", "{r}");
    assert!(r["error"]["message"].as_str().unwrap_or_default().contains("checkbox"), "{r}");
    // A malformed date is refused with the format it takes, and the field reads back why.
    let r = c.call("browser.fill", json!({"ref": date, "text": "28/07/2012"})).await;
    assert_eq!(code(&r), "ACTION_FAILED", "{r}");
    assert!(r["error"]["message"].as_str().unwrap_or_default().contains("2012-07-28"), "{r}");
    let r = c.call("browser.fill", json!({"ref": fruit, "text": "Durian"})).await;
    assert_eq!(code(&r), "ACTION_FAILED", "{r}");
    // Bad params are refused before anything runs.
    let r = c.call("browser.fill", json!({"ref": fruit})).await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");
    let r = c.call("browser.fill", json!({"ref": fruit, "text": "a", "values": ["a"]})).await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_mode_reaches_a_page_that_listens_to_keydown_only() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let [term, text] =
        <[String; 2]>::try_from(refs(&mut c, &["textbox \"Terminal\"", "textbox \"Text\""]).await)
            .expect("refs");
    // Insert mode sends no key event: the terminal sees nothing.
    let r = ok(&mut c, "browser.keyboard_type", json!({"ref": term, "text": "nope"})).await;
    assert_eq!(r["mode"], "insert", "{r}");
    assert_eq!(eval(&mut c, "keydownCount()").await, 0, "insertText fires no keydown");
    assert_eq!(eval(&mut c, "termText()").await, "");

    let typed = "ls -la ~/ 你好";
    let r =
        ok(&mut c, "browser.keyboard_type", json!({"ref": term, "text": typed, "mode": "keys"}))
            .await;
    assert_eq!(eval(&mut c, "termText()").await, typed, "{r}");
    assert_eq!(eval(&mut c, "keydownCount()").await, typed.chars().count(), "{r}");
    assert_eq!(r["keys_sent"], typed.chars().count(), "{r}");
    assert_eq!(r["verified"], false, "the terminal is no field to read back: {r}");
    assert!(r["why"].is_string(), "{r}");

    // Into a field, keys mode reads back; the keys carry US-layout codes and Shift.
    let watch = "window.seen = []; document.getElementById('text').addEventListener('keydown', (e) => seen.push([e.key, e.code, e.keyCode, e.shiftKey])); 1";
    eval(&mut c, watch).await;
    let r = ok(&mut c, "browser.type", json!({"ref": text, "text": "aZ~1", "mode": "keys"})).await;
    assert_eq!((r["value"].as_str(), r["verified"].as_bool()), (Some("aZ~1"), Some(true)), "{r}");
    assert_eq!(
        eval(&mut c, "seen").await,
        json!([
            ["a", "KeyA", 65, false],
            ["Z", "KeyZ", 90, true],
            ["~", "Backquote", 192, true],
            ["1", "Digit1", 49, false]
        ])
    );
    let r = ok(&mut c, "browser.type", json!({"ref": text, "text": " 你好"})).await;
    assert_eq!(
        (r["value"].as_str(), r["verified"].as_bool()),
        (Some("aZ~1 你好"), Some(true)),
        "{r}"
    );
    let r = c.call("browser.type", json!({"ref": text, "text": "x", "mode": "chords"})).await;
    assert_eq!(code(&r), "CONTRACT_VIOLATION", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_by_ref_reaches_rows_below_the_fold_of_their_own_box() {
    let env = BrowserEnv::start().await;
    let mut c = open(&env).await;
    let rs = refs(&mut c, &["box row 25\"", "inner row 18\"", "box row 2\""]).await;
    for r in &rs {
        ok(&mut c, "browser.click", json!({"ref": r})).await;
    }
    assert_eq!(eval(&mut c, "clicked").await, json!(["box-25", "inner-18", "box-2"]));
    let scrolled =
        eval(&mut c, "[box.scrollTop > 0, outer.scrollTop > 0, inner.scrollTop > 0]").await;
    assert_eq!(scrolled, json!([false, true, true]), "each box scrolled as a person would");

    // A second click on a ref moves the pointer early to where the element was; when it
    // moved meanwhile, the pointer moves on and the click still lands on it, hovered first.
    let shift = "document.body.insertBefore(Object.assign(document.createElement('div'), {style: 'height:45px'}), document.body.firstChild); \
                 window.over = []; document.querySelectorAll('.row').forEach((r) => r.addEventListener('mouseover', () => over.push(r.textContent))); 1";
    eval(&mut c, shift).await;
    let again = ok(&mut c, "browser.click", json!({"ref": rs[2]})).await;
    assert_eq!(eval(&mut c, "clicked.slice(-1)").await, json!(["box-2"]), "{again}");
    assert_eq!(eval(&mut c, "over.slice(-1)").await, json!(["box row 2"]), "hovered first");
    ok(&mut c, "browser.click", json!({"ref": rs[2]})).await;
    assert_eq!(eval(&mut c, "clicked.length").await, 5, "the same place again lands too");

    // Something that really covers the row is still named.
    let cover = "const d = document.createElement('div'); d.id = 'cover'; d.style = 'position:fixed;inset:0;background:rgba(0,0,0,.1)'; document.body.appendChild(d); 1";
    eval(&mut c, cover).await;
    let r = c.call("browser.click", json!({"ref": rs[0]})).await;
    assert_eq!(code(&r), "ACTION_FAILED", "{r}");
    assert!(r["error"]["message"].as_str().unwrap_or_default().contains("div#cover"), "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_text_of_a_long_mousepad_document_is_whole() {
    let f = DesktopFixture::start().await;
    let mut c = f.daemon.actor().await;
    let pid = f.launch(&["mousepad", "--disable-server"]);
    let app = f.wait_app(&mut c, pid).await;
    let (view, _) = f.wait_line(&mut c, &app, &["text", "editable"]).await;
    let long: String = (0..5_000)
        .map(|i| if i % 80 == 79 { '\n' } else { char::from(b'a' + (i % 26) as u8) })
        .collect();
    tool_ok(&c.call("computer.fill", json!({"app_id": app, "ref": view, "text": long})).await);
    let got = tool_ok(&c.call("computer.get_text", json!({"app_id": app, "ref": view})).await);
    assert_eq!(
        got["text"].as_str().map(|t| t.chars().count()),
        Some(5_000),
        "{}",
        got["total_chars"]
    );
    assert_eq!(got["text"], json!(long));
    assert_eq!(
        (got["total_chars"].as_u64(), got["truncated"].as_bool()),
        (Some(5_000), Some(false))
    );
    let part = tool_ok(
        &c.call(
            "computer.get_text",
            json!({"app_id": app, "ref": view, "offset": 4_990, "length": 20}),
        )
        .await,
    );
    let want: String = long.chars().skip(4_990).collect();
    assert_eq!(part["text"], json!(want), "{part}");
    assert_eq!(part["truncated"], false, "{part}");
    let head = tool_ok(
        &c.call("computer.get_text", json!({"app_id": app, "ref": view, "length": 100})).await,
    );
    assert_eq!(
        (head["next_offset"].as_u64(), head["truncated"].as_bool()),
        (Some(100), Some(true))
    );
    let bad = c.call("computer.get_text", json!({"app_id": app, "ref": view, "length": 0})).await;
    assert_eq!(code(&bad), "CONTRACT_VIOLATION", "{bad}");
    f.stop().await;
}
