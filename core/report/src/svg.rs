//! Charts as inline SVG: horizontal bars with interval whiskers, a
//! histogram, and the differences of a comparison.

use std::fmt::Write as _;

use crate::format::{diff_ci, num, pct, pct_ci};
use crate::markup::esc;
use crate::stats::{Diff, Rate};
use crate::two::Comparison;

/// Set A's and set B's colours, in every chart and legend.
const COLORS: [&str; 2] = ["#4e79a7", "#f28e2b"];

pub(crate) struct Bar {
    value: f64,
    lo: f64,
    hi: f64,
    tip: String,
}

impl Bar {
    pub(crate) fn rate(r: &Rate, what: &str) -> Bar {
        Bar {
            value: r.value,
            lo: r.lo,
            hi: r.hi,
            tip: format!("{what}: {}% (95% CI {}), n = {}", pct(r.value), pct_ci(r.lo, r.hi), r.n),
        }
    }
}

/// One row of a horizontal bar chart: one bar per series and an optional
/// marker (a tick) drawn across the row.
pub(crate) struct BarRow {
    pub(crate) label: String,
    pub(crate) bars: Vec<Bar>,
    pub(crate) mark: Option<f64>,
    pub(crate) flag: bool,
}

/// A round tick step (1, 2, 2.5 or 5 times a power of ten) giving at most
/// four steps up to `max`, and the axis end: the first tick at or above `max`.
fn nice_axis(max: f64) -> (f64, f64) {
    if !max.is_finite() || max <= 0.0 {
        return (1.0, 0.25);
    }
    let rough = max / 4.0;
    let p = 10f64.powf(rough.log10().floor());
    let step =
        [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * p).find(|s| *s >= rough * (1.0 - 1e-9)).unwrap_or(10.0 * p);
    let end = step * (max / step - 1e-9).ceil().max(1.0);
    (end, step)
}

