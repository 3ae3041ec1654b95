//! `computer` actions: arguments from the contract -> the desktop backend (`crate::desktop`).

use super::table::Entries;
use super::wait;

pub static HANDLERS: Entries = &[("wait", wait::pause)];
