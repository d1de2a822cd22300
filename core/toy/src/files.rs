//! High-Low's built-in rule files (`build.rs` embeds `cards/toy`); sources and paths are the engine's.

pub use engine_rules::files::*;

include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

/// The rulesets built into the binary.
pub static BUILTINS: Builtins = Builtins { game: "toy", rulesets: "cards/toy/rulesets", files: BUILTIN_FILES };
