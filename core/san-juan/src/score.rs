//! End-of-game scoring: printed points, cards under buildings, then every
//! `on_score` hook in card order (the palace last, on the subtotal).

use serde::Serialize;

use crate::error::GameError;
use crate::game::Game;
use crate::hooks::Hook;

/// A player's score with where it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Total victory points.
    pub total: i32,
    /// Points by source: `buildings` (printed points), then a card id per card that added points.
    pub breakdown: Vec<(String, i32)>,
    /// Tie-break value: hand cards plus goods.
    pub tie_break: i32,
}

impl Score {
    fn add(&mut self, key: &str, points: i32) {
        self.total = self.total.saturating_add(points);
        match self.breakdown.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = v.saturating_add(points),
            None => self.breakdown.push((key.to_owned(), points)),
        }
    }

    /// Points from one source (0 if none).
    pub fn get(&self, key: &str) -> i32 {
        self.breakdown.iter().find(|(k, _)| k == key).map_or(0, |(_, v)| *v)
    }
}

impl Game {
    /// Scores one player as if the game ended now.
    pub fn score(&self, seat: usize) -> Result<Score, GameError> {
        let cards = &self.rs.cards;
        let p = &self.players[seat];
        let mut score = Score { tie_break: (p.hand.len() + p.goods()) as i32, ..Score::default() };
        score.add("buildings", p.city.iter().map(|s| cards.get(s.card).vp).sum());
        for s in &p.city {
            if let Some(from) = s.under_from {
                let vp = cards.get(from).under_vp.saturating_mul(s.under.len() as i32);
                if vp != 0 {
                    score.add(cards.id(from), vp);
                }
            }
        }
        for slot in self.listeners_where(Hook::Score, seat, |_| true) {
            let mut ctx = self.ctx(seat, slot);
            ctx.subtotal = score.total;
            let card = ctx.card;
            let points = self.call_int(Hook::Score, ctx)?;
            score.add(cards.id(card), points);
        }
        Ok(score)
    }

    /// Every player's score.
    pub fn scores(&self) -> Result<Vec<Score>, GameError> {
        (0..self.players.len()).map(|s| self.score(s)).collect()
    }

    /// The winning seats: most points, then most hand cards plus goods; still tied means shared.
    pub fn winners(&self) -> Result<Vec<usize>, GameError> {
        Ok(winners_of(&self.scores()?))
    }
}

/// The winning seats among these scores: most points, then the tie-break; still tied means shared.
pub fn winners_of(scores: &[Score]) -> Vec<usize> {
    let best = scores.iter().map(|s| (s.total, s.tie_break)).max().unwrap_or_default();
    (0..scores.len()).filter(|&i| (scores[i].total, scores[i].tie_break) == best).collect()
}
