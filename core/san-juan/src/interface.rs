//! San Juan on the engine's one game interface ([`engine_game`]): the ruleset's
//! face and the game's, each a line or two into the modules that hold the rule.

use std::path::Path;
use std::sync::Arc;

use engine_game::Game as _;
use engine_game::{Journal, Line, LogLine};
use engine_play::ActionView;
use engine_play::sim::Built;
use engine_rules::{Builtins, LoadErrors, Source};

use crate::actions::Action;
use crate::error::GameError;
use crate::game::{Decision, Event, Game};
use crate::ruleset::{DEFAULT_RULESET, Ruleset};
use crate::scenario::Scenario;
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

    fn base(&self) -> Option<&str> {
        self.base.as_deref()
    }

    fn summary(&self) -> String {
        let scripted = self.cards.cards.iter().filter(|c| c.script.is_some()).count();
        format!(
            "{} ({}), {} card types, {} cards, {scripted} scripts compiled, fingerprint {}",
            self.name,
            self.source,
            self.cards.len(),
            self.total_cards(),
            self.fingerprint
        )
    }

    fn warnings(&self) -> Vec<String> {
        self.warnings.iter().map(ToString::to_string).collect()
    }

    fn diff(&self, other: &Ruleset) -> Vec<String> {
        Ruleset::diff(self, other)
    }

    fn cards_text(&self) -> Vec<String> {
        let mut out = vec![format!("{} ({}): {} cards", self.name, self.id, self.total_cards())];
        let script = |c: &crate::cards::CardDef| c.script.as_ref().map(ToString::to_string).unwrap_or_default();
        let width = self.cards.cards.iter().map(|c| script(c).len()).max().unwrap_or(0).max("script".len());
        out.push(format!(
            "{:<18} {:<10} {:>4} {:>3} {:>6}  {:<width$}  text",
            "id", "kind", "cost", "vp", "copies", "script"
        ));
        for c in &self.cards.cards {
            let public = if c.public { " (public: anyone may build it)" } else { "" };
            out.push(format!(
                "{:<18} {:<10} {:>4} {:>3} {:>6}  {:<width$}  {}{public}",
                c.id,
                c.kind.as_str(),
                c.cost,
                c.vp,
                c.copies,
                script(c),
                c.text
            ));
        }
        out
    }

    fn cards_json(&self) -> serde_json::Value {
        let cards: Vec<serde_json::Value> = self
            .cards
            .cards
            .iter()
            .map(|c| {
                serde_json::json!({
                    "id": c.id.as_str(), "name": c.name, "kind": c.kind.as_str(), "cost": c.cost, "vp": c.vp,
                    "text": c.text, "good": c.good_name, "good_index": c.good,
                })
            })
            .collect();
        let roles: Vec<serde_json::Value> = crate::view::role_texts(self)
            .into_iter()
            .map(|(role, text)| serde_json::json!({ "role": role, "text": text }))
            .collect();
        serde_json::json!({ "cards": cards, "roles": roles })
    }

    fn profile_scripts(&self, profile: &Arc<engine_rules::profile::Profile>) -> bool {
        self.scripts.set_profile(Arc::clone(profile))
    }

    fn hook_profile(&self, profile: &engine_rules::profile::Profile) -> Vec<engine_rules::profile::HookRow> {
        self.scripts.hook_rows(profile.take_hooks())
    }

    fn schedule(&self) -> engine_play::value::Schedule {
        crate::value::SCHEDULE
    }

    fn feature_names(self: &Arc<Self>) -> Vec<String> {
        crate::value::feature_names(self)
    }

    fn tunables(&self) -> Vec<(String, i64)> {
        let mut out = engine_game::tuning::rule_integers(&self.rules);
        for c in &self.cards.cards {
            for (field, value) in card_numbers(c) {
                out.push((format!("card.{}.{field}", c.id), value));
            }
        }
        out
    }

    /// `rules.<key>…` writes the rule's key whole (`[rules]` merges key by key);
    /// `card.<id>.<field>` writes `[cards.<id>] <field>` (a card patch sets single fields).
    fn tuned_tables(&self, values: &[(String, i64)]) -> Result<toml::Table, String> {
        let mut out = toml::Table::new();
        for (path, to) in values {
            if path.starts_with("rules.") {
                engine_game::tuning::set_rule(&self.rules, &mut out, path, *to)?;
                continue;
            }
            let known = |p: &str| self.tunables().iter().any(|(k, _)| k == p);
            let parts: Vec<&str> = path.split('.').collect();
            let ["card", id, field] = parts[..] else {
                return Err(format!("`{path}` is not a number of this ruleset"));
            };
            if !known(path) {
                return Err(format!("`{path}` is not a number of this ruleset"));
            }
            let cards = out.entry("cards").or_insert_with(|| toml::Value::Table(toml::Table::new()));
            let card = cards
                .as_table_mut()
                .ok_or("`cards` is not a table")?
                .entry(id)
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            card.as_table_mut()
                .ok_or("a card patch is not a table")?
                .insert(field.to_owned(), toml::Value::Integer(*to));
        }
        Ok(out)
    }
}

