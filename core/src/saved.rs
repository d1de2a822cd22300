//! A saved game: ruleset, players, seed and the actions played. Replaying it
//! gives the same game on any machine (the seed fixes every shuffle).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::{LoadError, LoadErrors, Pos};
use crate::files::Source;
use crate::game::Game;
use crate::ruleset::Ruleset;

/// What `sanjuan play --save` writes and `sanjuan replay` reads (TOML).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame {
    /// Ruleset id or path.
    pub ruleset: String,
    /// Number of players.
    pub players: usize,
    /// Game seed.
    pub seed: u64,
    /// Every action answered, in order, in the action notation.
    pub actions: Vec<String>,
}

impl SavedGame {
    /// Reads a saved game.
    pub fn parse(source: &Source, text: &str) -> Result<SavedGame, LoadError> {
        toml::from_str(text)
            .map_err(|e| LoadError::toml(source, text, &e).help("a saved game has ruleset, players, seed and actions"))
    }

    /// The saved game as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Replays the game; `log` turns the event log on.
    pub fn replay(&self, source: &Source, log: bool) -> Result<(Game, Vec<crate::game::Event>), LoadErrors> {
        let rs: Arc<Ruleset> = Ruleset::load_relative(&self.ruleset, source)?;
        let text = source.read().unwrap_or_default();
        let err = |m: String| LoadError::at(source, Pos::default(), m);
        let mut game = Game::new(rs, self.players, self.seed).map_err(|e| err(e.to_string()))?;
        game.log_events(log);
        let mut events = game.take_events();
        for (i, a) in self.actions.iter().enumerate() {
            let more = game.apply_text(a).map_err(|e| {
                LoadError::at(source, Pos::of_text(&text, &format!("\"{a}\"")), format!("action {} `{a}`: {e}", i + 1))
            })?;
            events.extend(more);
        }
        Ok((game, events))
    }
}
