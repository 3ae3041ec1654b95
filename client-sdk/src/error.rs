//! `ClientError`: everything a call can fail with, and the one place jsonrpsee errors are
//! mapped to it.

use std::time::Duration;

use glovebox_protocol::error::{ErrorCode, ErrorData};
use jsonrpsee::client_transport::ws::WsHandshakeError;
use jsonrpsee::core::client::Error as RpcClientError;
use jsonrpsee::types::ErrorObjectOwned;
use serde::Deserialize as _;
use serde_json::Value;

/// Why a call failed. Branch on [`ClientError::code`] for daemon errors.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The daemon answered with an error; `code` is the stable `data.code`.
    #[error("{}: {message}", code.as_str())]
    Rpc {
        code: ErrorCode,
        /// The JSON-RPC `error.code` number as received.
        rpc_code: i32,
        message: String,
        details: Option<Value>,
    },
    /// `session.hello` was refused (or answered) with another protocol major.
    #[error("protocol mismatch: this client speaks {client}, the daemon {daemon}: {message}")]
    ProtocolMismatch { client: u32, daemon: u32, message: String },
    /// The daemon refused the WebSocket upgrade: 401 without a valid token, 403 for a browser
    /// origin that is not allowed, 404 for a path other than `/rpc`.
    #[error("the daemon refused the connection with HTTP {status}{}", refusal_hint(*status))]
    Refused { status: u16 },
    /// The connection could not be opened or was lost; `reconnect` may help.
    #[error("transport: {0}")]
    Transport(#[source] RpcClientError),
    /// The last reconnect failed; call `reconnect` again.
    #[error("not connected: the last reconnect failed")]
    NotConnected,
    /// No answer within the client-side deadline (the op may still run on the daemon).
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    /// The daemon's answer does not have the expected shape.
    #[error("cannot decode the daemon's answer: {0}")]
    Decode(#[source] serde_json::Error),
    /// A setting of the client cannot be used (e.g. a token that is not a valid header value).
    #[error("invalid client setting: {0}")]
    Config(String),
}

impl ClientError {
    /// The daemon's error code, when the daemon answered with one.
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            ClientError::Rpc { code, .. } => Some(*code),
            ClientError::ProtocolMismatch { .. } => Some(ErrorCode::ProtocolMismatch),
            _ => None,
        }
    }

    /// `details` of a daemon error (e.g. `details.field` of a `CONTRACT_VIOLATION`).
    pub fn details(&self) -> Option<&Value> {
        match self {
            ClientError::Rpc { details, .. } => details.as_ref(),
            _ => None,
        }
    }

    /// The connection is gone: reconnecting and re-sending with the same `op_id` is safe.
    pub fn is_connection_lost(&self) -> bool {
        matches!(
            self,
            ClientError::NotConnected
                | ClientError::Transport(
                    RpcClientError::RestartNeeded(_) | RpcClientError::Transport(_)
                )
        )
    }

    /// Build the error for a JSON-RPC error object: from `data` when the daemon sent one, else
    /// from the number alone.
    pub fn from_error_object(err: &ErrorObjectOwned) -> ClientError {
        let data: Option<Value> = err.data().and_then(|raw| serde_json::from_str(raw.get()).ok());
        from_parts(err.code(), err.message(), data.as_ref())
    }
}

/// The single mapping from a jsonrpsee client error to [`ClientError`].
pub(crate) fn map_rpc_error(err: RpcClientError) -> ClientError {
    match err {
        RpcClientError::Call(obj) => ClientError::from_error_object(&obj),
        RpcClientError::ParseError(e) => ClientError::Decode(e),
        RpcClientError::Transport(e) => match e.downcast_ref::<WsHandshakeError>() {
            Some(WsHandshakeError::Rejected { status_code }) => {
                ClientError::Refused { status: *status_code }
            }
            _ => ClientError::Transport(RpcClientError::Transport(e)),
        },
        other => ClientError::Transport(other),
    }
}

fn refusal_hint(status: u16) -> &'static str {
    match status {
        401 => ": send the daemon's token (its token file)",
        403 => ": this origin is not allowed (gloveboxd --allow-origin)",
        404 => ": the endpoint is ws://HOST:PORT/rpc",
        429 => ": too many connections for this token (gloveboxd --max-connections-per-token)",
        _ => "",
    }
}

fn from_parts(rpc_code: i32, message: &str, data: Option<&Value>) -> ClientError {
    let parsed = data.and_then(|d| ErrorData::deserialize(d).ok());
    let (code, message, details) = match parsed {
        Some(d) => (d.code, d.message, d.details),
        // No data (jsonrpsee's own errors) or a code this client does not know (a newer
        // daemon): fall back to the number, keep what the data says.
        None => {
            let obj = data.and_then(Value::as_object);
            let text = obj.and_then(|o| o.get("message")).and_then(Value::as_str);
            let details = obj.and_then(|o| o.get("details")).cloned();
            (code_for_number(rpc_code), text.unwrap_or(message).to_owned(), details)
        }
    };
    if code == ErrorCode::ProtocolMismatch {
        let version = |k: &str| {
            details.as_ref().and_then(|d| d.get(k)).and_then(Value::as_u64).map(|v| v as u32)
        };
        return ClientError::ProtocolMismatch {
            client: version("client").unwrap_or(glovebox_protocol::PROTOCOL_VERSION),
            daemon: version("daemon").unwrap_or(0),
            message,
        };
    }
    ClientError::Rpc { code, rpc_code, message, details }
}

