//! High-Low on the engine's one game interface ([`engine_game`]): each method a
//! line or two into the module that holds the rule.

use std::path::Path;
use std::sync::Arc;

use engine_game::{Journal, Line, LogLine};
use engine_play::ActionView;
use engine_play::TurnGame;
use engine_play::bots::{Bot, RandomBot};
use engine_play::sim::{Built, game_seed};
use engine_rules::{Builtins, LoadErrors, Source};

use crate::actions::Action;
use crate::error::GameError;
use crate::game::{Event, Game};
use crate::ruleset::{DEFAULT_RULESET, Ruleset};
use crate::terminal;

impl engine_game::Rules for Ruleset {
    type Game = Game;

    fn load_source(source: Source) -> Result<Arc<Ruleset>, LoadErrors> {
        Ruleset::load_source(source)
    }

    fn about(&self) -> engine_game::About<'_> {
        let players = (self.rules.min_players, self.rules.max_players);
        engine_game::About { id: &self.id, name: &self.name, fingerprint: &self.fingerprint, players }
    }

    fn summary(&self) -> String {
        let r = &self.rules;
        let cards = self.deck().len();
        format!(
            "{} ({}), {cards} cards c{} to c{}, fingerprint {}",
            self.name, self.source, r.low, r.high, self.fingerprint
        )
    }

    fn diff(&self, other: &Ruleset) -> Vec<String> {
        let rules = engine_rules::diff::changes(&self.rules, &other.rules);
        rules.into_iter().map(|l| format!("rules.{l}")).collect()
    }

    fn cards_text(&self) -> Vec<String> {
        let r = &self.rules;
        vec![format!(
            "{} ({}): values {} to {}, {} of each, {} cards",
            self.name,
            self.id,
            r.low,
            r.high,
            r.copies,
            self.deck().len()
        )]
    }

    fn cards_json(&self) -> serde_json::Value {
        let r = &self.rules;
        let cards: Vec<serde_json::Value> = (r.low..=r.high)
            .map(
                |v| serde_json::json!({ "id": format!("c{v}"), "name": v.to_string(), "value": v, "copies": r.copies }),
            )
            .collect();
        serde_json::json!({ "cards": cards, "hand": r.hand, "rounds": r.rounds })
    }

    fn feature_names(&self) -> Vec<String> {
        crate::value::feature_names()
    }
}

impl engine_game::Game for Game {
    type Rules = Ruleset;
    type Event = Event;

    const BUILTINS: &'static Builtins = &crate::files::BUILTINS;
    const TITLE: &'static str = "High-Low";
    const DEFAULT_RULESET: &'static str = DEFAULT_RULESET;
    // Born with format 2: one atomic action per entry.
    const OLDEST_SAVED: u32 = 2;

    fn start(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, GameError> {
        Game::new(Arc::clone(rs), players, seed)
    }

    fn rules(&self) -> &Arc<Ruleset> {
        &self.rs
    }

    type Greedy = crate::bots::GreedyBot;

    fn apply(&mut self, action: Action) -> Result<Vec<Event>, GameError> {
        Game::apply(self, action)
    }

    fn apply_text(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        Game::apply_text(self, text)
    }

    /// Every point comes from a card played.
    fn scores(&self) -> Result<Vec<engine_game::Score>, GameError> {
        let score =
            |&total: &i32| engine_game::Score { total, breakdown: vec![("cards played".into(), total)], tie_break: 0 };
        Ok(Game::scores(self).iter().map(score).collect())
    }

    fn rounds(&self) -> u32 {
        self.turns().div_ceil(self.seats() as u32)
    }

    /// The cards a seat played, with the round of each.
    fn holdings(&self, seat: usize) -> Vec<Built> {
        let played = self.played.get(seat).map_or(&[][..], Vec::as_slice);
        played.iter().map(|&(v, round)| Built { id: crate::actions::card_id(v).into(), round, kind: None }).collect()
    }

    fn stalled(&self) -> bool {
        false
    }

    fn journal(&self) -> &Journal<Action, Event> {
        &self.journal
    }

    fn journal_mut(&mut self) -> &mut Journal<Action, Event> {
        &mut self.journal
    }

    fn action_text(&self, action: &Action) -> String {
        action.text()
    }

    fn apply_saved(&mut self, _version: u32, text: &str) -> Result<Vec<Event>, GameError> {
        Game::apply_text(self, text)
    }

    fn view_json(&self, seat: Option<usize>) -> Result<serde_json::Value, GameError> {
        serde_json::to_value(self.view(seat)).map_err(|e| GameError::Setup(e.to_string()))
    }

    fn legal_views(&self) -> Vec<ActionView> {
        Game::legal_views(self)
    }

    /// Every event is public (a drawn card is not named), so every seat reads the same lines.
    fn log_lines(&self, events: &[Event], _seat: Option<usize>) -> Vec<LogLine> {
        events.iter().map(|e| LogLine::plain(e.text.clone())).collect()
    }

    fn table_text(&self, viewer: Option<usize>) -> Vec<String> {
        terminal::table_text(self, viewer)
    }

    fn screen(&self, seat: usize, _seats: &[String], full: bool) -> Vec<Line> {
        terminal::screen(self, seat, full)
    }

    fn resolve(&self, input: &str) -> Result<String, String> {
        terminal::resolve(self, input)
    }

    fn hints(&self) -> Vec<String> {
        vec!["`c7` plays the 7, `x` draws (or passes)".into()]
    }

    fn help(&self) -> &'static str {
        terminal::HELP
    }

    fn end_text(&self, seat: usize, _seats: &[String]) -> Result<Vec<Line>, GameError> {
        Ok(terminal::end_text(self, seat))
    }

    /// The census (every card in exactly one place), a move for whoever is to move, and
    /// every point earned by a card played, after every action.
    fn check_random_game(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Result<u64, String> {
        let mut game = Game::new(Arc::clone(rs), players, seed).map_err(|e| e.to_string())?;
        let expected = rs.deck();
        let mut bot = RandomBot::new(game_seed(seed, 1));
        let mut actions = 0;
        loop {
            let earned = |s: usize| game.played[s].iter().map(|&(v, _)| i32::from(v)).sum::<i32>();
            let broken = [
                (game.census() != expected, "a card is missing or doubled"),
                (game.to_move().is_some() && game.legal().is_empty(), "the seat to move has no legal action"),
                ((0..players).any(|s| game.scores()[s] != earned(s)), "a score is not the sum of the cards played"),
            ];
            if let Some((_, why)) = broken.iter().find(|(b, _)| *b) {
                return Err(format!("{players} players, seed {seed}, after {actions} actions: {why}"));
            }
            if game.to_move().is_none() {
                return Ok(actions);
            }
            let a = bot.choose(&game, game.legal());
            game.play(a).map_err(|e| format!("{players} players, seed {seed}: {e}"))?;
            actions += 1;
        }
    }

    fn scenario(file: &Path, ruleset: Option<&str>, trace: bool) -> Result<engine_game::Scenario<Game>, Vec<String>> {
        crate::scenario::play(file, ruleset, trace)
    }

    fn schemas() -> Vec<engine_game::schema::FileSchema> {
        use engine_game::schema::of;
        vec![
            ("ruleset", of::<crate::ruleset::RulesetFile>("High-Low ruleset")),
            ("scenario", of::<crate::scenario::ScenarioFile>("High-Low scenario")),
        ]
    }
}
