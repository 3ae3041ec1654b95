//! The desktop side: the X display and accessibility buses the daemon drives.

pub mod embedded;
