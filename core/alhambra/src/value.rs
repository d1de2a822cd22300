//! The Alhambra card game as the balance bot sees it
//! ([`engine_play::value`]): a collector's position as numbers, and a quick
//! estimate of every action's worth from them.
//!
//! Features, for one collector, each against the mean of the other players
//! (what the model learns is the final margin over them): points so far; per
//! scoring not yet done, the majority points the buildings held now would
//! bring in it (the ruleset's own scoring), alone and weighted by how near
//! the scoring is (its card's pile against the money deck left; the game's
//! progress for the last); per building type, the lead in buildings (its
//! weight is what a type is worth beyond the majorities); the money in hand
//! (value and cards up to twice what the display costs, value per currency
//! up to a mean price, the buildings on display it could pay for and pay
//! exactly), and the other players' hand sizes (their cards are hidden).
//! Their weights come from self-play.
//!
//! An action is judged by the position at the end of the seat's turn, worked
//! out here without copying the game and without drawing a card (which would
//! peek at the decks): a take by the best set of cards it can start, a
//! purchase by the best payment, kept or donated, and after an exact payment
//! by the best further action. Only what an action changes is valued (the
//! model is linear and additive over building types), which keeps the bot
//! quick.

use std::borrow::Cow;

use engine_game::Game as _;
use std::cell::RefCell;

use engine_play::value::{Features, ValueModel, by_playing_quick};
use smallvec::SmallVec;

use crate::actions::Action;
use crate::game::{Decision, Game};
use crate::hooks::MAX_COLLECTORS;

use crate::ruleset::{MAX_TYPES, Money, PayMask, Ruleset, SUMS};

/// The features that do not depend on the scorings, in order.
const BASE: [&str; 11] = [
    "bias",
    "progress",
    "points",
    "money_usable",
    "money_usable_late",
    "cards_usable",
    "money_capped",
    "affordable",
    "exact",
    "cards_others",
    "scorings_held",
];
const BIAS: usize = 0;
const PROGRESS: usize = 1;
const POINTS: usize = 2;
const MONEY: usize = 3;
const MONEY_LATE: usize = 4;
const CARDS: usize = 5;
const MONEY_CAPPED: usize = 6;
const AFFORDABLE: usize = 7;
const EXACT: usize = 8;
const CARDS_OTHERS: usize = 9;
const SCORINGS_HELD: usize = 10;
/// Per scoring: its majority points now, and the same weighted by nearness.
const PER_SCORING: usize = 2;

/// The features' names for a ruleset.
pub fn feature_names(rs: &Ruleset) -> Vec<String> {
    let mut names: Vec<String> = BASE.iter().map(|s| (*s).to_owned()).collect();
    for s in &rs.scorings {
        names.push(format!("majority:{}", s.name));
        names.push(format!("majority_near:{}", s.name));
    }
    for t in &rs.types {
        names.push(format!("lead:{}", t.id));
    }
    names
}

/// Buildings per type of every collector (the players, then the neutral one).
type Counts = [[u8; MAX_TYPES]; MAX_COLLECTORS];

/// What stays the same during one seat's turn: who, how far the game is,
/// how near each scoring is.
struct Frame<'a> {
    game: &'a Game,
    seat: usize,
    collectors: usize,
    progress: f64,
    /// Per scoring: 0 once done, else how near it is (0..1).
    near: SmallVec<[f64; 8]>,
    /// The price above which money of one currency counts no more in `money_capped`.
    cap: u32,
    /// Twice what the buildings on display cost together: the money this
    /// display and the next could take; money held past it is worth nothing.
    usable: u32,
    /// The buildings on display: slot, the currencies that pay it (a bit each), its price to the seat.
    slots: SmallVec<[(usize, PayMask, u32); 8]>,
}

