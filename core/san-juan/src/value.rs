//! San Juan as the balance bot sees it ([`engine_play::value`]): a seat's
//! position as numbers, and a quick estimate of what each action changes.
//!
//! Features, for one seat: its score now (`score`, scoring scripts
//! included), hand size, goods, how much of the game is left (`time_left`: 1
//! at the start, 0 when someone has `end_buildings` buildings), and for every
//! card type the number the seat has built, also times `time_left` (an effect
//! is worth more early). Their
//! weights, learned from self-play, are the bot's whole judgement: what a
//! building of each type, a hand card and a good are worth in this ruleset.
//!
//! Acting mostly needs no copy of the game: an action's value is the change
//! it makes to those features (a building gained for the cards paid, a good
//! produced, cards sold for), and a role's value is what its phase would bring
//! the chooser with its privilege. A building's points are the ones it adds to
//! the seat's score now: printed, or, when a scoring script counts (the card's
//! own, like a palace's, or one the seat owns), worked out by scoring the city
//! with it on a copy. (The `score` feature already holds what scripts score,
//! so a building's weights learn only what it brings beyond that: valuing a
//! palace by its printed 0 points left it never built.) Decisions a script
//! asks for are valued by playing them on a copy.

use engine_script::hook_bit;
use smallvec::SmallVec;
use std::cell::{OnceCell, RefCell};
use std::sync::Arc;

use engine_play::value::{Features, Schedule, ValueModel, by_playing, by_playing_quick, margins};

use crate::actions::{Action, Role};
use crate::cards::{CardIdx, Kind};
use crate::game::{Decision, Game, Slot};
use crate::hooks::Hook;
use crate::ruleset::Ruleset;
use crate::ruleset::estimates::CityReads;

/// Features before the per-card ones. `score` is the score as if the game
/// ended now, scoring scripts included (named so since buildings are valued
/// by what they add to it: a model cached before then is learned again).
const BASE: [&str; 6] = ["bias", "score", "hand", "goods", "time_left", "hand_x_time_left"];

/// Builds `card` in `city`, a city that might be: new at its end, or over
/// the building in slot `over`, whose card is returned (to put it back).
fn build_in(city: &mut Vec<Slot>, card: CardIdx, over: Option<usize>) -> Option<CardIdx> {
    match over {
        Some(s) => Some(std::mem::replace(&mut city[s].card, card)),
        None => {
            city.push(Slot::new(card, false));
            None
        }
    }
}

/// Undoes [`build_in`], given what it returned.
fn unbuild(city: &mut Vec<Slot>, over: Option<usize>, old: Option<CardIdx>) {
    match (over, old) {
        (Some(s), Some(old)) => city[s].card = old,
        _ => {
            city.pop();
        }
    }
}

/// How the model is learned: twelve rounds of self-play, not the engine's
/// three, so that the bot's own play outweighs the greedy first round.
/// Against `mcts:500` (1,000 2-player games, seats swapped, own points as
/// the target) six rounds took the bot from 0.45 to 0.54, twelve to 0.58; with
/// margins and the end of the game, 0.59 and 0.61. About 9 s of learning
/// (4 s on two threads). A change of a built-in ruleset learns six rounds
/// from that ruleset's model: on the corpus's designs as strong as twelve
/// from nothing (4 players, 400 deals each played both ways: −0.07 points of
/// margin on average over the mint, the reservation desk and the remodel
/// yard, where six rounds from nothing gave −0.40). Its first round stays the
/// rules of thumb's: six rounds all by the model played 3.5 points worse on
/// the mint.
pub const SCHEDULE: Schedule =
    Schedule { games: 1500, rounds: 12, explore: 0.1, sample: 0.15, ridge: 20.0, warm_rounds: 6, warm_by_model: false };

/// What ending the game is worth beyond its points, in final margin: a win
/// when ahead, a loss when behind. The learned weights cannot see it (they
/// describe one seat), and without it the bot ended 152 of its 543 lost
/// 2-player games against `mcts:500` itself, most by 4 points or fewer.
const END_WEIGHT: f64 = 3.0;

impl Game {
    /// Whether scoring scripts count for `seat` building `card`: its own
    /// buildings' or the card's.
    fn scores_by_script(&self, seat: usize, card: CardIdx) -> bool {
        (self.hook_mask[seat] | self.rs.hook_masks[card as usize]) & hook_bit(Hook::Score as usize) != 0
    }

    /// The points `seat` would score now with `card` built (over the
    /// building in `over`, a slot of its city), less `now`, its points now,
    /// worked out on `copy`, a copy of this game that is left as it was.
    /// Scoring scripts count (a palace, a city hall, a monument for an arch).
    fn points_if_built(&self, copy: &mut Game, seat: usize, card: CardIdx, over: Option<usize>, now: i32) -> f64 {
        let old = build_in(&mut copy.players[seat].city, card, over);
        copy.refresh_seat_mask(seat);
        let score = copy.score_total(seat);
        unbuild(&mut copy.players[seat].city, over, old);
        copy.refresh_seat_mask(seat);
        score.map_or_else(|_| self.printed_gain(seat, card, over), |s| f64::from(s - now))
    }

    /// The printed points `seat` gains by building `card` (over the building in `over`).
    fn printed_gain(&self, seat: usize, card: CardIdx, over: Option<usize>) -> f64 {
        let cards = &self.rs.cards;
        f64::from(cards.get(card).vp - over.map_or(0, |s| cards.get(self.players[seat].city[s].card).vp))
    }

    /// 1 at the start, 0 once someone has the buildings that end the game.
    fn time_left(&self) -> f64 {
        let end = self.rs.rules.end_buildings.max(1) as f64;
        let most = self.players.iter().map(|p| p.city.len()).max().unwrap_or(0) as f64;
        ((end - most) / end).clamp(0.0, 1.0)
    }
}

/// The features' names for a ruleset (the same for all its games).
pub fn feature_names(rs: &Ruleset) -> Vec<String> {
    let mut names: Vec<String> = BASE.iter().map(|s| (*s).to_owned()).collect();
    for c in &rs.cards.cards {
        names.push(format!("built:{}", c.id));
        names.push(format!("built_x_time_left:{}", c.id));
    }
    names
}

/// What the balance bot keeps between its decisions (and, through its
/// model's pool, between games): a copy of a game to score cities that might
/// be, a city's buffer, each seat's kept scores, and the deck's keeps by time
/// left. Held by the bot, not by the game or its ruleset.
#[derive(Default)]
pub struct Memo {
    /// A city's buffer to price buildings in ([`Values::remembered_gain`]).
    city: Option<Vec<Slot>>,
    /// Each seat's [`SeatScores`].
    scores: ScoreCache,
    /// The deck's keeps for the model, by time left.
    deck: DeckKeeps,
    /// The memo of the copies a script's choice is judged on: kept across
    /// the answers and the decisions, as this one is (a fresh one for each
    /// answer made a copy, a city and the deck's keeps again each time).
    played: Option<Box<Memo>>,
    /// Spare copies of a game ([`Features::spares`]), refilled from the game
    /// being decided: to play a script's choice on, and to score a city in
    /// when a scoring script must run.
    // Boxed: a copy is taken out and put back at every answer judged (moved whole, 0.8 M a game of the reserve).
    #[allow(clippy::vec_box)]
    spares: Vec<Box<Game>>,
}

