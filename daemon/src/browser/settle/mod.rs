//! What a tab's settle waits on, tracked from the browser's events: requests (`net.rs`, the
//! tab's own and its cross-site frames'), timers, animation frames and animations the page
//! scheduled (`work.rs`, fed by `instrument.rs` and by the input's trace, `trace.rs`), and the
//! report of one settle. The settle itself is `actions/settle.rs`, a step of the tab.

pub mod instrument;
pub mod net;
pub mod trace;
pub mod work;

use std::time::Duration;

pub use net::Net;

/// How long after an action what the page scheduled may still be waited for.
pub const WORK_HORIZON: Duration = Duration::from_secs(2);

/// What a settle waited for and how it ended.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Quiet (`true`) or the cap came first.
    pub quiet: bool,
    pub timers: usize,
    pub animations: usize,
    pub requests: usize,
    /// At the cap: what was still busy.
    pub busy: Vec<String>,
    /// Recurring timers, infinite animations, work due after the cap.
    pub ignored: Vec<String>,
    /// Cross-site frames' requests still running after `net::FRAME_LOADING`, not waited on.
    pub frames_loading: Vec<String>,
}
