//! The object-safe face of every game: a front end holds a `&dyn Kind` (a game
//! the registry knows), an `Arc<dyn AnyRules>` (a loaded ruleset) and a
//! `Box<dyn AnyGame>` (a game in progress), and never names a game. Each is
//! implemented once here for every [`Game`], so a game crate writes none of it.

use std::any::Any;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

use engine_play::sim::GameRecord;
use engine_play::value::ValueModel;
use engine_play::{ActionView, TurnGame};
use engine_rules::profile::Profile;
use engine_rules::{Builtins, LoadErrors, Source};

use crate::saved::{SavedGame, undo_to};
use crate::text::{Line, LogLine, Scenario};
use crate::{Explanation, Game, Models, Rules, run};

/// A game the registry knows: its names, its built-in files, and the ways in
/// (a ruleset, a saved game, a scenario).
pub trait Kind: Send + Sync {
    /// The id rulesets name the game with.
    fn id(&self) -> &'static str;
    /// Display name.
    fn title(&self) -> &'static str;
    /// The ruleset used when none is given.
    fn default_ruleset(&self) -> &'static str;
    /// The built-in rule files.
    fn builtins(&self) -> &'static Builtins;
    /// Loads a ruleset by id or path (relative to `from`'s folder when given).
    fn load(&self, spec: &str, from: Option<&Source>) -> Result<Arc<dyn AnyRules>, LoadErrors>;
    /// Reads a saved game (`text`, from `source`) without playing it.
    fn read_saved(&self, source: &Source, text: &str) -> Result<Saved, String>;
    /// Plays a saved game's entries on `rules` (with the log on when `log`): the
    /// game and what happened, as everyone may read it. A failing entry is named.
    fn replay(
        &self,
        saved: &Saved,
        rules: &Arc<dyn AnyRules>,
        source: &Source,
        log: bool,
    ) -> Result<(Box<dyn AnyGame>, Vec<LogLine>), String>;
    /// Loads and plays a scenario file (under `ruleset` if given); see [`Game::scenario`].
    fn scenario(
        &self,
        file: &Path,
        ruleset: Option<&str>,
        trace: bool,
    ) -> Result<Scenario<Box<dyn AnyGame>>, Vec<String>>;
    /// The JSON Schemas of the game's files, by kind; see [`Game::schemas`].
    fn schemas(&self) -> Vec<crate::schema::FileSchema>;
}

/// A saved game's header and entries, whichever game it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// Its format version.
    pub version: u32,
    /// The ruleset it names.
    pub ruleset: String,
    /// Players.
    pub players: usize,
    /// The deal's seed.
    pub seed: u64,
    /// Who played each seat.
    pub seats: Vec<String>,
    /// The entries.
    pub actions: Vec<String>,
}

/// [`Kind`] for the game `G`: `KindOf::<MyGame>::new()` is the registry's line.
pub struct KindOf<G>(PhantomData<fn() -> G>);

impl<G> KindOf<G> {
    /// The entry (a value with no data: it only names `G`).
    pub const fn new() -> Self {
        KindOf(PhantomData)
    }
}

impl<G> Default for KindOf<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// An error's words without the leading `error: ` a diagnostic starts with.
pub fn words(e: impl std::fmt::Display) -> String {
    e.to_string().trim_start_matches("error: ").to_owned()
}

