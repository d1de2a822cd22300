//! The ruleset's own actions (`[[action]]`) at play: which are legal now and
//! what one does.
//!
//! An action whose file names `args` kinds is offered with every combination
//! of candidates of those kinds (display slots, hand cards, display cards,
//! the actor's buildings) that its script's `allowed(ctx)` accepts (all,
//! without one); a script's `legal(ctx)` instead lists the arguments itself.
//! `on_action(ctx)` returns its effects; then the turn ends (or, with
//! `ends_turn = false`, the seat acts again: once per turn for each such action).
//!
//! An action with `payment` buys the building in the display slot its first
//! argument names: it is offered only where the actor can pay (`exact`:
//! exactly the price, `price`: the price or more, in the slot's currency, by
//! the cards' face values), and after `on_action` the actor pays card by card
//! as after `buy`. An action at `other_turn_end` is offered when a turn ends,
//! before the refill, to each other seat from the left of the seat whose turn
//! ended that has one to take (or `pass`); its purchase gives no extra action.
//!
//! `payment = "any_one_currency"` pays the price or more, all in one currency
//! (the first card's): for a display slot's building, or for one of the
//! actor's reserve (`args = ["reserve"]`), which has no slot and so no
//! currency of its own. It is its own decision (`PayAny`), kept apart from
//! the base game's payment.

use engine_script::results::as_bool;
use rhai::{Array, Dynamic};
use smallvec::SmallVec;

use super::asks::Step;
use super::scripts::{Heard, Listener, int, s};
use super::{Decision, Game};
use crate::actions::{Act, Action, WordId};
use crate::error::GameError;
use crate::hooks::Hook;
use crate::ruleset::{ActionAt, ArgKind, BuildingIdx, Money, Payment};

use engine_rules::profile::OFFERING;

#[cfg(test)]
thread_local! {
    /// A test's switch: `legal` answers read by the general path alone.
    static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether [`Game::listed_words`] is off (a test comparing it with the general path).
fn general_path_only() -> bool {
    #[cfg(test)]
    return GENERAL_ONLY.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// An argument's candidates as their words, each once (kept on the stack: made at every turn).
type Candidates = SmallVec<[u16; 16]>;

/// Where the building an action buys is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// A building display slot (from 0).
    Slot(u8),
    /// The actor's reserve: the building of this card.
    Reserve(BuildingIdx),
}

/// A purchase paid in any one currency, while it is paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Purchase {
    /// Where the building lies until it is paid.
    pub source: Source,
    /// The building.
    pub building: BuildingIdx,
    /// Its price, as it stood when the payment began.
    pub price: u32,
    /// The currency the payment is in, once a card of one currency was paid.
    pub currency: Option<u8>,
    /// The action's index, for a located error.
    pub def: u8,
}

impl Game {
    /// The card-like listener that runs action `def`'s script for `seat`.
    fn action_listener(&self, def: usize, seat: usize) -> Listener {
        Listener {
            owner: self.rs.hooks.action_owner(def),
            seat,
            card: Heard::Action(def as u8),
            owned: 0,
            kind: None,
            args: None,
        }
    }

    /// Adds the ruleset's own actions the seat to decide may take now to `out`
    /// (the time a profile counts as [`OFFERING`]).
    #[inline(never)]
    pub(super) fn custom_legal(&self, out: &mut Vec<Action>) -> Result<(), GameError> {
        let (seat, at) = match self.pending {
            Some(Decision::Turn { seat }) => (seat, ActionAt::Turn),
            Some(Decision::OutOfTurn { seat, .. }) => (seat, ActionAt::OtherTurnEnd),
            Some(Decision::Pay { seat, slot, paid }) if self.pay_rule == Some(Payment::Exact) => {
                // Only the cards after which the price can still be met exactly.
                out.retain(|a| match *a {
                    Action::Pay(m) => self.exact_after(seat, slot, paid, Some(m)),
                    _ => true,
                });
                return Ok(());
            }
            _ => return Ok(()),
        };
        self.offered(seat, at, out)
    }

