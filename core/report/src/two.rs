//! Set B against set A: every difference B − A with its interval and its
//! test, corrected per table column; and the records' bots against a
//! reference's sample (`check_bot`), a comparison read one way.

use std::collections::BTreeSet;

use engine_play::sim::GameRecord;

use crate::check::{BotCheck, CHECK_EFFECT};
use crate::one::{BuildingStats, PlayerStats, Report, report};
use crate::stats::{ALPHA, Diff, MIN_MEAN_EFFECT, MIN_RATE_EFFECT, Mean, Rate, control};

/// A seat or bot in sets A and B.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerDiff {
    /// "seat 0" or the bot's name.
    pub label: String,
    /// Win rate, two-proportion z-test.
    pub win_rate: Diff,
    /// Mean score, Welch z.
    pub score: Diff,
}

/// A building in sets A and B.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildingDiff {
    /// Card id.
    pub id: String,
    /// Share of player-games that built it.
    pub built: Diff,
    /// Win rate of its builders.
    pub builders: Diff,
    /// Mean round a copy was got in: in a game where nearly every card is
    /// bought by someone, when it is bought is what tells its worth.
    pub round: Diff,
}

/// Set B against set A: every difference is B − A.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Report of set A.
    pub a: Report,
    /// Report of set B.
    pub b: Report,
    /// Seats in either set.
    pub seats: Vec<PlayerDiff>,
    /// Bots in either set.
    pub bots: Vec<PlayerDiff>,
    /// Buildings in either set.
    pub buildings: Vec<BuildingDiff>,
    /// Building types in either set, where the records of both name types; empty otherwise.
    pub types: Vec<BuildingDiff>,
    /// The set (`"A"` or `"B"`) whose records name no types where the other's
    /// do (written before records carried types): its types would all read
    /// as never built, so the types are left out.
    pub types_unnamed: Option<&'static str>,
    /// Mean rounds per game.
    pub rounds: Diff,
    /// Share of stalled games.
    pub stalled: Diff,
    /// What differs between the two rulesets, a line each (`card X: cost 5 -> 6`);
    /// empty when not known. Set by the caller, who can load the rulesets.
    pub changes: Vec<String>,
}

fn player_diffs(a: &[PlayerStats], b: &[PlayerStats], order: impl Fn(&str) -> (usize, String)) -> Vec<PlayerDiff> {
    let empty = |label: &str| PlayerStats {
        label: label.to_owned(),
        games: 0,
        win_rate: Rate::wilson(0.0, 0),
        score: Mean::of(&[]),
    };
    let mut labels: Vec<&str> =
        a.iter().chain(b).map(|s| s.label.as_str()).collect::<BTreeSet<_>>().into_iter().collect();
    labels.sort_by_key(|l| order(l));
    labels
        .into_iter()
        .map(|label| {
            let sa = a.iter().find(|s| s.label == label).cloned().unwrap_or_else(|| empty(label));
            let sb = b.iter().find(|s| s.label == label).cloned().unwrap_or_else(|| empty(label));
            PlayerDiff {
                label: label.to_owned(),
                win_rate: Diff::rates(&sa.win_rate, &sb.win_rate),
                score: Diff::means(&sa.score, &sb.score),
            }
        })
        .collect()
}

/// Compares set B with set A.
pub fn compare(a: &[GameRecord], b: &[GameRecord]) -> Comparison {
    let (ra, rb) = (report(a), report(b));
    let seat_order = |l: &str| (l.trim_start_matches("seat ").parse().unwrap_or(usize::MAX), l.to_owned());
    let seats = player_diffs(&ra.seats, &rb.seats, seat_order);
    let bots = player_diffs(&ra.bots, &rb.bots, |l| (0, l.to_owned()));
    let buildings = building_diffs(&ra, &rb, |r| &r.buildings);
    let types_unnamed = match (ra.types.is_empty(), rb.types.is_empty()) {
        (true, false) => Some("A"),
        (false, true) => Some("B"),
        _ => None,
    };
    let types = if types_unnamed.is_some() { Vec::new() } else { building_diffs(&ra, &rb, |r| &r.types) };
    let mut rounds = Diff::means(&ra.length.rounds, &rb.length.rounds);
    let mut stalled = Diff::rates(&ra.length.stalled, &rb.length.stalled);
    let (mut seats, mut bots): (Vec<PlayerDiff>, Vec<PlayerDiff>) = (seats, bots);
    // Each table column is a family of tests.
    for rows in [&mut seats, &mut bots] {
        control(rows.iter_mut().map(|d| &mut d.win_rate), MIN_RATE_EFFECT);
        control(rows.iter_mut().map(|d| &mut d.score), MIN_MEAN_EFFECT);
    }
    control([&mut rounds], MIN_MEAN_EFFECT);
    control([&mut stalled], MIN_RATE_EFFECT);
    Comparison { a: ra, b: rb, seats, bots, buildings, types, types_unnamed, rounds, stalled, changes: Vec::new() }
}

