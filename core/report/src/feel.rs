//! How a game feels to play, per player count: the first seat's advantage,
//! how often the stronger bot finishes ahead of the weaker, the winning margin,
//! lead changes and comebacks, the spread of the game length, and each card's
//! association with winning. Each figure has its 95% interval.

use std::collections::{BTreeMap, BTreeSet};

use engine_play::sim::GameRecord;

use crate::games::{Length, length, win_share};
use crate::stats::{Diff, MIN_RATE_EFFECT, Mean, Quartiles, Rate, control};

/// How often the stronger of two bots finished ahead of the weaker when both sat at one table.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    /// The bot with the higher win share over these games.
    pub stronger: String,
    /// The other bot.
    pub weaker: String,
    /// Share of meetings (a seat of each bot in one game) the stronger finished
    /// ahead of the weaker; a tie counts one half.
    pub ahead: Rate,
}

/// Skill against luck: every pair of different bots, or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub enum Skill {
    /// Every seat of every game was played by this bot: there is no stronger one.
    SameBot(String),
    /// One entry per pair of bots that met, the clearest first.
    Pairs(Vec<Matchup>),
}

/// The winning margin: the top score minus the next best.
#[derive(Clone, Debug, PartialEq)]
pub struct Margin {
    /// Points per game.
    pub points: Mean,
    /// Its quartiles.
    pub quartiles: Quartiles,
    /// Games per margin.
    pub histogram: BTreeMap<u32, u64>,
    /// Share of games two or more seats won together (equal points and tie-break).
    pub shared: Rate,
    /// Share of games one seat won on the tie-break, level on points with another.
    pub tie_break: Rate,
}

/// Lead changes and comebacks, from the records' scores after each round.
#[derive(Clone, Debug, PartialEq)]
pub struct Lead {
    /// Lead changes per game: a seat alone in the lead after a round when
    /// another seat was alone in the lead last; a tie for the lead changes nothing.
    pub changes: Mean,
    /// Games per number of lead changes.
    pub histogram: BTreeMap<u32, u64>,
    /// Share of wins (a shared win counts 1/k) by a seat that was behind the
    /// leader after the half-way round (round ⌊rounds/2⌋), over games of 2 or more rounds.
    pub comeback: Rate,
    /// Share of wins by a seat alone or jointly last after the half-way round
    /// (not all level), over the same games.
    pub from_last: Rate,
}

/// What became of the players who built one card, against those who did not.
#[derive(Clone, Debug, PartialEq)]
pub struct CardImpact {
    /// Card id.
    pub id: String,
    /// Win share of the players who built it.
    pub builders: Rate,
    /// Win share of the players who did not.
    pub others: Rate,
    /// builders − others with its 95% interval (Wald's, kept within ±1) and
    /// test, corrected over all cards (Holm).
    pub impact: Diff,
}

/// The game-feel measures of the games of one player count.
#[derive(Clone, Debug, PartialEq)]
pub struct Feel {
    /// Players per game.
    pub players: usize,
    /// Games.
    pub games: u64,
    /// Win share per seat.
    pub seats: Vec<Rate>,
    /// Some game seats different bots, so a seat's share also measures its bot.
    pub mixed_bots: bool,
    /// Skill against luck.
    pub skill: Skill,
    /// The winning margin.
    pub margin: Margin,
    /// Lead changes and comebacks over the games whose records carry their
    /// scores by round; `None` when none does.
    pub lead: Option<Lead>,
    /// Games without scores by round (written without `--track-scores`).
    pub untracked: u64,
    /// Game length.
    pub length: Length,
    /// Per card, the most winning first.
    pub cards: Vec<CardImpact>,
}

impl Feel {
    /// The even win share, 1/players.
    pub fn even(&self) -> f64 {
        1.0 / self.players.max(1) as f64
    }

    /// The first seat's win share minus the even share, with its interval (the
    /// share's Wilson interval shifted alike): (value, lo, hi).
    pub fn seat_advantage(&self) -> (f64, f64, f64) {
        let first = self.seats.first().copied().unwrap_or(Rate::wilson(0.0, 0));
        let even = self.even();
        (first.value - even, first.lo - even, first.hi - even)
    }
}

