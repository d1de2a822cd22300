//! Cells and lines shared by the text and the HTML renderings, so both print
//! a number the same way.

use std::collections::BTreeMap;

use crate::feel::{Feel, Skill};
use crate::games::Length;
use crate::one::Report;
use crate::stats::{Diff, Rate};

/// "<game> balance report", or "Balance report" for records that name no game.
pub(crate) fn title(game: &str, what: &str) -> String {
    if game.is_empty() {
        let mut w = what.to_owned();
        w[..1].make_ascii_uppercase();
        w
    } else {
        format!("{game} {what}")
    }
}

pub(crate) fn pct(x: f64) -> String {
    if x.is_finite() { format!("{:.1}", 100.0 * x) } else { "-".into() }
}

pub(crate) fn pct_ci(lo: f64, hi: f64) -> String {
    if lo.is_finite() && hi.is_finite() { format!("{:.1}–{:.1}", 100.0 * lo, 100.0 * hi) } else { "-".into() }
}

pub(crate) fn num(x: f64, decimals: usize) -> String {
    if x.is_finite() { format!("{x:.decimals$}") } else { "-".into() }
}

pub(crate) fn num_ci(lo: f64, hi: f64, decimals: usize) -> String {
    if lo.is_finite() && hi.is_finite() { format!("{lo:.decimals$}–{hi:.decimals$}") } else { "-".into() }
}

/// `+3.1 (1.2–5.0)`: a difference and its 95% interval, rates in percentage points.
pub(crate) fn diff_ci(d: &Diff, percent: bool) -> String {
    let k = if percent { 100.0 } else { 1.0 };
    let decimals = if percent { 1 } else { 2 };
    if d.lo.is_finite() && d.hi.is_finite() {
        format!("{} ({:+.decimals$} to {:+.decimals$})", signed(k * d.diff, decimals), k * d.lo, k * d.hi)
    } else {
        signed(k * d.diff, decimals)
    }
}

pub(crate) fn signed(x: f64, decimals: usize) -> String {
    if x.is_finite() { format!("{x:+.decimals$}") } else { "-".into() }
}

/// A p-value: 3 decimals from 0.1, 3 significant digits below (so 0.0497
/// does not read as 0.050), "<0.001" below 0.001.
pub(crate) fn pval(p: f64) -> String {
    if p.is_nan() {
        "-".into()
    } else if p < 0.001 {
        "<0.001".into()
    } else if p < 0.01 {
        format!("{p:.5}")
    } else if p < 0.1 {
        format!("{p:.4}")
    } else {
        format!("{p:.3}")
    }
}

pub(crate) fn star(significant: bool) -> String {
    if significant { "*".into() } else { String::new() }
}

pub(crate) fn length_line(l: &Length) -> String {
    format!(
        "mean {} rounds (95% CI {}), sd {}, median {}, quartiles {}, min {}, max {}; stalled {}% ({} games)",
        num(l.rounds.value, 2),
        num_ci(l.rounds.lo, l.rounds.hi, 2),
        num(l.rounds.sd, 2),
        short(l.quartiles.median),
        num_ci_short(l.quartiles.q1, l.quartiles.q3),
        l.min,
        l.max,
        pct(l.stalled.value),
        l.stalled.hits
    )
}