impl<'a> Frame<'a> {
    fn new(game: &'a Game, seat: usize) -> Frame<'a> {
        let rs = game.rules();
        let total: usize = rs.buildings.iter().map(|b| usize::from(b.copies)).sum();
        let progress = 1.0 - game.building_deck_size() as f64 / total.max(1) as f64;
        let last = rs.scorings.len() - 1;
        // About a round of draws: a player takes one or two cards a turn.
        let horizon = 2 * game.num_players();
        let len = game.deck.len();
        let near = (0..rs.scorings.len())
            .map(|k| {
                if game.scored.contains(&(k as u8)) {
                    return 0.0;
                }
                if k == last {
                    return progress.clamp(0.0, 1.0);
                }
                // Where the card may lie (indices from the bottom; the top is drawn first).
                let Some((lo, hi)) = game.scoring_range.get(k).copied() else { return 0.0 };
                let (lo, hi) = (lo.min(len), hi.min(len));
                if hi <= lo {
                    return 1.0;
                }
                let soon = (lo..hi).filter(|&i| len - i <= horizon).count();
                soon as f64 / (hi - lo) as f64
            })
            .collect();
        let cap = rs.buildings.iter().map(|b| u32::from(b.price)).sum::<u32>() / rs.buildings.len().max(1) as u32;
        let slots: SmallVec<[(usize, PayMask, u32); 8]> = (game.building_display().iter().enumerate())
            .filter_map(|(slot, b)| {
                b.as_ref()?;
                Some((slot, game.pays_mask(slot as u8), game.price_at(slot as u8)))
            })
            .collect();
        Frame {
            game,
            seat,
            collectors: game.num_players() + usize::from(game.neutral().is_some()),
            progress,
            near,
            cap: cap.max(1),
            usable: 2 * slots.iter().map(|s| s.2).sum::<u32>(),
            slots,
        }
    }

    fn counts(&self) -> Counts {
        let mut c = [[0u8; MAX_TYPES]; MAX_COLLECTORS];
        let g = self.game;
        for (i, p) in (0..g.num_players()).map(|s| g.player(s)).chain(g.neutral()).enumerate() {
            c[i] = p.counts;
        }
        c
    }

    /// Type `t`'s majority points for `counts` against the mean other
    /// player, per scoring not yet done: `f(feature index, points, nearness)`.
    fn per_scoring(&self, counts: &Counts, t: usize, mut f: impl FnMut(usize, f64, f64)) {
        let rs = self.game.rules();
        let players = self.game.num_players();
        for (k, &near) in self.near.iter().enumerate() {
            if self.game.scored.contains(&(k as u8)) {
                continue;
            }
            let p = rs.type_points(k, t, &counts[..self.collectors]).unwrap_or_default();
            let others: i32 = (0..players).filter(|&s| s != self.seat).map(|s| p[s]).sum();
            let rel = f64::from(p[self.seat]) - f64::from(others) / (players - 1).max(1) as f64;
            f(BASE.len() + PER_SCORING * k, rel, near);
        }
    }

    /// Where type `t`'s lead feature is.
    fn lead_at(&self, t: usize) -> usize {
        BASE.len() + PER_SCORING * self.near.len() + t
    }

    /// The seat's buildings of type `t` against the mean other player's.
    fn lead(&self, counts: &Counts, t: usize) -> f64 {
        let players = self.game.num_players();
        let others: u32 = (0..players).filter(|&s| s != self.seat).map(|s| u32::from(counts[s][t])).sum();
        f64::from(counts[self.seat][t]) - f64::from(others) / (players - 1).max(1) as f64
    }

    /// Writes the features that depend on the hand (and the display's buildings left, `gone` taken).
    fn set_hand(&self, hand: &[Money], gone: u32, out: &mut [f64]) {
        let mut sums = [0u32; SUMS];
        for m in hand {
            sums[m.currency as usize] += u32::from(m.value);
        }
        self.set_sums(&sums, hand.len(), gone, out, |_, pays, price| paid_exactly(hand, pays, price));
    }

    /// The money features: the hand's money and its size, each only as far
    /// as [`Frame::usable`] (a model linear in the whole hand taught the bot to
    /// hoard: in designs where hands outgrew every display, 5 to 41 of 100
    /// games stalled), and its money capped per currency.
    fn set_money(&self, money: u32, len: usize, capped: u32, out: &mut [f64]) {
        let usable = money.min(self.usable);
        out[MONEY] = f64::from(usable);
        out[MONEY_LATE] = f64::from(usable) * self.progress;
        // Each card counts for the share of the hand the display can take.
        out[CARDS] = if money > usable { len as f64 * f64::from(usable) / f64::from(money) } else { len as f64 };
        out[MONEY_CAPPED] = f64::from(capped);
    }

    /// The hand features from a hand's sum per currency and size; `exact(k,
    /// pays, price)` says whether the hand pays the `k`-th building on display exactly.
    fn set_sums(
        &self,
        sums: &[u32; SUMS],
        len: usize,
        gone: u32,
        out: &mut [f64],
        exact_at: impl Fn(usize, PayMask, u32) -> bool,
    ) {
        self.set_money(sums.iter().sum(), len, sums.iter().map(|&s| s.min(self.cap)).sum(), out);
        let (mut affordable, mut exact) = (0.0, 0.0);
        for (k, &(slot, pays, price)) in self.slots.iter().enumerate() {
            // The currencies that pay, one set bit each (mostly one).
            let (mut sum, mut bits) = (0u32, pays);
            while bits != 0 {
                sum += sums[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            if gone & (1 << slot) != 0 || sum < price {
                continue;
            }
            affordable += 1.0;
            if exact_at(k, pays, price) {
                exact += 1.0;
            }
        }
        out[AFFORDABLE] = affordable;
        out[EXACT] = exact;
    }

    /// The hand as [`Frame::set_state`] reads it, or `None` when a price on
    /// display is too high for its one-word sums (then [`Frame::set_hand`] adds up the hand).
    fn state_of(&self, hand: &[Money]) -> Option<HandState> {
        if self.slots.len() > MAX_SLOTS || self.slots.iter().any(|s| s.2 >= 64) {
            return None;
        }
        let mut state = HandState { sums: [0; SUMS], reach: [1; MAX_SLOTS], len: 0 };
        for &m in hand {
            self.add(&mut state, m);
        }
        Some(state)
    }

    /// `state` with the card `m` added.
    fn add(&self, state: &mut HandState, m: Money) {
        state.sums[m.currency as usize] += u32::from(m.value);
        state.len += 1;
        for (k, &(_, pays, price)) in self.slots.iter().enumerate() {
            if pays & (1 << m.currency) != 0 && u32::from(m.value) <= price {
                state.reach[k] |= state.reach[k] << m.value;
            }
        }
    }

    /// [`Frame::set_hand`] from a hand state: the same features, without going over its cards.
    fn set_state(&self, state: &HandState, gone: u32, out: &mut [f64]) {
        self.set_sums(&state.sums, state.len, gone, out, |k, _, price| state.reach[k] & (1 << price) != 0);
    }

    /// Every feature of the position with these counts and this hand; its
    /// board from `memo` when one is given.
    fn all(&self, counts: &Counts, hand: &[Money], out: &mut Vec<f64>, memo: Option<&mut Memo>) {
        let g = self.game;
        let rs = g.rules();
        out.clear();
        out.resize(BASE.len() + PER_SCORING * rs.scorings.len() + rs.types.len(), 0.0);
        let players = g.num_players();
        let others = (players - 1).max(1) as f64;
        let mean_other =
            |f: &dyn Fn(usize) -> f64| (0..players).filter(|&s| s != self.seat).map(f).sum::<f64>() / others;
        out[BIAS] = 1.0;
        out[PROGRESS] = self.progress;
        out[POINTS] = f64::from(g.points(self.seat)) - mean_other(&|s| f64::from(g.points(s)));
        out[CARDS_OTHERS] = mean_other(&|s| g.player(s).hand().len() as f64);
        out[SCORINGS_HELD] = g.scored.len() as f64;
        // The scorings done as a bit each (none past the 64th: then nothing is kept).
        let scored = g.scored.iter().try_fold(0u64, |m, &k| Some(m | 1u64.checked_shl(u32::from(k))?));
        match (memo, scored) {
            (Some(memo), Some(scored)) => {
                if memo.boards.len() >= MEMO_BOARDS {
                    memo.boards.clear();
                }
                let key = (self.seat as u8, self.collectors as u8, scored, *counts);
                let board = memo.boards.entry(key).or_insert_with(|| self.board(counts));
                self.add_board(board, out);
            }
            _ => self.add_board(&self.board(counts), out),
        }
        self.set_hand(hand, 0, out);
    }

    /// What the board features read of the buildings: per type, the seat's
    /// majority points against the mean other player in each scoring (none
    /// for a scoring done), then its lead in buildings. They hang on the
    /// counts alone, while the positions a bot judges share most of them.
    fn board(&self, counts: &Counts) -> Board {
        let scorings = self.near.len();
        let mut board: Board = SmallVec::new();
        for t in 0..self.game.rules().types.len() {
            let at = board.len();
            board.extend(std::iter::repeat_n(0.0, scorings));
            self.per_scoring(counts, t, |f, rel, _| board[at + (f - BASE.len()) / PER_SCORING] = rel);
            board.push(self.lead(counts, t));
        }
        board
    }

    /// Adds a [`Frame::board`] to the features, in the order they were always added up.
    fn add_board(&self, board: &[f64], out: &mut [f64]) {
        let rs = self.game.rules();
        let scorings = self.near.len();
        for (t, row) in board.chunks_exact(scorings + 1).enumerate().take(rs.types.len()) {
            for (k, &near) in self.near.iter().enumerate() {
                if self.game.scored.contains(&(k as u8)) {
                    continue;
                }
                let at = BASE.len() + PER_SCORING * k;
                out[at] += row[k];
                out[at + 1] += row[k] * near;
            }
            out[self.lead_at(t)] = row[scorings];
        }
    }
}

/// [`Frame::board`]: per type, a value per scoring and the lead.
type Board = SmallVec<[f64; 32]>;

/// Most boards a [`Memo`] keeps (it starts again when full).
const MEMO_BOARDS: usize = 1 << 12;

/// A board's key: the seat, the number of collectors, the scorings done (a bit each) and the counts.
type BoardKey = (u8, u8, u64, Counts);

/// Most buildings on display a [`HandState`] follows (a ruleset may show more: then the hand is added up each time).
const MAX_SLOTS: usize = 8;

/// What the hand features read of a hand: its sum per currency, its size,
/// and per building on display (as [`Frame`] lists them) the exact sums its
/// paying cards reach (bit `s` set: some of them add up to `s`; prices below 64).
#[derive(Clone, Copy)]
struct HandState {
    sums: [u32; SUMS],
    reach: [u64; MAX_SLOTS],
    len: usize,
}

/// Whether some of the cards in `hand` of the currencies in `pays` (a bit each) add up to `price` exactly.
fn paid_exactly(hand: &[Money], pays: PayMask, price: u32) -> bool {
    if price < 64 {
        let mut reach = 1u64;
        for m in hand {
            if pays & (1 << m.currency) != 0 && u32::from(m.value) <= price {
                reach |= reach << m.value;
            }
        }
        return reach & (1 << price) != 0;
    }
    let mut reach = [1u64, 0, 0, 0];
    for m in hand {
        if pays & (1 << m.currency) != 0 {
            shift_or(&mut reach, usize::from(m.value));
        }
    }
    price < 256 && reach[price as usize / 64] & (1 << (price % 64)) != 0
}

/// `bits |= bits << by` over 256 bits (sums above 255 are dropped).
fn shift_or(bits: &mut [u64; 4], by: usize) {
    if by == 0 || by >= 256 {
        return;
    }
    let (words, rem) = (by / 64, by % 64);
    for i in (0..4).rev() {
        let mut v = 0;
        if i >= words {
            v = bits[i - words] << rem;
            if rem > 0 && i > words {
                v |= bits[i - words - 1] >> (64 - rem);
            }
        }
        bits[i] |= v;
    }
}

/// The ways to pay `owed` from cards of these values (largest first), each
/// given to `f` as a mask of indices into `values` and its total: a payment
/// stops once the price is reached, so all but its largest card pay less than
/// `owed`. One way per total and number of cards (the hand's features see no
/// more), the larger cards first.
fn payments(values: &[u32], owed: u32, mut f: impl FnMut(u64, u32)) {
    let values = &values[..values.len().min(64)];
    let n = values.len();
    // A way is told apart by its total over the price (less than its largest
    // card) and its number of cards: one bit each, in place of a list searched.
    let width = values.iter().max().map_or(0, |&v| v as usize);
    let seen: SmallVec<[u64; 4]> = SmallVec::from_elem(0, (width * (n + 1)).div_ceil(64).max(1));
    // ends[j]: the cards from j on, added up, and the steps a walk from j
    // takes where no way lies (every set short of the price): the walk's
    // budget is spent as it would be, without the walk.
    let mut ends: SmallVec<[(u32, u32); 16]> = SmallVec::from_elem((0, 1), n + 1);
    let mut distinct = 0u32;
    for j in (0..n).rev() {
        let (rest, below) = ends[j + 1];
        ends[j] = (rest + values[j], 1u32.saturating_add(below).saturating_add(distinct));
        if j == 0 || values[j] != values[j - 1] {
            distinct = distinct.saturating_add(below);
        }
    }
    let mut w = Walk { values, owed, width, seen, ends, budget: PAYMENT_STEPS, f: &mut f };
    if w.budget == 0 {
        return;
    }
    w.budget -= 1;
    for j in 0..n {
        if j > 0 && values[j] == values[j - 1] {
            continue;
        }
        if !w.step(j, 1 << j, values[j], values[j]) {
            return;
        }
    }
}

/// [`payments`]' search: depth first, the larger cards first, at most
/// [`PAYMENT_STEPS`] sets looked at.
struct Walk<'v, F> {
    values: &'v [u32],
    owed: u32,
    width: usize,
    seen: SmallVec<[u64; 4]>,
    /// Per first card: the cards from it on, added up, and the steps of a walk from it that finds nothing.
    ends: SmallVec<[(u32, u32); 16]>,
    /// Steps left: a large hand of small cards has very many ways to pay.
    budget: u32,
    f: F,
}

impl<F: FnMut(u64, u32)> Walk<'_, F> {
    /// Looks at the set `chosen` (card `j` its last, `first` its largest,
    /// `sum` its total) and the sets that add later cards to it; `false` once
    /// the budget is spent.
    fn step(&mut self, j: usize, chosen: u64, first: u32, sum: u32) -> bool {
        if self.budget == 0 {
            return false;
        }
        let (rest, below) = self.ends[j + 1];
        if sum + rest < self.owed {
            // No set from here reaches the price: only the steps are counted.
            self.budget = self.budget.saturating_sub(below);
            return self.budget > 0;
        }
        self.budget -= 1;
        if sum - first >= self.owed {
            return true;
        }
        if sum >= self.owed {
            let bit = (sum - self.owed) as usize * (self.values.len() + 1) + chosen.count_ones() as usize;
            debug_assert!(bit < self.width * (self.values.len() + 1));
            if self.seen[bit / 64] & (1 << (bit % 64)) == 0 {
                self.seen[bit / 64] |= 1 << (bit % 64);
                (self.f)(chosen, sum);
            }
        }
        for k in j + 1..self.values.len() {
            if k > j + 1 && self.values[k] == self.values[k - 1] {
                continue;
            }
            if !self.step(k, chosen | (1 << k), first, sum + self.values[k]) {
                return false;
            }
        }
        true
    }
}

/// `hand` without the cards of `mine` that `chosen` marks (a bit per card of `mine`).
fn paid(hand: &Hand, mine: &[Money], chosen: u64) -> Hand {
    let mut hand = *hand;
    for (j, &m) in mine.iter().enumerate().take(64) {
        if chosen & (1 << j) != 0 {
            hand.remove(m);
        }
    }
    hand
}

/// A hand about to pay for a building with some of its cards (`mine`, those
/// of the currencies that pay): what [`Frame::set_hand`] reads of the hand
/// left by each payment, worked out once. A building on display that none of
/// the paying currencies pay is affordable and paid exactly whatever is paid.
struct Paying<'m> {
    hand: &'m [Money],
    mine: &'m [Money],
    sums: [u32; SUMS],
    len: usize,
    gone: u32,
    /// Per building of [`Frame::slots`]: whether the whole hand pays it exactly
    /// (for one the payment cannot touch; worked out when first asked), else
    /// the exact sums reached by its cards outside `mine` (one it can touch).
    exact: SmallVec<[Exact; 8]>,
    /// Where one currency pays and no building left is paid in it: that
    /// currency, and the money features of the hand left come from the sum
    /// paid and the cards paid alone.
    alone: Option<Alone>,
}