impl Features for Game {
    type Memo = Memo;

    fn feature_names(&self) -> Vec<String> {
        feature_names(&self.rs)
    }

    fn features(&self, seat: usize, out: &mut Vec<f64>) {
        let p = &self.players[seat];
        let t = self.time_left();
        out.clear();
        out.resize(BASE.len() + 2 * self.rs.cards.len(), 0.0);
        out[0] = 1.0;
        out[1] = self.score_total(seat).map_or(0.0, f64::from);
        out[2] = p.hand.len() as f64;
        out[3] = p.goods() as f64;
        out[4] = t;
        out[5] = p.hand.len() as f64 * t;
        for s in &p.city {
            let i = BASE.len() + 2 * s.card as usize;
            out[i] += 1.0;
            out[i + 1] += t;
        }
    }

    /// The final margin over the mean other player: a building's worth is
    /// then in victory points, which a designer can read (`sanjuan learn`),
    /// and it is a less noisy target than a win.
    fn outcome(&self) -> Option<Vec<f64>> {
        if !self.is_over() {
            return None;
        }
        let totals: Vec<f64> = self.scores().ok()?.iter().map(|s| f64::from(s.total)).collect();
        Some(margins(&totals))
    }

    fn copy_into(&self, into: &mut Game) {
        into.refill_from(self);
    }

    fn spares(memo: &mut Memo) -> Option<&mut Vec<Box<Game>>> {
        Some(&mut memo.spares)
    }

    fn action_value(&self, action: Action, model: &ValueModel, scratch: &mut Vec<f64>, memo: &mut Memo) -> f64 {
        let Some(d) = self.pending() else { return 0.0 };
        if model.weights.len() != BASE.len() + 2 * self.rs.cards.len() {
            return by_playing(self, action, model, scratch);
        }
        let v = Values::new(self, d.seat(), model, memo);
        v.action(self, d, action, scratch)
    }

    /// The values of one decision's actions share the learned worth of its position.
    fn action_values(
        &self,
        actions: &[Action],
        model: &ValueModel,
        scratch: &mut Vec<f64>,
        memo: &mut Memo,
        out: &mut Vec<f64>,
    ) {
        out.clear();
        let Some(d) = self.pending() else {
            out.resize(actions.len(), 0.0);
            return;
        };
        if model.weights.len() != BASE.len() + 2 * self.rs.cards.len() {
            out.extend(actions.iter().map(|&a| by_playing(self, a, model, scratch)));
            return;
        }
        let v = Values::new(self, d.seat(), model, memo);
        out.extend(actions.iter().map(|&a| v.action(self, d, a, scratch)));
    }

    /// The further steps of a turn after a script's choice are the game's
    /// own decisions (a build, its payment): each answer judged as a decision
    /// of the game is (not played one step deep). Playing each build of the
    /// builder's turn after each answer to a reservation desk was most of
    /// such a game's cost.
    fn quick_values(&self, actions: &[Action], model: &ValueModel, memo: &mut Memo, out: &mut Vec<f64>) -> bool {
        let Some(d) = self.pending() else { return false };
        if model.weights.len() != BASE.len() + 2 * self.rs.cards.len() {
            return false;
        }
        let v = Values::new(self, d.seat(), model, memo);
        out.clear();
        for &a in actions {
            match v.quick(self, d, a) {
                Some(x) => out.push(x),
                None => return false,
            }
        }
        true
    }
}

/// The deck's cards by [`Values::typical_keep`], sorted, with their copies;
/// their mean over the deck's copies; and the councillor's best of k, for
/// each k below [`BEST_KEPT`] once asked (read without a lock: every seat's
/// councillor asks, in every role decision).
struct Keeps {
    sorted: Vec<(f64, f64)>,
    mean: f64,
    best: [std::sync::OnceLock<f64>; BEST_KEPT],
}

/// The councillor's best of k is kept for k below this (the rules allow more; those are worked out each time).
const BEST_KEPT: usize = 16;

impl Keeps {
    /// The keeps of `cards` (keep, copies per deck card), sorted by keep, ties
    /// in card order (as a stable sort leaves them), and their mean over the
    /// copies. `order` is the last sort's order of the cards and is left as
    /// this one's: keeps change little between the times they are worked out,
    /// so sorting from there by insertion takes few steps (a stable sort from
    /// scratch was 3% of a game between balance bots).
    fn sorted_from(cards: &[(f64, f64)], order: &mut Vec<u16>) -> Self {
        let (mut sum, mut n) = (0.0, 0.0);
        for &(keep, copies) in cards {
            sum += keep * copies;
            n += copies;
        }
        if order.len() != cards.len() {
            order.clear();
            order.extend(0..cards.len() as u16);
        }
        // By keep (`f64::total_cmp`'s key: the bits, negatives' flipped), then by card.
        let key = |i: u16| {
            let bits = cards[i as usize].0.to_bits() as i64;
            (bits ^ (((bits >> 63) as u64) >> 1) as i64, i)
        };
        for j in 1..order.len() {
            let card = order[j];
            let k = key(card);
            let mut at = j;
            while at > 0 && k < key(order[at - 1]) {
                order[at] = order[at - 1];
                at -= 1;
            }
            order[at] = card;
        }
        let sorted = order.iter().map(|&i| cards[i as usize]).collect();
        Keeps { sorted, mean: if n > 0.0 { sum / n } else { 0.0 }, best: Default::default() }
    }

    /// [`Values::best_of`] for `k` cards, worked out by `make` unless known.
    fn best_of(&self, k: i32, make: impl FnOnce() -> f64) -> f64 {
        match usize::try_from(k).ok().and_then(|k| self.best.get(k)) {
            Some(kept) => *kept.get_or_init(make),
            None => make(),
        }
    }
}

/// [`Keeps`] for one model, by the time left they were worked out for: they
/// change only when the longest city grows, to one of a few values that
/// every game of a run meets, so a ruleset keeps them for all its games
/// (working them out anew for every decision was 5% of a game between
/// balance bots, and for every game 7%).
#[derive(Default)]
pub(crate) struct DeckKeeps(Kept);

/// The model's weights (their bits), the keeps worked out for it by time
/// left (its bits), and the order of the deck's cards they were last sorted in.
#[derive(Default)]
struct Kept {
    weights: Vec<u64>,
    by_time: Vec<(u64, Arc<Keeps>)>,
    order: Vec<u16>,
}

/// Most times left kept for one model (a ruleset's end has at most 100 buildings).
const KEPT_TIMES: usize = 128;