fn axis_label(v: f64, percent: bool) -> String {
    if percent {
        let p = 100.0 * v;
        if (p - p.round()).abs() < 1e-9 { format!("{p:.0}%") } else { format!("{p:.1}%") }
    } else if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// Where a horizontal bar chart's labels end and its plot starts.
const HBAR_LABEL: f64 = 170.0;
/// The width of a horizontal bar chart's plot.
const HBAR_PLOT: f64 = 480.0;
/// The height of one bar, its gap below included.
const HBAR: f64 = 14.0;

/// The largest value a horizontal bar chart must reach: bars, their
/// intervals, the rows' marks and the reference line.
fn hbar_reach(rows: &[BarRow], reference: Option<f64>) -> f64 {
    let bars = rows.iter().flat_map(|r| &r.bars).flat_map(|b| [b.value, b.hi]);
    let marks = rows.iter().filter_map(|r| r.mark);
    bars.chain(marks).chain(reference).filter(|v| v.is_finite()).fold(0f64, f64::max)
}

/// One bar at height `by`, its whisker and its value printed after the plot.
fn hbar(out: &mut String, b: &Bar, color: &str, by: f64, x: &impl Fn(f64) -> f64, percent: bool) {
    let mid = by + (HBAR - 2.0) / 2.0;
    if b.value.is_finite() {
        let _ = writeln!(
            out,
            "<rect x=\"{HBAR_LABEL}\" y=\"{by:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{color}\"><title>{}</title></rect>",
            x(b.value) - HBAR_LABEL,
            HBAR - 2.0,
            esc(&b.tip)
        );
    }
    if b.lo.is_finite() && b.hi.is_finite() {
        let (x1, x2) = (x(b.lo), x(b.hi));
        let _ = writeln!(
            out,
            "<path class=\"whisker\" fill=\"none\" d=\"M{x1:.1} {:.1}V{:.1}M{x1:.1} {mid:.1}H{x2:.1}M{x2:.1} {:.1}V{:.1}\"/>",
            mid - 3.0,
            mid + 3.0,
            mid - 3.0,
            mid + 3.0
        );
    }
    let text = if percent { format!("{}%", pct(b.value)) } else { num(b.value, 2) };
    let _ =
        writeln!(out, "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>", HBAR_LABEL + HBAR_PLOT + 8.0, mid + 4.0, esc(&text));
}

/// A horizontal bar chart with interval whiskers. Values are fractions
/// when `percent`.
pub(crate) fn hbar_chart(
    out: &mut String,
    title: &str,
    rows: &[BarRow],
    legend: &[String],
    reference: Option<(f64, String)>,
    percent: bool,
) {
    const W: f64 = 760.0;
    const GAP: f64 = 8.0;
    let series = rows.iter().map(|r| r.bars.len()).max().unwrap_or(1).max(1);
    let row_h = series as f64 * HBAR + GAP;
    let top = 38.0;
    let height = top + rows.len() as f64 * row_h + 26.0;
    let max = hbar_reach(rows, reference.as_ref().map(|r| r.0));
    let (max, step) = nice_axis(if percent { max.min(1.0) } else { max });
    let x = |v: f64| HBAR_LABEL + (v.clamp(0.0, max) / max) * HBAR_PLOT;
    let lx = svg_open(out, W, height, title, legend, HBAR_LABEL);
    if rows.iter().any(|r| r.mark.is_some()) {
        let _ = writeln!(
            out,
            "<line class=\"mark\" x1=\"{lx}\" x2=\"{lx}\" y1=\"20\" y2=\"32\"/><text x=\"{}\" y=\"30\">non-builders</text>",
            lx + 6.0
        );
    }
    // Grid and axis.
    let bottom = top + rows.len() as f64 * row_h;
    let ticks = (max / step).round() as u32;
    for k in 0..=ticks {
        let v = step * f64::from(k);
        let gx = x(v);
        let _ = writeln!(
            out,
            "<line class=\"{}\" x1=\"{gx:.1}\" x2=\"{gx:.1}\" y1=\"{top}\" y2=\"{bottom}\"/>\
             <text x=\"{gx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            if k == 0 { "axis" } else { "grid" },
            bottom + 14.0,
            axis_label(v, percent)
        );
    }
    for (i, row) in rows.iter().enumerate() {
        let y0 = top + i as f64 * row_h + GAP / 2.0;
        let weight = if row.flag { " font-weight=\"bold\"" } else { "" };
        let label = if row.flag { format!("{} *", row.label) } else { row.label.clone() };
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\"{weight}>{}</text>",
            HBAR_LABEL - 6.0,
            y0 + series as f64 * HBAR / 2.0 + 4.0,
            esc(&label)
        );
        for (j, b) in row.bars.iter().enumerate() {
            hbar(out, b, COLORS[j % 2], y0 + j as f64 * HBAR, &x, percent);
        }
        if let Some(m) = row.mark.filter(|m| m.is_finite()) {
            let mx = x(m);
            let _ = writeln!(
                out,
                "<line class=\"mark\" x1=\"{mx:.1}\" x2=\"{mx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"><title>non-builders: {}%</title></line>",
                y0 - 2.0,
                y0 + series as f64 * HBAR,
                pct(m)
            );
        }
    }
    if let Some((v, name)) = reference {
        let rx = x(v);
        let _ = writeln!(
            out,
            "<line class=\"ref\" x1=\"{rx:.1}\" x2=\"{rx:.1}\" y1=\"{:.1}\" y2=\"{bottom:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\" fill=\"#c33\">{}</text>",
            top - 4.0,
            rx + 3.0,
            top - 6.0,
            esc(&name)
        );
    }
    out.push_str("</svg>\n");
}

/// A vertical bar chart (a histogram): one group per category, one bar per series.
pub(crate) fn vbar_chart(
    out: &mut String,
    title: &str,
    categories: &[String],
    series: &[Vec<f64>],
    legend: &[String],
    percent: bool,
    axis: &str,
) {
    const W: f64 = 760.0;
    const H: f64 = 250.0;
    const LEFT: f64 = 50.0;
    const RIGHT: f64 = 10.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 40.0;
    let plot_w = W - LEFT - RIGHT;
    let plot_h = H - TOP - BOTTOM;
    let (max, step) = nice_axis(series.iter().flatten().copied().filter(|v| v.is_finite()).fold(0.0, f64::max));
    let y = |v: f64| TOP + plot_h - (v / max) * plot_h;
    let _ = svg_open(out, W, H, title, legend, LEFT);
    let ticks = (max / step).round() as u32;
    for k in 0..=ticks {
        let v = step * f64::from(k);
        let gy = y(v);
        let _ = writeln!(
            out,
            "<line class=\"{}\" x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{gy:.1}\" y2=\"{gy:.1}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            if k == 0 { "axis" } else { "grid" },
            W - RIGHT,
            LEFT - 4.0,
            gy + 4.0,
            axis_label(v, percent)
        );
    }
    let n = categories.len().max(1) as f64;
    let cat_w = plot_w / n;
    let k = series.len().max(1) as f64;
    let bar_w = cat_w * 0.8 / k;
    let every = (categories.len() / 25).max(1);
    for (i, cat) in categories.iter().enumerate() {
        let cx = LEFT + i as f64 * cat_w;
        for (j, s) in series.iter().enumerate() {
            let v = s.get(i).copied().unwrap_or(0.0);
            if !v.is_finite() {
                continue;
            }
            let tip = if percent { format!("{cat}: {}%", pct(v)) } else { format!("{cat}: {v}") };
            let _ = writeln!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{bar_w:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{}</title></rect>",
                cx + cat_w * 0.1 + j as f64 * bar_w,
                y(v),
                TOP + plot_h - y(v),
                COLORS[j % 2],
                esc(&tip)
            );
        }
        if i % every == 0 {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                cx + cat_w / 2.0,
                TOP + plot_h + 14.0,
                esc(cat)
            );
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
        LEFT + plot_w / 2.0,
        H - 6.0,
        esc(axis)
    );
    out.push_str("</svg>\n");
}

