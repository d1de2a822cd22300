//! The report and the comparison as one self-contained HTML page: inline
//! CSS and SVG, no scripts, nothing fetched.

use std::fmt::Write as _;

use crate::feel::{Feel, Skill};
use crate::format::{IMPACT_NOTE, NOTE, describe, feel_lines, feel_title, histogram_columns, length_line, title};
use crate::markup::esc;
use crate::one::{PlayerStats, Report};
use crate::stats::Rate;
use crate::svg::{Bar, BarRow, SignedRow, diff_chart, hbar_chart, signed_chart, vbar_chart};
use crate::table::{
    building_diff_table, building_table, impact_table, length_diff_table, matchup_table, player_diff_table,
    player_table,
};
use crate::two::{Comparison, PlayerDiff};

/// The head of the types' table: what a row counts.
const TYPES_HEAD: &str = "<h2>Building types</h2>\n<p>Each row counts every card of a type: built is holding one got in round 1 or later.</p>\n";

const CSS: &str = "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;max-width:1000px;margin:2em auto;padding:0 1em}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}\
.meta{color:#555}.note{color:#666;font-size:12px}\
table{border-collapse:collapse;margin:.8em 0;font-size:13px}\
th,td{padding:2px 8px;border-bottom:1px solid #eee;text-align:left;white-space:nowrap}td.wrap{white-space:normal}\
th.n,td.n{text-align:right;font-variant-numeric:tabular-nums}\
thead th{border-bottom:2px solid #999}tr.sig td{background:#fff4d6}\
svg{display:block;margin:.6em 0;font:11px system-ui,sans-serif}\
svg text{fill:#333}.axis{stroke:#bbb}.grid{stroke:#eee}.whisker{stroke:#222;stroke-width:1.2}\
.ref{stroke:#c33;stroke-dasharray:4 3}.mark{stroke:#111;stroke-width:2.5}";

fn html_head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        esc(title),
        esc(title)
    )
}

fn html_tail() -> String {
    format!("<p class=\"note\">{}</p>\n</body>\n</html>\n", esc(NOTE))
}

/// The fair win rate 1/players when every game has the same player count.
fn fair_share(r: &Report) -> Option<(f64, String)> {
    match r.player_counts.keys().collect::<Vec<_>>()[..] {
        [&p] if p > 0 => Some((1.0 / p as f64, format!("1/{p}"))),
        _ => None,
    }
}

/// The report as one self-contained HTML page: inline CSS, inline SVG
/// charts, no scripts, no external files.
pub fn render_html(r: &Report) -> String {
    let title = format!("{}: {}", title(&r.game, "balance report"), r.rulesets.join(", "));
    let mut out = html_head(&title);
    let _ =
        writeln!(out, "<p class=\"meta\">{}</p>", describe(r).iter().map(|l| esc(l)).collect::<Vec<_>>().join("<br>"));
    let single = |rows: &[PlayerStats]| -> Vec<BarRow> {
        rows.iter()
            .map(|s| BarRow {
                label: s.label.clone(),
                bars: vec![Bar::rate(&s.win_rate, "win rate")],
                mark: None,
                flag: false,
            })
            .collect()
    };

    out.push_str("<h2>Seats</h2>\n");
    hbar_chart(&mut out, "Win rate per seat (95% CI)", &single(&r.seats), &[], fair_share(r), true);
    out.push_str(&player_table(&r.seats, "seat").html());

    out.push_str("<h2>Bots</h2>\n");
    hbar_chart(&mut out, "Win rate per bot (95% CI, per player-game)", &single(&r.bots), &[], fair_share(r), true);
    out.push_str(&player_table(&r.bots, "bot").html());

    out.push_str("<h2>Game length</h2>\n");
    let _ = writeln!(out, "<p>{}</p>", esc(&length_line(&r.length)));
    let (cats, counts) = histogram_columns(&[&r.length.histogram]);
    vbar_chart(&mut out, "Games per number of rounds", &cats, &counts, &[], false, "rounds");

    out.push_str("<h2>Buildings</h2>\n");
    let built: Vec<BarRow> = r
        .buildings
        .iter()
        .map(|s| BarRow { label: s.id.clone(), bars: vec![Bar::rate(&s.built, "built")], mark: None, flag: false })
        .collect();
    hbar_chart(&mut out, "Share of player-games that built it (95% CI)", &built, &[], None, true);
    let wins: Vec<BarRow> = r
        .buildings
        .iter()
        .map(|s| BarRow {
            label: s.id.clone(),
            bars: vec![Bar::rate(&s.builders, "builders' win rate")],
            mark: Some(s.others.value),
            flag: s.significant,
        })
        .collect();
    hbar_chart(
        &mut out,
        "Win rate of its builders (95% CI); tick: non-builders; * p < 0.05",
        &wins,
        &["builders".to_owned()],
        None,
        true,
    );
    out.push_str(&building_table(&r.buildings, "building").html());
    if !r.types.is_empty() {
        out.push_str(TYPES_HEAD);
        out.push_str(&building_table(&r.types, "type").html());
    }
    for f in &r.feel {
        feel_html(&mut out, f);
    }
    if let Some(check) = &r.check {
        let lines = check.lines();
        let _ = writeln!(out, "<h2>The bots against {}</h2>\n<p>{}</p>", esc(&check.reference), esc(&lines[0]));
        let items: Vec<String> = lines[1..].iter().map(|l| format!("<li>{}</li>", esc(l.trim()))).collect();
        let _ = writeln!(out, "<ul>\n{}\n</ul>", items.join("\n"));
    }
    out.push_str(&html_tail());
    out
}

