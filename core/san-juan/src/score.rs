//! End-of-game scoring: printed points, cards under buildings, then every
//! `on_score` hook in card order (the palace last, on the subtotal).

use crate::error::GameError;
use crate::game::Game;
use crate::hooks::Hook;
pub use engine_game::score::{Score, winners_of};

impl Game {
    /// Scores one player as if the game ended now.
    pub fn score(&self, seat: usize) -> Result<Score, GameError> {
        let p = &self.players[seat];
        let mut score = Score { tie_break: (p.hand.len() + p.goods()) as i32, ..Score::default() };
        self.score_parts(seat, |key, points| score.add(key, points))?;
        Ok(score)
    }

    /// [`Game::score`]'s total alone: the balance bot asks for it some
    /// hundreds of times a game, and naming the parts was most of its allocations.
    pub(crate) fn score_total(&self, seat: usize) -> Result<i32, GameError> {
        self.score_parts(seat, |_, _| {})
    }

    /// Tells `part` each source of `seat`'s points in order and returns their
    /// total (added as [`Score::add`] adds them).
    fn score_parts(&self, seat: usize, mut part: impl FnMut(&str, i32)) -> Result<i32, GameError> {
        let cards = &self.rs.cards;
        let p = &self.players[seat];
        let mut total = 0i32;
        let mut add = |total: &mut i32, key: &str, points: i32| {
            *total = total.saturating_add(points);
            part(key, points);
        };
        add(&mut total, "buildings", p.city.iter().map(|s| cards.get(s.card).vp).sum());
        for s in &p.city {
            if let Some(from) = s.under_from {
                let vp = cards.get(from).under_vp.saturating_mul(s.under.len() as i32);
                if vp != 0 {
                    add(&mut total, cards.id(from), vp);
                }
            }
        }
        for slot in self.listeners_where(Hook::Score, seat, |_| true) {
            let mut ctx = self.ctx(seat, slot);
            ctx.subtotal = total;
            let card = ctx.card;
            let points = self.call_int(Hook::Score, ctx)?;
            add(&mut total, cards.id(card), points);
        }
        Ok(total)
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

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::ruleset::Ruleset;
    use crate::turns::TurnGame;

    #[test]
    fn the_total_alone_is_the_scores_total_at_every_step() {
        // Scripts that score on the subtotal (a palace) and cards under
        // buildings included: every built-in ruleset, random play.
        let mut checked = 0;
        for id in ["second-edition", "first-edition", "second-edition-expansion"] {
            let rs = Ruleset::load(id).unwrap();
            for seed in 0..4 {
                let mut game = Game::new(rs.clone(), 4, seed).unwrap();
                let mut pick = seed as usize;
                while game.to_move().is_some() {
                    for seat in 0..4 {
                        assert_eq!(game.score_total(seat).unwrap(), game.score(seat).unwrap().total);
                        checked += 1;
                    }
                    pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let legal = game.legal();
                    let action = legal[(pick >> 33) % legal.len()];
                    game.play(action).unwrap();
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
