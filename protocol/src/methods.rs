//! The methods beside the tool actions (session, tools, ops, events, approvals, files,
//! secrets, discovery), each a type implementing [`Method`]: its name, who may call it, its
//! params and its result. The daemon registers them, the SDK calls them
//! (`client.call::<op::Status>(..)`) and `rpc.discover` lists them from [`METHODS`].
//!
//! Direct `<tool>.<action>` methods come from the contract table instead.

pub mod approval;
pub mod capture;
pub mod events;
pub mod files;
pub mod op;
pub mod rpc;
pub mod secrets;
pub mod session;
pub mod tools;
pub mod view;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Who may call a method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Any role, even before `session.hello`.
    Open,
    /// Any role after the handshake.
    Read,
    /// Actors only (changes what the session or the desktop does).
    Write,
    /// Approvers and admins only (answers approvals).
    Approve,
    /// Admins only (the daemon's secrets).
    Admin,
    /// Decided per action by the contract (`tools.call`).
    PerAction,
}

/// A parameter of a non-tool method, for `rpc.discover` and the reference.
#[derive(Debug, Clone, Copy)]
pub struct MethodParam {
    pub name: &'static str,
    /// A JSON Schema type word.
    pub json_type: &'static str,
    pub required: bool,
    pub doc: &'static str,
}

pub(crate) const fn mp(
    name: &'static str,
    json_type: &'static str,
    required: bool,
    doc: &'static str,
) -> MethodParam {
    MethodParam { name, json_type, required, doc }
}

/// One non-tool method: the type both ends name it by.
pub trait Method {
    /// The wire name, `group.verb`.
    const NAME: &'static str;
    const SUMMARY: &'static str;
    const ACCESS: Access;
    /// Its params as `rpc.discover` lists them.
    const PARAMS: &'static [MethodParam];
    /// Its params hold a secret: a refusal of them never quotes what was sent.
    const SECRET_PARAMS: bool = false;
    type Params: Serialize + DeserializeOwned + Send + 'static;
    type Result: Serialize + DeserializeOwned + schemars::JsonSchema + Send + 'static;
}

/// What the daemon's gate and `rpc.discover` read of a [`Method`].
#[derive(Debug, Clone, Copy)]
pub struct MethodInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub access: Access,
    pub params: &'static [MethodParam],
    /// The JSON Schema of its result, as `rpc.discover` gives it.
    pub result: fn() -> serde_json::Value,
}

/// The [`MethodInfo`] of `M`.
pub const fn info<M: Method>() -> MethodInfo {
    MethodInfo {
        name: M::NAME,
        summary: M::SUMMARY,
        access: M::ACCESS,
        params: M::PARAMS,
        result: result_schema::<M>,
    }
}

/// `M`'s result schema, titled with the method like an action's result.
fn result_schema<M: Method>() -> serde_json::Value {
    let mut s = crate::results::generator().into_root_schema_for::<M::Result>().to_value();
    if let Some(obj) = s.as_object_mut() {
        obj.remove("$schema");
        obj.insert("title".into(), format!("{} result", M::NAME).into());
    }
    s
}

/// Every non-tool method, in the order the reference lists them.
pub static METHODS: &[MethodInfo] = &[
    info::<session::Hello>(),
    info::<session::Status>(),
    info::<session::Pause>(),
    info::<session::Resume>(),
    info::<session::Close>(),
    info::<session::RequestHuman>(),
    info::<view::Link>(),
    info::<tools::List>(),
    info::<tools::Call>(),
    info::<op::Status>(),
    info::<op::Cancel>(),
    info::<capture::Get>(),
    info::<files::Put>(),
    info::<events::Subscribe>(),
    info::<events::Unsubscribe>(),
    info::<approval::List>(),
    info::<approval::Grant>(),
    info::<approval::Deny>(),
    info::<secrets::Put>(),
    info::<secrets::Delete>(),
    info::<rpc::Discover>(),
];

/// Find a non-tool method by name.
pub fn method(name: &str) -> Option<&'static MethodInfo> {
    METHODS.iter().find(|m| m.name == name)
}

/// Notification method used for `events.subscribe` deliveries.
pub const EVENT_NOTIFICATION: &str = "events.event";

/// The params of a method that takes none: sent as `{}`, and whatever comes is ignored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoParams;

impl Serialize for NoParams {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        s.serialize_map(Some(0))?.end()
    }
}

impl<'de> Deserialize<'de> for NoParams {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| NoParams)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_grouped() {
        let mut names: Vec<&str> = METHODS.iter().map(|m| m.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), METHODS.len());
        assert!(METHODS.iter().all(|m| m.name.contains('.')));
        assert_eq!(method("op.status").map(|m| m.access), Some(Access::Read));
    }

    #[test]
    fn no_params_is_an_empty_object_and_takes_anything() {
        assert_eq!(serde_json::to_string(&NoParams).expect("serializes"), "{}");
        for sent in ["{}", "[]", "{\"x\":1}", "null"] {
            assert_eq!(serde_json::from_str::<NoParams>(sent).expect(sent), NoParams);
        }
    }
}