    /// Adds to `out` the ruleset's own actions offered to `seat` at `at`.
    fn offered(&self, seat: usize, at: ActionAt, out: &mut Vec<Action>) -> Result<(), GameError> {
        let rs = &self.rs;
        for (d, def) in rs.actions.iter().enumerate() {
            if def.at != at || (!def.ends_turn && at == ActionAt::Turn && self.acted & (1 << d) != 0) {
                continue;
            }
            if let Some(rule) = def.payment
                && rs.hooks.script_host().remembers_reads()
                && match def.args.first() {
                    Some(ArgKind::Reserve) => {
                        !self.reserve(seat).iter().any(|&b| self.payable(seat, Source::Reserve(b), rule))
                    }
                    _ => !(0..self.building_display.len() as u8).any(|k| self.may_pay_for(seat, k, rule)),
                }
            {
                // It buys from the display, or from the seat's reserve, where the seat holds
                // too little to pay for anything by its rule (or the reserve is empty): it
                // offers nothing, whatever its scripts answer, and they are not asked (a
                // vizier's `legal`, asked of every other seat at every turn's end; a reserve's,
                // at every turn). While scripts' prints are kept they are asked, so that a
                // trace shows every call.
                continue;
            }
            let l = self.action_listener(d, seat);
            let too_many =
                || rs.hooks.bad_card_return(Hook::Legal, l.owner, "too many different arguments in this ruleset");
            // Each argument as the number of its word: the combinations of every
            // pair of cards are made and asked about at every turn, without text.
            let mut offer = |w: u16| {
                let act = Action::Act(Act { def: d as u8, args: WordId::of(w) });
                if !out.contains(&act) {
                    out.push(act);
                }
            };
            if self.listens(Hook::Legal, &l) {
                let v = self.call_listener(Hook::Legal, &l, seat, &Dynamic::UNIT, &[])?;
                if let Some(listed) = self.listed_words(d, seat, &v).filter(|_| !general_path_only()) {
                    for (w, source) in listed {
                        if def.payment.is_none_or(|rule| self.payable(seat, source, rule)) {
                            offer(w);
                        }
                    }
                    continue;
                }
                let lists = listed_args(v).map_err(|e| rs.hooks.bad_card_return(Hook::Legal, l.owner, &e))?;
                for args in lists {
                    if !self.can_pay_for(seat, d, &args, &l)? {
                        continue;
                    }
                    // Only what is offered gets a word: a line naming anything else is refused as unknown.
                    offer(rs.words.word(&args.join(" ")).ok_or_else(too_many)?);
                }
                continue;
            }
            let candidates: SmallVec<[Candidates; 2]> = def
                .args
                .iter()
                .map(|&kind| self.candidate_words(kind, seat))
                .collect::<Option<_>>()
                .ok_or_else(too_many)?;
            let texts = |args: &[u16]| args.iter().map(|&w| rs.words.name(w).to_string()).collect::<Vec<String>>();
            let asks = self.listens(Hook::Allowed, &l);
            // Remembered only with memory on and no trace keeping prints (asked once, not per pair).
            let args_only =
                rs.hooks.reads_args_only(Hook::Allowed, l.owner) && rs.hooks.script_host().remembers_reads();
            let ask = |v: Result<Dynamic, GameError>| {
                as_bool(v?).map_err(|e| rs.hooks.bad_card_return(Hook::Allowed, l.owner, &e))
            };
            let extra = |args: &[u16]| [("args", self.args_value(d, &texts(args)))];
            if let ([first, second], true, true, None) = (candidates.as_slice(), asks, args_only, def.payment) {
                // Every pair of cards at every turn: each answer and the word it is
                // offered as are one load from a table of pairs.
                rs.hooks.allowed_pairs(
                    (d, l.owner),
                    (first, second),
                    |pair| ask(self.call_unrowed(Hook::Allowed, &l, seat, &extra(&pair))),
                    |pair| rs.words.joined(&pair).ok_or_else(too_many),
                    |w| {
                        // Each pair of two lists of distinct words is a word of its own,
                        // and no other answer of action `d` is on offer yet: no search of `out`.
                        let act = Action::Act(Act { def: d as u8, args: WordId::of(w) });
                        debug_assert!(!out.contains(&act), "{act:?} offered twice");
                        out.push(act);
                    },
                )?;
                continue;
            }
            engine_rules::actions::each_combination(&candidates, |args| -> Result<(), GameError> {
                if asks {
                    // Asked for every pair of cards at every turn: an answer that reads
                    // only the arguments is remembered by them (their words, exactly).
                    let allowed = match args_only {
                        true => rs.hooks.allowed_about((d, l.owner), args, || {
                            ask(self.call_unrowed(Hook::Allowed, &l, seat, &extra(args)))
                        })?,
                        false => ask(self.call_listener(Hook::Allowed, &l, seat, &Dynamic::UNIT, &extra(args)))?,
                    };
                    if !allowed {
                        return Ok(());
                    }
                }
                if def.payment.is_some() && !self.can_pay_for(seat, d, &texts(args), &l)? {
                    return Ok(());
                }
                offer(rs.words.joined(args).ok_or_else(too_many)?);
                Ok(())
            })?;
        }
        Ok(())
    }

