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
//! - a building counts as built by a player when their final city holds a
//!   copy built in round 1 or later (the start building, round 0, does not);
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

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use engine_play::sim::GameRecord;

/// The normal quantile used for every 95% interval.
pub const Z95: f64 = 1.96;

/// The significance level of the `significant` flags (after Holm's correction).
pub const ALPHA: f64 = 0.05;

/// The smallest difference of two rates flagged: 2 percentage points.
pub const MIN_RATE_EFFECT: f64 = 0.02;

/// The smallest difference of two means flagged: half a point (or round).
pub const MIN_MEAN_EFFECT: f64 = 0.5;

/// Holm's step-down adjusted p-values (NaN stays NaN and does not count).
pub fn holm(ps: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..ps.len()).filter(|&i| ps[i].is_finite()).collect();
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]));
    let m = order.len();
    let mut out = vec![f64::NAN; ps.len()];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * ps[i]).min(1.0));
        out[i] = running;
    }
    out
}

/// Corrects a family of differences (Holm) and flags those that are both
/// significant and at least `min_effect` large.
pub fn control<'a>(family: impl IntoIterator<Item = &'a mut Diff>, min_effect: f64) {
    let mut diffs: Vec<&mut Diff> = family.into_iter().collect();
    let ps: Vec<f64> = diffs.iter().map(|d| d.p).collect();
    for (d, q) in diffs.iter_mut().zip(holm(&ps)) {
        d.p_adj = q;
        d.significant = q < ALPHA && d.diff.abs() >= min_effect;
    }
}

/// Why records could not be read or merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// A line that is not a game record.
    #[error("{file}:{line}: not a game record: {message}")]
    Parse {
        /// The file (or other source) name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What the JSON reader said.
        message: String,
    },
    /// A line that is a record by its types but not one a game can have written.
    #[error(
        "{file}:{line}: not a valid game record: {message}; give the unchanged records `simulate --json-lines` wrote"
    )]
    Invalid {
        /// The file (or other source) name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The same game (run seed, index) twice.
    #[error(
        "game {index} of run seed {run_seed} appears twice ({files}); \
         were the same shard or overlapping --seed-start ranges given?"
    )]
    Duplicate {
        /// Run seed of the game.
        run_seed: u64,
        /// Index of the game.
        index: u64,
        /// Where the two copies came from.
        files: String,
    },
    /// Records of two rulesets in one set.
    #[error(
        "records of different rulesets cannot be merged: `{first}` ({first_file}) and `{second}` ({second_file}); \
         compare the two sets instead"
    )]
    MixedRulesets {
        /// The first ruleset seen.
        first: String,
        /// Where it came from.
        first_file: String,
        /// The other ruleset.
        second: String,
        /// Where it came from.
        second_file: String,
    },
    /// Records under one ruleset id whose rules differ (a copied tree that kept the id).
    #[error(
        "records of ruleset `{ruleset}` were played with different content: fingerprint {first} ({first_file}) \
         and {second} ({second_file}); give a changed ruleset an id of its own, or pass --allow-mixed to merge anyway"
    )]
    MixedContent {
        /// The ruleset id both carry.
        ruleset: String,
        /// The first fingerprint seen.
        first: String,
        /// Where it came from.
        first_file: String,
        /// The other fingerprint.
        second: String,
        /// Where it came from.
        second_file: String,
    },
}

/// Records read from one source (a shard file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// The file or other source name, for error messages.
    pub source: String,
    /// Its records, in file order.
    pub records: Vec<GameRecord>,
    /// The line of each record in the file (empty: one record per line).
    pub lines: Vec<usize>,
}

impl Shard {
    /// Reads a shard from JSON-lines text; each record is validated ([`validate`]) for any game.
    pub fn parse(text: &str, source: &str) -> Result<Shard, ReportError> {
        Ok(Shard {
            source: source.to_owned(),
            records: parse_json_lines(text, source)?,
            lines: numbered(text).collect(),
        })
    }

    /// [`Shard::parse`], also refusing a record of a game not in `games`.
    pub fn parse_for(text: &str, source: &str, games: &[&str]) -> Result<Shard, ReportError> {
        let records = parse_json_lines(text, source)?;
        for (line, r) in numbered(text).zip(&records) {
            if !r.game.is_empty() && !games.contains(&r.game.as_str()) {
                return Err(ReportError::Invalid {
                    file: source.to_owned(),
                    line,
                    message: format!("unknown game `{}` (games: {})", clip(&r.game), games.join(", ")),
                });
            }
        }
        Ok(Shard { source: source.to_owned(), records, lines: numbered(text).collect() })
    }
}

impl Shard {
    /// `file:line` of record `i`, for messages.
    fn at(&self, i: usize) -> String {
        format!("{}:{}", self.source, self.lines.get(i).copied().unwrap_or(i + 1))
    }
}

/// The 1-based numbers of the non-blank lines of `text`.
fn numbered(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, _)| i + 1)
}

/// The most players a record may have.
pub const MAX_RECORD_PLAYERS: usize = 64;
/// The most rounds a record may have.
pub const MAX_RECORD_ROUNDS: u32 = 1_000_000;
/// The range of a final score.
pub const RECORD_SCORES: std::ops::RangeInclusive<i32> = -1000..=1_000_000;

/// A text from a record, cut short for a message.
fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect::<String>().escape_debug().to_string();
    if text.chars().nth(40).is_some() {
        out.push_str("...");
    }
    out
}

