//! The balance bot: a position's value learned from self-play, and a bot
//! that picks the action whose outcome that value likes best.
//!
//! A game describes a position for one seat as numbers ([`Features`]: what it
//! owns, holds, scores). [`learn`] plays games, notes the features of every
//! seat now and then, and fits a ridge regression of each seat's final reward
//! on them: a [`ValueModel`]. Its weights are the judgement — what a building,
//! a hand card or a good is worth in this ruleset — so they come from play,
//! not from card names or price formulas, and are learned again whenever a
//! card or rule changes (the model carries the ruleset's fingerprint).
//! [`ValueBot`] then values each legal action by the position it leads to:
//! generically by playing it on a copy, or by the game's own quicker estimate.

use std::any::Any;
use std::sync::Arc;

use rand::{Rng, SeedableRng};

use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::bots::{Bot, Judgement, Measure};
use crate::rng;
use crate::turns::TurnGame;

/// A game whose positions a value model can judge.
pub trait Features: TurnGame {
    /// What the balance bot keeps between its decisions for the game's quick
    /// judgement (buffers, answers worth keeping): the bot holds it, never the
    /// game or its rules; `()` for a game that keeps nothing.
    type Memo: Default + Send + 'static;
    /// The features' names, in order (one model per ruleset: the same for every position);
    /// by default `f0`, `f1`… as many as [`Features::features`] gives.
    fn feature_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.features(0, &mut out);
        (0..out.len()).map(|i| format!("f{i}")).collect()
    }
    /// The features of the position for `seat`, into `out` (cleared first).
    fn features(&self, seat: usize, out: &mut Vec<f64>);
    /// [`Features::features`] (the very same numbers), with the bot's memo at
    /// hand for what is worth keeping between the positions it judges. By
    /// default the same.
    fn features_memo(&self, seat: usize, out: &mut Vec<f64>, _memo: &mut Self::Memo) {
        self.features(seat, out);
    }
    /// How much `model` likes `action` for the seat to move, up to a constant
    /// shared by all actions of the decision. By default: play it on a copy
    /// and value the position reached. A game may answer faster.
    fn action_value(
        &self,
        action: Self::Action,
        model: &ValueModel,
        scratch: &mut Vec<f64>,
        _memo: &mut Self::Memo,
    ) -> f64 {
        by_playing(self, action, model, scratch)
    }
    /// [`Features::action_value`] of each of `actions`, into `out` (cleared
    /// first, same order): a game may share work between the actions of one
    /// decision. By default one by one.
    fn action_values(
        &self,
        actions: &[Self::Action],
        model: &ValueModel,
        scratch: &mut Vec<f64>,
        memo: &mut Self::Memo,
        out: &mut Vec<f64>,
    ) {
        out.clear();
        for &a in actions {
            let v = self.action_value(a, model, scratch, memo);
            out.push(v);
        }
    }
    /// The values of `actions` (the seat to move's answers) by a judgement
    /// that plays nothing, into `out` (cleared first), where the game has one
    /// for this decision; `false` where it has none (then they are played one
    /// step deep). What [`by_playing_quick`] chooses a turn's further steps
    /// by. By default `false`.
    fn quick_values(
        &self,
        _actions: &[Self::Action],
        _model: &ValueModel,
        _memo: &mut Self::Memo,
        _out: &mut Vec<f64>,
    ) -> bool {
        false
    }
    /// Told that this copy of the game is played only to judge positions for
    /// `seat` ([`by_playing`]): a game may then leave out what only another
    /// seat's next decision needs (its answers are never asked for there), as
    /// long as the positions reached are the same. By default nothing.
    fn judging_for(&mut self, _seat: usize) {}
    /// `into` made the very same game as `self`, in `into`'s own buffers
    /// where the game can (the balance bot judges an answer on a spare copy
    /// it keeps: a fresh copy allocated and freed each time was a quarter of
    /// judging a script's choice). By default a fresh clone.
    fn copy_into(&self, into: &mut Self) {
        *into = self.clone();
    }
    /// The memo's spare copies answers are judged on by playing
    /// ([`Features::copy_into`]), one per depth of a judgement within a
    /// judgement; `None` (the default): no copy is kept.
    fn spares(_memo: &mut Self::Memo) -> Option<&mut Vec<Box<Self>>> {
        None
    }
    /// How long the game has stood still ([`Progress`]), for the balance
    /// bot's guard, at a decision where some answer may leave it as
    /// it is (a ruleset's own action that swaps cards: an exchange and the
    /// exchange back) or where a model may wait for ever (take money and
    /// discard it). `None` (the default): the guard is off.
    fn progress(&self) -> Option<Progress> {
        None
    }
    /// How far `action` (of the seat to move, where [`Features::progress`]
    /// is given) surely moves the game: 0 it may leave everything as it is,
    /// 1 something is drawn (`Progress::still[0]` starts again), 2 the
    /// game's end comes nearer too (`still[1]` starts again). By default 2.
    fn moves_on(&self, _action: Self::Action) -> u8 {
        2
    }
    /// What the model predicts, once the game is over: by default each seat's
    /// reward ([`TurnGame::rewards`]); a game may learn its final margin
    /// ([`margins`]) instead.
    fn outcome(&self) -> Option<Vec<f64>> {
        self.rewards()
    }
}

/// [`Features::action_value`] the generic way: play the action on a copy,
/// finish the seat's turn the same way one step deep (a purchase is judged
/// once it is paid for), and value the position reached for that seat (a
/// game that ends is valued by its real outcome).
pub fn by_playing<G: Features>(game: &G, action: G::Action, model: &ValueModel, scratch: &mut Vec<f64>) -> f64 {
    played(game, action, model, scratch, None)
}

/// [`by_playing`], each further step of the seat's turn chosen by the game's
/// quick judgement where it has one ([`Features::quick_values`]) rather than
/// by playing every answer one step deep: the steps of a turn (the cards
/// taken, the money paid) were most of what judging by playing cost.
pub fn by_playing_quick<G: Features>(
    game: &G,
    action: G::Action,
    model: &ValueModel,
    scratch: &mut Vec<f64>,
    memo: &mut G::Memo,
) -> f64 {
    played(game, action, model, scratch, Some(memo))
}

fn played<G: Features>(
    game: &G,
    action: G::Action,
    model: &ValueModel,
    scratch: &mut Vec<f64>,
    mut memo: Option<&mut G::Memo>,
) -> f64 {
    let Some(seat) = game.to_move() else { return 0.0 };
    let mut next = copy_of(game, memo.as_deref_mut());
    let value = play_on(&mut *next, seat, action, model, scratch, memo.as_deref_mut());
    give_back(next, memo);
    value
}

