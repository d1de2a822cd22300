//! The search: candidates on the integer grid of the parameters' ranges,
//! rungs of games, and after each rung the racing and halving that decide
//! which candidates get more games. The caller plays the games a rung asks
//! for (in parallel, on any number of machines) and feeds their records
//! back; everything here is a pure function of the settings and the records.
//!
//! A rung gives every candidate still in the race games up to
//! `first_games · 2^rung` (the same game indices, so every candidate is
//! dealt the same seeds: common random numbers). Then:
//! 1. a candidate whose 95% interval lies inside the goal ends the search
//!    (the closest to the goal's centre among those, if several);
//! 2. racing: a candidate whose interval, widened for the number still in
//!    the race (Bonferroni: 95% jointly), misses the goal is dropped; if that
//!    drops all of them the goal cannot be met in the ranges, and the search
//!    ends with the closest;
//! 3. halving: of those left, the half nearest the goal go on (at least two
//!    while two remain), so games go where the answer is still open;
//! 4. the budget: a rung that would pass it is cut to what is left, and a
//!    search with nothing left ends with the candidate nearest the goal.

use serde::{Deserialize, Serialize};

use engine_play::sim::GameRecord;

use engine_report::{MAX_RECORD_PLAYERS as MAX_PLAYERS, MAX_RECORD_ROUNDS};

use crate::target::{Estimate, Metric, Tally, Target, Z95};

/// One number to tune: a key path and an integer range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    /// The key path (`card.lamp.cost`).
    pub path: String,
    /// Lowest value tried.
    pub lo: i64,
    /// Highest value tried.
    pub hi: i64,
}

impl Param {
    /// Reads `PATH=LO..HI`.
    pub fn parse(text: &str) -> Result<Param, String> {
        let usage = |why: &str| format!("--param `{text}`: {why}; write PATH=LO..HI, e.g. card.<id>.cost=1..6");
        let (path, range) = text.split_once('=').ok_or_else(|| usage("no `=` after the path"))?;
        let (lo, hi) = range.split_once("..").ok_or_else(|| usage("the range has no `..`"))?;
        let int = |s: &str| s.trim().parse::<i64>().map_err(|_| usage(&format!("`{}` is not an integer", s.trim())));
        let (lo, hi) = (int(lo)?, int(hi)?);
        if lo > hi {
            return Err(usage("the low end is above the high end"));
        }
        if path.trim().is_empty() {
            return Err(usage("the path is empty"));
        }
        Ok(Param { path: path.trim().to_owned(), lo, hi })
    }

    /// Values in the range.
    pub fn len(&self) -> u128 {
        (i128::from(self.hi) - i128::from(self.lo) + 1) as u128
    }

    /// Always false: a range holds at least its low end.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// Everything that decides a search, kept in its state file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The ruleset tuned (as given: an id or a path).
    pub ruleset: String,
    /// Its content fingerprint: a resumed search refuses other content.
    pub fingerprint: String,
    /// Players per game.
    pub players: usize,
    /// The bot of every seat.
    pub bot: String,
    /// The numbers tuned.
    pub params: Vec<Param>,
    /// The goal.
    pub target: Target,
    /// Most games in all.
    pub budget: u64,
    /// Games per candidate in the first rung (doubled each rung).
    pub first_games: u64,
    /// Most candidates (a larger grid is sampled).
    pub max_candidates: usize,
    /// The run seed of every game.
    pub seed: u64,
}

/// The most candidates by default: a larger grid is sampled down to this many.
pub const MAX_CANDIDATES: usize = 32;

impl Settings {
    /// Games per candidate in the first rung when none is given: enough for
    /// about four rungs' halving of the grid within the budget, and at least 50.
    pub fn default_first_games(budget: u64, candidates: usize) -> u64 {
        (budget / (4 * candidates.max(1) as u64)).max(50)
    }
}