/// One player count's game-feel measures: a table of them, then the charts
/// that read better than numbers (margins, lead changes, bot pairs, cards).
fn feel_html(out: &mut String, f: &Feel) {
    let _ = writeln!(out, "<h2>{}</h2>", esc(&feel_title(f)));
    out.push_str("<table>\n<tbody>\n");
    for (what, line) in feel_lines(f) {
        let _ = writeln!(out, "<tr><th>{}</th><td class=\"wrap\">{}</td></tr>", esc(what), esc(&line));
    }
    out.push_str("</tbody>\n</table>\n");
    let (cats, counts) = histogram_columns(&[&f.margin.histogram]);
    vbar_chart(out, "Games per winning margin (top score minus the next)", &cats, &counts, &[], false, "points");
    if let Some(lead) = &f.lead {
        let (cats, counts) = histogram_columns(&[&lead.histogram]);
        vbar_chart(out, "Games per number of lead changes", &cats, &counts, &[], false, "lead changes");
    }
    if let Skill::Pairs(pairs) = &f.skill
        && !pairs.is_empty()
    {
        let rows: Vec<BarRow> = pairs
            .iter()
            .map(|m| BarRow {
                label: format!("{} vs {}", m.stronger, m.weaker),
                bars: vec![Bar::rate(&m.ahead, "stronger ahead")],
                mark: None,
                flag: false,
            })
            .collect();
        let even = Some((0.5, "luck alone".to_owned()));
        hbar_chart(out, "How often the stronger bot finishes ahead of the weaker (95% CI)", &rows, &[], even, true);
        out.push_str(&matchup_table(pairs).html());
    }
    if !f.cards.is_empty() {
        let rows: Vec<SignedRow> = f
            .cards
            .iter()
            .map(|c| SignedRow { label: c.id.clone(), diff: c.impact, flag: c.impact.significant })
            .collect();
        signed_chart(
            out,
            "Card impact: builders' win share minus the others', percentage points (95% CI); association, not cause",
            &rows,
        );
        out.push_str(&impact_table(&f.cards).html());
        let _ = writeln!(out, "<p class=\"note\">{}</p>", esc(IMPACT_NOTE));
    }
}

