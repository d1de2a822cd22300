//! Legal actions and applying them: the legal answers to the pending
//! decision, worked out once per decision, and [`Game::apply`], which checks
//! an action against them and applies it.

use std::sync::Arc;

use super::{DISCARDED, DREW, Decision, DiscardReason, Event, Game, TUCKED};
use crate::actions::{Action, Role};
use crate::cards::{CardIdx, Kind};
use crate::error::GameError;
use crate::hooks::{Answer, EventFacts, Hook};
use engine_script::has_hook;

impl Game {
    /// Every legal answer to the pending decision (empty once the game is over).
    pub fn legal_actions(&self) -> &[Action] {
        &self.legal
    }

    /// Works out the legal answers to the pending decision into `out`.
    pub(super) fn compute_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(d) = &self.pending else { return };
        // One action per distinct card, in first-seen order.
        fn each_distinct(out: &mut Vec<Action>, cards: impl IntoIterator<Item = CardIdx>, make: fn(CardIdx) -> Action) {
            let mut seen = engine_play::seen::Seen::default();
            out.extend(cards.into_iter().filter(|&c| seen.insert(usize::from(c))).map(make));
        }
        let hand = |seat: usize| self.players[seat].hand.iter().copied();
        match d {
            Decision::Role { seat: _, boost, optional_boost } => {
                for role in Role::ALL {
                    if !self.taken(role) {
                        out.push(Action::Role { role, boost: true });
                        if *optional_boost && *boost > 1 {
                            out.push(Action::Role { role, boost: false });
                        }
                    }
                }
            }
            Decision::Build { options, .. } => {
                // One action per option: an option equal to the one before it was never added.
                let city = &self.players[d.seat()].city;
                out.extend(options.iter().map(|o| Action::Build { card: o.card, over: o.over.map(|s| city[s].card) }));
                out.push(Action::Pass);
            }
            Decision::Pay { seat, card, remaining, goods_left, goods_needed, goods_of, over, .. } => {
                let hand_cards = &self.players[*seat].hand;
                let city = &self.players[*seat].city;
                let spendable = || city.iter().enumerate().filter(|(i, s)| s.good.is_some() && Some(*i) != *over);
                // Goods are counted only when some may pay (a black market).
                let no_goods = (*goods_left == 0 || spendable().next().is_none()) && *goods_of == 0;
                let valued = has_hook(self.hook_mask[*seat], Hook::CardValue as usize);
                if no_goods && !valued && *remaining as usize >= hand_cards.len() && !hand_cards.is_empty() {
                    out.push(Action::Pay(hand_cards[0])); // every card must go: nothing to choose
                    return;
                }
                if *goods_needed > 0 || valued {
                    // A card may pay only while it leaves room for the goods that must pay.
                    // Its value was worked out when the build was offered: a script error shows there.
                    let value = |c: CardIdx| self.card_value(*seat, *card, *over, c).unwrap_or(1);
                    let room = |c: &CardIdx| *goods_needed == 0 || *remaining - value(*c) >= *goods_needed;
                    each_distinct(out, hand(*seat).filter(room), Action::Pay);
                } else {
                    each_distinct(out, hand(*seat), Action::Pay);
                }
                if *remaining > 0 && *goods_left > 0 {
                    each_distinct(out, spendable().map(|(_, s)| s.card), Action::Spend);
                }
                if *remaining > 0 && *goods_of != 0 {
                    for (whose, p) in self.players.iter().enumerate().filter(|(s, _)| goods_of & (1 << s) != 0) {
                        let mut seen = engine_play::seen::Seen::default();
                        for s in p.city.iter().filter(|s| s.good.is_some() && seen.insert(usize::from(s.card))) {
                            out.push(Action::SpendOf(s.card, whose as u8));
                        }
                    }
                }
            }
            Decision::Produce { seat, .. } => {
                let cards = &self.rs.cards;
                let empty = self.players[*seat]
                    .city
                    .iter()
                    .filter(|s| s.good.is_none() && cards.get(s.card).kind == Kind::Production)
                    .map(|s| s.card);
                each_distinct(out, empty, Action::Produce);
                out.push(Action::Pass);
            }
            Decision::Sell { seat, .. } => {
                let city = self.players[*seat].city.iter().enumerate();
                if self.unsellable.is_empty() {
                    each_distinct(out, city.filter(|(_, s)| s.good.is_some()).map(|(_, s)| s.card), Action::Sell);
                } else {
                    // A good an action put on a building this phase is not for sale yet.
                    let fresh = |i: usize| self.unsellable.contains(&(*seat, i));
                    let goods = city.filter(|(i, s)| s.good.is_some() && !fresh(*i)).map(|(_, s)| s.card);
                    each_distinct(out, goods, Action::Sell);
                }
                out.extend(self.sell_acts.iter().map(|&a| Action::Act(a)));
                out.push(Action::Pass);
            }
            Decision::Keep { left, may_stop: false, .. } if *left >= self.limbo.len() && !self.limbo.is_empty() => {
                out.push(Action::Keep(self.limbo[0]));
            }
            Decision::Discard { seat, left, .. }
                if *left >= self.players[*seat].hand.len() && !self.players[*seat].hand.is_empty() =>
            {
                out.push(Action::Discard(self.players[*seat].hand[0]));
            }
            Decision::Keep { may_stop, .. } => {
                each_distinct(out, self.limbo.iter().copied(), Action::Keep);
                if *may_stop {
                    out.push(Action::Pass);
                }
            }
            Decision::Discard { seat, .. } => each_distinct(out, hand(*seat), Action::Discard),
            Decision::Reveal { keepable, .. } => {
                each_distinct(out, keepable.iter().copied(), Action::Keep);
                out.push(Action::Pass);
            }
            Decision::Tuck { seat, .. } => {
                each_distinct(out, hand(*seat), Action::Tuck);
                out.push(Action::Pass);
            }
            Decision::Exchange { seat, .. } => {
                each_distinct(out, hand(*seat), Action::Discard);
                out.push(Action::Pass);
            }
            Decision::Choose { options, .. } => out.extend(options.iter().map(|&w| Action::Choose(w))),
            Decision::Pick { rules, .. } => {
                each_distinct(out, self.pick_candidates(d), Action::Pick);
                if rules.optional {
                    out.push(Action::Pass);
                }
            }
            Decision::Give { seat, left, .. }
                if *left >= self.players[*seat].hand.len() && !self.players[*seat].hand.is_empty() =>
            {
                out.push(Action::Give(self.players[*seat].hand[0]));
            }
            Decision::Give { seat, .. } => each_distinct(out, hand(*seat), Action::Give),
            Decision::Look { .. } => {
                each_distinct(out, self.limbo.iter().copied(), Action::Discard);
                out.push(Action::Pass);
            }
        }
    }

    /// Applies one action and advances to the next real decision.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, GameError> {
        if let Some(why) = &self.broken {
            return Err(GameError::Broken(why.clone()));
        }
        if self.pending.is_none() {
            return Err(GameError::Over);
        }
        let action = self.as_pick(action);
        self.check_legal(action)?;
        self.apply_trusted(action)?;
        Ok(self.journal.take_events())
    }

    /// [`apply`](Self::apply) for an action known to be one of the legal ones,
    /// leaving the events it logs in the journal (a bot's game logs none).
    // Inlined into the bot's move, with `advance`: a call less per decision
    // (1.6% of a random game's instructions with the hints beside it).
    #[inline(always)]
    pub(crate) fn apply_trusted(&mut self, action: Action) -> Result<(), GameError> {
        if let Some(why) = &self.broken {
            return Err(GameError::Broken(why.clone()));
        }
        self.journal.record(action);
        let result = self.apply_legal(action).and_then(|()| self.advance());
        if let Err(e) = &result {
            self.broken = Some(e.to_string());
        }
        result
    }

    /// `choose x` names an option when a script offered one called `x`; when
    /// cards are being chosen it names the card `x`.
    fn as_pick(&self, action: Action) -> Action {
        match (action, &self.pending) {
            (Action::Choose(w), Some(Decision::Pick { .. })) => {
                self.rs.cards.idx(&self.rs.cards.word_name(w)).map_or(action, Action::Pick)
            }
            _ => action,
        }
    }

    fn check_legal(&self, action: Action) -> Result<(), GameError> {
        let Some(why) = self.why_illegal(action) else { return Ok(()) };
        let cards = &self.rs.cards;
        Err(GameError::Illegal {
            action: action.text(cards),
            why,
            legal: self.legal.iter().map(|a| a.text(cards)).collect(),
        })
    }

    /// Applies an action known to be legal.
    pub(super) fn apply_legal(&mut self, action: Action) -> Result<(), GameError> {
        self.journal.count_action();
        let decision = self.pending.take().expect("a decision is pending");
        // Answering goes on with the chain of events that asked for the decision.
        self.chain = self.pending_chain;
        if self.logging() {
            self.log_action(&decision, action);
        }
        let wrong = || -> ! { unreachable!("legal action {action:?} does not answer the pending decision") };
        match decision {
            Decision::Role { seat, boost, .. } => {
                let Action::Role { role, boost: use_boost } = action else { wrong() };
                self.choose_role(seat, role, if use_boost { boost } else { 1 })
            }
            d @ Decision::Build { .. } => self.apply_build(d, action),
            d @ Decision::Pay { .. } => self.apply_pay(d, action),
            d @ Decision::Produce { .. } => self.apply_produce(d, action),
            d @ Decision::Sell { .. } => self.apply_sell(d, action),
            Decision::Keep { seat, left, may_stop, by } => self.answer_keep(seat, left, may_stop, by, action),
            Decision::Discard { seat, left, reason } => {
                let Action::Discard(card) = action else { wrong() };
                // A script's discard of every hand card was forced: notation accepts it written out.
                if matches!(reason, DiscardReason::Building(_)) && self.legal.len() <= 1 {
                    self.auto_paid.push(action);
                }
                let c = self.take_from_hand(seat, card);
                self.discard.push(c);
                self.run += 1;
                if left > 1 {
                    self.pending = Some(Decision::Discard { seat, left: left - 1, reason });
                } else {
                    let (why, by) = match reason {
                        DiscardReason::HandLimit => ("hand_limit", None),
                        DiscardReason::Council => ("councillor", None),
                        DiscardReason::Setup => ("setup", None),
                        DiscardReason::Building(b) => ("building", Some(b)),
                    };
                    self.tell_discarded(seat, why, by);
                }
                Ok(())
            }
            Decision::Reveal { seat, slot, .. } => {
                if let Action::Keep(card) = action {
                    self.keep_drawn(seat, card);
                    let by = Some(self.players[seat].city[slot].card);
                    self.publish(DREW, |_| EventFacts { n: 1, why: "kept", by, ..EventFacts::new("drew", seat) });
                }
                self.discard.append(&mut self.limbo);
                Ok(())
            }
            Decision::Tuck { seat, slot, left, done } => self.answer_tuck(seat, slot, left, done, action),
            Decision::Exchange { seat, left, done } => self.answer_exchange(seat, left, done, action),
            Decision::Choose { seat, owner, slot, tag, .. } => {
                let Action::Choose(w) = action else { wrong() };
                let answer = Answer::Option(self.rs.cards.word_name(w));
                self.answer_choice(seat, owner.into(), slot.into(), answer, *tag)
            }
            Decision::Pick { seat, of, owner, slot, from, left, picked, rules } => {
                let card = match action {
                    Action::Pass => {
                        let answer = Answer::Cards(Arc::new(picked.into_vec()));
                        return self.answer_choice(seat, owner.into(), slot.into(), answer, rules.tag);
                    }
                    Action::Pick(card) => card,
                    _ => wrong(),
                };
                let mut picked = picked.into_vec();
                picked.push(card);
                let d = Decision::Pick { seat, of, owner, slot, from, left: left - 1, picked: picked.into(), rules };
                if left > 1 && !self.pick_candidates(&d).is_empty() {
                    self.pending = Some(d);
                    return Ok(());
                }
                let Decision::Pick { picked, rules, .. } = d else { unreachable!() };
                self.answer_choice(
                    seat,
                    owner.into(),
                    slot.into(),
                    Answer::Cards(Arc::new(picked.into_vec())),
                    rules.tag,
                )
            }
            Decision::Give { seat, to, left, cause } => {
                let Action::Give(card) = action else { wrong() };
                let c = self.take_from_hand(seat, card);
                self.players[to].hand.push(c);
                self.players[to].gained += 1;
                if left > 1 && !self.players[seat].hand.is_empty() {
                    self.pending = Some(Decision::Give { seat, to, left: left - 1, cause });
                }
                Ok(())
            }
            Decision::Look { seat, slot, left } => self.answer_look(seat, slot, left, action),
        }
    }

    /// Tells that `seat` discarded the cards counted in `run` (one event for a whole decision).
    pub(crate) fn tell_discarded(&mut self, seat: usize, why: &'static str, by: Option<CardIdx>) {
        let n = std::mem::take(&mut self.run);
        if n > 0 {
            self.publish(DISCARDED, |_| EventFacts { n, why, by, ..EventFacts::new("discarded", seat) });
        }
    }

    /// Moves `card` from the cards drawn into `seat`'s hand.
    fn keep_drawn(&mut self, seat: usize, card: CardIdx) {
        let i = self.limbo.iter().position(|&c| c == card).expect("legal keep");
        let c = self.limbo.swap_remove(i);
        self.players[seat].hand.push(c);
        self.players[seat].gained += 1;
    }

    /// Keeps a card of those drawn (or stops, where that is allowed); the rest
    /// are discarded once `left` are kept.
    fn answer_keep(
        &mut self,
        seat: usize,
        left: usize,
        may_stop: bool,
        by: Option<CardIdx>,
        a: Action,
    ) -> Result<(), GameError> {
        let kept = match a {
            Action::Keep(card) => {
                self.keep_drawn(seat, card);
                self.run += 1;
                true
            }
            _ => false,
        };
        if kept && left > 1 && !self.limbo.is_empty() {
            self.pending = Some(Decision::Keep { seat, left: left - 1, may_stop, by });
        } else {
            // The councillor's cards, or a building's reveal (`by`): kept ones are drawn,
            // the councillor's others discarded (revealed ones were never the player's).
            let n = std::mem::take(&mut self.run);
            let why = if by.is_some() { "kept" } else { "councillor" };
            if n > 0 {
                self.publish(DREW, |_| EventFacts { n, why, by, ..EventFacts::new("drew", seat) });
            }
            if by.is_none() && !self.limbo.is_empty() {
                let n = self.limbo.len() as i32;
                self.publish(DISCARDED, |_| EventFacts { n, why, ..EventFacts::new("discarded", seat) });
            }
            if !self.limbo.is_empty() {
                let n = self.limbo.len();
                self.secret_event(seat, None, |g| {
                    let public = match n {
                        1 => format!("seat {seat} discards the other card"),
                        n => format!("seat {seat} discards the other {n} cards"),
                    };
                    (format!("{public}: {}", g.ids(&g.limbo)), public)
                });
            }
            self.discard.append(&mut self.limbo);
        }
        Ok(())
    }

    /// Puts a hand card under the building in `slot`, or stops (`pass`).
    fn answer_tuck(&mut self, seat: usize, slot: usize, left: usize, done: usize, a: Action) -> Result<(), GameError> {
        let done = if let Action::Tuck(card) = a {
            let c = self.take_from_hand(seat, card);
            let s = &mut self.players[seat].city[slot];
            s.under.push(c);
            s.under_from = Some(s.card);
            done + 1
        } else {
            done
        };
        let more = matches!(a, Action::Tuck(_)) && left > 1 && !self.players[seat].hand.is_empty();
        if more {
            self.pending = Some(Decision::Tuck { seat, slot, left: left - 1, done });
        } else if done > 0 {
            self.players[seat].city[slot].uses += 1;
            let building = Some(self.players[seat].city[slot].card);
            self.publish(TUCKED, |_| EventFacts {
                n: done as i32,
                building,
                why: "hand",
                by: building,
                ..EventFacts::new("tucked", seat)
            });
        }
        Ok(())
    }

    /// Discards a hand card to exchange, or stops (`pass`) and draws as many as were discarded.
    fn answer_exchange(&mut self, seat: usize, left: usize, done: usize, a: Action) -> Result<(), GameError> {
        let done = if let Action::Discard(card) = a {
            let c = self.take_from_hand(seat, card);
            self.discard.push(c);
            done + 1
        } else {
            done
        };
        let more = matches!(a, Action::Discard(_)) && left > 1 && !self.players[seat].hand.is_empty();
        if more {
            self.pending = Some(Decision::Exchange { seat, left: left - 1, done });
        } else {
            if done > 0 {
                let n = done as i32;
                self.publish(DISCARDED, |_| EventFacts { n, why: "exchange", ..EventFacts::new("discarded", seat) });
            }
            self.draw_to_hand(seat, done as i32, "exchange");
        }
        Ok(())
    }

    /// Discards one of the cards looked at, or stops (`pass`) and puts the rest back.
    fn answer_look(&mut self, seat: usize, slot: usize, left: usize, a: Action) -> Result<(), GameError> {
        if let Action::Discard(card) = a {
            let i = self.limbo.iter().position(|&c| c == card).expect("legal discard");
            self.discard.push(self.limbo.remove(i));
            if left > 1 && !self.limbo.is_empty() {
                self.pending = Some(Decision::Look { seat, slot, left: left - 1 });
                return Ok(());
            }
        }
        self.put_back();
        Ok(())
    }
}
