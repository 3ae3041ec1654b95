//! Registries the backends share: per-session snapshots and refs, and held input.

pub mod held;
pub mod snapshots;