    /// A `legal` answer of action `d` (one argument: display slots, or
    /// buildings of `seat`'s reserve; a purchase's slot when it declares
    /// none) as the words offered and where each
    /// building lies, read without making its text: asked at every decision.
    /// `None` for any other answer, which the general path reads (and
    /// reports, where it is wrong).
    fn listed_words(&self, d: usize, seat: usize, v: &Dynamic) -> Option<SmallVec<[(u16, Source); 8]>> {
        let rs = &self.rs;
        let (words, aw) = (&rs.words, &rs.arg_words);
        let kind = match (rs.actions[d].args.as_slice(), rs.actions[d].payment) {
            ([kind @ (ArgKind::Slot | ArgKind::Reserve)], _) => *kind,
            // An action that buys, with no arguments declared, names the slot it buys from (the vizier's).
            ([], Some(_)) => ArgKind::Slot,
            _ => return None,
        };
        let list = v.as_array_ref().ok()?;
        let mut out = SmallVec::new();
        for entry in list.iter() {
            out.push(match kind {
                ArgKind::Slot => {
                    let n = usize::try_from(entry.as_int().ok()?).ok()?;
                    let k = n.checked_sub(1).filter(|&k| k < self.building_display.len())?;
                    (words.word_keyed(&aw.slots, k, || n.to_string().into())?, Source::Slot(k as u8))
                }
                _ => {
                    let id = entry.read_lock::<rhai::ImmutableString>()?;
                    let b = rs.lookup_building(id.as_str()).ok()?;
                    if !self.reserve(seat).contains(&b) {
                        return None;
                    }
                    (words.word_keyed(&aw.buildings, b as usize, || id.as_str().to_owned().into())?, Source::Reserve(b))
                }
            });
        }
        Some(out)
    }

    #[cfg(test)]
    /// The seat to decide's own actions read by the general path alone ([`Game::listed_words`] off).
    pub(super) fn custom_legal_general(&self) -> Result<Vec<Action>, GameError> {
        GENERAL_ONLY.with(|g| g.set(true));
        let mut out = Vec::new();
        let r = self.custom_legal(&mut out);
        GENERAL_ONLY.with(|g| g.set(false));
        r.map(|()| out)
    }

    /// Whether the action `d` with `args` can be paid for now (true for one that buys nothing).
    fn can_pay_for(&self, seat: usize, d: usize, args: &[String], l: &Listener) -> Result<bool, GameError> {
        match self.rs.actions[d].payment {
            Some(rule) => {
                self.can_buy(seat, d, args, rule).map_err(|e| self.rs.hooks.bad_card_return(Hook::Legal, l.owner, &e))
            }
            None => Ok(true),
        }
    }

