//! The one registration table: each contract action bound to its one handler by its typed
//! params, `.on::<browser::Click>(browser::on_tab(pointer::click))`, one line per action in
//! each tool's `routes` (`context.rs`, `browser.rs`, `computer.rs`). A call's validated
//! arguments are deserialized into the action's struct here, once, before the handler runs.
//! Each handler returns its action's typed result (`P::Result`, from `glovebox_protocol::results`),
//! written as JSON here. A test fails when an action of the contract has no line or a line no
//! action.

use std::future::Future;
use std::sync::LazyLock;

use futures::future::BoxFuture;
use glovebox_protocol::actions::Params;
use glovebox_protocol::contract::Checked;

use super::done::Done;
use super::{browser, computer, context, native, Ctx, Output};
use crate::error::DaemonError;

/// What a route runs: the call, deserialized into its params, through its handler.
pub type Fut = BoxFuture<'static, Result<Done, DaemonError>>;
type Run = Box<dyn Fn(Ctx, Checked) -> Fut + Send + Sync>;

/// One line of the table.
pub struct Route {
    pub tool: &'static str,
    pub action: &'static str,
    run: Run,
}

impl Route {
    pub fn run(&self, ctx: Ctx, call: Checked) -> Fut {
        (self.run)(ctx, call)
    }
}

/// The table being built: `.on::<P>(handler)` per action.
#[derive(Default)]
pub struct Routes {
    routes: Vec<Route>,
}

/// A handler of `P`'s action: an `async fn(Ctx, P) -> Result<Output<P::Result>, DaemonError>`;
/// the table writes its typed result as the wire's JSON.
pub trait Handler<P: Params>: Send + Sync + 'static {
    fn call(&self, ctx: Ctx, p: P) -> Fut;
}

impl<P, F, R> Handler<P> for F
where
    P: Params,
    F: Fn(Ctx, P) -> R + Send + Sync + 'static,
    R: Future<Output = Result<Output<P::Result>, DaemonError>> + Send + 'static,
{
    fn call(&self, ctx: Ctx, p: P) -> Fut {
        let fut = self(ctx, p);
        Box::pin(async move { super::results::to_wire::<P>(fut.await?) })
    }
}

impl Routes {
    /// Bind `P`'s action to `handler`, which gets the call's params as `P`.
    pub fn on<P: Params>(mut self, handler: impl Handler<P>) -> Self {
        let run = move |ctx: Ctx, call: Checked| -> Fut {
            match call.params::<P>() {
                Ok(p) => handler.call(ctx, p),
                Err(e) => {
                    let method = call.tool.method(call.action);
                    let e = DaemonError::InvalidParams { method, reason: e.0 };
                    Box::pin(std::future::ready(Err(e)))
                }
            }
        };
        self.routes.push(Route { tool: P::TOOL, action: P::ACTION, run: Box::new(run) });
        self
    }
}

static TABLE: LazyLock<Vec<Route>> = LazyLock::new(|| {
    let t = Routes::default();
    let t = context::routes(t);
    let t = browser::routes(t);
    let t = computer::routes(t);
    native::routes(t).routes
});

pub fn route(tool: &str, action: &str) -> Option<&'static Route> {
    TABLE.iter().find(|r| r.tool == tool && r.action == action)
}

/// The actions of `tool` this build can run (for `UNSUPPORTED` details and the docs).
pub fn implemented(tool: &str) -> Vec<String> {
    TABLE.iter().filter(|r| r.tool == tool).map(|r| r.action.to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use glovebox_protocol::contract::TOOLS;

    use super::TABLE;

    /// Every action of the contract has exactly one line, and every line an action.
    #[test]
    fn the_table_covers_the_contract() {
        let mut problems = Vec::new();
        for tool in TOOLS {
            for action in tool.actions {
                let lines =
                    TABLE.iter().filter(|r| r.tool == tool.name && r.action == action.name).count();
                if lines != 1 {
                    problems.push(format!("{}: {lines} lines in the table", tool.method(action)));
                }
            }
        }
        for r in TABLE.iter() {
            if glovebox_protocol::contract::tool(r.tool).and_then(|t| t.action(r.action)).is_none()
            {
                problems.push(format!("{}.{}: no such action in the contract", r.tool, r.action));
            }
        }
        assert!(problems.is_empty(), "the table and the contract differ:\n{}", problems.join("\n"));
    }
}
