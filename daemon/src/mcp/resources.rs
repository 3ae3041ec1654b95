//! MCP resources: the captures a session's calls took, as `glovebox://capture/<id>`, and the
//! files its actions downloaded, as `glovebox://download/<file name>`, listed (with their
//! exact sizes) and read by that session only (another session's reads as not found); a
//! download of a text type (`text/*`, JSON, XML) in UTF-8 reads as text, the rest as base64. Results link them with
//! `resource_link` blocks (`dispatch/shape.rs`).

use rmcp::model::{ListResourcesResult, ReadResourceResult, Resource, ResourceContents};
use rmcp::ErrorData as McpError;
use serde_json::json;

use crate::session::Session;
use crate::state::Daemon;

/// The URI scheme and kind of a capture.
pub const CAPTURE: &str = "glovebox://capture/";
/// The URI scheme and kind of a downloaded file.
pub const DOWNLOAD: &str = "glovebox://download/";
/// A download larger than this is listed but not read through MCP (the file is on disk).
const READ_AT_MOST: u64 = 32 << 20;

/// A file's MIME type by its extension, for the few kinds pages commonly hand out.
pub fn mime_of(path: &std::path::Path) -> &'static str {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
    match ext.as_str() {
        "csv" => "text/csv",
        "txt" | "log" => "text/plain",
        "json" => "application/json",
        "xml" => "application/xml",
        "md" => "text/markdown",
        "html" | "htm" => "text/html",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "zip" => "application/zip",
        _ => "application/octet-stream",
    }
}

/// The session's resources, oldest first.
pub fn list(daemon: &Daemon, session: &Session) -> ListResourcesResult {
    let captures = daemon.captures.list(&session.id).into_iter().map(|(id, mime, bytes)| {
        Resource::new(format!("{CAPTURE}{id}"), format!("capture {id}"))
            .with_mime_type(mime)
            .with_size(bytes as u64)
            .with_description("the screenshot taken after an action settled")
    });
    let downloads = session.downloads().into_iter().filter_map(|path| {
        let name = path.file_name()?.to_string_lossy().into_owned();
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        let resource = Resource::new(format!("{DOWNLOAD}{name}"), name)
            .with_mime_type(mime_of(&path))
            .with_size(size)
            .with_description(format!("downloaded to {}", path.display()));
        Some(resource)
    });
    ListResourcesResult::with_all_items(captures.chain(downloads).collect())
}

/// Whether a resource of `mime` is read as text (when its bytes are UTF-8).
fn is_text(mime: &str) -> bool {
    mime.starts_with("text/") || matches!(mime, "application/json" | "application/xml")
}

/// One blob resource, whole.
pub(super) fn blob(uri: &str, mime: &str, base64: impl Into<String>) -> ReadResourceResult {
    ReadResourceResult::new(vec![ResourceContents::blob(base64, uri).with_mime_type(mime)])
}

/// One resource of the session, whole.
pub fn read(daemon: &Daemon, session: &Session, uri: &str) -> Result<ReadResourceResult, McpError> {
    let not_found = || {
        McpError::resource_not_found(
            format!("no resource {uri} in this session; resources/list names the ones kept"),
            Some(json!({"uri": uri})),
        )
    };
    if let Some(name) = uri.strip_prefix(DOWNLOAD) {
        let path = &session.download_named(name).ok_or_else(not_found)?;
        // The downloads dir may be the desktop user's: a name swapped for a symlink there is
        // judged where it leads, like any path from a client.
        if path.exists() {
            daemon.config.files.readable(&path.display().to_string()).map_err(|_| not_found())?;
        }
        // Chromium writes it under its guid until it is done (`browser/downloads.rs`).
        if !path.is_file() {
            let partial = crate::browser::partial_download(path);
            let Some(m) = partial.and_then(|p| std::fs::metadata(p).ok()) else {
                return Err(not_found());
            };
            let message = format!(
                "{uri} is still downloading ({} bytes so far); read it once browser.downloads \
                 says completed",
                m.len()
            );
            return Err(McpError::invalid_params(message, Some(json!({"uri": uri}))));
        }
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        if size > READ_AT_MOST {
            let message = format!(
                "{uri} is {size} bytes, more than MCP reads ({READ_AT_MOST}); it is at {}",
                path.display()
            );
            return Err(McpError::invalid_params(message, Some(json!({"uri": uri}))));
        }
        let bytes = std::fs::read(path).map_err(|e| {
            McpError::internal_error(format!("cannot read {}: {e}", path.display()), None)
        })?;
        let mime = mime_of(path);
        // A text file comes back as text (a CSV a model reads as it is); other bytes as base64.
        let bytes = match String::from_utf8(bytes) {
            Ok(text) if is_text(mime) => {
                let contents = ResourceContents::text(text, uri).with_mime_type(mime);
                return Ok(ReadResourceResult::new(vec![contents]));
            }
            Ok(text) => text.into_bytes(),
            Err(e) => e.into_bytes(),
        };
        use base64::Engine as _;
        let base64 = base64::engine::general_purpose::STANDARD.encode(bytes);
        return Ok(blob(uri, mime, base64));
    }
    let id = uri.strip_prefix(CAPTURE).ok_or_else(not_found)?;
    let captured = daemon.captures.get(&session.id, id).ok_or_else(not_found)?;
    let Some(mut shot) = captured.image else {
        return Err(McpError::internal_error(format!("the capture {id} has no image"), None));
    };
    let data = std::mem::take(shot.data_mut());
    Ok(blob(uri, shot.size().0, data))
}
