//! The scenario of a game that writes no scenario format of its own: a
//! position reached by play (a deal from `seed` for `players`, or a saved
//! moment's `[from_game]`), then `actions`, then `[expect]`: the scores, the
//! winners, the legal answers, and any entry of the game's view by its JSON
//! pointer (`"/players/0/hand" = ["c3", "c9"]`), so every fact a seat can see
//! is checkable without a key of the game's own.

use std::collections::BTreeMap;
use std::path::Path;

use engine_rules::doc::TomlDoc;
use engine_rules::{LoadError, Source};
use serde::Deserialize;

use crate::scenario::{Common, Report};
use crate::{Game, Rules, Scenario, Score, score};

/// A scenario file: a position reached by play, actions, and what to check.
#[derive(Clone, Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeededFile {
    /// What the scenario shows, in a sentence.
    #[serde(default)]
    pub description: String,
    /// Ruleset id or path (relative to the scenario file); the game's default when not given.
    pub ruleset: Option<String>,
    /// Number of players (the ruleset's fewest when not given).
    pub players: Option<usize>,
    /// The deal's seed.
    #[serde(default)]
    pub seed: u64,
    /// Actions to play, in the game's notation.
    #[serde(default)]
    pub actions: Vec<String>,
    /// A position reached by play instead of `players` and `seed`: what a
    /// table's "save this moment as a scenario" writes.
    pub from_game: Option<crate::saved::FromGame>,
    /// What to check after the actions; only the keys given.
    pub expect: Option<SeededExpect>,
}

/// What a seeded scenario checks.
#[derive(Clone, Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeededExpect {
    /// Total points per seat.
    pub scores: Option<Vec<i32>>,
    /// Points per source per seat (only the sources given are checked).
    pub breakdown: Option<Vec<BTreeMap<String, i32>>>,
    /// The winning seats.
    pub winners: Option<Vec<usize>>,
    /// The game is over.
    pub over: Option<bool>,
    /// The seat that must decide.
    pub pending_seat: Option<usize>,
    /// The round being played.
    pub round: Option<u32>,
    /// The legal actions, exactly.
    pub legal: Option<Vec<String>>,
    /// Actions that must be legal.
    pub legal_includes: Option<Vec<String>>,
    /// Actions that must not be legal.
    pub legal_excludes: Option<Vec<String>>,
    /// The last action fails with an error containing this text (the actions
    /// stop there, and the other keys are checked on the position before it).
    pub error: Option<String>,
    /// Entries of the whole view (`view_json` seen by everyone) by JSON
    /// pointer, each with the value it must have: `"/pile_top" = "c7"`.
    #[schemars(with = "Option<BTreeMap<String, serde_json::Value>>")]
    pub view: Option<BTreeMap<String, toml::Value>>,
}

impl SeededExpect {
    /// Its keys in the words every game's checks share.
    fn common(&self) -> Common {
        Common {
            scores: self.scores.clone(),
            breakdown: self.breakdown.clone(),
            winners: self.winners.clone(),
            over: self.over,
            pending_seat: self.pending_seat,
            round: self.round,
            legal: self.legal.clone(),
            legal_includes: self.legal_includes.clone(),
            legal_excludes: self.legal_excludes.clone(),
            error: self.error.clone(),
            ..Common::default()
        }
    }
}

/// A game as the shared checks read it; the keys a seeded scenario does not
/// have (hands, piles) are never asked for, and read as empty.
struct Plain<'a, G>(&'a G);

impl<G: Game> Report for Plain<'_, G> {
    type Error = engine_rules::error::GameError;
    fn scores(&self) -> Result<Vec<Score>, Self::Error> {
        self.0.scores()
    }
    fn hands(&self) -> Vec<Vec<String>> {
        Vec::new()
    }
    fn holdings(&self) -> Vec<Vec<String>> {
        Vec::new()
    }
    fn winners(&self) -> Result<Vec<usize>, Self::Error> {
        Ok(score::winners_of(&self.0.scores()?))
    }
    fn over(&self) -> bool {
        self.0.to_move().is_none()
    }
    fn pending(&self) -> Option<(String, usize)> {
        let seat = self.0.to_move()?;
        Some((self.0.decision_kind().unwrap_or("turn").to_owned(), seat))
    }
    fn legal(&self) -> Vec<String> {
        self.0.legal().iter().map(|a| self.0.action_text(a)).collect()
    }
    fn deck_size(&self) -> usize {
        0
    }
    fn discard_size(&self) -> usize {
        0
    }
    fn round(&self) -> u32 {
        self.0.rounds()
    }
}

