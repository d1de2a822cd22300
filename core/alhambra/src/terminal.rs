//! Alhambra's words at a terminal: the table, the choices before a person's
//! decision, and the game's end. Plain data: the front end prints it.

use engine_game::Game as _;
use engine_game::Line;

use crate::game::Game;

/// "1 point", "9 points".
fn points(n: i32) -> String {
    if n == 1 { "1 point".into() } else { format!("{n} points") }
}

/// The table as `viewer` sees it (`None`: everything).
pub fn state_text(game: &Game, viewer: Option<usize>) -> Vec<String> {
    let v = game.view(viewer);
    let mut out = vec![format!(
        "turn {}, money deck {}, building deck {}, discard {}, scorings done: {}",
        v.turn,
        v.deck_size,
        v.building_deck_size,
        v.discard.len(),
        if v.scored.is_empty() { "none".to_owned() } else { v.scored.join(", ") }
    )];
    let slots: Vec<String> = v
        .building_display
        .iter()
        .map(|s| match (&s.building, s.price) {
            (Some(_), Some(p)) => format!("{}: {} {p} ({})", s.slot, s.kind.as_deref().unwrap_or("?"), s.currency),
            _ => format!("{}: empty ({})", s.slot, s.currency),
        })
        .collect();
    out.push(format!("buildings for sale: {}", slots.join(" | ")));
    out.push(format!("money on display: {}", v.money_display.join(", ")));
    let counts = |c: &std::collections::BTreeMap<String, u8>| -> String {
        if c.is_empty() {
            return "no buildings".into();
        }
        game.rules()
            .types
            .iter()
            .filter_map(|t| c.get(&t.id).map(|n| format!("{} {n}", t.id)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for p in &v.players {
        let hand = match &p.head.hand {
            Some(h) if h.is_empty() => "no money".to_owned(),
            Some(h) => format!("money {} (total {})", h.join(" "), game.player(p.head.seat).money()),
            None if p.head.hand_size == 1 => "1 money card".to_owned(),
            None => format!("{} money cards", p.head.hand_size),
        };
        // A script's counters, when it keeps any: per type, then by name.
        let kept: Vec<String> = p.counters.iter().chain(&p.player_counters).map(|(k, n)| format!("{k} {n}")).collect();
        let kept = if kept.is_empty() { String::new() } else { format!("; counters {}", kept.join(", ")) };
        // Bonus cards count in their type's number (or not at all): named, so that none goes unseen.
        let rs = game.rules();
        let bonus: Vec<&str> = (game.player(p.head.seat).buildings.iter())
            .filter(|&&b| rs.counts_as[rs.building(b).kind as usize].is_some())
            .map(|&b| rs.building(b).id.as_str())
            .collect();
        let bonus = if bonus.is_empty() { String::new() } else { format!(" (bonus cards {})", bonus.join(" ")) };
        let reserve = if p.reserve.is_empty() { String::new() } else { format!("; reserve {}", p.reserve.join(" ")) };
        let (seat, score) = (p.head.seat, points(p.score.total));
        out.push(format!("  seat {seat}: {score}; {}{bonus}; {hand}{reserve}{kept}", counts(&p.counts)));
    }
    if let Some(n) = &v.neutral {
        out.push(format!("  {} (neutral): {}; {}", n.name, points(n.score.total), counts(&n.counts)));
    }
    if !v.unclaimed.is_empty() {
        out.push(format!("unclaimed at the end: {}", v.unclaimed.join(", ")));
    }
    out
}

/// The table, then who must decide what with every legal action in the
/// notation (or who won).
pub fn table_text(game: &Game, viewer: Option<usize>) -> Vec<String> {
    let mut out = state_text(game, viewer);
    if let Some(d) = game.pending() {
        let rs = game.rules();
        let legal: Vec<String> = game.legal_actions().iter().map(|a| a.text(rs)).collect();
        out.push(format!("seat {} must {}: {}", d.seat(), game.task(d), legal.join(" | ")));
    } else if game.is_over() {
        let winners: Vec<String> = game.winners().iter().map(|w| format!("seat {w}")).collect();
        out.push(format!(
            "game over: {} {}",
            winners.join(" and "),
            if winners.len() == 1 { "wins" } else { "share the victory" }
        ));
    }
    out
}

/// The screen before `seat` decides: the table (with `full`), the task and the numbered choices.
pub fn screen(game: &Game, seat: usize, full: bool) -> Vec<Line> {
    let mut out = Vec::new();
    if full {
        out.push(Line::plain(""));
        out.extend(state_text(game, Some(seat)).into_iter().map(Line::plain));
    }
    let Some(d) = game.pending() else { return out };
    out.push(Line::bold(format!("{}:", game.task(d))));
    let rs = game.rules();
    for (i, a) in game.legal_actions().iter().enumerate() {
        out.push(Line::plain(format!("  {:>2}  {}", i + 1, a.text(rs))));
    }
    out
}

/// Alhambra's lines of the help.
pub const HELP: &str = "  take denar3 ducat2
               take money from the display (`done` stops taking)
  buy 2 pay ducat5 ducat4
               buy the building in slot 2 with these cards (slots are numbered from 1)
  keep, donate with two players: keep the building bought, or give it to the neutral player";

/// The end: the whole table face up and who won.
pub fn end_text(game: &Game, seat: usize) -> Vec<Line> {
    let mut out = vec![Line::plain("")];
    out.extend(state_text(game, None).into_iter().map(Line::plain));
    let winners = game.winners();
    let names: Vec<String> =
        winners.iter().map(|w| if *w == seat { "you".into() } else { format!("seat {w}") }).collect();
    out.push(Line::plain(format!(
        "game over: {} {}",
        names.join(" and "),
        if winners.len() == 1 { "wins" } else { "share the victory" }
    )));
    out
}