/// [`played`] on its copy `next` of the game, `seat` to move.
fn play_on<G: Features>(
    next: &mut G,
    seat: usize,
    action: G::Action,
    model: &ValueModel,
    scratch: &mut Vec<f64>,
    mut memo: Option<&mut G::Memo>,
) -> f64 {
    next.judging_for(seat);
    if next.play(action).is_err() {
        return f64::NEG_INFINITY;
    }
    // The most further steps of the same seat's turn looked at.
    const TURN: usize = 12;
    let mut values = Vec::new();
    for _ in 0..TURN {
        if next.to_move() != Some(seat) || next.legal().len() < 2 {
            if next.to_move() == Some(seat) && next.legal().len() == 1 {
                let only = next.legal()[0];
                if next.play(only).is_err() {
                    return f64::NEG_INFINITY;
                }
                continue;
            }
            break;
        }
        let quick = memo.as_deref_mut().is_some_and(|m| next.quick_values(next.legal(), model, m, &mut values));
        let mut best = (f64::NEG_INFINITY, next.legal()[0]);
        for (i, &a) in next.legal().iter().enumerate() {
            let v = if quick { values[i] } else { settle(next, a, seat, model, scratch, memo.as_deref_mut()) };
            if v > best.0 {
                best = (v, a);
            }
        }
        if next.play(best.1).is_err() {
            return f64::NEG_INFINITY;
        }
    }
    value_for(next, seat, model, scratch, memo)
}

/// One feature's part in preferring one answer to another: its weight and
/// its value in the positions the two answers lead to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Driver {
    /// The feature's name, as the model (and the `learn` command) has it.
    pub feature: String,
    /// Its learned weight.
    pub weight: f64,
    /// Its value after the chosen answer.
    pub chosen: f64,
    /// Its value after the answer compared with.
    pub other: f64,
    /// `weight × (chosen − other)`: points of margin it adds to the chosen answer's lead.
    pub effect: f64,
}

/// The features whose weighted difference between the answers `chosen` and
/// `other` is largest, the `most` largest by size, largest first: by the
/// very estimate the bot chooses by ([`Features::action_values`]).
///
/// That estimate is linear in the model's weights (a game's quick estimate
/// judges a position that might be, through its features, as [`by_playing`]
/// does), so a feature's value after an answer, as the estimate saw it, is
/// how much the answer's value moves with the feature's weight: each weight
/// is moved a little in turn. Terms of the estimate that no weight scales
/// (what ending the game is worth) are left out; empty when either answer
/// has no finite value.
pub fn drivers<G: Features>(
    game: &G,
    chosen: G::Action,
    other: G::Action,
    model: &ValueModel,
    most: usize,
) -> Vec<Driver> {
    let pair = [chosen, other];
    let (mut scratch, mut base, mut moved) = (Vec::new(), Vec::new(), Vec::new());
    let mut memo = G::Memo::default();
    game.action_values(&pair, model, &mut scratch, &mut memo, &mut base);
    if base.len() != 2 || !base.iter().all(|v| v.is_finite()) {
        return Vec::new();
    }
    let mut probe = model.clone();
    let mut drivers = Vec::new();
    for (i, name) in model.features.iter().enumerate() {
        let weight = model.weights[i];
        // Small against the weight, large against rounding.
        let step = 1e-4 * weight.abs().max(1.0);
        probe.weights[i] = weight + step;
        // A fresh memo: what it kept was worked out with the weights before.
        game.action_values(&pair, &probe, &mut scratch, &mut G::Memo::default(), &mut moved);
        probe.weights[i] = weight;
        let seen = |k: usize| round_off((moved[k] - base[k]) / step);
        let (chosen, other) = (seen(0), seen(1));
        let effect = weight * (chosen - other);
        if effect.abs() > 1e-9 {
            drivers.push(Driver { feature: name.clone(), weight, chosen, other, effect });
        }
    }
    drivers.sort_by(|x, y| y.effect.abs().total_cmp(&x.effect.abs()));
    drivers.truncate(most);
    drivers
}

/// `x` without the rounding error of a difference quotient: to 6 decimals.
fn round_off(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The value of playing `action` in `game` for `seat`, without looking further.
fn settle<G: Features>(
    game: &G,
    action: G::Action,
    seat: usize,
    model: &ValueModel,
    scratch: &mut Vec<f64>,
    mut memo: Option<&mut G::Memo>,
) -> f64 {
    let mut next = copy_of(game, memo.as_deref_mut());
    next.judging_for(seat);
    let value = match next.play(action) {
        Ok(()) => value_for(&*next, seat, model, scratch, memo.as_deref_mut()),
        Err(_) => f64::NEG_INFINITY,
    };
    give_back(next, memo);
    value
}

/// A copy of `game` to judge on: one of the memo's spares refilled (a
/// judgement within a judgement takes another), else a fresh clone. Give it
/// back with [`give_back`] once done.
pub fn copy_of<G: Features>(game: &G, memo: Option<&mut G::Memo>) -> Box<G> {
    match memo.and_then(G::spares).and_then(Vec::pop) {
        Some(mut copy) => {
            game.copy_into(&mut copy);
            copy
        }
        None => Box::new(game.clone()),
    }
}

/// A copy [`copy_of`] gave, kept among the memo's spares once judged.
pub fn give_back<G: Features>(copy: Box<G>, memo: Option<&mut G::Memo>) {
    if let Some(spares) = memo.and_then(G::spares) {
        spares.push(copy);
    }
}

fn value_for<G: Features>(
    game: &G,
    seat: usize,
    model: &ValueModel,
    scratch: &mut Vec<f64>,
    memo: Option<&mut G::Memo>,
) -> f64 {
    match game.outcome() {
        Some(r) => r[seat],
        None => {
            match memo {
                Some(memo) => game.features_memo(seat, scratch, memo),
                None => game.features(seat, scratch),
            }
            model.value(scratch)
        }
    }
}

/// Each seat's final points less the mean of the other seats': what a
/// game's balance model may learn ([`Features::outcome`]). A margin, not the
/// points alone, since a point taken from another player is worth as much as
/// one scored: a model of its own points lets a bot win big and lose close.
pub fn margins(totals: &[f64]) -> Vec<f64> {
    let sum: f64 = totals.iter().sum();
    let others = (totals.len().max(2) - 1) as f64;
    totals.iter().map(|&t| t - (sum - t) / others).collect()
}

/// The model a learning started from: its ruleset and content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartedFrom {
    /// The ruleset's id.
    pub ruleset: String,
    /// Its content fingerprint.
    pub fingerprint: String,
}

impl StartedFrom {
    /// Where `model` was learned for.
    pub fn of(model: &ValueModel) -> StartedFrom {
        StartedFrom { ruleset: model.ruleset.clone(), fingerprint: model.fingerprint.clone() }
    }
}

/// Learned weights: a seat's expected outcome ([`Features::outcome`]) as a linear function of its features.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueModel {
    /// The format of this structure.
    pub version: u32,
    /// The game it was learned for (`GameRecord::game`).
    pub game: String,
    /// The ruleset's id.
    pub ruleset: String,
    /// The ruleset's content fingerprint: a model is for one content only.
    pub fingerprint: String,
    /// How the model was learned: games per round of self-play, rounds, seed.
    pub games: u64,
    /// Rounds of self-play (the first with the game's rules of thumb).
    pub rounds: u32,
    /// The seed of the self-play games.
    pub seed: u64,
    /// The model this one's learning started from, if any (a change of a
    /// built-in ruleset starts from that ruleset's model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<StartedFrom>,
    /// Whether the first round was played by `start`'s weights rather than
    /// the rules of thumb ([`Schedule::warm_by_model`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_start: bool,
    /// The feature names.
    pub features: Vec<String>,
    /// One weight per feature.
    pub weights: Vec<f64>,
    /// What the bots playing by this model keep between decisions and games
    /// ([`Features::Memo`]): not saved, not compared, not copied.
    #[serde(skip)]
    pub memos: MemoPool,
}

