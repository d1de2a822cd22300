//! What every game's scenario files share: the head of the file (`description`,
//! `ruleset`, `seed`, `actions`, `players`, `[from_game]`, `[expect]`), the
//! `[expect]` keys every game checks, and those checks with their wording.
//!
//! The tables are declared by macros rather than by one struct flattened into
//! another: serde cannot refuse unknown keys of a flattened struct, and an
//! unknown key must stay a located error with a "did you mean" (a misspelt
//! check would otherwise pass unread). A macro writes the shared keys into the
//! game's own struct, so `deny_unknown_fields` and the key list that
//! `engine_rules::schema::field_names` reads both see every key.

use std::fmt::Debug;

// What the macros' expansions name, by paths that resolve from any game crate.
#[doc(hidden)]
pub use engine_rules::doc::TomlDoc;
#[doc(hidden)]
pub use engine_rules::{LoadError, LoadErrors, Source};
#[doc(hidden)]
pub use schemars::JsonSchema;
#[doc(hidden)]
pub use serde::Deserialize;

/// Declares a game's `[expect]` table: the keys every game has (see
/// [`Common`]) followed by the game's own fields, refusing unknown keys.
/// The game's crate needs `serde` and `schemars` (their derives name them).
///
/// ```
/// use engine_game::scenario::Expected;
///
/// engine_game::scenario_expect! {
///     /// What the scenario test verifies after the actions.
///     pub struct Expect {
///         /// The top cards of the draw pile, top first.
///         pub deck_top: Option<Vec<String>>,
///     }
/// }
///
/// let e: Expect = toml::from_str("deck_size = 3\ndeck_top = [\"a\"]").unwrap();
/// assert_eq!((e.common().deck_size, e.deck_top), (Some(3), Some(vec!["a".to_owned()])));
/// let typo = toml::from_str::<Expect>("dek_size = 3").unwrap_err();
/// assert!(typo.message().starts_with("unknown field `dek_size`"));
/// ```
#[macro_export]
macro_rules! scenario_expect {
    (@with [$($(#[$cm:meta])* $cf:ident: $ct:ty,)*] $(#[$meta:meta])* $vis:vis struct $name:ident { $($own:tt)* }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, $crate::scenario::Deserialize, $crate::scenario::JsonSchema)]
        #[serde(deny_unknown_fields)]
        $vis struct $name {
            $($(#[$cm])* pub $cf: $ct,)*
            $($own)*
        }

        impl $crate::scenario::Expected for $name {
            fn common(&self) -> $crate::scenario::Common {
                $crate::scenario::Common { $($cf: self.$cf.clone(),)* }
            }
        }
    };
    ($($item:tt)*) => {
        $crate::scenario_expect! { @with [
            /// Total points per seat.
            scores: Option<Vec<i32>>,
            /// Points per source per seat (only the sources given are checked).
            breakdown: Option<Vec<std::collections::BTreeMap<String, i32>>>,
            /// Hand size per seat.
            hand_sizes: Option<Vec<usize>>,
            /// Hand per seat, card ids in any order.
            hands: Option<Vec<Vec<String>>>,
            /// Cards in play per seat, in the order played.
            buildings: Option<Vec<Vec<String>>>,
            /// The winning seats.
            winners: Option<Vec<usize>>,
            /// The game is over.
            over: Option<bool>,
            /// The pending decision's name, or `none`.
            pending: Option<String>,
            /// The seat that must decide.
            pending_seat: Option<usize>,
            /// The legal actions, exactly.
            legal: Option<Vec<String>>,
            /// Actions that must be legal.
            legal_includes: Option<Vec<String>>,
            /// Actions that must not be legal.
            legal_excludes: Option<Vec<String>>,
            /// Cards in the draw pile.
            deck_size: Option<usize>,
            /// Cards in the discard pile.
            discard_size: Option<usize>,
            /// The round being played.
            round: Option<u32>,
            /// The last action fails with an error containing this text (the actions stop there).
            error: Option<String>,
        ] $($item)* }
    };
}

scenario_expect! {
    /// The `[expect]` keys every game has, as a game's own table holds them.
    pub struct Common {}
}

/// A game's `[expect]` table, declared by [`scenario_expect!`].
pub trait Expected {
    /// Its keys every game has.
    fn common(&self) -> Common;
}

/// Declares a game's `[[players]]` table: every field may be left out (a seat
/// starts empty), and unknown keys are refused.
#[macro_export]
macro_rules! scenario_seat {
    ($(#[$meta:meta])* $vis:vis struct $name:ident { $($(#[$fm:meta])* $fv:vis $f:ident: $t:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, $crate::scenario::Deserialize, $crate::scenario::JsonSchema)]
        #[serde(deny_unknown_fields)]
        $vis struct $name {
            $($(#[$fm])* #[serde(default)] $fv $f: $t,)*
        }
    };
}

/// Declares a game's scenario file and the `Scenario` read from it. The file
/// has the head every game has (`description`, `ruleset`, `seed`, `actions`,
/// `players` of the given seat type, `[from_game]`, `[expect]` of the given
/// table) followed by the game's own fields, each of which may be left out (a
/// position says only what matters), and refuses unknown keys.
/// `Scenario` keeps where the text came from and the position of every key, and
/// loads the ruleset the file names; the game's own `impl Scenario` adds
/// `play(&self, rs) -> Result<Run, LoadError>`, which `run` calls.
///
/// ```text
/// engine_game::scenario_file! {
///     /// The scenario file.
///     pub struct ScenarioFile {
///         /// Seat holding the first turn.
///         pub first: usize,
///     }
///     players: PlayerSpec, expect: Expect,
///     scenario: Scenario of Game, runs to Game,
///     help: "the scenario format is in docs/scenarios.md",
/// }
/// ```
#[macro_export]
macro_rules! scenario_file {
    (
        $(#[$meta:meta])* $vis:vis struct $name:ident { $($(#[$fm:meta])* $fv:vis $f:ident: $t:ty),* $(,)? }
        players: $player:ty, expect: $expect:ty,
        scenario: $scenario:ident of $game:ty, runs to $run:ty,
        help: $help:expr $(,)?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, $crate::scenario::Deserialize, $crate::scenario::JsonSchema)]
        #[serde(deny_unknown_fields)]
        $vis struct $name {
            /// What the scenario shows, in a sentence.
            #[serde(default)]
            pub description: String,
            /// Ruleset id or path (relative to the scenario file).
            pub ruleset: Option<String>,
            /// Seed for whatever the scenario leaves unplaced.
            #[serde(default)]
            pub seed: u64,
            /// Actions to play, in the game's notation.
            #[serde(default)]
            pub actions: Vec<String>,
            /// One table per seat (none with `[from_game]`).
            #[serde(default)]
            pub players: Vec<$player>,
            /// A position reached by play instead of one written out: what a table's
            /// "save this moment as a scenario" writes.
            pub from_game: Option<$crate::saved::FromGame>,
            /// Checks for `--check` and the scenario tests.
            pub expect: Option<$expect>,
            $($(#[$fm])* #[serde(default)] $fv $f: $t,)*
        }

        /// A scenario read from a file or a string.
        #[derive(Clone, Debug)]
        pub struct $scenario {
            /// Where it came from.
            pub source: $crate::scenario::Source,
            /// Its text, with the position of every key and value.
            doc: std::sync::Arc<$crate::scenario::TomlDoc>,
            /// Its parsed content.
            pub file: $name,
        }

        impl $scenario {
            /// Reads a scenario file.
            pub fn load(path: &std::path::Path) -> Result<$scenario, $crate::scenario::LoadError> {
                let source = $crate::scenario::Source::Disk(path.to_path_buf());
                let text = source.read()?;
                $scenario::parse(source, text)
            }

            /// Parses scenario text; `source` names it in errors.
            pub fn parse(source: $crate::scenario::Source, text: String) -> Result<$scenario, $crate::scenario::LoadError> {
                let doc = $crate::scenario::TomlDoc::parse(source.clone(), text)?;
                let file = doc.deserialize().map_err(|e| e.help($help))?;
                Ok($scenario { source, doc: std::sync::Arc::new(doc), file })
            }

            /// An error about the value at `path` (`players.0.hand.2`, `seed`).
            fn err(&self, path: &str, message: impl Into<String>) -> $crate::scenario::LoadError {
                self.doc.error(path, message)
            }

            /// Loads the scenario's ruleset (the game's default when it names none).
            pub fn ruleset(
                &self,
            ) -> Result<std::sync::Arc<<$game as $crate::Game>::Rules>, $crate::scenario::LoadErrors> {
                let spec = self.file.ruleset.as_deref().unwrap_or(<$game as $crate::Game>::DEFAULT_RULESET);
                <<$game as $crate::Game>::Rules as $crate::Rules>::load(spec, Some(&self.source))
            }

            /// Loads the ruleset, sets up and plays; every error as a load error.
            pub fn run(&self) -> Result<$run, $crate::scenario::LoadErrors> {
                let rs = self.ruleset()?;
                Ok(self.play(rs)?)
            }
        }
    };
}

/// What a game reports for the `[expect]` keys every game has; [`check`] compares.
pub trait Report {
    /// Why a fact could not be found (a script that failed while scoring).
    type Error;
    /// Every seat's score.
    fn scores(&self) -> Result<Vec<crate::Score>, Self::Error>;
    /// Every seat's hand, as card ids.
    fn hands(&self) -> Vec<Vec<String>>;
    /// What every seat has in play, as card ids in order (the `buildings` key).
    fn holdings(&self) -> Vec<Vec<String>>;
    /// The winning seats.
    fn winners(&self) -> Result<Vec<usize>, Self::Error>;
    /// True when the game is over.
    fn over(&self) -> bool;
    /// The pending decision's name and seat.
    fn pending(&self) -> Option<(String, usize)>;
    /// The legal actions, in the notation.
    fn legal(&self) -> Vec<String>;
    /// Cards in the draw pile.
    fn deck_size(&self) -> usize;
    /// Cards in the discard pile.
    fn discard_size(&self) -> usize;
    /// The round being played.
    fn round(&self) -> u32;
}

/// Adds to `fails` a line per common `[expect]` key that `game` does not meet:
/// `{what}: expected {want}, got {got}`, or which action should (not) be legal.
pub fn check<R: Report>(want: &Common, game: &R, fails: &mut Vec<String>) -> Result<(), R::Error> {
    let mut eq = |what: &str, want: String, got: String| {
        if want != got {
            fails.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    let shown = |v: &dyn Debug| format!("{v:?}");
    if want.scores.is_some() || want.breakdown.is_some() {
        let scores = game.scores()?;
        if let Some(w) = &want.scores {
            eq("scores", shown(w), shown(&scores.iter().map(|s| s.total).collect::<Vec<_>>()));
        }
        for (seat, entries) in want.breakdown.iter().flatten().enumerate().take(scores.len()) {
            for (k, v) in entries {
                let got = scores[seat].get(k);
                eq(&format!("seat {seat} breakdown `{k}`"), v.to_string(), got.to_string());
            }
        }
    }
    let sorted = |mut h: Vec<String>| {
        h.sort();
        h
    };
    if want.hand_sizes.is_some() || want.hands.is_some() {
        let hands = game.hands();
        if let Some(w) = &want.hand_sizes {
            eq("hand sizes", shown(w), shown(&hands.iter().map(Vec::len).collect::<Vec<_>>()));
        }
        if let Some(w) = &want.hands {
            let w: Vec<Vec<String>> = w.iter().cloned().map(sorted).collect();
            eq("hands", shown(&w), shown(&hands.into_iter().map(sorted).collect::<Vec<_>>()));
        }
    }
    if let Some(w) = &want.buildings {
        eq("buildings", shown(w), shown(&game.holdings()));
    }
    if let Some(w) = &want.winners {
        eq("winners", shown(w), shown(&game.winners()?));
    }
    if let Some(w) = want.over {
        eq("over", w.to_string(), game.over().to_string());
    }
    let pending = game.pending();
    if let Some(w) = &want.pending {
        eq("pending decision", w.clone(), pending.as_ref().map_or("none".to_owned(), |(name, _)| name.clone()));
    }
    if let Some(w) = want.pending_seat {
        eq("pending seat", w.to_string(), pending.map_or("none".to_owned(), |(_, seat)| seat.to_string()));
    }
    if let Some(w) = want.deck_size {
        eq("deck size", w.to_string(), game.deck_size().to_string());
    }
    if let Some(w) = want.discard_size {
        eq("discard size", w.to_string(), game.discard_size().to_string());
    }
    if let Some(w) = want.round {
        eq("round", w.to_string(), game.round().to_string());
    }
    check_legal(want, &game.legal(), fails);
    Ok(())
}

/// The `error` key against a run that stopped at action `got.0` with the
/// error `got.1` (`None`: every action passed), of `actions` in all: the
/// failing action must be the last one, and its error must contain the text.
pub fn check_error(want: &Common, got: Option<&(usize, String)>, actions: usize, fails: &mut Vec<String>) {
    match (&want.error, got) {
        (Some(want), Some((i, got))) => {
            if i + 1 != actions {
                fails.push(format!("action {} failed, not the last one: {got}", i + 1));
            }
            if !got.contains(want.as_str()) {
                fails.push(format!("error: expected it to contain {want:?}, got {got:?}"));
            }
        }
        (Some(want), None) => fails.push(format!("error: expected one containing {want:?}, but every action passed")),
        _ => {}
    }
}

/// The `legal`, `legal_includes` and `legal_excludes` keys.
fn check_legal(want: &Common, legal: &[String], fails: &mut Vec<String>) {
    if let Some(w) = &want.legal
        && w != legal
    {
        fails.push(format!("legal actions: expected {w:?}, got {legal:?}"));
    }
    for a in want.legal_includes.iter().flatten() {
        if !legal.contains(a) {
            fails.push(format!("`{a}` should be legal; legal: {legal:?}"));
        }
    }
    for a in want.legal_excludes.iter().flatten() {
        if legal.contains(a) {
            fails.push(format!("`{a}` should not be legal"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    scenario_expect! {
        /// A game's table with one key of its own.
        struct Own {
            /// The game's own key.
            pub tiles: Option<usize>,
        }
    }

    fn read(text: &str) -> Result<Own, LoadError> {
        TomlDoc::parse(Source::Disk("s.toml".into()), text.to_owned())?.deserialize()
    }

    #[test]
    fn a_table_has_the_common_keys_and_its_own_and_refuses_others_where_written() {
        let own = read("scores = [1, 2]\ntiles = 3\n").unwrap();
        assert_eq!((own.common().scores, own.tiles), (Some(vec![1, 2]), Some(3)));
        let e = read("scores = [1]\nhand_size = [2]\n").unwrap_err().to_string();
        assert!(e.contains("s.toml:2:1") && e.contains("unknown field `hand_size`"), "{e}");
        assert!(e.contains("did you mean `hand_sizes`?"), "{e}");
        let names = engine_rules::schema::field_names::<Own>();
        assert!(names.contains(&"legal_excludes") && names.contains(&"tiles"), "{names:?}");
    }

    struct Table {
        legal: Vec<String>,
    }

    impl Report for Table {
        type Error = String;
        fn scores(&self) -> Result<Vec<crate::Score>, String> {
            let five = crate::Score { total: 5, breakdown: vec![("cards".into(), 5)], tie_break: 0 };
            Ok(vec![five, crate::Score::default()])
        }
        fn hands(&self) -> Vec<Vec<String>> {
            vec![vec!["b".into(), "a".into()], Vec::new()]
        }
        fn holdings(&self) -> Vec<Vec<String>> {
            vec![Vec::new(); 2]
        }
        fn winners(&self) -> Result<Vec<usize>, String> {
            Err("no scores".into())
        }
        fn over(&self) -> bool {
            false
        }
        fn pending(&self) -> Option<(String, usize)> {
            None
        }
        fn legal(&self) -> Vec<String> {
            self.legal.clone()
        }
        fn deck_size(&self) -> usize {
            7
        }
        fn discard_size(&self) -> usize {
            0
        }
        fn round(&self) -> u32 {
            3
        }
    }

    #[test]
    fn each_key_not_met_is_one_line_and_a_fact_not_asked_for_is_not_sought() {
        let want = read(
            "scores = [5, 1]\nbreakdown = [{ cards = 5, other = 2 }]\nhands = [[\"a\", \"b\"], []]\n\
             pending_seat = 0\nlegal_includes = [\"pass\", \"take\"]\nlegal_excludes = [\"take\"]\ndeck_size = 7\n",
        )
        .unwrap()
        .common();
        let mut fails = Vec::new();
        check(&want, &Table { legal: vec!["take".into()] }, &mut fails).unwrap();
        assert_eq!(
            fails,
            [
                "scores: expected [5, 1], got [5, 0]",
                "seat 0 breakdown `other`: expected 2, got 0",
                "pending seat: expected 0, got none",
                "`pass` should be legal; legal: [\"take\"]",
                "`take` should not be legal",
            ]
        );
        let winners = read("winners = [0]\n").unwrap().common();
        assert_eq!(check(&winners, &Table { legal: Vec::new() }, &mut fails), Err("no scores".into()));
    }
}
