//! High-Low as the balance bot sees it ([`engine_play::value`]): a seat's
//! position as a few numbers, whose weights are learned by self-play.

use engine_game::Game as _;
use engine_play::value::Features;

use crate::game::Game;

const NAMES: [&str; 6] = ["bias", "points", "hand_size", "hand_sum", "hand_best", "rounds_left"];

/// The features' names (the same for every ruleset).
pub fn feature_names() -> Vec<String> {
    NAMES.iter().map(|s| (*s).to_owned()).collect()
}

impl Features for Game {
    type Memo = ();

    fn feature_names(&self) -> Vec<String> {
        feature_names()
    }

    fn features(&self, seat: usize, out: &mut Vec<f64>) {
        let hand = self.hand(seat);
        out.clear();
        out.push(1.0);
        out.push(f64::from(self.scores()[seat]));
        out.push(hand.len() as f64);
        out.push(hand.iter().map(|&c| f64::from(c)).sum());
        out.push(hand.iter().copied().max().map_or(0.0, f64::from));
        out.push(f64::from(self.rules().rules.rounds.saturating_sub(self.round())));
    }
}