enum Exact {
    Fixed(std::cell::OnceCell<bool>),
    From(u64),
}

/// [`Paying`] in one currency that no building left is paid in.
struct Alone {
    currency: usize,
    /// The hand's money of the other currencies, each capped ([`Frame::cap`]).
    capped_others: u32,
    /// The buildings left that the hand affords, and pays exactly (neither moves with the payment).
    affordable: f64,
    exact: f64,
}

impl<'m> Paying<'m> {
    /// `None` where a price is too large for a word of sums (then each hand is added up).
    fn new(frame: &Frame<'_>, hand: &'m [Money], mine: &'m [Money], pays: PayMask, gone: u32) -> Option<Paying<'m>> {
        if mine.len() > 64 {
            return None;
        }
        let mut sums = [0u32; SUMS];
        for m in hand {
            sums[m.currency as usize] += u32::from(m.value);
        }
        let mut exact = SmallVec::new();
        let mut touched = false;
        for &(slot, at, price) in &frame.slots {
            // A building taken is not asked about; one no paying currency pays, only when first asked.
            if gone & (1 << slot) != 0 || at & pays == 0 {
                exact.push(Exact::Fixed(std::cell::OnceCell::new()));
                continue;
            }
            if price >= 64 {
                return None;
            }
            touched = true;
            let mut reach = 1u64;
            for m in hand {
                if at & (1 << m.currency) != 0 && pays & (1 << m.currency) == 0 && u32::from(m.value) <= price {
                    reach |= reach << m.value;
                }
            }
            exact.push(Exact::From(reach));
        }
        let mut paying = Paying { hand, mine, sums, len: hand.len(), gone, exact, alone: None };
        if !touched && pays.count_ones() == 1 {
            let currency = pays.trailing_zeros() as usize;
            let capped_others =
                sums.iter().enumerate().filter(|&(c, _)| c != currency).map(|(_, &s)| s.min(frame.cap)).sum();
            let mut out = [0.0; BASE.len()];
            paying.set_slots(frame, 0, &sums, &mut out);
            paying.alone = Some(Alone { currency, capped_others, affordable: out[AFFORDABLE], exact: out[EXACT] });
        }
        Some(paying)
    }

    /// [`Frame::set_hand`] of the hand left once the cards of `mine` marked in
    /// `chosen` are paid, `paid` in all.
    fn set(&self, frame: &Frame<'_>, chosen: u64, paid: u32, out: &mut [f64]) {
        if let Some(a) = &self.alone {
            let len = self.len - chosen.count_ones() as usize;
            // The same numbers as `set_sums` (sums of whole numbers are exact in any order).
            let left = self.sums[a.currency] - paid;
            let money: u32 = self.sums.iter().sum::<u32>() - paid;
            frame.set_money(money, len, a.capped_others + left.min(frame.cap), out);
            out[AFFORDABLE] = a.affordable;
            out[EXACT] = a.exact;
            return;
        }
        let mut sums = self.sums;
        for (j, m) in self.mine.iter().enumerate() {
            if chosen & (1 << j) != 0 {
                sums[m.currency as usize] -= u32::from(m.value);
            }
        }
        self.set_slots(frame, chosen, &sums, out);
    }

    /// [`Frame::set_sums`] of the hand left by `chosen`, whose sums are `sums`.
    fn set_slots(&self, frame: &Frame<'_>, chosen: u64, sums: &[u32; SUMS], out: &mut [f64]) {
        let len = self.len - chosen.count_ones() as usize;
        frame.set_sums(sums, len, self.gone, out, |k, at, price| match &self.exact[k] {
            Exact::Fixed(e) => *e.get_or_init(|| paid_exactly(self.hand, at, price)),
            &Exact::From(mut reach) => {
                for (j, m) in self.mine.iter().enumerate() {
                    if chosen & (1 << j) == 0 && at & (1 << m.currency) != 0 && u32::from(m.value) <= price {
                        reach |= reach << m.value;
                    }
                }
                reach & (1 << price) != 0
            }
        });
    }
}

/// Most steps looking for ways to pay (the larger cards are tried first).
const PAYMENT_STEPS: u32 = 200;

/// Most money cards a judged hand holds (a larger hand is judged by its first ones).
const HAND: usize = 64;

/// A hand of money cards, kept inline: judging copies hands often.
#[derive(Clone, Copy)]
struct Hand {
    cards: [Money; HAND],
    len: usize,
}

impl Hand {
    fn of(cards: &[Money]) -> Hand {
        let mut h = Hand { cards: [Money { currency: 0, value: 0 }; HAND], len: 0 };
        for &m in cards {
            h.push(m);
        }
        h
    }