/// A text a record names (ruleset id, bot): short, one line, printable.
fn check_name(what: &str, text: &str) -> Result<(), String> {
    if text.trim().is_empty() || text.chars().any(char::is_control) || text.chars().nth(200).is_some() {
        return Err(format!(
            "{what} `{}` is empty, longer than 200 characters or holds a control character",
            clip(text)
        ));
    }
    Ok(())
}

/// Checks what a record's types cannot: a known version, a game for version 2,
/// 2 to [`MAX_RECORD_PLAYERS`] seats with a score, bot and city each, winners
/// among the seats and holding the top score, scores and rounds in range.
pub fn validate(r: &GameRecord) -> Result<(), String> {
    use engine_play::sim::RECORD_VERSION;
    if r.version == 0 || r.version > RECORD_VERSION {
        return Err(format!("record version {} is not one this program reads (1 to {RECORD_VERSION})", r.version));
    }
    if r.version >= 2 && r.game.is_empty() {
        return Err(format!("a version-{} record names its game", r.version));
    }
    if !r.game.is_empty() {
        check_name("game", &r.game)?;
    }
    check_name("ruleset", &r.ruleset)?;
    if r.fingerprint.len() > 64 || !r.fingerprint.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("fingerprint `{}` is not a hexadecimal digest", clip(&r.fingerprint)));
    }
    let players = r.bots.len();
    if !(2..=MAX_RECORD_PLAYERS).contains(&players) {
        return Err(format!("{players} seat(s) in `bots`: a game has 2 to {MAX_RECORD_PLAYERS}"));
    }
    for b in &r.bots {
        check_name("bot", b)?;
    }
    if r.scores.len() != players {
        return Err(format!("{} scores for {players} seats", r.scores.len()));
    }
    if !r.buildings.is_empty() && r.buildings.len() != players {
        return Err(format!("{} cities in `buildings` for {players} seats", r.buildings.len()));
    }
    if let Some(s) = r.scores.iter().find(|s| !RECORD_SCORES.contains(s)) {
        return Err(format!("score {s} is outside {} to {}", RECORD_SCORES.start(), RECORD_SCORES.end()));
    }
    if r.rounds > MAX_RECORD_ROUNDS {
        return Err(format!("{} rounds: a game has at most {MAX_RECORD_ROUNDS}", r.rounds));
    }
    if r.winners.is_empty() {
        return Err("no winner: every game has one".into());
    }
    let top = r.scores.iter().max().copied().unwrap_or_default();
    for (i, &w) in r.winners.iter().enumerate() {
        if w >= players {
            return Err(format!("winner seat {w} of a {players}-player game (seats are 0 to {})", players - 1));
        }
        if r.winners[..i].contains(&w) {
            return Err(format!("winner seat {w} is listed twice"));
        }
        if r.scores[w] != top {
            return Err(format!("winner seat {w} scored {}, less than the top score {top}", r.scores[w]));
        }
    }
    for city in &r.buildings {
        for b in city {
            check_name("building", &b.id)?;
            if b.round > r.rounds {
                return Err(format!(
                    "building `{}` built in round {} of a {}-round game",
                    clip(&b.id),
                    b.round,
                    r.rounds
                ));
            }
        }
    }
    Ok(())
}

/// Reads one `GameRecord` per non-blank line. An error names the source,
/// the line and the column.
pub fn parse_json_lines(text: &str, source_name: &str) -> Result<Vec<GameRecord>, ReportError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str::<GameRecord>(line).map_err(|e| {
            // serde_json ends its message with " at line 1 column N"; the line is ours.
            let full = e.to_string();
            let bare = full.rsplit_once(" at line ").map_or(full.as_str(), |(m, _)| m);
            ReportError::Parse {
                file: source_name.to_owned(),
                line: i + 1,
                message: format!("{bare} (column {})", e.column()),
            }
        })?;
        validate(&record).map_err(|message| ReportError::Invalid {
            file: source_name.to_owned(),
            line: i + 1,
            message,
        })?;
        out.push(record);
    }
    Ok(out)
}

/// Merges shards: concatenates them, sorts by (run seed, index) and rejects
/// a game that appears twice, records of more than one ruleset, and records of
/// one ruleset id played with different content.
pub fn merge(shards: Vec<Shard>) -> Result<Vec<GameRecord>, ReportError> {
    merge_with(shards, false)
}

/// [`merge`], optionally accepting one id with different content (`--allow-mixed`).
pub fn merge_with(shards: Vec<Shard>, allow_mixed: bool) -> Result<Vec<GameRecord>, ReportError> {
    // (record, shard, index in the shard)
    let mut tagged: Vec<(&GameRecord, usize, usize)> = Vec::new();
    let mut first: Option<(&str, usize, usize)> = None;
    let mut first_print: Option<(&str, usize, usize)> = None;
    for (k, shard) in shards.iter().enumerate() {
        for (i, r) in shard.records.iter().enumerate() {
            match first {
                None => first = Some((&r.ruleset, k, i)),
                Some((rs, fk, fi)) if rs != r.ruleset => {
                    return Err(ReportError::MixedRulesets {
                        first: rs.to_owned(),
                        first_file: shards[fk].at(fi),
                        second: r.ruleset.clone(),
                        second_file: shard.at(i),
                    });
                }
                Some(_) => {}
            }
            // Records written before fingerprints existed carry none: nothing to compare.
            if !allow_mixed && !r.fingerprint.is_empty() {
                match first_print {
                    None => first_print = Some((&r.fingerprint, k, i)),
                    Some((fp, fk, fi)) if fp != r.fingerprint => {
                        return Err(ReportError::MixedContent {
                            ruleset: r.ruleset.clone(),
                            first: fp.to_owned(),
                            first_file: shards[fk].at(fi),
                            second: r.fingerprint.clone(),
                            second_file: shard.at(i),
                        });
                    }
                    Some(_) => {}
                }
            }
            tagged.push((r, k, i));
        }
    }
    tagged.sort_by_key(|(r, k, i)| (r.run_seed, r.index, *k, *i));
    for w in tagged.windows(2) {
        let ((a, ka, ia), (b, kb, ib)) = (w[0], w[1]);
        if (a.run_seed, a.index) == (b.run_seed, b.index) {
            let files = format!("at {} and at {}", shards[ka].at(ia), shards[kb].at(ib));
            return Err(ReportError::Duplicate { run_seed: a.run_seed, index: a.index, files });
        }
    }
    Ok(tagged.into_iter().map(|(r, _, _)| r.clone()).collect())
}