/// One row of a chart of signed differences.
pub(crate) struct SignedRow {
    pub(crate) label: String,
    pub(crate) diff: Diff,
    pub(crate) flag: bool,
}

/// One row per building: the difference B − A of its built share as a bar
/// from 0 with its 95% interval as a whisker; changed buildings first and named so.
pub(crate) fn diff_chart(out: &mut String, title: &str, c: &Comparison) {
    let rows: Vec<SignedRow> = c
        .buildings
        .iter()
        .map(|d| SignedRow {
            label: if c.changed(&d.id) { format!("{} (changed)", d.id) } else { d.id.clone() },
            diff: d.built,
            flag: d.built.significant,
        })
        .collect();
    signed_chart(out, title, &rows);
}

/// Signed differences in percentage points, a row each: a bar from 0 (blue
/// below, orange above) with its 95% interval as a whisker; `*` after a flagged row.
pub(crate) fn signed_chart(out: &mut String, title: &str, rows: &[SignedRow]) {
    const W: f64 = 760.0;
    const LABEL: f64 = 220.0;
    const PLOT: f64 = 480.0;
    const ROW: f64 = 18.0;
    let top = 38.0;
    let height = top + rows.len() as f64 * ROW + 26.0;
    let reach = rows
        .iter()
        .flat_map(|r| [r.diff.lo, r.diff.hi, r.diff.diff])
        .filter(|v| v.is_finite())
        .fold(0.01f64, |m, v| m.max(v.abs()));
    let x = |v: f64| LABEL + PLOT / 2.0 + v / reach * (PLOT / 2.0 - 4.0);
    svg_open(out, W, height, title, &[], LABEL);
    let zero = x(0.0);
    let _ = writeln!(out, "<line class=\"axis\" x1=\"{zero}\" y1=\"{top}\" x2=\"{zero}\" y2=\"{}\"/>", height - 22.0);
    for (i, r) in rows.iter().enumerate() {
        let y = top + i as f64 * ROW;
        let star = if r.flag { " *" } else { "" };
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}{star}</text>",
            LABEL - 6.0,
            y + 12.0,
            esc(&r.label)
        );
        let d = &r.diff;
        if d.diff.is_finite() {
            let (x0, x1) = (zero.min(x(d.diff)), zero.max(x(d.diff)));
            let color = COLORS[usize::from(d.diff > 0.0)];
            let tip = format!("{}: {} percentage points", r.label, diff_ci(d, true));
            let _ = writeln!(
                out,
                "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"10\" fill=\"{color}\"><title>{}</title></rect>",
                y + 3.0,
                (x1 - x0).max(0.5),
                esc(&tip)
            );
        }
        if d.lo.is_finite() && d.hi.is_finite() {
            let _ = writeln!(
                out,
                "<line class=\"whisker\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
                x(d.lo),
                y + 8.0,
                x(d.hi),
                y + 8.0
            );
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{:+.1}</text><text x=\"{zero}\" y=\"{}\" text-anchor=\"middle\">0</text><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{:+.1}</text>",
        x(-reach),
        height - 8.0,
        -100.0 * reach,
        height - 8.0,
        x(reach),
        height - 8.0,
        100.0 * reach
    );
    out.push_str("</svg>\n");
}

/// Opens an SVG chart: the element, its title and a legend starting at `legend_x`;
/// returns where the legend ends.
fn svg_open(out: &mut String, width: f64, height: f64, title: &str, legend: &[String], legend_x: f64) -> f64 {
    let t = esc(title);
    let _ = writeln!(
        out,
        "<svg width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>"
    );
    let _ = writeln!(out, "<text x=\"0\" y=\"14\" font-weight=\"bold\" font-size=\"13\">{t}</text>");
    let mut lx = legend_x;
    for (i, name) in legend.iter().enumerate() {
        let _ = writeln!(
            out,
            "<rect x=\"{lx}\" y=\"21\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{}\" y=\"30\">{}</text>",
            COLORS[i % 2],
            lx + 14.0,
            esc(name)
        );
        lx += 24.0 + 7.0 * name.chars().count() as f64;
    }
    lx
}