/// The measures per player count, by player count.
pub fn feel(records: &[GameRecord]) -> Vec<Feel> {
    let mut groups: BTreeMap<usize, Vec<&GameRecord>> = BTreeMap::new();
    for r in records {
        groups.entry(r.scores.len()).or_default().push(r);
    }
    groups.into_iter().map(|(players, games)| one_count(players, &games)).collect()
}

fn one_count(players: usize, records: &[&GameRecord]) -> Feel {
    let n = records.len() as u64;
    let seats = (0..players).map(|s| Rate::wilson(records.iter().map(|r| win_share(r, s)).sum(), n)).collect();
    let tracked: Vec<&GameRecord> = records.iter().copied().filter(|r| !r.score_by_round.is_empty()).collect();
    Feel {
        players,
        games: n,
        seats,
        mixed_bots: records.iter().any(|r| r.bots.iter().any(|b| Some(b) != r.bots.first())),
        skill: skill(records),
        margin: margin(records),
        lead: (!tracked.is_empty()).then(|| lead(&tracked)),
        untracked: n - tracked.len() as u64,
        length: length(records),
        cards: cards(records),
    }
}

/// A seat's place for "finished ahead": a winner above everyone else, then points.
fn standing(r: &GameRecord, seat: usize) -> (bool, i32) {
    (r.winners.contains(&seat), r.scores[seat])
}

fn skill(records: &[&GameRecord]) -> Skill {
    let bot = |r: &GameRecord, s: usize| r.bots.get(s).cloned().unwrap_or_else(|| "?".to_owned());
    // Strength is the win share per player-game over these games.
    let mut share: BTreeMap<String, (f64, u64)> = BTreeMap::new();
    for r in records {
        for s in 0..r.scores.len() {
            let e = share.entry(bot(r, s)).or_default();
            e.0 += win_share(r, s);
            e.1 += 1;
        }
    }
    if share.len() <= 1 {
        return Skill::SameBot(share.into_keys().next().unwrap_or_default());
    }
    let strength: BTreeMap<String, f64> = share.into_iter().map(|(name, (w, g))| (name, w / g.max(1) as f64)).collect();
    let stronger = |a: &String, b: &String| (strength[a], b) > (strength[b], a);
    // (stronger, weaker) → (hits, meetings)
    let mut met: BTreeMap<(String, String), (f64, u64)> = BTreeMap::new();
    for r in records {
        for i in 0..r.scores.len() {
            for j in 0..r.scores.len() {
                let (a, b) = (bot(r, i), bot(r, j));
                // Each pair of seats once, seen from the stronger bot's seat.
                if a == b || !stronger(&a, &b) {
                    continue;
                }
                let e = met.entry((a, b)).or_default();
                e.0 += match standing(r, i).cmp(&standing(r, j)) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
                e.1 += 1;
            }
        }
    }
    let mut pairs: Vec<Matchup> = met
        .into_iter()
        .map(|((stronger, weaker), (hits, n))| Matchup { stronger, weaker, ahead: Rate::wilson(hits, n) })
        .collect();
    pairs.sort_by(|a, b| b.ahead.value.total_cmp(&a.ahead.value));
    Skill::Pairs(pairs)
}

/// The top score minus the next best (0 when two share the top).
fn margin_of(r: &GameRecord) -> u32 {
    let mut scores = r.scores.clone();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    match scores[..] {
        [top, next, ..] => top.abs_diff(next),
        _ => 0,
    }
}

