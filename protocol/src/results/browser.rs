//! Typed results of the `browser` tool's actions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
