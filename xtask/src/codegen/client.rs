//! Renders `client-sdk/src/generated.rs`: a typed call on `Client` per contract action, taking
//! the action's params struct from `glovebox_protocol::actions`, re-exported under the SDK's
//! names (`BrowserClick` for `browser::Click`).

use std::fmt::Write as _;

use glovebox_protocol::contract::{Action, Tool, TOOLS};

use super::{action_doc, comment_lines, doc_lines, pascal};

const HEADER: [&str; 2] = [
    "Typed calls for every contract action, generated from the contract table by `cargo xtask \
     codegen`; do not edit.",
    "Each action's params struct is the protocol's (`glovebox_protocol::actions`), shared with \
     the daemon, re-exported here under a flat name (`BrowserClick` for `browser::Click`): \
     required params are plain fields (`BrowserClick::new(target)`), params with a default are \
     plain fields at that default, the rest are `Option`. A method on [`Client`] returns a \
     [`PendingCall`] to await. The daemon still validates each call before any side effect \
     (`CONTRACT_VIOLATION`).",
];

/// `browser` + `state_and_screenshot` -> `BrowserStateAndScreenshot`.
pub fn struct_name(tool: &Tool, action: &Action) -> String {
    pascal(&format!("{}_{}", tool.name, action.name))
}

pub fn method_name(tool: &Tool, action: &Action) -> String {
    format!("{}_{}", tool.name, action.name)
}

/// The generated client before rustfmt.
pub fn render() -> String {
    let mut out = comment_lines("//!", "", HEADER[0]);
    out.push_str("\n//!\n");
    out.push_str(&comment_lines("//!", "", HEADER[1]));
    out.push_str(
        "\n\n// The contract's docs quote URLs as examples, not as links.\n\
         #![allow(rustdoc::bare_urls)]\n\n\
         pub use glovebox_protocol::actions::{browser, computer, context};\n\n\
         use crate::{Client, PendingCall};\n",
    );
    for tool in TOOLS {
        out.push('\n');
        for action in tool.actions {
            let _ = writeln!(
                out,
                "pub use glovebox_protocol::actions::{}::{} as {};",
                tool.name,
                pascal(action.name),
                struct_name(tool, action)
            );
        }
    }
    for tool in TOOLS {
        let _ = write!(out, "\n/// Typed calls of the `{}` tool.\nimpl Client {{\n", tool.name);
        for action in tool.actions {
            let (name, method) = (struct_name(tool, action), method_name(tool, action));
            let _ = writeln!(out, "{}", doc_lines("    ", &action_doc(tool, action)));
            let _ = writeln!(
                out,
                "    pub fn {method}(&self, args: {name}) -> PendingCall<'_, {name}> {{\n        \
                 PendingCall::new(self, args)\n    }}\n"
            );
        }
        out.push_str("}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let tool = glovebox_protocol::contract::tool("browser").expect("browser");
        let action = tool.action("state_and_screenshot").expect("action");
        assert_eq!(struct_name(tool, action), "BrowserStateAndScreenshot");
        assert_eq!(method_name(tool, action), "browser_state_and_screenshot");
    }
}