    fn cards(&self) -> &[Money] {
        &self.cards[..self.len]
    }

    fn push(&mut self, m: Money) {
        if self.len < HAND {
            self.cards[self.len] = m;
            self.len += 1;
        }
    }

    fn remove(&mut self, m: Money) -> bool {
        let Some(i) = self.cards().iter().position(|&x| x == m) else { return false };
        self.cards[i] = self.cards[self.len - 1];
        self.len -= 1;
        true
    }
}

/// A position reached within the seat's turn: its hand, the buildings it (or
/// the neutral collector) got, and the display slots emptied.
#[derive(Clone, Copy)]
struct Hypo {
    hand: Hand,
    counts: Counts,
    gone: u32,
    /// What the buildings got this turn changed in the majority features' value.
    board: f64,
}

/// How many further actions after exact payments are looked at.
const EXTRA_ACTIONS: u32 = 2;

/// `weights` with zeros added up to `n`.
fn padded(weights: &[f64], n: usize) -> Vec<f64> {
    let mut w = weights.to_vec();
    w.resize(n, 0.0);
    w
}

/// A majority value worked out: the type, its column of counts, the value.
type Known = (usize, [u8; MAX_COLLECTORS], f64);

/// Values the actions of one decision of the seat to move.
struct Judge<'a, 'm> {
    frame: Frame<'a>,
    weights: Cow<'m, [f64]>,
    /// The position at the decision.
    start: Hypo,
    /// The hand state of `start` ([`Frame::state_of`]), once a take asks for it.
    start_state: std::cell::OnceCell<Option<HandState>>,
    /// Majority values worked out: (type, its column of counts, value).
    known: RefCell<SmallVec<[Known; 16]>>,
    /// What the bot keeps between decisions.
    memo: RefCell<&'m mut Memo>,
    /// The weights of [`HAND_FEATURES`], in order (read for every hand judged).
    hand_weights: [f64; HAND_FEATURES.len()],
}

/// The features that depend on the hand, in the order their values are added up.
const HAND_FEATURES: [usize; 6] = [MONEY, MONEY_LATE, CARDS, MONEY_CAPPED, AFFORDABLE, EXACT];

/// What the balance bot keeps between its decisions: the ways to pay found
/// for a hand's card values of one currency and a price. They hang on nothing
/// else, and a seat's cards of a currency change seldom between its
/// decisions, while finding them was most of judging a purchase.
#[derive(Default)]
pub struct Memo {
    /// Hashed by rustc's quick hasher: the keys are the bot's own, not an adversary's.
    payments: rustc_hash::FxHashMap<PayKey, Box<[(u64, u32)]>>,
    /// The board features of the positions judged by playing, by their counts ([`Frame::board`]).
    boards: rustc_hash::FxHashMap<BoardKey, Board>,
    /// The spare copies an action of the ruleset's own is played on ([`Features::spares`]).
    // Boxed: a copy is taken out and put back at every answer judged (moved whole, 0.8 M a game of the reserve).
    #[allow(clippy::vec_box)]
    spares: Vec<Box<Game>>,
}

/// A price and the card values (largest first) that may pay it.
type PayKey = (u32, SmallVec<[u8; 16]>);

impl Memo {
    /// How many lists of ways to pay it holds.
    pub fn remembered(&self) -> usize {
        self.payments.len()
    }
}

/// Most ways-to-pay lists a [`Memo`] keeps (it starts again when full).
const MEMO_PAYMENTS: usize = 1 << 14;

impl<'a, 'm> Judge<'a, 'm> {
    fn new(game: &'a Game, seat: usize, weights: &'m [f64], memo: &'m mut Memo) -> Judge<'a, 'm> {
        let frame = Frame::new(game, seat);
        // A model of other features is refused where models are given
        // (`ValueModel::fits`); one too short for these would only misjudge.
        let n = BASE.len() + PER_SCORING * game.rules().scorings.len() + game.rules().types.len();
        let weights = if weights.len() >= n { Cow::Borrowed(weights) } else { Cow::Owned(padded(weights, n)) };
        let hand_weights = HAND_FEATURES.map(|i| weights[i]);
        let counts = frame.counts();
        let start = Hypo { hand: Hand::of(game.player(seat).hand()), counts, gone: 0, board: 0.0 };
        Judge {
            frame,
            weights,
            start,
            start_state: std::cell::OnceCell::new(),
            known: RefCell::new(SmallVec::new()),
            memo: RefCell::new(memo),
            hand_weights,
        }
    }

