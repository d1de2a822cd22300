//! The balance bot's learned models, kept by whoever plays (the command line
//! for one run, the web server for its life) rather than by a ruleset: a
//! cache keyed by game and ruleset content, filled from a disk cache or learned
//! by self-play once when missing, and handed to bot construction.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use engine_play::value::{Schedule, Setting, ValueModel, seed_of};

use crate::any::AnyRules;
use crate::{Game, Rules};

/// One model's place: empty until given or learned; a learner holds its lock,
/// so concurrent callers wait for the one learning instead of learning again.
type Slot = Arc<Place>;

/// A model (once there is one) and how far its learning is meanwhile.
#[derive(Default)]
struct Place {
    model: Mutex<Option<Arc<ValueModel>>>,
    /// Self-play games played and in all, while it is being learned (0 of 0: not learning).
    done: AtomicU64,
    all: AtomicU64,
}

/// Where a model stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readiness {
    /// Learned or given: a balance bot moves at once.
    Ready,
    /// Being learned now: self-play games played so far, and in all.
    Learning {
        /// Games played.
        done: u64,
        /// Games to play in all.
        all: u64,
    },
    /// Neither: the first balance bot's move learns it.
    Missing,
}

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
        let mut model = slot.model.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(m) = &*model {
            return Ok(Arc::clone(m));
        }
        let place = Arc::clone(&slot);
        let report = move |done, all| {
            place.all.store(all, Ordering::Relaxed);
            place.done.store(done, Ordering::Relaxed);
        };
        let learned = engine_play::value::reporting(report, learn);
        slot.done.store(0, Ordering::Relaxed);
        slot.all.store(0, Ordering::Relaxed);
        let learned = Arc::new(learned?);
        *model = Some(Arc::clone(&learned));
        Ok(learned)
    }

    /// Where the model of `game`'s content `fingerprint` stands, without
    /// waiting for a learner (a page asks while the learning goes on).
    pub fn readiness(&self, game: &str, fingerprint: &str) -> Readiness {
        let slot = {
            let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            match slots.get(&(game.to_owned(), fingerprint.to_owned())) {
                Some(slot) => Arc::clone(slot),
                None => return Readiness::Missing,
            }
        };
        match slot.model.try_lock() {
            Ok(m) if m.is_some() => Readiness::Ready,
            Ok(_) => Readiness::Missing,
            Err(std::sync::TryLockError::Poisoned(p)) if p.get_ref().is_some() => Readiness::Ready,
            Err(_) => {
                Readiness::Learning { done: slot.done.load(Ordering::Relaxed), all: slot.all.load(Ordering::Relaxed) }
            }
        }
    }

    /// The model kept for `game`'s content `fingerprint`, if any (nothing is learned).
    pub fn get(&self, game: &str, fingerprint: &str) -> Option<Arc<ValueModel>> {
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let slot = Arc::clone(slots.get(&(game.to_owned(), fingerprint.to_owned()))?);
        drop(slots);
        slot.model.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The balance model of a ruleset of `G`, learned now if missing (after
    /// its base's, which its learning starts from).
    pub fn balance<G: Game>(&self, rs: &Arc<G::Rules>) -> Result<Arc<ValueModel>, String> {
        self.get_or_learn(G::ID, rs.fingerprint(), || {
            let start = rs.base_rules()?.map(|b| self.balance::<G>(&b)).transpose()?;
            rs.learn_model(start.as_deref())
        })
    }

    /// The balance model of a ruleset of any game, learned now if missing
    /// (after its base's, which its learning starts from).
    pub fn of(&self, rs: &dyn AnyRules) -> Result<Arc<ValueModel>, String> {
        self.get_or_learn(rs.game_id(), rs.fingerprint(), || {
            let start = rs.base()?.map(|b| self.of(b.as_ref())).transpose()?;
            rs.learn_model(start.as_deref())
        })
    }

    /// Keeps a model learned before (from a disk cache) for `rs`; refused when
    /// it was learned for other content or other features.
    pub fn give(&self, rs: &dyn AnyRules, model: ValueModel) -> Result<(), String> {
        model.fits(rs.fingerprint(), &rs.feature_names())?;
        let slot = self.slot(rs.game_id(), rs.fingerprint());
        *slot.model.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(model));
        Ok(())
    }
}

