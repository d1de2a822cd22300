//! High-Low's bots: the greedy rule of thumb; the random bot, the balance bot
//! and the tree search are the engine's.

use std::sync::Arc;

use engine_play::bots::{Bot, BotSpec, Mcts, RandomBot};
use engine_play::value::ValueBot;

use crate::actions::Action;
use crate::game::Game;
use crate::ruleset::Ruleset;

/// A bot by name (`balance`, `random`, `greedy`, `mcts`, `mcts:N`) for a ruleset, seeded.
pub fn make(rs: &Arc<Ruleset>, name: &str, seed: u64) -> Result<Box<dyn Bot<Game>>, String> {
    Ok(match BotSpec::parse(name)? {
        BotSpec::Balance => Box::new(ValueBot::new(rs.balance_model()?, seed)),
        BotSpec::Random => Box::new(RandomBot::new(seed)),
        BotSpec::Greedy => Box::new(GreedyBot),
        BotSpec::Mcts(n) => Box::new(MctsBot(Mcts::new(seed, n))),
    })
}

/// Plays its highest legal card (the most points now), else draws or passes.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl Bot<Game> for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, _game: &Game, legal: &[Action]) -> Action {
        let best = legal.iter().filter_map(|a| if let Action::Play(v) = a { Some(*v) } else { None }).max();
        best.map_or(legal[legal.len() - 1], Action::Play)
    }
}

/// The engine's search, with greedy playouts.
#[derive(Clone, Debug)]
pub struct MctsBot(Mcts);

impl Bot<Game> for MctsBot {
    fn name(&self) -> &str {
        "mcts"
    }

    fn choose(&mut self, game: &Game, legal: &[Action]) -> Action {
        self.0.search(game, legal, &mut GreedyBot)
    }
}
