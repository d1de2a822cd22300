//! Balance reports over game records (`simulate --json-lines`), for any game:
//! reading and merging shards, statistics per seat, per bot and per
//! building with 95% confidence intervals, the comparison of two record
//! sets with significance tests, and rendering as a text table or as one
//! self-contained HTML page. Pure functions: no I/O.
//!
//! The statistics, so a reader can check them by hand:
//! - a win rate counts a shared win as 1/k to each of k winners; its 95%
//!   interval is Wilson's score interval with z = 1.96;
//! - a mean's 95% interval is mean ± 1.96·sd/√n (sd with n − 1);
//! - a building counts as built by a player when their final holdings hold a
//!   copy got in round 1 or later (one dealt at setup, round 0, does not);
//!   buildings covered or otherwise gone by the end are not seen;
//! - two rates are compared with the pooled two-proportion z-test, two means
//!   with Welch's z (normal approximation); p-values are two-sided; a
//!   difference B − A has a 95% interval (Wald: d ± 1.96·√(se_a² + se_b²));
//! - a family of tests (one table column: the buildings' shares, the seats'
//!   win rates, …) is corrected by Holm's step-down method, and a difference
//!   is flagged only when its corrected p is below 0.05 *and* it is at least
//!   as large as [`MIN_RATE_EFFECT`] (rates) or [`MIN_MEAN_EFFECT`] (points,
//!   rounds): with enough games every tiny difference is "significant", and
//!   a designer needs the ones large enough to matter.
//!
//! Player-games of one game are not independent (one seat's win is another's
//! loss), so intervals over player-games (per bot, per building) are a little
//! optimistic.
//!
//! One module per concept, so each number has one road: `records` reads and
//! merges, `stats` holds the estimates and tests, `one` and `two` compute the
//! report of one set and the comparison of two, `check` the records' bots
//! against a reference search, and `text`, `html` and `svg`
//! only format what those computed (with `format` and `table` shared by both).

mod check;
mod feel;
mod format;
mod games;
mod html;
mod markup;
mod one;
mod records;
mod stats;
mod svg;
mod table;
mod text;
mod two;

pub use check::{BotCheck, CHECK_EFFECT};
pub use feel::{CardImpact, Feel, Lead, Margin, Matchup, Skill, lead_changes};
pub use games::Length;
pub use html::{render_comparison_html, render_html};
pub use one::{BuildingStats, PlayerStats, Report, Run, RunSummary, SummaryAcc, report, summary};
pub use records::{
    MAX_RECORD_PLAYERS, MAX_RECORD_ROUNDS, RECORD_SCORES, RecordCheck, ReportError, Shard, ShardReader, merge,
    merge_with, parse_json_lines, validate,
};
pub use stats::{
    ALPHA, Diff, MIN_MEAN_EFFECT, MIN_RATE_EFFECT, Mean, Quartiles, Rate, Z95, control, erfc, holm, two_proportion_p,
    two_sided_p, welch_p,
};
pub use text::{render_comparison_text, render_text};
pub use two::{BuildingDiff, Comparison, PlayerDiff, check_bot, compare};
