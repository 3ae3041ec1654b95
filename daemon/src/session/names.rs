//! Session names a client may give, and the ids the daemon mints.

use crate::error::DaemonError;

/// The longest session name (a hello's, or the handle a stateless MCP call passes).
pub const MAX_NAME: usize = 128;

/// Whether `s` is a token's tag ([`Owner::short`]: 16 lowercase hex digits).
pub(super) fn is_tag(s: &str) -> bool {
    s.len() == 16 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A session name a client may give: 1 to [`MAX_NAME`] characters, no spaces or controls
/// (the `@<tag>` the daemon adds to an id it gave out is not counted).
pub fn check_name(field: &str, name: &str) -> Result<(), glovebox_protocol::contract::Violation> {
    let base = name.rsplit_once('@').filter(|(_, tag)| is_tag(tag)).map_or(name, |(b, _)| b);
    let bad = base.is_empty()
        || base.chars().count() > MAX_NAME
        || name.chars().any(|c| c.is_whitespace() || c.is_control());
    if bad {
        let message = format!("{field} must be 1 to {MAX_NAME} characters without spaces");
        return Err(glovebox_protocol::contract::Violation::new(field, message));
    }
    Ok(())
}

/// A fresh session id: 128 random bits, so an id can be neither guessed nor counted.
pub(crate) fn mint_id() -> Result<String, DaemonError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| DaemonError::ActionFailed(format!("no randomness: {e}")))?;
    Ok(format!("s-{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()))
}
