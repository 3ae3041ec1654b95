//! A CDP command by method name with JSON params, for the commands chromiumoxide's types lack
//! (or carry in a shape this Chromium no longer takes); each use names why in a comment.
//! Every other command goes through the crate's typed `*Params`.

use chromiumoxide::types::{Command, Method, MethodId};
use serde::Serialize;
use serde_json::Value;

/// A CDP command given by method name and JSON params; its response is the raw JSON result.
#[derive(Debug, Clone)]
pub struct Raw {
    method: &'static str,
    params: Value,
}

impl Raw {
    pub fn new(method: &'static str, params: Value) -> Self {
        Raw { method, params }
    }
}

impl Serialize for Raw {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.params.serialize(s)
    }
}

impl Method for Raw {
    fn identifier(&self) -> MethodId {
        self.method.into()
    }
}

impl Command for Raw {
    type Response = Value;
}
