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
use crate::saved::SavedGame;

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
    play_game(rs, bot_names, run_seed, index, false).map(|(record, _)| record)
}

/// Plays game number `index` of a run and keeps it as a saved game that
/// `SavedGame::replay` plays again (`ruleset` is what the saved file names).
pub fn play_one_saved(
    rs: &Arc<Ruleset>,
    bot_names: &[String],
    run_seed: u64,
    index: u64,
    ruleset: &str,
) -> Result<(GameRecord, SavedGame), GameError> {
    let (record, game) = play_game(rs, bot_names, run_seed, index, true)?;
    let saved = SavedGame::of(&game, ruleset, record.seed, bot_names.to_vec());
    Ok((record, saved))
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
    let cards = &rs.cards;
    let scores = game.scores()?;
    let record = GameRecord {
        ruleset: rs.id.clone(),
        fingerprint: rs.fingerprint.clone(),
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
    };
    Ok((record, game))
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

/// Plays one game between random bots and checks, after every action, that
/// every card is in exactly one place ([`Game::census`]), that nobody holds
/// more than their hand limit when a round's roles start, and that the game
/// ends. `sanjuan check --games N` runs this over a designer's own cards.
pub fn check_random_game(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Result<u64, String> {
    use crate::bots::{Bot, RandomBot};
    use crate::game::Decision;
    let copies: Vec<u32> = rs.cards.cards.iter().map(|c| c.copies).collect();
    let fail = |m: String| format!("game with seed {seed}, {players} players: {m}");
    let mut game = Game::new(Arc::clone(rs), players, seed).map_err(|e| fail(e.to_string()))?;
    game.record_actions(true);
    let mut bots: Vec<RandomBot> =
        (0..players as u64).map(|s| RandomBot::new(seed.wrapping_mul(31).wrapping_add(s))).collect();
    let mut steps = 0u64;
    while let Some(d) = game.pending() {
        let seat = d.seat();
        // The first role choice of a round comes right after the hand-limit check.
        if matches!(d, Decision::Role { .. }) && game.roles_taken().is_empty() && game.round() > 1 {
            for s in 0..players {
                let limit = game.hand_limit_of(s).map_err(|e| fail(e.to_string()))?;
                let hand = game.player(s).hand.len();
                if hand as i64 > i64::from(limit) {
                    return Err(fail(format!(
                        "seat {s} holds {hand} cards, above its limit {limit}, when round {} starts",
                        game.round()
                    )));
                }
            }
        }
        let action = bots[seat].choose(&game, game.legal_actions());
        let text = action.text(&rs.cards);
        game.apply(action).map_err(|e| fail(format!("action {} `{text}`: {e}", steps + 1)))?;
        steps += 1;
        let census = game.census();
        if census != copies {
            let (i, _) = census.iter().zip(&copies).enumerate().find(|(_, (a, b))| a != b).unwrap_or((0, (&0, &0)));
            return Err(fail(format!(
                "after action {steps} `{text}`, `{}` is in {} places but the ruleset has {} copies",
                rs.cards.id(i as u16),
                census[i],
                copies[i]
            )));
        }
        if steps > 100_000 {
            return Err(fail("no end after 100,000 actions".into()));
        }
    }
    if !game.is_over() || !game.legal_actions().is_empty() {
        return Err(fail("no decision is pending but the game is not over".into()));
    }
    Ok(steps)
}
