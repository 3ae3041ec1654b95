//! Typed async client for gloveboxd: connect and say hello, call every contract action with
//! typed params, follow ops, subscribe to events, and reconnect to the same session.
//!
//! ```no_run
//! use glovebox_client::generated::ComputerWait;
//! use glovebox_client::{Client, ClientOptions};
//!
//! # async fn demo() -> Result<(), glovebox_client::ClientError> {
//! let options = ClientOptions::new("my-agent", "0.1.0").session("chat-42");
//! let client = Client::connect("ws://127.0.0.1:7788/rpc", "TOKEN", options).await?;
//! let outcome = client.computer_wait(ComputerWait { duration_ms: Some(10), ..Default::default() })
//!     .op_id(client.new_op_id())
//!     .await?;
//! println!("{} took {} ms", outcome.op_id, outcome.timing.exec_ms);
//! # Ok(()) }
//! ```
//!
//! Typed calls (`client.browser_click(BrowserClick::new(Element::Ref("e3".into())))`) are
//! generated from the contract table into [`generated`]; their params structs are the
//! protocol's (`glovebox_protocol::actions`), the very types the daemon deserializes a call
//! into: required params and params with a default are plain fields, optional ones `Option`,
//! enum params enums, and an action's locator one typed field ([`Target`], [`Element`] or
//! [`Point`]). The daemon still validates each call before any side effect and answers a
//! wrong one with `CONTRACT_VIOLATION` naming the param in `details.field`.
//!
//! The methods beside the actions are the protocol's types ([`methods`]),
//! called by type with typed params and a typed answer:
//!
//! ```no_run
//! use glovebox_client::methods::{op, session, NoParams};
//!
//! # async fn f(client: &glovebox_client::Client) -> Result<(), glovebox_client::ClientError> {
//! let status = client.call::<session::Status>(NoParams).await?;
//! let op = client.call::<op::Status>(op::OpRef { op_id: "my-op".into() }).await?;
//! println!("{} ops in flight; my-op is {}", status.in_flight, op.state);
//! # Ok(()) }
//! ```
//!
//! Op ids are idempotency keys: re-sending one within 10 minutes returns the first outcome
//! and never runs the op twice, also after [`Client::reconnect`] (the session and its ops
//! survive the connection). [`Client::call_with_retry`] and [`PendingCall::retry`] rely on it.

mod client;
mod error;
pub mod generated;
mod options;
mod typed;

pub use client::Client;
pub use error::ClientError;
pub use glovebox_protocol::actions::{Element, Params, Point, Region, Target};
pub use glovebox_protocol::error::{ErrorCode, ErrorData};
pub use glovebox_protocol::methods::{self, Method, NoParams};
pub use glovebox_protocol::wire::{Event, HelloResult, OpOutcome, OpState, OpStatus, ToolInfo};
pub use jsonrpsee::core::client::Subscription;
pub use options::{CallOptions, ClientOptions, DEFAULT_MAX_MESSAGE_BYTES, TIMEOUT_MARGIN};
pub use typed::{ActionArgs, PendingCall};
