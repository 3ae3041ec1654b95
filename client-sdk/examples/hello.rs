//! Say hello to a running gloveboxd, list its tools, run one op twice with the same op id
//! (the second answer is the first outcome, not a second run), read results as their types,
//! watch op events and print the session's status. The params are the protocol's typed structs, the ones the daemon reads
//! a call into: a click's target is an `Element` or a `Point`, its button an enum, and what
//! stays at the table's default is left off the wire.
//!
//! Start a daemon in one terminal (`cargo xtask run`, or `cargo xtask desktop` for a private
//! embedded desktop); it logs `gloveboxd listening on ws://ADDR/rpc` and where it wrote its
//! token. Then, in another:
//!
//! ```text
//! GLOVEBOX_URL=ws://127.0.0.1:7788/rpc GLOVEBOX_TOKEN_FILE=<the token file> \
//!     cargo run -p glovebox-client --example hello
//! ```
//!
//! `GLOVEBOX_TOKEN` may carry the token itself; `GLOVEBOX_URL` defaults to
//! `ws://127.0.0.1:7788/rpc`.

#![allow(clippy::print_stdout)]

use std::time::Duration;

use anyhow::Context as _;
use glovebox_client::generated::{browser, BrowserClick, ComputerWait, ContextListApps};
use glovebox_client::{Client, ClientOptions, Element};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let url = std::env::var("GLOVEBOX_URL").unwrap_or_else(|_| "ws://127.0.0.1:7788/rpc".into());
    let token = match std::env::var("GLOVEBOX_TOKEN") {
        Ok(token) => token,
        Err(_) => {
            let path = std::env::var("GLOVEBOX_TOKEN_FILE")
                .context("set GLOVEBOX_TOKEN or GLOVEBOX_TOKEN_FILE")?;
            let text = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
            // The token is the first word; the daemon may note more after it.
            text.split_whitespace().next().context("the token file is empty")?.to_owned()
        }
    };
    let options = ClientOptions::new("hello-example", env!("CARGO_PKG_VERSION"));
    let client = Client::connect(&url, token.trim(), options).await?;
    let hello = client.hello();
    println!(
        "hello: session {} (resumed: {}), role {}, daemon {} {}, contract {}",
        hello.session_id,
        hello.resumed,
        hello.role,
        hello.daemon.name,
        hello.daemon.version,
        hello.contract_version
    );
    for (name, backend) in &hello.backends {
        println!("  backend {name}: {}", backend.status);
    }

    for tool in client.tools_list().await? {
        let actions =
            tool.input_schema["properties"]["action"]["enum"].as_array().map_or(0, Vec::len);
        println!("tool {}: {actions} actions", tool.name);
    }

    // A typed click, shown rather than sent (it needs a page): required params in `new`,
    // the rest at the table's defaults unless set.
    let click = BrowserClick {
        button: browser::Button::Right,
        ..BrowserClick::new(Element::Ref("e3".into()))
    };
    println!("browser.click params on the wire: {}", serde_json::to_string(&click)?);

    // Subscribe before acting so the op's events are not missed.
    let mut events = client.subscribe(&["ops"]).await?;

    let op_id = client.new_op_id();
    let wait = ComputerWait { duration_ms: Some(10), ..Default::default() };
    let first = client.computer_wait(wait.clone()).op_id(&op_id).await?;
    println!("computer.wait {op_id}: {} (exec {} ms)", first.result, first.timing.exec_ms);
    let again = client.computer_wait(wait.clone()).op_id(&op_id).await?;
    println!("re-sent {op_id}: same outcome: {}", again == first);
    // The result alone, as its type (`results::computer::Wait`): no JSON to pick apart.
    let waited = client.computer_wait(wait).result().await?;
    println!("computer.wait typed result: waited {} ms", waited.waited_ms);

    // What the desktop holds, typed: each app with its name and windows.
    match client.context_list_apps(ContextListApps::default()).result().await {
        Ok(apps) => {
            for app in apps.apps.iter().take(5) {
                println!("app {} ({}): {} window(s)", app.app_id, app.name, app.windows.len());
            }
        }
        Err(e) => println!("context.list_apps: {e}"),
    }

    for _ in 0..2 {
        match tokio::time::timeout(Duration::from_secs(5), events.next()).await {
            Ok(Some(event)) => {
                let event = event?;
                println!("event #{} {}.{}: {}", event.seq, event.topic, event.kind, event.data);
            }
            Ok(None) => break,
            Err(_) => {
                println!("no event within 5 s");
                break;
            }
        }
    }

    let status = client.session_status().await?;
    println!(
        "status: session {}, paused {}, {} in flight",
        status.session_id, status.paused, status.in_flight
    );
    Ok(())
}
