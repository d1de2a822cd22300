//! The games this binary plays: the registry (the `games` crate, one line per
//! game), looked up by every command; no command names a game.

use std::sync::{Arc, LazyLock};

use engine_game::{AnyRules, Registry};

/// Every game, the default first.
pub fn registry() -> &'static Registry {
    static REGISTRY: LazyLock<Registry> = LazyLock::new(games::registry);
    &REGISTRY
}

/// The default game's default ruleset (what `--ruleset` means when not given).
pub fn default_ruleset() -> &'static str {
    registry().default_kind().default_ruleset()
}

/// Loads a ruleset of whichever game it is for, turning every problem into one message.
pub fn load(spec: &str) -> Result<Arc<dyn AnyRules>, String> {
    registry().load(spec)
}
