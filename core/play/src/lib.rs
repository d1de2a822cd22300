//! Game-independent play: portable seeded randomness ([`rng`]), the decision
//! interface every game implements ([`turns`]), the bots that need no
//! knowledge of a game ([`bots`]: random, `play_out`, information-set MCTS;
//! [`paired`]: a flat search on common deals),
//! the records of bot games ([`sim`]), and the balance bot that learns a
//! ruleset's values from self-play ([`value`]).
#![warn(missing_docs)]

pub mod bots;
pub mod paired;
pub mod rng;
pub mod seen;
pub mod sim;
pub mod turns;
pub mod value;

pub use bots::{BOT_NAMES, Bot, BotSpec, Judgement, Mcts, Measure, RandomBot, play_out};
pub use turns::{ActionView, Determinize, Seats, TurnGame};
