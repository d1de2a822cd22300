//! A saved game: ruleset, players, seed and the actions played. Replaying it
//! gives the same game on any machine (the seed fixes every shuffle).

use std::sync::Arc;

use engine_rules::doc::TomlDoc;
use serde::{Deserialize, Serialize};

use crate::error::{LoadError, LoadErrors, Pos};
use crate::files::Source;
use crate::game::{Event, Game};
use crate::ruleset::Ruleset;

/// The format written today: one recorded atomic action per entry.
pub const SAVED_GAME_VERSION: u32 = 1;

/// A saved game (TOML).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame {
    /// Format version.
    pub version: u32,
    /// Ruleset id or path (a relative path is relative to the saved file).
    pub ruleset: String,
    /// Number of players.
    pub players: usize,
    /// Game seed.
    pub seed: u64,
    /// Who played each seat (`human`, `random`, `greedy`, `mcts:100`…), for information.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<String>,
    /// Every action answered, in order, one atomic action each, in the action notation.
    pub actions: Vec<String>,
}

impl SavedGame {
    /// A saved game of `game` so far: its recorded actions (see [`Game::record_actions`]).
    pub fn of(game: &Game, ruleset: &str, seed: u64, seats: Vec<String>) -> SavedGame {
        let rs = game.ruleset();
        SavedGame {
            version: SAVED_GAME_VERSION,
            ruleset: ruleset.to_owned(),
            players: game.num_players(),
            seed,
            seats,
            actions: game.recorded().iter().map(|a| a.text(rs)).collect(),
        }
    }

    /// Reads a saved game.
    pub fn parse(source: &Source, text: &str) -> Result<SavedGame, LoadError> {
        let doc = TomlDoc::parse(source.clone(), text.to_owned())?;
        let saved: SavedGame =
            doc.deserialize().map_err(|e| e.help("a saved game has version, ruleset, players, seed and actions"))?;
        if saved.version != SAVED_GAME_VERSION {
            return Err(doc
                .error("version", format!("saved-game format version {} is not one this program reads", saved.version))
                .help(format!("version {SAVED_GAME_VERSION} is read")));
        }
        Ok(saved)
    }

    /// The saved game as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Replays the game; `log` turns the event log on.
    pub fn replay(&self, source: &Source, log: bool) -> Result<(Game, Vec<Event>), LoadErrors> {
        let rs = Ruleset::load_relative(&self.ruleset, source)?;
        self.replay_with(rs, source, log)
    }

    /// Replays the game on an already loaded ruleset.
    pub fn replay_with(&self, rs: Arc<Ruleset>, source: &Source, log: bool) -> Result<(Game, Vec<Event>), LoadErrors> {
        let doc = TomlDoc::read(source).ok();
        let err = |m: String| LoadError::at(source, Pos::default(), m);
        let mut game = Game::new(rs, self.players, self.seed).map_err(|e| err(e.to_string()))?;
        game.log_events(log);
        game.record_actions(true);
        let mut events = game.take_events();
        for (i, a) in self.actions.iter().enumerate() {
            let more = game.apply_exact(a).map_err(|e| {
                let message = format!("action {} `{a}`: {e}", i + 1);
                doc.as_ref()
                    .map_or_else(|| err(message.clone()), |d| d.error(&format!("actions.{i}"), message.clone()))
                    .help("the saved game does not fit this ruleset: was the ruleset changed since it was saved?")
            })?;
            events.extend(more);
        }
        Ok((game, events))
    }
}
