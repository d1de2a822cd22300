//! Typed errors: the engine's load and script errors, and its one
//! [`GameError`] for what can go wrong while a San Juan game is played.

pub use engine_rules::error::*;
