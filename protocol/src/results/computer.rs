//! Typed results of the `computer` tool's actions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