/// One point of the grid and what its games said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// One value per parameter, in the settings' order.
    pub values: Vec<i64>,
    /// Games played (indices 0 to `games` − 1).
    pub games: u64,
    /// The measure over them.
    pub tally: Tally,
    /// Still in the race.
    pub alive: bool,
    /// The rung after which it was dropped.
    pub dropped: Option<u32>,
}

/// Why a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reason {
    /// A candidate's 95% interval lies inside the goal.
    Met,
    /// Every candidate's interval misses the goal (jointly at 95%).
    Unreachable,
    /// The budget is spent.
    Budget,
}

/// How a search ended: why, and the candidates best first (the first is the choice).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Why.
    pub reason: Reason,
    /// Candidate indices, the chosen one first, then the runners-up by nearness to the goal.
    pub ranking: Vec<usize>,
}

/// The games one candidate plays in a rung: indices `from..to`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Work {
    /// The candidate.
    pub candidate: usize,
    /// First game index.
    pub from: u64,
    /// One past the last.
    pub to: u64,
}

/// A rung played by part of a cluster: shard `k` of `n` played its part of
/// `work`, and `tallies` (one per entry of `work`) is what its games said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardPart {
    /// The rung.
    pub rung: u32,
    /// This shard, from 0.
    pub k: u64,
    /// Shards in all.
    pub n: u64,
    /// The rung's games (all shards').
    pub work: Vec<Work>,
    /// This shard's tallies, one per entry of `work`.
    pub tallies: Vec<Tally>,
}

/// A search in progress: what a state file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The state file's format.
    pub version: u32,
    /// What decides the search.
    pub settings: Settings,
    /// Every candidate.
    pub candidates: Vec<Candidate>,
    /// Rungs done.
    pub rung: u32,
    /// Games played so far.
    pub spent: u64,
    /// Set once the search has ended.
    pub outcome: Option<Outcome>,
    /// A shard's part of the next rung, not yet merged with the other shards'.
    pub part: Option<ShardPart>,
}

/// The state file format written now.
pub const STATE_VERSION: u32 = 1;

impl State {
    /// A new search: the grid of the ranges, or `max_candidates` points of it
    /// drawn from the seed when it is larger.
    pub fn new(settings: Settings) -> Result<State, String> {
        if settings.params.is_empty() {
            return Err("no --param: name at least one number to tune, e.g. --param card.<id>.cost=1..6".into());
        }
        if settings.budget == 0 || settings.first_games == 0 {
            return Err("the budget and the first rung's games must be at least 1".into());
        }
        let points = grid(&settings.params, settings.max_candidates.max(1), settings.seed);
        let candidates = points
            .into_iter()
            .map(|values| Candidate { values, games: 0, tally: Tally::default(), alive: true, dropped: None })
            .collect();
        Ok(State { version: STATE_VERSION, settings, candidates, rung: 0, spent: 0, outcome: None, part: None })
    }

    /// The parameters' values of a candidate, as `(path, value)` pairs.
    pub fn values(&self, candidate: usize) -> Vec<(String, i64)> {
        let c = &self.candidates[candidate];
        self.settings.params.iter().zip(&c.values).map(|(p, &v)| (p.path.clone(), v)).collect()
    }

    /// The measure of a candidate with its 95% interval.
    pub fn estimate(&self, candidate: usize) -> Estimate {
        self.settings.target.estimate(&self.candidates[candidate].tally, Z95)
    }

    fn alive(&self) -> Vec<usize> {
        (0..self.candidates.len()).filter(|&c| self.candidates[c].alive).collect()
    }

