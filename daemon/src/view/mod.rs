//! A person in the loop: the view page the daemon serves at `/view` (the live desktop, the
//! sessions a token may see with their recent ops, pending approvals, handoff requests and
//! marked tabs), its socket at `/view/socket`, and what a person does there: take over the
//! desktop (the sessions it covers answer `PAUSED`, reason `human_in_control`), hand it back
//! (`takeover.ended` with what changed), answer approvals. Agents ask for a person with
//! `session.request_human` or the `context.request_human` action.

mod answer;
mod feed;
mod frames;
pub mod http;
mod input;
mod socket;
mod state;
mod takeover;

use std::sync::Arc;

use crate::session::Owner;

/// Starts what the view keeps up to date from the bus (the ops feed).
pub fn start(daemon: &Arc<crate::state::Daemon>) {
    tokio::spawn(feed::follow(Arc::downgrade(daemon), daemon.events.subscribe()));
}

/// How a page names a token: its role and a short hash, never the token.
pub fn who(role: crate::auth::Role, owner: &Owner) -> String {
    format!("{} {}", role.as_str(), &owner.short()[..8])
}
