//! A flat search with common random numbers: every candidate move is played
//! out on the same deals of the hidden cards, so the candidates are compared
//! deal by deal and the luck of a deal cancels out of their differences.
//!
//! [`crate::bots::Mcts`] with depth 1 shares its playouts out by UCB1, each
//! on a deal of its own: two moves worth about the same then come out in
//! either order by the luck of their deals, and the search picks nearly at
//! random among them. Paired, such moves are told apart by what they change;
//! a move is chosen by chance only when the deals really cannot tell.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::bots::{Bot, Judgement, Measure, Search};
use crate::turns::Determinize;

/// Judges each legal move by the mean reward of the seat to move over
/// `playouts / moves` deals (at least one), the same deals for every move,
/// the rest of each game played by `playout`.
#[derive(Clone, Debug)]
pub struct Paired {
    rng: ChaCha8Rng,
    playouts: u32,
}

impl Paired {
    /// A paired search of about `playouts` playouts per decision, seeded.
    pub fn new(seed: u64, playouts: u32) -> Self {
        Paired { rng: ChaCha8Rng::seed_from_u64(seed), playouts }
    }

    /// The legal move of the seat to move in `root` with the highest mean reward.
    pub fn search<G: Determinize>(&mut self, root: &G, legal: &[G::Action], playout: &mut dyn Bot<G>) -> G::Action {
        match self.totals(root, legal, playout) {
            Some((totals, _)) => legal[best(&totals)],
            None => legal[0],
        }
    }

    /// [`Paired::search`] with each legal move's mean reward.
    pub fn search_judged<G: Determinize>(
        &mut self,
        root: &G,
        legal: &[G::Action],
        playout: &mut dyn Bot<G>,
    ) -> (G::Action, Option<Judgement>) {
        let Some((totals, deals)) = self.totals(root, legal, playout) else { return (legal[0], None) };
        let values = totals.iter().map(|t| t.is_finite().then(|| t / deals as f64)).collect();
        let how = format!(
            "each answer played out on the same {deals} deal{}; value: its mean reward",
            if deals == 1 { "" } else { "s" }
        );
        (legal[best(&totals)], Some(Judgement { measure: Measure::WinShare, values, visits: None, how }))
    }

    /// Each legal move's total reward over the deals, and the deals; `None`
    /// when there is nothing to compare (the game is over, or one move).
    fn totals<G: Determinize>(
        &mut self,
        root: &G,
        legal: &[G::Action],
        playout: &mut dyn Bot<G>,
    ) -> Option<(Vec<f64>, usize)> {
        let me = root.to_move()?;
        if legal.len() == 1 {
            return None;
        }
        let deals = (self.playouts as usize / legal.len()).max(1);
        let mut totals = vec![0.0; legal.len()];
        for _ in 0..deals {
            let deal = root.determinize(me, self.rng.next_u64());
            for (total, &action) in totals.iter_mut().zip(legal) {
                let mut game = deal.clone();
                *total += match game.play(action).and_then(|()| play_out(&mut game, playout)) {
                    Ok(()) => game.rewards().map_or(0.0, |r| r[me]),
                    Err(_) => f64::NEG_INFINITY,
                };
            }
        }
        Some((totals, deals))
    }
}

/// The first of the highest totals.
fn best(totals: &[f64]) -> usize {
    let mut best = 0;
    for (i, total) in totals.iter().enumerate() {
        if *total > totals[best] {
            best = i;
        }
    }
    best
}

/// Plays `game` to its end with `bot` deciding for every seat.
fn play_out<G: Determinize>(game: &mut G, bot: &mut dyn Bot<G>) -> Result<(), G::Error> {
    while game.to_move().is_some() {
        let action = bot.choose(game, game.legal());
        game.play(action)?;
    }
    Ok(())
}

impl<G: Determinize> Search<G> for Paired {
    fn search(&mut self, root: &G, legal: &[G::Action], playout: &mut dyn Bot<G>) -> G::Action {
        Paired::search(self, root, legal, playout)
    }

