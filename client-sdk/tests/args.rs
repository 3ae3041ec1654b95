//! The generated params structs serialize to exactly the JSON the daemon's contract expects:
//! unset params are absent, `r#ref` is `ref`, regions are objects.

use glovebox_client::generated::{
    BrowserClick, BrowserUpload, ComputerScreenshot, ComputerWait, ContextGetState,
};
use glovebox_client::{ActionArgs, Region};
use serde_json::{json, Value};

fn json_of<A: ActionArgs>(args: &A) -> Value {
    serde_json::to_value(args).expect("params serialize")
}

#[test]
fn unset_params_are_absent() {
    assert_eq!(json_of(&BrowserClick::default()), json!({}));
    assert_eq!(json_of(&ContextGetState::default()), json!({}));
}

#[test]
fn set_params_keep_their_wire_names() {
    let click = BrowserClick {
        r#ref: Some("e3".into()),
        button: Some("right".into()),
        click_count: Some(2),
        ..Default::default()
    };
    assert_eq!(json_of(&click), json!({"ref": "e3", "button": "right", "click_count": 2}));
    let wait = ComputerWait { duration_ms: Some(10), ..Default::default() };
    assert_eq!(json_of(&wait), json!({"duration_ms": 10}));
}

#[test]
fn lists_and_regions() {
    let upload = BrowserUpload {
        files: Some(vec!["/tmp/a.txt".into()]),
        selector: Some("#f".into()),
        ..Default::default()
    };
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
