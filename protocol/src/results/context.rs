//! Typed results of the `context` tool's actions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
