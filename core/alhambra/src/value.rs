//! The Alhambra card game as the balance bot sees it
//! ([`engine_play::value`]): a collector's position as numbers. Actions are
//! valued the generic way, by playing each on a copy (the game is quick).
//!
//! Features, for one collector: points so far, the money in hand (total face
//! value and cards), the scorings already held, and for every building type
//! the buildings owned and the lead over the best other collector (what the
//! majorities pay for). Their weights come from self-play.

use engine_game::Game as _;
use engine_play::value::Features;

use crate::game::Game;
use crate::ruleset::Ruleset;

const BASE: [&str; 5] = ["bias", "points", "money", "money_cards", "scorings_held"];

/// The features' names for a ruleset.
pub fn feature_names(rs: &Ruleset) -> Vec<String> {
    let mut names: Vec<String> = BASE.iter().map(|s| (*s).to_owned()).collect();
    for t in &rs.types {
        names.push(format!("owned:{}", t.id));
        names.push(format!("lead:{}", t.id));
    }
    names
}

impl Features for Game {
    fn feature_names(&self) -> Vec<String> {
        feature_names(self.rules())
    }

    /// Final points: values then read as points, a steadier target than a win.
    fn outcome(&self) -> Option<Vec<f64>> {
        self.is_over().then(|| self.scores().iter().map(|s| f64::from(s.total)).collect())
    }

    fn features(&self, seat: usize, out: &mut Vec<f64>) {
        let p = self.player(seat);
        out.clear();
        out.push(1.0);
        out.push(f64::from(self.score(seat).total));
        out.push(p.hand.iter().map(|m| f64::from(m.value)).sum());
        out.push(p.hand.len() as f64);
        out.push(self.scored().len() as f64);
        for t in 0..self.rules().types.len() {
            let mine = f64::from(p.counts[t]);
            let best_other = (0..self.num_players())
                .filter(|&s| s != seat)
                .map(|s| f64::from(self.player(s).counts[t]))
                .fold(0.0, f64::max);
            out.push(mine);
            out.push(mine - best_other);
        }
    }
}
