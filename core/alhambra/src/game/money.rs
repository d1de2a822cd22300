//! Money cards that are cards of their own: a card that pays in any slot or
//! says when it may be paid and what it is worth (`can_pay`, `on_pay_value`),
//! and deck cards that act when drawn (`on_drawn`).
//!
//! A ruleset whose money is only currencies × values (`Ruleset::odd_money`
//! false, no deck card) never comes here: its payments are sums per currency.

use engine_script::results::{as_bool, as_int_in};
use rhai::{Dynamic, Map};

use super::scripts::{Heard, Listener, int, payload, s};
use super::{Decision, Game};
use crate::actions::Action;
use crate::error::GameError;
use crate::hooks::{HOOKS, Hook};
use crate::ruleset::Money;

impl Game {
    /// True when `seat` holds a card whose payment the sums per currency do not tell.
    pub(crate) fn holds_odd_money(&self, seat: usize) -> bool {
        self.rs.odd_money && self.players[seat].hand().iter().any(|&m| self.is_odd(m))
    }

    /// A `[[money_card]]` that pays, or a card whose script says when it may be paid or what it is worth.
    fn is_odd(&self, m: Money) -> bool {
        let hooks = &self.rs.hooks;
        let k = self.rs.kind(m);
        let script = k.script;
        // A money card that pays at all is not in its currency's sum (the legal buys read those).
        (k.special && (k.any || k.pays_in.is_some()))
            || hooks.currency_listens(Hook::CanPay, script)
            || hooks.currency_listens(Hook::PayValue, script)
    }

    /// The money card `m` of `seat` as a listener of its own script's `hook`, if it defines it.
    fn money_listener(&self, hook: Hook, seat: usize, m: Money) -> Option<Listener> {
        let script = self.rs.kind(m).script;
        let hooks = &self.rs.hooks;
        hooks.currency_listens(hook, script).then(|| Listener {
            owner: hooks.currency_owner(script),
            seat,
            card: Heard::Money(m),
            owned: self.players[seat].hand().iter().filter(|&&h| h == m).count() as i32,
            kind: None,
            args: None,
        })
    }

    /// `ctx.event` of `can_pay` and `on_pay_value`: the price, what was paid so far, the slot and its building.
    fn pay_event(&self, slot: u8, paid: u32) -> Dynamic {
        let (b, price) = self.slot_building(slot);
        let def = self.rs.building(b);
        Dynamic::from_map(payload([
            ("price", int(price)),
            ("paid", int(paid)),
            ("slot", int(slot + 1)), // as players say it: `buy 1` is slot 1
            ("building", s(&def.id)),
            ("type", s(&self.rs.types[def.kind as usize].id)),
            ("currency", s(&self.rs.currencies[self.rs.yard[slot as usize] as usize].id)),
        ]))
    }

    /// `l`'s `can_pay` or `on_pay_value` about paying for the building in
    /// `slot`, `paid` paid so far. A script that reads of `ctx` only its card
    /// and the event is remembered by the two, the event by what makes it
    /// (building, slot, price, paid): no event is made to be looked up
    /// (a joker is asked for every building at every decision of its holder).
    fn pay_hook(&self, hook: Hook, l: &Listener, seat: usize, slot: u8, paid: u32) -> Result<Dynamic, GameError> {
        let hooks = &self.rs.hooks;
        if !matches!(l.card, Heard::Money(_)) || !hooks.reads_card_and_event_only(hook, l.owner) {
            return self.call_listener(hook, l, seat, &self.pay_event(slot, paid), &[]);
        }
        let (b, price) = self.slot_building(slot);
        // A money card's code leaves bits 72 to 123 free: the building and the slot go there
        // (unless the script reads only the amounts: then every building of a price is one).
        let card = match hooks.reads_event_amounts_only(hook, l.owner) {
            true => l.card.code(),
            false => l.card.code() | (u128::from(b) << 80) | (u128::from(slot) << 72),
        };
        let about = (u64::from(paid) << 32) | u64::from(price);
        let ask = || self.call_listener(hook, l, seat, &self.pay_event(slot, paid), &[]);
        hooks.about((hook as u8, l.owner as u16, card, about), ask)
    }

    /// True when `seat` may pay `m` now for the building in `slot`, `paid` paid so far.
    pub(crate) fn may_pay(&self, seat: usize, slot: u8, paid: u32, m: Money) -> Result<bool, GameError> {
        let by_currency = self.pays_mask(slot) & (1 << m.currency) != 0;
        if !by_currency {
            return Ok(false);
        }
        let Some(l) = self.money_listener(Hook::CanPay, seat, m) else { return Ok(true) };
        let v = self.pay_hook(Hook::CanPay, &l, seat, slot, paid)?;
        as_bool(v).map_err(|e| self.rs.hooks.bad_card_return(Hook::CanPay, l.owner, &e))
    }

