//! What one text message of `/rpc` asks: a request, a notification or a batch of them, read
//! with jsonrpsee's request types, answered by the gate. A message that is not JSON
//! (`PARSE_ERROR`), not a request (`INVALID_REQUEST`), a request whose `id` is an object,
//! array, float, bool, negative number or a number over 2^64-1 (jsonrpsee would take it for
//! a notification and never answer), and a batch over `--max-batch` (refused before its calls
//! are parsed) get their coded error here, with `id: null` where no id can be named.

use jsonrpsee::types::{Id, InvalidRequest, Notification, Request};
use jsonrpsee::MethodResponse;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::errors::to_rpc_error;
use super::gate::{refusal, Entry, Gate};
use crate::error::DaemonError;

/// The answer to one text message (a notification's answers nothing: see
/// `MethodResponse::is_notification`).
pub async fn answer(gate: &Gate, text: &str) -> MethodResponse {
    match text.trim_start().as_bytes().first() {
        Some(b'{') => match entry(text) {
            Entry::Call(req) => gate.call(req).await,
            Entry::Refused(id, e) => MethodResponse::error(id, e),
            Entry::Notification => MethodResponse::notification(),
        },
        Some(b'[') => {
            let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(text) else {
                return refusal(Id::Null, &DaemonError::NotJson);
            };
            let limit = gate.max_batch();
            if items.len() > limit {
                return refusal(Id::Null, &DaemonError::BatchTooLarge { len: items.len(), limit });
            }
            if items.is_empty() {
                return refusal(Id::Null, &DaemonError::NotARequest);
            }
            gate.batch(items.iter().map(|item| entry(item.get())).collect()).await
        }
        _ => refusal(Id::Null, &DaemonError::NotJson),
    }
}

/// One request object (alone or in a batch) read.
fn entry(text: &str) -> Entry<'_> {
    let refused =
        |id: Id<'_>, e: DaemonError| Entry::Refused(id.into_owned(), to_rpc_error(&e.to_data()));
    if let Some(got) = bad_id(text) {
        return refused(Id::Null, DaemonError::BadId { got });
    }
    if let Ok(req) = serde_json::from_str::<Request<'_>>(text) {
        return Entry::Call(req);
    }
    if serde_json::from_str::<Notification<'_, Option<&RawValue>>>(text).is_ok() {
        return Entry::Notification;
    }
    // With an id it can name, the request is answered as its own; else nothing was readable.
    match serde_json::from_str::<InvalidRequest<'_>>(text) {
        Ok(InvalidRequest { id }) => refused(id, DaemonError::NotARequest),
        Err(_) if serde_json::from_str::<&RawValue>(text).is_ok() => {
            refused(Id::Null, DaemonError::NotARequest)
        }
        Err(_) => refused(Id::Null, DaemonError::NotJson),
    }
}

#[derive(Deserialize)]
struct Probe<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
}

/// Why a request's `id` is one no answer can carry, if it is.
fn bad_id(text: &str) -> Option<&'static str> {
    let id = serde_json::from_str::<Probe<'_>>(text).ok()?.id?.get();
    // The usual ids first, without serde: `Id` is an untagged enum, whose every try builds
    // an error, and a batch may have thousands of ids.
    let plain = id == "null" || (id.len() <= 19 && id.bytes().all(|b| b.is_ascii_digit()));
    if plain || serde_json::from_str::<Id<'_>>(id).is_ok() {
        return None;
    }
    Some(match id.as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "true or false",
        Some(b'"') => "a string that is not valid unicode",
        _ if id.contains(['.', 'e', 'E']) => "a number with a fraction or an exponent",
        Some(b'-') => "a negative number",
        _ => "a number over 2^64-1",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_refusal(text: &str) -> Option<String> {
        let Entry::Refused(Id::Null, e) = entry(text) else { return None };
        let data: serde_json::Value = serde_json::from_str(e.data()?.get()).ok()?;
        data["details"]["got"].as_str().map(str::to_owned)
    }

    #[test]
    fn ids_no_answer_can_carry_are_refused_and_the_rest_pass() {
        for (id, got) in [
            ("{}", "an object"),
            ("[1]", "an array"),
            ("true", "true or false"),
            ("1.5", "a number with a fraction or an exponent"),
            ("-3", "a negative number"),
            ("18446744073709551616", "a number over 2^64-1"),
        ] {
            let req = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"session.status"}}"#);
            assert_eq!(id_refusal(&req).as_deref(), Some(got), "{id}");
        }
        for id in ["0", "18446744073709551615", "null", "\"a\""] {
            let req = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"a"}}"#);
            assert!(matches!(entry(&req), Entry::Call(_)), "{id}");
        }
    }

    #[test]
    fn notifications_and_what_is_not_a_request() {
        assert!(matches!(entry(r#"{"jsonrpc":"2.0","method":"a"}"#), Entry::Notification));
        let code = |text: &str| match entry(text) {
            Entry::Refused(id, e) => (id.into_owned(), e.code()),
            _ => panic!("{text} is refused"),
        };
        assert_eq!(code(r#"{"jsonrpc":"2.0","id":7}"#), (Id::Number(7), -32600));
        assert_eq!(code(r#"{"method":1}"#), (Id::Null, -32600));
        assert_eq!(code("{not json"), (Id::Null, -32700));
    }
}
