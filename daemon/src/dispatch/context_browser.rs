//! `context` actions about browsers and tabs: list_browsers, get_browser.

use super::table::Entries;

pub static HANDLERS: Entries = &[];