impl<G: Game> Kind for KindOf<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn default_ruleset(&self) -> &'static str {
        G::DEFAULT_RULESET
    }

    fn builtins(&self) -> &'static Builtins {
        G::BUILTINS
    }

    fn load(&self, spec: &str, from: Option<&Source>) -> Result<Arc<dyn AnyRules>, LoadErrors> {
        let rs = G::Rules::load(spec, from)?;
        Ok(Arc::new(RulesOf::<G>(rs)))
    }

    fn read_saved(&self, source: &Source, text: &str) -> Result<Saved, String> {
        let s = SavedGame::<G>::parse(source, text).map_err(|e| e.to_string())?;
        Ok(Saved {
            version: s.version,
            ruleset: s.ruleset,
            players: s.players,
            seed: s.seed,
            seats: s.seats,
            actions: s.actions,
        })
    }

    fn replay(
        &self,
        saved: &Saved,
        rules: &Arc<dyn AnyRules>,
        source: &Source,
        log: bool,
    ) -> Result<(Box<dyn AnyGame>, Vec<LogLine>), String> {
        let rs = typed::<G>(rules.as_ref()).ok_or("the ruleset is for another game")?;
        let mut file = SavedGame::<G>::of_entries(saved.players, saved.seed, saved.actions.clone());
        file.version = saved.version;
        file.ruleset = saved.ruleset.clone();
        let (game, events) = file.replay_with(Arc::clone(rs), source, log).map_err(words)?;
        let lines = game.log_lines(&events, None);
        Ok((Box::new(game), lines))
    }

    fn scenario(
        &self,
        file: &Path,
        ruleset: Option<&str>,
        trace: bool,
    ) -> Result<Scenario<Box<dyn AnyGame>>, Vec<String>> {
        let s = G::scenario(file, ruleset, trace)?;
        Ok(Scenario {
            game: Box::new(s.game),
            failures: s.failures,
            description: s.description,
            notes: s.notes,
            trace: s.trace,
        })
    }

    fn schemas(&self) -> Vec<crate::schema::FileSchema> {
        G::schemas()
    }
}

/// `G`'s own ruleset behind a `dyn AnyRules`, if it is one of `G`'s.
pub fn typed<G: Game>(rules: &dyn AnyRules) -> Option<&Arc<G::Rules>> {
    rules.as_any().downcast_ref::<RulesOf<G>>().map(|r| &r.0)
}

/// A loaded ruleset of some game.
pub trait AnyRules: Send + Sync {
    /// The game's id.
    fn game_id(&self) -> &'static str;
    /// The game's display name.
    fn title(&self) -> &'static str;
    /// The ruleset's id.
    fn id(&self) -> &str;
    /// Its display name.
    fn name(&self) -> &str;
    /// Its content digest.
    fn fingerprint(&self) -> &str;
    /// Fewest and most players.
    fn players(&self) -> (usize, usize);
    /// The line `check` prints about its content.
    fn summary(&self) -> String;
    /// Problems that do not stop loading.
    fn warnings(&self) -> Vec<String>;
    /// The card table as `cards` prints it.
    fn cards_text(&self) -> Vec<String>;
    /// What everyone may know of the cards, for a page.
    fn cards_json(&self) -> serde_json::Value;
    /// See [`Rules::profile_scripts`].
    fn profile_scripts(&self, profile: &Arc<Profile>) -> bool;
    /// See [`Rules::hook_profile`].
    fn hook_profile(&self, profile: &Profile) -> Vec<engine_rules::profile::HookRow>;
    /// What differs from this ruleset to `other`; refused across games.
    fn diff(&self, other: &dyn AnyRules) -> Result<Vec<String>, String>;
    /// Learns the balance bot's model by self-play, from `start`'s weights
    /// when given ([`Models::of`] keeps it).
    fn learn_model(&self, start: Option<&ValueModel>) -> Result<ValueModel, String>;
    /// The built-in ruleset this one is a change of, loaded ([`Rules::base`]);
    /// `None` for a built-in ruleset or a change that changes nothing.
    fn base(&self) -> Result<Option<Arc<dyn AnyRules>>, String>;
    /// The names of the balance model's features (a model learned before must have these).
    fn feature_names(&self) -> Vec<String>;
    /// See [`Rules::tunables`].
    fn tunables(&self) -> Vec<(String, i64)>;
    /// See [`Rules::tuned_tables`].
    fn tuned_tables(&self, values: &[(String, i64)]) -> Result<toml::Table, String>;
    /// A new game of `players` dealt from `seed`.
    fn start(&self, players: usize, seed: u64) -> Result<Box<dyn AnyGame>, String>;
    /// Refuses a bot name this game cannot seat.
    fn check_bot(&self, name: &str) -> Result<(), String>;
    /// The game's [`crate::Game::REFERENCE_BOT`].
    fn reference_bot(&self) -> &'static str;
    /// Game `index` of a run between `bots` (a balance bot's model from `models`);
    /// with `scores_by_round`, its record carries every seat's points after each round.
    fn play_one(
        &self,
        bots: &[String],
        run_seed: u64,
        index: u64,
        scores_by_round: bool,
        models: &Models,
    ) -> Result<GameRecord, String>;
    /// Game `index` of a run, also as a saved game naming `ruleset`.
    fn play_saved(
        &self,
        bots: &[String],
        run_seed: u64,
        index: u64,
        ruleset: &str,
        scores_by_round: bool,
        models: &Models,
    ) -> Result<(GameRecord, String), String>;
    /// One random game with every invariant checked after each action.
    fn check_random_game(&self, players: usize, seed: u64) -> Result<u64, String>;
    /// For [`typed`].
    fn as_any(&self) -> &dyn Any;
}