    /// The candidates of an argument kind, as the numbers of their words, each
    /// once; `None` past the ruleset's bound on words.
    fn candidate_words(&self, kind: ArgKind, seat: usize) -> Option<Candidates> {
        let rs = &self.rs;
        let words = &rs.words;
        let aw = &rs.arg_words;
        let building =
            |b: BuildingIdx| words.word_keyed(&aw.buildings, b as usize, || rs.building(b).id.as_str().into());
        // Each word once, in the order met (a hand holds several cards of a kind).
        let mut unique = Candidates::new();
        let mut add = |w: Option<u16>| {
            let w = w?;
            if !unique.contains(&w) {
                unique.push(w);
            }
            Some(())
        };
        match kind {
            ArgKind::Slot => (0..self.building_display.len())
                .filter(|&k| self.building_display[k].is_some())
                .try_for_each(|k| add(words.word_keyed(&aw.slots, k, || (k + 1).to_string().into())))?,
            ArgKind::Hand => return self.money_words(self.players[seat].hand()),
            ArgKind::MoneyDisplay => return self.money_words(&self.money_display),
            ArgKind::Building => self.players[seat].buildings.iter().try_for_each(|&b| add(building(b)))?,
            ArgKind::Reserve => self.reserve(seat).iter().try_for_each(|&b| add(building(b)))?,
        }
        Some(unique)
    }

    /// The word of each kind of money card among `cards`, in the order met: a
    /// kind seen before is passed over by its bit before its word is looked up
    /// (a hand of a dozen cards, at every turn); `None` past the bound on words.
    fn money_words(&self, cards: &[Money]) -> Option<Candidates> {
        let rs = &self.rs;
        let mut seen = [0u64; 4];
        let mut words = Candidates::new();
        for &m in cards {
            let k = rs.kind_of(m);
            if let Some(bits) = seen.get_mut(k / 64) {
                if *bits & 1 << (k % 64) != 0 {
                    continue;
                }
                *bits |= 1 << (k % 64);
            }
            let w = rs.words.word_keyed(&rs.arg_words.money, k, || rs.money_str(m).into())?;
            // Past 256 kinds a kind has no bit: its word is looked for instead.
            if k < 256 || !words.contains(&w) {
                words.push(w);
            }
        }
        Some(words)
    }

    /// `ctx.args`: a slot as its number, a money card as a map, anything else as written.
    pub(super) fn args_value(&self, def: usize, args: &[String]) -> Dynamic {
        let rs = &self.rs;
        let kinds = &rs.actions[def].args;
        let values: Array = args
            .iter()
            .enumerate()
            .map(|(i, text)| match kinds.get(i) {
                Some(ArgKind::Hand | ArgKind::MoneyDisplay) => {
                    rs.lookup_money(text).map_or_else(|_| s(text), |m| self.money_map(m))
                }
                _ => text.parse::<i32>().map_or_else(|_| s(text), int),
            })
            .collect();
        Dynamic::from_array(values)
    }

    /// Applies one of the ruleset's own actions: its `on_action`, then the turn goes on.
    pub(super) fn act(&mut self, seat: usize, a: Act) -> Result<(), GameError> {
        let d = a.def as usize;
        self.event(Some(seat), |g| format!("seat {seat}: {}", Action::Act(a).text(&g.rs)));
        let ends_turn = self.rs.actions[d].ends_turn;
        if !ends_turn && self.out_of_turn.is_none() {
            self.acted |= 1 << d;
        }
        let next = match self.rs.actions[d].payment {
            Some(rule) => {
                let source = self.bought_source(seat, d, &a.arg_texts(&self.rs)).expect("offered: a building to buy");
                Step::ActPay { seat, source, def: a.def, rule }
            }
            None if self.out_of_turn.is_some() => Step::OutOfTurnDone,
            None => Step::Acted { seat, ends_turn },
        };
        // The arguments' maps are a function of their texts, and so of their
        // word: made only when the script runs and reads them.
        let l = Listener { args: Some(a.args.get()), ..self.action_listener(d, seat) };
        if self.listens(Hook::Action, &l) {
            let v = self.call_listener(Hook::Action, &l, seat, &Dynamic::UNIT, &[])?;
            self.apply_effects(Hook::Action, &l, v)?;
        }
        self.then(next)
    }

