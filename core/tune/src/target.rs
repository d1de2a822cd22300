//! What a tuner aims at: a measure of bot games (a card's builders' win
//! share, a card's build rate, the first seat's advantage, the mean game
//! length) and the goal range it should lie in; the tally of that measure
//! over game records, and its interval.

use engine_play::sim::{Built, GameRecord};
use serde::{Deserialize, Serialize};

/// The normal quantile of a 95% interval (the report's).
pub const Z95: f64 = 1.96;

/// What is measured in each game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Metric {
    /// The win share (percent) of the players who built a card: a shared win counts 1/k.
    WinShare(String),
    /// The share (percent) of player-games in which a card was built.
    BuildRate(String),
    /// The first seat's win share minus an even share (100 / players), in percentage points.
    SeatAdvantage,
    /// Rounds per game.
    Rounds,
}

/// A measure and the range its value should lie in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// The measure.
    pub metric: Metric,
    /// Lowest value that meets the goal.
    pub lo: f64,
    /// Highest value that meets the goal.
    pub hi: f64,
}

/// How to write a target, for error messages and `--help`.
pub const TARGET_FORMS: &str = "win_share(CARD)=25±2 (builders' win share, %), build_rate(CARD)=20±5 (% of \
     player-games that built it), seat_advantage=0±2 (first seat's win share minus an even share, points), \
     rounds=12..14 (mean game length); a goal is CENTRE±TOLERANCE (or +-) or LO..HI, and CARD may end in * \
     for every card id that starts so";

impl Target {
    /// Reads `metric=goal` (see [`TARGET_FORMS`]).
    pub fn parse(text: &str) -> Result<Target, String> {
        let usage = |why: String| format!("--target `{text}`: {why}; write {TARGET_FORMS}");
        let (metric, goal) =
            text.split_once('=').ok_or_else(|| usage("no `=` between the measure and its goal".into()))?;
        let metric = metric.trim();
        let card = |name: &str| -> Result<Option<String>, String> {
            let Some(inner) = metric.strip_prefix(name) else { return Ok(None) };
            let card = inner.trim().strip_prefix('(').and_then(|r| r.strip_suffix(')')).map(str::trim);
            match card {
                Some(c) if !c.is_empty() => Ok(Some(c.to_owned())),
                _ => Err(usage(format!("`{name}` takes a card id in parentheses, e.g. {name}(<card id>)"))),
            }
        };
        let metric = if let Some(c) = card("win_share")? {
            Metric::WinShare(c)
        } else if let Some(c) = card("build_rate")? {
            Metric::BuildRate(c)
        } else if metric == "seat_advantage" {
            Metric::SeatAdvantage
        } else if metric == "rounds" {
            Metric::Rounds
        } else {
            return Err(usage(format!("unknown measure `{metric}`")));
        };
        let number = |s: &str| -> Result<f64, String> {
            let s = s.trim().trim_end_matches('%').trim();
            s.parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| usage(format!("`{s}` is not a number")))
        };
        let goal = goal.trim();
        let (lo, hi) = if let Some((c, t)) = goal.split_once('±').or_else(|| goal.split_once("+-")) {
            let (c, t) = (number(c)?, number(t)?);
            if t < 0.0 {
                return Err(usage("the tolerance is negative".into()));
            }
            (c - t, c + t)
        } else if let Some((lo, hi)) = goal.split_once("..") {
            (number(lo)?, number(hi)?)
        } else {
            return Err(usage(format!("the goal `{goal}` is neither CENTRE±TOLERANCE nor LO..HI")));
        };
        if lo > hi {
            return Err(usage(format!("the goal's low end {lo} is above its high end {hi}")));
        }
        Ok(Target { metric, lo, hi })
    }

    /// The card the measure is about, if any.
    pub fn card(&self) -> Option<&str> {
        match &self.metric {
            Metric::WinShare(c) | Metric::BuildRate(c) => Some(c),
            Metric::SeatAdvantage | Metric::Rounds => None,
        }
    }

    /// The measure's name as written (`win_share(lamp)`).
    pub fn measure(&self) -> String {
        match &self.metric {
            Metric::WinShare(c) => format!("win_share({c})"),
            Metric::BuildRate(c) => format!("build_rate({c})"),
            Metric::SeatAdvantage => "seat_advantage".into(),
            Metric::Rounds => "rounds".into(),
        }
    }

    /// The unit of the measure's values, for printing.
    pub fn unit(&self) -> &'static str {
        match self.metric {
            Metric::WinShare(_) | Metric::BuildRate(_) => "%",
            Metric::SeatAdvantage => " points",
            Metric::Rounds => " rounds",
        }
    }

    /// The middle of the goal.
    pub fn centre(&self) -> f64 {
        (self.lo + self.hi) / 2.0
    }

    /// Adds what one game says about the measure to `tally`.
    pub fn observe(&self, record: &GameRecord, tally: &mut Tally) {
        let share = |seat: usize| if record.winners.contains(&seat) { record.winners.len() as u32 } else { 0 };
        match &self.metric {
            Metric::WinShare(card) | Metric::BuildRate(card) => {
                for seat in 0..record.scores.len() {
                    // As the report counts it: a card dealt at setup (round 0) was not built.
                    let built =
                        record.buildings.get(seat).is_some_and(|h| h.iter().any(|b| b.round > 0 && held(card, b)));
                    match (&self.metric, built) {
                        (Metric::WinShare(_), true) => tally.add_share(share(seat)),
                        (Metric::WinShare(_), false) => {}
                        (_, built) => tally.add(u64::from(built)),
                    }
                }
            }
            Metric::SeatAdvantage => {
                tally.players = record.scores.len() as u32;
                tally.add_share(share(0));
            }
            Metric::Rounds => tally.add(u64::from(record.rounds)),
        }
    }

    /// What a designer should know before trusting the measure over `games`
    /// games of `players`: a card nobody built measures nothing, and the
    /// builders' win share of a card nearly everyone builds (a common type
    /// in 2-player games) is an even share by construction.
    pub fn caveat(&self, tally: &Tally, games: u64, players: usize) -> Option<String> {
        let Metric::WinShare(card) = &self.metric else { return None };
        let seats = games.saturating_mul(players as u64);
        if seats == 0 {
            return None;
        }
        if tally.n == 0 {
            return Some(format!("no player built {card} in {games} games: the measure is empty"));
        }
        let built = tally.n as f64 / seats as f64;
        (built >= 0.95).then(|| {
            format!(
                "{:.0}% of the players built {card}, so its builders' win share stays near an even share \
                 whatever the value; build_rate({card}) or one card of it says more",
                100.0 * built
            )
        })
    }

    /// The measure's value and interval (`z`: the normal quantile; [`Z95`] for 95%).
    pub fn estimate(&self, tally: &Tally, z: f64) -> Estimate {
        match self.metric {
            Metric::WinShare(_) | Metric::BuildRate(_) => tally.wilson(z).scaled(100.0, 0.0),
            Metric::SeatAdvantage => {
                let even = 100.0 / f64::from(tally.players.max(1));
                tally.wilson(z).scaled(100.0, even)
            }
            Metric::Rounds => tally.mean(z),
        }
    }
}

