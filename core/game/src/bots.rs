//! The standard bots, built once for every game: the balance bot (the learned
//! value model), the random bot, and the game's own rules of thumb and tree
//! search, which the game hands over ([`Game::greedy`], [`Game::search`]).

use std::sync::Arc;

use engine_play::bots::{Bot, BotSpec, RandomBot};
use engine_play::value::ValueBot;

use crate::{Game, Rules};

/// A bot by name ([`BotSpec::parse`]: `balance`, `random`, `greedy`, `mcts`,
/// `mcts:N`) for a ruleset of `G`, seeded.
pub fn make<G: Game>(rs: &Arc<G::Rules>, name: &str, seed: u64) -> Result<Box<dyn Bot<G>>, String> {
    Ok(match BotSpec::parse(name)? {
        BotSpec::Balance => Box::new(ValueBot::new(rs.balance_model()?, seed)),
        BotSpec::Random => Box::new(RandomBot::new(seed)),
        BotSpec::Greedy => G::greedy(),
        BotSpec::Mcts(n) => G::search(seed, n),
    })
}
