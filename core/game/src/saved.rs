//! A saved game, for any game on the engine: the ruleset, the players, the
//! seed and every action in the game's notation. Replaying it gives the same
//! game on any machine (the seed fixes every shuffle). A game says how to
//! start and how to apply an entry ([`Game`]).

use std::marker::PhantomData;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use engine_rules::doc::TomlDoc;
use engine_rules::error::{LoadError, LoadErrors, Pos, clip};
use engine_rules::files::Source;

pub use engine_rules::saved::{MAX_SAVED_PLAYERS, Redeal, SAVED_GAME_VERSION};

use crate::Game;

/// What `play --save` and `simulate --save-games` write and `replay` reads (TOML).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame<G> {
    /// Format version: 2 holds one atomic action per entry (as recorded by the
    /// game); 1 (files without the key) holds lines as typed at `play`.
    #[serde(default = "version_one")]
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
    /// Every action answered, in order, in the action notation.
    pub actions: Vec<String>,
    #[serde(skip)]
    game: PhantomData<fn() -> G>,
}

fn version_one() -> u32 {
    1
}

// By hand: derived impls would ask the game type itself to be `Clone`, `Debug`, `Eq`.
impl<G> Clone for SavedGame<G> {
    fn clone(&self) -> Self {
        SavedGame {
            version: self.version,
            ruleset: self.ruleset.clone(),
            players: self.players,
            seed: self.seed,
            seats: self.seats.clone(),
            actions: self.actions.clone(),
            game: PhantomData,
        }
    }
}

impl<G> PartialEq for SavedGame<G> {
    fn eq(&self, o: &Self) -> bool {
        (self.version, &self.ruleset, self.players, self.seed, &self.seats, &self.actions)
            == (o.version, &o.ruleset, o.players, o.seed, &o.seats, &o.actions)
    }
}

impl<G> Eq for SavedGame<G> {}

impl<G> std::fmt::Debug for SavedGame<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SavedGame")
            .field("version", &self.version)
            .field("ruleset", &self.ruleset)
            .field("players", &self.players)
            .field("seed", &self.seed)
            .field("seats", &self.seats)
            .field("actions", &self.actions)
            .finish()
    }
}

impl<G: Game> SavedGame<G> {
    /// A game dealt for `players` from `seed`, then `actions` (saved entries).
    pub fn of_entries(players: usize, seed: u64, actions: Vec<String>) -> Self {
        SavedGame {
            version: SAVED_GAME_VERSION,
            ruleset: String::new(),
            players,
            seed,
            seats: Vec::new(),
            actions,
            game: PhantomData,
        }
    }

    /// A saved game of `game` so far: its recorded actions.
    pub fn of(game: &G, ruleset: &str, seed: u64, seats: Vec<String>) -> Self {
        SavedGame {
            version: SAVED_GAME_VERSION,
            ruleset: ruleset.to_owned(),
            players: game.seats(),
            seed,
            seats,
            actions: game.recorded_texts(),
            game: PhantomData,
        }
    }

    /// Reads a saved game.
    pub fn parse(source: &Source, text: &str) -> Result<Self, LoadError> {
        let doc = TomlDoc::parse(source.clone(), text.to_owned())?;
        let saved: Self = doc
            .deserialize()
            .map_err(|e| e.help("a saved game has version, ruleset, players, seed and actions (docs/json.md)"))?;
        if !(1..=MAX_SAVED_PLAYERS).contains(&saved.players) {
            return Err(doc
                .error("players", format!("{} players: a saved game has 1 to {MAX_SAVED_PLAYERS}", saved.players))
                .help("write the number of players the game was played with (its ruleset says how many it allows)"));
        }
        if saved.version < G::OLDEST_SAVED || saved.version > SAVED_GAME_VERSION {
            return Err(doc
                .error("version", format!("saved-game format version {} is not one this program reads", saved.version))
                .help(if G::OLDEST_SAVED == SAVED_GAME_VERSION {
                    format!("version {SAVED_GAME_VERSION} is read; a newer file needs a newer program")
                } else {
                    format!(
                        "versions {} to {SAVED_GAME_VERSION} are read; a newer file needs a newer program",
                        G::OLDEST_SAVED
                    )
                }));
        }
        Ok(saved)
    }

    /// The saved game as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Replays the game; `log` turns the event log on.
    pub fn replay(&self, source: &Source, log: bool) -> Result<(G, Vec<G::Event>), LoadErrors> {
        let rs = <G::Rules as crate::Rules>::load(&self.ruleset, Some(source))?;
        self.replay_with(rs, source, log)
    }

