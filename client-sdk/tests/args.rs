//! The params structs the SDK sends (the protocol's, shared with the daemon) serialize to
//! exactly the JSON the daemon's contract expects: params at their default and unset ones are
//! absent, `r#ref` is `ref`, a locator is its flat keys, regions are objects; and they read
//! back what they wrote.

use glovebox_client::generated::{
    browser, BrowserClick, BrowserUpload, ComputerScreenshot, ComputerWait, ContextGetState,
};
use glovebox_client::{ActionArgs, Element, Point, Region};
use serde_json::{json, Value};

fn json_of<A: ActionArgs>(args: &A) -> Value {
    let v = serde_json::to_value(args).expect("params serialize");
    let back: A = serde_json::from_value(v.clone()).expect("params deserialize");
    assert_eq!(serde_json::to_value(back).expect("again"), v, "a round trip keeps the JSON");
    v
}

#[test]
fn defaults_and_unset_params_are_absent() {
    assert_eq!(json_of(&BrowserClick::new(Element::Ref("e3".into()))), json!({"ref": "e3"}));
    assert_eq!(json_of(&ContextGetState::default()), json!({}));
    assert_eq!(json_of(&ComputerWait::default()), json!({}));
}

#[test]
fn set_params_keep_their_wire_names() {
    let click = BrowserClick {
        button: browser::Button::Right,
        click_count: 2,
        ..BrowserClick::new(Element::Ref("e3".into()))
    };
    assert_eq!(json_of(&click), json!({"ref": "e3", "button": "right", "click_count": 2}));
    let at = BrowserClick::new(Point::Fraction { nx: 0.5, ny: 0.25 });
    assert_eq!(json_of(&at), json!({"nx": 0.5, "ny": 0.25}));
    let wait = ComputerWait { duration_ms: Some(10), ..Default::default() };
    assert_eq!(json_of(&wait), json!({"duration_ms": 10}));
}

#[test]
fn lists_and_regions() {
    let upload = BrowserUpload::new(Element::Selector("#f".into()), vec!["/tmp/a.txt".to_owned()]);
    assert_eq!(json_of(&upload), json!({"files": ["/tmp/a.txt"], "selector": "#f"}));
    let shot = ComputerScreenshot {
        region: Some(Region { x: 1, y: 2, width: 30, height: 40 }),
        ..Default::default()
    };
    assert_eq!(json_of(&shot), json!({"region": {"x": 1, "y": 2, "width": 30, "height": 40}}));
}

#[test]
fn every_struct_names_its_direct_method() {
    assert_eq!((BrowserClick::TOOL, BrowserClick::ACTION), ("browser", "click"));
    assert_eq!((ComputerWait::TOOL, ComputerWait::ACTION), ("computer", "wait"));
    assert_eq!((ContextGetState::TOOL, ContextGetState::ACTION), ("context", "get_state"));
}

#[test]
fn defaults_come_from_the_table() {
    let d = browser::DoubleClick::new(Element::Ref("e1".into()));
    assert_eq!((d.button, d.click_count), (browser::Button::Left, 2));
    let read: browser::Scroll = serde_json::from_value(json!({})).expect("all optional");
    assert_eq!((read.direction, read.target), (browser::Direction::Down, None));
}
