//! Snapshots as faithful as the page (issue 15), on real Chromium with `fidelity.html`: values
//! exact and cut with the marker, every icon control with its own ref, hidden content left
//! out, and filtered views that neither move the baseline nor stale refs outside them.

use glovebox_protocol::outline::{line_ref, line_value};
use glovebox_tests::browser::BrowserEnv;
use glovebox_tests::raw::Raw;
use serde_json::{json, Value};

async fn ok(c: &mut Raw, method: &str, params: Value) -> Value {
    let r = c.call(method, params.clone()).await;
    assert!(r.get("result").is_some(), "{method} {params} failed: {r}");
    r["result"]["result"].clone()
}

fn text(snap: &Value) -> String {
    snap["snapshot"].as_str().unwrap_or_default().to_owned()
}

/// The first line holding `needle`.
fn line<'a>(text: &'a str, needle: &str) -> &'a str {
    text.lines().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("no {needle:?} in:\n{text}"))
}

fn ref_in(text: &str, needle: &str) -> String {
    line_ref(line(text, needle)).expect("ref").to_owned()
}

async fn eval(c: &mut Raw, script: &str) -> Value {
    ok(c, "browser.evaluate", json!({"script": script})).await["value"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_icons_and_hidden_content_as_the_page_has_them() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("fidelity.html")})).await;
    let snap = ok(&mut c, "browser.snapshot", json!({"limit": 1000})).await;
    let t = text(&snap);

    // Exact values: a trailing space, a newline and quotes come back as they are.
    let (notes, cut) = line_value(line(&t, "textbox \"Notes\""), "value").expect("value");
    assert_eq!((notes.as_str(), cut), ("Line one\n  \"quoted\" ends In ", None), "{t}");
    let (long, total) = line_value(line(&t, "textbox \"Long\""), "value").expect("long value");
    assert_eq!(total, Some(5000), "the cut says the whole length: {t}");
    assert_eq!(long, "0123456789".repeat(20), "the first 200 characters exactly");
    assert!(line(&t, "textbox \"Long\"").contains("\"…(5000 chars)"), "{t}");

    // Options say the value select takes where it is not the label.
    assert!(line(&t, "option \"Red\"").contains("value=\"r\""), "{t}");
    assert!(!line(&t, "option \"green\"").contains("value="), "{t}");

    // A visually hidden label names its control; hidden content is not listed.
    assert!(t.contains("textbox \"Email address\""), "{t}");
    assert!(line(&t, "\"More info\"").contains("collapsed"), "{t}");
    for hidden in
        ["Secret details", "Hidden inside details", "Display none", "Invisible", "Zero size"]
    {
        assert!(!t.contains(hidden), "{hidden:?} is hidden: {t}");
    }

    // Rows scrolled out of their box are listed, without a box.
    assert!(line(&t, "\"Row one\"").contains(" @"), "{t}");
    assert!(!line(&t, "\"Row seven\"").contains(" @"), "{t}");

    // Each icon-only control of the post has its own ref, and its own line.
    let reply = ref_in(&t, "button \"Reply\"");
    let like = ref_in(&t, "clickable \"Like\"");
    let more = ref_in(&t, "clickable \"More\"");
    assert!(t.contains("text \"Alice: lunch tomorrow?\""), "the row's text on a line: {t}");
    let mut refs = vec![reply.clone(), like.clone(), more.clone()];
    refs.dedup();
    assert_eq!(refs.len(), 3, "{t}");
    assert!(!t.contains("Mute Alice"), "the menu is closed: {t}");

    ok(&mut c, "browser.click", json!({"ref": more})).await;
    let after = ok(&mut c, "browser.snapshot", json!({})).await;
    let a = text(&after);
    assert!(a.contains("menuitem \"Mute Alice\""), "the menu opened: {a}");
    // The menu's lines follow the line of the post they sit in (changed: it grew), indented
    // under it.
    let post_at = a.lines().position(|l| l.contains("clickable \"article post\"")).expect("post");
    let added_menu =
        |l: &str| l.strip_prefix('+').is_some_and(|r| r.trim_start().starts_with("menu "));
    assert!(a.lines().nth(post_at + 1).is_some_and(added_menu), "{a}");
    assert_eq!(eval(&mut c, "document.getElementById('opened').textContent").await, "");
    ok(&mut c, "browser.click", json!({"ref": like})).await;
    assert_eq!(eval(&mut c, "document.querySelector('.icon-like').dataset.liked").await, "1");
    drop(env);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn query_and_scope_views_keep_the_baseline_and_outside_refs() {
    let env = BrowserEnv::start().await;
    let mut c = env.daemon.actor().await;
    ok(&mut c, "browser.navigate", json!({"url": env.site.url("fidelity.html")})).await;
    let first = ok(&mut c, "browser.snapshot", json!({"limit": 1000})).await;
    let t = text(&first);
    let elsewhere = ref_in(&t, "button \"Elsewhere\"");
    let post = ref_in(&t, "clickable \"article post\"");

    eval(&mut c, "document.body.insertAdjacentHTML('beforeend', '<button>Fresh one</button>')")
        .await;
    // Words in any order, in the line or its ancestors: the row's controls come along.
    let q = ok(&mut c, "browser.snapshot", json!({"query": "tomorrow alice"})).await;
    let qt = text(&q);
    assert_eq!(q["query_match"], "all", "{q}");
    assert_eq!(q["view"], "query", "{q}");
    assert!(qt.contains("text \"Alice: lunch tomorrow?\""), "{qt}");
    assert!(qt.contains("button \"Reply\"") && qt.contains("clickable \"More\""), "{qt}");
    assert!(!qt.contains("Elsewhere"), "{qt}");
    // Words on different lines: none holds both, the lines holding either are returned.
    let any = ok(&mut c, "browser.snapshot", json!({"query": "Fidelity Elsewhere"})).await;
    assert_eq!(any["query_match"], "any", "{any}");
    assert!(text(&any).contains("heading \"Fidelity\""), "{any}");
    assert!(text(&any).contains("button \"Elsewhere\""), "{any}");

    // A scope view: refs outside it still act.
    let scoped = ok(&mut c, "browser.snapshot", json!({"scope_ref": post})).await;
    assert_eq!(scoped["view"], "scope", "{scoped}");
    assert!(!text(&scoped).contains("Elsewhere"), "{scoped}");
    ok(&mut c, "browser.click", json!({"ref": elsewhere})).await;
    assert_eq!(
        eval(&mut c, "document.getElementById('elsewhere').textContent").await,
        "Elsewhere clicked"
    );

    // The plain snapshot still reports what changed since the previous plain one.
    let plain = ok(&mut c, "browser.snapshot", json!({})).await;
    let p = text(&plain);
    assert_eq!(plain["mode"], "incremental", "{plain}");
    assert!(p.contains("+ button \"Fresh one\""), "{p}");
    assert!(p.contains("~ button \"Elsewhere clicked\""), "{p}");
    drop(env);
}
