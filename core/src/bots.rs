//! Bots: players driven by code through the same `pending`/`apply` API as
//! everyone else.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::actions::Action;
use crate::error::GameError;
use crate::game::Game;
use crate::rng;

/// A player that picks one of the legal actions.
pub trait Bot: Send {
    /// Short name for reports (`random`, `greedy`, …).
    fn name(&self) -> &str;
    /// Chooses one of `legal` (never empty) for the pending decision of `game`.
    fn choose(&mut self, game: &Game, legal: &[Action]) -> Action;
}

/// Picks uniformly among the legal actions, from its own seeded stream.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot with its own seed.
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, _game: &Game, legal: &[Action]) -> Action {
        legal[rng::below(&mut self.rng, legal.len())]
    }
}

/// Plays a game to its end with one bot per seat.
pub fn play_out(game: &mut Game, bots: &mut [Box<dyn Bot>]) -> Result<(), GameError> {
    play_out_with(game, bots, |_, _| {})
}

/// Plays a game to its end, calling `watch` after every action.
pub fn play_out_with(
    game: &mut Game,
    bots: &mut [Box<dyn Bot>],
    mut watch: impl FnMut(&Game, Action),
) -> Result<(), GameError> {
    while let Some(d) = game.pending() {
        let seat = d.seat();
        let action = bots[seat].choose(game, game.legal_actions());
        game.apply(action)?;
        watch(game, action);
    }
    Ok(())
}

/// Names accepted by [`make`].
pub const BOT_NAMES: &[&str] = &["random"];

/// A bot by name, seeded.
pub fn make(name: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    match name {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        other => Err(format!("unknown bot `{other}`; bots: {}", BOT_NAMES.join(", "))),
    }
}
