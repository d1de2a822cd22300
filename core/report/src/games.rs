//! What single games say on their own, for every report: a seat's share of
//! a win, and how long games run.

use std::borrow::Borrow;
use std::collections::BTreeMap;

use engine_play::sim::GameRecord;

use crate::stats::{Mean, Quartiles, Rate};

/// Game length.
#[derive(Clone, Debug, PartialEq)]
pub struct Length {
    /// Rounds per game.
    pub rounds: Mean,
    /// Their quartiles.
    pub quartiles: Quartiles,
    /// Fewest rounds (0 when there are no games).
    pub min: u32,
    /// Most rounds.
    pub max: u32,
    /// Share of games ended by the ruleset's safety limit rather than by its rules.
    pub stalled: Rate,
    /// Games per number of rounds.
    pub histogram: BTreeMap<u32, u64>,
}

/// A seat's share of a game's win: 1/k if it is one of k winners.
pub(crate) fn win_share(r: &GameRecord, seat: usize) -> f64 {
    if r.winners.contains(&seat) { 1.0 / r.winners.len() as f64 } else { 0.0 }
}

/// Rounds per game, their spread and the share of stalled games.
pub(crate) fn length<R: Borrow<GameRecord>>(records: &[R]) -> Length {
    let records: Vec<&GameRecord> = records.iter().map(Borrow::borrow).collect();
    let rounds: Vec<u32> = records.iter().map(|r| r.rounds).collect();
    let stalled = records.iter().filter(|r| r.stalled).count() as u64;
    length_of(&rounds, stalled)
}

/// [`length`] from each game's rounds and the number of stalled games.
pub(crate) fn length_of(rounds: &[u32], stalled: u64) -> Length {
    let mut histogram = BTreeMap::new();
    for &r in rounds {
        *histogram.entry(r).or_insert(0) += 1;
    }
    let as_f64: Vec<f64> = rounds.iter().map(|&r| f64::from(r)).collect();
    Length {
        rounds: Mean::of(&as_f64),
        quartiles: Quartiles::of(&as_f64),
        min: rounds.iter().copied().min().unwrap_or(0),
        max: rounds.iter().copied().max().unwrap_or(0),
        stalled: Rate::wilson(stalled as f64, rounds.len() as u64),
        histogram,
    }
}
