//! Any bytes as the params of the typed methods: decoding refuses or accepts, never panics;
//! what decodes re-encodes to JSON that decodes to the same value.
#![no_main]

use glovebox_protocol::wire::{HelloParams, ToolCallParams};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(h) = serde_json::from_slice::<HelloParams>(data) {
        let again: HelloParams = serde_json::from_str(&serde_json::to_string(&h).expect("encodes")).expect("decodes");
        assert_eq!(h, again);
    }
    if let Ok(c) = serde_json::from_slice::<ToolCallParams>(data) {
        let again: ToolCallParams = serde_json::from_str(&serde_json::to_string(&c).expect("encodes")).expect("decodes");
        assert_eq!(c, again);
    }
});
