//! The games this binary plays, which one a ruleset or file is for, and what
//! the commands that work the same for every game (simulate, bench,
//! check) need from each.

use std::path::Path;
use std::sync::Arc;

use engine_play::sim::{GameRecord, Simulate};
use engine_rules::LoadErrors;
use engine_rules::files::{Builtins, Source};
use engine_rules::saved::{Replay, SavedGame};

/// A game the commands can run, with the ruleset type it loads.
pub trait CliGame {
    /// A loaded ruleset.
    type Rules: Send + Sync;
    /// The game's state.
    type Game: Simulate<Rules = Self::Rules> + Replay;
    /// Display name, for titles.
    const TITLE: &'static str;
    /// The game's id in records and model files.
    const GAME_ID: &'static str;
    /// What the balance bot's model predicts (`final points`).
    const OUTCOME: &'static str;
    /// The balance bot's model for a ruleset (learned now if not given).
    fn balance_model(rs: &Arc<Self::Rules>) -> Result<Arc<engine_play::value::ValueModel>, String>;
    /// Gives the ruleset a model learned before; refused if it does not fit.
    fn set_balance_model(rs: &Self::Rules, model: engine_play::value::ValueModel) -> Result<(), String>;
    /// What differs from ruleset `a` to `b`, a line each (as `cards --diff` prints it).
    fn diff(a: &Self::Rules, b: &Self::Rules) -> Vec<String>;
    /// Loads a ruleset by id or path, reporting every problem.
    fn load(spec: &str) -> Result<Arc<Self::Rules>, LoadErrors>;
    /// Id, display name, source and fingerprint, and the line `check` prints about its content.
    fn describe(rs: &Self::Rules) -> RulesetInfo;
    /// Problems that do not stop loading, rendered.
    fn warnings(rs: &Self::Rules) -> Vec<String>;
    /// Refuses an unknown bot name.
    fn check_bot(name: &str) -> Result<(), String> {
        engine_play::bots::BotSpec::parse(name).map(|_| ())
    }
    /// Plays game `index` of a run with one bot per seat.
    fn play_one(rs: &Arc<Self::Rules>, bots: &[String], run_seed: u64, index: u64) -> Result<GameRecord, String> {
        engine_play::sim::play_one::<Self::Game>(rs, bots, run_seed, index).map_err(|e| e.to_string())
    }
    /// Plays game `index` and returns it also as a saved game's TOML (naming `ruleset`).
    fn play_saved(
        rs: &Arc<Self::Rules>,
        bots: &[String],
        run_seed: u64,
        index: u64,
        ruleset: &str,
    ) -> Result<(GameRecord, String), String> {
        let (record, game) =
            engine_play::sim::play_game::<Self::Game>(rs, bots, run_seed, index, true).map_err(|e| e.to_string())?;
        let saved = SavedGame::<Self::Game>::of(&game, ruleset, record.seed, bots.to_vec());
        Ok((record, saved.to_toml()))
    }
    /// One random game with the card census after every action; the actions played.
    fn check_random_game(rs: &Arc<Self::Rules>, players: usize, seed: u64) -> Result<u64, String>;
}

/// What `check` and `simulate` print about a ruleset.
pub struct RulesetInfo {
    /// Ruleset id.
    pub id: String,
    /// Fewest and most players.
    pub players: (usize, usize),
    /// `name (source), N card types, …, fingerprint F`.
    pub summary: String,
    /// The content fingerprint.
    pub fingerprint: String,
}

/// San Juan.
pub struct SanJuan;

impl CliGame for SanJuan {
    type Rules = san_juan::Ruleset;
    type Game = san_juan::Game;
    const TITLE: &'static str = "San Juan";
    const GAME_ID: &'static str = san_juan::files::BUILTINS.game;
    const OUTCOME: &'static str = "final points";

    fn balance_model(rs: &Arc<Self::Rules>) -> Result<Arc<engine_play::value::ValueModel>, String> {
        rs.balance_model().map_err(|e| e.to_string())
    }

    fn set_balance_model(rs: &Self::Rules, model: engine_play::value::ValueModel) -> Result<(), String> {
        rs.set_balance_model(model)
    }

    fn diff(a: &Self::Rules, b: &Self::Rules) -> Vec<String> {
        a.diff(b)
    }

    fn load(spec: &str) -> Result<Arc<Self::Rules>, LoadErrors> {
        san_juan::Ruleset::load(spec)
    }

    fn describe(rs: &Self::Rules) -> RulesetInfo {
        let scripted = rs.cards.cards.iter().filter(|c| c.script.is_some()).count();
        RulesetInfo {
            id: rs.id.clone(),
            fingerprint: rs.fingerprint.clone(),
            players: (rs.rules.min_players, rs.rules.max_players),
            summary: format!(
                "{} ({}), {} card types, {} cards, {scripted} scripts compiled, fingerprint {}",
                rs.name,
                rs.source,
                rs.cards.len(),
                rs.total_cards(),
                rs.fingerprint
            ),
        }
    }