/// The memos of the bots of one model that are not playing now: a bot takes
/// one when it starts and gives it back when it is dropped, so the answers a
/// memo keeps (worked out for this model's weights) serve the next game.
#[derive(Default)]
pub struct MemoPool(std::sync::Mutex<Vec<Box<dyn Any + Send>>>);

impl MemoPool {
    /// A memo of type `M` kept from an earlier bot, or a new one.
    fn take<M: Default + Send + 'static>(&self) -> Box<M> {
        let Ok(mut pool) = self.0.lock() else { return Box::default() };
        match pool.iter().rposition(|m| m.is::<M>()) {
            Some(i) => pool.swap_remove(i).downcast::<M>().unwrap_or_default(),
            None => Box::default(),
        }
    }

    /// Keeps `memo` for the next bot (a few: as many as play at once).
    fn give(&self, memo: Box<dyn Any + Send>) {
        if let Ok(mut pool) = self.0.lock()
            && pool.len() < 64
        {
            pool.push(memo);
        }
    }
}

impl Clone for MemoPool {
    /// A copy of a model (nudged, probed) starts with no memos: they were kept for the original's weights.
    fn clone(&self) -> Self {
        MemoPool::default()
    }
}

impl PartialEq for MemoPool {
    /// Models are equal by what they learned.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for MemoPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MemoPool")
    }
}

impl ValueModel {
    /// The format written by this version, and what its weights predict:
    /// 2 since models may learn the final margin ([`margins`]) where they
    /// learned points, 3 since each self-play game samples from its own seed
    /// (games run in parallel) and a change of a built-in ruleset starts
    /// from that one's model, 4 since a game may play a warm start's first
    /// round by the start model, 5 since a copy played after a
    /// script's choice takes its further steps by the quick judgement, 6 since
    /// the bot moves on a game that has stood still ([`STILL`]; a model of an
    /// older version is learned again). Raised whenever what self-play
    /// learns changes, not only the format: a cache is keyed by the ruleset's
    /// content, so an older bot's model would otherwise be kept, and two
    /// designers with different caches would get different numbers.
    pub const VERSION: u32 = 6;

    /// This model with each nudge's feature worth its `by` more; the error
    /// names a feature the model does not have, and the ones it has like it.
    pub fn nudged(&self, nudges: &[crate::bots::Nudge]) -> Result<ValueModel, String> {
        let mut model = self.clone();
        for n in nudges {
            model.weights[feature_index(&self.features, &n.feature, &self.ruleset)?] += n.by;
        }
        Ok(model)
    }

    /// The value of a feature vector.
    pub fn value(&self, features: &[f64]) -> f64 {
        self.weights.iter().zip(features).map(|(w, f)| w * f).sum()
    }

    /// The weight of a named feature (0 if the model has none of that name).
    pub fn weight(&self, name: &str) -> f64 {
        self.features.iter().position(|f| f == name).map_or(0.0, |i| self.weights[i])
    }

    /// Checks that the model fits a game with these features and this content.
    pub fn fits(&self, fingerprint: &str, features: &[String]) -> Result<(), String> {
        if self.version != Self::VERSION {
            return Err(format!("model format {} (this program reads {})", self.version, Self::VERSION));
        }
        if self.fingerprint != fingerprint {
            return Err(format!("the model is for content {}, the ruleset is {fingerprint}", self.fingerprint));
        }
        if self.features != features || self.weights.len() != features.len() {
            return Err("the model's features are not the game's".into());
        }
        Ok(())
    }
}

/// Accumulates a ridge regression (the normal equations), sample by sample.
#[derive(Clone, Debug)]
pub struct Regression {
    n: usize,
    xtx: Vec<f64>,
    xty: Vec<f64>,
    samples: u64,
}

impl Regression {
    /// An empty regression over `n` features.
    pub fn new(n: usize) -> Self {
        Regression { n, xtx: vec![0.0; n * n], xty: vec![0.0; n], samples: 0 }
    }

    /// Adds one sample.
    pub fn add(&mut self, x: &[f64], y: f64) {
        let n = self.n;
        // Features are mostly 0 (a card nobody owns): only the others' products count.
        let nonzero: Vec<usize> = (0..n).filter(|&i| x[i] != 0.0).collect();
        for &i in &nonzero {
            self.xty[i] += x[i] * y;
            for &j in &nonzero {
                self.xtx[i * n + j] += x[i] * x[j];
            }
        }
        self.samples += 1;
    }

    /// Samples added.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// The weights minimising squared error plus `ridge` × |w|² (every
    /// weight but the first, the bias, is shrunk), by Cholesky.
    pub fn solve(&self, ridge: f64) -> Vec<f64> {
        self.solve_toward(ridge, &vec![0.0; self.n])
    }

    /// The weights minimising squared error plus `ridge` × |w − prior|²
    /// (every weight but the first, the bias, is drawn to its prior).
    pub fn solve_toward(&self, ridge: f64, prior: &[f64]) -> Vec<f64> {
        let n = self.n;
        let mut a = self.xtx.clone();
        for i in 1..n {
            a[i * n + i] += ridge;
        }
        a[0] += 1e-9;
        // a = L Lᵀ, L kept in the lower triangle.
        for j in 0..n {
            let mut d = a[j * n + j];
            for k in 0..j {
                d -= a[j * n + k] * a[j * n + k];
            }
            let d = d.max(1e-12).sqrt();
            a[j * n + j] = d;
            for i in j + 1..n {
                let mut s = a[i * n + j];
                for k in 0..j {
                    s -= a[i * n + k] * a[j * n + k];
                }
                a[i * n + j] = s / d;
            }
        }
        let mut z = self.xty.clone();
        for i in 1..n {
            z[i] += ridge * prior[i];
        }
        for i in 0..n {
            for k in 0..i {
                z[i] -= a[i * n + k] * z[k];
            }
            z[i] /= a[i * n + i];
        }
        for i in (0..n).rev() {
            for k in i + 1..n {
                z[i] -= a[k * n + i] * z[k];
            }
            z[i] /= a[i * n + i];
        }
        z
    }
}

/// Plays by a value model: at each decision the action it values most; with
/// `explore` > 0, that share of decisions is random (for learning); with
/// `noise` > 0, each value is blurred first (a player of less exact judgement).
pub struct ValueBot<M: Default + Send + 'static> {
    model: Arc<ValueModel>,
    rng: ChaCha8Rng,
    explore: f64,
    noise: f64,
    scratch: Vec<f64>,
    values: Vec<f64>,
    /// How far the last decision's answers had to move the game on
    /// ([`Features::moves_on`]; 0: any answer could be played).
    pushed: u8,
    /// The game's [`Features::Memo`], from the model's pool when the bot is
    /// made and back there when it is dropped (the next game's bot of this
    /// model starts with what this one kept).
    memo: Box<M>,
}

