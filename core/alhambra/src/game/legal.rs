//! Legal actions and applying them: the legal answers to the pending
//! decision, worked out once per decision, and [`Game::apply`], which checks an
//! action against them and applies it.

use super::asks::{Step, then};
use super::scripts::{facts, int, s};
use super::{Decision, Event, Game};
use crate::actions::Action;
use crate::error::GameError;
use crate::hooks;
use crate::ruleset::Money;
use engine_rules::profile::OFFERING;
use rhai::Dynamic;

impl Game {
    /// Applies one action and advances to the next real decision.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, GameError> {
        if let Some(why) = &self.broken {
            return Err(GameError::Broken(why.clone()));
        }
        if self.pending.is_none() {
            return Err(GameError::Over);
        }
        self.check_legal(action)?;
        self.apply_checked(action)?;
        Ok(self.journal.take_events())
    }

    /// Applies a legal action and advances; a failure part way breaks the game.
    // Inlined into the bot's move, with `advance`: a call less per decision.
    #[inline(always)]
    pub(super) fn apply_checked(&mut self, action: Action) -> Result<(), GameError> {
        if let Some(why) = &self.broken {
            return Err(GameError::Broken(why.clone()));
        }
        self.journal.record(action);
        self.auto.clear();
        let result = self.apply_legal(action).and_then(|()| self.advance());
        if let Err(e) = &result {
            self.broken = Some(e.to_string());
        }
        result
    }

    /// Applies an action for `seat`: refused with the reason if it is not that seat's decision.
    pub fn apply_as(&mut self, seat: usize, action: Action) -> Result<Vec<Event>, GameError> {
        if let Some(why) = self.not_your_turn(seat) {
            return Err(self.illegal(action, why));
        }
        self.apply(action)
    }

    pub(super) fn check_legal(&self, action: Action) -> Result<(), GameError> {
        match self.why_illegal(action) {
            None => Ok(()),
            Some(why) => Err(self.illegal(action, why)),
        }
    }

    /// Runs until a decision with a real choice is pending or the game ends.
    #[inline]
    pub(crate) fn advance(&mut self) -> Result<(), GameError> {
        loop {
            if self.queued {
                self.settle()?;
            }
            if self.pending.is_none() {
                break;
            }
            self.refresh_mods()?;
            let mut legal = std::mem::take(&mut self.legal);
            if self.rs.scripted_legal {
                // Out of line: a card's or an action's script may be asked, and may fail.
                let computed = self.compute_scripted_legal(&mut legal);
                self.legal = legal;
                computed?;
            } else {
                self.compute_legal(&mut legal);
                self.legal = legal;
            }
            if self.legal.len() != 1 {
                return Ok(());
            }
            let only = self.legal[0];
            self.auto.push(only);
            self.apply_legal(only)?;
        }
        self.legal.clear();
        Ok(())
    }

    /// The legal answers when scripts take part: odd money (paid card by card,
    /// its scripts asked), then the ruleset's own actions — but not in a copy
    /// judged for another seat ([`Game::judging`]) once the game's own
    /// answers are two or more: no one asks for them there, and with two
    /// answers none is played alone, so the positions reached are the same.
    /// (Asking every pair of cards about an exchange for the next seat, in
    /// every answer the bot judged, was most of a money changer's game.)
    #[inline(never)]
    fn compute_scripted_legal(&self, out: &mut Vec<Action>) -> Result<(), GameError> {
        if self.rs.odd_money {
            self.compute_odd_legal(out)?;
        } else {
            self.compute_legal(out);
        }
        let unasked =
            out.len() >= 2 && self.judging.is_some_and(|s| self.pending.is_some_and(|d| d.seat() != usize::from(s)));
        if !self.rs.actions.is_empty() && !unasked {
            self.rs.hooks.script_host().timed_work(OFFERING, || self.custom_legal(out))?;
        }
        Ok(())
    }

    /// Works out the legal answers to the pending decision into `out`.
    // Inlined into `advance` as before odd money had its own path (the bots' hottest loop).
    #[inline(always)]
    pub(super) fn compute_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(d) = self.pending else { return };
        // One action per distinct money card, in first-seen order: a bit per
        // card of the usual currencies and values, a search of the list for others.
        let mut seen = 0u64;
        let mut push = |out: &mut Vec<Action>, m: Money, make: fn(Money) -> Action| {
            let new = if m.currency < 4 && m.value < 16 {
                let bit = 1u64 << (m.currency * 16 + m.value);
                let new = seen & bit == 0;
                seen |= bit;
                new
            } else {
                !out.contains(&make(m))
            };
            if new {
                out.push(make(m));
            }
        };
        match d {
            Decision::Turn { seat } => {
                for &m in &self.money_display {
                    push(out, m, Action::Take);
                }
                if self.mods.is_none() {
                    let (player, rs) = (&self.players[seat], &self.rs);
                    // A slot's currency beside it (the yard has a currency per display slot).
                    for (slot, (b, &currency)) in self.building_display.iter().zip(&rs.yard).enumerate() {
                        if let Some(b) = b
                            && player.sum(currency) >= u32::from(rs.building(*b).price)
                        {
                            out.push(Action::Buy(slot as u8));
                        }
                    }
                } else {
                    for (slot, b) in self.building_display.iter().enumerate() {
                        if b.is_some() && self.money_for(seat, slot as u8) >= self.price_at(slot as u8) {
                            out.push(Action::Buy(slot as u8));
                        }
                    }
                }
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
            Decision::Take { taken, .. } => {
                let mut room = self.take_limit().saturating_sub(taken);
                if self.extra_takes > 0 {
                    // A card's `extra_take`: one more card past the total, of a value the limit allows (or of any).
                    room = if self.extra_any_value { u32::MAX } else { self.take_limit() };
                }
                for &m in &self.money_display {
                    if u32::from(m.value) <= room {
                        push(out, m, Action::Take);
                    }
                }
                out.push(Action::Done);
            }
            Decision::Pay { seat, slot, .. } => {
                let pays = self.pays_mask(slot);
                for &m in self.players[seat].hand() {
                    if pays & (1 << m.currency) != 0 {
                        push(out, m, Action::Pay);
                    }
                }
            }
            Decision::Donate { .. } => {
                out.push(Action::Keep);
                out.push(Action::Donate);
            }
            // The actions themselves come from `custom_legal`.
            Decision::OutOfTurn { .. } => out.push(Action::Pass),
            Decision::PayAny { seat, paid } => self.pay_any_legal(seat, paid, out),
            Decision::Choose { .. } | Decision::Discard { .. } => self.ask_legal(out),
        }
    }

    /// Applies an action known to be legal.
    fn apply_legal(&mut self, action: Action) -> Result<(), GameError> {
        self.journal.count_action();
        let d = self.pending.take().expect("a decision is pending");
        match (d, action) {
            (Decision::Turn { seat } | Decision::Take { seat, .. }, Action::Take(m)) => {
                let taken = match d {
                    Decision::Take { taken, .. } => taken,
                    _ => 0,
                };
                if self.extra_takes > 0 && taken + u32::from(m.value) > self.take_limit() {
                    self.extra_takes -= 1;
                }
                let i = self.money_display.iter().position(|&x| x == m).expect("legal take");
                self.money_display.remove(i);
                self.players[seat].gain_money(m);
                self.event(Some(seat), |g| format!("seat {seat} takes {}", g.rs.money_id(m)));
                let taken = taken + u32::from(m.value);
                self.pending = Some(Decision::Take { seat, taken });
                self.event_hooks(hooks::TAKEN, seat, &[m], |g, keys| {
                    facts!(keys;
                        "seat" => int(seat),
                        "cards" => g.money_ids(&[m]),
                        "total" => int(m.value),
                        "taken" => int(taken),
                    )
                })
            }
            (Decision::Take { seat, .. }, Action::Done) | (Decision::Turn { seat }, Action::Pass) => {
                if action == Action::Pass {
                    self.event(Some(seat), |_| format!("seat {seat} can neither take money nor buy: passes"));
                }
                self.action_done(seat)
            }
            (Decision::Turn { seat }, Action::Buy(slot)) => {
                self.event(Some(seat), |g| {
                    let (b, _) = g.slot_building(slot);
                    format!("seat {seat} buys {} from slot {}", g.rs.building(b).id, slot + 1)
                });
                self.pending = Some(Decision::Pay { seat, slot, paid: 0 });
                self.paid_cards = 0;
                Ok(())
            }
            (Decision::Pay { seat, slot, paid }, Action::Pay(m)) => {
                // Worth its face value, or what its script says now (before it leaves the hand).
                let worth = if self.rs.odd_money { self.pay_value(seat, slot, paid, m)? } else { u32::from(m.value) };
                self.paid_cards = self.paid_cards.wrapping_add(1);
                let player = &mut self.players[seat];
                let i = player.hand().iter().position(|&x| x == m).expect("legal payment");
                player.lose_money_at(i);
                self.discard.push(m);
                let paid = paid + worth;
                let (_, price) = self.slot_building(slot);
                self.event(Some(seat), |g| {
                    let worth = if worth == u32::from(m.value) { String::new() } else { format!(" (worth {worth})") };
                    format!("seat {seat} pays {}{worth}", g.rs.money_id(m))
                });
                if paid < price {
                    self.pending = Some(Decision::Pay { seat, slot, paid });
                    return Ok(());
                }
                let mut exact = paid == price;
                if self.rs.hooks.listened() != 0 {
                    exact = self.paid_hooks(seat, slot, paid, price, exact)?;
                }
                if self.neutral.is_some() {
                    self.pending = Some(Decision::Donate { seat, slot, exact });
                    return Ok(());
                }
                then!(self, Step::Acquire { seat, slot, donate: false, exact }, self.acquire(seat, slot, false, exact))
            }
            (Decision::Donate { seat, slot, exact }, Action::Keep | Action::Donate) => {
                self.acquire(seat, slot, action == Action::Donate, exact)
            }
            (Decision::Turn { seat }, Action::Act(a)) => self.act(seat, a),
            (Decision::Choose { .. } | Decision::Discard { .. }, a) => self.answer(a),
            // Last and out of line: the base game's answers are matched as before there was any.
            (d, a) => self.answer_rare(d, a),
        }
    }

    /// An answer to a decision no base game asks: a seat asked out of turn, a payment in any one currency.
    #[cold]
    #[inline(never)]
    fn answer_rare(&mut self, d: Decision, a: Action) -> Result<(), GameError> {
        if let (Decision::PayAny { seat, paid }, Action::Pay(m)) = (d, a) {
            return self.pay_any(seat, paid, m);
        }
        let Decision::OutOfTurn { seat, ended, k } = d else {
            unreachable!("legal action {a:?} does not answer {d:?}")
        };
        match a {
            Action::Act(a) => {
                self.out_of_turn = Some((ended, k));
                self.act(seat, a)
            }
            Action::Pass => {
                self.event(Some(seat), |_| format!("seat {seat} does not act out of turn"));
                self.ask_out_of_turn(usize::from(ended), usize::from(k) + 1)
            }
            _ => unreachable!("legal action {a:?} does not answer {d:?}"),
        }
    }
}

