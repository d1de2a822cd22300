//! San Juan's saved games: the engine's format ([`engine_game::saved`]);
//! format 1 files (lines as typed at `play`) still replay. How San Juan
//! applies an entry is in its [`engine_game::Game`] implementation.

pub use engine_game::saved::SAVED_GAME_VERSION;

use crate::game::Game;

/// A saved San Juan game.
pub type SavedGame = engine_game::saved::SavedGame<Game>;