impl<M: Default + Send + 'static> Drop for ValueBot<M> {
    fn drop(&mut self) {
        let memo: Box<M> = std::mem::take(&mut self.memo);
        self.model.memos.give(memo);
    }
}

impl<M: Default + Send + 'static> ValueBot<M> {
    /// The name on command lines and in records.
    pub const NAME: &'static str = "balance";

    /// A bot playing by `model`, seeded (the seed matters only with `explore`).
    pub fn new(model: Arc<ValueModel>, seed: u64) -> Self {
        ValueBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
            explore: 0.0,
            noise: 0.0,
            scratch: Vec::new(),
            values: Vec::new(),
            pushed: 0,
            memo: model.memos.take::<M>(),
            model,
        }
    }

    /// Normal noise of standard deviation `points` added to every action's
    /// value before the best is taken: near-equal actions are then chosen
    /// about evenly, clearly better ones still nearly always.
    pub fn with_noise(mut self, points: f64) -> Self {
        self.noise = points;
        self
    }

    /// A share of decisions (0..1) taken at random.
    pub fn exploring(mut self, share: f64) -> Self {
        self.explore = share;
        self
    }
}

impl<G: Features> Bot<G> for ValueBot<G::Memo> {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn choose(&mut self, game: &G, legal: &[G::Action]) -> G::Action {
        self.decide(game, legal).0
    }

    fn choose_judged(&mut self, game: &G, legal: &[G::Action]) -> (G::Action, Option<Judgement>) {
        let (action, valued) = self.decide(game, legal);
        if !valued {
            return (action, None);
        }
        let mut how = match self.noise > 0.0 {
            true => format!(
                "the learned worth of the position each answer leads to, blurred by {} points of noise",
                self.noise
            ),
            false => "the learned worth of the position each answer leads to".to_owned(),
        };
        match self.pushed {
            0 => {}
            1 => how.push_str(&format!(
                "; the game had stood still for {STILL} rounds, so only answers that move it on were weighed"
            )),
            _ => how.push_str(
                "; the game's end had come no nearer for too many rounds, so only answers that bring it nearer were weighed",
            ),
        }
        let values = self.values.iter().map(|&v| v.is_finite().then_some(v)).collect();
        (action, Some(Judgement { measure: Measure::Margin, values, visits: None, how }))
    }
}

impl<M: Default + Send + 'static> ValueBot<M> {
    /// The action it plays, and whether it valued the actions for it (into
    /// `self.values`): not for a single legal action nor a random one.
    #[inline]
    fn decide<G: Features<Memo = M>>(&mut self, game: &G, legal: &[G::Action]) -> (G::Action, bool) {
        if legal.len() == 1 {
            return (legal[0], false);
        }
        if self.explore > 0.0 && rng::unit(&mut self.rng) < self.explore {
            return (legal[rng::below(&mut self.rng, legal.len())], false);
        }
        game.action_values(legal, &self.model, &mut self.scratch, &mut self.memo, &mut self.values);
        if self.noise > 0.0 {
            for v in &mut self.values {
                *v += self.noise * rng::normal(&mut self.rng);
            }
        }
        // Where the game has stood still, only the answers that move it on.
        let need = self.stands_still(game);
        self.pushed = (1..=need).rev().find(|&n| legal.iter().any(|&a| game.moves_on(a) >= n)).unwrap_or(0);
        let mut best = legal[0];
        let mut best_value = f64::NEG_INFINITY;
        for (&a, &v) in legal.iter().zip(&self.values) {
            if v > best_value && (self.pushed == 0 || game.moves_on(a) >= self.pushed) {
                best = a;
                best_value = v;
            }
        }
        (best, true)
    }

    /// How far the answers must move the game on ([`Features::moves_on`]):
    /// 0 where it has moved on lately; 1 where nothing was drawn through the
    /// last [`STILL`] rounds; 2 where its end came no nearer through the last
    /// [`STALLED`] (or, once that happened in this game, [`STILL`]).
    fn stands_still<G: Features<Memo = M>>(&self, game: &G) -> u8 {
        let Some(Progress { still: [drawn, end], longest }) = game.progress() else { return 0 };
        if end >= STALLED || (longest >= STALLED && end >= STILL) { 2 } else { u8::from(drawn >= STILL) }
    }
}

/// How long a game has stood still, in rounds (every seat's turn once), for
/// the balance bot's guard ([`Features::progress`]): the game keeps count,
/// so a bot asked for one move (at a table) sees it as one that played them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Whole rounds since `[0]` anything was drawn, bought or scored; `[1]`
    /// the game's end came nearer (a building bought).
    pub still: [u32; 2],
    /// The most whole rounds the game's end has come no nearer so far.
    pub longest: u32,
}

/// How many rounds may pass with nothing drawn, bought or scored by anyone
/// before the balance bot weighs only the answers that move the game on. A
/// model can like a step and its undoing alike: in the money changer's late
/// game, with hands past what the display could take, every seat valued an
/// exchange above taking or buying, and they exchanged the same cards back
/// and forth until the turn limit (up to 2 games in 100, each some 2,000
/// turns long).
pub const STILL: u32 = 2;

/// How many rounds may pass with the game's end no nearer (nothing bought
/// by anyone) before the balance bot deems the game stalled: it then weighs
/// only the answers that bring the end nearer, and from then on does so
/// after [`STILL`]. In the hand tax's stalled games every seat took money
/// and discarded it at every turn and nobody bought, while in a game that
/// goes well nobody buys for up to some 8 rounds (the base game's bots take
/// money that long): a limit of 6 changed 2 to 28 of 200 games of every
/// ruleset of that game.
pub const STALLED: u32 = 30;

/// A random share of another bot's decisions, for the first round of learning.
struct Exploring<G: TurnGame> {
    inner: Box<dyn Bot<G>>,
    rng: ChaCha8Rng,
    share: f64,
}

impl<G: TurnGame> Bot<G> for Exploring<G> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn choose(&mut self, game: &G, legal: &[G::Action]) -> G::Action {
        if rng::unit(&mut self.rng) < self.share {
            return legal[rng::below(&mut self.rng, legal.len())];
        }
        self.inner.choose(game, legal)
    }
}

/// How [`learn`] plays: games per round, rounds, and the self-play details.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Games per round of self-play.
    pub games: u64,
    /// Rounds: the first with the game's rules of thumb, the others with the model so far.
    pub rounds: u32,
    /// The share of random decisions while learning (so that every card gets tried).
    pub explore: f64,
    /// The chance that a decision's position is kept as a sample (for every seat).
    pub sample: f64,
    /// The ridge penalty.
    pub ridge: f64,
    /// Rounds when the learning starts from another ruleset's model (a
    /// change of a built-in ruleset).
    pub warm_rounds: u32,
    /// Whether a warm start's first round is played by the start model
    /// (its weights by feature name) rather than by the rules of thumb: the
    /// game's experiment decides (see each game's `schedule`).
    pub warm_by_model: bool,
}

