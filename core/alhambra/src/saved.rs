//! Alhambra's saved games: the engine's format ([`engine_rules::saved`]),
//! one recorded atomic action per entry.

use std::sync::Arc;

pub use engine_rules::saved::{Replay, SAVED_GAME_VERSION};

use crate::error::{GameError, LoadErrors};
use crate::files::Source;
use crate::game::{Event, Game};
use crate::ruleset::Ruleset;

/// A saved Alhambra game.
pub type SavedGame = engine_rules::saved::SavedGame<Game>;

impl Replay for Game {
    type Rules = Ruleset;
    type Event = Event;
    type Error = GameError;
    // Alhambra's files hold one atomic action per entry in every format: its
    // first files said version 1, and read the same as version 2.
    const OLDEST_VERSION: u32 = 1;

    fn load_rules(spec: &str, from: &Source) -> Result<Arc<Ruleset>, LoadErrors> {
        Ruleset::load_relative(spec, from)
    }

    fn start(rs: Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, GameError> {
        Game::new(rs, players, seed)
    }

    fn players(&self) -> usize {
        self.num_players()
    }

    fn recorded_texts(&self) -> Vec<String> {
        let rs = self.ruleset();
        let texts = self.recorded().iter().map(|a| a.text(rs));
        engine_rules::saved::Redeal::interleave(texts, &self.redeals)
    }

    fn log_events(&mut self, on: bool) {
        Game::log_events(self, on);
    }

    fn record_actions(&mut self, on: bool) {
        Game::record_actions(self, on);
    }

    fn take_events(&mut self) -> Vec<Event> {
        Game::take_events(self)
    }

    fn redeal(&mut self, seat: usize, seed: u64) -> Result<(), GameError> {
        Game::redeal(self, seat, seed)
    }

    fn apply_saved(&mut self, _version: u32, text: &str) -> Result<Vec<Event>, GameError> {
        self.apply_exact(text)
    }
}
