//! The contract table: one entry per action, the single source of the JSON schemas the LLM
//! sees, the human docs, the validator and the OpenRPC document.

mod browser;
mod computer;
mod context;
pub mod docs;
pub mod generated;
mod native;
pub mod params;
pub mod rules;
pub mod schema;
pub mod spec;
pub mod validate;

#[cfg(test)]
mod tests;

pub use browser::BROWSER;
pub use computer::COMPUTER;
pub use context::CONTEXT;
pub use native::NATIVE;
pub use spec::{
    Action, Backend, Class, DefaultValue, Gate, IdKind, Locator, Param, Settle, Tool, Ty,
};
pub use validate::{validate_direct, validate_tool_call, Checked, Violation};

/// Every tool, in the order `tools.list` presents them.
pub static TOOLS: [&Tool; 4] = [&CONTEXT, &BROWSER, &COMPUTER, &NATIVE];

/// Find a tool by name.
pub fn tool(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().copied().find(|t| t.name == name)
}

/// Resolve a direct method name such as `browser.click` to its tool and action.
pub fn direct_method(method: &str) -> Option<(&'static Tool, &'static Action)> {
    let (tool_name, action_name) = method.split_once('.')?;
    let tool = tool(tool_name)?;
    Some((tool, tool.action(action_name)?))
}
