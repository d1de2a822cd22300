//! Scoring: the points of one scoring (majorities per building type, ties
//! shared: the ruleset's `on_score` script), and the players' scores.

use crate::error::GameError;
use crate::game::Game;
use crate::hooks::MAX_COLLECTORS;
use crate::ruleset::{MAX_PLAYERS, MAX_TYPES, Ruleset};

pub use engine_game::score::{Score, winners_of};

impl Ruleset {
    /// The points of scoring `k`, per collector and building type, for these
    /// counts of buildings per collector and type (the ruleset's `on_score`).
    pub fn scoring_points(&self, k: usize, counts: &[[u8; MAX_TYPES]]) -> Result<Vec<[i32; MAX_TYPES]>, GameError> {
        let mut points = vec![[0i32; MAX_TYPES]; counts.len()];
        for t in 0..self.types.len() {
            let p = self.type_points(k, t, counts)?;
            for (c, row) in points.iter_mut().enumerate() {
                row[t] = p[c];
            }
        }
        Ok(points)
    }

    /// The points of scoring `k` for building type `t` alone, per collector.
    pub fn type_points(
        &self,
        k: usize,
        t: usize,
        counts: &[[u8; MAX_TYPES]],
    ) -> Result<[i32; MAX_COLLECTORS], GameError> {
        let mut column = [0u8; MAX_COLLECTORS];
        for (c, row) in counts.iter().enumerate() {
            column[c] = row[t];
        }
        let mut ranks = [0i32; MAX_PLAYERS];
        let scoring = &self.scorings[k];
        for (r, row) in scoring.ranks.iter().enumerate() {
            ranks[r] = row[t];
        }
        let needs = self.rules.rank_needs_a_building;
        self.hooks.points(k, t, &column[..counts.len()], &ranks[..scoring.ranks.len()], needs)
    }
}

impl Game {
    /// A player's points so far (the final ones once the game is over).
    pub fn score(&self, seat: usize) -> Score {
        self.earned[seat].clone()
    }

    /// A seat's points so far, without copying where they came from (the
    /// balance bot reads every seat's at every position it judges by playing).
    pub fn points(&self, seat: usize) -> i32 {
        self.earned[seat].total
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
        winners_of(self.earned_by_seats())
    }

    /// The seats' points as kept (the neutral collector's left out), read in place.
    pub(crate) fn earned_by_seats(&self) -> &[Score] {
        &self.earned[..self.players.len()]
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
    fn the_scoring_script_shares_the_ranks_tied_players_occupy() {
        let rs = Ruleset::load("alhambra").unwrap();
        // The rules text's scoring C example, gardens (type 4): 3, 3, 2, 2 → 16, 16, 2, 2.
        let g = |n: u8| [0, 0, 0, 0, n];
        let p = rs.scoring_points(2, &counts(&[&g(3), &g(3), &g(2), &g(2)])).unwrap();
        assert_eq!(p.iter().map(|r| r[4]).collect::<Vec<_>>(), [16, 16, 2, 2]);
        // Nobody without a building ranks.
        let p = rs.scoring_points(2, &counts(&[&g(1), &g(0), &g(0)])).unwrap();
        assert_eq!(p.iter().map(|r| r[4]).collect::<Vec<_>>(), [20, 0, 0]);
        assert_eq!(rs.hooks.neutral_draws(20, 0, 3).unwrap(), 6);
        assert_eq!(rs.hooks.neutral_draws(4, 6, 0).unwrap(), 4);
    }
}
