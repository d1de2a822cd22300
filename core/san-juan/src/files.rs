//! San Juan's built-in rule files (`build.rs` embeds `cards/san-juan` and
//! `scripts/san-juan`); sources and paths are the engine's.

pub use engine_rules::files::*;

include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

/// The rulesets, card sets and scripts built into the binary.
pub static BUILTINS: Builtins =
    Builtins { game: "san-juan", rulesets: "cards/san-juan/rulesets", files: BUILTIN_FILES };
