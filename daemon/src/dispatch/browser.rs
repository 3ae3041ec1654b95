//! `browser` actions: arguments from the contract -> the CDP backend (`crate::browser`).

use super::table::Entries;
use super::wait;

pub static HANDLERS: Entries = &[("wait", wait::pause)];
