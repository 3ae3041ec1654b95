//! Approval: a pure policy deciding allow / deny / ask per call, and the store of calls
//! waiting for an approver's answer.

pub mod policy;
pub mod store;
