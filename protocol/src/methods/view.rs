//! `view.link`: a way in to the view page for a person.

use serde::{Deserialize, Serialize};

use super::{Access, Method, MethodParam, NoParams};

/// `view.link`.
pub struct Link;

/// `view.link` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ViewLink {
    /// `/view?code=<single-use code>`, to open on the daemon's address.
    pub path: String,
    pub role: String,
    pub expires_in_s: u64,
}

impl Method for Link {
    const NAME: &'static str = "view.link";
    const SUMMARY: &'static str =
        "a fresh single-use code of the view page for this connection's token: open \
         http://<daemon>/<path> in a browser (gloveboxd view-link prints it)";
    const ACCESS: Access = Access::Open;
    const PARAMS: &'static [MethodParam] = &[];
    type Params = NoParams;
    type Result = ViewLink;
}
