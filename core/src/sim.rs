//! Many games between bots: one game's record and a summary over many.
//! Parallelism and printing are the caller's; every game's seed derives
//! from the run's seed and the game's index, so results do not depend on
//! the number of threads.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::bots::{self, play_out};
use crate::error::GameError;
use crate::game::Game;
use crate::ruleset::Ruleset;

/// A building in a final city and the round it was built in (0: at setup).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Built {
    /// Card id.
    pub id: String,
    /// Round built.
    pub round: u32,
}

/// The outcome of one game, as one JSON line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Ruleset id.
    pub ruleset: String,
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
    /// Buildings in play at the end, per seat, with the round each was built.
    pub buildings: Vec<Vec<Built>>,
    /// Actions applied, automatic ones included.
    pub actions: u64,
    /// Ended by the ruleset's `max_rounds` safety valve.
    #[serde(default)]
    pub stalled: bool,
}

/// SplitMix64: spreads (run seed, game index) into a game seed.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays game number `index` of a run.
pub fn play_one(rs: &Arc<Ruleset>, bot_names: &[String], run_seed: u64, index: u64) -> Result<GameRecord, GameError> {
    let seed = game_seed(run_seed, index);
    let mut game = Game::new(Arc::clone(rs), bot_names.len(), seed)?;
    let mut bots = bot_names
        .iter()
        .enumerate()
        .map(|(i, n)| bots::make(n, game_seed(seed, i as u64 + 1)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(GameError::Setup)?;
    play_out(&mut game, &mut bots)?;
    let cards = &rs.cards;
    let scores = game.scores()?;
    Ok(GameRecord {
        ruleset: rs.id.clone(),
        run_seed,
        index,
        seed,
        bots: bot_names.to_vec(),
        rounds: game.round(),
        winners: crate::score::winners_of(&scores),
        scores: scores.iter().map(|s| s.total).collect(),
        buildings: (0..bot_names.len())
            .map(|s| {
                let city = &game.player(s).city;
                city.iter().map(|x| Built { id: cards.id(x.card).to_owned(), round: x.built_round }).collect()
            })
            .collect(),
        actions: game.actions_applied(),
        stalled: game.stalled(),
    })
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
    /// Games ended by the `max_rounds` safety valve.
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
