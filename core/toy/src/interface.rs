//! High-Low on the engine's one game interface ([`engine_game`]): only what
//! the engine cannot know. The terminal's words, scenarios, the greedy bot,
//! the random-game check and reading a line back are the engine's defaults.

use std::sync::Arc;

use engine_game::{Journal, LogLine};
use engine_rules::{Builtins, LoadErrors, Source};

use crate::actions::Action;
use crate::error::GameError;
use crate::game::{Event, Game};
use crate::ruleset::{DEFAULT_RULESET, Ruleset};

impl engine_game::Rules for Ruleset {
    type Game = Game;

    fn load_source(source: Source) -> Result<Arc<Ruleset>, LoadErrors> {
        Ruleset::load_source(source)
    }

    fn about(&self) -> engine_game::About<'_> {
        let players = (self.rules.min_players, self.rules.max_players);
        engine_game::About { id: &self.id, name: &self.name, fingerprint: &self.fingerprint, players }
    }

    /// The cards by id (optional: a report then checks the cards its records name).
    fn cards_json(&self) -> serde_json::Value {
        let r = &self.rules;
        let card = |v: u32| serde_json::json!({ "id": format!("c{v}"), "name": v.to_string(), "value": v, "copies": r.copies });
        serde_json::json!({ "cards": (r.low..=r.high).map(card).collect::<Vec<_>>(), "hand": r.hand, "rounds": r.rounds })
    }
}

impl engine_game::Game for Game {
    type Rules = Ruleset;
    type Event = Event;

    const BUILTINS: &'static Builtins = &crate::files::BUILTINS;
    const TITLE: &'static str = "High-Low";
    const DEFAULT_RULESET: &'static str = DEFAULT_RULESET;

    fn start(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, GameError> {
        Game::new(Arc::clone(rs), players, seed)
    }

    fn rules(&self) -> &Arc<Ruleset> {
        &self.rs
    }

    /// Every point comes from a card played.
    fn scores(&self) -> Result<Vec<engine_game::Score>, GameError> {
        let score =
            |&total: &i32| engine_game::Score { total, breakdown: vec![("cards played".into(), total)], tie_break: 0 };
        Ok(Game::scores(self).iter().map(score).collect())
    }

    fn journal(&self) -> &Journal<Action, Event> {
        &self.journal
    }

    fn journal_mut(&mut self) -> &mut Journal<Action, Event> {
        &mut self.journal
    }

    fn action_text(&self, action: &Action) -> String {
        action.text(&self.rs)
    }

    fn view_json(&self, seat: Option<usize>) -> Result<serde_json::Value, GameError> {
        serde_json::to_value(self.view(seat)).map_err(|e| GameError::Setup(e.to_string()))
    }

    /// Every event is public (a drawn card is not named), so every seat reads the same lines.
    fn log_lines(&self, events: &[Event], _seat: Option<usize>) -> Vec<LogLine> {
        events.iter().map(|e| LogLine::plain(e.text.clone())).collect()
    }

    // ----- optional: what the engine's defaults cannot check or name -----

    /// Turns, not actions: an action of the ruleset's own and its choice are one turn.
    fn rounds(&self) -> u32 {
        self.turns().div_ceil(self.hands.len() as u32)
    }

    /// Every card in exactly one place, and every point earned by a card played or an action.
    fn invariant(&self) -> Result<(), String> {
        if self.census() != self.rs.deck() {
            return Err("a card is missing or doubled".into());
        }
        let earned = |s: usize| self.played[s].iter().map(|&(v, _)| i32::from(v)).sum::<i32>() + self.scripted[s];
        match (0..self.hands.len()).find(|&s| self.scores[s] != earned(s)) {
            Some(s) => Err(format!("seat {s}'s score is not the sum of its cards played and its actions' points")),
            None => Ok(()),
        }
    }

    /// The cards a seat played, with the round of each, for the report's card table.
    fn holdings(&self, seat: usize) -> Vec<engine_play::sim::Built> {
        let played = self.played.get(seat).map_or(&[][..], Vec::as_slice);
        let built = |&(v, round): &(u8, u32)| engine_play::sim::Built {
            id: crate::actions::card_id(v).into(),
            round,
            kind: None,
        };
        played.iter().map(built).collect()
    }

    /// The ruleset's schema beside the engine's scenario.
    fn schemas() -> Vec<engine_game::schema::FileSchema> {
        let mut schemas = vec![("ruleset", engine_game::schema::of::<crate::ruleset::RulesetFile>("High-Low ruleset"))];
        schemas.extend(engine_game::seeded::schemas::<Game>());
        schemas
    }
}
