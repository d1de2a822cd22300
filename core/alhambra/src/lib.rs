//! Alhambra, the card game (Dirk Henn), on the engine: money in four
//! currencies, buildings bought from a display, majorities scored three times.
//!
//! Start at [`Ruleset::load`] and [`Game::new`]; drive a game with
//! [`Game::pending`], [`Game::legal_actions`] and [`Game::apply`].
#![warn(missing_docs)]

pub mod actions;
pub mod bots;
pub mod error;
pub mod files;
pub mod game;
pub mod hooks;
mod interface;
mod limits;
pub use engine_play::rng;
pub mod ruleset;
pub mod saved;
pub mod scenario;
pub mod score;
pub mod sim;
pub mod terminal;
pub mod value;
pub use engine_play::turns;
pub mod view;

pub use actions::Action;
pub use error::{GameError, LoadError, LoadErrors};
pub use game::{Decision, Game};
pub use ruleset::{DEFAULT_RULESET, Money, Ruleset};
pub use score::Score;