/// `G`'s ruleset as an [`AnyRules`].
pub struct RulesOf<G: Game>(pub Arc<G::Rules>);

impl<G: Game> AnyRules for RulesOf<G> {
    fn game_id(&self) -> &'static str {
        G::ID
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn id(&self) -> &str {
        self.0.id()
    }

    fn name(&self) -> &str {
        self.0.name()
    }

    fn fingerprint(&self) -> &str {
        self.0.fingerprint()
    }

    fn players(&self) -> (usize, usize) {
        self.0.players()
    }

    fn summary(&self) -> String {
        self.0.summary()
    }

    fn warnings(&self) -> Vec<String> {
        self.0.warnings()
    }

    fn cards_text(&self) -> Vec<String> {
        self.0.cards_text()
    }

    fn cards_json(&self) -> serde_json::Value {
        self.0.cards_json()
    }

    fn diff(&self, other: &dyn AnyRules) -> Result<Vec<String>, String> {
        let other = typed::<G>(other).ok_or_else(|| {
            format!("`{}` is a ruleset for {}, `{}` for {}", self.id(), G::TITLE, other.id(), other.title())
        })?;
        Ok(self.0.diff(other))
    }

    fn profile_scripts(&self, profile: &Arc<Profile>) -> bool {
        self.0.profile_scripts(profile)
    }

    fn hook_profile(&self, profile: &Profile) -> Vec<engine_rules::profile::HookRow> {
        self.0.hook_profile(profile)
    }

    fn learn_model(&self, start: Option<&ValueModel>) -> Result<ValueModel, String> {
        self.0.learn_model(start)
    }

    fn base(&self) -> Result<Option<Arc<dyn AnyRules>>, String> {
        Ok(self.0.base_rules()?.map(|b| Arc::new(RulesOf::<G>(b)) as Arc<dyn AnyRules>))
    }

    fn feature_names(&self) -> Vec<String> {
        self.0.feature_names()
    }

    fn tunables(&self) -> Vec<(String, i64)> {
        self.0.tunables()
    }

    fn tuned_tables(&self, values: &[(String, i64)]) -> Result<toml::Table, String> {
        self.0.tuned_tables(values)
    }

    fn start(&self, players: usize, seed: u64) -> Result<Box<dyn AnyGame>, String> {
        let game = G::start(&self.0, players, seed).map_err(words)?;
        Ok(Box::new(game))
    }

