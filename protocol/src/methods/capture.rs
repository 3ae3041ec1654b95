//! `capture.get`: a screenshot an action of this session took, again.

use serde::{Deserialize, Serialize};

use super::{mp, Access, Method, MethodParam};

/// `capture.get`: its result is the capture, `data` base64.
pub struct Get;

/// `capture.get` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptureRef {
    pub capture_id: String,
}

impl Method for Get {
    const NAME: &'static str = "capture.get";
    const SUMMARY: &'static str =
        "a screenshot taken after an action of this session again, by its capture_id";
    const ACCESS: Access = Access::Read;
    const PARAMS: &'static [MethodParam] =
        &[mp("capture_id", "string", true, "the id in the op outcome's capture")];
    type Params = CaptureRef;
    type Result = crate::wire::Captured;
}