/// A card's numbers a ruleset's `[cards.<id>]` patch may set, by field name.
fn card_numbers(c: &crate::cards::CardDef) -> [(&'static str, i64); 4] {
    [("cost", c.cost.into()), ("vp", c.vp.into()), ("copies", c.copies.into()), ("under_vp", c.under_vp.into())]
}

impl engine_game::Game for Game {
    type Rules = Ruleset;
    type Event = Event;

    const BUILTINS: &'static Builtins = &crate::files::BUILTINS;
    const TITLE: &'static str = "San Juan";
    const DEFAULT_RULESET: &'static str = DEFAULT_RULESET;
    const OLDEST_SAVED: u32 = 1;

    fn start(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, GameError> {
        Game::new(Arc::clone(rs), players, seed)
    }

    fn rules(&self) -> &Arc<Ruleset> {
        &self.rs
    }

    fn greedy() -> Box<dyn engine_play::bots::Bot<Self>> {
        Box::new(crate::bots::GreedyBot)
    }

    /// Searched: roles, buildings and a script's named options; payments, goods
    /// and card choices follow the greedy rules.
    /// The search docs/bots.md compares the default bot with: its blind spots are what it builds.
    const REFERENCE_BOT: &'static str = "paired-balance:100@build";
    const DECISION_KINDS: &'static [(&'static str, &'static str)] = &[
        ("role", "choosing a role"),
        ("build", "which building to build, or to pass"),
        ("choose", "a building's question"),
    ];

    fn decision_kind(&self) -> Option<&'static str> {
        match self.pending()? {
            Decision::Role { .. } => Some("role"),
            Decision::Build { .. } => Some("build"),
            Decision::Choose { .. } => Some("choose"),
            _ => None,
        }
    }

    fn apply(&mut self, action: Action) -> Result<Vec<Event>, GameError> {
        Game::apply(self, action)
    }

    fn apply_text(&mut self, text: &str) -> Result<Vec<Event>, GameError> {
        Game::apply_text(self, text)
    }

    fn scores(&self) -> Result<Vec<engine_game::Score>, GameError> {
        Game::scores(self)
    }

    /// The totals and winners without naming each part: a game's record needs
    /// no breakdown (its allocations were most of the record's cost).
    fn final_scores(&self) -> Result<(Vec<i32>, Vec<usize>), GameError> {
        let scores = (0..self.players.len()).map(|s| self.score_for_ranking(s)).collect::<Result<Vec<_>, _>>()?;
        Ok((scores.iter().map(|s| s.total).collect(), engine_game::score::winners_of(&scores)))
    }

    fn rounds(&self) -> u32 {
        self.round()
    }

    fn holdings(&self, seat: usize) -> Vec<Built> {
        let cards = &self.rules().cards;
        let city = &self.player(seat).city;
        city.iter().map(|x| Built { id: cards.record_id(x.card), round: x.built_round, kind: None }).collect()
    }

    fn stalled(&self) -> bool {
        Game::stalled(self)
    }

    fn journal(&self) -> &Journal<Action, Event> {
        &self.journal
    }

    fn journal_mut(&mut self) -> &mut Journal<Action, Event> {
        &mut self.journal
    }

    fn action_text(&self, action: &Action) -> String {
        action.text(&self.rules().cards)
    }

    fn apply_saved(&mut self, version: u32, text: &str) -> Result<Vec<Event>, GameError> {
        if version == 1 { self.apply_text(text) } else { self.apply_exact(text) }
    }

    fn view_json(&self, seat: Option<usize>) -> Result<serde_json::Value, GameError> {
        Ok(serde_json::to_value(self.view(seat)?).unwrap_or_default())
    }

    fn legal_views(&self) -> Vec<ActionView> {
        Game::legal_views(self)
    }

    fn why_not(&self, seat: usize) -> Vec<engine_game::view::WhyNot> {
        self.cannot_build(seat)
    }

    fn log_lines(&self, events: &[Event], seat: Option<usize>) -> Vec<LogLine> {
        let cards = &self.rules().cards;
        let line = |e: Event| LogLine { by: e.cause.map(|c| cards.id(c).to_owned()), text: e.text };
        match seat {
            Some(seat) => events.iter().filter_map(|e| e.seen_by(seat)).map(line).collect(),
            None => events.iter().cloned().map(line).collect(),
        }
    }

    fn table_text(&self, viewer: Option<usize>) -> Vec<String> {
        terminal::table_text(self, viewer)
    }

    fn screen(&self, seat: usize, seats: &[String], full: bool) -> Vec<Line> {
        terminal::screen(self, seat, seats, full)
    }

    fn resolve(&self, input: &str) -> Result<String, String> {
        terminal::resolve(self, input)
    }

    fn hints(&self) -> Vec<String> {
        terminal::hints(self)
    }

    fn undo_point(&self) -> bool {
        // Paying goes on with the building chosen before: one decision with it.
        !matches!(self.pending(), Some(Decision::Pay { .. }))
    }

    fn help(&self) -> &'static str {
        terminal::HELP
    }

    fn end_text(&self, seat: usize, seats: &[String]) -> Result<Vec<Line>, GameError> {
        terminal::end_text(self, seat, seats)
    }

    fn check_random_game(rs: &Arc<Ruleset>, players: usize, seed: u64) -> Result<u64, String> {
        crate::sim::check_random_game(rs, players, seed)
    }

    fn scenario(file: &Path, ruleset: Option<&str>, trace: bool) -> Result<engine_game::Scenario<Game>, Vec<String>> {
        let one = |e: crate::error::LoadError| vec![e.to_string()];
        let all = |e: LoadErrors| e.0.iter().map(ToString::to_string).collect::<Vec<_>>();
        let mut scenario = Scenario::load(file).map_err(one)?;
        if let Some(spec) = ruleset {
            scenario.file.ruleset = Some(spec.to_owned());
        }
        let mut lines = Vec::new();
        let game = if trace { traced(&scenario, &mut lines) } else { None };
        let (game, error) = match game {
            Some(game) => (game, None),
            None => {
                let rs = scenario.ruleset().map_err(all)?;
                scenario.play_to_error(rs).map_err(one)?
            }
        };
        let failures = match scenario.file.expect {
            Some(_) => {
                Some(scenario.check_run(&game, error.as_ref()).map_err(|e| vec![format!("checking [expect]: {e}")])?)
            }
            None => None,
        };
        let notes = error.iter().map(|(i, e)| format!("action {} failed as expected: {e}", i + 1)).collect();
        Ok(engine_game::Scenario {
            game,
            failures,
            description: scenario.file.description.clone(),
            notes,
            trace: lines,
        })
    }

    fn schemas() -> Vec<engine_game::schema::FileSchema> {
        use engine_game::schema::of;
        vec![
            ("ruleset", of::<crate::ruleset::RulesetFile>("San Juan ruleset")),
            ("cards", of::<crate::cards::CardSetFile>("San Juan card set")),
            ("scenario", of::<crate::scenario::ScenarioFile>("San Juan scenario")),
        ]
    }
}

