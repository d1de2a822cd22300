//! Errors: the engine's one [`GameError`] for refused actions and setups, and
//! its located load errors for rule files.

pub use engine_rules::error::{GameError, LoadError, LoadErrors};