impl DeckKeeps {
    /// The keeps for `weights` at time left `t` from `make`'s (keep, copies)
    /// per deck card, unless kept.
    fn get_or_make(&mut self, weights: &[f64], t: f64, make: impl FnOnce() -> Vec<(f64, f64)>) -> Arc<Keeps> {
        let kept = &mut self.0;
        // Bit for bit (a model's weights are some hundreds; folded, the comparison has no branch per weight).
        let same = kept.weights.len() == weights.len()
            && kept.weights.iter().zip(weights).fold(0, |differ, (k, w)| differ | (k ^ w.to_bits())) == 0;
        if !same {
            kept.weights.clear();
            kept.weights.extend(weights.iter().map(|w| w.to_bits()));
            kept.by_time.clear();
        }
        let bits = t.to_bits();
        if let Some((_, keeps)) = kept.by_time.iter().find(|(b, _)| *b == bits) {
            return Arc::clone(keeps);
        }
        let keeps = Arc::new(Keeps::sorted_from(&make(), &mut kept.order));
        if kept.by_time.len() >= KEPT_TIMES {
            kept.by_time.clear();
        }
        kept.by_time.push((bits, Arc::clone(&keeps)));
        keeps
    }
}

/// What a scoring script that answers from the city alone may read of one
/// building: its card, the building that collected the cards under it and
/// their number, and (when some script reads them) whether it holds a good,
/// its uses and its counter.
type SlotFacts = (CardIdx, Option<CardIdx>, usize, bool, u32, i32);

fn slot_facts(s: &Slot, reads: CityReads) -> SlotFacts {
    let good = reads.goods && s.good.is_some();
    let uses = if reads.uses { s.uses } else { 0 };
    let counter = if reads.counter { s.counter } else { 0 };
    (s.card, s.under_from, s.under.len(), good, uses, counter)
}

/// A seat's score now and the scores of cities it might build (a card new,
/// or over a slot), kept from one decision to the next while its city is
/// the same and every scoring script in it answers from the city alone
/// ([`scores_by_city`]): pricing them anew for every decision was a third of
/// the balance bot's work.
#[derive(Default)]
pub(crate) struct SeatScores {
    city: Vec<SlotFacts>,
    now: Option<Option<i32>>,
    built: Vec<(CardIdx, Option<usize>, i32)>,
}

impl SeatScores {
    /// Keeps these for `city`: forgotten if it is not the city they were kept for.
    fn for_city(&mut self, city: &[Slot], reads: CityReads) {
        let same = self.city.len() == city.len() && self.city.iter().zip(city).all(|(f, s)| *f == slot_facts(s, reads));
        if !same {
            self.city.clear();
            self.city.extend(city.iter().map(|s| slot_facts(s, reads)));
            self.now = None;
            self.built.clear();
        }
    }

    fn built(&self, card: CardIdx, over: Option<usize>) -> Option<i32> {
        self.built.iter().find(|&&(c, o, _)| c == card && o == over).map(|&(.., total)| total)
    }
}

/// Every seat's [`SeatScores`], kept by the bot between decisions.
#[derive(Default)]
pub(crate) struct ScoreCache(Vec<SeatScores>);

impl ScoreCache {
    fn take(&mut self, seat: usize) -> SeatScores {
        self.0.get_mut(seat).map(std::mem::take).unwrap_or_default()
    }

    fn keep(&mut self, seat: usize, scores: SeatScores) {
        if self.0.len() <= seat {
            self.0.resize_with(seat + 1, SeatScores::default);
        }
        self.0[seat] = scores;
    }
}

/// The learned worth of things in the position being decided.
struct Values<'a> {
    game: &'a Game,
    /// The bot's memo: buffers taken from it when first needed go back when done.
    memo: RefCell<&'a mut Memo>,
    seat: usize,
    model: &'a ValueModel,
    rs: &'a Ruleset,
    t: f64,
    /// A card in hand.
    hand: f64,
    /// A good on a building.
    good: f64,
    /// A victory point now.
    points: f64,
    /// Per card type, the points the seat deciding would score more now with
    /// it built (NaN: not worked out yet; empty until the first is asked,
    /// which most decisions never do: on the heap, as a copy of the whole
    /// table on the stack was moved with every `Values`).
    gains: RefCell<Vec<f64>>,
    /// The seat's score now (`None`: a script failed), when a scoring script first counts.
    now: OnceCell<Option<i32>>,
    /// The seat's city with the building being priced built in it, scored
    /// from the scripts' remembered answers ([`Game::remembered_total`]); the
    /// last decision's buffer, taken from the game when first needed.
    city: RefCell<Option<Vec<Slot>>>,
    /// A copy of the game to score cities that might be, when a script must
    /// run (made the first time one must).
    copy: RefCell<Option<Box<Game>>>,
    /// Each seat's score now (NaN: not worked out yet; empty until the first
    /// is asked, only near the game's end).
    scores: RefCell<SmallVec<[f64; 8]>>,
    /// The seat's kept scores ([`SeatScores`]), when its city's scoring
    /// scripts answer from the city alone (taken from the game when first
    /// needed, given back when done).
    kept: OnceCell<Option<RefCell<SeatScores>>>,
    /// The deck's cards by [`Values::typical_keep`] and what follows from them
    /// ([`Values::keeps`]: from the game's [`DeckKeeps`] when they still hold).
    deck_keeps: OnceCell<Arc<Keeps>>,
}

impl Drop for Values<'_> {
    /// The buffers go back to the bot's memo, for the next decision.
    fn drop(&mut self) {
        let memo = self.memo.get_mut();
        if let Some(copy) = self.copy.get_mut().take() {
            engine_play::value::give_back(copy, Some(memo));
        }
        if let Some(city) = self.city.get_mut().take() {
            memo.city = Some(city);
        }
        if let Some(Some(kept)) = self.kept.take() {
            memo.scores.keep(self.seat, kept.into_inner());
        }
    }
}

impl<'a> Values<'a> {
    fn new(game: &'a Game, seat: usize, model: &'a ValueModel, memo: &'a mut Memo) -> Self {
        let t = game.time_left();
        let w = &model.weights;
        let mut v = Values {
            game,
            memo: RefCell::new(memo),
            seat,
            model,
            rs: &game.rs,
            t,
            hand: w[2] + w[5] * t,
            good: w[3],
            points: w[1],
            // Nothing allocated yet: a decision's values are worked out some 250 times a game.
            gains: RefCell::new(Vec::new()),
            now: OnceCell::new(),
            city: RefCell::new(None),
            copy: RefCell::new(None),
            scores: RefCell::new(SmallVec::new()),
            kept: OnceCell::new(),
            deck_keeps: OnceCell::new(),
        };
        // A good is worth at least half of what it sells for on average: its
        // value is realised by a later sale, which a position's weights see only in part.
        v.good = v.good.max(0.5 * game.rs.mean_good_price * v.hand);
        v
    }

