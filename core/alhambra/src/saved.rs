//! Alhambra's saved games: the engine's format ([`engine_game::saved`]). How
//! Alhambra applies an entry is in its [`engine_game::Game`] implementation.

pub use engine_game::saved::SAVED_GAME_VERSION;

use crate::game::Game;

/// A saved Alhambra game.
pub type SavedGame = engine_game::saved::SavedGame<Game>;