/// Whether `card` (an id, a type, or a prefix with `*`) names the holding
/// `b`: by its id, or by its type where the game's ids carry more (a type
/// `gate` is every `gate8`, `gate10`…).
fn held(card: &str, b: &Built) -> bool {
    matches(card, &b.id) || b.kind.as_deref().is_some_and(|kind| matches(card, kind))
}

/// `pattern` names `id`: the same id, or a prefix of it when the pattern ends in `*`.
fn matches(pattern: &str, id: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => id.starts_with(prefix),
        None => pattern == id,
    }
}

/// The observations of a measure so far, in whole numbers so that adding
/// shards in any order gives the same sums: `n` observations, the sum of
/// whole-number ones (`whole`) and their squares, and per k the count of
/// shared wins worth 1/k.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Observations.
    pub n: u64,
    /// Sum of the whole-number observations.
    pub whole: u64,
    /// Sum of their squares.
    pub squares: u64,
    /// `shared[k]`: observations worth 1/k (a win shared by k, k ≥ 2).
    pub shared: Vec<u64>,
    /// Players per game (for an even share); 0 until a game says.
    pub players: u32,
}

impl Tally {
    /// One whole-number observation.
    pub fn add(&mut self, x: u64) {
        self.n += 1;
        self.whole += x;
        self.squares += x * x;
    }

    /// One share of a win among `k` winners (0: no win).
    pub fn add_share(&mut self, k: u32) {
        match k {
            0 | 1 => self.add(u64::from(k)),
            k => {
                self.n += 1;
                let k = k as usize;
                if self.shared.len() <= k {
                    self.shared.resize(k + 1, 0);
                }
                self.shared[k] += 1;
            }
        }
    }

    /// Adds another tally's observations (a shard's).
    pub fn merge(&mut self, other: &Tally) {
        self.n += other.n;
        self.whole += other.whole;
        self.squares += other.squares;
        if self.shared.len() < other.shared.len() {
            self.shared.resize(other.shared.len(), 0);
        }
        for (a, b) in self.shared.iter_mut().zip(&other.shared) {
            *a += b;
        }
        self.players = self.players.max(other.players);
    }