// ---------------------------------------------------------------------------
// Estimates and tests

/// A proportion with its Wilson 95% interval. `hits` may be fractional
/// (shared wins). Every field but `hits` and `n` is NaN when `n` is 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Successes (a shared win counts 1/k).
    pub hits: f64,
    /// Trials.
    pub n: u64,
    /// hits / n.
    pub value: f64,
    /// Lower bound of the Wilson interval.
    pub lo: f64,
    /// Upper bound of the Wilson interval.
    pub hi: f64,
}

impl Rate {
    /// The rate `hits / n` and its Wilson score interval at z = 1.96.
    pub fn wilson(hits: f64, n: u64) -> Rate {
        if n == 0 {
            return Rate { hits, n, value: f64::NAN, lo: f64::NAN, hi: f64::NAN };
        }
        let nf = n as f64;
        let p = hits / nf;
        let z2 = Z95 * Z95;
        let denom = 1.0 + z2 / nf;
        let centre = (p + z2 / (2.0 * nf)) / denom;
        let half = Z95 / denom * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).max(0.0).sqrt();
        Rate { hits, n, value: p, lo: (centre - half).max(0.0), hi: (centre + half).min(1.0) }
    }
}

/// A mean with its 95% interval mean ± 1.96·sd/√n. `value` is NaN when
/// `n` is 0; `sd`, `lo` and `hi` are NaN when `n` is below 2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    /// Observations.
    pub n: u64,
    /// The mean.
    pub value: f64,
    /// Sample standard deviation (n − 1).
    pub sd: f64,
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

impl Mean {
    /// The mean of some observations.
    pub fn of(xs: &[f64]) -> Mean {
        let n = xs.len();
        if n == 0 {
            return Mean { n: 0, value: f64::NAN, sd: f64::NAN, lo: f64::NAN, hi: f64::NAN };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        if n == 1 {
            return Mean { n: 1, value: mean, sd: f64::NAN, lo: f64::NAN, hi: f64::NAN };
        }
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        let sd = var.sqrt();
        let half = Z95 * sd / (n as f64).sqrt();
        Mean { n: n as u64, value: mean, sd, lo: mean - half, hi: mean + half }
    }
}

/// The complementary error function, erfc(x) = 1 − erf(x), with fractional
/// error below 1.2e-7 everywhere: the Chebyshev fit `erfcc` of Press,
/// Teukolsky, Vetterling and Flannery, *Numerical Recipes in C*, 2nd ed.,
/// §6.2 (1992).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let ans = t * (-z * z + poly).exp();
    if x >= 0.0 { ans } else { 2.0 - ans }
}

/// The two-sided p-value of a standard normal statistic: P(|Z| ≥ |z|).
pub fn two_sided_p(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// Two-sided p-value of the pooled two-proportion z-test of `a` against `b`.
/// NaN when either has no trials; 1 when the pooled rate is 0 or 1.
pub fn two_proportion_p(a: &Rate, b: &Rate) -> f64 {
    if a.n == 0 || b.n == 0 {
        return f64::NAN;
    }
    let (na, nb) = (a.n as f64, b.n as f64);
    let pooled = (a.hits + b.hits) / (na + nb);
    let se = (pooled * (1.0 - pooled) * (1.0 / na + 1.0 / nb)).max(0.0).sqrt();
    let diff = b.value - a.value;
    if se == 0.0 {
        return if diff == 0.0 { 1.0 } else { 0.0 };
    }
    two_sided_p(diff / se)
}

/// Two-sided p-value of Welch's z for the difference of two means (unequal
/// variances, normal approximation). NaN when either side has fewer than 2
/// observations.
pub fn welch_p(a: &Mean, b: &Mean) -> f64 {
    if a.n < 2 || b.n < 2 {
        return f64::NAN;
    }
    let se = (a.sd * a.sd / a.n as f64 + b.sd * b.sd / b.n as f64).sqrt();
    let diff = b.value - a.value;
    if se == 0.0 {
        return if diff == 0.0 { 1.0 } else { 0.0 };
    }
    two_sided_p(diff / se)
}

/// One quantity in sets A and B, the difference B − A and its p-value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Diff {
    /// Value in set A.
    pub a: f64,
    /// Value in set B.
    pub b: f64,
    /// b − a.
    pub diff: f64,
    /// Lower bound of the 95% interval of b − a.
    pub lo: f64,
    /// Upper bound of the 95% interval of b − a.
    pub hi: f64,
    /// Two-sided p-value (NaN when it cannot be computed).
    pub p: f64,
    /// The p-value corrected for the other tests of its family (Holm).
    pub p_adj: f64,
    /// Corrected p < 0.05 and the difference at least the effect threshold.
    pub significant: bool,
}

