//! `secrets.*`: an admin's named secrets (their values go in, never out).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{mp, Access, Method, MethodParam};

/// `secrets.put`.
pub struct Put;

/// `secrets.put` params; `Debug` never shows the value or the seed.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PutParams {
    pub name: String,
    pub value: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apps: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub totp: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub persist: bool,
}

impl std::fmt::Debug for PutParams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PutParams")
            .field("name", &self.name)
            .field("origins", &self.origins)
            .field("apps", &self.apps)
            .field("persist", &self.persist)
            .finish_non_exhaustive()
    }
}

/// `secrets.put` result: the secret as `context.list_secrets` names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SecretStored {
    pub secret: Option<Value>,
    pub persisted: bool,
}

impl Method for Put {
    const NAME: &'static str = "secrets.put";
    const SUMMARY: &'static str =
        "add or replace a named secret (context.list_secrets names it; its value is never shown)";
    const ACCESS: Access = Access::Admin;
    const PARAMS: &'static [MethodParam] = &[
        mp("name", "string", true, "1 to 64 characters without spaces"),
        mp("value", "string", true, "at least 4 characters"),
        mp("origins", "array", false, "origins it may be typed into (https://example.com)"),
        mp("apps", "array", false, "desktop apps computer.type may type it into"),
        mp("totp", "string", false, "a base32 TOTP seed, for secret_totp"),
        mp("persist", "boolean", false, "also write it to the --secrets file (else memory only)"),
    ];
    const SECRET_PARAMS: bool = true;
    type Params = PutParams;
    type Result = SecretStored;
}

/// `secrets.delete`.
pub struct Delete;

/// `secrets.delete` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeleteParams {
    pub name: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub persist: bool,
}

/// `secrets.delete` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Deleted {
    pub deleted: String,
    pub persisted: bool,
}

impl Method for Delete {
    const NAME: &'static str = "secrets.delete";
    const SUMMARY: &'static str =
        "forget a named secret (its value stays hidden in what the daemon shows)";
    const ACCESS: Access = Access::Admin;
    const PARAMS: &'static [MethodParam] = &[
        mp("name", "string", true, "the secret's name"),
        mp("persist", "boolean", false, "also remove it from the --secrets file"),
    ];
    type Params = DeleteParams;
    type Result = Deleted;
}
