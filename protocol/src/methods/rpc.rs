//! `rpc.discover`: the OpenRPC document, generated from the contract and [`super::METHODS`].

use serde_json::Value;

use super::{Access, Method, MethodParam, NoParams};

/// `rpc.discover`.
pub struct Discover;

impl Method for Discover {
    const NAME: &'static str = "rpc.discover";
    const SUMMARY: &'static str =
        "the OpenRPC document of every method, generated from the contract";
    const ACCESS: Access = Access::Read;
    const PARAMS: &'static [MethodParam] = &[];
    type Params = NoParams;
    type Result = Value;
}