    /// The games of the next rung, or `None` once the search has ended.
    pub fn plan(&self) -> Option<Vec<Work>> {
        if self.outcome.is_some() {
            return None;
        }
        let alive = self.alive();
        let goal = self.settings.first_games.saturating_mul(1u64 << self.rung.min(40));
        let mut work: Vec<Work> = alive
            .iter()
            .map(|&c| Work { candidate: c, from: self.candidates[c].games, to: goal.max(self.candidates[c].games) })
            .filter(|w| w.to > w.from)
            .collect();
        let left = self.settings.budget.saturating_sub(self.spent);
        let wanted: u64 = work.iter().map(|w| w.to - w.from).fold(0, u64::saturating_add);
        if wanted > left {
            // Cut to the budget: an equal number of games each (the first ones one more).
            let each = left / work.len() as u64;
            let extra = left % work.len() as u64;
            for (i, w) in work.iter_mut().enumerate() {
                w.to = w.from + (each + u64::from((i as u64) < extra)).min(w.to - w.from);
            }
            work.retain(|w| w.to > w.from);
        }
        Some(work)
    }

    /// Adds one game's record to a candidate's tally.
    pub fn observe(&mut self, candidate: usize, record: &GameRecord) {
        let target = self.settings.target.clone();
        target.observe(record, &mut self.candidates[candidate].tally);
    }

    /// Marks a rung's games as played (their records observed) and decides:
    /// the search ends, or drops candidates, as the module says.
    pub fn finish_rung(&mut self, work: &[Work]) {
        for w in work {
            self.candidates[w.candidate].games = w.to;
            self.spent += w.to - w.from;
        }
        self.decide(work.is_empty());
        self.rung += 1;
    }

    /// A shard's part of the next rung: the same work for every shard; shard
    /// `k` plays the `k`-th of `n` near-equal slices of each entry's games.
    pub fn slice(w: &Work, k: u64, n: u64) -> (u64, u64) {
        let len = u128::from(w.to - w.from);
        let at = |i: u64| w.from + (len * u128::from(i) / u128::from(n)) as u64;
        (at(k), at(k + 1))
    }

    /// Merges the states of all `n` shards of one rung (each has its `part`)
    /// into the state after that rung, decided.
    pub fn merge_shards(parts: &[State]) -> Result<State, String> {
        let first = parts.first().ok_or("no state to merge")?;
        let p0 = first.part.as_ref().ok_or("the state holds no shard's part: resume it alone")?;
        let mut base = first.clone();
        base.part = None;
        // A set, not one flag per shard: `n` comes from a file.
        let mut seen = std::collections::BTreeSet::new();
        let mut tallies = vec![Tally::default(); p0.work.len()];
        for s in parts {
            let p = s.part.as_ref().ok_or("a state without a shard's part was given with shards' states")?;
            let mut other = s.clone();
            other.part = None;
            if other != base || p.rung != p0.rung || p.n != p0.n || p.work != p0.work {
                return Err(format!(
                    "shard {}/{} is not of the same search and rung as shard {}/{}: give the parts of one rung",
                    p.k, p.n, p0.k, p0.n
                ));
            }
            if p.k >= p.n {
                return Err(format!("shard {}/{}: a shard number past its count", p.k, p.n));
            }
            if !seen.insert(p.k) {
                return Err(format!("shard {}/{} is given twice", p.k, p.n));
            }
            if p.tallies.len() != p0.work.len() {
                return Err(format!(
                    "shard {}/{}: {} tallies for {} entries of work",
                    p.k,
                    p.n,
                    p.tallies.len(),
                    p0.work.len()
                ));
            }
            for (t, part) in tallies.iter_mut().zip(&p.tallies) {
                t.merge(part);
            }
        }
        if let Some(k) = (0..p0.n).find(|k| !seen.contains(k)) {
            return Err(format!("shard {k}/{} of rung {} is missing: give every shard's state", p0.n, p0.rung));
        }
        for (w, t) in p0.work.iter().zip(&tallies) {
            base.candidates[w.candidate].tally.merge(t);
        }
        base.finish_rung(&p0.work);
        Ok(base)
    }

    /// Nearness to the goal: 0 inside it, else how far the value lies outside;
    /// ties by the distance to its centre.
    fn distance(&self, c: usize) -> (f64, f64) {
        let t = &self.settings.target;
        let e = self.estimate(c);
        if e.value.is_nan() {
            return (f64::INFINITY, f64::INFINITY);
        }
        ((t.lo - e.value).max(e.value - t.hi).max(0.0), (e.value - t.centre()).abs())
    }