    fn warnings(rs: &Self::Rules) -> Vec<String> {
        rs.warnings.iter().map(ToString::to_string).collect()
    }

    fn check_random_game(rs: &Arc<Self::Rules>, players: usize, seed: u64) -> Result<u64, String> {
        san_juan::sim::check_random_game(rs, players, seed)
    }
}

/// The Alhambra card game.
pub struct Alhambra;

impl CliGame for Alhambra {
    type Rules = alhambra::Ruleset;
    type Game = alhambra::Game;
    const TITLE: &'static str = "Alhambra";
    const GAME_ID: &'static str = alhambra::files::BUILTINS.game;
    const OUTCOME: &'static str = "final points";

    fn balance_model(rs: &Arc<Self::Rules>) -> Result<Arc<engine_play::value::ValueModel>, String> {
        rs.balance_model().map_err(|e| e.to_string())
    }

    fn set_balance_model(rs: &Self::Rules, model: engine_play::value::ValueModel) -> Result<(), String> {
        rs.set_balance_model(model)
    }

    fn diff(a: &Self::Rules, b: &Self::Rules) -> Vec<String> {
        a.diff(b)
    }

    fn load(spec: &str) -> Result<Arc<Self::Rules>, LoadErrors> {
        alhambra::Ruleset::load(spec)
    }

    fn describe(rs: &Self::Rules) -> RulesetInfo {
        RulesetInfo {
            id: rs.id.clone(),
            fingerprint: rs.fingerprint.clone(),
            players: (rs.rules.min_players, rs.rules.max_players),
            summary: format!(
                "{} ({}), {} currencies, {} building types, {} cards with 3 or more players, fingerprint {}",
                rs.name,
                rs.source,
                rs.currencies.len(),
                rs.types.len(),
                rs.total_cards(3),
                rs.fingerprint
            ),
        }
    }

    fn warnings(_: &Self::Rules) -> Vec<String> {
        Vec::new()
    }

    fn check_random_game(rs: &Arc<Self::Rules>, players: usize, seed: u64) -> Result<u64, String> {
        alhambra::sim::check_random_game(rs, players, seed)
    }
}

/// The games, by the id rulesets name them with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// San Juan (the default: files that name no game are its).
    SanJuan,
    /// The Alhambra card game.
    Alhambra,
}

/// Every game's built-in files, the default game first.
fn builtins() -> [&'static Builtins; 2] {
    [&san_juan::files::BUILTINS, &alhambra::files::BUILTINS]
}

impl Which {
    /// The game's display name.
    pub fn title(self) -> &'static str {
        match self {
            Which::SanJuan => SanJuan::TITLE,
            Which::Alhambra => Alhambra::TITLE,
        }
    }

    /// The game a ruleset (an id or a path) is for.
    pub fn of_ruleset(spec: &str) -> Result<Which, String> {
        let lib = engine_rules::chain::game_of(spec, &builtins()).map_err(|e| e.to_string())?;
        Ok(if lib.game == alhambra::files::BUILTINS.game { Which::Alhambra } else { Which::SanJuan })
    }

    /// The game of a scenario or saved-game file: that of the ruleset it names
    /// (relative to the file), or the default game.
    pub fn of_file(path: &Path) -> Result<Which, String> {
        let source = Source::Disk(path.to_path_buf());
        let Ok(text) = source.read() else { return Ok(Which::SanJuan) }; // the game's own reader reports it
        // A file TOML cannot read as a whole (a number past i64, which serde reads
        // as u64 anyway) still names its ruleset on a line of its own.
        let table = text.parse::<toml::Table>().ok().or_else(|| {
            text.lines()
                .find(|l| l.trim_start().starts_with("ruleset") && l.contains('='))
                .and_then(|l| l.parse::<toml::Table>().ok())
        });
        let Some(table) = table else { return Ok(Which::SanJuan) };
        let Some(spec) = table.get("ruleset").and_then(|r| r.as_str()) else { return Ok(Which::SanJuan) };
        if spec.ends_with(".toml") || spec.contains('/') {
            let named = engine_rules::chain::named_path(&source, spec).map_err(|e| e.to_string())?;
            return Which::of_ruleset(&named.to_string());
        }
        Which::of_ruleset(spec)
    }
}

/// The display name of a game id.
pub fn title(game: &str) -> Option<&'static str> {
    match game {
        "san-juan" => Some(SanJuan::TITLE),
        "alhambra" => Some(Alhambra::TITLE),
        _ => None,
    }
}