    /// After `on_action`: the payment for the building in `slot`, which the
    /// action's own effects may have taken away or made too dear (refused
    /// rather than asking for a payment nobody can make).
    pub(super) fn pay_by_action(
        &mut self,
        seat: usize,
        source: Source,
        def: u8,
        rule: Payment,
    ) -> Result<(), GameError> {
        if !self.payable(seat, source, rule) {
            let why = match source {
                Source::Slot(slot) => format!(
                    "seat {seat} cannot pay for slot {} after `on_action` (it emptied the slot or changed what it \
                     holds): an action with `payment` buys what its slot holds after `on_action`; leave that slot alone there",
                    slot + 1
                ),
                Source::Reserve(b) => format!(
                    "seat {seat} cannot pay for {} from its reserve after `on_action` (it is gone from the reserve): \
                     the engine places the building an action with `payment` buys once it is paid; leave it in the reserve",
                    self.rs.building(b).id
                ),
            };
            let hooks = &self.rs.hooks;
            return Err(hooks.bad_card_return(Hook::Action, hooks.action_owner(usize::from(def)), &why));
        }
        self.pay_rule = Some(rule);
        self.paid_cards = 0;
        match (rule, source) {
            (Payment::AnyOneCurrency, _) | (_, Source::Reserve(_)) => {
                let (building, price) = self.source_building(seat, source).expect("payable: it is there");
                self.purchase = Some(Purchase { source, building, price, currency: None, def });
                self.pending = Some(Decision::PayAny { seat, paid: 0 });
            }
            (_, Source::Slot(slot)) => self.pending = Some(Decision::Pay { seat, slot, paid: 0 }),
        }
        Ok(())
    }

    /// Whether `seat` can pay for what `args` names by `rule`: the building
    /// in the slot, or of the reserve, its first argument names.
    fn can_buy(&self, seat: usize, d: usize, args: &[String], rule: Payment) -> Result<bool, String> {
        let source = self.bought_source(seat, d, args).ok_or_else(|| match self.rs.actions[d].args.first() {
            Some(ArgKind::Reserve) => {
                format!(
                    "listed `{}` for an action with `payment`; its first argument is a building of the actor's reserve",
                    args.join(" ")
                )
            }
            _ => format!(
                "listed `{}` for an action with `payment`; its first argument is a display slot (1 to {})",
                args.join(" "),
                self.building_display.len()
            ),
        })?;
        Ok(self.payable(seat, source, rule))
    }

    /// Where the building that action `d`'s arguments name lies: a display
    /// slot, or (kind `reserve`) the actor's reserve; `None` if it names neither.
    pub(super) fn bought_source(&self, seat: usize, d: usize, args: &[String]) -> Option<Source> {
        let first = args.first()?;
        if self.rs.actions[d].args.first() == Some(&ArgKind::Reserve) {
            let b = self.rs.lookup_building(first).ok()?;
            return self.reserve(seat).contains(&b).then_some(Source::Reserve(b));
        }
        let n: u8 = first.parse().ok()?;
        n.checked_sub(1).map(Source::Slot)
    }

    /// The building at `source` (`seat`'s reserve) and its price now (a reserved one's is printed), if it is there.
    fn source_building(&self, seat: usize, source: Source) -> Option<(BuildingIdx, u32)> {
        match source {
            Source::Slot(slot) => {
                let b = self.building_display.get(usize::from(slot)).copied().flatten()?;
                Some((b, self.price_at(slot)))
            }
            Source::Reserve(b) => self.reserve(seat).contains(&b).then(|| (b, u32::from(self.rs.building(b).price))),
        }
    }

