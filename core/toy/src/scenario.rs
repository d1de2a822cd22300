//! Scenarios: a TOML file that sets up a position, plays actions from it and
//! checks the outcome (`[expect]`). Cards the position does not place are out
//! of the game, so the deck holds exactly the `deck` given (top first).
//!
//! A game whose position leaves cards to a seed, that reads `[from_game]` and
//! checks the usual `[expect]` keys (scores, hands, the pending decision, legal
//! actions, the piles) declares its file with `engine_game::scenario`'s macros
//! and checks those keys with `engine_game::scenario::check`, as San Juan and
//! Alhambra do; High-Low places every card and checks a few keys of its own,
//! so only its seat table is the shared one.

use std::path::Path;
use std::sync::Arc;

use engine_game::Game as _;
use engine_rules::doc::TomlDoc;
use engine_rules::{LoadError, Source};
use serde::Deserialize;

use crate::actions::parse_card;
use crate::game::Game;
use crate::ruleset::{DEFAULT_RULESET, Ruleset};

engine_game::scenario_seat! {
    /// One seat of a position.
    pub struct PlayerSpec {
        /// Its hand, card ids.
        pub hand: Vec<String>,
        /// Its points so far.
        pub score: i32,
    }
}

/// What is checked after the actions; only the keys given.
#[derive(Clone, Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Points per seat.
    pub scores: Option<Vec<i32>>,
    /// Hands per seat, lowest first.
    pub hands: Option<Vec<Vec<String>>>,
    /// The seat to move.
    pub to_move: Option<usize>,
    /// Cards left in the deck.
    pub deck_size: Option<usize>,
    /// The game is over.
    pub over: Option<bool>,
    /// An action fails with an error holding this text (the actions stop there).
    pub error: Option<String>,
}

/// The scenario file.
#[derive(Clone, Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Ruleset id or path (relative to the scenario file).
    pub ruleset: Option<String>,
    /// What it shows, in a sentence.
    #[serde(default)]
    pub description: String,
    /// Every seat, in order.
    pub players: Vec<PlayerSpec>,
    /// The pile's top card.
    pub pile_top: String,
    /// The deck, top first.
    #[serde(default)]
    pub deck: Vec<String>,
    /// The round being played, from 1.
    #[serde(default = "first")]
    pub round: u32,
    /// The seat to move.
    #[serde(default)]
    pub to_move: usize,
    /// Actions to play, in the notation.
    #[serde(default)]
    pub actions: Vec<String>,
    /// What to check after them.
    pub expect: Option<Expect>,
}

fn first() -> u32 {
    1
}