    /// What `m` is worth paid now for the building in `slot`, `paid` paid so far.
    pub(crate) fn pay_value(&self, seat: usize, slot: u8, paid: u32, m: Money) -> Result<u32, GameError> {
        let Some(l) = self.money_listener(Hook::PayValue, seat, m) else { return Ok(u32::from(m.value)) };
        let v = self.pay_hook(Hook::PayValue, &l, seat, slot, paid)?;
        let range = HOOKS[Hook::PayValue as usize].range;
        let v = as_int_in(v, range).map_err(|e| self.rs.hooks.bad_card_return(Hook::PayValue, l.owner, &e))?;
        Ok(v as u32)
    }

    /// The most `seat` can pay for the building in `slot`: every card that may
    /// pay with no say of its own first, then each other card while it may be
    /// paid (a card worth what is missing counts most when it comes last).
    pub(crate) fn most_payable(&self, seat: usize, slot: u8) -> Result<u32, GameError> {
        let price = self.price_at(slot);
        let pays = self.pays_mask(slot);
        let hand = self.players[seat].hand();
        let (odd, plain): (Vec<Money>, Vec<Money>) =
            hand.iter().copied().filter(|m| pays & (1 << m.currency) != 0).partition(|&m| self.is_odd(m));
        let mut paid: u32 = plain.iter().map(|m| u32::from(m.value)).sum();
        for m in odd {
            if paid >= price {
                break;
            }
            if self.may_pay(seat, slot, paid, m)? {
                paid += self.pay_value(seat, slot, paid, m)?;
            }
        }
        Ok(paid)
    }

    /// The legal answers when some money card pays in its own way: as
    /// [`Game::compute_legal`] has them, with the buys and payments worked
    /// out card by card while the seat holds such a card.
    #[inline(never)]
    pub(super) fn compute_odd_legal(&self, out: &mut Vec<Action>) -> Result<(), GameError> {
        self.compute_legal(out);
        match self.pending {
            Some(Decision::Turn { seat }) if self.holds_odd_money(seat) => {
                out.retain(|a| !matches!(a, Action::Buy(_) | Action::Pass));
                self.odd_buys(seat, out)?;
                if out.is_empty() {
                    out.push(Action::Pass);
                }
                Ok(())
            }
            Some(Decision::Pay { seat, slot, paid }) => {
                out.clear();
                self.odd_pays(seat, slot, paid, out)
            }
            _ => Ok(()),
        }
    }

    /// The buys legal for `seat`, who holds a card worth what its script says:
    /// the payment is worked out card by card.
    #[inline(never)]
    pub(super) fn odd_buys(&self, seat: usize, out: &mut Vec<Action>) -> Result<(), GameError> {
        for (slot, b) in self.building_display.iter().enumerate() {
            if b.is_some() && self.most_payable(seat, slot as u8)? >= self.price_at(slot as u8) {
                out.push(Action::Buy(slot as u8));
            }
        }
        Ok(())
    }

    /// The cards `seat` may pay now for the building in `slot` (`paid` so far), one action per kind.
    #[inline(never)]
    pub(super) fn odd_pays(&self, seat: usize, slot: u8, paid: u32, out: &mut Vec<Action>) -> Result<(), GameError> {
        let pays = self.pays_mask(slot);
        for &m in self.players[seat].hand() {
            if pays & (1 << m.currency) != 0 && !out.contains(&Action::Pay(m)) && self.may_pay(seat, slot, paid, m)? {
                out.push(Action::Pay(m));
            }
        }
        if out.is_empty() {
            // Only a card's script can refuse every card left: say so rather than wait forever.
            return Err(GameError::Broken(format!(
                "seat {seat} has paid {paid} of {} and no card it holds may be paid now (a money card's \
                 `can_pay` refuses); a building is offered only when its price can be paid",
                self.price_at(slot)
            )));
        }
        Ok(())
    }

    /// A deck card `d` was drawn: its `on_drawn` acts (heard as the player to
    /// move's), then it leaves the game.
    pub(crate) fn deck_card_drawn(&mut self, d: u8) -> Result<(), GameError> {
        let seat = self.pending.map_or(self.to_move_after_turn(), |p| p.seat());
        self.drawn_out.push(d);
        self.event(None, |g| format!("{} is drawn from the money deck", g.rs.deck_cards[d as usize].name));
        let hooks = &self.rs.hooks;
        if !hooks.deck_listens(Hook::Drawn, d as usize) {
            return Ok(());
        }
        let l = Listener {
            owner: hooks.deck_owner(d as usize),
            seat,
            card: Heard::Deck(d),
            owned: 0,
            kind: None,
            args: None,
        };
        let event = Dynamic::from_map(Map::from_iter([("seat".into(), int(seat))]));
        let value = self.call_listener(Hook::Drawn, &l, seat, &event, &[])?;
        self.apply_effects(Hook::Drawn, &l, value)
    }

    /// The seat whose turn it is while no decision is pending (the displays are refilled after its turn).
    fn to_move_after_turn(&self) -> usize {
        self.refilling_for.unwrap_or(0)
    }
}
