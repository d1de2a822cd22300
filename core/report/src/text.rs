//! The report and the comparison as plain-text tables, for a terminal.

use std::fmt::Write as _;

use crate::feel::{Feel, Skill};
use crate::format::{IMPACT_NOTE, NOTE, describe, feel_lines, feel_title, histogram_columns, length_line, title};
use crate::one::Report;
use crate::table::{
    building_diff_table, building_table, impact_table, length_diff_table, matchup_table, player_diff_table,
    player_table,
};
use crate::two::Comparison;

/// The head of the types' table: what a row counts.
const TYPES: &str =
    "Building types (per player-game; a type is built when one of its cards got in round 1 or later is held)";

/// The report as plain-text tables.
pub fn render_text(r: &Report) -> String {
    let mut out = format!("{}\n", title(&r.game, "balance report"));
    for line in describe(r) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "\nGame length: {}", length_line(&r.length));
    let (labels, series) = histogram_columns(&[&r.length.histogram]);
    let counts = series.first().cloned().unwrap_or_default();
    let most = counts.iter().copied().fold(0.0, f64::max);
    let width = labels.iter().map(String::len).max().unwrap_or(3).max(3);
    for (label, count) in labels.iter().zip(&counts) {
        let bar = "#".repeat((40.0 * count / most.max(1.0)).ceil() as usize);
        let _ = writeln!(out, "  {label:>width$} rounds {count:>7}  {bar}");
    }
    let _ = write!(out, "\nSeats\n{}", player_table(&r.seats, "seat").text());
    let _ = write!(out, "\nBots\n{}", player_table(&r.bots, "bot").text());
    let _ = write!(out, "\nBuildings (per player-game)\n{}", building_table(&r.buildings, "building").text());
    if !r.types.is_empty() {
        let _ = write!(out, "\n{TYPES}\n{}", building_table(&r.types, "type").text());
    }
    for f in &r.feel {
        feel_text(&mut out, f);
    }
    if let Some(check) = &r.check {
        let _ = writeln!(out, "\n{}", check.lines().join("\n"));
    }
    let _ = writeln!(out, "\n{NOTE}");
    out
}

/// One player count's game-feel measures: a line each, the bot pairs, the cards.
fn feel_text(out: &mut String, f: &Feel) {
    let _ = writeln!(out, "\n{}", feel_title(f));
    for (what, line) in feel_lines(f) {
        let _ = writeln!(out, "  {what}: {line}");
    }
    if let Skill::Pairs(pairs) = &f.skill
        && pairs.len() > 1
    {
        let _ =
            write!(out, "\nStronger bot ahead of the weaker ({} players)\n{}", f.players, matchup_table(pairs).text());
    }
    if !f.cards.is_empty() {
        let _ = write!(out, "\nCard impact ({} players)\n{}", f.players, impact_table(&f.cards).text());
        let _ = writeln!(out, "{IMPACT_NOTE}");
    }
}

/// A comparison as plain-text tables. Differences are B − A; rates in
/// percentage points.
pub fn render_comparison_text(c: &Comparison) -> String {
    let mut out = format!("{} (differences are B − A)\n", title(&c.a.game, "balance comparison"));
    for (name, r) in [("A", &c.a), ("B", &c.b)] {
        let _ = writeln!(out, "{name}: {}", describe(r).join(" | "));
    }
    if !c.changes.is_empty() {
        let _ = writeln!(out, "\nWhat differs from A to B (its buildings come first below):");
        for line in &c.changes {
            let _ = writeln!(out, "  {line}");
        }
    }
    let _ = write!(out, "\n{}", length_diff_table(c).text());
    let _ = write!(out, "\nSeats\n{}", player_diff_table(&c.seats, "seat").text());
    let _ = write!(out, "\nBots\n{}", player_diff_table(&c.bots, "bot").text());
    let _ = write!(out, "\nBuildings (per player-game)\n{}", building_diff_table(c, &c.buildings, "building").text());
    if !c.types.is_empty() {
        let _ = write!(out, "\n{TYPES}\n{}", building_diff_table(c, &c.types, "type").text());
    }
    let _ = writeln!(out, "\n{NOTE}");
    out
}
