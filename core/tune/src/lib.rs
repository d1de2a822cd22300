//! Tuning a ruleset's numbers toward a designer's target, for any game: the
//! target (a measure of bot games and the range it should lie in) and its
//! tally over game records ([`target`]), and the noise-aware search over the
//! integer grid of the numbers' ranges: successive halving with racing, which
//! spends games where the answer is still open and stops when a candidate's
//! 95% interval lies inside the goal or the budget is spent ([`search`]).
//!
//! No I/O and no game: the caller turns a candidate's values into a ruleset
//! (the game's `tuned_tables`), plays the games a rung asks for, feeds back
//! their records, and keeps the [`State`] (serializable) between rungs, which
//! makes a search resumable and splittable into shards.
#![warn(missing_docs)]

pub mod search;
pub mod target;

pub use search::{
    Candidate, MAX_BUDGET, MAX_CANDIDATES, MAX_SHARDS, Outcome, Param, Reason, STATE_VERSION, Settings, ShardPart,
    State, Work,
};
pub use target::{Estimate, Metric, TARGET_FORMS, Tally, Target, Z95};