impl Default for Schedule {
    /// Three rounds; one from a base's model (the rules of thumb's games,
    /// the weights drawn to the base's): a game measures what suits it.
    fn default() -> Self {
        Schedule {
            games: 1500,
            rounds: 3,
            explore: 0.1,
            sample: 0.15,
            ridge: 20.0,
            warm_rounds: 1,
            warm_by_model: false,
        }
    }
}

/// Where `name` is among a model's `features` (of the ruleset `ruleset`); the
/// error names the nearest ones by spelling (a letter left out, two swapped).
pub fn feature_index(features: &[String], name: &str, ruleset: &str) -> Result<usize, String> {
    if let Some(i) = features.iter().position(|f| f == name) {
        return Ok(i);
    }
    let mut near: Vec<(f64, &str)> = features
        .iter()
        .map(|f| (strsim::normalized_damerau_levenshtein(name, f), f.as_str()))
        .filter(|(s, _)| *s >= 0.6)
        .collect();
    near.sort_by(|a, b| b.0.total_cmp(&a.0));
    // Only the nearly nearest: names of one family share their prefix.
    let best = near.first().map_or(1.0, |n| n.0);
    let near: Vec<&str> = near.into_iter().filter(|n| n.0 >= best - 0.05).take(3).map(|(_, f)| f).collect();
    let hint = if near.is_empty() { String::new() } else { format!("did you mean {}? ", near.join(", ")) };
    Err(format!(
        "the balance model of {ruleset} has no feature `{name}`; {hint}the command `learn --ruleset {ruleset}` lists them"
    ))
}

/// What [`learn`] needs to know of the ruleset and game.
pub struct Setting<'a, G: TurnGame> {
    /// The game id, ruleset id and fingerprint the model is for.
    pub ids: (&'a str, &'a str, &'a str),
    /// Seat counts to learn from, in turn.
    pub players: Vec<usize>,
    /// A new game of this many players from this seed.
    pub start: &'a (dyn Fn(usize, u64) -> Result<G, G::Error> + Sync),
    /// The game's rules-of-thumb bot, for the first round.
    pub warm: &'a (dyn Fn(u64) -> Box<dyn Bot<G>> + Sync),
}

/// The seed of a ruleset's self-play: the first 64 bits of its content
/// fingerprint (hex), so the same content learns the same model anywhere.
pub fn seed_of(fingerprint: &str) -> u64 {
    u64::from_str_radix(fingerprint.get(..16).unwrap_or("0"), 16).unwrap_or(0)
}

/// A learning's reporter: told (games played, games in all).
type Reporter = Box<dyn Fn(u64, u64)>;