    /// The sum of all observations.
    pub fn sum(&self) -> f64 {
        let shared: f64 = self.shared.iter().enumerate().skip(2).map(|(k, &c)| c as f64 / k as f64).sum();
        self.whole as f64 + shared
    }

    /// The share of successes with its Wilson score interval (NaN without observations).
    pub fn wilson(&self, z: f64) -> Estimate {
        if self.n == 0 {
            return Estimate::none();
        }
        let r = engine_report::Rate::wilson_at(self.sum(), self.n, z);
        Estimate { value: r.value, lo: r.lo, hi: r.hi, n: self.n }
    }

    /// The mean of whole-number observations with mean ± z·sd/√n (NaN bounds below 2 observations).
    pub fn mean(&self, z: f64) -> Estimate {
        if self.n == 0 {
            return Estimate::none();
        }
        let n = self.n as f64;
        let mean = self.whole as f64 / n;
        if self.n < 2 {
            return Estimate { value: mean, lo: f64::NAN, hi: f64::NAN, n: self.n };
        }
        let var = ((self.squares as f64 - n * mean * mean) / (n - 1.0)).max(0.0);
        let half = z * (var / n).sqrt();
        Estimate { value: mean, lo: mean - half, hi: mean + half, n: self.n }
    }
}

/// A measure's value with an interval, over `n` observations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The value.
    pub value: f64,
    /// Low end of the interval.
    pub lo: f64,
    /// High end of the interval.
    pub hi: f64,
    /// Observations.
    pub n: u64,
}

impl Estimate {
    /// Nothing observed.
    pub fn none() -> Estimate {
        Estimate { value: f64::NAN, lo: f64::NAN, hi: f64::NAN, n: 0 }
    }

    fn scaled(self, by: f64, minus: f64) -> Estimate {
        Estimate { value: self.value * by - minus, lo: self.lo * by - minus, hi: self.hi * by - minus, n: self.n }
    }

    /// The whole interval lies inside `[lo, hi]`.
    pub fn inside(&self, lo: f64, hi: f64) -> bool {
        self.lo >= lo && self.hi <= hi
    }