impl Game {
    /// A payment completed: whether some card counts an overpayment as exact,
    /// then the `paid` event (the cards, the price, exact or not).
    pub(super) fn paid_hooks(
        &mut self,
        seat: usize,
        slot: u8,
        paid: u32,
        price: u32,
        exact: bool,
    ) -> Result<bool, GameError> {
        // The payment's cards are the discard pile's top ones: as many as were paid.
        let count = usize::from(self.paid_cards).min(self.discard.len());
        let cards = self.discard[self.discard.len() - count..].to_vec();
        let (b, at, currency) = self.bought_at(slot);
        let event = |g: &Game, keys: u64, exact: bool| {
            let def = g.rs.building(b);
            Dynamic::from_map(facts!(keys;
                "seat" => int(seat),
                "cards" => g.money_ids(&cards),
                "paid" => int(paid),
                "price" => int(price),
                "exact" => Dynamic::from_bool(exact),
                "slot" => at.clone(), // as players say it: `buy 1` is slot 1
                "building" => s(&def.id),
                "type" => s(&g.rs.types[def.kind as usize].id),
                "currency" => currency.clone(),
            ))
        };
        let asked = self.rs.hooks.event_keys([hooks::Hook::Exact]);
        let exact = exact || self.counts_as_exact(seat, || event(self, asked, false))?;
        if exact && paid != price {
            self.event(Some(seat), |_| format!("seat {seat}'s overpayment counts as exact: another action"));
        }
        self.event_hooks(hooks::PAID, seat, &cards, |g, keys| event(g, keys, exact).cast::<rhai::Map>())?;
        Ok(exact)
    }
}