impl Diff {
    fn with_p(a: f64, b: f64, se: f64, p: f64) -> Diff {
        let diff = b - a;
        let (lo, hi) = if se.is_finite() { (diff - Z95 * se, diff + Z95 * se) } else { (f64::NAN, f64::NAN) };
        Diff { a, b, diff, lo, hi, p, p_adj: p, significant: false }
    }

    /// Two rates, by the two-proportion z-test.
    pub fn rates(a: &Rate, b: &Rate) -> Diff {
        let var = |r: &Rate| if r.n == 0 { f64::NAN } else { r.value * (1.0 - r.value) / r.n as f64 };
        let d = Diff::with_p(a.value, b.value, (var(a) + var(b)).sqrt(), two_proportion_p(a, b));
        Diff { significant: d.p < ALPHA && d.diff.abs() >= MIN_RATE_EFFECT, ..d }
    }

    /// Two means, by Welch's z.
    pub fn means(a: &Mean, b: &Mean) -> Diff {
        let var = |m: &Mean| if m.n < 2 { f64::NAN } else { m.sd * m.sd / m.n as f64 };
        let d = Diff::with_p(a.value, b.value, (var(a) + var(b)).sqrt(), welch_p(a, b));
        Diff { significant: d.p < ALPHA && d.diff.abs() >= MIN_MEAN_EFFECT, ..d }
    }
}

// ---------------------------------------------------------------------------
// One record set

/// The games of one run seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The run seed.
    pub run_seed: u64,
    /// Games of this seed.
    pub games: u64,
    /// Lowest index.
    pub first: u64,
    /// Highest index.
    pub last: u64,
}

impl Run {
    /// Indices between `first` and `last` with no record (a missing shard).
    pub fn missing(&self) -> u64 {
        (self.last - self.first + 1).saturating_sub(self.games)
    }
}

/// Win rate and score of a seat or of a bot.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStats {
    /// "seat 0", or the bot's name.
    pub label: String,
    /// Player-games (for a seat: games).
    pub games: u64,
    /// Win rate (shared wins count 1/k).
    pub win_rate: Rate,
    /// Final score.
    pub score: Mean,
}

/// What became of one building across all player-games.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildingStats {
    /// Card id.
    pub id: String,
    /// Share of player-games whose final city holds a copy built in round 1 or later.
    pub built: Rate,
    /// Win rate of the players who built it.
    pub builders: Rate,
    /// Win rate of the players who did not.
    pub others: Rate,
    /// Two-proportion z-test p-value, builders against others.
    pub p: f64,
    /// `p` corrected over all buildings (Holm).
    pub p_adj: f64,
    /// Corrected p < 0.05 and builders' and others' win rates at least [`MIN_RATE_EFFECT`] apart.
    pub significant: bool,
    /// Round built, over every built copy.
    pub round: Mean,
}

/// Game length.
#[derive(Clone, Debug, PartialEq)]
pub struct Length {
    /// Rounds per game.
    pub rounds: Mean,
    /// Fewest rounds (0 when there are no games).
    pub min: u32,
    /// Most rounds.
    pub max: u32,
    /// Share of games ended by the `max_rounds` safety valve.
    pub stalled: Rate,
    /// Games per number of rounds.
    pub histogram: BTreeMap<u32, u64>,
}

/// The balance report of one record set.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The game, for titles: the records' game id, until the caller puts its display name here.
    pub game: String,
    /// Rulesets seen (one after `merge`).
    pub rulesets: Vec<String>,
    /// Games.
    pub games: u64,
    /// Player-games (games × players, summed).
    pub player_games: u64,
    /// Games per player count.
    pub player_counts: BTreeMap<usize, u64>,
    /// Games per run seed.
    pub runs: Vec<Run>,
    /// Per seat, by seat number.
    pub seats: Vec<PlayerStats>,
    /// Per bot name, by name.
    pub bots: Vec<PlayerStats>,
    /// Per building id seen in any city, by id.
    pub buildings: Vec<BuildingStats>,
    /// Game length.
    pub length: Length,
}

/// "<game> balance report", or "Balance report" for records that name no game.
fn title(game: &str, what: &str) -> String {
    if game.is_empty() {
        let mut w = what.to_owned();
        w[..1].make_ascii_uppercase();
        w
    } else {
        format!("{game} {what}")
    }
}

/// A seat's share of a game's win: 1/k if it is one of k winners.
fn win_share(r: &GameRecord, seat: usize) -> f64 {
    if r.winners.contains(&seat) { 1.0 / r.winners.len() as f64 } else { 0.0 }
}

#[derive(Default)]
struct Acc {
    wins: f64,
    scores: Vec<f64>,
}

impl Acc {
    fn stats(self, label: String) -> PlayerStats {
        let n = self.scores.len() as u64;
        PlayerStats { label, games: n, win_rate: Rate::wilson(self.wins, n), score: Mean::of(&self.scores) }
    }
}

#[derive(Default)]
struct BuildingAcc {
    built: u64,
    builder_wins: f64,
    other_wins: f64,
    rounds: Vec<f64>,
}