/// Learns the balance model of a ruleset of `G` by self-play between `players`
/// seats in turn, the first round with the game's rules of thumb
/// ([`Game::greedy`]) or, `from` a base's model, with that; seeded by the
/// fingerprint, so the same content learns the same model anywhere. What a
/// game's [`Rules::learn_model`] calls.
pub fn learn<G: Game>(
    rs: &Arc<G::Rules>,
    players: Vec<usize>,
    schedule: Schedule,
    from: Option<&ValueModel>,
) -> Result<ValueModel, String> {
    let start = |n: usize, seed: u64| G::start(rs, n, seed);
    let warm = |_seed: u64| G::greedy();
    let setting = Setting { ids: (G::ID, rs.id(), rs.fingerprint()), players, start: &start, warm: &warm };
    engine_play::value::learn(&setting, schedule, seed_of(rs.fingerprint()), from)
}

/// How the seats of one model fared against another's ([`duel`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Duel {
    /// Deals played (each twice, the models' seats swapped).
    pub deals: u64,
    /// The mean final margin ([`engine_play::value::Features::outcome`]) of
    /// the first model's seats minus the second's, per game.
    pub margin: f64,
    /// The standard error of `margin` (deals are independent; a deal's two
    /// games are paired).
    pub error: f64,
    /// The first model's share of the games' wins (a tie shared).
    pub wins: f64,
}

