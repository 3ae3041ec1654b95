//! `approval.*`: the calls the policy parked for an approver.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{mp, Access, Method, MethodParam, NoParams};

/// `approval.list`.
pub struct List;

/// `approval.list` result: approvers see each call's `args`, other roles their own calls
/// without them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Approvals {
    pub approvals: Vec<Value>,
}

impl Method for List {
    const NAME: &'static str = "approval.list";
    const SUMMARY: &'static str = "calls waiting for a grant";
    const ACCESS: Access = Access::Read;
    const PARAMS: &'static [MethodParam] = &[];
    type Params = NoParams;
    type Result = Approvals;
}

/// The params of `approval.grant` and `approval.deny`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApprovalRef {
    pub approval_id: String,
}

const APPROVAL_ID: MethodParam = mp("approval_id", "string", true, "id from APPROVAL_REQUIRED");

/// `approval.grant`: its result is the approval as answered.
pub struct Grant;

impl Method for Grant {
    const NAME: &'static str = "approval.grant";
    const SUMMARY: &'static str = "allow a waiting call; re-send it with its op_id to run it";
    const ACCESS: Access = Access::Approve;
    const PARAMS: &'static [MethodParam] = &[APPROVAL_ID];
    type Params = ApprovalRef;
    type Result = Value;
}

/// `approval.deny`: its result is the approval as answered.
pub struct Deny;

impl Method for Deny {
    const NAME: &'static str = "approval.deny";
    const SUMMARY: &'static str = "refuse a waiting call";
    const ACCESS: Access = Access::Approve;
    const PARAMS: &'static [MethodParam] = &[APPROVAL_ID];
    type Params = ApprovalRef;
    type Result = Value;
}