/// The report of one record set.
pub fn report(records: &[GameRecord]) -> Report {
    let rulesets: Vec<String> =
        records.iter().map(|r| r.ruleset.clone()).collect::<BTreeSet<_>>().into_iter().collect();
    let mut player_counts = BTreeMap::new();
    let mut runs: BTreeMap<u64, Run> = BTreeMap::new();
    let mut seats: Vec<Acc> = Vec::new();
    let mut bots: BTreeMap<String, Acc> = BTreeMap::new();
    let mut buildings: BTreeMap<String, BuildingAcc> = BTreeMap::new();
    let mut player_games = 0u64;
    for r in records {
        *player_counts.entry(r.scores.len()).or_insert(0) += 1;
        let run =
            runs.entry(r.run_seed).or_insert(Run { run_seed: r.run_seed, games: 0, first: r.index, last: r.index });
        run.games += 1;
        run.first = run.first.min(r.index);
        run.last = run.last.max(r.index);
        for city in &r.buildings {
            for b in city {
                buildings.entry(b.id.clone()).or_default();
            }
        }
    }
    for r in records {
        if seats.len() < r.scores.len() {
            seats.resize_with(r.scores.len(), Acc::default);
        }
        for (seat, &score) in r.scores.iter().enumerate() {
            player_games += 1;
            let share = win_share(r, seat);
            seats[seat].wins += share;
            seats[seat].scores.push(f64::from(score));
            let bot = r.bots.get(seat).cloned().unwrap_or_else(|| "?".to_owned());
            let acc = bots.entry(bot).or_default();
            acc.wins += share;
            acc.scores.push(f64::from(score));
            let city = r.buildings.get(seat).map_or(&[][..], Vec::as_slice);
            for (id, acc) in &mut buildings {
                let mut built = false;
                for b in city.iter().filter(|b| b.id == *id && b.round > 0) {
                    built = true;
                    acc.rounds.push(f64::from(b.round));
                }
                if built {
                    acc.built += 1;
                    acc.builder_wins += share;
                } else {
                    acc.other_wins += share;
                }
            }
        }
    }
    let rounds: Vec<f64> = records.iter().map(|r| f64::from(r.rounds)).collect();
    let mut histogram = BTreeMap::new();
    for r in records {
        *histogram.entry(r.rounds).or_insert(0) += 1;
    }
    let stalled = records.iter().filter(|r| r.stalled).count() as f64;
    let games = records.len() as u64;
    let mut report = Report {
        game: records.iter().map(|r| r.game.as_str()).find(|g| !g.is_empty()).unwrap_or_default().to_owned(),
        rulesets,
        games,
        player_games,
        player_counts,
        runs: runs.into_values().collect(),
        seats: seats.into_iter().enumerate().map(|(s, acc)| acc.stats(format!("seat {s}"))).collect(),
        bots: bots.into_iter().map(|(name, acc)| acc.stats(name)).collect(),
        buildings: buildings
            .into_iter()
            .map(|(id, acc)| {
                let builders = Rate::wilson(acc.builder_wins, acc.built);
                let others = Rate::wilson(acc.other_wins, player_games - acc.built);
                let p = two_proportion_p(&others, &builders);
                BuildingStats {
                    id,
                    built: Rate::wilson(acc.built as f64, player_games),
                    builders,
                    others,
                    p,
                    p_adj: p,
                    significant: false,
                    round: Mean::of(&acc.rounds),
                }
            })
            .collect(),
        length: Length {
            rounds: Mean::of(&rounds),
            min: records.iter().map(|r| r.rounds).min().unwrap_or(0),
            max: records.iter().map(|r| r.rounds).max().unwrap_or(0),
            stalled: Rate::wilson(stalled, games),
            histogram,
        },
    };
    let ps: Vec<f64> = report.buildings.iter().map(|b| b.p).collect();
    for (b, q) in report.buildings.iter_mut().zip(holm(&ps)) {
        b.p_adj = q;
        b.significant = q < ALPHA && (b.builders.value - b.others.value).abs() >= MIN_RATE_EFFECT;
    }
    report
}

// ---------------------------------------------------------------------------
// Two record sets

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
    let ids: BTreeSet<&str> = ra.buildings.iter().chain(&rb.buildings).map(|s| s.id.as_str()).collect();
    let buildings = ids
        .into_iter()
        .map(|id| {
            // A building absent from a set was built in none of its player-games.
            let side = |r: &Report| {
                r.buildings
                    .iter()
                    .find(|s| s.id == id)
                    .map_or((Rate::wilson(0.0, r.player_games), Rate::wilson(0.0, 0)), |s| (s.built, s.builders))
            };
            let ((built_a, win_a), (built_b, win_b)) = (side(&ra), side(&rb));
            BuildingDiff {
                id: id.to_owned(),
                built: Diff::rates(&built_a, &built_b),
                builders: Diff::rates(&win_a, &win_b),
            }
        })
        .collect();
    let mut rounds = Diff::means(&ra.length.rounds, &rb.length.rounds);
    let mut stalled = Diff::rates(&ra.length.stalled, &rb.length.stalled);
    let (mut seats, mut bots, mut buildings): (Vec<PlayerDiff>, Vec<PlayerDiff>, Vec<BuildingDiff>) =
        (seats, bots, buildings);
    // Each table column is a family of tests.
    for rows in [&mut seats, &mut bots] {
        control(rows.iter_mut().map(|d| &mut d.win_rate), MIN_RATE_EFFECT);
        control(rows.iter_mut().map(|d| &mut d.score), MIN_MEAN_EFFECT);
    }
    control(buildings.iter_mut().map(|d| &mut d.built), MIN_RATE_EFFECT);
    control(buildings.iter_mut().map(|d| &mut d.builders), MIN_RATE_EFFECT);
    control([&mut rounds], MIN_MEAN_EFFECT);
    control([&mut stalled], MIN_RATE_EFFECT);
    Comparison { a: ra, b: rb, seats, bots, buildings, rounds, stalled, changes: Vec::new() }
}

