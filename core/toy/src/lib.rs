//! High-Low, the smallest game on the engine, and a template for a new one.
//!
//! It exists to prove that a game plugged in through [`engine_game::Game`] and
//! [`engine_game::Rules`] works in every front end (simulate, replay, report,
//! scenario, the table) with no front-end code, and to be copied: each module
//! holds one concept, in the shape of the full game crates.
//!
//! The game: a deck of number cards (`c1`…`c9` by default), a hand each and
//! one card face up. On your turn play a card higher than the pile's top and
//! score its value, or draw (pass, once the deck is empty). After a number of
//! rounds, or two passes in a row, the most points win.
#![warn(missing_docs)]

pub mod actions;
pub mod error;
pub mod files;
pub mod game;
mod interface;
pub mod ruleset;
mod script;
pub mod value;
pub mod view;

pub use actions::Action;
pub use error::GameError;
pub use game::{Event, Game};
pub use ruleset::{DEFAULT_RULESET, Ruleset};
