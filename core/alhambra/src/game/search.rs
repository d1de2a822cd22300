//! What search bots and undo need: a game dealt again from what one seat can
//! see ([`Game::determinize`]; the engine's `Game::redeal` deals with it and
//! carries the journal over) and the engine's turn interface.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Decision, Draw, Game};
use crate::actions::Action;
use crate::error::GameError;
use crate::rng;
use crate::ruleset::Money;

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
    /// choice), so the scan of the legal list `apply` makes is left to debug
    /// builds (the tests), as in San Juan: it was 4% of the instructions of a
    /// random 4-player game.
    fn play(&mut self, action: Action) -> Result<(), GameError> {
        if self.pending.is_none() {
            return Err(GameError::Over);
        }
        debug_assert!(self.legal.contains(&action), "{action:?} is not legal here");
        self.apply_checked(action)
    }

    /// Mostly the win share; a fifth is the margin over the best other player,
    /// so that a search also prefers winning (or losing) by more (or less).
    fn rewards(&self) -> Option<Vec<f64>> {
        if !self.over {
            return None;
        }
        let scores = &self.earned[..self.players.len()];
        let totals: Vec<i32> = scores.iter().map(|s| s.total).collect();
        let winners = engine_game::score::winners_of(scores);
        Some(engine_play::turns::shaped_rewards(&totals, &winners, 20.0))
    }
}

impl crate::turns::Determinize for Game {
    /// A game consistent with what the seats `seen_by` can see: the other players' hands
    /// (their sizes kept), the order of the money deck (each scoring card kept
    /// within its pile) and the order of the building deck are dealt again at
    /// random, and the game's own random stream is replaced.
    fn determinize_for(&self, seen_by: engine_play::Seats, seed: u64) -> Game {
        let mut g = self.clone();
        g.journal.detach();
        g.rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pool: Vec<Money> = Vec::with_capacity(g.deck.len() + 40);
        let mut scoring: Vec<u8> = Vec::new();
        for d in &g.deck {
            match d {
                Draw::Money(m) => pool.push(*m),
                Draw::Scoring(s) => scoring.push(*s),
                // A deck card stays where it lies (below).
                Draw::Deck(_) => {}
            }
        }
        for (s, p) in g.players.iter().enumerate() {
            if !seen_by.contains(s) {
                pool.extend_from_slice(p.hand());
            }
        }
        rng::shuffle(&mut g.rng, &mut pool);
        for (s, p) in g.players.iter_mut().enumerate() {
            if !seen_by.contains(s) {
                let n = p.hand().len();
                p.set_hand(pool.split_off(pool.len() - n));
            }
        }
        // The scoring cards first, each somewhere within its range; the money around them.
        let len = g.deck.len();
        let mut deck: Vec<Option<Draw>> = g.deck.iter().map(|d| matches!(d, Draw::Deck(_)).then_some(*d)).collect();
        for s in scoring {
            let (lo, hi) = g.scoring_range[s as usize];
            let (lo, hi) = (lo.min(len), hi.min(len));
            let free: Vec<usize> = (lo..hi).filter(|&i| deck[i].is_none()).collect();
            let at = if free.is_empty() {
                (0..len).find(|&i| deck[i].is_none()).expect("room for the scoring card")
            } else {
                free[rng::below(&mut g.rng, free.len())]
            };
            deck[at] = Some(Draw::Scoring(s));
        }
        g.deck = deck.into_iter().map(|d| d.unwrap_or_else(|| Draw::Money(pool.pop().expect("money")))).collect();
        rng::shuffle(&mut g.rng, &mut g.building_deck);
        g
    }
}
