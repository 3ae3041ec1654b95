//! Integration tests: the real daemon over a real WebSocket. Protocol tests serve it
//! in-process on port 0; the desktop tests run the `gloveboxd` binary on an embedded Xvfb.

mod approval;
mod browser;
mod channels;
mod code_clients;
mod contract;
mod daemon_binary;
mod deploy;
mod desktop;
mod faults;
mod fidelity_input;
mod fidelity_snapshot;
mod focus;
mod frames;
mod fuzz;
mod handshake;
mod host_docs;
mod http;
mod lifecycle;
mod limits;
mod limits2;
mod mcp;
mod mcp_clients;
mod mcp_host;
mod mcp_ops;
mod ops;
mod props;
mod results;
mod sandbox;
mod sdk;
mod security;
mod settle;
mod settle_page;
mod settle_windows;
mod transport;
mod view;