    /// The value of `action` in decision `d`, up to a constant shared by the decision's actions.
    fn action(&self, d: Decision, action: Action) -> f64 {
        let game = self.frame.game;
        let start = &self.start;
        let price = |slot: u8| game.building_display()[usize::from(slot)].map(|_| game.price_at(slot));
        match (d, action) {
            (Decision::Turn { .. }, Action::Take(m)) => self.take(start, self.start_state(), Some(m), 0),
            (Decision::Take { taken, .. }, Action::Take(m)) => self.take(start, self.start_state(), Some(m), taken),
            (Decision::Take { .. }, Action::Done) | (_, Action::Pass) => self.value(start),
            (Decision::Turn { .. }, Action::Buy(slot)) => {
                let Some(price) = price(slot) else { return f64::NEG_INFINITY };
                self.buy(start, usize::from(slot), price, 0)
            }
            (Decision::Pay { slot, paid, .. }, Action::Pay(m)) => {
                let Some(price) = price(slot) else { return f64::NEG_INFINITY };
                let mut next = *start;
                if !next.hand.remove(m) {
                    return f64::NEG_INFINITY;
                }
                let paid = paid + u32::from(m.value);
                if paid >= price {
                    self.acquire(&next, usize::from(slot), paid == price, 0)
                } else {
                    self.buy(&next, usize::from(slot), price - paid, 0)
                }
            }
            // A purchase in any one currency (a reserved building: no slot in this model): the card
            // whose loss costs least goes first, and keeping is as good as donating.
            (Decision::PayAny { .. }, Action::Pay(m)) => {
                let mut next = *start;
                if !next.hand.remove(m) {
                    return f64::NEG_INFINITY;
                }
                self.value(&next)
            }
            (Decision::Donate { slot: crate::game::ASIDE, .. }, _) => self.value(start),
            (Decision::Donate { slot, exact, .. }, Action::Keep | Action::Donate) => {
                self.acquired(start, usize::from(slot), action == Action::Donate, exact, 0)
            }
            _ => f64::NEG_INFINITY,
        }
    }

    /// [`Judge::start_state`], worked out when first asked.
    fn start_state(&self) -> Option<&HandState> {
        self.start_state.get_or_init(|| self.frame.state_of(self.start.hand.cards())).as_ref()
    }

    /// The value of type `t`'s majority features for `counts`.
    fn majority(&self, counts: &Counts, t: usize) -> f64 {
        let mut column = [0u8; MAX_COLLECTORS];
        for (c, row) in counts.iter().enumerate() {
            column[c] = row[t];
        }
        if let Some(&(_, _, v)) = self.known.borrow().iter().find(|k| k.0 == t && k.1 == column) {
            return v;
        }
        let mut v = self.weights[self.frame.lead_at(t)] * self.frame.lead(counts, t);
        self.frame
            .per_scoring(counts, t, |at, rel, near| v += self.weights[at] * rel + self.weights[at + 1] * rel * near);
        self.known.borrow_mut().push((t, column, v));
        v
    }

    /// The value of a position, up to a constant shared by the turn: the hand's
    /// features and what the buildings got changed.
    fn value(&self, h: &Hypo) -> f64 {
        self.value_of(&h.hand, h.gone, h.board)
    }

    /// [`Judge::value`] of a position's parts.
    fn value_of(&self, hand: &Hand, gone: u32, board: f64) -> f64 {
        let mut out = [0.0; BASE.len()];
        self.frame.set_hand(hand.cards(), gone, &mut out);
        board + self.hand_value(&out)
    }

    /// The weighted hand features of `out`.
    fn hand_value(&self, out: &[f64; BASE.len()]) -> f64 {
        HAND_FEATURES.iter().zip(&self.hand_weights).map(|(&i, &w)| w * out[i]).sum()
    }

    /// The best way to go on taking: `taken` so far, `first` to take now.
    /// `state` is `h`'s hand as [`Frame::state_of`] gives it (worked out once
    /// for the takes of one position).
    fn take(&self, h: &Hypo, state: Option<&HandState>, first: Option<Money>, taken: u32) -> f64 {
        let limit = self.frame.game.rules().rules.take_limit;
        let shown = self.frame.game.money_display();
        let mut display = [Money { currency: 0, value: 0 }; 16];
        let mut n = 0;
        let mut skipped = false;
        let mut taken = taken;
        for &m in shown.iter().take(16) {
            if Some(m) == first && !skipped {
                skipped = true;
                continue;
            }
            display[n] = m;
            n += 1;
        }
        let n = n.min(12);
        if let Some(state) = state
            && h.hand.len + usize::from(first.is_some()) + n <= HAND
        {
            let mut state = *state;
            if let Some(m) = first {
                self.frame.add(&mut state, m);
                taken += u32::from(m.value);
            }
            return self.take_by_states(h, &state, &display[..n], 0, taken, limit);
        }
        let mut h = *h;
        if let Some(m) = first {
            h.hand.push(m);
            taken += u32::from(m.value);
        }
        let mut best = f64::NEG_INFINITY;
        let len = h.hand.len;
        // Each subset's sum from the subset without its lowest card: one
        // addition a subset, where adding its cards up was a third of judging.
        let mut sums: SmallVec<[u32; 64]> = SmallVec::with_capacity(1 << n);
        for mask in 0u32..(1 << n) {
            let sum = match mask {
                0 => 0,
                _ => sums[(mask & (mask - 1)) as usize] + u32::from(display[mask.trailing_zeros() as usize].value),
            };
            sums.push(sum);
            if mask != 0 && taken + sum > limit {
                continue;
            }
            h.hand.len = len;
            let mut bits = mask;
            while bits != 0 {
                h.hand.push(display[bits.trailing_zeros() as usize]);
                bits &= bits - 1;
            }
            best = best.max(self.value(&h));
        }
        best
    }

    /// [`Judge::take`]'s search over the sets of cards on display, depth
    /// first: each set's hand state is its parent's with one card added (adding
    /// up the whole hand for each set was most of judging a take). `state` is
    /// the hand with the set so far, `taken` the value taken with it, `from`
    /// the first card that may join it.
    fn take_by_states(
        &self,
        h: &Hypo,
        state: &HandState,
        display: &[Money],
        from: usize,
        taken: u32,
        limit: u32,
    ) -> f64 {
        let mut out = [0.0; BASE.len()];
        self.frame.set_state(state, h.gone, &mut out);
        let mut best = h.board + self.hand_value(&out);
        for (i, &card) in display.iter().enumerate().skip(from) {
            let taken = taken + u32::from(card.value);
            // A set over the limit is not taken, nor is any set holding it.
            if taken > limit {
                continue;
            }
            let mut next = *state;
            self.frame.add(&mut next, card);
            best = best.max(self.take_by_states(h, &next, display, i + 1, taken, limit));
        }
        best
    }

    /// The best rest of a turn from `h` (a fresh action: take or buy).
    fn turn(&self, h: &Hypo, depth: u32) -> f64 {
        let game = self.frame.game;
        let mut best = f64::NEG_INFINITY;
        let mut seen: SmallVec<[Money; 16]> = SmallVec::new();
        let state = self.frame.state_of(h.hand.cards());
        for &m in game.money_display() {
            if !seen.contains(&m) {
                seen.push(m);
                best = best.max(self.take(h, state.as_ref(), Some(m), 0));
            }
        }
        for slot in 0..game.building_display().len() {
            if h.gone & (1 << slot) != 0 {
                continue;
            }
            if game.building_display()[slot].is_none() {
                continue;
            }
            best = best.max(self.buy(h, slot, game.price_at(slot as u8), depth));
        }
        if best == f64::NEG_INFINITY { self.value(h) } else { best }
    }

