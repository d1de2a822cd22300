//! Tables of a report or a comparison, laid out once and rendered as
//! aligned text or as HTML.

use std::fmt::Write as _;

use crate::feel::{CardImpact, Matchup};
use crate::format::{diff_ci, num, num_ci, pct, pct_ci, pval, star};
use crate::markup::esc;
use crate::one::{BuildingStats, PlayerStats};
use crate::stats::Diff;
use crate::two::{BuildingDiff, Comparison, PlayerDiff};

/// A table: headers, rows of cells, how many leading columns are text
/// (left-aligned), and which rows to highlight.
pub(crate) struct Table {
    headers: Vec<&'static str>,
    rows: Vec<Vec<String>>,
    left: usize,
    marked: Vec<bool>,
}

impl Table {
    pub(crate) fn text(&self) -> String {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let mut out = String::new();
        let line = |cells: &[String], out: &mut String| {
            let mut s = String::new();
            for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
                if i > 0 {
                    s.push_str("  ");
                }
                let pad = w - cell.chars().count();
                if i < self.left {
                    s.push_str(cell);
                    s.push_str(&" ".repeat(pad));
                } else {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(cell);
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        };
        line(&self.headers.iter().map(|h| (*h).to_owned()).collect::<Vec<_>>(), &mut out);
        for row in &self.rows {
            line(row, &mut out);
        }
        out
    }

    pub(crate) fn html(&self) -> String {
        let mut out = String::from("<table>\n<thead><tr>");
        for (i, h) in self.headers.iter().enumerate() {
            let class = if i < self.left { "" } else { " class=\"n\"" };
            let _ = write!(out, "<th{class}>{}</th>", esc(h));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for (row, marked) in self.rows.iter().zip(self.marked.iter().chain(std::iter::repeat(&false))) {
            out.push_str(if *marked { "<tr class=\"sig\">" } else { "<tr>" });
            for (i, cell) in row.iter().enumerate() {
                let class = if i < self.left { "" } else { " class=\"n\"" };
                let _ = write!(out, "<td{class}>{}</td>", esc(cell));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
        out
    }
}

pub(crate) fn player_table(rows: &[PlayerStats], first: &'static str) -> Table {
    Table {
        headers: vec![first, "games", "win %", "95% CI", "mean score", "95% CI"],
        rows: rows
            .iter()
            .map(|s| {
                vec![
                    s.label.clone(),
                    s.games.to_string(),
                    pct(s.win_rate.value),
                    pct_ci(s.win_rate.lo, s.win_rate.hi),
                    num(s.score.value, 2),
                    num_ci(s.score.lo, s.score.hi, 2),
                ]
            })
            .collect(),
        left: 1,
        marked: vec![],
    }
}

/// A report's `rows` (its buildings, or their types: `what` heads the first column).
pub(crate) fn building_table(rows: &[BuildingStats], what: &'static str) -> Table {
    Table {
        headers: vec![
            what,
            "built %",
            "95% CI",
            "builders",
            "builders win %",
            "95% CI",
            "others win %",
            "p Holm",
            "",
            "mean round",
        ],
        rows: rows
            .iter()
            .map(|s| {
                vec![
                    s.id.clone(),
                    pct(s.built.value),
                    pct_ci(s.built.lo, s.built.hi),
                    s.built.hits.to_string(),
                    pct(s.builders.value),
                    pct_ci(s.builders.lo, s.builders.hi),
                    pct(s.others.value),
                    pval(s.p_adj),
                    star(s.significant),
                    num(s.round.value, 1),
                ]
            })
            .collect(),
        left: 1,
        marked: rows.iter().map(|s| s.significant).collect(),
    }
}

/// A difference's five cells: A, B, B−A with its interval, the corrected p, the mark.
fn diff_cells(d: &Diff, percent: bool) -> [String; 5] {
    let (a, b) = if percent { (pct(d.a), pct(d.b)) } else { (num(d.a, 2), num(d.b, 2)) };
    [a, b, diff_ci(d, percent), pval(d.p_adj), star(d.significant)]
}

pub(crate) fn player_diff_table(rows: &[PlayerDiff], first: &'static str) -> Table {
    Table {
        headers: vec![
            first,
            "win % A",
            "win % B",
            "B−A (95% CI)",
            "p Holm",
            "",
            "score A",
            "score B",
            "B−A (95% CI)",
            "p Holm",
            "",
        ],
        rows: rows
            .iter()
            .map(|d| {
                let mut row = vec![d.label.clone()];
                row.extend(diff_cells(&d.win_rate, true));
                row.extend(diff_cells(&d.score, false));
                row
            })
            .collect(),
        left: 1,
        marked: rows.iter().map(|d| d.win_rate.significant || d.score.significant).collect(),
    }
}

/// The comparison's `rows` (its buildings, or their types: `what` heads the first column).
pub(crate) fn building_diff_table(c: &Comparison, rows: &[BuildingDiff], what: &'static str) -> Table {
    Table {
        headers: vec![
            what,
            "built % A",
            "built % B",
            "B−A (95% CI)",
            "p Holm",
            "",
            "builders win % A",
            "builders win % B",
            "B−A (95% CI)",
            "p Holm",
            "",
            "mean round A",
            "mean round B",
            "B−A (95% CI)",
            "p Holm",
            "",
        ],
        rows: rows
            .iter()
            .map(|d| {
                let mut row = vec![if c.changed(&d.id) { format!("{} (changed)", d.id) } else { d.id.clone() }];
                row.extend(diff_cells(&d.built, true));
                row.extend(diff_cells(&d.builders, true));
                row.extend(diff_cells(&d.round, false));
                row
            })
            .collect(),
        left: 1,
        marked: rows.iter().map(|d| d.built.significant || d.builders.significant || d.round.significant).collect(),
    }
}

pub(crate) fn length_diff_table(c: &Comparison) -> Table {
    let row = |label: &str, d: &Diff, percent: bool| {
        let mut row = vec![label.to_owned()];
        row.extend(diff_cells(d, percent));
        row
    };
    Table {
        headers: vec!["game length", "A", "B", "B−A (95% CI)", "p", ""],
        rows: vec![row("mean rounds", &c.rounds, false), row("stalled %", &c.stalled, true)],
        left: 1,
        marked: vec![c.rounds.significant, c.stalled.significant],
    }
}

pub(crate) fn matchup_table(pairs: &[Matchup]) -> Table {
    Table {
        headers: vec!["stronger", "weaker", "meetings", "stronger ahead %", "95% CI"],
        rows: pairs
            .iter()
            .map(|m| {
                vec![
                    m.stronger.clone(),
                    m.weaker.clone(),
                    m.ahead.n.to_string(),
                    pct(m.ahead.value),
                    pct_ci(m.ahead.lo, m.ahead.hi),
                ]
            })
            .collect(),
        left: 2,
        marked: vec![],
    }
}

pub(crate) fn impact_table(cards: &[CardImpact]) -> Table {
    Table {
        headers: vec!["building", "builders", "builders win %", "others win %", "impact (95% CI)", "p Holm", ""],
        rows: cards
            .iter()
            .map(|c| {
                vec![
                    c.id.clone(),
                    c.builders.n.to_string(),
                    pct(c.builders.value),
                    pct(c.others.value),
                    diff_ci(&c.impact, true),
                    pval(c.impact.p_adj),
                    star(c.impact.significant),
                ]
            })
            .collect(),
        left: 1,
        marked: cards.iter().map(|c| c.impact.significant).collect(),
    }
}
