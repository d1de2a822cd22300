//! The games the command line plays: the registry it was run with (the
//! `games` crate's, one line per game), looked up by every command; no command
//! names a game.

use std::sync::{Arc, OnceLock};

use engine_game::{AnyRules, Registry};

static REGISTRY: OnceLock<Registry> = OnceLock::new();

/// Sets the games for this process (the first registry given stays).
pub fn install(registry: Registry) {
    let _ = REGISTRY.set(registry);
}

/// Every game, the default first (the `games` crate's when none was installed).
pub fn registry() -> &'static Registry {
    REGISTRY.get_or_init(games::registry)
}

/// The default game's default ruleset (what `--ruleset` means when not given).
pub fn default_ruleset() -> &'static str {
    registry().default_kind().default_ruleset()
}

/// Loads a ruleset of whichever game it is for, turning every problem into one message.
pub fn load(spec: &str) -> Result<Arc<dyn AnyRules>, String> {
    registry().load(spec)
}

/// The ids of the cards a game of this ruleset may hold, and their types
/// where ids carry more (Alhambra's `garden` for `garden8`), from its card table for a page.
pub fn holdings_ids(rs: &dyn AnyRules) -> Vec<String> {
    let cards = rs.cards_json();
    let mut ids = Vec::new();
    for key in ["cards", "buildings"] {
        if let Some(list) = cards.get(key).and_then(|c| c.as_array()) {
            for field in ["id", "type"] {
                ids.extend(list.iter().filter_map(|c| c.get(field)?.as_str().map(str::to_owned)));
            }
        }
    }
    ids.sort();
    ids.dedup();
    ids
}