/// A scenario played: the game where it stopped, the failures of `[expect]`, notes and trace.
pub fn play(file: &Path, ruleset: Option<&str>, trace: bool) -> Result<engine_game::Scenario<Game>, Vec<String>> {
    let all = |e: LoadError| vec![e.to_string()];
    let doc = TomlDoc::read(&Source::Disk(file.to_path_buf())).map_err(all)?;
    let s: ScenarioFile = doc.deserialize().map_err(|e| {
        all(e.help("a scenario has ruleset, description, players, pile_top, deck, round, to_move, actions, [expect]"))
    })?;
    let spec = ruleset.or(s.ruleset.as_deref()).unwrap_or(DEFAULT_RULESET);
    let rs = <Ruleset as engine_game::Rules>::load(spec, Some(&doc.source))
        .map_err(|e| e.0.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let mut game = setup(&doc, &s, rs).map_err(all)?;
    game.log_events(trace);
    let (mut lines, mut notes, mut failed) = (Vec::new(), Vec::new(), None);
    for (i, action) in s.actions.iter().enumerate() {
        match game.apply_text(action) {
            Ok(events) if trace => {
                lines.push(format!("action {} `{action}`:", i + 1));
                lines.extend(events.into_iter().map(|e| format!("  {}", e.text)));
            }
            Ok(_) => {}
            Err(e) if s.expect.as_ref().and_then(|x| x.error.as_deref()).is_some_and(|t| e.to_string().contains(t)) => {
                notes.push(format!("action {} failed as expected: {e}", i + 1));
                failed = Some(e.to_string());
                break;
            }
            Err(e) => return Err(all(doc.error(&format!("actions.{i}"), format!("action {}: {e}", i + 1)))),
        }
    }
    let failures = s.expect.as_ref().map(|x| check(x, &game, failed.as_deref()));
    Ok(engine_game::Scenario { game, failures, description: s.description.clone(), notes, trace: lines })
}

/// The position, every card checked against the ruleset's deck.
fn setup(doc: &TomlDoc, s: &ScenarioFile, rs: Arc<Ruleset>) -> Result<Game, LoadError> {
    let (lo, hi) = (rs.rules.min_players, rs.rules.max_players);
    if !(lo..=hi).contains(&s.players.len()) {
        return Err(doc.error("players", format!("{} players: {} takes {lo} to {hi}", s.players.len(), rs.name)));
    }
    if s.to_move >= s.players.len() {
        return Err(doc.error("to_move", format!("no seat {}: seats are 0 to {}", s.to_move, s.players.len() - 1)));
    }
    if s.round == 0 || s.round > rs.rules.rounds {
        return Err(doc.error("round", format!("round {}: the game has rounds 1 to {}", s.round, rs.rules.rounds)));
    }
    // Cards are taken out of the full deck as they are placed; a card it lacks is an error where written.
    let mut unplaced = rs.deck();
    let mut take = |path: String, id: &str| -> Result<u8, LoadError> {
        let v = parse_card(id).filter(|_| id.starts_with('c'));
        let at = v.and_then(|v| unplaced.iter().position(|&c| c == v));
        match (v, at) {
            (Some(_), Some(at)) => Ok(unplaced.remove(at)),
            (Some(_), None) => Err(doc.error(
                &path,
                format!(
                    "no `{id}` left: the deck has {} of each value from c{} to c{}",
                    rs.rules.copies, rs.rules.low, rs.rules.high
                ),
            )),
            (None, _) => {
                Err(doc.error(&path, format!("`{id}` is no card: cards are c{} to c{}", rs.rules.low, rs.rules.high)))
            }
        }
    };
    let mut hands = Vec::new();
    for (p, player) in s.players.iter().enumerate() {
        let hand = player.hand.iter().enumerate().map(|(i, id)| take(format!("players.{p}.hand.{i}"), id));
        hands.push(hand.collect::<Result<Vec<u8>, _>>()?);
    }
    let pile = vec![take("pile_top".into(), &s.pile_top)?];
    let mut deck: Vec<u8> =
        s.deck.iter().enumerate().map(|(i, id)| take(format!("deck.{i}"), id)).collect::<Result<_, _>>()?;
    deck.reverse(); // the file lists the top first, the game draws from the end
    let scores = s.players.iter().map(|p| p.score).collect();
    let turns = (s.round - 1) * s.players.len() as u32 + s.to_move as u32;
    Ok(Game::from_parts(rs, hands, scores, pile, deck, unplaced, turns))
}

/// What `[expect]` finds wrong, a line each.
fn check(x: &Expect, game: &Game, failed: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    let mut compare = |what: &str, want: String, got: String| {
        if want != got {
            out.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    if let Some(want) = &x.scores {
        compare("scores", format!("{want:?}"), format!("{:?}", game.scores()));
    }
    if let Some(want) = &x.hands {
        let got: Vec<Vec<String>> = (0..game.scores().len())
            .map(|s| game.hand(s).iter().map(|&c| crate::actions::card_id(c)).collect())
            .collect();
        compare("hands", format!("{want:?}"), format!("{got:?}"));
    }
    if let Some(want) = x.to_move {
        let got = if game.is_over() { "none (the game is over)".into() } else { game.to_move.to_string() };
        compare("to_move", want.to_string(), got);
    }
    if let Some(want) = x.deck_size {
        compare("deck_size", want.to_string(), game.deck_size().to_string());
    }
    if let Some(want) = x.over {
        compare("over", want.to_string(), game.is_over().to_string());
    }
    if let (Some(want), None) = (&x.error, failed) {
        out.push(format!("error: expected an action to fail with `{want}`, none did"));
    }
    out
}