thread_local! {
    /// Told (games played, games in all) after each self-play game of a
    /// [`learn`] on this thread: see [`reporting`].
    static PROGRESS: std::cell::RefCell<Option<Reporter>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f`, telling `report` (games played, games in all) after each
/// self-play game a [`learn`] on this thread plays meanwhile: a server shows
/// how far the balance bot's learning is without the learning knowing who asks.
pub fn reporting<T>(report: impl Fn(u64, u64) + 'static, f: impl FnOnce() -> T) -> T {
    /// Puts the reporter before back, also when `f` panics.
    struct Restore(Option<Reporter>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            PROGRESS.with(|p| *p.borrow_mut() = before);
        }
    }
    let _restore = Restore(PROGRESS.with(|p| p.borrow_mut().replace(Box::new(report))));
    f()
}

/// Tells this thread's reporter ([`reporting`]) how far a learning is: what
/// [`learn`] calls after each self-play game.
pub fn progress(done: u64, all: u64) {
    PROGRESS.with(|p| {
        if let Some(report) = &*p.borrow() {
            report(done, all);
        }
    });
}

/// Games of one round played at once before the next are begun: a learning
/// tells its progress after each batch, and the batch's samples enter the
/// regression in game order, so the model is the same on any number of threads.
const BATCH: usize = 64;

/// Learns a value model by self-play: deterministic for a seed, whatever the
/// number of threads (games run on rayon's pool; each game's samples are
/// drawn from its own seed and enter the regression in game order).
///
/// With `start` (the model of the ruleset this one is a change of), the
/// weights begin at its weights for the features of the same name,
/// `schedule.warm_rounds` rounds are played instead of `schedule.rounds`
/// (the first by the rules of thumb, so that the regression sees the
/// positions the model avoids, unless `schedule.warm_by_model`; the later
/// ones by the model so far), and the
/// ridge draws each weight towards its start instead of towards 0: self-play
/// is spent on what the change moves, and a feature the games rarely see
/// keeps its start.
pub fn learn<G: Features + 'static>(
    setting: &Setting<'_, G>,
    schedule: Schedule,
    seed: u64,
    start: Option<&ValueModel>,
) -> Result<ValueModel, String> {
    let probe = (setting.start)(setting.players[0], seed).map_err(|e| e.to_string())?;
    let names = probe.feature_names();
    let (game_id, ruleset, fingerprint) = setting.ids;
    let prior: Vec<f64> = match start {
        Some(s) => names.iter().map(|n| s.weight(n)).collect(),
        None => vec![0.0; names.len()],
    };
    let rounds = if start.is_some() { schedule.warm_rounds } else { schedule.rounds };
    let mut model = ValueModel {
        version: ValueModel::VERSION,
        game: game_id.to_owned(),
        ruleset: ruleset.to_owned(),
        fingerprint: fingerprint.to_owned(),
        games: schedule.games,
        rounds,
        seed,
        start: start.map(StartedFrom::of),
        features: names.clone(),
        weights: prior.clone(),
        // Whether the first round is the start model's rather than the rules of thumb's.
        by_start: start.is_some() && schedule.warm_by_model,
        memos: Default::default(),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Samples of every round count: later rounds add the model's own play
    // without forgetting the rest, which keeps the weights from swinging.
    let mut regression = Regression::new(names.len());
    let all = u64::from(rounds) * schedule.games;
    for round in 0..rounds {
        let current = Arc::new(model.clone());
        let by_rules_of_thumb = round == 0 && !model.by_start;
        let seeds: Vec<u64> = (0..schedule.games).map(|_| rng.next_u64()).collect();
        for (batch, seeds) in seeds.chunks(BATCH).enumerate() {
            let first = batch * BATCH;
            let played: Vec<Result<Vec<Sample>, String>> = seeds
                .par_iter()
                .enumerate()
                .map(|(i, &game_seed)| {
                    let players = setting.players[(first + i) % setting.players.len()];
                    let bots = (0..players)
                        .map(|s| {
                            let bot_seed = game_seed ^ (s as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                            if by_rules_of_thumb {
                                Box::new(Exploring {
                                    inner: (setting.warm)(bot_seed),
                                    rng: ChaCha8Rng::seed_from_u64(bot_seed ^ 1),
                                    share: schedule.explore,
                                }) as Box<dyn Bot<G>>
                            } else {
                                Box::new(ValueBot::new(Arc::clone(&current), bot_seed).exploring(schedule.explore))
                            }
                        })
                        .collect();
                    self_play(setting, players, game_seed, bots, schedule.sample, names.len())
                })
                .collect();
            for samples in played {
                for (f, reward) in samples? {
                    regression.add(&f, reward);
                }
            }
            let done = u64::from(round) * schedule.games + (first + seeds.len()) as u64;
            progress(done, all);
        }
        model.weights = regression.solve_toward(schedule.ridge, &prior);
    }
    Ok(model)
}

/// One sampled position: a seat's features and that seat's final reward.
type Sample = (Vec<f64>, f64);

/// One self-play game between `bots` from `game_seed`: each decision's
/// position kept with chance `sample` (for every seat), with the rewards.
fn self_play<G: Features + 'static>(
    setting: &Setting<'_, G>,
    players: usize,
    game_seed: u64,
    mut bots: Vec<Box<dyn Bot<G>>>,
    sample: f64,
    features: usize,
) -> Result<Vec<Sample>, String> {
    // The game's own stream for sampling: what one game samples does not
    // depend on how long the games before it were.
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed ^ 0x5A4D_504C_4553_0001);
    let mut game = (setting.start)(players, game_seed).map_err(|e| e.to_string())?;
    let mut samples: Vec<(usize, Vec<f64>)> = Vec::new();
    while let Some(seat) = game.to_move() {
        if rng::unit(&mut rng) < sample {
            for s in 0..players {
                let mut f = Vec::with_capacity(features);
                game.features(s, &mut f);
                samples.push((s, f));
            }
        }
        let action = bots[seat].choose(&game, game.legal());
        game.play(action).map_err(|e| e.to_string())?;
    }
    let rewards = game.outcome().unwrap_or_else(|| vec![0.0; players]);
    Ok(samples.into_iter().map(|(s, f)| (f, rewards[s])).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_regression_recovers_a_known_line() {
        // y = 2 + 3·x1 − 1·x2 exactly, over a grid: with a tiny ridge the weights come back.
        let mut r = Regression::new(3);
        for a in 0..10 {
            for b in 0..10 {
                let (x1, x2) = (f64::from(a), f64::from(b * b % 7));
                r.add(&[1.0, x1, x2], 2.0 + 3.0 * x1 - x2);
            }
        }
        assert_eq!(r.samples(), 100);
        let w = r.solve(1e-9);
        for (got, want) in w.iter().zip([2.0, 3.0, -1.0]) {
            assert!((got - want).abs() < 1e-6, "{w:?}");
        }
        // A large ridge shrinks the slopes, not the bias.
        let shrunk = r.solve(1e6);
        assert!(shrunk[1].abs() < 0.1 && shrunk[2].abs() < 0.1, "{shrunk:?}");
    }

    #[test]
    fn a_nudge_moves_one_weight_and_a_missing_feature_is_named() {
        let model = ValueModel {
            version: ValueModel::VERSION,
            start: None,
            game: "g".into(),
            ruleset: "r".into(),
            fingerprint: "f".into(),
            games: 1,
            rounds: 1,
            seed: 0,
            features: vec!["bias".into(), "built:well".into(), "built:tower".into()],
            weights: vec![1.0, 2.0, 3.0],
            by_start: false,
            memos: Default::default(),
        };
        let nudge = |f: &str, by| crate::bots::Nudge { feature: f.into(), by };
        let nudged = model.nudged(&[nudge("built:well", 0.5), nudge("built:well", 0.25)]).unwrap();
        assert_eq!(nudged.weights, vec![1.0, 2.75, 3.0]);
        let err = model.nudged(&[nudge("built:wel", 1.0)]).unwrap_err();
        assert!(err.contains("no feature `built:wel`; did you mean built:well?"), "{err}");
        assert!(err.contains("the command `learn --ruleset r` lists them"), "{err}");
    }

    #[test]
    fn a_regression_drawn_to_a_prior_keeps_it_where_the_samples_say_little() {
        let mut r = Regression::new(3);
        for a in 0..10 {
            let x1 = f64::from(a);
            r.add(&[1.0, x1, 0.0], 2.0 + 3.0 * x1);
        }
        // x2 is never seen: it keeps its prior, where plain ridge would make it 0.
        let w = r.solve_toward(1e-3, &[0.0, 0.0, -4.0]);
        assert!((w[1] - 3.0).abs() < 1e-3 && (w[2] + 4.0).abs() < 1e-9, "{w:?}");
        assert!(r.solve(1e-3)[2].abs() < 1e-9);
        // A ridge far above the samples' weight leaves the prior (the bias is free).
        let w = r.solve_toward(1e9, &[0.0, 7.0, -4.0]);
        assert!((w[1] - 7.0).abs() < 1e-3 && (w[2] + 4.0).abs() < 1e-9, "{w:?}");
    }

    fn learn_pick(threads: usize, schedule: Schedule, start: Option<&ValueModel>) -> ValueModel {
        learn_pick_counted(threads, schedule, start).0
    }

    /// The model, and how many bots the rules of thumb gave.
    fn learn_pick_counted(threads: usize, schedule: Schedule, start: Option<&ValueModel>) -> (ValueModel, usize) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let begin = |_players: usize, _seed: u64| Ok::<_, String>(Pick { a: [0.0; 2], b: [0.0; 2], moves: 0 });
        let asked = AtomicUsize::new(0);
        let warm = |seed: u64| {
            asked.fetch_add(1, Ordering::Relaxed);
            Box::new(crate::bots::RandomBot::new(seed)) as Box<dyn Bot<Pick>>
        };
        let setting = Setting { ids: ("g", "r", "f"), players: vec![2], start: &begin, warm: &warm };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let model = pool.install(|| learn(&setting, schedule, 7, start).unwrap());
        (model, asked.into_inner())
    }

    #[test]
    fn learning_gives_one_model_on_any_number_of_threads() {
        let schedule = pick_schedule(2, 1.0);
        let bits = |m: &ValueModel| m.weights.iter().map(|w| w.to_bits()).collect::<Vec<_>>();
        let one = learn_pick(1, schedule, None);
        for threads in [2, 3] {
            assert_eq!(bits(&learn_pick(threads, schedule, None)), bits(&one), "{threads} threads");
        }
        // And it learned the game: an `a` is worth more than a `b`, which costs.
        assert!(one.weights[1] > 0.5 && one.weights[2] < 0.0, "{:?}", one.weights);
        assert_eq!((one.rounds, one.start.as_ref()), (2, None));
    }

    /// The model of a ruleset `base` that a warm start begins at.
    fn base_model(features: [&str; 3], weights: [f64; 3]) -> ValueModel {
        ValueModel {
            version: ValueModel::VERSION,
            start: None,
            game: "g".into(),
            ruleset: "base".into(),
            fingerprint: "b0".into(),
            games: 1,
            rounds: 1,
            seed: 0,
            features: features.map(String::from).to_vec(),
            weights: weights.to_vec(),
            by_start: false,
            memos: Default::default(),
        }
    }

    /// Small rounds of the `Pick` game, one warm round by the rules of thumb.
    fn pick_schedule(rounds: u32, ridge: f64) -> Schedule {
        Schedule { games: 300, rounds, explore: 0.3, sample: 0.5, ridge, warm_rounds: 1, warm_by_model: false }
    }

    #[test]
    fn a_warm_start_begins_at_the_start_model_by_feature_name() {
        // The start knows `b` (worth −7) and a feature this game lacks; not `a`.
        let start = base_model(["bias", "gone", "b"], [9.0, 3.0, -7.0]);
        let schedule = pick_schedule(5, 1e9);
        let held = learn_pick(2, schedule, Some(&start));
        assert_eq!(held.rounds, 1, "a warm start plays its own number of rounds");
        assert_eq!(held.start, Some(StartedFrom { ruleset: "base".into(), fingerprint: "b0".into() }));
        // Held by a huge ridge: every weight but the bias stays at its start (0 for the new `a`).
        assert!(held.weights[1].abs() < 1e-3 && (held.weights[2] + 7.0).abs() < 1e-3, "{:?}", held.weights);
        // A light ridge lets the games move them: `b` costs about what the game says.
        let moved = learn_pick(2, Schedule { ridge: 1.0, ..schedule }, Some(&start));
        assert!(moved.weights[1] > 0.5 && moved.weights[2] > -3.0, "{:?}", moved.weights);
    }

    #[test]
    fn a_warm_round_by_the_model_asks_no_rules_of_thumb() {
        let start = base_model(["bias", "a", "b"], [0.0, 1.0, -1.0]);
        let schedule = pick_schedule(2, 1.0);
        // Every game's two seats by the rules of thumb, warm or not...
        assert_eq!(learn_pick_counted(1, schedule, Some(&start)).1, 600);
        assert_eq!(learn_pick_counted(1, schedule, None).1, 600);
        // ...unless a warm start's round is the start model's.
        let by_model = Schedule { warm_by_model: true, ..schedule };
        let (model, asked) = learn_pick_counted(2, by_model, Some(&start));
        assert_eq!(asked, 0);
        assert!(model.by_start, "the model says who played its first round");
        assert!(model.weights[1] > 0.5 && model.weights[2] < 0.0, "{:?}", model.weights);
        // From nothing, the first round is still the rules of thumb's.
        assert_eq!(learn_pick_counted(1, by_model, None).1, 600);
    }

    #[test]
    fn a_margin_is_over_the_mean_other_seat() {
        assert_eq!(margins(&[30.0, 20.0]), vec![10.0, -10.0]);
        let four = margins(&[30.0, 20.0, 10.0, 0.0]);
        for (got, want) in four.iter().zip([20.0, 20.0 / 3.0, -20.0 / 3.0, -20.0]) {
            assert!((got - want).abs() < 1e-9, "{four:?}");
        }
        assert_eq!(margins(&[7.0]), vec![7.0]);
    }

    #[test]
    fn a_fingerprint_seeds_its_self_play() {
        assert_eq!(seed_of("06684f63c4b16caa"), 0x0668_4f63_c4b1_6caa);
        assert_eq!(seed_of("not hex"), 0);
    }

    /// How a [`Idle`] game's `0` leaves it.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Idling {
        /// A card swapped back and forth, and the game says nothing of it.
        Untold,
        /// The same, the game telling that nothing moves on.
        Swaps,
        /// A card drawn and laid down again: something is drawn, the end comes no nearer.
        Draws,
    }

    /// One seat, whose `0` idles (see [`Idling`]) and `1` ends the game with
    /// nothing; it ends itself after 100 moves.
    #[derive(Clone, Debug)]
    struct Idle {
        how: Idling,
        moves: u64,
        over: bool,
    }

    impl TurnGame for Idle {
        type Action = u8;
        type Error = String;
        fn seats(&self) -> usize {
            1
        }
        fn to_move(&self) -> Option<usize> {
            (!self.over && self.moves < 100).then_some(0)
        }
        fn legal(&self) -> &[u8] {
            &[0, 1]
        }
        fn play(&mut self, action: u8) -> Result<(), String> {
            self.over = action == 1;
            self.moves += 1;
            Ok(())
        }
        fn rewards(&self) -> Option<Vec<f64>> {
            self.to_move().is_none().then(|| vec![0.0])
        }
    }

    impl Features for Idle {
        type Memo = ();
        fn features(&self, _seat: usize, out: &mut Vec<f64>) {
            out.clear();
            out.extend([1.0, 0.0, 0.0]);
        }
        fn progress(&self) -> Option<Progress> {
            let moves = self.moves as u32;
            let drawn = if self.how == Idling::Draws { 0 } else { moves };
            (self.how != Idling::Untold).then_some(Progress { still: [drawn, moves], longest: moves })
        }
        fn moves_on(&self, action: u8) -> u8 {
            match (action, self.how) {
                (1, _) => 2,
                (_, Idling::Draws) => 1,
                _ => 0,
            }
        }
    }

    /// `how` played to the end by a bot whose model likes idling (worth 5) above ending (0): the moves made.
    fn idle(bot: &mut ValueBot<()>, how: Idling) -> u64 {
        let mut game = Idle { how, moves: 0, over: false };
        while game.to_move().is_some() {
            let a = bot.choose(&game, &[0, 1]);
            game.play(a).unwrap();
        }
        game.moves
    }

    fn idle_bot() -> ValueBot<()> {
        ValueBot::new(Arc::new(base_model(["bias", "a", "b"], [5.0, 0.0, 0.0])), 1)
    }

    #[test]
    fn the_bot_moves_a_game_on_that_has_stood_still_for_a_few_of_its_decisions() {
        let mut bot = idle_bot();
        // Told nothing, it swaps until the game's own limit.
        assert_eq!(idle(&mut bot, Idling::Untold), 100);
        // Told, it swaps while the game has stood still for fewer than STILL
        // rounds, then ends it; each new game alike.
        assert_eq!(idle(&mut bot, Idling::Swaps), u64::from(STILL) + 1);
        assert_eq!(idle(&mut bot, Idling::Swaps), u64::from(STILL) + 1);
        // And it says so when asked why.
        let mut judged = Vec::new();
        for moves in 0..=u64::from(STILL) {
            let game = Idle { how: Idling::Swaps, moves, over: false };
            judged.push(bot.choose_judged(&game, &[0, 1]));
        }
        let (a, how) = judged.pop().unwrap();
        assert_eq!(a, 1, "the still game is moved on");
        assert!(how.unwrap().how.contains("the game had stood still"));
        assert!(judged.iter().all(|(a, j)| *a == 0 && !j.as_ref().unwrap().how.contains("still")));
    }

    #[test]
    fn the_bot_ends_a_wait_whose_end_came_no_nearer_for_many_of_its_decisions() {
        // Each wait draws (the game is not still), and the end comes no nearer:
        // it waits STALLED times, then ends the game rather than the game's limit.
        assert_eq!(idle(&mut idle_bot(), Idling::Draws), u64::from(STALLED) + 1);
    }

    /// Two seats take turns, two moves each: `0` adds an `a`, `1` a `b`, `2` one of each.
    #[derive(Clone, Debug)]
    struct Pick {
        a: [f64; 2],
        b: [f64; 2],
        moves: usize,
    }

    impl TurnGame for Pick {
        type Action = u8;
        type Error = String;
        fn seats(&self) -> usize {
            2
        }
        fn to_move(&self) -> Option<usize> {
            (self.moves < 4).then_some(self.moves % 2)
        }
        fn legal(&self) -> &[u8] {
            &[0, 1, 2]
        }
        fn play(&mut self, action: u8) -> Result<(), String> {
            let s = self.moves % 2;
            self.a[s] += f64::from(u8::from(action != 1));
            self.b[s] += f64::from(u8::from(action != 0));
            self.moves += 1;
            Ok(())
        }
        fn rewards(&self) -> Option<Vec<f64>> {
            // A margin: each `a` is worth 2, each `b` costs 1.
            let own = |s: usize| 2.0 * self.a[s] - self.b[s];
            (self.moves >= 4).then(|| vec![own(0) - own(1), own(1) - own(0)])
        }
    }

    impl Features for Pick {
        type Memo = ();

        fn feature_names(&self) -> Vec<String> {
            vec!["bias".into(), "a".into(), "b".into()]
        }
        fn features(&self, seat: usize, out: &mut Vec<f64>) {
            out.clear();
            out.extend([1.0, self.a[seat], self.b[seat]]);
        }
    }

    /// `Pick` where each seat moves twice in a row, and whose quick
    /// judgement (when its memo says so) likes the answer the model likes least.
    #[derive(Clone)]
    struct Twice(Pick);

    impl TurnGame for Twice {
        type Action = u8;
        type Error = String;
        fn seats(&self) -> usize {
            2
        }
        fn to_move(&self) -> Option<usize> {
            (self.0.moves < 4).then_some(self.0.moves / 2)
        }
        fn legal(&self) -> &[u8] {
            &[0, 1, 2]
        }
        fn play(&mut self, action: u8) -> Result<(), String> {
            let s = self.to_move().ok_or("over")?;
            self.0.a[s] += f64::from(u8::from(action != 1));
            self.0.b[s] += f64::from(u8::from(action != 0));
            self.0.moves += 1;
            Ok(())
        }
        fn rewards(&self) -> Option<Vec<f64>> {
            self.0.rewards()
        }
    }

    impl Features for Twice {
        /// Whether the game judges quickly.
        type Memo = bool;

        fn features(&self, seat: usize, out: &mut Vec<f64>) {
            self.0.features(seat, out);
        }
        fn quick_values(&self, actions: &[u8], _model: &ValueModel, quick: &mut bool, out: &mut Vec<f64>) -> bool {
            out.clear();
            out.extend(actions.iter().map(|&a| if a == 1 { 10.0 } else { 0.0 }));
            *quick
        }
    }

    #[test]
    fn a_turn_s_further_steps_are_chosen_by_the_quick_judgement_where_the_game_has_one() {
        let model = pick_model();
        let start = Twice(Pick { a: [0.0; 2], b: [0.0; 2], moves: 0 });
        let after = |second: u8| {
            let mut g = start.clone();
            g.play(0).unwrap();
            g.play(second).unwrap();
            let mut f = Vec::new();
            g.features(0, &mut f);
            model.value(&f)
        };
        // Played one step deep, the model's own favourite follows (an `a` alone: 5 + 2);
        // by the quick judgement, its choice (a `b` alone: 5 − 0.5).
        let scratch = &mut Vec::new();
        assert_eq!(by_playing(&start, 0, &model, scratch), after(0));
        assert_eq!(by_playing_quick(&start, 0, &model, scratch, &mut true), after(1));
        // A game with no quick judgement for the decision looks one step deep.
        assert_eq!(by_playing_quick(&start, 0, &model, scratch, &mut false), after(0));
        assert_ne!(after(0), after(1));
    }

    fn pick_model() -> Arc<ValueModel> {
        Arc::new(ValueModel {
            version: ValueModel::VERSION,
            start: None,
            game: "g".into(),
            ruleset: "r".into(),
            fingerprint: "f".into(),
            games: 1,
            rounds: 1,
            seed: 0,
            features: vec!["bias".into(), "a".into(), "b".into()],
            weights: vec![5.0, 2.0, -0.5],
            by_start: false,
            memos: Default::default(),
        })
    }

    #[test]
    fn a_judged_choice_is_the_choice_and_its_top_value_and_the_drivers_name_the_features() {
        let game = Pick { a: [0.0; 2], b: [0.0; 2], moves: 0 };
        let legal = [0, 1, 2];
        let mut plain = ValueBot::new(pick_model(), 3);
        let mut judged = ValueBot::new(pick_model(), 3);
        let (chosen, j) = Bot::<Pick>::choose_judged(&mut judged, &game, &legal);
        assert_eq!(chosen, Bot::<Pick>::choose(&mut plain, &game, &legal));
        let j = j.expect("the balance bot values its answers");
        assert_eq!(j.measure, Measure::Margin);
        // a: +2; b: -0.5; both: +1.5, over the bias's 5.
        assert_eq!(j.values, vec![Some(7.0), Some(4.5), Some(6.5)]);
        assert_eq!(chosen, 0);
        // Against the runner-up (one of each), only `b` differs: 0.5 points for the chosen.
        let d = drivers(&game, 0, 2, &pick_model(), 5);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!((d[0].feature.as_str(), d[0].chosen, d[0].other, d[0].effect), ("b", 0.0, 1.0, 0.5));
        // Against `1`, `a` matters most (+2), then `b` (+0.5); `most` cuts the list.
        let d = drivers(&game, 0, 1, &pick_model(), 1);
        assert_eq!((d.len(), d[0].feature.as_str(), d[0].effect), (1, "a", 2.0));
        // Answers that end the game are worth their result, which no weight scales.
        let last = Pick { a: [0.0; 2], b: [0.0; 2], moves: 3 };
        assert!(drivers(&last, 0, 1, &pick_model(), 3).is_empty());
        // Noise blurs the values it chooses by, and the judged choice is still the plain one.
        for seed in 0..20 {
            let mut plain = ValueBot::new(pick_model(), seed).with_noise(2.0);
            let mut judged = ValueBot::new(pick_model(), seed).with_noise(2.0);
            let (c, j) = Bot::<Pick>::choose_judged(&mut judged, &game, &legal);
            assert_eq!(c, Bot::<Pick>::choose(&mut plain, &game, &legal), "seed {seed}");
            let j = j.unwrap();
            let top = (0..3).max_by(|&x, &y| j.values[x].unwrap().total_cmp(&j.values[y].unwrap())).unwrap();
            assert_eq!(legal[top], c, "seed {seed}: {:?}", j.values);
            assert!(j.how.contains("noise"), "{}", j.how);
        }
        // One legal answer: nothing was valued.
        assert_eq!(Bot::<Pick>::choose_judged(&mut judged, &game, &legal[1..2]), (1, None));
    }
}