    /// Candidates by nearness to the goal, those still in the race first.
    fn ranked(&self, among: impl Iterator<Item = usize>) -> Vec<usize> {
        let mut order: Vec<usize> = among.collect();
        order.sort_by(|&a, &b| {
            let (da, db) = (self.distance(a), self.distance(b));
            self.candidates[b]
                .alive
                .cmp(&self.candidates[a].alive)
                .then(da.0.total_cmp(&db.0))
                .then(da.1.total_cmp(&db.1))
                .then(a.cmp(&b))
        });
        order
    }

    fn end(&mut self, reason: Reason, first: Option<usize>) {
        let mut ranking = self.ranked(0..self.candidates.len());
        if let Some(f) = first {
            ranking.retain(|&c| c != f);
            ranking.insert(0, f);
        }
        self.outcome = Some(Outcome { reason, ranking });
    }

    fn decide(&mut self, nothing_played: bool) {
        let t = self.settings.target.clone();
        let alive = self.alive();
        let inside: Vec<usize> = alive.iter().copied().filter(|&c| self.estimate(c).inside(t.lo, t.hi)).collect();
        if !inside.is_empty() {
            let best = self.ranked(inside.into_iter())[0];
            return self.end(Reason::Met, Some(best));
        }
        // Racing, at a joint 95% over the candidates still in it.
        let z = z_for(0.05 / alive.len() as f64);
        let misses = |c: usize| t.estimate(&self.candidates[c].tally, z).misses(t.lo, t.hi);
        let open: Vec<usize> = alive.iter().copied().filter(|&c| !misses(c)).collect();
        if open.is_empty() {
            return self.end(Reason::Unreachable, None);
        }
        let keep = if open.len() > 2 { open.len().div_ceil(2).max(2) } else { open.len() };
        let keep: Vec<usize> = self.ranked(open.into_iter()).into_iter().take(keep).collect();
        for &c in &alive {
            if !keep.contains(&c) {
                self.candidates[c].alive = false;
                self.candidates[c].dropped = Some(self.rung);
            }
        }
        if nothing_played || self.spent >= self.settings.budget {
            self.end(Reason::Budget, None);
        }
    }
}

/// The most games a state file's budget may name (as `--games-budget`).
pub const MAX_BUDGET: u64 = 10_000_000;

/// The most shards one rung may be split into.
pub const MAX_SHARDS: u64 = 100_000;

/// The most rungs a search can have run (each doubles the games; 40 is past any budget).
const MAX_RUNGS: u32 = 64;

/// The longest key path or ruleset named in a state file.
const MAX_TEXT: usize = 4096;

/// The most parameters one search tunes.
const MAX_PARAMS: usize = 64;