    /// The interval misses `[lo, hi]` entirely.
    pub fn misses(&self, lo: f64, hi: f64) -> bool {
        self.hi < lo || self.lo > hi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(winners: Vec<usize>, built: &[(usize, &str, u32)], rounds: u32) -> GameRecord {
        let mut buildings = vec![Vec::new(); 4];
        for &(seat, id, round) in built {
            buildings[seat].push(Built { id: id.into(), round, kind: None });
        }
        GameRecord {
            version: 2,
            game: "g".into(),
            ruleset: "r".into(),
            fingerprint: String::new(),
            run_seed: 1,
            index: 0,
            seed: 0,
            bots: vec!["b".into(); 4],
            rounds,
            scores: vec![0; 4],
            winners,
            buildings,
            actions: 0,
            stalled: false,
            score_by_round: Vec::new(),
        }
    }

    #[test]
    fn targets_read_both_goal_forms_and_refuse_what_they_cannot_read() {
        let t = Target::parse("win_share(lamp)=25±2").unwrap();
        assert_eq!((t.metric.clone(), t.lo, t.hi), (Metric::WinShare("lamp".into()), 23.0, 27.0));
        assert_eq!(Target::parse(" rounds = 12..14 ").unwrap().hi, 14.0);
        assert_eq!(Target::parse("seat_advantage=0+-2").unwrap().lo, -2.0);
        assert_eq!(Target::parse("build_rate(lamp*)=20%±5%").unwrap().card(), Some("lamp*"));
        for bad in ["win_share=25±2", "lamp=25±2", "rounds=14..12", "rounds=12", "rounds", "rounds=a..b", "rounds=3±-1"]
        {
            let e = Target::parse(bad).unwrap_err();
            assert!(e.contains("--target") && e.contains("win_share(CARD)"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_builders_share_counts_shared_wins_and_ignores_setup_cards() {
        let t = Target::parse("win_share(lamp)=25±2").unwrap();
        let mut tally = Tally::default();
        // Seat 0 built it and won alone; seat 1 built it and lost; seat 2 was dealt it (round 0).
        t.observe(&record(vec![0], &[(0, "lamp", 3), (1, "lamp", 5), (2, "lamp", 0)], 10), &mut tally);
        // Seats 0 and 3 share the win, both built it.
        t.observe(&record(vec![0, 3], &[(0, "lamp", 3), (3, "lamp", 4)], 10), &mut tally);
        assert_eq!(tally.n, 4);
        assert!((tally.sum() - 2.0).abs() < 1e-12);
        let e = t.estimate(&tally, Z95);
        assert!((e.value - 50.0).abs() < 1e-9 && e.lo < 50.0 && e.hi > 50.0);
        // A build rate counts every player-game.
        let b = Target::parse("build_rate(la*)=50±5").unwrap();
        let mut rate = Tally::default();
        b.observe(&record(vec![0], &[(0, "lamp", 3), (1, "lamp", 5), (2, "lamp", 0)], 10), &mut rate);
        assert_eq!((rate.n, rate.whole), (4, 2));
    }

    /// A type names every card of it where ids carry more (`garden8`,
    /// `garden10`): measured as nothing, a tune toward the garden's win
    /// share ran to its budget on "no interval yet".
    #[test]
    fn a_type_counts_every_card_of_it() {
        let mut r = record(vec![1], &[], 10);
        let typed = |id: &str, kind: &str, round| Built { id: id.into(), round, kind: Some(kind.into()) };
        r.buildings[0] = vec![typed("garden8", "garden", 2), typed("tower5", "tower", 3)];
        r.buildings[1] = vec![typed("garden10", "garden", 4)];
        r.buildings[2] = vec![typed("garden6", "garden", 0)];
        let rate = Target::parse("build_rate(garden)=50±5").unwrap();
        let mut tally = Tally::default();
        rate.observe(&r, &mut tally);
        assert_eq!((tally.n, tally.whole), (4, 2), "seats 0 and 1 built a garden; seat 2's was dealt");
        let wins = Target::parse("win_share(garden)=50±5").unwrap();
        let mut tally = Tally::default();
        wins.observe(&r, &mut tally);
        assert_eq!(tally.n, 2);
        assert!((tally.sum() - 1.0).abs() < 1e-12, "one of the two garden builders won");
        // An id still names only its own cards.
        let one = Target::parse("build_rate(garden10)=50±5").unwrap();
        let mut tally = Tally::default();
        one.observe(&r, &mut tally);
        assert_eq!((tally.n, tally.whole), (4, 1));
    }

    #[test]
    fn a_win_share_of_a_card_nearly_everyone_or_nobody_builds_carries_a_caveat() {
        let t = Target::parse("win_share(lamp)=25±2").unwrap();
        let nobody = Tally::default();
        assert_eq!(t.caveat(&nobody, 10, 4).as_deref(), Some("no player built lamp in 10 games: the measure is empty"));
        // 19 of 20 player-games (5 games × 4) built it: 95%.
        let mut most = Tally::default();
        for i in 0..19 {
            most.add_share(u32::from(i % 4 == 0));
        }
        assert!(t.caveat(&most, 5, 4).is_some_and(|c| c.starts_with("95% of the players built lamp")));
        let mut some = Tally::default();
        for i in 0..18 {
            some.add_share(u32::from(i % 4 == 0));
        }
        assert_eq!(t.caveat(&some, 5, 4), None, "90%");
        assert_eq!(Target::parse("build_rate(lamp)=25±2").unwrap().caveat(&nobody, 10, 4), None);
    }

    #[test]
    fn seat_advantage_is_the_first_seats_share_above_even_and_rounds_a_mean() {
        let t = Target::parse("seat_advantage=0±2").unwrap();
        let mut tally = Tally::default();
        for i in 0..400 {
            t.observe(&record(vec![i % 4], &[], 10), &mut tally);
        }
        let e = t.estimate(&tally, Z95);
        assert!(e.value.abs() < 1e-9 && e.lo < -3.0 && e.hi > 3.0, "{e:?}");
        let r = Target::parse("rounds=12..14").unwrap();
        let mut tally = Tally::default();
        for i in 0..100 {
            r.observe(&record(vec![0], &[], 12 + i % 3), &mut tally);
        }
        let e = r.estimate(&tally, Z95);
        assert!((e.value - 12.99).abs() < 1e-9, "{e:?}");
        // sd of 12,13,14 repeated ≈ 0.82: half-width 1.96 × 0.82 / 10 ≈ 0.16.
        assert!((e.hi - e.value - 0.16).abs() < 0.01, "{e:?}");
        assert!(e.inside(12.0, 14.0) && !e.inside(13.0, 14.0) && e.misses(14.0, 15.0));
    }

    #[test]
    fn merged_tallies_equal_one_tally_of_all_games() {
        let t = Target::parse("seat_advantage=0±2").unwrap();
        let games: Vec<GameRecord> =
            (0..30).map(|i| record(if i % 5 == 0 { vec![0, 1] } else { vec![i % 3] }, &[], 9)).collect();
        let mut whole = Tally::default();
        games.iter().for_each(|g| t.observe(g, &mut whole));
        let (mut a, mut b) = (Tally::default(), Tally::default());
        games[..11].iter().for_each(|g| t.observe(g, &mut a));
        games[11..].iter().for_each(|g| t.observe(g, &mut b));
        b.merge(&a);
        assert_eq!(b, whole);
    }
}
