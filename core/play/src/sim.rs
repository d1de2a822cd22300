//! Many games between bots: the record of one game, the seeds of a run, and
//! a summary over many. Parallelism and printing are the caller's; every
//! game's seed derives from the run's seed and the game's index, so results
//! do not depend on the number of threads.

use serde::{Deserialize, Serialize};

use crate::bots::{Bot, play_out};
use crate::turns::TurnGame;

/// A card a seat holds at the end (a building it built, a card it
/// collected) and the round it got it (0: dealt at setup).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Built {
    /// Card id.
    pub id: String,
    /// Round it got the card (0: dealt at setup).
    pub round: u32,
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
}

/// A game the runner can set up and seat bots at.
pub trait Simulate: Outcome + Sized {
    /// A loaded ruleset.
    type Rules;
    /// A new game of `players`, dealt from `seed`.
    fn start(rs: &std::sync::Arc<Self::Rules>, players: usize, seed: u64) -> Result<Self, Self::Error>;
    /// A bot by name (`balance`, `random`, `greedy`, `mcts:N`…) for this ruleset, seeded.
    fn bot(rs: &std::sync::Arc<Self::Rules>, name: &str, seed: u64) -> Result<Box<dyn Bot<Self>>, Self::Error>;
    /// Keeps every atomic action applied, for a saved game.
    fn record_actions(&mut self, on: bool);
}

/// Plays game number `index` of a run and returns its record and final state;
/// with `record`, the game keeps its actions. Seat `i`'s bot is seeded from
/// the game's seed and `i`, so a game does not depend on which thread plays it.
pub fn play_game<G: Simulate>(
    rs: &std::sync::Arc<G::Rules>,
    bot_names: &[String],
    run_seed: u64,
    index: u64,
    record: bool,
) -> Result<(GameRecord, G), G::Error> {
    let seed = game_seed(run_seed, index);
    let mut game = G::start(rs, bot_names.len(), seed)?;
    game.record_actions(record);
    let mut bots = bot_names
        .iter()
        .enumerate()
        .map(|(i, n)| G::bot(rs, n, game_seed(seed, i as u64 + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let record = play_recorded(&mut game, &mut bots, bot_names, run_seed, index, seed)?;
    Ok((record, game))
}

/// Plays game number `index` of a run.
pub fn play_one<G: Simulate>(
    rs: &std::sync::Arc<G::Rules>,
    bot_names: &[String],
    run_seed: u64,
    index: u64,
) -> Result<GameRecord, G::Error> {
    play_game::<G>(rs, bot_names, run_seed, index, false).map(|(record, _)| record)
}

/// SplitMix64: spreads (run seed, game index) into a game seed.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a finished game tells its record, beyond the decision interface.
pub trait Outcome: TurnGame {
    /// The game's id as rulesets name it (`game = "…"`).
    fn game_id(&self) -> &'static str;
    /// The ruleset's id and content fingerprint.
    fn ruleset_id(&self) -> (String, String);
    /// Final score per seat, and the winning seats (tie-breaks are the game's).
    fn final_scores(&self) -> Result<(Vec<i32>, Vec<usize>), Self::Error>;
    /// Rounds (or turns) played.
    fn rounds(&self) -> u32;
    /// What `seat` holds at the end, for per-card statistics.
    fn holdings(&self, seat: usize) -> Vec<Built>;
    /// Actions applied, automatic ones included.
    fn actions_applied(&self) -> u64;
    /// True when the game ended by a safety valve rather than by its rules.
    fn stalled(&self) -> bool;
}

/// Plays `game` to its end with `bots` and returns its record.
pub fn play_recorded<G: Outcome>(
    game: &mut G,
    bots: &mut [Box<dyn Bot<G>>],
    names: &[String],
    run_seed: u64,
    index: u64,
    seed: u64,
) -> Result<GameRecord, G::Error> {
    play_out(game, bots)?;
    record_of(game, names, run_seed, index, seed)
}

/// The record of a finished game, whoever played it (`names`: per seat, a
/// bot's name or `human`), so that games people played sit beside bot games in
/// a report.
pub fn record_of<G: Outcome>(
    game: &G,
    names: &[String],
    run_seed: u64,
    index: u64,
    seed: u64,
) -> Result<GameRecord, G::Error> {
    let (scores, winners) = game.final_scores()?;
    let (ruleset, fingerprint) = game.ruleset_id();
    Ok(GameRecord {
        version: RECORD_VERSION,
        game: game.game_id().to_owned(),
        ruleset,
        fingerprint,
        run_seed,
        index,
        seed,
        bots: names.to_vec(),
        rounds: game.rounds(),
        winners,
        scores,
        buildings: (0..names.len()).map(|s| game.holdings(s)).collect(),
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
