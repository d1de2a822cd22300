//! The report of one record set: per seat, per bot, per building and the
//! game length, each with its interval.

use std::collections::{BTreeMap, BTreeSet};

use engine_play::sim::{Built, GameRecord};

use crate::feel::{Feel, feel};
use crate::games::{Length, length_of, win_share};
use crate::stats::{ALPHA, MIN_RATE_EFFECT, Mean, Rate, holm, two_proportion_p};

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
    /// Share of player-games whose final holdings hold a copy got in round 1 or later.
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
    /// Per building id seen in any holdings, by id.
    pub buildings: Vec<BuildingStats>,
    /// Per building type, where the records name types (`gate` for a card
    /// `gate4`), by type; empty otherwise, and where only some records do.
    pub types: Vec<BuildingStats>,
    /// Records that name no types in a set where others do (written before
    /// records carried types): counted in, their types would read as never
    /// built, so the types are left out.
    pub types_unnamed: u64,
    /// Game length.
    pub length: Length,
    /// How the game feels, per player count.
    pub feel: Vec<Feel>,
    /// The records' bots against a reference search (`report --check-bot`):
    /// set by the caller, who can play the sample.
    pub check: Option<crate::check::BotCheck>,
}

impl Report {
    /// A building's built share and its builders' win rate; a building this set
    /// never saw was built in none of its player-games.
    /// A building's mean round got (no copies: no data).
    pub(crate) fn building_round(rows: &[BuildingStats], id: &str) -> Mean {
        rows.iter().find(|s| s.id == id).map_or_else(|| Mean::of(&[]), |s| s.round)
    }

    pub(crate) fn building_rates(&self, rows: &[BuildingStats], id: &str) -> (Rate, Rate) {
        rows.iter()
            .find(|s| s.id == id)
            .map_or((Rate::wilson(0.0, self.player_games), Rate::wilson(0.0, 0)), |s| (s.built, s.builders))
    }
}

/// What `simulate` prints after a run: each seat's win rate and score, the
/// game length and the actions per game.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// Games.
    pub games: u64,
    /// Per seat, by seat number.
    pub seats: Vec<PlayerStats>,
    /// Game length.
    pub length: Length,
    /// Actions applied per game, automatic ones included.
    pub actions: Mean,
}

/// The summary of a run, computed as [`report`] computes the same numbers,
/// without the per-building statistics a long run cannot afford.
pub fn summary(records: &[GameRecord]) -> RunSummary {
    let mut acc = SummaryAcc::default();
    for r in records {
        acc.add(r);
    }
    acc.finish()
}

/// A [`RunSummary`] added to game by game, keeping a few numbers of each game
/// instead of its record (some 30 bytes a game), so that a run of millions of
/// games need not hold its records; the numbers are [`summary`]'s, bit for bit.
#[derive(Clone, Debug, Default)]
pub struct SummaryAcc {
    /// Per seat: its win shares' sum, and its score in each game that has the seat
    /// (a seat some games lack counts only the games that have it).
    seats: Vec<(f64, Vec<i32>)>,
    rounds: Vec<u32>,
    stalled: u64,
    actions: Vec<u64>,
}

impl SummaryAcc {
    /// Counts one game (in the order the records would be read).
    pub fn add(&mut self, r: &GameRecord) {
        if self.seats.len() < r.scores.len() {
            self.seats.resize_with(r.scores.len(), Default::default);
        }
        for (seat, &score) in r.scores.iter().enumerate() {
            self.seats[seat].0 += win_share(r, seat);
            self.seats[seat].1.push(score);
        }
        self.rounds.push(r.rounds);
        self.stalled += u64::from(r.stalled);
        self.actions.push(r.actions);
    }

    /// The summary of the games counted so far.
    pub fn finish(&self) -> RunSummary {
        let actions: Vec<f64> = self.actions.iter().map(|&a| a as f64).collect();
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(s, (wins, scores))| {
                let scores: Vec<f64> = scores.iter().map(|&x| f64::from(x)).collect();
                Acc { wins: *wins, scores }.stats(format!("seat {s}"))
            })
            .collect();
        RunSummary {
            games: self.rounds.len() as u64,
            seats,
            length: length_of(&self.rounds, self.stalled),
            actions: Mean::of(&actions),
        }
    }
}

#[derive(Default)]
struct Acc {
    wins: f64,
    scores: Vec<f64>,
}

impl Acc {
    fn add(&mut self, r: &GameRecord, seat: usize, score: i32) {
        self.wins += win_share(r, seat);
        self.scores.push(f64::from(score));
    }

    fn stats(self, label: String) -> PlayerStats {
        let n = self.scores.len() as u64;
        PlayerStats { label, games: n, win_rate: Rate::wilson(self.wins, n), score: Mean::of(&self.scores) }
    }
}

/// Per bot name, by name, over the player-games it played in any seat.
fn bots(records: &[GameRecord]) -> Vec<PlayerStats> {
    let mut bots: BTreeMap<String, Acc> = BTreeMap::new();
    for r in records {
        for (seat, &score) in r.scores.iter().enumerate() {
            let bot = r.bots.get(seat).cloned().unwrap_or_else(|| "?".to_owned());
            bots.entry(bot).or_default().add(r, seat, score);
        }
    }
    bots.into_iter().map(|(name, acc)| acc.stats(name)).collect()
}