    fn reference_bot(&self) -> &'static str {
        G::REFERENCE_BOT
    }

    fn check_bot(&self, name: &str) -> Result<(), String> {
        // A nudged balance bot names features of this ruleset's model, a limited
        // search the game's kinds of decision: checked now, not at its first move.
        match engine_play::bots::BotSpec::parse(name)? {
            engine_play::bots::BotSpec::Balance { nudges, .. } => {
                let features = self.0.feature_names();
                for n in &nudges {
                    engine_play::value::feature_index(&features, &n.feature, self.0.id())?;
                }
            }
            engine_play::bots::BotSpec::Limited { kinds, .. } => {
                crate::bots::decision_kinds::<G>(name, &kinds)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn play_one(
        &self,
        bots: &[String],
        run_seed: u64,
        index: u64,
        scores_by_round: bool,
        models: &Models,
    ) -> Result<GameRecord, String> {
        let keep = run::Keep { actions: false, scores_by_round };
        run::play_with::<G>(&self.0, bots, run_seed, index, keep, models).map(|(record, _)| record)
    }

    fn play_saved(
        &self,
        bots: &[String],
        run_seed: u64,
        index: u64,
        ruleset: &str,
        scores_by_round: bool,
        models: &Models,
    ) -> Result<(GameRecord, String), String> {
        let keep = run::Keep { actions: true, scores_by_round };
        let (record, game) = run::play_with::<G>(&self.0, bots, run_seed, index, keep, models)?;
        let saved = SavedGame::<G>::of(&game, ruleset, record.seed, bots.to_vec());
        Ok((record, saved.to_toml()))
    }

    fn check_random_game(&self, players: usize, seed: u64) -> Result<u64, String> {
        G::check_random_game(&self.0, players, seed)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Why a typed line was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not legal or not understood: nothing changed, the person may try again.
    Refused(String),
    /// The game failed (a script's error): the game stands where it failed.
    Failed(String),
}

/// What one answer did, as each seat may read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Per seat, the lines it may read.
    pub seats: Vec<Vec<LogLine>>,
}

/// A game in progress, of some game.
pub trait AnyGame: Send + Sync {
    /// The game's id.
    fn game_id(&self) -> &'static str;
    /// The game's display name.
    fn title(&self) -> &'static str;
    /// Its ruleset.
    fn rules(&self) -> Arc<dyn AnyRules>;
    /// Seats at the table.
    fn seats(&self) -> usize;
    /// The seat that must decide, if any.
    fn to_move(&self) -> Option<usize>;
    /// The game has ended.
    fn over(&self) -> bool;
    /// What `seat` may see (`None`: everything), as the game's view JSON.
    fn view(&self, seat: Option<usize>) -> Result<serde_json::Value, String>;
    /// The legal answers of the seat to move.
    fn legal(&self) -> Vec<ActionView>;
    /// The cards `seat` cannot play now and why (empty unless it decides now).
    fn why_not(&self, seat: usize) -> Vec<crate::view::WhyNot>;
    /// Applies the legal answer numbered `id` exactly.
    fn play(&mut self, id: usize) -> Result<Played, String>;
    /// Applies a line typed in the notation, all or nothing.
    fn play_text(&mut self, text: &str) -> Result<Played, Refusal>;
    /// The number of the legal answer a bot named `bot` (seeded) would choose
    /// (a balance bot's model from `models`).
    fn bot_choice(&self, bot: &str, seed: u64, models: &Models) -> Result<usize, String>;
    /// [`AnyGame::bot_choice`] with why: the same answer, and the bot's best
    /// options with its values for them ([`crate::explain`]). It names the
    /// bot's options, and so its hand: for whoever may see that.
    fn bot_explained_choice(&self, bot: &str, seed: u64, models: &Models) -> Result<(usize, Explanation), String>;
    /// The game as a saved file naming `ruleset`.
    fn save(&self, ruleset: &str, seed: u64, seats: &[String]) -> String;
    /// Saved entries so far.
    fn saved_len(&self) -> usize;
    /// The game after its first `entries` saved entries, with what `seat` has
    /// not seen dealt again from `fresh` (an undo that cannot peek).
    fn undo_to(&self, seed: u64, entries: usize, seat: usize, fresh: u64) -> Result<Box<dyn AnyGame>, String>;
    /// Deals again, from `seed`, everything none of `seats` has seen, and
    /// records it (a saved entry `redeal …`); the seat to move must be one of them.
    fn redeal(&mut self, seats: &[usize], seed: u64) -> Result<(), String>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// A game `seat` cannot tell from this one: what it has not seen dealt again from `seed`.
    fn dealt_again(&self, seat: usize, seed: u64) -> Box<dyn AnyGame>;
    /// Once over: its record (`names`: who played each seat), game 0 of run `seed`.
    fn record(&self, seed: u64, names: &[String]) -> Option<GameRecord>;
    /// Every seat's score with its breakdown (JSON).
    fn scores(&self) -> Result<serde_json::Value, String>;
    /// Once over: the scores with the winners (public then).
    fn final_scores(&self) -> Option<serde_json::Value>;
    /// Each seat's score with its parts, a line each.
    fn score_lines(&self) -> Result<Vec<String>, String>;
    /// Turns the event log on for [`AnyGame::play`]'s lines.
    fn log_events(&mut self, on: bool);
    /// Keeps every atomic action applied (for saving).
    fn record_actions(&mut self, on: bool);
    /// See [`Game::table_text`].
    fn table_text(&self, viewer: Option<usize>) -> Vec<String>;
    /// See [`Game::screen`].
    fn screen(&self, seat: usize, seats: &[String], full: bool) -> Vec<Line>;
    /// See [`Game::resolve`].
    fn resolve(&self, input: &str) -> Result<String, String>;
    /// See [`Game::hints`].
    fn hints(&self) -> Vec<String>;
    /// See [`Game::help`].
    fn help(&self) -> &'static str;
    /// See [`Game::intro`].
    fn intro(&self) -> Vec<String>;
    /// See [`Game::undo_point`].
    fn undo_point(&self) -> bool;
    /// Applies one entry of a saved file of format `version` (a re-deal included).
    fn play_saved(&mut self, version: u32, entry: &str) -> Result<(), String>;
    /// See [`Game::end_text`].
    fn end_text(&self, seat: usize, seats: &[String]) -> Result<Vec<Line>, String>;
    /// For typed access by a test or a game's own front end.
    fn as_any(&self) -> &dyn Any;
}

impl<G: Game> AnyGame for G {
    fn game_id(&self) -> &'static str {
        G::ID
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn rules(&self) -> Arc<dyn AnyRules> {
        Arc::new(RulesOf::<G>(Arc::clone(Game::rules(self))))
    }

    fn seats(&self) -> usize {
        TurnGame::seats(self)
    }

    fn to_move(&self) -> Option<usize> {
        TurnGame::to_move(self)
    }

    fn over(&self) -> bool {
        TurnGame::to_move(self).is_none()
    }

    fn view(&self, seat: Option<usize>) -> Result<serde_json::Value, String> {
        self.view_json(seat).map_err(|e| e.to_string())
    }

    fn legal(&self) -> Vec<ActionView> {
        self.legal_views()
    }

    fn why_not(&self, seat: usize) -> Vec<crate::view::WhyNot> {
        if TurnGame::to_move(self) == Some(seat) { Game::why_not(self, seat) } else { Vec::new() }
    }

    fn play(&mut self, id: usize) -> Result<Played, String> {
        let action = TurnGame::legal(self).get(id).copied().ok_or_else(|| {
            let n = TurnGame::legal(self).len();
            format!("there is no legal answer {id}: they are numbered 0 to {}", n.saturating_sub(1))
        })?;
        let events = Game::apply(self, action).map_err(|e| e.to_string())?;
        Ok(played(self, &events))
    }

    fn play_text(&mut self, text: &str) -> Result<Played, Refusal> {
        // On a copy: a line refused halfway leaves the game as it was.
        let mut trial = self.clone();
        match trial.apply_text(text) {
            Ok(events) => {
                *self = trial;
                Ok(played(self, &events))
            }
            Err(e) if e.refused() => Err(Refusal::Refused(e.to_string())),
            Err(e) => {
                *self = trial;
                Err(Refusal::Failed(e.to_string()))
            }
        }
    }

    fn bot_choice(&self, bot: &str, seed: u64, models: &Models) -> Result<usize, String> {
        run::bot_choice(self, bot, seed, models)
    }

    fn bot_explained_choice(&self, bot: &str, seed: u64, models: &Models) -> Result<(usize, Explanation), String> {
        crate::explain::explained_choice(self, bot, seed, models)
    }

    fn save(&self, ruleset: &str, seed: u64, seats: &[String]) -> String {
        SavedGame::<G>::of(self, ruleset, seed, seats.to_vec()).to_toml()
    }

    fn saved_len(&self) -> usize {
        Game::saved_len(self)
    }

    fn undo_to(&self, seed: u64, entries: usize, seat: usize, fresh: u64) -> Result<Box<dyn AnyGame>, String> {
        let back = undo_to(self, Arc::clone(Game::rules(self)), seed, entries, seat, fresh)?;
        Ok(Box::new(back))
    }

    fn redeal(&mut self, seats: &[usize], seed: u64) -> Result<(), String> {
        Game::redeal(self, seats, seed).map_err(|e| e.to_string())
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn dealt_again(&self, seat: usize, seed: u64) -> Box<dyn AnyGame> {
        Box::new(self.determinize(seat, seed))
    }

    fn record(&self, seed: u64, names: &[String]) -> Option<GameRecord> {
        if !AnyGame::over(self) {
            return None;
        }
        run::record_of(self, names, seed, 0, seed).ok()
    }

    fn scores(&self) -> Result<serde_json::Value, String> {
        self.scores_json().map_err(|e| e.to_string())
    }

    fn final_scores(&self) -> Option<serde_json::Value> {
        if !AnyGame::over(self) {
            return None;
        }
        let mut v = self.scores_json().ok()?;
        v["winners"] = serde_json::to_value(self.final_scores().ok()?.1).ok()?;
        Some(v)
    }

    fn score_lines(&self) -> Result<Vec<String>, String> {
        Game::score_lines(self).map_err(|e| e.to_string())
    }

    fn log_events(&mut self, on: bool) {
        Game::log_events(self, on);
    }

    fn record_actions(&mut self, on: bool) {
        Game::record_actions(self, on);
    }

    fn table_text(&self, viewer: Option<usize>) -> Vec<String> {
        Game::table_text(self, viewer)
    }

    fn screen(&self, seat: usize, seats: &[String], full: bool) -> Vec<Line> {
        Game::screen(self, seat, seats, full)
    }

    fn resolve(&self, input: &str) -> Result<String, String> {
        Game::resolve(self, input)
    }

    fn hints(&self) -> Vec<String> {
        Game::hints(self)
    }

    fn help(&self) -> &'static str {
        Game::help(self)
    }

    fn intro(&self) -> Vec<String> {
        Game::intro(self)
    }

    fn undo_point(&self) -> bool {
        Game::undo_point(self)
    }

    fn play_saved(&mut self, version: u32, entry: &str) -> Result<(), String> {
        let applied = match crate::saved::Redeal::parse(entry) {
            Some((seats, seed)) => Game::redeal(self, &seats, seed),
            None => self.apply_saved(version, entry).map(|_| ()),
        };
        applied.map_err(|e| e.to_string())
    }

    fn end_text(&self, seat: usize, seats: &[String]) -> Result<Vec<Line>, String> {
        Game::end_text(self, seat, seats).map_err(|e| e.to_string())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Each seat's lines of `events`.
fn played<G: Game>(game: &G, events: &[G::Event]) -> Played {
    Played { seats: (0..TurnGame::seats(game)).map(|s| game.log_lines(events, Some(s))).collect() }
}
