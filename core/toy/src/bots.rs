//! High-Low's bots: the greedy rule of thumb; the random bot, the balance bot
//! and the tree search are the engine's.

use engine_play::bots::Bot;

use crate::actions::Action;
use crate::game::Game;

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
