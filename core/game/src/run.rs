//! Bot games into records: game number `index` of a run, seeded from the run's
//! seed and the index, so a result does not depend on which thread played it.

use std::sync::Arc;

use engine_play::bots::{Bot, play_out};
use engine_play::sim::{GameRecord, RECORD_VERSION, game_seed};

use crate::{Game, Models};

/// Plays game number `index` of a run and returns its record and final state;
/// with `record`, the game keeps its actions. Seat `i`'s bot is seeded from
/// the game's seed and `i`, so a game does not depend on which thread plays it.
/// A balance bot takes its model from `models`.
pub fn play_game<G: Game>(
    rs: &Arc<G::Rules>,
    bot_names: &[String],
    run_seed: u64,
    index: u64,
    record: bool,
    models: &Models,
) -> Result<(GameRecord, G), String> {
    play_with::<G>(rs, bot_names, run_seed, index, Keep { actions: record, scores_by_round: false }, models)
}

/// What a run keeps of each game beyond its usual record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keep {
    /// The game keeps its actions (to be saved).
    pub actions: bool,
    /// The record carries every seat's points after each round (`score_by_round`),
    /// which costs a scoring per round.
    pub scores_by_round: bool,
}

/// [`play_game`], keeping what `keep` asks for.
pub fn play_with<G: Game>(
    rs: &Arc<G::Rules>,
    bot_names: &[String],
    run_seed: u64,
    index: u64,
    keep: Keep,
    models: &Models,
) -> Result<(GameRecord, G), String> {
    let seed = game_seed(run_seed, index);
    let mut game = G::start(rs, bot_names.len(), seed).map_err(|e| e.to_string())?;
    game.record_actions(keep.actions);
    let mut bots = bot_names
        .iter()
        .enumerate()
        .map(|(i, n)| crate::bots::make::<G>(rs, n, game_seed(seed, i as u64 + 1), models))
        .collect::<Result<Vec<_>, _>>()?;
    let record = if keep.scores_by_round {
        play_out_by_round(&mut game, &mut bots).and_then(|rows| {
            let mut record = record_of(&game, bot_names, run_seed, index, seed)?;
            record.score_by_round = rows;
            Ok(record)
        })
    } else {
        play_recorded(&mut game, &mut bots, bot_names, run_seed, index, seed)
    };
    Ok((record.map_err(|e| e.to_string())?, game))
}

/// Plays game number `index` of a run.
pub fn play_one<G: Game>(
    rs: &Arc<G::Rules>,
    bot_names: &[String],
    run_seed: u64,
    index: u64,
    models: &Models,
) -> Result<GameRecord, String> {
    play_game::<G>(rs, bot_names, run_seed, index, false, models).map(|(record, _)| record)
}

/// Plays `game` to its end with `bots` and returns its record.
pub fn play_recorded<G: Game>(
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

/// Every seat's points now, as the game counts them.
fn totals<G: Game>(game: &G) -> Result<Vec<i32>, G::Error> {
    Ok(game.scores()?.iter().map(|s| s.total).collect())
}

/// Plays `game` to its end and returns one row of points per round. A row is
/// taken when [`Game::rounds`] grows, that is as the next round begins (before
/// anyone acts in it), and the last row is the final score. Only a row per
/// round is scored, not every action: a scoring may run the cards' scripts.
fn play_out_by_round<G: Game>(game: &mut G, bots: &mut [Box<dyn Bot<G>>]) -> Result<Vec<Vec<i32>>, G::Error> {
    let mut rows: Vec<Vec<i32>> = Vec::new();
    let mut round = game.rounds();
    while let Some(seat) = game.to_move() {
        let action = bots[seat].choose(game, game.legal());
        game.play(action)?;
        let now = game.rounds();
        if now > round {
            let row = totals(game)?;
            // Rounds that passed within one action end on the same points.
            while rows.len() + 1 < now as usize {
                rows.push(row.clone());
            }
            round = now;
        }
    }
    rows.resize(game.rounds() as usize, totals(game)?);
    Ok(rows)
}

/// The record of a finished game, whoever played it (`names`: per seat, a
/// bot's name or `human`), so that games people played sit beside bot games in
/// a report.
pub fn record_of<G: Game>(
    game: &G,
    names: &[String],
    run_seed: u64,
    index: u64,
    seed: u64,
) -> Result<GameRecord, G::Error> {
    let (scores, winners) = game.final_scores()?;
    let rs = game.rules();
    Ok(GameRecord {
        version: RECORD_VERSION,
        game: G::ID.to_owned(),
        ruleset: crate::Rules::id(rs.as_ref()).to_owned(),
        fingerprint: crate::Rules::fingerprint(rs.as_ref()).to_owned(),
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
        score_by_round: Vec::new(),
    })
}

/// The legal answer a bot named `bot` (seeded) would choose, by its number in the legal list.
pub fn bot_choice<G: Game>(game: &G, bot: &str, seed: u64, models: &Models) -> Result<usize, String> {
    let mut bot = crate::bots::make::<G>(game.rules(), bot, seed, models)?;
    let legal = game.legal();
    let action = bot.choose(game, legal);
    legal.iter().position(|a| *a == action).ok_or_else(|| "the bot chose no legal answer".to_owned())
}

/// Most actions a random game may take before [`check_random`] calls it endless.
pub const MAX_CHECKED_ACTIONS: u64 = 1_000_000;

/// One random game of `players` from `seed`, checked after every action: the
/// game's own [`Game::invariant`], a legal answer for whoever is to move, every
/// legal answer applied without error, and an end within [`MAX_CHECKED_ACTIONS`].
/// The actions played, or what broke and where.
pub fn check_random<G: Game>(rs: &Arc<G::Rules>, players: usize, seed: u64) -> Result<u64, String> {
    let mut game = G::start(rs, players, seed).map_err(|e| e.to_string())?;
    let mut bot = engine_play::bots::RandomBot::new(game_seed(seed, 1));
    let at = |actions: u64, why: &dyn std::fmt::Display| {
        format!("{players} players, seed {seed}, after {actions} actions: {why}")
    };
    for actions in 0..=MAX_CHECKED_ACTIONS {
        game.invariant().map_err(|why| at(actions, &why))?;
        if game.to_move().is_none() {
            return Ok(actions);
        }
        if game.legal().is_empty() {
            return Err(at(actions, &"the seat to move has no legal action"));
        }
        let action = bot.choose(&game, game.legal());
        game.play(action).map_err(|e| at(actions, &e))?;
    }
    Err(at(MAX_CHECKED_ACTIONS, &"the game has not ended"))
}
