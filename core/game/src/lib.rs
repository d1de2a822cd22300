//! The one game interface. A game crate implements [`Game`] for its state and
//! [`Rules`] for its loaded ruleset, once; everything else is generic: the
//! bookkeeping every game embeds ([`journal`]), the standard bots ([`bots`])
//! and their learned models ([`models`]), the runner that plays bot games into
//! records ([`run`]), a bot's decision explained ([`explain`]), saved games
//! and undo ([`saved`]), what every game's scenario files share
//! ([`scenario`]), and the object-safe face ([`any`])
//! through which the command line and the web server reach every game by its
//! entry in a [`Registry`].
//!
//! The decision interface bots and searches need ([`engine_play::TurnGame`],
//! [`engine_play::Determinize`]) stays in `engine-play`; this crate adds what a
//! front end, a record and a saved file need, and nothing names a game.
#![warn(missing_docs)]

pub mod any;
pub mod bots;
pub mod doc_check;
pub mod explain;
pub mod explain_check;
pub mod journal;
pub mod models;
pub mod registry;
pub mod run;
pub mod saved;
pub mod scenario;
pub mod schema;
pub mod score;
pub mod seeded;
pub mod terminal;
pub mod text;
pub mod tuning;
pub mod view;

use std::path::Path;
use std::sync::Arc;

use engine_play::ActionView;
use engine_play::bots::{Bot, Mcts, SearchBot};
use engine_play::sim::Built;
use engine_play::value::{Features, ValueModel};
use engine_play::{Determinize, TurnGame};
use engine_rules::error::GameError;
use engine_rules::profile::Profile;
use engine_rules::{Builtins, LoadErrors, Source};

pub use any::{AnyGame, AnyRules, Kind, KindOf};
pub use explain::Explanation;
pub use journal::Journal;
pub use models::Models;
pub use registry::Registry;
pub use score::Score;
pub use text::{Line, LogLine, Scenario, Style};

/// What names a loaded ruleset and who may play it.
#[derive(Clone, Copy, Debug)]
pub struct About<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its display name.
    pub name: &'a str,
    /// The digest of its content (rules, cards, scripts).
    pub fingerprint: &'a str,
    /// Fewest and most players.
    pub players: (usize, usize),
}