/// A comparison as one self-contained HTML page with side-by-side bars.
pub fn render_comparison_html(c: &Comparison) -> String {
    let name = |r: &Report| if r.rulesets.is_empty() { "-".to_owned() } else { r.rulesets.join(", ") };
    let legend = vec![format!("A: {}", name(&c.a)), format!("B: {}", name(&c.b))];
    let title = format!("{}: {} vs {}", title(&c.a.game, "balance comparison"), name(&c.a), name(&c.b));
    let mut out = html_head(&title);
    comparison_intro(&mut out, c);
    let fair = fair_share(&c.a).filter(|f| fair_share(&c.b).is_some_and(|g| g.1 == f.1));

    out.push_str("<h2>Game length</h2>\n");
    out.push_str(&length_diff_table(c).html());
    let (cats, shares) = histogram_columns(&[&c.a.length.histogram, &c.b.length.histogram]);
    vbar_chart(&mut out, "Share of games per number of rounds", &cats, &shares, &legend, true, "rounds");

    out.push_str("<h2>Seats</h2>\n");
    let seats = pair_rows(&c.seats, &c.a.seats, &c.b.seats);
    hbar_chart(&mut out, "Win rate per seat (95% CI); * p < 0.05", &seats, &legend, fair.clone(), true);
    out.push_str(&player_diff_table(&c.seats, "seat").html());

    out.push_str("<h2>Bots</h2>\n");
    let bots = pair_rows(&c.bots, &c.a.bots, &c.b.bots);
    hbar_chart(&mut out, "Win rate per bot (95% CI); * p < 0.05", &bots, &legend, fair, true);
    out.push_str(&player_diff_table(&c.bots, "bot").html());

    out.push_str("<h2>Buildings</h2>\n");
    building_charts(&mut out, c, &legend);
    out.push_str(&building_diff_table(c, &c.buildings, "building").html());
    if !c.types.is_empty() {
        out.push_str(TYPES_HEAD);
        out.push_str(&building_diff_table(c, &c.types, "type").html());
    }
    out.push_str(&html_tail());
    out
}

/// Each set's description, how to read the page, and what differs between the rulesets.
fn comparison_intro(out: &mut String, c: &Comparison) {
    for (label, r) in [("A", &c.a), ("B", &c.b)] {
        let _ = writeln!(out, "<p class=\"meta\"><b>{label}</b>: {}</p>", esc(&describe(r).join(" | ")));
    }
    out.push_str(
        "<p>Every difference is B − A (rates in percentage points), with its 95% interval. Highlighted rows \
         differ at a Holm-corrected p &lt; 0.05 by at least 2 percentage points (rates) or 0.5 (points, rounds).</p>\n",
    );
    if !c.changes.is_empty() {
        out.push_str("<h2>What differs from A to B</h2>\n<ul>\n");
        for line in &c.changes {
            let _ = writeln!(out, "<li><code>{}</code></li>", esc(line));
        }
        out.push_str("</ul>\n<p>The buildings these lines name come first in every chart and table below.</p>\n");
    }
}

/// One row per seat or bot with its win rates in A and B side by side.
fn pair_rows(diffs: &[PlayerDiff], a: &[PlayerStats], b: &[PlayerStats]) -> Vec<BarRow> {
    let find = |rows: &[PlayerStats], label: &str| {
        rows.iter().find(|s| s.label == label).map_or(Rate::wilson(0.0, 0), |s| s.win_rate)
    };
    diffs
        .iter()
        .map(|d| BarRow {
            label: d.label.clone(),
            bars: vec![Bar::rate(&find(a, &d.label), "A win rate"), Bar::rate(&find(b, &d.label), "B win rate")],
            mark: None,
            flag: d.win_rate.significant,
        })
        .collect()
}

/// The buildings' charts: the difference of the built shares, then the built
/// shares and the builders' win rates of A and B side by side.
fn building_charts(out: &mut String, c: &Comparison, legend: &[String]) {
    diff_chart(out, "Built share, B − A in percentage points (95% CI); * flagged", c);
    let find = |r: &Report, id: &str| r.building_rates(&r.buildings, id);
    let built: Vec<BarRow> = c
        .buildings
        .iter()
        .map(|d| BarRow {
            label: d.id.clone(),
            bars: vec![Bar::rate(&find(&c.a, &d.id).0, "A built"), Bar::rate(&find(&c.b, &d.id).0, "B built")],
            mark: None,
            flag: d.built.significant,
        })
        .collect();
    hbar_chart(out, "Share of player-games that built it (95% CI); * p < 0.05", &built, legend, None, true);
    let wins: Vec<BarRow> = c
        .buildings
        .iter()
        .map(|d| BarRow {
            label: d.id.clone(),
            bars: vec![
                Bar::rate(&find(&c.a, &d.id).1, "A builders' win rate"),
                Bar::rate(&find(&c.b, &d.id).1, "B builders' win rate"),
            ],
            mark: None,
            flag: d.builders.significant,
        })
        .collect();
    hbar_chart(out, "Win rate of its builders (95% CI); * p < 0.05", &wins, legend, None, true);
}