    fn search_judged(
        &mut self,
        root: &G,
        legal: &[G::Action],
        playout: &mut dyn Bot<G>,
    ) -> (G::Action, Option<Judgement>) {
        Paired::search_judged(self, root, legal, playout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::RandomBot;
    use crate::turns::TurnGame;

    /// One seat picks move 0 or 1; then a hidden deal decides most of its
    /// reward, the same for either move, and move 0 adds a twentieth.
    #[derive(Clone, Debug)]
    struct Deal {
        deal: u64,
        chosen: Option<u8>,
    }

    const MOVES: [u8; 2] = [0, 1];

    impl TurnGame for Deal {
        type Action = u8;
        type Error = String;
        fn seats(&self) -> usize {
            1
        }
        fn to_move(&self) -> Option<usize> {
            self.chosen.is_none().then_some(0)
        }
        fn legal(&self) -> &[u8] {
            &MOVES
        }
        fn play(&mut self, action: u8) -> Result<(), String> {
            self.chosen = Some(action);
            Ok(())
        }
        fn rewards(&self) -> Option<Vec<f64>> {
            let luck = (self.deal.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as f64 / (1u64 << 24) as f64;
            self.chosen.map(|c| vec![0.9 * luck + if c == 0 { 0.05 } else { 0.0 }])
        }
    }

    impl Determinize for Deal {
        fn determinize_for(&self, _: crate::Seats, seed: u64) -> Self {
            Deal { deal: seed, chosen: self.chosen }
        }
    }

    #[test]
    fn the_luck_of_a_deal_cancels_out_of_the_comparison() {
        let root = Deal { deal: 0, chosen: None };
        // Two deals per move: unpaired, the luck of the deals (up to 0.9)
        // would swamp the better move's 0.05 about half the time.
        for seed in 0..100 {
            let chosen = Paired::new(seed, 4).search(&root, &MOVES, &mut RandomBot::new(seed));
            assert_eq!(chosen, 0, "seed {seed}");
        }
        assert_eq!(Paired::new(1, 4).search(&root, &MOVES[1..], &mut RandomBot::new(1)), 1, "the only move");
    }

    #[test]
    fn a_judged_search_chooses_as_the_plain_one_by_mean_rewards_on_the_same_deals() {
        let root = Deal { deal: 0, chosen: None };
        for seed in 0..20 {
            let plain = Paired::new(seed, 8).search(&root, &MOVES, &mut RandomBot::new(seed));
            let (chosen, j) = Paired::new(seed, 8).search_judged(&root, &MOVES, &mut RandomBot::new(seed));
            assert_eq!(chosen, plain, "seed {seed}");
            let j = j.expect("values");
            assert_eq!(j.measure, crate::bots::Measure::WinShare);
            let (v0, v1) = (j.values[0].unwrap(), j.values[1].unwrap());
            // The same deals: the difference is move 0's twentieth exactly.
            assert!((v0 - v1 - 0.05).abs() < 1e-9, "{v0} {v1}");
            assert!(j.how.contains("the same 4 deals"), "{}", j.how);
        }
        assert_eq!(Paired::new(1, 4).search_judged(&root, &MOVES[1..], &mut RandomBot::new(1)), (1, None));
    }

    #[test]
    fn a_judged_tree_search_chooses_as_the_plain_one_and_counts_its_visits() {
        use crate::bots::Mcts;
        let root = Deal { deal: 0, chosen: None };
        for seed in 0..10 {
            let plain = Mcts::new(seed, 30).search(&root, &MOVES, &mut RandomBot::new(seed));
            let (chosen, j) = Mcts::new(seed, 30).search_judged(&root, &MOVES, &mut RandomBot::new(seed));
            assert_eq!(chosen, plain, "seed {seed}");
            let j = j.expect("values");
            let visits = j.visits.expect("visits");
            assert_eq!(visits.iter().sum::<u32>(), 30);
            assert_eq!(visits[usize::from(chosen)], *visits.iter().max().unwrap());
            assert!(j.values.iter().all(|v| v.is_some_and(|v| (0.0..=1.0).contains(&v))), "{:?}", j.values);
        }
    }
}