    /// Whether the building at `source` is there and `seat` can pay for it by `rule`.
    fn payable(&self, seat: usize, source: Source, rule: Payment) -> bool {
        let Some((_, price)) = self.source_building(seat, source) else { return false };
        match (rule, source) {
            (Payment::AnyOneCurrency, _) | (_, Source::Reserve(_)) => {
                (0..self.rs.currencies.len() as u8).any(|c| self.one_currency_sum(seat, c) >= price)
            }
            (Payment::Price, Source::Slot(slot)) => self.money_for(seat, slot) >= price,
            (Payment::Exact, Source::Slot(slot)) => self.exact_after(seat, slot, 0, None),
        }
    }

    /// False when `seat` cannot pay for the building in display `slot` by
    /// `rule` because it holds too little: a quick test that
    /// [`Game::payable`] would fail (true does not say it passes).
    fn may_pay_for(&self, seat: usize, slot: u8, rule: Payment) -> bool {
        match rule {
            // Enough money is needed for an exact sum, and much cheaper to ask.
            Payment::Exact => self.payable(seat, Source::Slot(slot), Payment::Price),
            _ => self.payable(seat, Source::Slot(slot), rule),
        }
    }

    /// Whether money card `m` pays in currency `c` (its own, or a money card's that pays in it or in any).
    fn pays_in(&self, m: Money, c: u8) -> bool {
        self.currency_mask(c) & (1 << m.currency) != 0
    }

    /// What `seat`'s hand holds that pays in currency `c`, at face value.
    fn one_currency_sum(&self, seat: usize, c: u8) -> u32 {
        self.players[seat].hand().iter().filter(|&&m| self.pays_in(m, c)).map(|m| u32::from(m.value)).sum()
    }

    /// The cards `seat` may pay next for the purchase in any one currency:
    /// those of a currency (the payment's, once fixed) whose cards reach the rest of the price.
    pub(super) fn pay_any_legal(&self, seat: usize, paid: u32, out: &mut Vec<Action>) {
        let Some(p) = self.purchase else { return };
        let owed = p.price.saturating_sub(paid);
        let currencies = 0..self.rs.currencies.len() as u8;
        let open: Vec<u8> = currencies
            .filter(|&c| p.currency.is_none_or(|x| x == c) && self.one_currency_sum(seat, c) >= owed)
            .collect();
        for &m in self.players[seat].hand() {
            if open.iter().any(|&c| self.pays_in(m, c)) && !out.contains(&Action::Pay(m)) {
                out.push(Action::Pay(m));
            }
        }
    }

    /// `seat` pays card `m` for the purchase in any one currency: the payment's
    /// currency is fixed by the first card of one currency; once the price is
    /// reached, the building is bought as after a buy.
    #[cold]
    #[inline(never)]
    pub(super) fn pay_any(&mut self, seat: usize, paid: u32, m: Money) -> Result<(), GameError> {
        let mut p = self.purchase.expect("a purchase in any one currency");
        if p.currency.is_none() {
            let ones: Vec<u8> = (0..self.rs.currencies.len() as u8).filter(|&c| self.pays_in(m, c)).collect();
            if let [c] = ones[..] {
                p.currency = Some(c);
            }
        }
        self.purchase = Some(p);
        self.paid_cards = self.paid_cards.wrapping_add(1);
        let player = &mut self.players[seat];
        let i = player.hand().iter().position(|&x| x == m).expect("legal payment");
        player.lose_money_at(i);
        self.discard.push(m);
        self.event(Some(seat), |g| format!("seat {seat} pays {}", g.rs.money_id(m)));
        let paid = paid + u32::from(m.value);
        if paid < p.price {
            self.pending = Some(Decision::PayAny { seat, paid });
            return Ok(());
        }
        let mut exact = paid == p.price;
        if self.rs.hooks.listened() != 0 {
            exact = self.paid_hooks(seat, super::ASIDE, paid, p.price, exact)?;
        }
        if self.neutral.is_some() {
            self.pending = Some(Decision::Donate { seat, slot: super::ASIDE, exact });
            return Ok(());
        }
        self.acquire(seat, super::ASIDE, false, exact)
    }

