//! `events.*`: a subscription to the daemon's events, delivered as
//! [`EVENT_NOTIFICATION`](super::EVENT_NOTIFICATION) notifications.

use serde::{Deserialize, Serialize};

use super::{mp, Access, Method, MethodParam};

/// `events.subscribe`: its result is the subscription's id.
pub struct Subscribe;

/// `events.subscribe` params.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubscribeParams {
    /// Omitted: every topic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topics: Option<Vec<String>>,
}

impl Method for Subscribe {
    const NAME: &'static str = "events.subscribe";
    const SUMMARY: &'static str = "push events of the given topics as events.event notifications";
    const ACCESS: Access = Access::Read;
    const PARAMS: &'static [MethodParam] = &[mp(
        "topics",
        "array",
        false,
        "topics: ops, session, browser, desktop, approvals; all if omitted",
    )];
    type Params = SubscribeParams;
    type Result = String;
}

/// `events.unsubscribe`: its params are the subscription's id alone in an array.
pub struct Unsubscribe;

impl Method for Unsubscribe {
    const NAME: &'static str = "events.unsubscribe";
    const SUMMARY: &'static str = "stop a subscription";
    const ACCESS: Access = Access::Read;
    const PARAMS: &'static [MethodParam] = &[mp(
        "subscription",
        "string",
        true,
        "the id events.subscribe returned, as a one-element array: [\"id\"]",
    )];
    type Params = (String,);
    type Result = bool;
}