impl Comparison {
    /// Records what differs between the rulesets and puts the buildings those
    /// lines name first (in the order of the lines), the rest after.
    pub fn set_changes(&mut self, lines: Vec<String>) {
        let first = |d: &BuildingDiff| lines.iter().position(|l| names(l, &d.id)).unwrap_or(usize::MAX);
        self.buildings.sort_by_key(|d| (first(d), d.id.clone()));
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

// ---------------------------------------------------------------------------
// Formatting shared by text and HTML

fn pct(x: f64) -> String {
    if x.is_finite() { format!("{:.1}", 100.0 * x) } else { "-".into() }
}

fn pct_ci(lo: f64, hi: f64) -> String {
    if lo.is_finite() && hi.is_finite() { format!("{:.1}–{:.1}", 100.0 * lo, 100.0 * hi) } else { "-".into() }
}

fn num(x: f64, decimals: usize) -> String {
    if x.is_finite() { format!("{x:.decimals$}") } else { "-".into() }
}

fn num_ci(lo: f64, hi: f64, decimals: usize) -> String {
    if lo.is_finite() && hi.is_finite() { format!("{lo:.decimals$}–{hi:.decimals$}") } else { "-".into() }
}

/// `+3.1 (1.2–5.0)`: a difference and its 95% interval, rates in percentage points.
fn diff_ci(d: &Diff, percent: bool) -> String {
    let k = if percent { 100.0 } else { 1.0 };
    let decimals = if percent { 1 } else { 2 };
    if d.lo.is_finite() && d.hi.is_finite() {
        format!("{} ({:+.decimals$} to {:+.decimals$})", signed(k * d.diff, decimals), k * d.lo, k * d.hi)
    } else {
        signed(k * d.diff, decimals)
    }
}

fn signed(x: f64, decimals: usize) -> String {
    if x.is_finite() { format!("{x:+.decimals$}") } else { "-".into() }
}

/// A p-value: 3 decimals from 0.1, 3 significant digits below (so 0.0497
/// does not read as 0.050), "<0.001" below 0.001.
fn pval(p: f64) -> String {
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

fn star(significant: bool) -> String {
    if significant { "*".into() } else { String::new() }
}

/// A table: headers, rows of cells, how many leading columns are text
/// (left-aligned), and which rows to highlight.
struct Table {
    headers: Vec<&'static str>,
    rows: Vec<Vec<String>>,
    left: usize,
    marked: Vec<bool>,
}

impl Table {
    fn text(&self) -> String {
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

    fn html(&self) -> String {
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

fn player_table(rows: &[PlayerStats], first: &'static str) -> Table {
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

fn building_table(rows: &[BuildingStats]) -> Table {
    Table {
        headers: vec![
            "building",
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

fn length_line(l: &Length) -> String {
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

fn describe(r: &Report) -> Vec<String> {
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

const NOTE: &str = "Win rates count a shared win as 1/k; intervals are 95% (Wilson for rates, mean ± 1.96·sd/√n for means). \
A building counts as built when a copy built in round 1 or later is in the final city; the start building does not count. \
p: two-sided, two-proportion z-test for rates, Welch z for means, corrected over each column by Holm's method; \
* marks a corrected p < 0.05 with a difference of at least 2 percentage points (rates) or 0.5 (points, rounds). \
Builders of almost any building win more often than others simply because winners build more: \
compare buildings with each other rather than with the fair share.";

// ---------------------------------------------------------------------------
// Text

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
    let _ = write!(out, "\nBuildings (per player-game)\n{}", building_table(&r.buildings).text());
    let _ = writeln!(out, "\n{NOTE}");
    out
}

fn player_diff_table(rows: &[PlayerDiff], first: &'static str) -> Table {
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
                vec![
                    d.label.clone(),
                    pct(d.win_rate.a),
                    pct(d.win_rate.b),
                    diff_ci(&d.win_rate, true),
                    pval(d.win_rate.p_adj),
                    star(d.win_rate.significant),
                    num(d.score.a, 2),
                    num(d.score.b, 2),
                    diff_ci(&d.score, false),
                    pval(d.score.p_adj),
                    star(d.score.significant),
                ]
            })
            .collect(),
        left: 1,
        marked: rows.iter().map(|d| d.win_rate.significant || d.score.significant).collect(),
    }
}

fn building_diff_table(c: &Comparison) -> Table {
    let rows = &c.buildings;
    Table {
        headers: vec![
            "building",
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
        ],
        rows: rows
            .iter()
            .map(|d| {
                vec![
                    if c.changed(&d.id) { format!("{} (changed)", d.id) } else { d.id.clone() },
                    pct(d.built.a),
                    pct(d.built.b),
                    diff_ci(&d.built, true),
                    pval(d.built.p_adj),
                    star(d.built.significant),
                    pct(d.builders.a),
                    pct(d.builders.b),
                    diff_ci(&d.builders, true),
                    pval(d.builders.p_adj),
                    star(d.builders.significant),
                ]
            })
            .collect(),
        left: 1,
        marked: rows.iter().map(|d| d.built.significant || d.builders.significant).collect(),
    }
}

fn length_diff_table(c: &Comparison) -> Table {
    let row = |label: &str, d: &Diff, percent: bool| {
        let (a, b) = if percent { (pct(d.a), pct(d.b)) } else { (num(d.a, 2), num(d.b, 2)) };
        vec![label.to_owned(), a, b, diff_ci(d, percent), pval(d.p_adj), star(d.significant)]
    };
    Table {
        headers: vec!["game length", "A", "B", "B−A (95% CI)", "p", ""],
        rows: vec![row("mean rounds", &c.rounds, false), row("stalled %", &c.stalled, true)],
        left: 1,
        marked: vec![c.rounds.significant, c.stalled.significant],
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
    let _ = write!(out, "\nBuildings (per player-game)\n{}", building_diff_table(c).text());
    let _ = writeln!(out, "\n{NOTE}");
    out
}

// ---------------------------------------------------------------------------
// HTML and SVG

/// Escapes text for HTML content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const COLORS: [&str; 2] = ["#4e79a7", "#f28e2b"];

const CSS: &str = "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;max-width:1000px;margin:2em auto;padding:0 1em}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}\
.meta{color:#555}.note{color:#666;font-size:12px}\
table{border-collapse:collapse;margin:.8em 0;font-size:13px}\
th,td{padding:2px 8px;border-bottom:1px solid #eee;text-align:left;white-space:nowrap}\
th.n,td.n{text-align:right;font-variant-numeric:tabular-nums}\
thead th{border-bottom:2px solid #999}tr.sig td{background:#fff4d6}\
svg{display:block;margin:.6em 0;font:11px system-ui,sans-serif}\
svg text{fill:#333}.axis{stroke:#bbb}.grid{stroke:#eee}.whisker{stroke:#222;stroke-width:1.2}\
.ref{stroke:#c33;stroke-dasharray:4 3}.mark{stroke:#111;stroke-width:2.5}";

/// One bar: a value, an optional interval and a tooltip.
struct Bar {
    value: f64,
    lo: f64,
    hi: f64,
    tip: String,
}

impl Bar {
    fn rate(r: &Rate, what: &str) -> Bar {
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
struct BarRow {
    label: String,
    bars: Vec<Bar>,
    mark: Option<f64>,
    flag: bool,
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

/// A horizontal bar chart with interval whiskers. Values are fractions
/// when `percent`.
fn hbar_chart(
    out: &mut String,
    title: &str,
    rows: &[BarRow],
    legend: &[String],
    reference: Option<(f64, String)>,
    percent: bool,
) {
    const W: f64 = 760.0;
    const LABEL: f64 = 170.0;
    const PLOT: f64 = 480.0;
    const BAR: f64 = 14.0;
    const GAP: f64 = 8.0;
    let series = rows.iter().map(|r| r.bars.len()).max().unwrap_or(1).max(1);
    let row_h = series as f64 * BAR + GAP;
    let top = 38.0;
    let height = top + rows.len() as f64 * row_h + 26.0;
    let mut max = 0f64;
    for r in rows {
        for b in &r.bars {
            for v in [b.value, b.hi] {
                if v.is_finite() {
                    max = max.max(v);
                }
            }
        }
        if let Some(m) = r.mark.filter(|m| m.is_finite()) {
            max = max.max(m);
        }
    }
    if let Some((v, _)) = &reference {
        max = max.max(*v);
    }
    let (max, step) = nice_axis(if percent { max.min(1.0) } else { max });
    let x = |v: f64| LABEL + (v.clamp(0.0, max) / max) * PLOT;
    let lx = svg_open(out, W, height, title, legend, LABEL);
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
            LABEL - 6.0,
            y0 + series as f64 * BAR / 2.0 + 4.0,
            esc(&label)
        );
        for (j, b) in row.bars.iter().enumerate() {
            let by = y0 + j as f64 * BAR;
            let mid = by + (BAR - 2.0) / 2.0;
            if b.value.is_finite() {
                let _ = writeln!(
                    out,
                    "<rect x=\"{LABEL}\" y=\"{by:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{}</title></rect>",
                    x(b.value) - LABEL,
                    BAR - 2.0,
                    COLORS[j % 2],
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
            let _ = writeln!(out, "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>", LABEL + PLOT + 8.0, mid + 4.0, esc(&text));
        }
        if let Some(m) = row.mark.filter(|m| m.is_finite()) {
            let mx = x(m);
            let _ = writeln!(
                out,
                "<line class=\"mark\" x1=\"{mx:.1}\" x2=\"{mx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"><title>non-builders: {}%</title></line>",
                y0 - 2.0,
                y0 + series as f64 * BAR,
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
fn vbar_chart(
    out: &mut String,
    title: &str,
    categories: &[String],
    series: &[Vec<f64>],
    legend: &[String],
    percent: bool,
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
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">rounds</text>",
        LEFT + plot_w / 2.0,
        H - 6.0
    );
    out.push_str("</svg>\n");
}

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
    vbar_chart(&mut out, "Games per number of rounds", &cats, &counts, &[], false);

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
    out.push_str(&building_table(&r.buildings).html());
    out.push_str(&html_tail());
    out
}

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
fn histogram_columns(hists: &[&BTreeMap<u32, u64>]) -> (Vec<String>, Vec<Vec<f64>>) {
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

/// A comparison as one self-contained HTML page with side-by-side bars.
pub fn render_comparison_html(c: &Comparison) -> String {
    let name = |r: &Report| if r.rulesets.is_empty() { "-".to_owned() } else { r.rulesets.join(", ") };
    let legend = vec![format!("A: {}", name(&c.a)), format!("B: {}", name(&c.b))];
    let title = format!("{}: {} vs {}", title(&c.a.game, "balance comparison"), name(&c.a), name(&c.b));
    let mut out = html_head(&title);
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

    let find_player = |rows: &[PlayerStats], label: &str| {
        rows.iter().find(|s| s.label == label).map_or(Rate::wilson(0.0, 0), |s| s.win_rate)
    };
    let pair_rows = |diffs: &[PlayerDiff], a: &[PlayerStats], b: &[PlayerStats]| -> Vec<BarRow> {
        diffs
            .iter()
            .map(|d| BarRow {
                label: d.label.clone(),
                bars: vec![
                    Bar::rate(&find_player(a, &d.label), "A win rate"),
                    Bar::rate(&find_player(b, &d.label), "B win rate"),
                ],
                mark: None,
                flag: d.win_rate.significant,
            })
            .collect()
    };
    let fair = fair_share(&c.a).filter(|f| fair_share(&c.b).is_some_and(|g| g.1 == f.1));

    out.push_str("<h2>Game length</h2>\n");
    out.push_str(&length_diff_table(c).html());
    let (cats, shares) = histogram_columns(&[&c.a.length.histogram, &c.b.length.histogram]);
    vbar_chart(&mut out, "Share of games per number of rounds", &cats, &shares, &legend, true);

    out.push_str("<h2>Seats</h2>\n");
    hbar_chart(
        &mut out,
        "Win rate per seat (95% CI); * p < 0.05",
        &pair_rows(&c.seats, &c.a.seats, &c.b.seats),
        &legend,
        fair.clone(),
        true,
    );
    out.push_str(&player_diff_table(&c.seats, "seat").html());

    out.push_str("<h2>Bots</h2>\n");
    hbar_chart(
        &mut out,
        "Win rate per bot (95% CI); * p < 0.05",
        &pair_rows(&c.bots, &c.a.bots, &c.b.bots),
        &legend,
        fair,
        true,
    );
    out.push_str(&player_diff_table(&c.bots, "bot").html());

    out.push_str("<h2>Buildings</h2>\n");
    diff_chart(&mut out, "Built share, B − A in percentage points (95% CI); * flagged", c);
    let find_building = |r: &Report, id: &str| {
        r.buildings
            .iter()
            .find(|s| s.id == id)
            .map_or((Rate::wilson(0.0, r.player_games), Rate::wilson(0.0, 0)), |s| (s.built, s.builders))
    };
    let built: Vec<BarRow> = c
        .buildings
        .iter()
        .map(|d| BarRow {
            label: d.id.clone(),
            bars: vec![
                Bar::rate(&find_building(&c.a, &d.id).0, "A built"),
                Bar::rate(&find_building(&c.b, &d.id).0, "B built"),
            ],
            mark: None,
            flag: d.built.significant,
        })
        .collect();
    hbar_chart(&mut out, "Share of player-games that built it (95% CI); * p < 0.05", &built, &legend, None, true);
    let wins: Vec<BarRow> = c
        .buildings
        .iter()
        .map(|d| BarRow {
            label: d.id.clone(),
            bars: vec![
                Bar::rate(&find_building(&c.a, &d.id).1, "A builders' win rate"),
                Bar::rate(&find_building(&c.b, &d.id).1, "B builders' win rate"),
            ],
            mark: None,
            flag: d.builders.significant,
        })
        .collect();
    hbar_chart(&mut out, "Win rate of its builders (95% CI); * p < 0.05", &wins, &legend, None, true);
    out.push_str(&building_diff_table(c).html());
    out.push_str(&html_tail());
    out
}

/// One row per building: the difference B − A of its built share as a bar
/// from 0 with its 95% interval as a whisker; changed buildings first and named so.
fn diff_chart(out: &mut String, title: &str, c: &Comparison) {
    const W: f64 = 760.0;
    const LABEL: f64 = 220.0;
    const PLOT: f64 = 480.0;
    const ROW: f64 = 18.0;
    let top = 38.0;
    let height = top + c.buildings.len() as f64 * ROW + 26.0;
    let reach = c
        .buildings
        .iter()
        .flat_map(|d| [d.built.lo, d.built.hi, d.built.diff])
        .filter(|v| v.is_finite())
        .fold(0.01f64, |m, v| m.max(v.abs()));
    let x = |v: f64| LABEL + PLOT / 2.0 + v / reach * (PLOT / 2.0 - 4.0);
    svg_open(out, W, height, title, &[], LABEL);
    let zero = x(0.0);
    let _ = writeln!(out, "<line class=\"axis\" x1=\"{zero}\" y1=\"{top}\" x2=\"{zero}\" y2=\"{}\"/>", height - 22.0);
    for (i, d) in c.buildings.iter().enumerate() {
        let y = top + i as f64 * ROW;
        let label = if c.changed(&d.id) { format!("{} (changed)", d.id) } else { d.id.clone() };
        let star = if d.built.significant { " *" } else { "" };
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}{star}</text>",
            LABEL - 6.0,
            y + 12.0,
            esc(&label)
        );
        if d.built.diff.is_finite() {
            let (x0, x1) = (zero.min(x(d.built.diff)), zero.max(x(d.built.diff)));
            let color = COLORS[usize::from(d.built.diff > 0.0)];
            let tip = format!("{}: {} percentage points", d.id, diff_ci(&d.built, true));
            let _ = writeln!(
                out,
                "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"10\" fill=\"{color}\"><title>{}</title></rect>",
                y + 3.0,
                (x1 - x0).max(0.5),
                esc(&tip)
            );
        }
        if d.built.lo.is_finite() && d.built.hi.is_finite() {
            let _ = writeln!(
                out,
                "<line class=\"whisker\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
                x(d.built.lo),
                y + 8.0,
                x(d.built.hi),
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
