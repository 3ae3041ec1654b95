//! Glovebox wire protocol: version, error codes, wire types, the contract table and the
//! typed params generated from it.
//!
//! This crate knows no runtime and no backend: the daemon, the client SDK and the tools all
//! read the same definitions from here.

pub mod actions;
pub mod contract;
pub mod error;
pub mod methods;
pub mod outline;
pub mod results;
pub mod url;
pub mod wire;

/// The protocol's major version; a client asking for another one is refused.
pub const PROTOCOL_VERSION: u32 = 1;
