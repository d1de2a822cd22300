//! Alhambra bot games for the engine's runner ([`engine_game::run`]): the
//! record of one game, saved games of bot runs, and the random-game census
//! check.

use std::sync::Arc;

pub use engine_game::run::play_recorded;
pub use engine_play::sim::{Built, GameRecord, RECORD_VERSION, Summary, game_seed};

use crate::bots::{Bot, RandomBot};
use crate::game::Game;
use crate::ruleset::Ruleset;
use crate::turns::TurnGame;

/// One random game with the card census checked after setup and after every
/// action: every card in exactly one place. Returns the actions played.
pub fn check_random_game(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Result<u64, String> {
    let mut bot = RandomBot::new(game_seed(seed, 1));
    check_game_with(rs, players, seed, &mut bot)
}

/// One game played by `bot` in every seat with the card census checked after
/// setup and after every action. Returns the actions played.
pub fn check_game_with(rs: &Arc<Ruleset>, players: usize, seed: u64, bot: &mut dyn Bot<Game>) -> Result<u64, String> {
    let mut game = Game::new(Arc::clone(rs), players, seed).map_err(|e| e.to_string())?;
    let expected = game.census_expected();
    let total: u32 = expected.iter().sum();
    if total as usize != rs.total_cards(players) {
        return Err(format!(
            "{players} players: the census expects {total} cards, the ruleset has {}",
            rs.total_cards(players)
        ));
    }
    let mut actions = 0;
    let check = |game: &Game, when: &str| {
        if game.census() == expected {
            return Ok(());
        }
        Err(format!("{players} players, seed {seed}, {when}: a card is missing or doubled"))
    };
    check(&game, "after setup")?;
    while game.to_move().is_some() {
        if game.legal().is_empty() {
            return Err(format!(
                "{players} players, seed {seed}: no legal answer after action {actions}, yet the game goes on"
            ));
        }
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
