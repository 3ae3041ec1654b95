//! Wire error data -> jsonrpsee error objects, in one place.

use glovebox_protocol::error::{ErrorCode, ErrorData};
use jsonrpsee::types::ErrorObjectOwned;

pub fn to_rpc_error(data: &ErrorData) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(data.code.rpc_code(), data.message.clone(), Some(data))
}

pub fn method_not_found(name: &str) -> ErrorObjectOwned {
    let hint = match name.split_once('.') {
        Some((tool, action)) if glovebox_protocol::contract::tool(tool).is_some() => {
            format!("{tool} has no action {action}; tools.list names them")
        }
        _ => "rpc.discover lists every method".to_owned(),
    };
    to_rpc_error(&ErrorData {
        code: ErrorCode::MethodNotFound,
        message: format!("unknown method {name}; {hint}"),
        details: Some(serde_json::json!({"method": name})),
    })
}