    /// How much the model likes `action` in answer to `d` (up to a constant of the decision).
    fn action(&self, game: &Game, d: &Decision, action: Action, scratch: &mut Vec<f64>) -> f64 {
        self.quick(game, d, action).unwrap_or_else(|| {
            // A script's choice (and anything new): played, and the seat's turn after it
            // chosen by this same quick judgement (with a memo of its own: this one is lent to `self`).
            let mut played = self.memo.borrow_mut().played.take().unwrap_or_default();
            let v = by_playing_quick(game, action, self.model, scratch, &mut played);
            self.memo.borrow_mut().played = Some(played);
            v
        })
    }

    /// [`Values::action`] when it is judged without playing it: `None` for
    /// a script's choice, and for a sale beside a ruleset's own action.
    fn quick(&self, game: &Game, d: &Decision, action: Action) -> Option<f64> {
        let v = self;
        let seat = self.seat; // `d.seat()`, known since `Values::new`
        Some(match (d, action) {
            (Decision::Role { boost, .. }, Action::Role { role, boost: used }) => {
                v.role(game, seat, role, if used { *boost } else { 1 })
            }
            (Decision::Build { options, .. }, Action::Build { card, over }) => {
                let city = &game.players[seat].city;
                let Some(o) = options.iter().find(|o| o.card == card && o.over.map(|s| city[s].card) == over) else {
                    return Some(f64::NEG_INFINITY);
                };
                let from_hand = game.players[seat].hand.contains(&card);
                let points = if o.over.is_none() { v.gain(card) } else { v.gain_over(card, o.over) };
                let cards = f64::from(o.cost + i32::from(from_hand));
                if v.game_ends_anyway() {
                    // Only points count now; cards in hand break ties.
                    return Some(points - 0.01 * cards);
                }
                v.learned(card) - over.map_or(0.0, |c| v.learned(c)) + v.points * points - v.hand * cards
                    + v.end_bonus(|| points, o.over.is_none())
            }
            (Decision::Pay { .. }, Action::Pay(c)) => -v.hand - v.keep(c),
            (Decision::Pay { .. }, Action::Spend(_)) => -v.good,
            (Decision::Pay { .. }, Action::SpendOf(..)) => -0.5 * v.good,
            (Decision::Produce { .. }, Action::Produce(b)) => {
                v.good + 0.01 * game.rs.cards.get(b).good.unwrap_or(0) as f64
            }
            // With a ruleset's own action offered beside the sales, every answer is played
            // and looked at: the action's worth and the sales' on one scale.
            (Decision::Sell { .. }, _) if !game.sell_acts().is_empty() => return None,
            (Decision::Sell { .. }, Action::Sell(b)) => f64::from(game.price_of(seat, b)) * v.hand - v.good,
            (Decision::Keep { .. } | Decision::Reveal { .. }, Action::Keep(c)) => v.hand + v.keep(c),
            (Decision::Exchange { .. }, Action::Discard(c)) => v.mean_keep() - v.keep(c),
            (Decision::Discard { .. }, Action::Discard(c)) => -v.hand - v.keep(c),
            (Decision::Tuck { slot, .. }, Action::Tuck(c)) => {
                let under = game.players[seat].city[*slot].under_from.unwrap_or(game.players[seat].city[*slot].card);
                -v.hand - v.keep(c) + v.points * f64::from(game.rs.cards.get(under).under_vp)
            }
            (
                Decision::Build { .. }
                | Decision::Produce { .. }
                | Decision::Sell { .. }
                | Decision::Reveal { .. }
                | Decision::Tuck { .. }
                | Decision::Exchange { .. },
                Action::Pass,
            ) => 0.0,
            // A script's choices (and anything new): play it and look.
            _ => return None,
        })
    }

    /// Owning a building of this type beyond the points it scores: its learned worth.
    fn learned(&self, c: CardIdx) -> f64 {
        let i = BASE.len() + 2 * c as usize;
        let w = &self.model.weights;
        w[i] + w[i + 1] * self.t
    }

    /// Building one of this type now: its learned worth and the points it
    /// adds to the seat's score. The points of a card with a scoring script of its own are the ones it
    /// would add now; of any other card, its printed points (quicker than
    /// scoring the city with each card in hand; a Build decision scores exactly).
    fn owned(&self, c: CardIdx) -> f64 {
        let points = if self.rs.hook_masks[c as usize] & hook_bit(Hook::Score as usize) != 0 {
            self.gain(c)
        } else {
            f64::from(self.rs.cards.get(c).vp)
        };
        self.learned(c) + self.points * points
    }

    /// The points the seat would score more now with a building of this type.
    fn gain(&self, c: CardIdx) -> f64 {
        // Printed points need no remembering.
        if !self.game.scores_by_script(self.seat, c) {
            return self.game.printed_gain(self.seat, c, None);
        }
        let known = self.gains.borrow().get(c as usize).copied().unwrap_or(f64::NAN);
        if !known.is_nan() {
            return known;
        }
        let g = self.gain_over(c, None);
        let mut gains = self.gains.borrow_mut();
        if gains.is_empty() {
            gains.resize(self.rs.cards.len(), f64::NAN);
        }
        gains[c as usize] = g;
        g
    }

    /// The points the seat would score more now with `c` built (over the building in `over`).
    fn gain_over(&self, c: CardIdx, over: Option<usize>) -> f64 {
        let (game, seat) = (self.game, self.seat);
        if !game.scores_by_script(seat, c) {
            return game.printed_gain(seat, c, over);
        }
        let Some(now) = self.now() else {
            return game.printed_gain(seat, c, over);
        };
        if let Some(gain) = self.remembered_gain(c, over, now) {
            return gain;
        }
        let mut copy = self.copy.borrow_mut();
        // A spare copy (the last decision's), made this game again in its own buffers.
        let copy = copy.get_or_insert_with(|| engine_play::value::copy_of(game, Some(&mut self.memo.borrow_mut())));
        game.points_if_built(copy, seat, c, over, now)
    }

    /// [`Values::gain_over`] when every scoring script of the city it would
    /// make has answered for such a city before: no copy of the game needed
    /// (building one was a fifth of a game between balance bots).
    fn remembered_gain(&self, c: CardIdx, over: Option<usize>, now: i32) -> Option<f64> {
        let (game, seat) = (self.game, self.seat);
        let kept = self.kept().filter(|_| self.rs.scores_by_city.get(usize::from(c)) == Some(&true));
        if let Some(total) = kept.and_then(|k| k.borrow().built(c, over)) {
            return Some(f64::from(total - now));
        }
        // The seat's city, copied once per decision; each card is built in it and taken out again.
        let mut city = self.city.borrow_mut();
        let city = city.get_or_insert_with(|| {
            let mut city = self.memo.borrow_mut().city.take().unwrap_or_default();
            city.clone_from(&game.players[seat].city);
            city
        });
        let old = build_in(city, c, over);
        let score = game.remembered_total(seat, city, game.city_mask(city));
        unbuild(city, over, old);
        if let (Some(kept), Some(Ok(total))) = (kept, &score) {
            kept.borrow_mut().built.push((c, over, *total));
        }
        Some(score?.map_or_else(|_| game.printed_gain(seat, c, over), |s| f64::from(s - now)))
    }

