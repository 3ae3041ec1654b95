//! The browser backend: Chromium instances over the Chrome DevTools Protocol.

/// Every Chromium the daemon knows, the default one started on demand.
#[derive(Debug)]
pub struct Browsers {}
