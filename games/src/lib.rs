//! The games the `sanjuan` binary and its web table play: one line per game.
//! Adding a game is a crate implementing `engine_game::Game` and a line here;
//! the command line and the server look every game up through [`registry`].
#![warn(missing_docs)]

use engine_game::{Kind, KindOf, Registry};

/// Every game, the default first (a ruleset or file that names no game is its).
static GAMES: [&dyn Kind; 2] = [&KindOf::<san_juan::Game>::new(), &KindOf::<alhambra::Game>::new()];

/// The registry of [`GAMES`].
pub fn registry() -> Registry {
    Registry::new(GAMES.to_vec())
}