/// Plays `deals` deals of `players` seats between balance bots of model `a`
/// (even seats) and `b` (odd seats), each deal twice with the seats swapped:
/// whether a model learned another way plays as well (the same deals for
/// both, so the luck of the cards cancels).
pub fn duel<G: Game>(
    rs: &Arc<G::Rules>,
    a: &Arc<ValueModel>,
    b: &Arc<ValueModel>,
    players: usize,
    deals: u64,
) -> Result<Duel, String> {
    use engine_play::bots::Bot;
    use engine_play::value::ValueBot;
    use rayon::prelude::*;
    let one = |deal: u64, swapped: bool| -> Result<(f64, f64), String> {
        let seed = engine_play::sim::game_seed(0xD0E1, deal);
        let mut game = G::start(rs, players, seed).map_err(|e| e.to_string())?;
        let first = |s: usize| s.is_multiple_of(2) != swapped;
        let mut bots: Vec<Box<dyn Bot<G>>> = (0..players)
            .map(|s| {
                let model = if first(s) { a } else { b };
                Box::new(ValueBot::new(Arc::clone(model), seed ^ s as u64)) as Box<dyn Bot<G>>
            })
            .collect();
        engine_play::bots::play_out(&mut game, &mut bots).map_err(|e| e.to_string())?;
        let outcome = game.outcome().ok_or("the game did not end")?;
        let mean = |of_a: bool| {
            let seats: Vec<f64> = (0..players).filter(|&s| first(s) == of_a).map(|s| outcome[s]).collect();
            seats.iter().sum::<f64>() / seats.len() as f64
        };
        let best = outcome.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let top: Vec<usize> = (0..players).filter(|&s| outcome[s] == best).collect();
        let wins = top.iter().filter(|&&s| first(s)).count() as f64 / top.len() as f64;
        Ok((mean(true) - mean(false), wins))
    };
    let per_deal: Vec<(f64, f64)> = (0..deals)
        .into_par_iter()
        .map(|d| {
            let (m1, w1) = one(d, false)?;
            let (m2, w2) = one(d, true)?;
            Ok(((m1 + m2) / 2.0, (w1 + w2) / 2.0))
        })
        .collect::<Result<_, String>>()?;
    let n = per_deal.len().max(1) as f64;
    let margin = per_deal.iter().map(|p| p.0).sum::<f64>() / n;
    let spread = per_deal.iter().map(|p| (p.0 - margin).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let wins = per_deal.iter().map(|p| p.1).sum::<f64>() / n;
    Ok(Duel { deals, margin, error: (spread / n).sqrt(), wins })
}

/// The experiment behind a game's `warm_rounds`: each design's model
/// learned from its base's against one learned from nothing ([`duel`], 4
/// players, `deals` deals), a line each; the worst upper bound of the warm
/// model's margin (mean + 2 standard errors), which is above 0 unless a warm
/// start played clearly worse.
pub fn warm_against_fresh<G: Game>(designs: &[Arc<G::Rules>], deals: u64) -> Result<(Vec<String>, f64), String> {
    let mut lines = Vec::new();
    let mut worst = f64::INFINITY;
    // Designs of one base share its model: learned once, by its content.
    let mut bases: HashMap<String, ValueModel> = HashMap::new();
    for rs in designs {
        let base = rs.base_rules()?.ok_or_else(|| format!("{} changes no built-in ruleset", rs.id()))?;
        let (fewest, most) = rs.players();
        let players: Vec<usize> = (fewest..=most).rev().collect();
        let base_model = match bases.entry(base.fingerprint().to_owned()) {
            std::collections::hash_map::Entry::Occupied(m) => m.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let (fewest, most) = base.players();
                v.insert(learn::<G>(&base, (fewest..=most).rev().collect(), base.schedule(), None)?)
            }
        };
        let clock = std::time::Instant::now();
        let warm = Arc::new(learn::<G>(rs, players.clone(), rs.schedule(), Some(base_model))?);
        let warm_time = clock.elapsed().as_secs_f64();
        let clock = std::time::Instant::now();
        let fresh = Arc::new(learn::<G>(rs, players, rs.schedule(), None)?);
        let fresh_time = clock.elapsed().as_secs_f64();
        let d = duel::<G>(rs, &warm, &fresh, 4, deals)?;
        lines.push(format!(
            "{:<22} warm {warm_time:>5.1} s, afresh {fresh_time:>5.1} s; warm − afresh: {:+.2} ± {:.2} points, wins {:.3}",
            rs.id(),
            d.margin,
            d.error,
            d.wins
        ));
        worst = worst.min(d.margin + 2.0 * d.error);
    }
    Ok((lines, worst))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(fingerprint: &str) -> ValueModel {
        ValueModel {
            version: ValueModel::VERSION,
            start: None,
            game: "g".into(),
            ruleset: "r".into(),
            fingerprint: fingerprint.into(),
            games: 1,
            rounds: 1,
            seed: 0,
            features: vec!["bias".into()],
            weights: vec![1.0],
            by_start: false,
            memos: Default::default(),
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

    #[test]
    fn a_model_being_learned_says_how_far_it_is() {
        let models = Arc::new(Models::new());
        assert_eq!(models.readiness("g", "f"), Readiness::Missing);
        let (tell, told) = std::sync::mpsc::channel();
        let (go_on, wait) = std::sync::mpsc::channel::<()>();
        let learner = {
            let models = Arc::clone(&models);
            std::thread::spawn(move || {
                models.get_or_learn("g", "f", || {
                    // What `engine_play::value::learn` tells after each game: 3 of 10 played.
                    engine_play::value::progress(3, 10);
                    tell.send(()).unwrap();
                    wait.recv().unwrap();
                    Ok(model("f"))
                })
            })
        };
        told.recv().unwrap();
        assert_eq!(models.readiness("g", "f"), Readiness::Learning { done: 3, all: 10 });
        go_on.send(()).unwrap();
        learner.join().unwrap().unwrap();
        assert_eq!(models.readiness("g", "f"), Readiness::Ready);
    }
}
