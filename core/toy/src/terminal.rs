//! High-Low's words at a terminal: the table, the numbered choices, the end.
//! Plain data: the front end prints it.

use engine_game::Line;

use crate::actions::{Action, parse_card};
use crate::game::Game;

/// The table as `viewer` sees it (`None`: everything), without whose turn it is.
fn state_text(game: &Game, viewer: Option<usize>) -> Vec<String> {
    let v = game.view(viewer);
    let top = v.pile_top.as_deref().unwrap_or("nothing");
    let mut out = vec![format!("round {} of {}, pile top {top}, deck {}", v.round, v.rounds, v.deck_size)];
    for p in &v.players {
        let hand = match &p.hand {
            Some(h) if h.is_empty() => "no cards".to_owned(),
            Some(h) => h.join(" "),
            None => format!("{} cards", p.hand_size),
        };
        out.push(format!("  seat {}: {} points; hand {hand}", p.seat, p.score));
    }
    out
}

/// "seat 0 wins", "seat 0 and seat 2 share the victory" (`you` for `seat`).
fn winners_line(game: &Game, you: Option<usize>) -> String {
    let winners = game.winners();
    let names: Vec<String> =
        winners.iter().map(|&w| if Some(w) == you { "you".into() } else { format!("seat {w}") }).collect();
    let verb = if names.len() == 1 { "wins" } else { "share the victory" };
    format!("game over: {} {verb}", names.join(" and "))
}

/// The table, then who must decide with the legal actions in the notation (or who won).
pub fn table_text(game: &Game, viewer: Option<usize>) -> Vec<String> {
    let mut out = state_text(game, viewer);
    if game.is_over() {
        out.push(winners_line(game, None));
    } else {
        let legal: Vec<String> = game.legal_actions().iter().map(|a| a.text()).collect();
        out.push(format!("seat {} to move: {}", game.to_move, legal.join(" | ")));
    }
    out
}

/// The screen before `seat` decides: the table (with `full`) and the numbered choices.
pub fn screen(game: &Game, seat: usize, full: bool) -> Vec<Line> {
    let mut out = Vec::new();
    if full {
        out.push(Line::plain(""));
        out.extend(state_text(game, Some(seat)).into_iter().map(Line::plain));
    }
    let top = game.pile_top().map_or("nothing".into(), |t| t.to_string());
    let or = if game.deck_size() == 0 { "pass" } else { "draw a card" };
    out.push(Line::bold(format!("your turn: play a card higher than {top}, or {or}")));
    for (i, a) in game.legal_views().iter().enumerate() {
        out.push(Line::plain(format!("  {:>2}  {}", i + 1, a.label)));
    }
    out
}

/// A person's shortcut as a line in the notation: `c7` plays the 7, `x` draws or passes.
/// A bare number is the front end's choice number, so it is not read here.
pub fn resolve(game: &Game, input: &str) -> Result<String, String> {
    let input = input.trim();
    let fallback = game.legal_actions().last().map_or("draw".to_owned(), |a| a.text());
    if input == "x" {
        return Ok(fallback);
    }
    if input.starts_with('c')
        && let Some(v) = parse_card(input)
    {
        return Ok(Action::Play(v).text());
    }
    if Action::parse(input).is_ok() {
        return Ok(input.to_owned());
    }
    Err(format!("`{input}` is none of the choices: write a choice's number, `c7`, `draw`, `pass` or `x`"))
}

/// High-Low's lines of the help.
pub const HELP: &str = "\
  play c7, c7  play the 7 from your hand (it must beat the pile's top); you score 7
  draw         take the deck's top card
  pass         with the deck empty, do nothing
  x            draw, or pass when the deck is empty";

/// The end: every hand face up and who won.
pub fn end_text(game: &Game, seat: usize) -> Vec<Line> {
    let mut out = vec![Line::plain("")];
    out.extend(state_text(game, None).into_iter().map(Line::plain));
    out.push(Line::bold(winners_line(game, Some(seat))));
    out
}
