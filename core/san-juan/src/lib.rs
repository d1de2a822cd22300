//! San Juan rules engine: the card model, the state machine, the hook
//! pipeline that runs each building's Rhai script, and scoring.
//!
//! Start at [`Ruleset::load`] and [`Game::new`]; drive a game with
//! [`Game::pending`], [`Game::legal_actions`] and [`Game::apply`].
#![warn(missing_docs)]

pub mod actions;
pub mod bots;
pub mod cards;
pub use engine_rules::doc;
pub mod doc_keys;
pub mod error;
pub mod files;
pub mod game;
pub mod hooks;
#[cfg(test)]
mod house;
mod interface;
mod limits;
mod payment;
mod reads;
pub use engine_play::rng;
mod roles;
pub mod ruleset;
pub mod saved;
pub mod scenario;
pub mod score;
pub use engine_script as script;
pub mod sim;
pub mod terminal;
pub mod value;
pub use engine_play::turns;
pub mod view;
pub mod vocabulary;

pub use actions::{Action, Role};
pub use error::{GameError, LoadError, LoadErrors, ScriptError};
pub use game::{Decision, Game};
pub use ruleset::{DEFAULT_RULESET, Ruleset};
pub use score::Score;
