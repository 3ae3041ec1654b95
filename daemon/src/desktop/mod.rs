//! The desktop side: the X display and accessibility buses the daemon drives.

pub mod embedded;

/// The desktop backend: AT-SPI apps and trees, X11 input and windows, the clipboard.
#[derive(Debug)]
pub struct Desktop {}
