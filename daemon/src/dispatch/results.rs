//! Typed results on their way to the wire: a handler's result written as JSON, and a
//! backend's JSON answer read into its action's result type (in debug builds checked to
//! write back the same JSON, so a field the type lacks fails the tests instead of vanishing).

use glovebox_protocol::actions::Params;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::done::{Done, Facts};
use super::Output;
use crate::error::DaemonError;

/// `out` with its result as the JSON the wire carries.
pub fn to_wire<P: Params>(out: Output<P::Result>) -> Result<Done, DaemonError> {
    let result = serde_json::to_value(&out.result).map_err(|e| shape::<P>(e.to_string()))?;
    let facts = Facts::of(&result);
    Ok(Done { result, target: out.target, facts })
}

/// A backend's JSON answer as `P`'s result type.
pub fn decode<P: Params>(v: Value) -> Result<P::Result, DaemonError> {
    read::<P::Result>(v).map_err(shape::<P>)
}

/// A backend's JSON answer as `T`, a part of `P`'s result.
pub fn part<P: Params, T: Serialize + DeserializeOwned>(v: Value) -> Result<T, DaemonError> {
    read::<T>(v).map_err(shape::<P>)
}

/// A JSON value as `T`, checked in debug builds to write back the same.
pub fn read<T: Serialize + DeserializeOwned>(v: Value) -> Result<T, String> {
    #[cfg(debug_assertions)]
    let sent = v.clone();
    let typed: T = serde_json::from_value(v).map_err(|e| e.to_string())?;
    #[cfg(debug_assertions)]
    {
        let back = serde_json::to_value(&typed).map_err(|e| e.to_string())?;
        if back != sent {
            return Err(format!("it reads back as {back}, not {sent}"));
        }
    }
    Ok(typed)
}

fn shape<P: Params>(reason: String) -> DaemonError {
    DaemonError::ResultShape { method: format!("{}.{}", P::TOOL, P::ACTION), reason }
}

#[cfg(test)]
mod tests {
    use glovebox_protocol::actions::computer::Wait;
    use serde_json::json;

    use super::decode;

    #[test]
    fn an_answer_the_type_cannot_hold_is_named_not_dropped() {
        assert!(decode::<Wait>(json!({"waited_ms": 5})).is_ok());
        let err = decode::<Wait>(json!({"waited_ms": 5, "extra": 1})).expect_err("extra field");
        assert!(err.to_string().contains("computer.wait"), "{err}");
        assert!(decode::<Wait>(json!({"waited_ms": "5"})).is_err(), "a string is not a count");
    }
}
