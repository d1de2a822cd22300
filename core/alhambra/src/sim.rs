//! Alhambra bot games for the engine's runner ([`engine_play::sim`]): the
//! record of one game, saved games of bot runs, and the random-game census
//! check.

use std::sync::Arc;

pub use engine_play::sim::{Built, GameRecord, Outcome, RECORD_VERSION, Simulate, Summary, game_seed, play_recorded};

use crate::bots::{self, Bot, RandomBot};
use crate::error::GameError;
use crate::game::Game;
use crate::ruleset::Ruleset;
use crate::turns::TurnGame;

/// Plays game number `index` of a run.
pub fn play_one(rs: &Arc<Ruleset>, bot_names: &[String], run_seed: u64, index: u64) -> Result<GameRecord, GameError> {
    engine_play::sim::play_one::<Game>(rs, bot_names, run_seed, index)
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
    engine_play::sim::play_game::<Game>(rs, bot_names, run_seed, index, record)
}

impl Simulate for Game {
    type Rules = Ruleset;

    fn start(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, GameError> {
        Game::new(Arc::clone(rs), players, seed)
    }

    fn bot(rs: &Arc<Ruleset>, name: &str, seed: u64) -> Result<Box<dyn engine_play::bots::Bot<Game>>, GameError> {
        bots::make(rs, name, seed).map_err(GameError::Setup)
    }

    fn record_actions(&mut self, on: bool) {
        Game::record_actions(self, on);
    }
}

/// One random game with the card census checked after setup and after every
/// action: every card in exactly one place. Returns the actions played.
pub fn check_random_game(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Result<u64, String> {
    let mut game = Game::new(Arc::clone(rs), players, seed).map_err(|e| e.to_string())?;
    let expected = game.census_expected();
    let total: u32 = expected.iter().sum();
    if total as usize != rs.total_cards(players) {
        return Err(format!(
            "{players} players: the census expects {total} cards, the ruleset has {}",
            rs.total_cards(players)
        ));
    }
    let mut bot = RandomBot::new(game_seed(seed, 1));
    let mut actions = 0;
    let check = |game: &Game, when: &str| {
        if game.census() == expected {
            return Ok(());
        }
        Err(format!("{players} players, seed {seed}, {when}: a card is missing or doubled"))
    };
    check(&game, "after setup")?;
    while game.to_move().is_some() {
        let a = bot.choose(&game, game.legal());
        game.play(a).map_err(|e| format!("{players} players, seed {seed}: {e}"))?;
        actions += 1;
        check(&game, &format!("after action {actions} ({})", a.text(rs)))?;
    }
    if game.stalled() {
        return Err(format!("{players} players, seed {seed}: no end after {} turns", game.turns()));
    }
    Ok(actions)
}

impl Outcome for Game {
    fn game_id(&self) -> &'static str {
        crate::files::BUILTINS.game
    }

    fn ruleset_id(&self) -> (String, String) {
        (self.ruleset().id.clone(), self.ruleset().fingerprint.clone())
    }

    fn final_scores(&self) -> Result<(Vec<i32>, Vec<usize>), GameError> {
        Ok((self.scores().iter().map(|s| s.total).collect(), self.winners()))
    }

    /// Rounds played: a round is one turn of every player (the last one maybe cut short).
    fn rounds(&self) -> u32 {
        self.turns().div_ceil(self.num_players() as u32)
    }

    /// The buildings a seat holds, each with the round it was bought in (the
    /// last round for those got at the game end; 0 for a scenario's setup).
    fn holdings(&self, seat: usize) -> Vec<Built> {
        let rs = self.ruleset();
        let p = self.player(seat);
        let round = |turn: u32| turn.div_ceil(self.num_players() as u32);
        p.buildings
            .iter()
            .enumerate()
            .map(|(i, &b)| Built {
                id: rs.building(b).id.clone(),
                round: round(p.acquired.get(i).copied().unwrap_or(0)),
            })
            .collect()
    }

    fn actions_applied(&self) -> u64 {
        Game::actions_applied(self)
    }

    fn stalled(&self) -> bool {
        Game::stalled(self)
    }
}