fn margin(records: &[&GameRecord]) -> Margin {
    let margins: Vec<u32> = records.iter().map(|r| margin_of(r)).collect();
    let points: Vec<f64> = margins.iter().map(|&m| f64::from(m)).collect();
    let mut histogram = BTreeMap::new();
    for &m in &margins {
        *histogram.entry(m).or_insert(0) += 1;
    }
    let n = records.len() as u64;
    let shared = records.iter().filter(|r| r.winners.len() > 1).count() as f64;
    let tie_break = records.iter().zip(&margins).filter(|(r, m)| r.winners.len() == 1 && **m == 0).count() as f64;
    Margin {
        points: Mean::of(&points),
        quartiles: Quartiles::of(&points),
        histogram,
        shared: Rate::wilson(shared, n),
        tie_break: Rate::wilson(tie_break, n),
    }
}

/// The seat alone at the top of a row, if one is.
fn sole_leader(row: &[i32]) -> Option<usize> {
    let top = *row.iter().max()?;
    let mut at_top = (0..row.len()).filter(|&s| row[s] == top);
    let first = at_top.next()?;
    at_top.next().is_none().then_some(first)
}

/// Lead changes in rows of points, one row per round.
pub fn lead_changes(rows: &[Vec<i32>]) -> u32 {
    let mut last = None;
    let mut changes = 0;
    for leader in rows.iter().filter_map(|row| sole_leader(row)) {
        if last.is_some_and(|l| l != leader) {
            changes += 1;
        }
        last = Some(leader);
    }
    changes
}

fn lead(records: &[&GameRecord]) -> Lead {
    let counts: Vec<u32> = records.iter().map(|r| lead_changes(&r.score_by_round)).collect();
    let mut histogram = BTreeMap::new();
    for &c in &counts {
        *histogram.entry(c).or_insert(0) += 1;
    }
    let (mut comeback, mut from_last, mut games) = (0.0, 0.0, 0);
    for r in records {
        let half = r.score_by_round.len() / 2;
        let Some(row) = half.checked_sub(1).and_then(|i| r.score_by_round.get(i)) else { continue };
        let (top, bottom) = (row.iter().max().copied().unwrap_or(0), row.iter().min().copied().unwrap_or(0));
        games += 1;
        for &w in &r.winners {
            let share = 1.0 / r.winners.len() as f64;
            let points = row.get(w).copied().unwrap_or(top);
            if points < top {
                comeback += share;
            }
            if points == bottom && bottom < top {
                from_last += share;
            }
        }
    }
    let changes: Vec<f64> = counts.iter().map(|&c| f64::from(c)).collect();
    Lead {
        changes: Mean::of(&changes),
        histogram,
        comeback: Rate::wilson(comeback, games),
        from_last: Rate::wilson(from_last, games),
    }
}

/// Per card seen built in round 1 or later, the builders' win share against the others'.
fn cards(records: &[&GameRecord]) -> Vec<CardImpact> {
    let player_games: u64 = records.iter().map(|r| r.scores.len() as u64).sum();
    // Every game's win shares add up to 1.
    let all_wins = records.len() as f64;
    // id → (builders, builders' wins)
    let mut acc: BTreeMap<&str, (u64, f64)> = BTreeMap::new();
    for r in records {
        for (seat, held) in r.buildings.iter().enumerate().take(r.scores.len()) {
            let built: BTreeSet<&str> = held.iter().filter(|b| b.round > 0).map(|b| &*b.id).collect();
            for id in built {
                let e = acc.entry(id).or_default();
                e.0 += 1;
                e.1 += win_share(r, seat);
            }
        }
    }
    let mut cards: Vec<CardImpact> = acc
        .into_iter()
        .map(|(id, (built, wins))| {
            let builders = Rate::wilson(wins, built);
            let others = Rate::wilson(all_wins - wins, player_games - built);
            let d = Diff::rates(&others, &builders);
            // Wald's interval can pass ±100 points on few builders; no difference of shares can.
            let impact = Diff { lo: d.lo.max(-1.0), hi: d.hi.min(1.0), ..d };
            CardImpact { id: id.to_owned(), builders, others, impact }
        })
        .collect();
    control(cards.iter_mut().map(|c| &mut c.impact), MIN_RATE_EFFECT);
    cards.sort_by(|a, b| b.impact.diff.total_cmp(&a.impact.diff).then_with(|| a.id.cmp(&b.id)));
    cards
}