    /// Another seat's score now (`None`: a script failed), kept with its city
    /// when every scoring script of that city answers from the city alone.
    fn other_score(&self, seat: usize) -> Option<i32> {
        let (game, city) = (self.game, &self.game.players[seat].city);
        if !self.scores_by_city(city) {
            return game.score_total(seat).ok();
        }
        let mut memo = self.memo.borrow_mut();
        let mut kept = memo.scores.take(seat);
        kept.for_city(city, self.rs.score_city_reads);
        let now = *kept.now.get_or_insert_with(|| game.score_total(seat).ok());
        memo.scores.keep(seat, kept);
        now
    }

    /// Whether every scoring script of `city` answers from the city alone.
    fn scores_by_city(&self, city: &[Slot]) -> bool {
        city.iter().all(|s| self.rs.scores_by_city.get(usize::from(s.card)) == Some(&true))
    }

    /// The seat's kept scores, when every scoring script of its city answers
    /// from the city alone: kept from earlier decisions if its city is the same.
    fn kept(&self) -> Option<&RefCell<SeatScores>> {
        self.kept
            .get_or_init(|| {
                let city = &self.game.players[self.seat].city;
                if !self.scores_by_city(city) {
                    return None;
                }
                let mut kept = self.memo.borrow_mut().scores.take(self.seat);
                kept.for_city(city, self.rs.score_city_reads);
                Some(RefCell::new(kept))
            })
            .as_ref()
    }

    /// The mean of [`Values::keep`] over the deck's cards, a card of a type
    /// without a scoring script counted at its printed points (quicker).
    fn mean_keep(&self) -> f64 {
        self.keeps().mean
    }

    /// The deck's cards by [`Values::typical_keep`] (worked out when first asked, or kept from an earlier decision).
    fn keeps(&self) -> &Keeps {
        self.deck_keeps.get_or_init(|| {
            let made = || {
                let all = &self.rs.cards.cards;
                let deck = all.iter().enumerate().filter(|(_, c)| !c.public);
                deck.map(|(i, c)| (self.typical_keep(i as CardIdx), f64::from(c.copies))).collect()
            };
            self.memo.borrow_mut().deck.get_or_make(&self.model.weights, self.t, made)
        })
    }

    /// [`Values::keep`] without scoring scripts, quicker (for the mean over the deck): printed points only.
    fn typical_keep(&self, c: CardIdx) -> f64 {
        let def = self.rs.cards.get(c);
        (self.learned(c) + self.points * f64::from(def.vp) - self.hand * f64::from(def.cost)).max(0.0)
    }

    /// Holding this card beyond any card: what building it later would gain over its printed cost.
    fn keep(&self, c: CardIdx) -> f64 {
        (self.owned(c) - self.hand * f64::from(self.rs.cards.get(c).cost)).max(0.0)
    }

    /// The expected best [`Values::keep`] among `k` cards drawn from the deck's mix.
    fn best_of(&self, k: i32) -> f64 {
        // The same sorted deck serves every seat's councillor, in every decision until it changes.
        let keeps = self.keeps();
        keeps.best_of(k, || {
            let cards = &keeps.sorted;
            let total: f64 = cards.iter().map(|c| c.1).sum();
            if total <= 0.0 || k <= 0 {
                return 0.0;
            }
            // One power per card: this card's "at most" is the next one's "below".
            let (mut below, mut below_k, mut e) = (0.0f64, 0.0f64, 0.0);
            for &(value, copies) in cards.iter() {
                let at_most = below + copies / total;
                let at_most_k = at_most.powi(k);
                e += value * (at_most_k - below_k);
                below = at_most;
                below_k = at_most_k;
            }
            e
        })
    }

    /// What choosing `role` brings the chooser (privilege × `factor`) less
    /// what the same phase brings the other players on average (from what
    /// everyone can see: their goods, empty buildings, hand sizes).
    fn role(&self, game: &Game, seat: usize, role: Role, factor: i32) -> f64 {
        let n = game.players.len();
        let others: f64 =
            (0..n).filter(|&s| s != seat).map(|s| self.base_gain(game, s, role)).sum::<f64>() / (n - 1).max(1) as f64;
        let threat = if role == Role::Builder { self.end_threat() } else { 0.0 };
        self.own_gain(game, seat, role, factor) - others - threat
    }

    /// Whether the game ends with this phase whatever the seat deciding does
    /// (someone has the buildings that end it).
    fn game_ends_anyway(&self) -> bool {
        let end = self.rs.rules.end_buildings;
        matches!(self.game.phase, Some(ph) if ph.role == Role::Builder)
            && self.game.players.iter().any(|p| p.city.len() >= end)
    }

    /// What ending the game by a build that adds `gain()` points (and a
    /// building, if `adds`) is worth beyond them: [`END_WEIGHT`] if the seat
    /// would then finish ahead of every other, less if level, its negative if
    /// behind. 0 when the build does not end the game.
    fn end_bonus(&self, gain: impl FnOnce() -> f64, adds: bool) -> f64 {
        if !self.may_end(adds) {
            return 0.0;
        }
        let game = self.game;
        let mine = self.score_of(self.seat) + gain();
        let best_other = (0..game.players.len())
            .filter(|&s| s != self.seat)
            .map(|s| self.final_guess(s))
            .fold(f64::NEG_INFINITY, f64::max);
        END_WEIGHT * (mine - best_other).clamp(-1.0, 1.0)
    }

    /// Whether a build by the seat deciding (that adds a building, if `adds`)
    /// would end the game: no city has the buildings that end it yet, and
    /// the seat's would.
    fn may_end(&self, adds: bool) -> bool {
        let (game, end) = (self.game, self.rs.rules.end_buildings);
        game.players[self.seat].city.len() + usize::from(adds) >= end
            && !game.players.iter().any(|p| p.city.len() >= end)
    }

    /// What a builder phase risks when another player could end the game in
    /// it and finish ahead: [`END_WEIGHT`], or 0.
    fn end_threat(&self) -> f64 {
        let game = self.game;
        let end = self.rs.rules.end_buildings;
        let mut able = (0..game.players.len()).filter(|&s| {
            let p = &game.players[s];
            s != self.seat && p.city.len() + 1 >= end && p.hand.len() >= 2
        });
        let Some(first) = able.next() else { return 0.0 };
        let mine = self.final_guess(self.seat);
        let threat = std::iter::once(first).chain(able).any(|s| self.final_guess(s) > mine);
        if threat { END_WEIGHT } else { 0.0 }
    }

    /// The deciding seat's score now (`None`: a script failed).
    fn now(&self) -> Option<i32> {
        *self.now.get_or_init(|| {
            let kept = self.kept();
            if let Some(now) = kept.and_then(|k| k.borrow().now) {
                return now;
            }
            let now = self.game.score_total(self.seat).ok();
            if let Some(kept) = kept {
                kept.borrow_mut().now = Some(now);
            }
            now
        })
    }

