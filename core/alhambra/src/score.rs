//! Scoring: the points of one scoring (majorities per building type, ties
//! shared), the neutral collector's draws, and the players' scores.
//!
//! TODO(engine-script): `scoring_points` and `neutral_draw_count` are the Rust
//! twins of `scripts/alhambra/score.rhai` and `neutral.rhai`; once the shared
//! script host lands, the game calls the scripts through it instead.

use serde::Serialize;

use crate::error::GameError;
use crate::game::Game;
use crate::ruleset::MAX_TYPES;

/// A collector's points with where they came from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Total points.
    pub total: i32,
    /// Points per scoring (`A`, `B`, `C`; `earlier` for points a scenario starts with).
    pub breakdown: Vec<(String, i32)>,
}

impl Score {
    pub(crate) fn add(&mut self, key: &str, points: i32) {
        self.total = self.total.saturating_add(points);
        match self.breakdown.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = v.saturating_add(points),
            None => self.breakdown.push((key.to_owned(), points)),
        }
    }

    /// Points from one scoring (0 if none).
    pub fn get(&self, key: &str) -> i32 {
        self.breakdown.iter().find(|(k, _)| k == key).map_or(0, |(_, v)| *v)
    }
}

/// The points of one scoring, per collector and building type.
///
/// `counts[c][t]`: collector `c`'s buildings of type `t`; `ranks[r][t]`: the
/// points of rank `r` (0 = 1st) for type `t`. Collectors tied on a count share
/// the ranks they occupy: the sum of those ranks' points (0 past the table),
/// divided by their number, rounded down. With `needs_building`, a collector
/// with no building of a type does not rank for it.
pub fn scoring_points(
    counts: &[[u8; MAX_TYPES]],
    ranks: &[Vec<i32>],
    types: usize,
    needs_building: bool,
) -> Result<Vec<[i32; MAX_TYPES]>, GameError> {
    let mut points = vec![[0i32; MAX_TYPES]; counts.len()];
    for t in 0..types {
        for (c, row) in counts.iter().enumerate() {
            let n = row[t];
            if n == 0 && needs_building {
                continue;
            }
            let ahead = counts.iter().filter(|o| o[t] > n).count();
            let tied = counts.iter().filter(|o| o[t] == n).count();
            let sum: i32 = (ahead..ahead + tied).filter_map(|r| ranks.get(r)).map(|r| r[t]).sum();
            points[c][t] = sum / tied as i32;
        }
    }
    Ok(points)
}

/// How many building cards the neutral collector draws from a deck of `deck`:
/// `cards`, or with `share` the deck's size divided by it, rounded down; never
/// more than the deck holds.
pub fn neutral_draw_count(deck: u32, cards: u32, share: u32) -> Result<u32, GameError> {
    let n = deck.checked_div(share).unwrap_or(cards);
    Ok(n.min(deck))
}

/// The winning seats among these totals; a tie shares the victory.
pub fn winners_of(totals: &[i32]) -> Vec<usize> {
    let best = totals.iter().copied().max().unwrap_or_default();
    (0..totals.len()).filter(|&i| totals[i] == best).collect()
}

impl Game {
    /// A player's points so far (the final ones once the game is over).
    pub fn score(&self, seat: usize) -> Score {
        self.earned[seat].clone()
    }

    /// Every player's points so far.
    pub fn scores(&self) -> Vec<Score> {
        self.earned[..self.players.len()].to_vec()
    }

    /// The neutral collector's points (two players).
    pub fn neutral_score(&self) -> Option<Score> {
        self.neutral.as_ref().map(|_| self.earned[self.players.len()].clone())
    }

    /// The winning seats: most points; a tie shares the victory. The neutral
    /// collector cannot win.
    pub fn winners(&self) -> Vec<usize> {
        winners_of(&self.scores().iter().map(|s| s.total).collect::<Vec<_>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(rows: &[&[u8]]) -> Vec<[u8; MAX_TYPES]> {
        rows.iter()
            .map(|r| {
                let mut a = [0; MAX_TYPES];
                a[..r.len()].copy_from_slice(r);
                a
            })
            .collect()
    }

    #[test]
    fn ties_share_the_ranks_they_occupy() {
        // The rules text's scoring C example, gardens only: 3, 3, 2, 2 → 16, 16, 2, 2.
        let ranks = vec![vec![20], vec![12], vec![5]];
        let p = scoring_points(&counts(&[&[3], &[3], &[2], &[2]]), &ranks, 1, true).unwrap();
        assert_eq!(p.iter().map(|r| r[0]).collect::<Vec<_>>(), [16, 16, 2, 2]);
        // Nobody without a building ranks; with the option off, the zeros tie.
        let p = scoring_points(&counts(&[&[1], &[0], &[0]]), &ranks, 1, true).unwrap();
        assert_eq!(p.iter().map(|r| r[0]).collect::<Vec<_>>(), [20, 0, 0]);
        let p = scoring_points(&counts(&[&[1], &[0], &[0]]), &ranks, 1, false).unwrap();
        assert_eq!(p.iter().map(|r| r[0]).collect::<Vec<_>>(), [20, 8, 8]);
    }
}
