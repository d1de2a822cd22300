//! What search bots and undo need: a game dealt again from what one seat can
//! see ([`Game::determinize`]; the engine's `Game::redeal` deals with it and
//! carries the journal over) and the engine's turn interface.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Decision, Game};
use crate::actions::Action;
use crate::cards::CardIdx;
use crate::error::GameError;
use crate::rng;

impl crate::turns::TurnGame for Game {
    type Action = Action;
    type Error = GameError;

    fn seats(&self) -> usize {
        self.players.len()
    }

    fn to_move(&self) -> Option<usize> {
        self.pending.as_ref().map(Decision::seat)
    }

    fn legal(&self) -> &[Action] {
        &self.legal
    }

    /// The action comes from [`legal`](Self::legal) (a bot's or a search's
    /// choice), so the check `apply` makes is left to debug builds: it was the
    /// largest single cost of a random game's step (a scan of the legal list).
    #[inline]
    fn play(&mut self, action: Action) -> Result<(), GameError> {
        debug_assert!(self.legal.contains(&action), "{action:?} is not legal here");
        self.apply_trusted(action)?;
        if self.logging() {
            self.journal.take_events(); // a bot's move is not told, as `apply`'s is
        }
        Ok(())
    }

    /// Mostly the win share; a fifth is the margin over the best other player,
    /// so that a search also prefers winning (or losing) by more (or less).
    fn rewards(&self) -> Option<Vec<f64>> {
        if !self.over {
            return None;
        }
        let scores = self.scores().ok()?;
        let winners = engine_game::score::winners_of(&scores);
        let totals: Vec<i32> = scores.iter().map(|s| s.total).collect();
        Some(engine_play::turns::shaped_rewards(&totals, &winners, 10.0))
    }
}

impl crate::turns::Determinize for Game {
    /// A game consistent with what the seats `seen_by` can see: the cards none of them can see
    /// (other hands, the draw and discard piles, goods, cards under other
    /// players' buildings) are dealt again at random, in the same numbers, and
    /// the game's own random stream is replaced. Search bots play on these.
    fn determinize_for(&self, seen_by: engine_play::Seats, seed: u64) -> Game {
        let mut g = self.clone();
        g.journal.detach();
        g.rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pool: Vec<CardIdx> = Vec::with_capacity(g.deck.len() + g.discard.len() + 32);
        pool.extend_from_slice(&g.deck);
        pool.extend_from_slice(&g.discard);
        for (s, p) in g.players.iter().enumerate() {
            if !seen_by.contains(s) {
                pool.extend_from_slice(&p.hand);
            }
            for slot in &p.city {
                pool.extend(slot.good);
                if !seen_by.contains(s) {
                    pool.extend_from_slice(&slot.under);
                }
            }
        }
        rng::shuffle(&mut g.rng, &mut pool);
        let mut take = |n: usize| pool.split_off(pool.len() - n);
        let (deck, discard) = (g.deck.len(), g.discard.len());
        g.deck = take(deck);
        g.discard = take(discard);
        for (s, p) in g.players.iter_mut().enumerate() {
            if !seen_by.contains(s) {
                let n = p.hand.len();
                p.hand = take(n);
            }
            for slot in &mut p.city {
                if let Some(good) = &mut slot.good {
                    *good = take(1)[0];
                }
                if !seen_by.contains(s) {
                    let n = slot.under.len();
                    slot.under = take(n);
                }
            }
        }
        g
    }
}
