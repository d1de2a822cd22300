//! Many games between bots: the record of one game, the seeds of a run, and
//! a summary over many (the runner that plays them is `engine-game`'s). Parallelism and printing are the caller's; every
//! game's seed derives from the run's seed and the game's index, so results
//! do not depend on the number of threads.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A card a seat holds at the end (a building it built, a card it
/// collected) and the round it got it (0: dealt at setup).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Built {
    /// Card id (shared with the ruleset's card: a record holds some sixty).
    pub id: Arc<str>,
    /// Round it got the card (0: dealt at setup).
    pub round: u32,
    /// The card's type, where a game has several cards of one type under
    /// ids of their own (a card `gate4` of the type `gate`): reports then
    /// add a row per type. Absent where the id is the type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Arc<str>>,
}

/// The format of [`GameRecord`] written now; records without the field are format 1.
pub const RECORD_VERSION: u32 = 2;

fn version_1() -> u32 {
    1
}

/// The outcome of one game, as one JSON line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The record format ([`RECORD_VERSION`]).
    #[serde(default = "version_1")]
    pub version: u32,
    /// The game the ruleset is for (empty in format 1, which had one game).
    #[serde(default)]
    pub game: String,
    /// Ruleset id.
    pub ruleset: String,
    /// Digest of the ruleset's content (rules, cards, scripts): two records with
    /// the same id and different fingerprints were played by different rules.
    #[serde(default)]
    pub fingerprint: String,
    /// Run seed the game's seed derives from.
    pub run_seed: u64,
    /// Index of the game in the run (seed-start + k).
    pub index: u64,
    /// The game's own seed.
    pub seed: u64,
    /// Bot name per seat.
    pub bots: Vec<String>,
    /// Rounds played (the last one possibly cut short by the game end).
    pub rounds: u32,
    /// Final score per seat.
    pub scores: Vec<i32>,
    /// Winning seats.
    pub winners: Vec<usize>,
    /// What each seat holds at the end (its buildings), with the round it got each.
    pub buildings: Vec<Vec<Built>>,
    /// Actions applied, automatic ones included.
    pub actions: u64,
    /// Ended by the ruleset's safety limit rather than by its rules.
    #[serde(default)]
    pub stalled: bool,
    /// Each seat's points as the game counts them after each round, one row per
    /// round (the last row is the final score); empty unless the run tracked
    /// them (`simulate --track-scores`), and then left out of the JSON so a
    /// record without them keeps its bytes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub score_by_round: Vec<Vec<i32>>,
}

/// SplitMix64: spreads (run seed, game index) into a game seed.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Totals over many games.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Games counted.
    pub games: u64,
    /// Wins per seat; a shared win counts 1/k to each of k winners.
    pub wins: Vec<f64>,
    /// Sum of scores per seat.
    pub score_sum: Vec<i64>,
    /// Sum of rounds.
    pub rounds_sum: u64,
    /// Sum of actions.
    pub actions_sum: u64,
    /// Games ended by the ruleset's safety valve.
    pub stalled: u64,
}

impl Summary {
    /// Adds one game.
    pub fn add(&mut self, r: &GameRecord) {
        let n = r.scores.len();
        if self.wins.len() < n {
            self.wins.resize(n, 0.0);
            self.score_sum.resize(n, 0);
        }
        self.games += 1;
        for &w in &r.winners {
            self.wins[w] += 1.0 / r.winners.len() as f64;
        }
        for (s, &v) in r.scores.iter().enumerate() {
            self.score_sum[s] += i64::from(v);
        }
        self.rounds_sum += u64::from(r.rounds);
        self.actions_sum += r.actions;
        self.stalled += u64::from(r.stalled);
    }

    /// Win share per seat (0 for a seat no game had).
    pub fn win_rate(&self, seat: usize) -> f64 {
        self.wins.get(seat).copied().unwrap_or(0.0) / self.games.max(1) as f64
    }

    /// Mean score per seat (0 for a seat no game had).
    pub fn mean_score(&self, seat: usize) -> f64 {
        self.score_sum.get(seat).copied().unwrap_or(0) as f64 / self.games.max(1) as f64
    }

    /// Mean rounds per game.
    pub fn mean_rounds(&self) -> f64 {
        self.rounds_sum as f64 / self.games.max(1) as f64
    }
}