/// A game's loaded ruleset, as every front end needs it.
pub trait Rules: Send + Sync + Sized + 'static {
    /// The game it is a ruleset of.
    type Game: Game<Rules = Self>;
    /// Loads the ruleset in `source`: its `extends` chain read once, merged, checked, built.
    fn load_source(source: Source) -> Result<Arc<Self>, LoadErrors>;
    /// Loads a ruleset by id or path; a relative path is relative to `from`'s folder when given.
    fn load(spec: &str, from: Option<&Source>) -> Result<Arc<Self>, LoadErrors> {
        Self::load_source(engine_rules::chain::resolve_spec(spec, from, <Self::Game as Game>::BUILTINS)?)
    }
    /// Its id, name, fingerprint and player counts.
    fn about(&self) -> About<'_>;
    /// Its id.
    fn id(&self) -> &str {
        self.about().id
    }
    /// Its display name.
    fn name(&self) -> &str {
        self.about().name
    }
    /// The digest of its content (rules, cards, scripts).
    fn fingerprint(&self) -> &str {
        self.about().fingerprint
    }
    /// Fewest and most players.
    fn players(&self) -> (usize, usize) {
        self.about().players
    }
    /// `name (source), N card types, …, fingerprint F`: the line `check` prints;
    /// by default its name, id and fingerprint.
    fn summary(&self) -> String {
        format!("{} ({}), fingerprint {}", self.name(), self.id(), self.fingerprint())
    }
    /// Problems that do not stop loading, rendered.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
    /// What differs from this ruleset to `other`, a line each. By default only
    /// whether they differ at all (their fingerprints), for a game that names no keys.
    fn diff(&self, other: &Self) -> Vec<String> {
        let (a, b) = (self.fingerprint(), other.fingerprint());
        if a == b { Vec::new() } else { vec![format!("the content differs (fingerprint {a} against {b})")] }
    }
    /// The card table as `cards` prints it; by default the summary line.
    fn cards_text(&self) -> Vec<String> {
        vec![self.summary()]
    }
    /// What everyone may know of the cards (ids, names, costs, texts), for a
    /// page; by default the ruleset's id, name and player counts.
    fn cards_json(&self) -> serde_json::Value {
        let (fewest, most) = self.players();
        serde_json::json!({ "id": self.id(), "name": self.name(), "players": [fewest, most] })
    }
    /// Times the ruleset's script calls into `profile` while it is on (`bench`);
    /// false when it has no scripts or has a profile already.
    fn profile_scripts(&self, profile: &Arc<Profile>) -> bool {
        let _ = profile;
        false
    }
    /// The hooks `profile` timed since it was last asked, in words (what
    /// each reads, whether its answer can be remembered), most expensive first.
    fn hook_profile(&self, profile: &Profile) -> Vec<engine_rules::profile::HookRow> {
        let _ = profile;
        Vec::new()
    }
    /// Learns the balance bot's model by self-play (deterministic: seeded by the
    /// fingerprint), from the largest player count down; from `start`'s weights
    /// when given (the model of [`Rules::base`]). A [`Models`] cache calls it
    /// once per content.
    fn learn_model(self: &Arc<Self>, start: Option<&ValueModel>) -> Result<ValueModel, String> {
        let (fewest, most) = self.players();
        models::learn::<Self::Game>(self, (fewest..=most).rev().collect(), self.schedule(), start)
    }
    /// The id of the built-in ruleset this one is a change of: the nearest
    /// built-in ruleset along its `extends` chain. `None` for a built-in
    /// ruleset itself (its model is learned from the rules of thumb up).
    fn base(&self) -> Option<&str> {
        None
    }
    /// [`Rules::base`] loaded: `None` for a built-in ruleset, and for a change
    /// whose content is the base's (its model is the base's own).
    fn base_rules(&self) -> Result<Option<Arc<Self>>, String> {
        let Some(id) = self.base() else { return Ok(None) };
        let base = Self::load(id, None)
            .map_err(|e| format!("the ruleset {} stands on `{id}`, which does not load: {e}", self.id()))?;
        Ok((base.fingerprint() != self.fingerprint()).then_some(base))
    }
    /// How [`Rules::learn_model`] plays: the engine's default unless the game learns longer.
    fn schedule(&self) -> engine_play::value::Schedule {
        engine_play::value::Schedule::default()
    }
    /// The names of the balance model's features for this ruleset: a model learned
    /// before fits only with these. By default a game's own names, read from a
    /// game dealt at the fewest players (none when it cannot be dealt).
    fn feature_names(self: &Arc<Self>) -> Vec<String> {
        Self::Game::start(self, self.players().0, 0).map(|g| g.feature_names()).unwrap_or_default()
    }
    /// The integer numbers `tune` may change, each by its key path
    /// (`rules.hand_limit`; [`engine_rules::keys`]) with its value here. None by default.
    fn tunables(&self) -> Vec<(String, i64)> {
        Vec::new()
    }
    /// The tables of a ruleset file that `extends` this one and sets each
    /// path of `values` (paths of [`Rules::tunables`]) to its number, and
    /// nothing else: what `tune` writes beside `id`, `name` and `extends`.
    fn tuned_tables(&self, values: &[(String, i64)]) -> Result<toml::Table, String> {
        match values.first() {
            None => Ok(toml::Table::new()),
            Some((path, _)) => Err(format!("`{path}`: this game names none of its numbers for tuning")),
        }
    }
}