    /// The building bought from `slot` ([`super::ASIDE`]: the purchase in any
    /// one currency's), with the slot and the currency its events tell (`()` for none).
    pub(super) fn bought_at(&self, slot: u8) -> (BuildingIdx, Dynamic, Dynamic) {
        let b = match slot {
            super::ASIDE => self.purchase.expect("a purchase in any one currency").building,
            k => self.building_display[usize::from(k)].expect("a building in the slot being bought"),
        };
        let (at, currency) = self.slot_facts(slot);
        (b, at, currency)
    }

    /// The slot (from 1) and currency a purchase from `slot` tells its events
    /// (`()` for none: a building bought from a reserve, a currency not yet fixed).
    pub(super) fn slot_facts(&self, slot: u8) -> (Dynamic, Dynamic) {
        let currency = |c: u8| s(&self.rs.currencies[usize::from(c)].id);
        if slot != super::ASIDE {
            return (int(slot + 1), currency(self.rs.yard[usize::from(slot)]));
        }
        let p = self.purchase.expect("a purchase in any one currency");
        let at = match p.source {
            Source::Slot(k) => int(k + 1),
            Source::Reserve(_) => Dynamic::UNIT,
        };
        (at, p.currency.map_or(Dynamic::UNIT, currency))
    }

    /// The building of the purchase in any one currency, taken from where it lies.
    pub(super) fn take_purchase(&mut self, seat: usize) -> BuildingIdx {
        let p = self.purchase.expect("a purchase in any one currency");
        match p.source {
            Source::Slot(slot) => self.building_display[usize::from(slot)].take().expect("a building in the slot"),
            Source::Reserve(b) => {
                let reserve = &mut self.reserves[seat];
                let i = reserve.iter().position(|&x| x == b).expect("the reserved building");
                reserve.remove(i)
            }
        }
    }

    /// The purchase being paid in any one currency: the building, its price,
    /// and the currency once a card of one currency was paid.
    pub fn purchase(&self) -> Option<(BuildingIdx, u32, Option<u8>)> {
        self.purchase.map(|p| (p.building, p.price, p.currency))
    }

    /// A bit per money kind that pays in currency `c` (the currency's own, and the money cards that pay in it or in any).
    pub fn currency_mask(&self, c: u8) -> crate::ruleset::PayMask {
        // Worked out at load: asked per card of a hand, per currency, at every decision with a payment.
        self.rs.currency_pays[usize::from(c)]
    }

    /// What action `a` buys for `seat`, if it buys: the building, its price,
    /// and the ways to pay (a mask of the money that may pay, per currency it may be paid in).
    pub fn action_buys(&self, seat: usize, a: Act) -> Option<(BuildingIdx, u32, Vec<crate::ruleset::PayMask>)> {
        let d = usize::from(a.def);
        let rule = self.rs.actions.get(d)?.payment?;
        let source = self.bought_source(seat, d, &a.arg_texts(&self.rs))?;
        let (b, price) = self.source_building(seat, source)?;
        let masks = match (rule, source) {
            (Payment::AnyOneCurrency, _) | (_, Source::Reserve(_)) => {
                (0..self.rs.currencies.len() as u8).map(|c| self.currency_mask(c)).collect()
            }
            (_, Source::Slot(slot)) => vec![self.pays_mask(slot)],
        };
        Some((b, price, masks))
    }

    /// `seat`'s reserve: buildings set aside to buy later.
    pub fn reserve(&self, seat: usize) -> &[BuildingIdx] {
        self.reserves.get(seat).map_or(&[], Vec::as_slice)
    }