    /// The best way to pay `owed` more for the building in `slot` from `h`'s hand and get it.
    fn buy(&self, h: &Hypo, slot: usize, owed: u32, depth: u32) -> f64 {
        let game = self.frame.game;
        let pays = game.pays_mask(slot as u8);
        let mut mine: SmallVec<[Money; HAND]> =
            h.hand.cards().iter().copied().filter(|m| pays & (1 << m.currency) != 0).collect();
        let total: u32 = mine.iter().map(|m| u32::from(m.value)).sum();
        if total < owed {
            return f64::NEG_INFINITY;
        }
        if owed == 0 {
            return self.acquire(h, slot, true, depth);
        }
        mine.sort_unstable_by_key(|m| std::cmp::Reverse(m.value));
        let values: SmallVec<[u32; HAND]> = mine.iter().map(|m| u32::from(m.value)).collect();
        let mut best = f64::NEG_INFINITY;
        // An exact payment gives another action: only the one that looks best
        // at once is followed (following them all multiplies with each action).
        let mut exact: Option<(f64, u64, bool)> = None;
        let neutral = game.neutral().is_some();
        // What the building brings, kept or donated: the same for every payment.
        let kept = self.gained(h, slot, false);
        let donated = if neutral { self.gained(h, slot, true) } else { kept };
        // Every payment leaves the same hand but for the cards paid: what does
        // not depend on them is worked out once (judging each payment was most
        // of a turn's judgement where hands are large).
        let (board_kept, gone) = kept;
        debug_assert_eq!(gone, donated.1, "kept or donated, the same slot is emptied");
        // With a card or two to pay with, adding up what is left is cheaper than the preparing.
        let paying = (mine.len() > 2).then(|| Paying::new(&self.frame, h.hand.cards(), &mine, pays, gone)).flatten();
        let mut out = [0.0; BASE.len()];
        self.payments(&values, owed, |chosen, sum| {
            match &paying {
                Some(p) => p.set(&self.frame, chosen, sum, &mut out),
                None => self.frame.set_hand(paid(&h.hand, &mine, chosen).cards(), gone, &mut out),
            }
            let hv = self.hand_value(&out);
            for to_neutral in [false, true] {
                if to_neutral && !neutral {
                    continue;
                }
                let board = if to_neutral { donated.0 } else { board_kept };
                let v = board + hv;
                if sum == owed && depth < EXTRA_ACTIONS {
                    if exact.as_ref().is_none_or(|(e, ..)| v > *e) {
                        exact = Some((v, chosen, to_neutral));
                    }
                } else {
                    best = best.max(v);
                }
            }
        });
        if let Some((_, chosen, to_neutral)) = exact {
            let got = self.got(&Hypo { hand: paid(&h.hand, &mine, chosen), ..*h }, slot, to_neutral);
            best = best.max(self.turn(&got, depth + 1));
        }
        best
    }

    /// [`payments`], remembered in the bot's [`Memo`] (a few small card
    /// values; with fewer the walk is cheaper than the look-up).
    fn payments(&self, values: &[u32], owed: u32, mut f: impl FnMut(u64, u32)) {
        if !(4..=16).contains(&values.len()) || values.iter().any(|&v| v > 255) {
            return payments(values, owed, f);
        }
        let mut memo = self.memo.borrow_mut();
        if memo.payments.len() >= MEMO_PAYMENTS {
            memo.payments.clear();
        }
        let key = (owed, values.iter().map(|&v| v as u8).collect());
        let ways = memo.payments.entry(key).or_insert_with(|| {
            let mut ways = Vec::new();
            payments(values, owed, |chosen, sum| ways.push((chosen, sum)));
            ways.into_boxed_slice()
        });
        for &(chosen, sum) in ways.iter() {
            f(chosen, sum);
        }
    }

    /// The building in `slot` paid for: kept or (two players) donated, then the
    /// best further action if it was paid exactly.
    fn acquire(&self, h: &Hypo, slot: usize, exact: bool, depth: u32) -> f64 {
        let donate = self.frame.game.neutral().is_some();
        let mut best = f64::NEG_INFINITY;
        for to_neutral in [false, true] {
            if to_neutral && !donate {
                continue;
            }
            best = best.max(self.acquired(h, slot, to_neutral, exact, depth));
        }
        best
    }

    fn acquired(&self, h: &Hypo, slot: usize, to_neutral: bool, exact: bool, depth: u32) -> f64 {
        let next = self.got(h, slot, to_neutral);
        if exact && depth < EXTRA_ACTIONS { self.turn(&next, depth + 1) } else { self.value(&next) }
    }

    /// The position once the building in `slot` is the seat's (or the neutral collector's).
    fn got(&self, h: &Hypo, slot: usize, to_neutral: bool) -> Hypo {
        let game = self.frame.game;
        let mut next = *h;
        let Some(b) = game.building_display()[slot] else { return next };
        let who = if to_neutral { game.num_players() } else { self.frame.seat };
        let Some(t) = game.rules().counted_type(game.rules().building(b).kind, &h.counts[who]) else {
            next.gone |= 1 << slot;
            return next;
        };
        next.counts[who][t] += 1;
        next.board += self.majority(&next.counts, t) - self.majority(&h.counts, t);
        next.gone |= 1 << slot;
        next
    }

    /// The board value and the slots emptied of [`Judge::got`], without the position.
    fn gained(&self, h: &Hypo, slot: usize, to_neutral: bool) -> (f64, u32) {
        let game = self.frame.game;
        let Some(b) = game.building_display()[slot] else { return (h.board, h.gone) };
        let who = if to_neutral { game.num_players() } else { self.frame.seat };
        let Some(t) = game.rules().counted_type(game.rules().building(b).kind, &h.counts[who]) else {
            return (h.board, h.gone | 1 << slot);
        };
        let mut counts = h.counts;
        counts[who][t] += 1;
        (h.board + (self.majority(&counts, t) - self.majority(&h.counts, t)), h.gone | 1 << slot)
    }
}

impl Features for Game {
    type Memo = Memo;

    fn copy_into(&self, into: &mut Game) {
        into.refill_from(self);
    }

    fn spares(memo: &mut Memo) -> Option<&mut Vec<Box<Game>>> {
        Some(&mut memo.spares)
    }

    fn feature_names(&self) -> Vec<String> {
        feature_names(self.rules())
    }

    /// The final margin over the mean other player: what winning needs, and a
    /// steadier target than a win.
    fn outcome(&self) -> Option<Vec<f64>> {
        if !self.is_over() {
            return None;
        }
        let totals: Vec<f64> = self.scores().iter().map(|s| f64::from(s.total)).collect();
        Some(engine_play::value::margins(&totals))
    }

    fn judging_for(&mut self, seat: usize) {
        self.judging = u8::try_from(seat).ok();
    }

    /// A turn's decision: whole rounds since the displays were last
    /// refilled (a take, a purchase; an exchange refills nothing) and since a
    /// building was last drawn for the building display (the game ends when
    /// the building deck runs out: only a purchase brings that nearer).
    fn progress(&self) -> Option<engine_play::value::Progress> {
        if !matches!(self.pending, Some(Decision::Turn { .. })) {
            return None;
        }
        // The turns after `since`, its own left out, in whole rounds.
        let seats = self.players.len() as u32;
        let rounds = |since: u32| self.turns.saturating_sub(since + 1) / seats;
        Some(engine_play::value::Progress {
            still: [rounds(self.moved_on), rounds(self.nearer)],
            longest: self.longest / seats,
        })
    }

    /// A purchase brings the game's end nearer, a take draws; an action of
    /// the ruleset's own may leave everything as it was (the money
    /// changer's exchange).
    fn moves_on(&self, action: Action) -> u8 {
        match action {
            Action::Buy(_) => 2,
            Action::Take(_) => 1,
            _ => 0,
        }
    }

    fn features(&self, seat: usize, out: &mut Vec<f64>) {
        let frame = Frame::new(self, seat);
        let counts = frame.counts();
        frame.all(&counts, self.player(seat).hand(), out, None);
    }

    fn features_memo(&self, seat: usize, out: &mut Vec<f64>, memo: &mut Memo) {
        let frame = Frame::new(self, seat);
        let counts = frame.counts();
        frame.all(&counts, self.player(seat).hand(), out, Some(memo));
    }