/// An error without `data.code` comes from the JSON-RPC layer, whose numbers partly overlap
/// the daemon's, so the layer's meanings win.
fn code_for_number(n: i32) -> ErrorCode {
    use jsonrpsee::types::error as e;
    match n {
        e::PARSE_ERROR_CODE => ErrorCode::ParseError,
        e::INVALID_REQUEST_CODE
        | e::BATCHES_NOT_SUPPORTED_CODE
        | e::OVERSIZED_REQUEST_CODE
        | e::OVERSIZED_RESPONSE_CODE
        | e::TOO_BIG_BATCH_REQUEST_CODE
        | e::TOO_BIG_BATCH_RESPONSE_CODE => ErrorCode::InvalidRequest,
        e::METHOD_NOT_FOUND_CODE => ErrorCode::MethodNotFound,
        e::INVALID_PARAMS_CODE => ErrorCode::ContractViolation,
        e::SERVER_IS_BUSY_CODE | e::TOO_MANY_SUBSCRIPTIONS_CODE => ErrorCode::Busy,
        e::INTERNAL_ERROR_CODE | e::CALL_EXECUTION_FAILED_CODE | e::UNKNOWN_ERROR_CODE => {
            ErrorCode::ActionFailed
        }
        n => ErrorCode::ALL
            .into_iter()
            .find(|c| c.rpc_code() == n)
            .unwrap_or(ErrorCode::ActionFailed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_json(text: &str) -> ClientError {
        let obj: ErrorObjectOwned = serde_json::from_str(text).expect("an error object");
        map_rpc_error(RpcClientError::Call(obj))
    }

    #[test]
    fn data_code_wins() {
        let e = from_json(
            r#"{"code":-32602,"message":"x","data":{"code":"CONTRACT_VIOLATION",
                "message":"ref must not be empty","details":{"field":"ref"}}}"#,
        );
        assert_eq!(e.code(), Some(ErrorCode::ContractViolation));
        assert_eq!(e.details().and_then(|d| d.get("field")), Some(&Value::from("ref")));
        assert_eq!(e.to_string(), "CONTRACT_VIOLATION: ref must not be empty");
    }

    #[test]
    fn daemon_codes_round_trip() {
        for code in ErrorCode::ALL {
            let data = ErrorData { code, message: "m".into(), details: None };
            let obj = ErrorObjectOwned::owned(code.rpc_code(), "m", Some(data));
            assert_eq!(ClientError::from_error_object(&obj).code(), Some(code), "{code:?}");
        }
    }

    #[test]
    fn number_alone_maps_to_the_jsonrpc_meaning() {
        let cases = [
            (r#"{"code":-32700,"message":"Parse error"}"#, ErrorCode::ParseError),
            (r#"{"code":-32600,"message":"Invalid request"}"#, ErrorCode::InvalidRequest),
            (r#"{"code":-32601,"message":"Method not found"}"#, ErrorCode::MethodNotFound),
            (r#"{"code":-32007,"message":"Request too big"}"#, ErrorCode::InvalidRequest),
            (r#"{"code":-32009,"message":"Server is busy"}"#, ErrorCode::Busy),
            (r#"{"code":-32603,"message":"Internal error"}"#, ErrorCode::ActionFailed),
            (r#"{"code":-32013,"message":"gone"}"#, ErrorCode::StaleRef),
            (r#"{"code":-1,"message":"odd"}"#, ErrorCode::ActionFailed),
        ];
        for (text, want) in cases {
            let e = from_json(text);
            assert_eq!(e.code(), Some(want), "{text}");
        }
        let ClientError::Rpc { rpc_code, message, .. } = from_json(cases[0].0) else {
            panic!("an rpc error")
        };
        assert_eq!((rpc_code, message.as_str()), (-32700, "Parse error"));
    }

    #[test]
    fn unknown_data_code_keeps_message_and_details() {
        let e = from_json(
            r#"{"code":-32060,"message":"x","data":{"code":"SOMETHING_NEW",
                "message":"what to do","details":{"k":1}}}"#,
        );
        assert_eq!(e.code(), Some(ErrorCode::ActionFailed));
        assert_eq!(e.to_string(), "ACTION_FAILED: what to do");
        assert_eq!(e.details(), Some(&serde_json::json!({"k": 1})));
    }

    #[test]
    fn protocol_mismatch_has_both_versions() {
        let e = from_json(
            r#"{"code":-32002,"message":"x","data":{"code":"PROTOCOL_MISMATCH",
                "message":"upgrade the client","details":{"client":2,"daemon":1}}}"#,
        );
        let ClientError::ProtocolMismatch { client, daemon, .. } = e else { panic!("{e:?}") };
        assert_eq!((client, daemon), (2, 1));
    }

    #[test]
    fn transport_and_decode_errors() {
        let lost = RpcClientError::RestartNeeded(std::sync::Arc::new(RpcClientError::Custom(
            "closed".into(),
        )));
        assert!(map_rpc_error(lost).is_connection_lost());
        let bad = serde_json::from_str::<u8>("x").expect_err("not json");
        assert!(matches!(map_rpc_error(RpcClientError::ParseError(bad)), ClientError::Decode(_)));
        assert!(!map_rpc_error(RpcClientError::RequestTimeout).is_connection_lost());
        let refused = WsHandshakeError::Rejected { status_code: 401 };
        let e = map_rpc_error(RpcClientError::Transport(refused.into()));
        assert!(matches!(e, ClientError::Refused { status: 401 }) && !e.is_connection_lost());
        assert!(e.to_string().contains("token"), "{e}");
    }
}
