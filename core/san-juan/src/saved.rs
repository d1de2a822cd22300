//! San Juan's saved games: the engine's format ([`engine_rules::saved`]);
//! format 1 files (lines as typed at `play`) still replay.

use std::sync::Arc;

pub use engine_rules::saved::{Replay, SAVED_GAME_VERSION};

use crate::error::{GameError, LoadErrors};
use crate::files::Source;
use crate::game::{Event, Game};
use crate::ruleset::Ruleset;

/// A saved San Juan game.
pub type SavedGame = engine_rules::saved::SavedGame<Game>;

impl Replay for Game {
    type Rules = Ruleset;
    type Event = Event;
    type Error = GameError;
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
        let cards = &self.ruleset().cards;
        let texts = self.recorded().iter().map(|a| a.text(cards));
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

    fn apply_saved(&mut self, version: u32, text: &str) -> Result<Vec<Event>, GameError> {
        if version == 1 { self.apply_text(text) } else { self.apply_exact(text) }
    }
}