    fn action_value(&self, action: Action, model: &ValueModel, scratch: &mut Vec<f64>, memo: &mut Memo) -> f64 {
        let mut out = Vec::with_capacity(1);
        self.action_values(&[action], model, scratch, memo, &mut out);
        out[0]
    }

    /// One judge for the whole decision: what the actions share is worked out once.
    fn action_values(
        &self,
        actions: &[Action],
        model: &ValueModel,
        scratch: &mut Vec<f64>,
        memo: &mut Memo,
        out: &mut Vec<f64>,
    ) {
        out.clear();
        let Some(&d) = self.pending() else {
            out.resize(actions.len(), 0.0);
            return;
        };
        if matches!(d, Decision::Choose { .. } | Decision::Discard { .. }) {
            // A script's question has no model of its own: the answer is played and the position judged.
            out.extend(actions.iter().map(|&a| by_playing_quick(self, a, model, scratch, memo)));
            return;
        }
        let own = |a: &Action| matches!(a, Action::Act(_));
        let judge = Judge::new(self, d.seat(), &model.weights, memo);
        out.extend(actions.iter().map(|a| if own(a) { f64::NEG_INFINITY } else { judge.action(d, *a) }));
        if actions.iter().any(own) {
            on_played_scale(self, actions, own, model, scratch, memo, out);
        }
    }

