//! Errors: rule and scenario files that do not fit (the engine's located
//! load errors), scripts that fail, and actions or setups the game refuses.

pub use engine_rules::error::{GameError, LoadError, LoadErrors, Pos, ScriptError};
