//! Any bytes that parse as JSON go through every tool's validator, as `tools.call` arguments
//! and as direct-method params of every action: it must answer, never panic, and a refusal
//! must say why and name the offending parameter (which may be any key, even "").
#![no_main]

use glovebox_protocol::contract::{validate_direct, validate_tool_call, TOOLS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    for tool in TOOLS {
        if let Err(v) = validate_tool_call(tool, &value) {
            assert!(!v.message.is_empty() && v.fields.contains(&v.field));
        }
        for action in tool.actions {
            if let Err(v) = validate_direct(tool, action, &value) {
                assert!(!v.message.is_empty() && v.fields.contains(&v.field));
            }
        }
    }
});