    /// The quick judgement, wherever neither a ruleset's action nor a script's question is on offer.
    fn quick_values(&self, actions: &[Action], model: &ValueModel, memo: &mut Memo, out: &mut Vec<f64>) -> bool {
        let Some(&d) = self.pending() else { return false };
        if matches!(d, Decision::Choose { .. } | Decision::Discard { .. })
            || actions.iter().any(|a| matches!(a, Action::Act(_)))
        {
            return false;
        }
        let judge = Judge::new(self, d.seat(), &model.weights, memo);
        out.clear();
        out.extend(actions.iter().map(|a| judge.action(d, *a)));
        true
    }
}

/// How many of the game's own answers are played where a ruleset's action is
/// on offer: the quick judge's best ones. With one, the bot won 7 points
/// fewer games against the greedy bot on the reserve and the money changer
/// (2,000 games a seating) than when every answer was played; with two, as many.
const PLAYED_BEST: usize = 2;

/// The values of a decision where some answers (`played`) have no quick
/// judgement, a ruleset's own actions: those, and the [`PLAYED_BEST`]
/// answers the quick judge likes best, are played on a copy and the position
/// reached judged ([`engine_play::value::by_playing`]); the other answers'
/// quick values (in `out`) are moved onto the same scale by the best one's
/// difference between its played and its quick value. Playing every answer
/// was most of such a game's cost, and its choices were no better.
fn on_played_scale(
    game: &Game,
    actions: &[Action],
    played: impl Fn(&Action) -> bool,
    model: &ValueModel,
    scratch: &mut Vec<f64>,
    memo: &mut Memo,
    out: &mut [f64],
) {
    let mut quick: SmallVec<[usize; 16]> =
        (0..actions.len()).filter(|&i| !played(&actions[i]) && out[i].is_finite()).collect();
    quick.sort_by(|&i, &j| out[j].total_cmp(&out[i]));
    let shift = quick.first().map_or(0.0, |&i| {
        let quick_value = out[i];
        out[i] = by_playing_quick(game, actions[i], model, scratch, memo);
        out[i] - quick_value
    });
    for &i in quick.iter().skip(1).take(PLAYED_BEST - 1) {
        out[i] = by_playing_quick(game, actions[i], model, scratch, memo);
    }
    for &i in quick.iter().skip(PLAYED_BEST) {
        out[i] += shift;
    }
    for (v, a) in out.iter_mut().zip(actions) {
        if played(a) {
            *v = by_playing_quick(game, *a, model, scratch, memo);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a ruleset's action is on offer, the actions and the quick judge's
    /// two best answers are valued by playing them, and every other answer by
    /// its quick value moved as far as the best one moved when played: the
    /// order of the game's own answers beyond the two is the quick judge's.
    #[test]
    fn a_decision_with_an_action_plays_the_actions_and_the_two_best_answers() {
        use engine_play::turns::TurnGame as _;
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/alhambra/reserve/ruleset.toml");
        let rs = crate::Ruleset::load(path).unwrap();
        let features = feature_names(&rs);
        // Weights of no learning, but none alike: every feature counts.
        let weights: Vec<f64> = (0..features.len()).map(|i| 0.3 + 0.1 * (i % 7) as f64).collect();
        let model = ValueModel {
            version: ValueModel::VERSION,
            game: "alhambra".into(),
            ruleset: rs.id.clone(),
            fingerprint: rs.fingerprint.clone(),
            games: 0,
            rounds: 0,
            seed: 0,
            start: None,
            by_start: false,
            features,
            weights,
            memos: Default::default(),
        };
        let mut checked = 0;
        for seed in 0..6 {
            let mut game = Game::new(std::sync::Arc::clone(&rs), 3, seed).unwrap();
            let mut bot = engine_play::bots::RandomBot::new(seed);
            while let Some(&d) = game.pending() {
                let legal = game.legal().to_vec();
                let own = |a: &Action| matches!(a, Action::Act(_));
                if legal.iter().any(own) && legal.iter().filter(|a| !own(a)).count() > PLAYED_BEST {
                    let (mut scratch, mut memo, mut out) = (Vec::new(), Memo::default(), Vec::new());
                    game.action_values(&legal, &model, &mut scratch, &mut memo, &mut out);
                    let mut memo = Memo::default();
                    let judge = Judge::new(&game, d.seat(), &model.weights, &mut memo);
                    let played = |a: Action| by_playing_quick(&game, a, &model, &mut Vec::new(), &mut Memo::default());
                    let mut quick: Vec<(usize, f64)> =
                        (0..legal.len()).filter(|&i| !own(&legal[i])).map(|i| (i, judge.action(d, legal[i]))).collect();
                    quick.sort_by(|a, b| b.1.total_cmp(&a.1));
                    let shift = played(legal[quick[0].0]) - quick[0].1;
                    for (rank, &(i, q)) in quick.iter().enumerate() {
                        let expected = if rank < PLAYED_BEST { played(legal[i]) } else { q + shift };
                        assert!((out[i] - expected).abs() < 1e-9, "{:?}: {} against {expected}", legal[i], out[i]);
                    }
                    for (i, a) in legal.iter().enumerate().filter(|(_, a)| own(a)) {
                        assert_eq!(out[i], played(*a), "{a:?}");
                    }
                    checked += 1;
                }
                let a = engine_play::bots::Bot::choose(&mut bot, &game, game.legal());
                game.play(a).unwrap();
            }
        }
        assert!(checked > 50, "{checked} decisions with an action");
    }

    /// The features with a memo are the features without, to the bit: at
    /// every decision of random games, for every seat, with one memo through
    /// all of them (boards kept from earlier positions and other games).
    #[test]
    fn features_from_the_memo_are_the_features_worked_out() {
        use engine_play::turns::TurnGame as _;
        let mut memo = Memo::default();
        let mut kept = 0;
        for (ruleset, players) in [("alhambra", 2), ("alhambra", 4), ("alhambra", 6)] {
            let rs = crate::Ruleset::load(ruleset).unwrap();
            for seed in 0..3 {
                let mut game = Game::new(std::sync::Arc::clone(&rs), players, seed).unwrap();
                let mut bot = engine_play::bots::RandomBot::new(seed);
                while game.pending().is_some() {
                    for seat in 0..players {
                        let (mut plain, mut remembered) = (Vec::new(), Vec::new());
                        game.features(seat, &mut plain);
                        let before = memo.boards.len();
                        game.features_memo(seat, &mut remembered, &mut memo);
                        kept += usize::from(memo.boards.len() == before);
                        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                        assert_eq!(bits(&remembered), bits(&plain), "{ruleset}, {players} players, seed {seed}");
                    }
                    let a = engine_play::bots::Bot::choose(&mut bot, &game, game.legal());
                    game.play(a).unwrap();
                }
            }
        }
        assert!(kept > 1000, "{kept} boards found in the memo");
    }

    #[test]
    fn a_payment_stops_once_the_price_is_reached() {
        // Cards 5, 4, 3, 1 (largest first) for a price of 7.
        let mut found = Vec::new();
        payments(&[5, 4, 3, 1], 7, |mask, sum| found.push((mask, sum)));
        // 5+4 (9), 5+3 (8), 4+3 (7: exact), 5+3+1 (9: 1 and 3 pay 4, then 5);
        // 5+4+3 is none: any two of them reach 7 before the third is paid.
        assert!(found.contains(&(0b0011, 9)));
        assert!(found.contains(&(0b0101, 8)));
        assert!(found.contains(&(0b0110, 7)));
        assert!(found.contains(&(0b1101, 9)));
        assert!(!found.iter().any(|&(m, _)| m == 0b0111), "{found:?}");
        // Every payment reaches the price and needed its largest card.
        let values = [5u32, 4, 3, 1];
        for &(mask, sum) in &found {
            let cards: Vec<u32> = (0..4).filter(|j| mask & (1 << j) != 0).map(|j| values[j]).collect();
            assert_eq!(cards.iter().sum::<u32>(), sum);
            assert!(sum >= 7 && sum - cards.iter().max().unwrap() < 7, "{cards:?}");
        }
        // Too little money: no way.
        payments(&[2, 1], 7, |_, _| panic!("paid 7 with 3"));
    }

    /// The ways to pay as a plain depth-first walk finds them, one step per
    /// set looked at: what [`payments`] must give, in the same order.
    /// Also whether the walk ended on its budget.
    fn payments_walked(values: &[u32], owed: u32) -> (Vec<(u64, u32)>, bool) {
        /// Steps left, the (total, cards) seen, the ways found.
        struct St {
            budget: u32,
            seen: Vec<(u32, u32)>,
            ways: Vec<(u64, u32)>,
        }
        fn walk(v: &[u32], owed: u32, from: usize, chosen: u64, first: Option<u32>, sum: u32, st: &mut St) {
            if st.budget == 0 {
                return;
            }
            st.budget -= 1;
            if let Some(first) = first {
                if sum - first >= owed {
                    return;
                }
                let key = (sum, chosen.count_ones());
                if sum >= owed && !st.seen.contains(&key) {
                    st.seen.push(key);
                    st.ways.push((chosen, sum));
                }
            }
            for j in from..v.len() {
                if j > from && v[j] == v[j - 1] {
                    continue;
                }
                walk(v, owed, j + 1, chosen | (1 << j), first.or(Some(v[j])), sum + v[j], st);
            }
        }
        let mut st = St { budget: PAYMENT_STEPS, seen: Vec::new(), ways: Vec::new() };
        walk(values, owed, 0, 0, None, 0, &mut st);
        (st.ways, st.budget == 0)
    }

    #[test]
    fn the_ways_to_pay_are_those_a_plain_walk_finds_in_its_steps() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(52);
        let mut below = |n: u32| (rng.next_u64() % u64::from(n)) as u32;
        let mut ended = 0;
        for round in 0..3000 {
            // Hands of every size, some of many small cards (whose walks end on the budget).
            let n = below(16);
            let top = if round % 3 == 0 { 3 } else { 12 };
            let mut values: Vec<u32> = (0..n).map(|_| 1 + below(top)).collect();
            values.sort_unstable_by(|a, b| b.cmp(a));
            let total: u32 = values.iter().sum();
            let owed = 1 + below(total + 2);
            let mut found = Vec::new();
            payments(&values, owed, |chosen, sum| found.push((chosen, sum)));
            let (walked, spent) = payments_walked(&values, owed);
            assert_eq!(found, walked, "{values:?} for {owed}");
            ended += usize::from(spent);
        }
        assert!(ended > 100, "hands large enough to spend the budget: {ended} of 3000");
    }

    #[test]
    fn a_hand_state_gives_the_features_of_adding_up_the_hand() {
        use rand::{Rng, SeedableRng};
        let rs = Ruleset::load("alhambra").unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut exact = 0;
        for seed in 0..40 {
            let game = Game::new(std::sync::Arc::clone(&rs), 2 + seed as usize % 5, seed).unwrap();
            let frame = Frame::new(&game, 0);
            for _ in 0..50 {
                let mut below = |n: u64| (rng.next_u64() % n) as u8;
                let len = below(12);
                let hand: Vec<Money> = (0..len).map(|_| rs.money[usize::from(below(36))].card).collect();
                let gone = u32::from(below(16));
                let (mut by_cards, mut by_state) = ([0.0; BASE.len()], [0.0; BASE.len()]);
                frame.set_hand(&hand, gone, &mut by_cards);
                // The state built a card at a time, as a take adds the display's cards.
                let mut state = frame.state_of(&[]).unwrap();
                for &m in &hand {
                    frame.add(&mut state, m);
                }
                frame.set_state(&state, gone, &mut by_state);
                assert_eq!(by_cards, by_state, "seed {seed}, hand {hand:?}");
                exact += usize::from(by_cards[EXACT] > 0.0);
            }
        }
        // The exact payments were put to the test, not only their absence.
        assert!(exact > 100, "{exact}");
    }

    #[test]
    fn money_past_twice_the_display_s_price_counts_for_nothing() {
        let rs = Ruleset::load("alhambra").unwrap();
        let game = Game::new(std::sync::Arc::clone(&rs), 4, 9).unwrap();
        let frame = Frame::new(&game, 0);
        let display: u32 = (0..game.building_display().len() as u8).map(|s| game.price_at(s)).sum();
        assert_eq!(game.building_display().len(), 4);
        assert_eq!(frame.usable, 2 * display);
        let mut out = [0.0; BASE.len()];
        // Within it: as held.
        frame.set_money(frame.usable, 12, 30, &mut out);
        assert_eq!((out[MONEY], out[CARDS], out[MONEY_CAPPED]), (f64::from(2 * display), 12.0, 30.0));
        // Twice as much: the money counts up to it, each card for half.
        frame.set_money(2 * frame.usable, 12, 30, &mut out);
        assert_eq!((out[MONEY], out[CARDS]), (f64::from(2 * display), 6.0));
        assert_eq!(out[MONEY_LATE], f64::from(2 * display) * frame.progress);
    }

    #[test]
    fn exact_sums_are_found_by_currency() {
        let m = |currency, value| Money { currency, value };
        let hand = [m(0, 5), m(0, 3), m(1, 2), m(0, 1)];
        assert!(paid_exactly(&hand, 1, 8));
        assert!(paid_exactly(&hand, 1, 9));
        assert!(!paid_exactly(&hand, 1, 7));
        assert!(!paid_exactly(&hand, 2, 3));
        // A script may let two currencies pay: 5 + 2 is then exact for 7.
        assert!(paid_exactly(&hand, 0b11, 7) && !paid_exactly(&hand, 0b11, 12));
        let big = [m(0, 100), m(0, 60)];
        assert!(paid_exactly(&big, 1, 100) && paid_exactly(&big, 1, 160) && !paid_exactly(&big, 1, 140));
    }
}