    /// Replays the game on an already loaded ruleset. An action that does not
    /// apply is reported at its entry in the file.
    pub fn replay_with(&self, rs: Arc<G::Rules>, source: &Source, log: bool) -> Result<(G, Vec<G::Event>), LoadErrors> {
        let doc = TomlDoc::read(source).ok();
        self.play_entries(rs, log).map_err(|(entry, message)| {
            let at = |d: &TomlDoc| match entry {
                Some(i) => d.error(&format!("actions.{i}"), message.clone()),
                None => LoadError::at(source, Pos::default(), message.clone()),
            };
            doc.as_ref()
                .map_or_else(|| LoadError::at(source, Pos::default(), message.clone()), at)
                .help("the saved game does not fit this ruleset: was the ruleset changed since it was saved?")
                .into()
        })
    }

    /// The game dealt from the seed with every entry applied exactly (a
    /// scenario's `[from_game]` plays the same way); an entry that does not
    /// apply is `Err((Some(index), why))`, a deal that fails `Err((None, why))`.
    pub fn play_entries(&self, rs: Arc<G::Rules>, log: bool) -> Result<(G, Vec<G::Event>), EntryError> {
        let mut game = G::start(&rs, self.players, self.seed).map_err(|e| (None, e.to_string()))?;
        game.log_events(log);
        game.record_actions(true);
        let mut events = game.take_events();
        for (i, a) in self.actions.iter().enumerate() {
            let applied = match Redeal::parse(a) {
                Some((seats, seed)) => game.redeal(&seats, seed).map(|()| Vec::new()),
                _ => game.apply_saved(self.version, a),
            };
            // Clipped: an action of a tampered file may be megabytes long.
            let more = applied
                .map_err(|e| (Some(i), format!("action {} `{}`: {}", i + 1, clip(a, 80), clip(&e.to_string(), 400))))?;
            events.extend(more);
        }
        Ok((game, events))
    }
}

/// Why a saved game does not play: the entry that failed (`None`: the deal) and the message.
pub type EntryError = (Option<usize>, String);

/// A scenario's position reached by play: the game dealt for `players` from
/// `seed`, then its saved entries (`actions`, one atomic action each) applied
/// exactly. What "save this moment as a scenario" writes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FromGame {
    /// Number of players.
    pub players: usize,
    /// The deal's seed.
    pub seed: u64,
    /// The saved entries, in order.
    #[serde(default)]
    pub actions: Vec<String>,
}

impl FromGame {
    /// A scenario's `[from_game]` in `doc`: refuses the keys of `position`
    /// (a position written beside it would be ignored), then plays it; every
    /// error is located in the scenario file.
    pub fn play_in<G: Game>(&self, doc: &TomlDoc, position: &[&str], rs: Arc<G::Rules>) -> Result<G, LoadError> {
        if let Some(key) = position.iter().find(|k| doc.has(k)) {
            return Err(doc.error(key, format!("`{key}` has no effect with `[from_game]`")).help(
                "`[from_game]` reaches its position by play from its own seed; write a position without `[from_game]` instead",
            ));
        }
        self.play::<G>(rs).map_err(|(entry, why)| match entry {
            Some(i) => doc
                .error(&format!("from_game.actions.{i}"), why)
                .help("the game does not fit this ruleset: was a card or rule changed since the moment was saved?"),
            None => doc.error("from_game", why),
        })
    }

    /// The game it names, on `rs`; an error names the entry (`Some(index)`) or the deal (`None`).
    pub fn play<G: Game>(&self, rs: Arc<G::Rules>) -> Result<G, EntryError> {
        if !(1..=MAX_SAVED_PLAYERS).contains(&self.players) {
            return Err((None, format!("{} players: a game has 1 to {MAX_SAVED_PLAYERS}", self.players)));
        }
        SavedGame::<G>::of_entries(self.players, self.seed, self.actions.clone())
            .play_entries(rs, false)
            .map(|(g, _)| g)
    }
}

/// An undo that cannot peek: `game` after only its first `entries` saved
/// entries, then every card `seat` has not seen dealt again from
/// `fresh_seed` (recorded, so the game still replays). Without the re-deal,
/// taking back a draw and drawing again would show the same face-down cards.
pub fn undo_to<G: Game>(
    game: &G,
    rs: Arc<G::Rules>,
    seed: u64,
    entries: usize,
    seat: usize,
    fresh_seed: u64,
) -> Result<G, String> {
    let mut saved = SavedGame::<G>::of(game, "undo", seed, Vec::new());
    saved.actions.truncate(entries);
    let source = Source::Disk("undo".into());
    let (mut back, _) = saved.replay_with(rs, &source, false).map_err(|e| e.to_string())?;
    back.redeal(&[seat], fresh_seed).map_err(|e| e.to_string())?;
    back.log_events(true);
    Ok(back)
}
