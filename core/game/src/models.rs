//! The balance bot's learned models, kept by whoever plays (the command line
//! for one run, the web server for its life) rather than by a ruleset: a
//! cache keyed by game and ruleset content, filled from a disk cache or learned
//! by self-play once when missing, and handed to bot construction.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use engine_play::value::{Schedule, Setting, ValueModel, seed_of};

use crate::any::AnyRules;
use crate::{Game, Rules};

/// One model's place: empty until given or learned; a learner holds its lock,
/// so concurrent callers wait for the one learning instead of learning again.
type Slot = Arc<Mutex<Option<Arc<ValueModel>>>>;

/// Learned models by game id and ruleset fingerprint.
#[derive(Default)]
pub struct Models {
    slots: Mutex<HashMap<(String, String), Slot>>,
}

impl std::fmt::Debug for Models {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_list().entries(slots.keys()).finish()
    }
}

impl Models {
    /// An empty cache.
    pub fn new() -> Models {
        Models::default()
    }

    fn slot(&self, game: &str, fingerprint: &str) -> Slot {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(slots.entry((game.to_owned(), fingerprint.to_owned())).or_default())
    }

    /// The model of `game`'s ruleset of content `fingerprint`, learning it with
    /// `learn` if there is none yet (once: concurrent callers wait for it).
    pub fn get_or_learn(
        &self,
        game: &str,
        fingerprint: &str,
        learn: impl FnOnce() -> Result<ValueModel, String>,
    ) -> Result<Arc<ValueModel>, String> {
        let slot = self.slot(game, fingerprint);
        let mut model = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(m) = &*model {
            return Ok(Arc::clone(m));
        }
        let learned = Arc::new(learn()?);
        *model = Some(Arc::clone(&learned));
        Ok(learned)
    }

    /// The model kept for `game`'s content `fingerprint`, if any (nothing is learned).
    pub fn get(&self, game: &str, fingerprint: &str) -> Option<Arc<ValueModel>> {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let slot = Arc::clone(slots.get(&(game.to_owned(), fingerprint.to_owned()))?);
        drop(slots);
        slot.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The balance model of a ruleset of `G`, learned now if missing.
    pub fn balance<G: Game>(&self, rs: &Arc<G::Rules>) -> Result<Arc<ValueModel>, String> {
        self.get_or_learn(G::ID, rs.fingerprint(), || rs.learn_model())
    }

    /// The balance model of a ruleset of any game, learned now if missing.
    pub fn of(&self, rs: &dyn AnyRules) -> Result<Arc<ValueModel>, String> {
        self.get_or_learn(rs.game_id(), rs.fingerprint(), || rs.learn_model())
    }

    /// Keeps a model learned before (from a disk cache) for `rs`; refused when
    /// it was learned for other content or other features.
    pub fn give(&self, rs: &dyn AnyRules, model: ValueModel) -> Result<(), String> {
        model.fits(rs.fingerprint(), &rs.feature_names())?;
        let slot = self.slot(rs.game_id(), rs.fingerprint());
        *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(model));
        Ok(())
    }
}

/// Learns the balance model of a ruleset of `G` by self-play between `players`
/// seats in turn, the first round with the game's rules of thumb
/// ([`Game::greedy`]); seeded by the fingerprint, so the same content learns
/// the same model anywhere. What a game's [`Rules::learn_model`] calls.
pub fn learn<G: Game>(rs: &Arc<G::Rules>, players: Vec<usize>, schedule: Schedule) -> Result<ValueModel, String> {
    let start = |n: usize, seed: u64| G::start(rs, n, seed);
    let warm = |_seed: u64| G::greedy();
    let setting = Setting { ids: (G::ID, rs.id(), rs.fingerprint()), players, start: &start, warm: &warm };
    engine_play::value::learn(&setting, schedule, seed_of(rs.fingerprint())).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(fingerprint: &str) -> ValueModel {
        ValueModel {
            version: ValueModel::VERSION,
            game: "g".into(),
            ruleset: "r".into(),
            fingerprint: fingerprint.into(),
            games: 1,
            rounds: 1,
            seed: 0,
            features: vec!["bias".into()],
            weights: vec![1.0],
        }
    }

    #[test]
    fn a_model_is_learned_once_per_game_and_content() {
        let models = Models::new();
        let mut learned = 0;
        for _ in 0..3 {
            let m = models
                .get_or_learn("g", "f1", || {
                    learned += 1;
                    Ok(model("f1"))
                })
                .unwrap();
            assert_eq!(m.fingerprint, "f1");
        }
        assert_eq!(learned, 1);
        assert!(models.get("g", "f1").is_some());
        assert!(models.get("other", "f1").is_none());
        assert!(models.get_or_learn("g", "f2", || Err("no".into())).is_err());
        assert!(models.get("g", "f2").is_none(), "a failed learning keeps nothing");
    }
}
