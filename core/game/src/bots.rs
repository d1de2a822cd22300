//! The standard bots, built once for every game: the balance bot (the learned
//! value model), the random bot, and the game's own rules of thumb and tree
//! search, which the game hands over ([`Game::greedy`], [`Game::search`]).

use std::sync::Arc;

use engine_play::bots::{Bot, BotSpec, RandomBot};
use engine_play::value::ValueBot;

use crate::{Game, Models};

/// A bot by name ([`BotSpec::parse`]: `balance`, `random`, `greedy`, `mcts`,
/// `mcts:N`) for a ruleset of `G`, seeded; the balance bot's model comes from
/// `models` (learned there now if missing).
pub fn make<G: Game>(rs: &Arc<G::Rules>, name: &str, seed: u64, models: &Models) -> Result<Box<dyn Bot<G>>, String> {
    Ok(match BotSpec::parse(name)? {
        BotSpec::Balance => Box::new(ValueBot::new(models.balance::<G>(rs)?, seed)),
        BotSpec::Random => Box::new(RandomBot::new(seed)),
        BotSpec::Greedy => G::greedy(),
        BotSpec::Mcts(n) => G::search(seed, n),
    })
}