    /// A seat's score now.
    fn score_of(&self, seat: usize) -> f64 {
        if seat == self.seat {
            return self.now().map_or(0.0, f64::from);
        }
        let known = self.scores.borrow().get(seat).copied().unwrap_or(f64::NAN);
        if !known.is_nan() {
            return known;
        }
        let score = self.other_score(seat).map_or(0.0, f64::from);
        let mut scores = self.scores.borrow_mut();
        if scores.is_empty() {
            scores.resize(self.game.players.len(), f64::NAN);
        }
        scores[seat] = score;
        score
    }

    /// A seat's final score if the game ended with a builder phase now, as
    /// anyone can guess it: its score and, with cards to build, a mean card's points.
    fn final_guess(&self, seat: usize) -> f64 {
        let builds = if self.game.players[seat].hand.len() >= 2 { self.rs.mean_vp } else { 0.0 };
        self.score_of(seat) + builds
    }

    /// A rough gain of another player in a phase it did not choose.
    fn base_gain(&self, game: &Game, seat: usize, role: Role) -> f64 {
        let rules = &self.rs.rules;
        let p = &game.players[seat];
        match role {
            Role::Builder => {
                if p.hand.len() >= 2 {
                    self.mean_keep()
                } else {
                    0.0
                }
            }
            Role::Producer => {
                let cards = &self.rs.cards;
                let empty =
                    p.city.iter().filter(|s| s.good.is_none() && cards.get(s.card).kind == Kind::Production).count();
                f64::from((empty as i32).min(rules.produce)) * self.good
            }
            Role::Trader => {
                let sale = p
                    .city
                    .iter()
                    .filter(|s| s.good.is_some())
                    .map(|s| self.mean_price(s.card) * self.hand - self.good)
                    .fold(0.0, f64::max);
                sale * f64::from(rules.sell.min(p.goods() as i32))
            }
            Role::Councillor => self.hand * f64::from(rules.council_keep) + self.best_of(rules.council_draw),
            Role::Prospector => 0.0,
        }
    }

    /// What choosing `role` (privilege × `factor`) brings the chooser in its phase.
    fn own_gain(&self, game: &Game, seat: usize, role: Role, factor: i32) -> f64 {
        let rules = &self.rs.rules;
        let p = &game.players[seat];
        match role {
            Role::Builder => {
                let budget = p.hand.len() as i32 - 1;
                let cost_now = game.build_costs_now(seat);
                let may_end = self.may_end(true);
                Game::distinct(p.hand.iter().copied())
                    .filter_map(|c| {
                        let cost = (cost_now(c).ok()? - rules.builder_discount * factor).max(0);
                        (cost <= budget).then(|| {
                            // `+ 0.0` as `end_bonus` gives it, so that a -0.0 stays what it was.
                            let end = if may_end { self.end_bonus(|| self.gain(c), true) } else { 0.0 };
                            self.owned(c) - self.hand * f64::from(cost + 1) + end
                        })
                    })
                    .fold(0.0, f64::max)
            }
            Role::Producer => {
                let cards = &self.rs.cards;
                let empty =
                    p.city.iter().filter(|s| s.good.is_none() && cards.get(s.card).kind == Kind::Production).count();
                let n = (empty as i32).min(rules.produce + rules.producer_privilege * factor).max(0);
                f64::from(n) * self.good
            }
            Role::Trader => {
                // On the stack: a role's worth is asked for every role of every decision.
                let mut sales: SmallVec<[f64; 16]> = p
                    .city
                    .iter()
                    .filter(|s| s.good.is_some())
                    .map(|s| self.mean_price(s.card) * self.hand - self.good)
                    .collect();
                sales.sort_by(|a, b| b.total_cmp(a));
                let n = (rules.sell + rules.trader_privilege * factor).max(0) as usize;
                sales.iter().take(n).filter(|v| **v > 0.0).sum()
            }
            Role::Councillor => {
                let draw = rules.council_draw + rules.council_privilege * factor;
                self.hand * f64::from(rules.council_keep) + self.best_of(draw)
            }
            Role::Prospector => f64::from(rules.prospector_privilege * factor) * (self.hand + self.mean_keep()),
        }
    }

