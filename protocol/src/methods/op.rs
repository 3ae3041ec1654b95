//! `op.*`: an op of this session, by its id.

use serde::{Deserialize, Serialize};

use super::{mp, Access, Method, MethodParam};
use crate::wire::OpStatus;

const OP_ID: MethodParam = mp("op_id", "string", true, "the op's id");

/// The params of `op.status` and `op.cancel`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpRef {
    pub op_id: String,
}

/// `op.status`.
pub struct Status;

impl Method for Status {
    const NAME: &'static str = "op.status";
    const SUMMARY: &'static str = "state of an op of this session, with its outcome once finished";
    const ACCESS: Access = Access::Read;
    const PARAMS: &'static [MethodParam] = &[OP_ID];
    type Params = OpRef;
    type Result = OpStatus;
}

/// `op.cancel`.
pub struct Cancel;

/// `op.cancel` result: `cancelled` is false when the op had already finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Cancelled {
    pub op_id: String,
    pub cancelled: bool,
}

impl Method for Cancel {
    const NAME: &'static str = "op.cancel";
    const SUMMARY: &'static str = "cancel a running op; its cleanup releases what it holds";
    const ACCESS: Access = Access::Write;
    const PARAMS: &'static [MethodParam] = &[OP_ID];
    type Params = OpRef;
    type Result = Cancelled;
}
