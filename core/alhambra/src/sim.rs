//! Many games between bots: one game's record. Every game's seed derives
//! from the run's seed and the game's index, so results do not depend on the
//! number of threads.

use std::sync::Arc;

use serde::Serialize;

use crate::bots::{self, play_out};
use crate::error::GameError;
use crate::game::Game;
use crate::ruleset::Ruleset;

/// The outcome of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    /// Ruleset id.
    pub ruleset: String,
    /// Run seed the game's seed derives from.
    pub run_seed: u64,
    /// Index of the game in the run.
    pub index: u64,
    /// The game's own seed.
    pub seed: u64,
    /// Bot name per seat.
    pub bots: Vec<String>,
    /// Turns played.
    pub turns: u32,
    /// Final score per seat.
    pub scores: Vec<i32>,
    /// The neutral collector's score (two players).
    pub neutral: Option<i32>,
    /// Winning seats.
    pub winners: Vec<usize>,
    /// Scorings done, in order.
    pub scored: Vec<String>,
    /// Actions applied, automatic ones included.
    pub actions: u64,
    /// Ended by the `max_turns` safety valve.
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
    play_game(rs, bot_names, run_seed, index, false).map(|(record, _)| record)
}

/// Plays game number `index` of a run and returns its record and final state;
/// with `record`, the game keeps its actions ([`Game::recorded`]).
pub fn play_game(
    rs: &Arc<Ruleset>,
    bot_names: &[String],
    run_seed: u64,
    index: u64,
    record: bool,
) -> Result<(GameRecord, Game), GameError> {
    let seed = game_seed(run_seed, index);
    let mut game = Game::new(Arc::clone(rs), bot_names.len(), seed)?;
    game.record_actions(record);
    let mut bots = bot_names
        .iter()
        .enumerate()
        .map(|(i, n)| bots::make(n, game_seed(seed, i as u64 + 1)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(GameError::Setup)?;
    play_out(&mut game, &mut bots)?;
    let record = GameRecord {
        ruleset: rs.id.clone(),
        run_seed,
        index,
        seed,
        bots: bot_names.to_vec(),
        turns: game.turns(),
        scores: game.scores().iter().map(|s| s.total).collect(),
        neutral: game.neutral_score().map(|s| s.total),
        winners: game.winners(),
        scored: game.scored().iter().map(|s| (*s).to_owned()).collect(),
        actions: game.actions_applied(),
        stalled: game.stalled(),
    };
    Ok((record, game))
}