    /// The mean price of this building's good over the trading tiles.
    fn mean_price(&self, building: CardIdx) -> f64 {
        self.rs.mean_prices.get(usize::from(building)).copied().unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::turns::TurnGame as _;

    #[test]
    fn kept_deck_values_serve_only_their_model_and_time_left() {
        let mut kept = DeckKeeps::default();
        let made = std::cell::Cell::new(0);
        let make = |mean: f64| {
            made.set(made.get() + 1);
            vec![(mean, 2.0)]
        };
        assert_eq!(kept.get_or_make(&[1.0, 2.0], 0.5, || make(1.0)).mean, 1.0);
        assert_eq!(kept.get_or_make(&[1.0, 2.0], 0.5, || make(9.0)).mean, 1.0, "kept");
        assert_eq!(made.get(), 1);
        assert_eq!(kept.get_or_make(&[1.0, 2.5], 0.5, || make(2.0)).mean, 2.0, "another model");
        assert_eq!(kept.get_or_make(&[1.0, 2.5], 0.25, || make(3.0)).mean, 3.0, "another time left");
        assert_eq!(made.get(), 3);
        // Every time left met is kept.
        assert_eq!(kept.get_or_make(&[1.0, 2.5], 0.5, || make(4.0)).mean, 2.0, "kept for the model");
        assert_eq!(made.get(), 3);
        // Weights that differ in one bit (a negative zero) are another model.
        assert_eq!(kept.get_or_make(&[1.0, -0.0], 0.5, || make(6.0)).mean, 6.0);
        assert_eq!(kept.get_or_make(&[1.0, 0.0], 0.5, || make(7.0)).mean, 7.0);
        assert_eq!(kept.get_or_make(&[1.0, 2.5], 0.5, || make(8.0)).mean, 8.0, "forgotten for another model");
        // The councillor's best of k is worked out once per k.
        let keeps = kept.get_or_make(&[1.0, 2.5], 0.25, || make(5.0));
        assert_eq!(keeps.mean, 5.0);
        assert_eq!((keeps.best_of(2, || 7.0), keeps.best_of(3, || 8.0)), (7.0, 8.0));
        assert_eq!((keeps.best_of(2, || 0.0), keeps.best_of(3, || 0.0)), (7.0, 8.0));
        // Past the kept ones (and below none), worked out each time.
        let k = BEST_KEPT as i32;
        assert_eq!((keeps.best_of(k, || 1.0), keeps.best_of(k, || 2.0)), (1.0, 2.0));
        assert_eq!((keeps.best_of(-1, || 3.0), keeps.best_of(-1, || 4.0)), (3.0, 4.0));
    }

    #[test]
    fn keeps_sorted_from_any_order_are_a_stable_sort_of_the_deck() {
        // Ties (among them the zeros of cards worth nothing, and a negative
        // zero) stay in card order, whatever order the last sort left.
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        let mut order = Vec::new();
        for round in 0..200 {
            let len = 1 + next(40) as usize;
            let cards: Vec<(f64, f64)> = (0..len)
                .map(|i| {
                    let keep = match next(5) {
                        0 => 0.0,
                        1 => -0.0,
                        2 => 1.5,
                        _ => next(1000) as f64 / 7.0,
                    };
                    (keep, (i % 3 + 1) as f64)
                })
                .collect();
            let mut expected = cards.clone();
            expected.sort_by(|a, b| a.0.total_cmp(&b.0));
            let keeps = Keeps::sorted_from(&cards, &mut order);
            let bits = |v: &[(f64, f64)]| v.iter().map(|(k, c)| (k.to_bits(), c.to_bits())).collect::<Vec<_>>();
            assert_eq!(bits(&keeps.sorted), bits(&expected), "round {round}");
            let (sum, n) = cards.iter().fold((0.0, 0.0), |(s, n), (k, c)| (s + k * c, n + c));
            assert_eq!(keeps.mean.to_bits(), (sum / n).to_bits());
        }
    }

    /// A ruleset over the 2nd edition with `scripts` as extra city buildings
    /// (id, `on_score` body), so that a scoring that reads more than scalars is among them.
    fn with_scorers(scripts: &[(&str, &str)]) -> (tempfile::TempDir, Arc<Ruleset>) {
        let cards: Vec<(&str, &str, String)> = scripts
            .iter()
            .map(|(id, body)| {
                (*id, "kind = \"city\"\ncost = 1\nvp = 1\ncopies = 3", format!("fn on_score(ctx) {{ {body} }}"))
            })
            .collect();
        crate::house::house("second-edition", &cards)
    }

    /// A model for `rs` whose i-th weight is `weight(i)`.
    fn model_with(rs: &Ruleset, weight: impl Fn(usize) -> f64) -> ValueModel {
        let features = feature_names(rs);
        ValueModel {
            version: ValueModel::VERSION,
            start: None,
            game: "san-juan".into(),
            ruleset: rs.id.clone(),
            fingerprint: rs.fingerprint.clone(),
            games: 0,
            rounds: 0,
            seed: 0,
            weights: (0..features.len()).map(weight).collect(),
            features,
            by_start: false,
            memos: Default::default(),
        }
    }

    #[test]
    fn kept_scores_value_every_decision_as_a_copy_without_them_does() {
        // The scorers of `with_scorers`: some answer from the city alone
        // (kept between decisions), some read the table (never kept). Every
        // built-in ruleset too; random play; the bot's values of every legal
        // action, from the game (its scores kept since the start) and from a
        // copy made for the decision (none kept), bit for bit.
        let scorers = [
            ("by_hands", "ctx.hand_sizes[0]"),
            ("by_kind", "ctx.count_kind(\"production\") * 2"),
            ("by_subtotal", "ctx.subtotal / 5"),
            ("by_goods", "ctx.goods * ctx.count_kind(\"production\")"),
            ("by_own_city", "let n = 0; for b in ctx.buildings { n += b.cost; } n"),
            ("by_others", "let n = 0; for city in ctx.others { n += city.len(); } n / 2"),
            ("by_round", "if ctx.round > 5 { 2 } else { 0 }"),
        ];
        let (_dir, house) = with_scorers(&scorers);
        let by_city: Vec<&str> = (0..house.cards.len())
            .filter(|&c| house.scores_by_city[c] && house.scripts.listens(Hook::Score as usize, c))
            .map(|c| house.cards.id(c as CardIdx))
            .collect();
        assert_eq!(
            by_city,
            [
                "guild_hall",
                "city_hall",
                "triumphal_arch",
                "palace",
                "by_kind",
                "by_subtotal",
                "by_goods",
                "by_own_city"
            ]
        );
        assert!(house.score_city_reads.goods && !house.score_city_reads.uses);
        // A good placed keeps the city's cards but not its kept scores, when a scorer reads goods.
        {
            let card = |id: &str| house.cards.idx(id).unwrap();
            let model = model_with(&house, |_| 0.5);
            let mut game = Game::new(house.clone(), 3, 0).unwrap();
            game.players[0].city = vec![Slot::new(card("by_goods"), true), Slot::new(card("indigo_plant"), true)];
            game.refresh_hook_masks();
            let mut memo = Memo::default();
            let mut gain = |game: &Game| Values::new(game, 0, &model, &mut memo).gain(card("sugar_mill"));
            assert_eq!(gain(&game), 1.0 + 0.0, "a sugar mill's printed point, and no goods to count");
            game.players[0].city[1].good = Some(card("smithy"));
            assert_eq!(gain(&game), 1.0 + 1.0, "and now one good, counted once more");
            assert_eq!(gain(&game.clone()), 2.0);
            let fresh = Values::new(&game, 0, &model, &mut Memo::default()).gain(card("sugar_mill"));
            assert_eq!(fresh, 2.0, "a memo that kept nothing agrees");
        }
        let mut rulesets: Vec<Arc<Ruleset>> =
            ["second-edition", "first-edition", "second-edition-expansion"].map(|id| Ruleset::load(id).unwrap()).into();
        rulesets.push(house);
        for rs in rulesets {
            let model = model_with(&rs, |i| ((i * 37 % 11) as f64 - 4.0) / 3.0);
            let (mut kept_values, mut fresh_values, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
            // One memo over every game, as a bot's model keeps it from game to game.
            let mut memo = Memo::default();
            let (mut decisions, mut with_goods_scorer) = (0, 0);
            let games = if rs.id == "house" { 12 } else { 3 };
            for seed in 0..games {
                let mut game = Game::new(rs.clone(), 3, seed).unwrap();
                let mut pick = seed as usize;
                while game.to_move().is_some() {
                    let legal = game.legal().to_vec();
                    game.action_values(&legal, &model, &mut scratch, &mut memo, &mut kept_values);
                    game.action_values(&legal, &model, &mut scratch, &mut Memo::default(), &mut fresh_values);
                    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&kept_values), bits(&fresh_values), "{} seed {seed} {legal:?}", rs.id);
                    decisions += 1;
                    with_goods_scorer += usize::from(
                        game.players.iter().any(|p| p.owns(rs.cards.idx("by_goods").unwrap_or(CardIdx::MAX))),
                    );
                    pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    game.play(legal[(pick >> 33) % legal.len()]).unwrap();
                }
            }
            assert!(decisions > 300, "{}: {decisions}", rs.id);
            if rs.id == "house" {
                assert!(with_goods_scorer > 100, "a scorer that reads goods is in play: {with_goods_scorer}");
            }
        }
    }