/// A quantile: whole numbers without decimals, others with one.
pub(crate) fn short(x: f64) -> String {
    if !x.is_finite() {
        "-".into()
    } else if (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

fn num_ci_short(lo: f64, hi: f64) -> String {
    if lo.is_finite() && hi.is_finite() { format!("{}–{}", short(lo), short(hi)) } else { "-".into() }
}

/// `37.8% (95% CI 31.3–44.6)`.
fn rate_ci(r: &Rate) -> String {
    format!("{}% (95% CI {})", pct(r.value), pct_ci(r.lo, r.hi))
}

/// "Game feel, 3 players (200 games)".
pub(crate) fn feel_title(f: &Feel) -> String {
    format!("Game feel, {} players ({} games)", f.players, f.games)
}

/// The game-feel measures of one player count as (measure, what it came to)
/// lines, the same in the text and the HTML report.
pub(crate) fn feel_lines(f: &Feel) -> Vec<(&'static str, String)> {
    let (adv, lo, hi) = f.seat_advantage();
    let seats: Vec<String> = f.seats.iter().map(|r| pct(r.value)).collect();
    let mut lines = vec![(
        "seat advantage",
        format!(
            "seat 0 wins {}, {} percentage points (95% CI {} to {}) against an even {}%; every seat: {} %{}",
            rate_ci(&f.seats.first().copied().unwrap_or(Rate::wilson(0.0, 0))),
            signed(100.0 * adv, 1),
            signed(100.0 * lo, 1),
            signed(100.0 * hi, 1),
            pct(f.even()),
            seats.join(" / "),
            if f.mixed_bots {
                " (the seats held different bots: this is the bots' strength as much as the seat's)"
            } else {
                ""
            }
        ),
    )];
    lines.push((
        "skill or luck",
        match &f.skill {
            Skill::SameBot(bot) => format!(
                "not measured: every seat is the {bot} bot; seat bots of different strength \
                 (simulate --bots balance,greedy,…) to see how often the stronger finishes ahead"
            ),
            Skill::Pairs(pairs) if pairs.is_empty() => "not measured: no game seats two different bots".into(),
            Skill::Pairs(pairs) => {
                let m = &pairs[0];
                format!(
                    "{} finishes ahead of {} in {} of {} meetings (50% would be pure luck){}",
                    m.stronger,
                    m.weaker,
                    rate_ci(&m.ahead),
                    m.ahead.n,
                    if pairs.len() > 1 { "; every pair below" } else { "" }
                )
            }
        },
    ));
    let m = &f.margin;
    lines.push((
        "winning margin",
        format!(
            "mean {} points (95% CI {}), sd {}, median {}, quartiles {}; shared wins {}, won on the tie-break {}",
            num(m.points.value, 2),
            num_ci(m.points.lo, m.points.hi, 2),
            num(m.points.sd, 2),
            short(m.quartiles.median),
            num_ci_short(m.quartiles.q1, m.quartiles.q3),
            rate_ci(&m.shared),
            rate_ci(&m.tie_break)
        ),
    ));
    let over = if f.untracked > 0 {
        format!(" (over the {} games with scores by round)", f.games - f.untracked)
    } else {
        String::new()
    };
    match &f.lead {
        None => lines.push((
            "lead changes",
            "not in these records: run simulate with --track-scores to record every seat's points after each round"
                .into(),
        )),
        Some(l) => {
            let none = l.histogram.get(&0).copied().unwrap_or(0) as f64 / l.changes.n.max(1) as f64;
            lines.push((
                "lead changes",
                format!(
                    "{} per game (95% CI {}), none in {}% of games{over}",
                    num(l.changes.value, 2),
                    num_ci(l.changes.lo, l.changes.hi, 2),
                    pct(none)
                ),
            ));
            lines.push((
                "comebacks",
                format!(
                    "the winner was behind after the half-way round in {}, last in {}{over}",
                    rate_ci(&l.comeback),
                    rate_ci(&l.from_last)
                ),
            ));
        }
    }
    lines.push(("game length", length_line(&f.length)));
    lines
}

pub(crate) const IMPACT_NOTE: &str = "Impact is the win share of the players who built a card minus that of those who did not, \
in percentage points, with its 95% interval; p corrected over all cards (Holm). It is an association, not a cause: \
a card its builders win with may be good, or simply the kind a player who is ahead (or has more to spend) builds.";

pub(crate) fn describe(r: &Report) -> Vec<String> {
    let rulesets = if r.rulesets.is_empty() { "-".to_owned() } else { r.rulesets.join(", ") };
    let players: Vec<String> = r.player_counts.iter().map(|(p, g)| format!("{p} players: {g}")).collect();
    let runs: Vec<String> = r
        .runs
        .iter()
        .map(|run| {
            let missing = run.missing();
            let gap = if missing > 0 { format!(", {missing} missing") } else { String::new() };
            format!("run seed {}: games {}–{}{gap}", run.run_seed, run.first, run.last)
        })
        .collect();
    vec![
        format!("ruleset {rulesets}"),
        format!("{} games, {} player-games ({})", r.games, r.player_games, players.join(", ")),
        runs.join("; "),
    ]
}

pub(crate) const NOTE: &str = "Win rates count a shared win as 1/k; intervals are 95% (Wilson for rates, mean ± 1.96·sd/√n for means). \
A building counts as built when a copy got in round 1 or later is in the final holdings; one dealt at setup does not count. \
Mean round: the round each such copy was got in; where nearly every card is bought by someone, a card got earlier is valued more. \
p: two-sided, two-proportion z-test for rates, Welch z for means, corrected over each column by Holm's method; \
* marks a corrected p < 0.05 with a difference of at least 2 percentage points (rates) or 0.5 (points, rounds). \
Builders of almost any building win more often than others simply because winners build more: \
compare buildings with each other rather than with the fair share.";

/// The most columns a histogram shows one round count each; a wider span is
/// grouped into about [`BINS`] ranges of equal width (a game of many short
/// turns lasts a hundred or more).
const MAX_SINGLE_COLUMNS: u32 = 30;

/// Columns of a grouped histogram.
const BINS: u32 = 20;

/// Histogram columns over the union of round counts, from the fewest to the
/// most with empty ones filled in, grouped into ranges when the span is wide.
/// One series per histogram, in counts when there is one histogram and in
/// shares of games otherwise.
pub(crate) fn histogram_columns(hists: &[&BTreeMap<u32, u64>]) -> (Vec<String>, Vec<Vec<f64>>) {
    let lo = hists.iter().filter_map(|h| h.keys().next()).min().copied();
    let hi = hists.iter().filter_map(|h| h.keys().next_back()).max().copied();
    let (Some(lo), Some(hi)) = (lo, hi) else { return (vec![], vec![]) };
    let span = u64::from(hi - lo) + 1;
    let width = if span <= u64::from(MAX_SINGLE_COLUMNS) { 1 } else { span.div_ceil(u64::from(BINS)) };
    let columns = span.div_ceil(width);
    let bin = |r: u32| (u64::from(r - lo) / width) as usize;
    let cats = (0..columns)
        .map(|i| {
            let start = u64::from(lo) + i * width;
            let end = (start + width - 1).min(u64::from(hi));
            if start == end { start.to_string() } else { format!("{start}-{end}") }
        })
        .collect();
    let series = hists
        .iter()
        .map(|h| {
            let total = h.values().sum::<u64>().max(1) as f64;
            let mut col = vec![0.0; columns as usize];
            for (&r, &c) in h.iter() {
                col[bin(r)] += c as f64;
            }
            if hists.len() > 1 {
                col.iter_mut().for_each(|c| *c /= total);
            }
            col
        })
        .collect();
    (cats, series)
}