/// The schema of a seeded scenario for `G`, as [`Game::schemas`] lists it.
pub fn schemas<G: Game>() -> Vec<crate::schema::FileSchema> {
    vec![("scenario", crate::schema::of::<SeededFile>(&format!("{} scenario", G::TITLE)))]
}

/// What `[expect] view` finds wrong: a line per pointer whose value differs or is missing.
fn check_view(want: &BTreeMap<String, toml::Value>, view: &serde_json::Value, fails: &mut Vec<String>) {
    for (pointer, value) in want {
        let want = serde_json::to_value(value).unwrap_or_default();
        match view.pointer(pointer) {
            Some(got) if *got == want => {}
            Some(got) => fails.push(format!("view {pointer}: expected {want}, got {got}")),
            None => fails.push(format!("view {pointer}: expected {want}, but the view has no such entry")),
        }
    }
}

/// Loads and plays a seeded scenario for `G` (under `ruleset` instead of the one it names, if given).
pub fn play<G: Game>(file: &Path, ruleset: Option<&str>, trace: bool) -> Result<Scenario<G>, Vec<String>> {
    let all = |e: LoadError| vec![e.to_string()];
    let doc = TomlDoc::read(&Source::Disk(file.to_path_buf())).map_err(all)?;
    let s: SeededFile = doc.deserialize().map_err(|e| {
        all(e.help("a scenario has description, ruleset, players, seed, actions, [from_game] and [expect]"))
    })?;
    let spec = ruleset.or(s.ruleset.as_deref()).unwrap_or(G::DEFAULT_RULESET);
    let rs =
        G::Rules::load(spec, Some(&doc.source)).map_err(|e| e.0.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let mut game = match &s.from_game {
        Some(from) => from.play_in::<G>(&doc, &["players", "seed"], rs).map_err(all)?,
        None => {
            let players = s.players.unwrap_or(rs.players().0);
            G::start(&rs, players, s.seed).map_err(|e| all(doc.error("players", e.to_string())))?
        }
    };
    game.log_events(trace);
    let want_error = s.expect.as_ref().and_then(|x| x.error.as_deref());
    let (mut trace_lines, mut notes, mut failed) = (Vec::new(), Vec::new(), None);
    for (i, action) in s.actions.iter().enumerate() {
        // The position before a refused action is the one checked: try it on a copy.
        let mut next = game.clone();
        match next.apply_text(action) {
            Ok(events) => {
                if trace {
                    trace_lines.push(format!("action {} `{action}`:", i + 1));
                    let lines = next.log_lines(&events, None);
                    trace_lines.extend(lines.into_iter().map(|l| format!("  {}", l.text)));
                }
                game = next;
            }
            Err(e) if want_error.is_some() => {
                notes.push(format!("action {} failed as expected: {e}", i + 1));
                failed = Some((i, e.to_string()));
                break;
            }
            Err(e) => return Err(all(doc.error(&format!("actions.{i}"), format!("action {}: {e}", i + 1)))),
        }
    }
    let failures = match &s.expect {
        None => None,
        Some(x) => {
            let (common, mut fails) = (x.common(), Vec::new());
            crate::scenario::check(&common, &Plain(&game), &mut fails).map_err(|e| vec![e.to_string()])?;
            crate::scenario::check_error(&common, failed.as_ref(), s.actions.len(), &mut fails);
            if let Some(view) = &x.view {
                check_view(view, &game.view_json(None).map_err(|e| vec![e.to_string()])?, &mut fails);
            }
            Some(fails)
        }
    };
    Ok(Scenario { game, failures, description: s.description, notes, trace: trace_lines })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_entry_is_checked_by_its_pointer_and_a_missing_one_is_named() {
        let view = serde_json::json!({ "pile_top": "c7", "players": [{ "hand": ["c3", "c9"] }] });
        let want: BTreeMap<String, toml::Value> =
            toml::from_str("\"/pile_top\" = \"c5\"\n\"/players/0/hand\" = [\"c3\", \"c9\"]\n\"/deck\" = 3\n").unwrap();
        let mut fails = Vec::new();
        check_view(&want, &view, &mut fails);
        assert_eq!(
            fails,
            ["view /deck: expected 3, but the view has no such entry", "view /pile_top: expected \"c5\", got \"c7\""]
        );
    }
}