    /// Four 3-player games of the corpus's reservation desk (seat 0 owns one),
    /// every move picked by a fixed sequence: `at` sees each decision with the
    /// model, before it is answered.
    fn desk_games(mut at: impl FnMut(&Game, &[Action], &ValueModel)) {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/san-juan/reservation_desk/ruleset.toml");
        let rs = Ruleset::load(path).unwrap();
        let model = model_with(&rs, |i| ((i * 37 % 11) as f64 - 4.0) / 3.0);
        for seed in 0..4 {
            let mut game = Game::new(rs.clone(), 3, seed).unwrap();
            let desk = rs.cards.idx("reservation_desk").unwrap();
            game.players[0].city.push(Slot::new(desk, true));
            game.refresh_hook_masks();
            let mut pick = seed as usize;
            while game.to_move().is_some() {
                let legal = game.legal().to_vec();
                at(&game, &legal, &model);
                pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                game.play(legal[(pick >> 33) % legal.len()]).unwrap();
            }
        }
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn a_script_s_choice_is_judged_alike_with_the_memo_its_copies_keep_across_decisions() {
        // Each answer to the reservation desk's question is played on a copy;
        // the copies keep one memo inside the bot's, across the answers and
        // the game's decisions (as the bot keeps its own). Their values must
        // be the ones copies with a fresh memo each give, bit for bit.
        let (mut kept, mut fresh, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
        let mut memo = Memo::default();
        let mut choices = 0;
        desk_games(|game, legal, model| {
            game.action_values(legal, model, &mut scratch, &mut memo, &mut kept);
            if matches!(game.pending(), Some(Decision::Pick { .. } | Decision::Choose { .. })) {
                game.action_values(legal, model, &mut scratch, &mut Memo::default(), &mut fresh);
                assert_eq!(bits(&kept), bits(&fresh), "{legal:?}");
                choices += 1;
            }
        });
        assert!(memo.played.is_some(), "the copies' memo is kept in the bot's");
        assert!(choices > 10, "{choices} choices");
    }

    #[test]
    fn the_quick_judgement_answers_the_game_s_own_decisions_and_leaves_a_script_s_choice_to_play() {
        // The corpus's reservation desk asks at every builder's turn which
        // hand card to set aside (a script's choice): that is played on a
        // copy; the game's own decisions (a role, a build, a payment) are
        // judged quickly, with the values `action_values` gives them.
        let (mut quick, mut full, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
        let (mut choices, mut own) = (0, 0);
        desk_games(|game, legal, model| {
            let answered = game.quick_values(legal, model, &mut Memo::default(), &mut quick);
            if matches!(game.pending(), Some(Decision::Pick { .. } | Decision::Choose { .. })) {
                assert!(!answered, "a script's choice is played, not judged quickly");
                choices += 1;
            } else {
                assert!(answered, "{:?}", game.pending());
                game.action_values(legal, model, &mut scratch, &mut Memo::default(), &mut full);
                assert_eq!(bits(&quick), bits(&full));
                own += 1;
            }
        });
        assert!(choices > 10 && own > 300, "{choices} choices, {own} of the game's own decisions");
    }

    #[test]
    fn a_remembered_score_is_the_score_of_a_copy_with_the_building_built() {
        // Every built-in ruleset, and scorers that read a hand size, the
        // rounds the owner's buildings were built in and the goods in the
        // other cities (remembered by the row of what they read), a kind's
        // count (keyed by the city), the subtotal, the own city's cards, the
        // other cities', the cities' sizes and whether anyone built a
        // building (remembered by the cities' cards); random play, every
        // seat, every card built new and over the first building.
        let scorers = [
            ("by_hands", "ctx.hand_sizes[0]"),
            (
                "by_rounds",
                "let r = 0; for b in ctx.table.players[ctx.seat].buildings { if b.card == ctx.card { r = b.built; } } \
                 if r <= 5 { 6 } else { 2 }",
            ),
            (
                "by_goods_around",
                "let n = 0; for p in ctx.table.players { if p.seat != ctx.seat { \
                 for b in p.buildings { if b.good { n += 1; } } } } n",
            ),
            ("by_kind", "ctx.count_kind(\"production\") * 2"),
            ("by_subtotal", "ctx.subtotal / 5"),
            ("by_own_city", "let n = 0; for b in ctx.buildings { n += b.cost; } n"),
            ("by_others", "let n = 0; for city in ctx.others { n += city.len(); } n / 2"),
            ("by_sizes", "let c = ctx.building_counts(); c[0] * 2 + c[1] - c.len()"),
            ("by_anyone", "if ctx.built_by_anyone(\"palace\") { 3 } else { 1 }"),
        ];
        let (_dir, house) = with_scorers(&scorers);
        let (_fresh_dir, house_fresh) = with_scorers(&scorers);
        let mut rulesets: Vec<Arc<Ruleset>> =
            ["second-edition", "first-edition", "second-edition-expansion"].map(|id| Ruleset::load(id).unwrap()).into();
        rulesets.push(house);
        for rs in rulesets {
            // The same ruleset loaded again, its memo emptied before each
            // reference: scripts that really run, not the memo under test.
            let fresh = if rs.id == "house" { Arc::clone(&house_fresh) } else { Ruleset::load(&rs.id).unwrap() };
            let (mut remembered, mut asked, mut by_table) = (0, 0, 0);
            for seed in 0..3 {
                let mut game = Game::new(rs.clone(), 3, seed).unwrap();
                let mut pick = seed as usize;
                while game.to_move().is_some() {
                    for seat in 0..3 {
                        let now = game.score_total(seat).unwrap();
                        let city_len = game.players[seat].city.len();
                        for c in 0..rs.cards.len() as CardIdx {
                            let overs: &[Option<usize>] = if city_len > 0 { &[None, Some(0)] } else { &[None] };
                            for &over in overs {
                                let mut city = game.players[seat].city.clone();
                                build_in(&mut city, c, over);
                                let mask = game.city_mask(&city);
                                // The bot's way: a copy scored through the memo, which it fills.
                                let mut copy = game.clone();
                                game.points_if_built(&mut copy, seat, c, over, now);
                                asked += 1;
                                let Some(total) = game.remembered_total(seat, &city, mask) else {
                                    continue;
                                };
                                by_table +=
                                    usize::from(["by_hands", "by_rounds", "by_goods_around"].contains(&rs.cards.id(c)));
                                let mut reference = game.clone();
                                reference.rs = Arc::clone(&fresh);
                                reference.players[seat].city = city.clone();
                                reference.refresh_hook_masks();
                                fresh.scripts.forget();
                                let expected = reference.score_total(seat);
                                assert_eq!(
                                    total.ok(),
                                    expected.ok(),
                                    "{} seat {seat} card {} over {over:?} city {:?}",
                                    rs.id,
                                    rs.cards.id(c),
                                    game.players[seat].city.iter().map(|s| rs.cards.id(s.card)).collect::<Vec<_>>()
                                );
                                remembered += 1;
                            }
                        }
                    }
                    pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let legal = game.legal();
                    let action = legal[(pick >> 33) % legal.len()];
                    game.play(action).unwrap();
                }
            }
            // Most positions were met before (the copy's scoring remembered them).
            assert!(remembered * 2 > asked, "{}: {remembered} of {asked}", rs.id);
            if rs.id == "house" {
                assert!(by_table > 100, "scorers reading the table are remembered: {by_table}");
            }
        }
    }
}
