//! End-of-game scoring: printed points, cards under buildings, then every
//! `on_score` hook in card order (the palace last, on the subtotal).

use crate::error::GameError;
use crate::game::{Game, Slot};
use crate::hooks::{Ctx, Hook};
pub use engine_game::score::{Score, winners_of};
use engine_script::HookMask;

impl Game {
    /// Scores one player as if the game ended now.
    pub fn score(&self, seat: usize) -> Result<Score, GameError> {
        let p = &self.players[seat];
        let mut score = Score { tie_break: (p.hand.len() + p.goods()) as i32, ..Score::default() };
        self.score_parts(seat, |key, points| score.add(key, points))?;
        Ok(score)
    }

    /// The points anyone at the table can count for `seat` now: its buildings'
    /// printed points and the scoring buildings' bonuses worked out from what
    /// lies face up, as if no card lay under any building (those are face
    /// down, EN2 chapel note) — so a seat's view may show it for every seat.
    pub fn public_score(&self, seat: usize) -> Result<Score, GameError> {
        let p = &self.players[seat];
        let city: Vec<Slot> = p
            .city
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.under.clear();
                s
            })
            .collect();
        let mut score = Score::default();
        let call = |ctx| Some(self.call_int(Hook::Score, ctx));
        self.score_parts_in(seat, &city, self.hook_mask[seat], |key, points| score.add(key, points), call)
            .expect("a called hook always answers")?;
        Ok(score)
    }

    /// [`Game::score`] with its total and tie-break but no parts: all a ranking reads.
    pub(crate) fn score_for_ranking(&self, seat: usize) -> Result<Score, GameError> {
        let p = &self.players[seat];
        let tie_break = (p.hand.len() + p.goods()) as i32;
        Ok(Score { total: self.score_total(seat)?, tie_break, ..Score::default() })
    }

    /// [`Game::score`]'s total alone: the balance bot asks for it some
    /// hundreds of times a game, and naming the parts was most of its allocations.
    pub(crate) fn score_total(&self, seat: usize) -> Result<i32, GameError> {
        self.score_parts(seat, |_, _| {})
    }

    /// Tells `part` each source of `seat`'s points in order and returns their
    /// total (added as [`Score::add`] adds them).
    fn score_parts(&self, seat: usize, part: impl FnMut(&str, i32)) -> Result<i32, GameError> {
        let city = &self.players[seat].city;
        let call = |ctx| Some(self.call_int(Hook::Score, ctx));
        self.score_parts_in(seat, city, self.hook_mask[seat], part, call).expect("a called hook always answers")
    }

    /// [`Game::score_total`] of `seat` as if its city were `city` (its cards'
    /// hooks `mask`), from the scoring scripts' remembered answers alone: what
    /// the balance bot asks of each building it might build, without a copy
    /// of the game to build it in. `None` when some script would have to run.
    pub(crate) fn remembered_total(
        &self,
        seat: usize,
        city: &[Slot],
        mask: HookMask,
    ) -> Option<Result<i32, GameError>> {
        // Each keyed member of the city worked out once for all its scoring scripts.
        let known: [std::cell::OnceCell<Option<i32>>; 4] = Default::default();
        let keyed = |k: usize| match known.get(k) {
            Some(cell) => *cell.get_or_init(|| self.keyed_member_in(city, k)),
            None => self.keyed_member_in(city, k),
        };
        let call = |ctx| self.remembered_int(Hook::Score, ctx, keyed, city);
        self.score_parts_in(seat, city, mask, |_, _| {}, call)
    }

    /// [`Game::score_parts`] over `city`, each scoring hook answered by `call` (`None`: no answer, stop).
    fn score_parts_in(
        &self,
        seat: usize,
        city: &[Slot],
        mask: HookMask,
        mut part: impl FnMut(&str, i32),
        call: impl Fn(Ctx) -> Option<Result<i32, GameError>>,
    ) -> Option<Result<i32, GameError>> {
        let cards = &self.rs.cards;
        let mut total = 0i32;
        let mut add = |total: &mut i32, key: &str, points: i32| {
            *total = total.saturating_add(points);
            part(key, points);
        };
        add(&mut total, "buildings", city.iter().map(|s| cards.get(s.card).vp).sum());
        for s in city {
            if let Some(from) = s.under_from {
                let vp = cards.get(from).under_vp.saturating_mul(s.under.len() as i32);
                if vp != 0 {
                    add(&mut total, cards.id(from), vp);
                }
            }
        }
        let listeners = self.listeners_in(Hook::Score, mask, city, |_| true);
        let covered = self.covered_scorers(city);
        // One scoring hook's answer, given the points so far, added to them.
        let mut score = |mut ctx: Ctx, total: &mut i32| -> Option<Result<(), GameError>> {
            ctx.subtotal = *total;
            let card = ctx.card;
            match call(ctx)? {
                Ok(points) => {
                    add(total, cards.id(card), points);
                    Some(Ok(()))
                }
                Err(e) => Some(Err(e)),
            }
        };
        if covered.is_empty() {
            for slot in listeners {
                if let Err(e) = score(self.ctx_in(seat, city, slot), &mut total)? {
                    return Some(Err(e));
                }
            }
            return Some(Ok(total));
        }
        // Covered buildings that score take their turn in card order with the others.
        let mut all: Vec<(i32, usize, usize)> =
            listeners.iter().map(|slot| (cards.get(city[slot].card).order, slot, usize::MAX)).collect();
        all.extend(covered.iter().map(|&(slot, k)| (cards.get(city[slot].covered[k].card).order, slot, k)));
        all.sort_unstable();
        for (_, slot, k) in all {
            let ctx = if k == usize::MAX {
                self.ctx_in(seat, city, slot)
            } else {
                let s = &city[slot];
                let c = &s.covered[k];
                let mut ctx = self.ctx_of(seat, city, c.card);
                ctx.counter = c.counter;
                ctx.covered_by = Some(s.covered.get(k + 1).map_or(s.card, |above| above.card));
                ctx
            };
            if let Err(e) = score(ctx, &mut total)? {
                return Some(Err(e));
            }
        }
        Some(Ok(total))
    }

    /// The covered buildings of `city` whose `on_score` asks whether they are
    /// covered (`ctx.covered_by`): (slot, place in its `covered`, oldest first).
    fn covered_scorers(&self, city: &[Slot]) -> smallvec::SmallVec<[(usize, usize); 2]> {
        let mut out = smallvec::SmallVec::new();
        if !self.rs.any_scores_covered {
            return out;
        }
        for (slot, s) in city.iter().enumerate() {
            for (k, c) in s.covered.iter().enumerate() {
                if self.rs.scores_covered[c.card as usize] {
                    out.push((slot, k));
                }
            }
        }
        out
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
                        let (full, ranked) = (game.score(seat).unwrap(), game.score_for_ranking(seat).unwrap());
                        assert_eq!((ranked.total, ranked.tie_break), (full.total, full.tie_break));
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
