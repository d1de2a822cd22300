//! A game's words at a terminal when it writes none of its own: the seat's
//! view ([`Game::view_json`]) in lines, the legal answers in the notation,
//! who won. A game with words of its own overrides [`Game::table_text`],
//! [`Game::screen`] and [`Game::end_text`]; these are what a new game has
//! before it does.

use std::borrow::Cow;

use engine_play::ActionView;
use engine_rules::error::GameError;
use serde_json::Value;

use crate::{Game, Line, score};

/// The help of a game with no short forms.
pub const PLAIN_HELP: &str = "  an answer in the game's notation, as the list of answers writes it";

/// The legal action written `text` (spaces aside), or why there is none.
pub fn legal_written<G: Game>(game: &G, text: &str) -> Result<G::Action, GameError> {
    if game.to_move().is_none() {
        return Err(GameError::Over);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let written = |a: &G::Action| game.action_text(a).split_whitespace().eq(words.iter().copied());
    game.legal().iter().copied().find(written).ok_or_else(|| GameError::Illegal {
        action: words.join(" "),
        why: "not one of the answers now".into(),
        legal: game.legal().iter().map(|a| game.action_text(a)).collect(),
    })
}

/// Each legal answer as its notation: its first word the verb, the whole line its label.
pub fn plain_views<G: Game>(game: &G) -> Vec<ActionView> {
    let view = |(id, a): (usize, &G::Action)| {
        let text = game.action_text(a);
        let verb = text.split_whitespace().next().unwrap_or("act").to_owned();
        ActionView { id, verb: Cow::Owned(verb), card: None, zone: None, over: None, label: text.clone(), text }
    };
    game.legal().iter().enumerate().map(view).collect()
}

/// A value of the view in words: a list's items one after another, a map's entries as `key value`.
fn words(v: &Value) -> String {
    match v {
        Value::Null => "none".into(),
        Value::String(s) => s.clone(),
        Value::Array(items) if items.is_empty() => "none".into(),
        Value::Array(items) => items.iter().map(words).collect::<Vec<_>>().join(" "),
        Value::Object(m) => m.iter().map(|(k, v)| format!("{k} {}", words(v))).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// The view in lines: its plain entries on the first, then each list of
/// maps (the seats) a line per item, `seat N:` first where an item has a seat.
pub fn view_lines(view: &Value) -> Vec<String> {
    let Value::Object(map) = view else { return vec![words(view)] };
    let is_rows = |v: &Value| matches!(v, Value::Array(items) if items.first().is_some_and(Value::is_object));
    let head: Vec<String> =
        map.iter().filter(|(_, v)| !v.is_null() && !is_rows(v)).map(|(k, v)| format!("{k} {}", words(v))).collect();
    let mut out = vec![head.join(", ")];
    for (key, rows) in map.iter().filter(|(_, v)| is_rows(v)) {
        for (i, row) in rows.as_array().into_iter().flatten().enumerate() {
            let Value::Object(fields) = row else { continue };
            let name = fields.get("seat").map_or_else(|| format!("{key} {i}"), |s| format!("seat {}", words(s)));
            let rest: Vec<String> =
                fields.iter().filter(|(k, _)| *k != "seat").map(|(k, v)| format!("{k} {}", words(v))).collect();
            out.push(format!("  {name}: {}", rest.join(", ")));
        }
    }
    out
}

/// "game over: seat 0 wins", "… seat 0 and you share the victory" (`you` for `seat`).
fn winners_line<G: Game>(game: &G, you: Option<usize>, seats: &[String]) -> Result<String, GameError> {
    let winners = score::winners_of(&game.scores()?);
    let name = |w: usize| match (Some(w) == you, seats.get(w)) {
        (true, _) => "you".to_owned(),
        (false, Some(n)) if !n.is_empty() => n.clone(),
        _ => format!("seat {w}"),
    };
    let names: Vec<String> = winners.iter().map(|&w| name(w)).collect();
    let verb = if names.len() == 1 { "wins" } else { "share the victory" };
    Ok(format!("game over: {} {verb}", names.join(" and ")))
}

/// The view as `viewer` sees it, then who is to move with the legal answers, or who won.
pub fn table_text<G: Game>(game: &G, viewer: Option<usize>) -> Vec<String> {
    let mut out = game.view_json(viewer).map_or_else(|e| vec![e.to_string()], |v| view_lines(&v));
    match game.to_move() {
        Some(seat) => {
            let legal: Vec<String> = game.legal().iter().map(|a| game.action_text(a)).collect();
            out.push(format!("seat {seat} to move: {}", legal.join(" | ")));
        }
        None => out.push(winners_line(game, None, &[]).unwrap_or_else(|e| e.to_string())),
    }
    out
}

/// The view for `seat` (with `full`) and the numbered answers.
pub fn screen<G: Game>(game: &G, seat: usize, seats: &[String], full: bool) -> Vec<Line> {
    let mut out = Vec::new();
    if full {
        out.push(Line::plain(""));
        let view = game.view_json(Some(seat)).map_or_else(|e| vec![e.to_string()], |v| view_lines(&v));
        out.extend(view.into_iter().map(Line::plain));
    }
    let you = seats.get(seat).filter(|n| !n.is_empty()).map_or_else(|| format!("seat {seat}"), Clone::clone);
    out.push(Line::bold(format!("your turn ({you}):")));
    for (i, a) in game.legal_views().iter().enumerate() {
        out.push(Line::plain(format!("  {:>2}  {}", i + 1, a.label)));
    }
    out
}

/// Everything face up, every seat's score, and who won, for `seat`'s person.
pub fn end_text<G: Game>(game: &G, seat: usize, seats: &[String]) -> Result<Vec<Line>, GameError> {
    let mut out = vec![Line::plain("")];
    let view = game.view_json(None)?;
    out.extend(view_lines(&view).into_iter().map(Line::plain));
    out.extend(game.score_lines()?.into_iter().map(Line::plain));
    out.push(Line::bold(winners_line(game, Some(seat), seats)?));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_reads_as_a_head_line_and_a_line_per_seat() {
        let view = serde_json::json!({
            "round": 2, "pile_top": "c5", "winners": null,
            "players": [{ "seat": 0, "score": 7, "hand": ["c3", "c9"] }, { "seat": 1, "score": 4, "hand_size": 2 }],
            "deck": []
        });
        assert_eq!(
            view_lines(&view),
            ["round 2, pile_top c5, deck none", "  seat 0: score 7, hand c3 c9", "  seat 1: score 4, hand_size 2"]
        );
        assert_eq!(view_lines(&serde_json::json!({ "rows": [{ "a": 1 }] })), ["", "  rows 0: a 1"]);
    }
}
