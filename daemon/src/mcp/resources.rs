//! MCP resources: the captures a session's calls took, as `glovebox://capture/<id>`, listed
//! and read by that session only (another session's id reads as not found). Results link
//! them with `resource_link` blocks (`dispatch/shape.rs`).

use rmcp::model::{ListResourcesResult, ReadResourceResult};
use rmcp::ErrorData as McpError;
use serde_json::json;

use crate::session::Session;
use crate::state::Daemon;

/// The URI scheme and kind of a capture.
pub const CAPTURE: &str = "glovebox://capture/";

/// The session's resources, oldest first.
pub fn list(daemon: &Daemon, session: &Session) -> ListResourcesResult {
    let resources: Vec<_> = daemon
        .captures
        .list(&session.id)
        .into_iter()
        .map(|(id, mime, b64)| {
            json!({"uri": format!("{CAPTURE}{id}"), "name": format!("capture {id}"),
                   "mimeType": mime, "size": b64 / 4 * 3,
                   "description": "the screenshot taken after an action settled"})
        })
        .collect();
    serde_json::from_value(json!({"resources": resources})).unwrap_or_default()
}

/// One resource of the session, whole.
pub fn read(daemon: &Daemon, session: &Session, uri: &str) -> Result<ReadResourceResult, McpError> {
    let not_found = || {
        McpError::resource_not_found(
            format!("no resource {uri} in this session; resources/list names the ones kept"),
            Some(json!({"uri": uri})),
        )
    };
    let id = uri.strip_prefix(CAPTURE).ok_or_else(not_found)?;
    let image = daemon.captures.get(&session.id, id).ok_or_else(not_found)?;
    let contents = json!([{"uri": uri, "mimeType": image["mime"], "blob": image["data"]}]);
    serde_json::from_value(json!({"contents": contents}))
        .map_err(|e| McpError::internal_error(e.to_string(), None))
}
