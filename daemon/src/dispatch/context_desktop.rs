//! `context` actions about apps and windows: list_apps, get_app, list_windows, focus_window.

use super::table::Entries;

pub static HANDLERS: Entries = &[];
