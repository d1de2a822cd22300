//! Cells and lines shared by the text and the HTML renderings, so both print
//! a number the same way.

use std::collections::BTreeMap;

use crate::one::{Length, Report};
use crate::stats::Diff;

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
        "mean {} rounds (95% CI {}), min {}, max {}; stalled {}% ({} games)",
        num(l.rounds.value, 2),
        num_ci(l.rounds.lo, l.rounds.hi, 2),
        l.min,
        l.max,
        pct(l.stalled.value),
        l.stalled.hits
    )
}

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