impl State {
    /// Refuses a state no search can have written: every index in range,
    /// every count within its bounds and every tally possible for the games
    /// it counts (no 20 wins of 10 games). A state file is read from disk and
    /// may have been edited: the search indexes and allocates by what it says,
    /// so it is checked whole before anything else reads it. The error names
    /// the field (`candidates[2].tally`) and what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let s = &self.settings;
        let bad = |field: &str, why: String| Err(format!("{field}: {why}"));
        if s.ruleset.is_empty() || s.ruleset.len() > MAX_TEXT {
            return bad("settings.ruleset", format!("empty or longer than {MAX_TEXT} bytes"));
        }
        if !(1..=MAX_PLAYERS).contains(&s.players) {
            return bad("settings.players", format!("{} players; a game has 1 to {MAX_PLAYERS}", s.players));
        }
        if s.params.is_empty() || s.params.len() > MAX_PARAMS {
            return bad("settings.params", format!("{} parameters; a search tunes 1 to {MAX_PARAMS}", s.params.len()));
        }
        for (i, p) in s.params.iter().enumerate() {
            if p.path.trim().is_empty() || p.path.len() > MAX_TEXT || p.lo > p.hi {
                return bad(&format!("settings.params[{i}]"), "an empty or overlong path, or lo above hi".into());
            }
        }
        let t = &s.target;
        if !(t.lo.is_finite() && t.hi.is_finite() && t.lo <= t.hi) {
            return bad("settings.target", format!("the goal {}..{} is not a range of numbers", t.lo, t.hi));
        }
        if t.card().is_some_and(|c| c.is_empty() || c.len() > MAX_TEXT) {
            return bad("settings.target", "an empty or overlong card".into());
        }
        if !(1..=MAX_BUDGET).contains(&s.budget) {
            return bad("settings.budget", format!("{} games; a budget is 1 to {MAX_BUDGET}", s.budget));
        }
        if !(1..=MAX_BUDGET).contains(&s.first_games) {
            return bad("settings.first_games", format!("{} games; 1 to {MAX_BUDGET}", s.first_games));
        }
        if !(1..=1024).contains(&s.max_candidates) {
            return bad("settings.max_candidates", format!("{}; 1 to 1024", s.max_candidates));
        }
        let n = self.candidates.len();
        if n == 0 || n > s.max_candidates {
            return bad(
                "candidates",
                format!("{n} candidates; a search has 1 to max_candidates ({})", s.max_candidates),
            );
        }
        if self.rung > MAX_RUNGS {
            return bad("rung", format!("{}; a search runs at most {MAX_RUNGS} rungs", self.rung));
        }
        if self.spent > s.budget {
            return bad("spent", format!("{} games spent of a budget of {}", self.spent, s.budget));
        }
        let mut games = 0u64;
        for (i, c) in self.candidates.iter().enumerate() {
            let field = format!("candidates[{i}]");
            if c.values.len() != s.params.len() {
                return bad(&field, format!("{} values for {} parameters", c.values.len(), s.params.len()));
            }
            if let Some((p, v)) = s.params.iter().zip(&c.values).find(|(p, v)| !(p.lo..=p.hi).contains(*v)) {
                return bad(&field, format!("{} = {v} is outside its range {}..{}", p.path, p.lo, p.hi));
            }
            if c.dropped.is_some_and(|r| r >= self.rung) || (c.alive && c.dropped.is_some()) {
                return bad(&field, "dropped after a rung not yet run, or dropped and still in the race".into());
            }
            games = games.saturating_add(c.games);
            self.check_tally(&c.tally, c.games).map_err(|why| format!("{field}.tally: {why}"))?;
        }
        if games != self.spent {
            return bad("spent", format!("{} games spent, but the candidates played {games}", self.spent));
        }
        if let Some(o) = &self.outcome {
            let mut seen = vec![false; n];
            if o.ranking.is_empty() {
                return bad("outcome.ranking", "empty; it ranks the candidates, the choice first".into());
            }
            for &c in &o.ranking {
                match seen.get_mut(c) {
                    Some(slot) if !*slot => *slot = true,
                    Some(_) => return bad("outcome.ranking", format!("candidate {c} is ranked twice")),
                    None => return bad("outcome.ranking", format!("candidate {c} of {n}")),
                }
            }
        }
        if let Some(p) = &self.part {
            if !(1..=MAX_SHARDS).contains(&p.n) || p.k >= p.n {
                return bad("part", format!("shard {}/{}: K from 0 to N − 1, N from 1 to {MAX_SHARDS}", p.k, p.n));
            }
            if p.rung != self.rung {
                return bad("part.rung", format!("{}, but the search is at rung {}", p.rung, self.rung));
            }
            if self.outcome.is_some() {
                return bad("part", "a shard's part of a search that has ended".into());
            }
            if p.tallies.len() != p.work.len() {
                return bad(
                    "part.tallies",
                    format!("{} tallies for {} entries of work", p.tallies.len(), p.work.len()),
                );
            }
            let mut planned = 0u64;
            for (i, (w, tally)) in p.work.iter().zip(&p.tallies).enumerate() {
                let field = format!("part.work[{i}]");
                let Some(c) = self.candidates.get(w.candidate) else {
                    return bad(&field, format!("candidate {} of {n}", w.candidate));
                };
                if w.from != c.games || w.to < w.from {
                    return bad(
                        &field,
                        format!("games {}..{} do not follow the candidate's {}", w.from, w.to, c.games),
                    );
                }
                planned = planned.saturating_add(w.to - w.from);
                let (from, to) = State::slice(w, p.k, p.n);
                self.check_tally(tally, to - from).map_err(|why| format!("part.tallies[{i}]: {why}"))?;
            }
            if self.spent.saturating_add(planned) > s.budget {
                return bad("part.work", format!("{planned} games past what is left of the budget"));
            }
        }
        Ok(())
    }

    /// Refuses a tally that `games` games of the target's measure cannot give.
    fn check_tally(&self, t: &Tally, games: u64) -> Result<(), String> {
        let players = self.settings.players as u64;
        let (most, each) = match self.settings.target.metric {
            // One observation per seat (build rate) or per builder (win share), each 0 or 1.
            Metric::WinShare(_) | Metric::BuildRate(_) => (games.saturating_mul(players), 1),
            // One per game: the first seat's share of the win.
            Metric::SeatAdvantage => (games, 1),
            // One per game: its rounds.
            Metric::Rounds => (games, u64::from(MAX_RECORD_ROUNDS)),
        };
        let shared: u64 = t.shared.iter().fold(0u64, |a, b| a.saturating_add(*b));
        if t.n > most {
            return Err(format!("{} observations in {games} games of {players} players", t.n));
        }
        if t.shared.len() > self.settings.players + 1 || t.shared.iter().take(2).any(|&c| c > 0) {
            return Err(format!("wins shared by more than {players} players (or by fewer than 2)"));
        }
        if t.whole.saturating_add(shared) > t.n.saturating_mul(each) {
            return Err(format!("a sum of {} (and {shared} shared wins) over {} observations", t.whole, t.n));
        }
        // Each observation is at most `each`: its square at most `each` times it, at least it.
        if t.squares < t.whole || t.squares > t.whole.saturating_mul(each) {
            return Err(format!("a sum of squares {} does not fit a sum of {}", t.squares, t.whole));
        }
        if u64::from(t.players) > players {
            return Err(format!("{} players in a search of {players}", t.players));
        }
        Ok(())
    }
}