#[derive(Default)]
struct BuildingAcc {
    built: u64,
    builder_wins: f64,
    other_wins: f64,
    rounds: Vec<f64>,
}

/// What a holding is counted as: its card (`buildings`) or its type (`types`).
type Key = fn(&Built) -> Option<&str>;

/// Per building id seen in any holdings, by id, with the builders-against-others
/// tests corrected over all buildings.
fn buildings(records: &[GameRecord], player_games: u64) -> Vec<BuildingStats> {
    holding_stats(records, player_games, |b| Some(&*b.id))
}

/// Per building type (a record's `kind`), as [`buildings`] per card: "built"
/// is holding one of the type got in round 1 or later. Empty where no
/// record names types.
fn types(records: &[GameRecord], player_games: u64) -> Vec<BuildingStats> {
    holding_stats(records, player_games, |b| b.kind.as_deref())
}

/// [`buildings`] or [`types`]: the holdings grouped by `key` (those without one left out).
fn holding_stats(records: &[GameRecord], player_games: u64, key: Key) -> Vec<BuildingStats> {
    let mut ids: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for holdings in records.iter().flat_map(|r| &r.buildings) {
        for b in holdings {
            if let Some(id) = key(b) {
                ids.insert(id);
            }
        }
    }
    // Each holding found by its id's place, not compared with every id: a large
    // record set's report spent most of its time here.
    let index: std::collections::HashMap<&str, usize> = ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    let mut accs: Vec<BuildingAcc> = ids.iter().map(|_| BuildingAcc::default()).collect();
    let mut built = vec![false; accs.len()];
    for r in records {
        for seat in 0..r.scores.len() {
            let share = win_share(r, seat);
            let holdings = r.buildings.get(seat).map_or(&[][..], Vec::as_slice);
            built.fill(false);
            // Round 0 is what setup dealt, not a choice the player made.
            for b in holdings.iter().filter(|b| b.round > 0) {
                let Some(id) = key(b) else { continue };
                let i = index[id];
                built[i] = true;
                accs[i].rounds.push(f64::from(b.round));
            }
            for (acc, &built) in accs.iter_mut().zip(&built) {
                if built {
                    acc.built += 1;
                    acc.builder_wins += share;
                } else {
                    acc.other_wins += share;
                }
            }
        }
    }
    let mut stats: Vec<BuildingStats> = ids
        .into_iter()
        .zip(accs)
        .map(|(id, acc)| {
            let builders = Rate::wilson(acc.builder_wins, acc.built);
            let others = Rate::wilson(acc.other_wins, player_games - acc.built);
            let p = two_proportion_p(&others, &builders);
            BuildingStats {
                id: id.to_owned(),
                built: Rate::wilson(acc.built as f64, player_games),
                builders,
                others,
                p,
                p_adj: p,
                significant: false,
                round: Mean::of(&acc.rounds),
            }
        })
        .collect();
    let ps: Vec<f64> = stats.iter().map(|b| b.p).collect();
    for (b, q) in stats.iter_mut().zip(holm(&ps)) {
        b.p_adj = q;
        b.significant = q < ALPHA && (b.builders.value - b.others.value).abs() >= MIN_RATE_EFFECT;
    }
    stats
}

/// The games of each run seed, by seed.
fn runs(records: &[GameRecord]) -> Vec<Run> {
    let mut runs: BTreeMap<u64, Run> = BTreeMap::new();
    for r in records {
        let run =
            runs.entry(r.run_seed).or_insert(Run { run_seed: r.run_seed, games: 0, first: r.index, last: r.index });
        run.games += 1;
        run.first = run.first.min(r.index);
        run.last = run.last.max(r.index);
    }
    runs.into_values().collect()
}

/// The report of one record set.
pub fn report(records: &[GameRecord]) -> Report {
    let mut player_counts = BTreeMap::new();
    for r in records {
        *player_counts.entry(r.scores.len()).or_insert(0) += 1;
    }
    let player_games = records.iter().map(|r| r.scores.len() as u64).sum();
    // The seats and the length are `simulate`'s summary, by the same code.
    let RunSummary { seats, length, .. } = summary(records);
    let named = records.iter().filter(|r| r.buildings.iter().flatten().any(|b| b.kind.is_some())).count() as u64;
    let types_unnamed = if named > 0 { records.len() as u64 - named } else { 0 };
    Report {
        game: records.iter().map(|r| r.game.as_str()).find(|g| !g.is_empty()).unwrap_or_default().to_owned(),
        rulesets: records.iter().map(|r| r.ruleset.clone()).collect::<BTreeSet<_>>().into_iter().collect(),
        games: records.len() as u64,
        player_games,
        player_counts,
        runs: runs(records),
        seats,
        bots: bots(records),
        buildings: buildings(records, player_games),
        types: if types_unnamed == 0 { types(records, player_games) } else { Vec::new() },
        types_unnamed,
        length,
        feel: feel(records),
        check: None,
    }
}