    /// Whether the cards of `seat`'s hand that pay for `slot` can make up the
    /// price exactly, `paid` of it paid and, if given, card `m` paid next.
    pub(super) fn exact_after(&self, seat: usize, slot: u8, paid: u32, m: Option<crate::ruleset::Money>) -> bool {
        let price = self.price_at(slot);
        let Some(mut left) = price.checked_sub(paid) else { return false };
        let mut values: SmallVec<[u32; 16]> = SmallVec::new();
        let mut skipped = false;
        let pays = self.pays_mask(slot);
        for &c in self.players[seat].hand() {
            if pays & (1 << c.currency) == 0 {
                continue;
            }
            if !skipped && Some(c) == m {
                skipped = true;
                continue;
            }
            values.push(u32::from(c.value));
        }
        if let Some(m) = m {
            match left.checked_sub(u32::from(m.value)) {
                Some(l) if skipped => left = l,
                _ => return false,
            }
        }
        reaches(&values, left)
    }

    /// A turn ended: the other seats are asked in turn, from the `k`-th to
    /// the left of `ended`, whether to act out of turn; then the refill.
    #[cold]
    #[inline(never)]
    pub(super) fn ask_out_of_turn(&mut self, ended: usize, k: usize) -> Result<(), GameError> {
        let n = self.players.len();
        for k in k..n {
            let seat = (ended + k) % n;
            self.pending = Some(Decision::OutOfTurn { seat, ended: ended as u8, k: k as u8 });
            self.refresh_mods()?;
            let mut acts = Vec::new();
            let host = self.rs.hooks.script_host();
            host.timed_work(OFFERING, || self.offered(seat, ActionAt::OtherTurnEnd, &mut acts))?;
            if !acts.is_empty() {
                return Ok(());
            }
        }
        self.pending = None;
        self.end_turn(ended)
    }

    /// The seat asked out of turn passes or has acted: the next seat is asked.
    pub(super) fn out_of_turn_done(&mut self) -> Result<(), GameError> {
        let (ended, k) = self.out_of_turn.take().expect("a seat acts out of turn");
        self.ask_out_of_turn(usize::from(ended), usize::from(k) + 1)
    }

    /// A purchase by an action of the ruleset's own is done: out of turn,
    /// the next seat is asked; in turn, it goes on as a buy does.
    #[cold]
    #[inline(never)]
    pub(super) fn bought_by_action(&mut self, seat: usize, exact: bool) -> Result<(), GameError> {
        self.pay_rule = None;
        self.purchase = None;
        if self.out_of_turn.is_some() {
            return self.out_of_turn_done();
        }
        self.bought(seat, exact)
    }
}

/// Whether some of `values`, each used once, add up to `sum` exactly.
fn reaches(values: &[u32], sum: u32) -> bool {
    // A bit per sum reached (asked for every display slot of every seat asked out of turn).
    if sum < 128 {
        let reach = values.iter().fold(1u128, |reach, &v| reach | reach.checked_shl(v).unwrap_or(0));
        return reach >> sum & 1 == 1;
    }
    let mut reach = vec![false; sum as usize + 1];
    reach[0] = true;
    for &v in values {
        for t in (v as usize..=sum as usize).rev() {
            reach[t] |= reach[t - v as usize];
        }
    }
    reach[sum as usize]
}

/// The argument lists a `legal` hook returned: a card map as its `id`.
fn listed_args(v: Dynamic) -> Result<Vec<Vec<String>>, String> {
    engine_script::results::listed_args(v, engine_script::results::card_map_id)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_sum_is_reached_exactly_as_every_subset_says_on_both_sides_of_128() {
        let cases: [&[u32]; 5] = [&[], &[3, 5, 9], &[1, 1, 1, 7], &[60, 70, 9, 127, 200], &[130, 2, 99, 31]];
        for values in cases {
            let sums: Vec<u32> = (0u32..1 << values.len())
                .map(|bits| (0..values.len()).filter(|&i| bits >> i & 1 == 1).map(|i| values[i]).sum())
                .collect();
            for sum in (0..140).chain([200, 229, 231, 330, 500]) {
                assert_eq!(super::reaches(values, sum), sums.contains(&sum), "{values:?} to {sum}");
            }
        }
    }
}