/// Each row of `rows` (the buildings, or their types) in A against B, each
/// column's tests corrected as a family.
fn building_diffs(ra: &Report, rb: &Report, rows: fn(&Report) -> &Vec<BuildingStats>) -> Vec<BuildingDiff> {
    let (rows_a, rows_b) = (rows(ra), rows(rb));
    let ids: BTreeSet<&str> = rows_a.iter().chain(rows_b).map(|s| s.id.as_str()).collect();
    let mut diffs: Vec<BuildingDiff> = ids
        .into_iter()
        .map(|id| {
            let ((built_a, win_a), (built_b, win_b)) = (ra.building_rates(rows_a, id), rb.building_rates(rows_b, id));
            BuildingDiff {
                id: id.to_owned(),
                built: Diff::rates(&built_a, &built_b),
                builders: Diff::rates(&win_a, &win_b),
                round: Diff::means(&Report::building_round(rows_a, id), &Report::building_round(rows_b, id)),
            }
        })
        .collect();
    control(diffs.iter_mut().map(|d| &mut d.built), MIN_RATE_EFFECT);
    control(diffs.iter_mut().map(|d| &mut d.builders), MIN_RATE_EFFECT);
    control(diffs.iter_mut().map(|d| &mut d.round), MIN_MEAN_EFFECT);
    diffs
}

impl Comparison {
    /// Records what differs between the rulesets and puts the buildings those
    /// lines name first (in the order of the lines), the rest after.
    pub fn set_changes(&mut self, lines: Vec<String>) {
        let first = |d: &BuildingDiff| lines.iter().position(|l| names(l, &d.id)).unwrap_or(usize::MAX);
        self.buildings.sort_by_key(|d| (first(d), d.id.clone()));
        self.types.sort_by_key(|d| (first(d), d.id.clone()));
        self.changes = lines;
    }

    /// True when a building is named by a line of [`Comparison::changes`].
    pub fn changed(&self, id: &str) -> bool {
        self.changes.iter().any(|l| names(l, id))
    }
}

/// True when `line` names `id` as a whole word (`card forge: …` names `forge`, not `for`).
fn names(line: &str, id: &str) -> bool {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == id)
}

/// Checks the built shares of `records` against `sample`, played by `reference`.
pub fn check_bot(records: &[GameRecord], sample: &[GameRecord], reference: &str) -> BotCheck {
    let c = compare(records, sample);
    let mut misjudged: Vec<(String, Diff)> = c
        .buildings
        .into_iter()
        // The interval shown must agree: with few games the pooled test and the interval can disagree.
        .filter(|b| {
            b.built.p_adj < ALPHA && b.built.diff.abs() >= CHECK_EFFECT && (b.built.lo > 0.0 || b.built.hi < 0.0)
        })
        .map(|b| (b.id, b.built))
        .collect();
    misjudged.sort_by(|x, y| y.1.diff.abs().total_cmp(&x.1.diff.abs()).then_with(|| x.0.cmp(&y.0)));
    let mut names = records.iter().flat_map(|r| &r.bots);
    let first = names.next().map_or("", String::as_str);
    let played_by = match first {
        _ if names.any(|b| b != first) => "the records' bots".to_owned(),
        "balance" => "the default bot".to_owned(),
        bot => format!("`{bot}`"),
    };
    BotCheck { reference: reference.to_owned(), games: sample.len() as u64, played_by, misjudged }
}