/// Plays the scenario's actions one by one, keeping each one's events with the
/// building behind it; `None` when an action fails (the untraced run words it).
fn traced(scenario: &Scenario, lines: &mut Vec<String>) -> Option<Game> {
    let rs = scenario.ruleset().ok()?;
    let scripts = &rs.scripts;
    scripts.listen_to_prints(true);
    let played = (|| {
        let mut game = scenario.setup(Arc::clone(&rs)).ok()?;
        engine_game::text::printed_at_setup(scripts.take_prints(), lines);
        game.log_events(true);
        let cards = Arc::clone(&game.rules().cards);
        for (i, action) in scenario.file.actions.iter().enumerate() {
            lines.push(format!("action {} `{action}`:", i + 1));
            for e in game.apply_text(action).ok()? {
                // Name the cause unless the text already does.
                let name = e.cause.map(|c| cards.get(c).name.to_lowercase());
                match name {
                    Some(n) if !e.text.contains(&n) => lines.push(format!("  {}  [{n}]", e.text)),
                    _ => lines.push(format!("  {}", e.text)),
                }
            }
            lines.extend(scripts.take_prints().into_iter().map(|p| format!("  {p}")));
        }
        lines.push(String::new());
        Some(game)
    })();
    scripts.listen_to_prints(false);
    played
}
