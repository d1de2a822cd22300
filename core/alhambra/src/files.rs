//! Alhambra's built-in rule files (`build.rs` embeds `cards/alhambra` and
//! `scripts/alhambra`); sources and paths are the engine's.

pub use engine_rules::files::*;

include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

/// The ruleset and scripts built into the binary.
pub static BUILTINS: Builtins = Builtins { game: "alhambra", rulesets: "cards/alhambra", files: BUILTIN_FILES };
