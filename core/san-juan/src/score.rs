//! End-of-game scoring: printed points, cards under buildings, then every
//! `on_score` hook in card order (the palace last, on the subtotal).

use crate::error::GameError;
use crate::game::Game;
use crate::hooks::Hook;
pub use engine_game::score::{Score, winners_of};

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
