//! `files.put`: a file into the workspace's `files/` root, for `browser.upload`.

use serde::{Deserialize, Serialize};

use super::{mp, Access, Method, MethodParam};

/// `files.put`.
pub struct Put;

/// `files.put` params.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PutParams {
    pub name: String,
    /// The bytes, base64.
    pub data: String,
}

/// `files.put` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Stored {
    pub name: String,
    /// Where the daemon keeps it.
    pub path: String,
    pub bytes: usize,
}

impl Method for Put {
    const NAME: &'static str = "files.put";
    const SUMMARY: &'static str =
        "store a file in the workspace's files/ root, where browser.upload takes it from";
    const ACCESS: Access = Access::Write;
    const PARAMS: &'static [MethodParam] = &[
        mp("name", "string", true, "a plain file name (no / or ..); an existing one is replaced"),
        mp("data", "string", true, "the file's bytes, base64; at most 8 MiB once decoded"),
    ];
    type Params = PutParams;
    type Result = Stored;
}