/// The normal quantile of a two-sided interval at level 1 − `alpha` (1.96 for
/// 0.05), by bisection on the complementary error function.
pub fn z_for(alpha: f64) -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 10.0_f64);
    for _ in 0..80 {
        let mid = (lo + hi) / 2.0;
        if engine_report::erfc(mid / std::f64::consts::SQRT_2) > alpha { lo = mid } else { hi = mid }
    }
    (lo + hi) / 2.0
}

/// SplitMix64, for drawing grid points from the seed.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Every point of the grid (the last parameter fastest), or `most` distinct
/// points drawn from `seed` when the grid is larger.
fn grid(params: &[Param], most: usize, seed: u64) -> Vec<Vec<i64>> {
    let size = params.iter().try_fold(1u128, |acc, p| acc.checked_mul(p.len())).unwrap_or(u128::MAX);
    let point = |mut i: u128| -> Vec<i64> {
        let mut v = vec![0; params.len()];
        for (slot, p) in v.iter_mut().zip(params).rev() {
            *slot = p.lo + (i % p.len()) as i64;
            i /= p.len();
        }
        v
    };
    if size <= most as u128 {
        return (0..size).map(point).collect();
    }
    let mut out: Vec<Vec<i64>> = Vec::new();
    let mut state = seed;
    while out.len() < most {
        let v: Vec<i64> = params
            .iter()
            .map(|p| {
                state = mix(state);
                p.lo + (u128::from(state) % p.len()) as i64
            })
            .collect();
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Metric;

    fn settings(params: Vec<Param>, target: &str, budget: u64, first: u64) -> Settings {
        Settings {
            ruleset: "r".into(),
            fingerprint: "f".into(),
            players: 4,
            bot: "b".into(),
            params,
            target: Target::parse(target).unwrap(),
            budget,
            first_games: first,
            max_candidates: MAX_CANDIDATES,
            seed: 7,
        }
    }

    /// A fake game whose measure (a seat-0 win share) falls with the value:
    /// seat 0 wins a game when `hash(index) % 100 < chance(value)`.
    fn play(state: &mut State, work: &[Work], chance: impl Fn(i64) -> u64) {
        for w in work {
            let v = state.candidates[w.candidate].values[0];
            for i in w.from..w.to {
                let win = mix(i) % 100 < chance(v);
                let r = GameRecord {
                    version: 2,
                    game: "g".into(),
                    ruleset: "r".into(),
                    fingerprint: String::new(),
                    run_seed: 1,
                    index: i,
                    seed: 0,
                    bots: vec!["b".into(); 4],
                    rounds: 10,
                    scores: vec![0; 4],
                    winners: vec![if win { 0 } else { 1 }],
                    buildings: vec![Vec::new(); 4],
                    actions: 0,
                    stalled: false,
                    score_by_round: Vec::new(),
                };
                state.observe(w.candidate, &r);
            }
        }
    }

    /// Seat 0's share by value: 1 → 70%, 2 → 55%, 3 → 40%, 4 → 25%, 5 → 10%, 6 → 5%.
    fn chance(v: i64) -> u64 {
        [70, 55, 40, 25, 10, 5][(v - 1) as usize]
    }

    fn run(state: &mut State) {
        while let Some(work) = state.plan() {
            play(state, &work, chance);
            state.finish_rung(&work);
        }
    }

    #[test]
    fn params_read_and_refuse_bad_ranges() {
        assert_eq!(Param::parse("card.lamp.cost=1..6").unwrap(), Param { path: "card.lamp.cost".into(), lo: 1, hi: 6 });
        for bad in ["card.lamp.cost", "x=1", "x=6..1", "x=a..2", "=1..2"] {
            assert!(Param::parse(bad).unwrap_err().contains("PATH=LO..HI"), "{bad}");
        }
    }

    #[test]
    fn the_search_finds_the_value_whose_interval_lies_inside_the_goal() {
        // seat_advantage = share − 25: the goal 0±6 is met by the value 4 only.
        let mut state =
            State::new(settings(vec![Param::parse("x=1..6").unwrap()], "seat_advantage=0±6", 20_000, 100)).unwrap();
        assert_eq!(state.candidates.len(), 6);
        run(&mut state);
        let outcome = state.outcome.clone().unwrap();
        assert_eq!(outcome.reason, Reason::Met);
        assert_eq!(state.values(outcome.ranking[0]), [("x".to_owned(), 4)]);
        let e = state.estimate(outcome.ranking[0]);
        assert!(e.lo >= -6.0 && e.hi <= 6.0, "{e:?}");
        // The far values were dropped early: their games are the first rung's only.
        assert_eq!(state.candidates[0].games, 100);
        assert!(state.spent < 20_000, "{}", state.spent);
        assert_eq!(state.spent, state.candidates.iter().map(|c| c.games).sum::<u64>());
    }

    #[test]
    fn a_goal_no_value_can_meet_ends_early_with_the_nearest() {
        let mut state =
            State::new(settings(vec![Param::parse("x=1..6").unwrap()], "seat_advantage=60±2", 50_000, 100)).unwrap();
        run(&mut state);
        let outcome = state.outcome.clone().unwrap();
        assert_eq!(outcome.reason, Reason::Unreachable);
        assert_eq!(state.candidates[outcome.ranking[0]].values, [1], "70% is nearest to 85%");
        assert!(state.spent <= 600, "{}", state.spent);
    }

    #[test]
    fn the_budget_bounds_the_games_and_ends_the_search() {
        // A goal just off 25% that needs many games to settle.
        let mut state =
            State::new(settings(vec![Param::parse("x=1..6").unwrap()], "seat_advantage=0.5±0.6", 1_000, 100)).unwrap();
        run(&mut state);
        assert_eq!(state.outcome.as_ref().unwrap().reason, Reason::Budget);
        assert_eq!(state.spent, 1_000);
        assert_eq!(state.candidates[state.outcome.as_ref().unwrap().ranking[0]].values, [4]);
    }

    #[test]
    fn shards_merged_decide_as_one_run_does() {
        let s = settings(vec![Param::parse("x=1..6").unwrap()], "seat_advantage=0±6", 20_000, 100);
        let mut whole = State::new(s.clone()).unwrap();
        let mut sharded = State::new(s).unwrap();
        while let Some(work) = whole.plan() {
            play(&mut whole, &work, chance);
            whole.finish_rung(&work);
            let plan = sharded.plan().unwrap();
            assert_eq!(plan, work);
            let parts: Vec<State> = (0..3)
                .map(|k| {
                    let mut part = sharded.clone();
                    let mine: Vec<Work> = plan
                        .iter()
                        .map(|w| {
                            let (from, to) = State::slice(w, k, 3);
                            Work { candidate: w.candidate, from, to }
                        })
                        .collect();
                    let mut scratch = sharded.clone();
                    play(&mut scratch, &mine, chance);
                    let tallies = plan
                        .iter()
                        .map(|w| {
                            let mut t = scratch.candidates[w.candidate].tally.clone();
                            // What this shard added: its tally less the base (integer counts).
                            let base = &sharded.candidates[w.candidate].tally;
                            t.n -= base.n;
                            t.whole -= base.whole;
                            t.squares -= base.squares;
                            for (a, b) in t.shared.iter_mut().zip(&base.shared) {
                                *a -= b;
                            }
                            t
                        })
                        .collect();
                    part.part = Some(ShardPart { rung: sharded.rung, k, n: 3, work: plan.clone(), tallies });
                    part
                })
                .collect();
            // Given in any order.
            let shuffled = vec![parts[2].clone(), parts[0].clone(), parts[1].clone()];
            sharded = State::merge_shards(&shuffled).unwrap();
            assert_eq!(sharded, whole);
            let missing = State::merge_shards(&parts[..2]).unwrap_err();
            assert!(missing.contains("shard 2/3") && missing.contains("missing"), "{missing}");
            let twice = State::merge_shards(&[parts[0].clone(), parts[0].clone(), parts[1].clone()]).unwrap_err();
            assert!(twice.contains("given twice"), "{twice}");
        }
        assert_eq!(sharded.outcome.unwrap().reason, Reason::Met);
    }

    #[test]
    fn a_large_grid_is_sampled_from_the_seed_and_the_state_reads_back() {
        let params = vec![Param::parse("a=0..99").unwrap(), Param::parse("b=0..99").unwrap()];
        let state = State::new(settings(params.clone(), "rounds=10..12", 10_000, 50)).unwrap();
        assert_eq!(state.candidates.len(), MAX_CANDIDATES);
        assert_eq!(state, State::new(settings(params.clone(), "rounds=10..12", 10_000, 50)).unwrap());
        let mut other = settings(params, "rounds=10..12", 10_000, 50);
        other.seed = 8;
        assert_ne!(state.candidates, State::new(other).unwrap().candidates);
        let text = serde_json::to_string(&state).unwrap();
        let back: State = serde_json::from_str(&text).unwrap();
        assert_eq!(back, state);
        assert_eq!(back.settings.target.metric, Metric::Rounds);
    }

    #[test]
    fn z_for_matches_the_normal_table() {
        assert!((z_for(0.05) - 1.96).abs() < 0.001);
        assert!((z_for(0.01) - 2.5758).abs() < 0.001);
    }
}