/// A game's state: one crate implements it once, and records, saved games,
/// bots, the command line and the web table follow.
pub trait Game: TurnGame<Error = GameError> + Determinize + Features + Send + Sync + 'static {
    /// Its loaded ruleset.
    type Rules: Rules;
    /// One thing that happened, as the game logs it.
    type Event;

    /// The built-in rule files.
    const BUILTINS: &'static Builtins;
    /// The id rulesets name the game with (`game = "…"`), and records carry.
    const ID: &'static str = Self::BUILTINS.game;
    /// Display name, for titles (the id when not given).
    const TITLE: &'static str = Self::ID;
    /// The ruleset `play` uses when none is given.
    const DEFAULT_RULESET: &'static str;
    /// The oldest saved-game format the game reads (1: lines as typed, 2: atomic
    /// actions, where a new game starts).
    const OLDEST_SAVED: u32 = 2;

    // ----- setup and bots -------------------------------------------------

    /// A new game of `players`, dealt from `seed`.
    fn start(rs: &Arc<Self::Rules>, players: usize, seed: u64) -> Result<Self, GameError>;
    /// The ruleset it plays.
    fn rules(&self) -> &Arc<Self::Rules>;
    /// True at the decisions the tree search (`mcts:N`) searches: those that shape
    /// the game, the decisions of one of [`Game::DECISION_KINDS`]; every one
    /// for a game that names no kinds.
    fn searched(&self) -> bool {
        Self::DECISION_KINDS.is_empty() || self.decision_kind().is_some()
    }
    /// The kinds of decision the search searches, each name and what is
    /// decided; a search can be limited to some of them (`paired-balance:N@KIND`).
    const DECISION_KINDS: &'static [(&'static str, &'static str)] = &[];
    /// The stronger player the default bot's built shares are checked against
    /// (`report --check-bot`): a search whose playouts are the default bot's,
    /// limited to the decisions where its judgement shows.
    const REFERENCE_BOT: &'static str = "paired-balance:100";
    /// The kind of the pending decision (a name in [`Game::DECISION_KINDS`]),
    /// `None` for a decision of none of them (not searched).
    fn decision_kind(&self) -> Option<&'static str> {
        None
    }
    /// The tree search's settings for `seed` and `iterations` playouts per move.
    fn mcts(seed: u64, iterations: u32) -> Mcts {
        Mcts::new(seed, iterations)
    }
    /// The game's rules of thumb as a bot (`greedy`): also what answers the
    /// decisions the tree search leaves alone, and plays out every game it
    /// samples. By default [`bots::OnePly`]: the answer that gains the seat
    /// the most points at once. [`bots::make`] builds the other bots.
    fn greedy() -> Box<dyn Bot<Self>> {
        Box::new(bots::OnePly)
    }
    /// The game's tree search (`mcts:N`): [`Game::mcts`] where [`Game::searched`] holds,
    /// the greedy rules elsewhere and in its playouts.
    fn search(seed: u64, iterations: u32) -> Box<dyn Bot<Self>> {
        Box::new(SearchBot::new(Self::mcts(seed, iterations), Self::greedy(), Self::searched))
    }

    // ----- playing --------------------------------------------------------

    /// Applies a legal action and returns what happened: by default
    /// [`TurnGame::play`] and the events its journal kept (so `play` must not
    /// call this default back).
    fn apply(&mut self, action: Self::Action) -> Result<Vec<Self::Event>, GameError> {
        self.play(action)?;
        Ok(self.take_events())
    }
    /// Applies a line typed in the notation (several steps at once allowed). By
    /// default the legal action written so ([`Game::action_text`], spaces aside).
    fn apply_text(&mut self, text: &str) -> Result<Vec<Self::Event>, GameError> {
        let action = terminal::legal_written(self, text)?;
        self.apply(action)
    }

    // ----- the record of a finished game -----------------------------------

    /// Every seat's score now (the final one once the game is over), with its parts and tie-break.
    fn scores(&self) -> Result<Vec<Score>, GameError>;
    /// Final score per seat and the winning seats (most points, then the tie-break).
    fn final_scores(&self) -> Result<(Vec<i32>, Vec<usize>), GameError> {
        let scores = self.scores()?;
        Ok((scores.iter().map(|s| s.total).collect(), score::winners_of(&scores)))
    }
    /// Rounds (or turns) played, the one in progress included: it grows as a
    /// round begins, which is when a run tracking scores takes each seat's
    /// points. By default actions per seat, rounded up.
    fn rounds(&self) -> u32 {
        self.actions_applied().div_ceil(self.seats().max(1) as u64) as u32
    }
    /// What `seat` holds at the end, with the round it got each, for per-card
    /// statistics; none by default (the report then has no card table).
    fn holdings(&self, seat: usize) -> Vec<Built> {
        let _ = seat;
        Vec::new()
    }
    /// Actions applied, automatic ones included.
    fn actions_applied(&self) -> u64 {
        self.journal().actions_applied()
    }
    /// True when the game ended by a safety limit rather than by its rules.
    fn stalled(&self) -> bool {
        false
    }

    // ----- saving ---------------------------------------------------------

    /// The game's bookkeeping: its event log, recorded actions, re-deals and count of actions.
    fn journal(&self) -> &Journal<Self::Action, Self::Event>;
    /// The same, to change.
    fn journal_mut(&mut self) -> &mut Journal<Self::Action, Self::Event>;
    /// An action in the notation, as a saved game holds it.
    fn action_text(&self, action: &Self::Action) -> String;
    /// Keeps (or stops keeping) every atomic action applied.
    fn record_actions(&mut self, on: bool) {
        self.journal_mut().record_actions(on);
    }
    /// The saved entries so far, in the notation (re-deals in their places).
    fn recorded_texts(&self) -> Vec<String> {
        self.journal().saved_texts(|a| self.action_text(a))
    }
    /// The number of saved entries so far.
    fn saved_len(&self) -> usize {
        self.journal().saved_len()
    }
    /// Keeps (or stops keeping) events for [`Game::take_events`].
    fn log_events(&mut self, on: bool) {
        self.journal_mut().log_events(on);
    }
    /// The events kept since the last call.
    fn take_events(&mut self) -> Vec<Self::Event> {
        self.journal_mut().take_events()
    }
    /// Applies one saved entry of a file of format `version` (by default as typed).
    fn apply_saved(&mut self, version: u32, text: &str) -> Result<Vec<Self::Event>, GameError> {
        let _ = version;
        self.apply_text(text)
    }
    /// Deals again, from `seed`, everything none of `seats` has seen (as
    /// [`Determinize::determinize_for`] does) and records it: what an undo does
    /// (for its seat) so that taking back a draw shows nothing of the face-down
    /// cards. The journal (log, record, re-deals, count) goes over to the new deal.
    fn redeal(&mut self, seats: &[usize], seed: u64) -> Result<(), GameError> {
        self.may_redeal(seats)?;
        let mut dealt = self.determinize_for(engine_play::Seats::of(seats), seed);
        dealt.journal_mut().redealt(self.journal_mut(), seats, seed);
        *self = dealt;
        Ok(())
    }
    /// Refuses a re-deal for `seats` now: no seats or no such seat, the game
    /// is over, or the seat to move is not one of `seats`.
    ///
    /// An undo writes a re-deal for the seat that takes its decision back,
    /// with that decision pending. A re-deal for another seat would deal the
    /// mover's own hand again under a pending decision whose legal answers
    /// name the cards it held (a saved file's `redeal 1 …` between seat 0's
    /// `role builder` and its `build` panicked): no program writes one, so a
    /// file that has one is refused at that entry rather than played on
    /// answers that no longer fit the cards.
    fn may_redeal(&self, seats: &[usize]) -> Result<(), GameError> {
        let n = self.seats();
        if seats.is_empty() {
            return Err(GameError::Setup("a re-deal names the seats whose cards stay".into()));
        }
        if let Some(seat) = seats.iter().find(|&&s| s >= n) {
            return Err(GameError::Setup(format!("no seat {seat} to deal again for: the game has {n}")));
        }
        let named = seats.iter().map(usize::to_string).collect::<Vec<_>>().join("+");
        match self.to_move() {
            None => Err(GameError::Over),
            Some(mover) if !seats.contains(&mover) => Err(GameError::Setup(format!(
                "a re-deal keeps the cards of the seat to move (an undo writes it for the seat taking its decision \
                 back), and seat {mover} is to move here, not seat {named}; remove the entry or move it to where \
                 seat {named} decides"
            ))),
            Some(_) => Ok(()),
        }
    }

    // ----- what a seat sees -------------------------------------------------

    /// What `seat` may see (`None`: everything), as the JSON contract of the game's view.
    fn view_json(&self, seat: Option<usize>) -> Result<serde_json::Value, GameError>;
    /// The legal answers of the seat to move, each with its card, zone and
    /// words; by default each answer's notation, its first word as the verb.
    fn legal_views(&self) -> Vec<ActionView> {
        terminal::plain_views(self)
    }
    /// The cards `seat` sees and cannot play now, each with why; empty unless
    /// `seat` decides now (its reasons may name its own hand, so never another's).
    /// A game without reasons to give keeps the default: none.
    fn why_not(&self, _seat: usize) -> Vec<view::WhyNot> {
        Vec::new()
    }
    /// Each event as `seat` may read it (`None`: everything), with the card that caused it.
    fn log_lines(&self, events: &[Self::Event], seat: Option<usize>) -> Vec<LogLine>;
    /// Every seat's score with its breakdown, as the view's JSON contract words it.
    fn scores_json(&self) -> Result<serde_json::Value, GameError> {
        Ok(serde_json::to_value(score::ScoresView::of(&self.scores()?)).unwrap_or_default())
    }
    /// Each seat's score with its parts (`seat 0: 12 (buildings 9, …)`), for `score`.
    fn score_lines(&self) -> Result<Vec<String>, GameError> {
        Ok(score::lines(&self.scores()?))
    }

    // ----- the terminal -----------------------------------------------------

    /// The table as `viewer` may see it (`None`: everything): `replay`, `scenario`,
    /// the game's end. By default the seat's view ([`Game::view_json`]) in lines,
    /// then who is to move and the legal answers, or who won.
    fn table_text(&self, viewer: Option<usize>) -> Vec<String> {
        terminal::table_text(self, viewer)
    }
    /// The screen before `seat` decides: the table, its hand, and the choices (`full`), or
    /// only its hand and the choices (its own decision goes on). `seats` names who plays where.
    /// By default the view in lines (`full`) and the numbered answers.
    fn screen(&self, seat: usize, seats: &[String], full: bool) -> Vec<Line> {
        terminal::screen(self, seat, seats, full)
    }
    /// What a person typed, as a line in the notation, or why it is none of the choices.
    /// Numbers, `pass`, `undo` and the like are the front end's; this reads the game's
    /// shortcuts (by default none: the line as typed).
    fn resolve(&self, input: &str) -> Result<String, String> {
        Ok(input.trim().to_owned())
    }
    /// The short forms that work now, for the prompt (after the choice numbers); none by default.
    fn hints(&self) -> Vec<String> {
        Vec::new()
    }
    /// Lines after the title when a game starts at the terminal (how to read the table).
    fn intro(&self) -> Vec<String> {
        Vec::new()
    }
    /// True when a person deciding now starts a decision undo returns to (not when
    /// paying goes on with the building chosen before).
    fn undo_point(&self) -> bool {
        true
    }
    /// The game's part of the help text.
    fn help(&self) -> &'static str {
        terminal::PLAIN_HELP
    }
    /// The final scores with where they came from, for `seat`'s person; by
    /// default the whole table and who won.
    fn end_text(&self, seat: usize, seats: &[String]) -> Result<Vec<Line>, GameError> {
        terminal::end_text(self, seat, seats)
    }

    // ----- checks and scenarios ----------------------------------------------

    /// What is wrong with the state now (a card lost or doubled, a score
    /// that does not add up), checked after every action of a random game;
    /// nothing by default. The engine checks the rest: someone to move has a
    /// legal answer, and the game ends.
    fn invariant(&self) -> Result<(), String> {
        Ok(())
    }
    /// One random game with every invariant checked after every action; the
    /// actions played. By default [`run::check_random`]: [`Game::invariant`]
    /// and the engine's own checks.
    fn check_random_game(rs: &Arc<Self::Rules>, players: usize, seed: u64) -> Result<u64, String> {
        run::check_random::<Self>(rs, players, seed)
    }
    /// Loads and plays a scenario file (under `ruleset` instead of the one it names, if given);
    /// with `trace`, keeps each action's events. `Err`: why it does not load or run.
    /// By default a position reached by play ([`seeded`]: a seed, or
    /// `[from_game]`, then actions) checked through the scores, the legal
    /// answers and the game's view.
    fn scenario(file: &Path, ruleset: Option<&str>, trace: bool) -> Result<Scenario<Self>, Vec<String>> {
        seeded::play(file, ruleset, trace)
    }
    /// The JSON Schemas of the game's files, one per kind it has (of
    /// [`schema::KINDS`]: `ruleset`, `cards`, `scenario`), each made by
    /// [`schema::of`] from the struct the file is read into; by default the
    /// scenario of [`seeded`].
    fn schemas() -> Vec<schema::FileSchema> {
        seeded::schemas::<Self>()
    }
}
