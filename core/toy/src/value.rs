//! High-Low as the balance bot sees it ([`engine_play::value`]): a seat's
//! position as a few numbers, whose weights are learned by self-play.

use std::sync::Arc;

use engine_play::bots::Bot;
use engine_play::value::{Features, Schedule, Setting, ValueModel, learn, seed_of};

use crate::error::GameError;
use crate::game::Game;
use crate::ruleset::Ruleset;

const NAMES: [&str; 6] = ["bias", "points", "hand_size", "hand_sum", "hand_best", "rounds_left"];

/// The features' names (the same for every ruleset).
pub fn feature_names() -> Vec<String> {
    NAMES.iter().map(|s| (*s).to_owned()).collect()
}

impl Features for Game {
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
        out.push(f64::from(self.ruleset().rules.rounds.saturating_sub(self.round())));
    }
}

/// Learns the balance bot's model for a ruleset (seeded by its fingerprint).
pub fn learn_model(rs: &Arc<Ruleset>, schedule: Schedule) -> Result<ValueModel, GameError> {
    let start = |players: usize, seed: u64| Game::new(Arc::clone(rs), players, seed);
    let warm = |_seed: u64| Box::new(crate::bots::GreedyBot) as Box<dyn Bot<Game>>;
    let players: Vec<usize> = (rs.rules.min_players..=rs.rules.max_players).collect();
    let setting =
        Setting { ids: (crate::files::BUILTINS.game, &rs.id, &rs.fingerprint), players, start: &start, warm: &warm };
    learn(&setting, schedule, seed_of(&rs.fingerprint))
}
