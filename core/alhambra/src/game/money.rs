//! Money cards that are cards of their own: a card that pays in any slot or
//! says when it may be paid and what it is worth (`can_pay`, `on_pay_value`),
//! and deck cards that act when drawn (`on_drawn`).
//!
//! A ruleset whose money is only currencies × values (`Ruleset::odd_money`
//! false, no deck card) never comes here: its payments are sums per currency.

use engine_script::results::{as_bool, as_int_in};
use rhai::{Dynamic, Map};

use super::Game;
use super::scripts::{Heard, Listener, int, payload, s};
use crate::error::GameError;
use crate::hooks::{HOOKS, Hook};
use crate::ruleset::Money;

impl Game {
    /// True when `seat` holds a card whose payment the sums per currency do not tell.
    pub(crate) fn holds_odd_money(&self, seat: usize) -> bool {
        self.rs.odd_money && self.players[seat].hand().iter().any(|&m| self.is_odd(m))
    }

    /// A card that pays in any slot, or whose script says when it may be paid or what it is worth.
    fn is_odd(&self, m: Money) -> bool {
        let hooks = &self.rs.hooks;
        let script = self.rs.money[m.kind as usize].script;
        m.currency == crate::ruleset::ANY_CURRENCY
            || hooks.currency_listens(Hook::CanPay, script)
            || hooks.currency_listens(Hook::PayValue, script)
    }

    /// The money card `m` of `seat` as a listener of its own script's `hook`, if it defines it.
    fn money_listener(&self, hook: Hook, seat: usize, m: Money) -> Option<Listener> {
        let script = self.rs.money[m.kind as usize].script;
        let hooks = &self.rs.hooks;
        hooks.currency_listens(hook, script).then(|| Listener {
            owner: hooks.currency_owner(script),
            seat,
            card: Heard::Money(m),
            owned: self.players[seat].hand().iter().filter(|h| h.kind == m.kind).count() as i32,
            kind: None,
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

    /// True when `seat` may pay `m` now for the building in `slot`, `paid` paid so far.
    pub(crate) fn may_pay(&self, seat: usize, slot: u8, paid: u32, m: Money) -> Result<bool, GameError> {
        let by_currency = self.pays_mask(slot) & (1 << m.currency) != 0;
        if !by_currency {
            return Ok(false);
        }
        let Some(l) = self.money_listener(Hook::CanPay, seat, m) else { return Ok(true) };
        let v = self.call_listener(Hook::CanPay, &l, seat, &self.pay_event(slot, paid), &[])?;
        as_bool(v).map_err(|e| self.rs.hooks.bad_card_return(Hook::CanPay, l.owner, &e))
    }

    /// What `m` is worth paid now for the building in `slot`, `paid` paid so far.
    pub(crate) fn pay_value(&self, seat: usize, slot: u8, paid: u32, m: Money) -> Result<u32, GameError> {
        let Some(l) = self.money_listener(Hook::PayValue, seat, m) else { return Ok(u32::from(m.value)) };
        let v = self.call_listener(Hook::PayValue, &l, seat, &self.pay_event(slot, paid), &[])?;
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
        let l = Listener { owner: hooks.deck_owner(d as usize), seat, card: Heard::Deck(d), owned: 0, kind: None };
        let event = Dynamic::from_map(Map::from_iter([("seat".into(), int(seat))]));
        let value = self.call_listener(Hook::Drawn, &l, seat, &event, &[])?;
        self.apply_effects(Hook::Drawn, &l, value)
    }

    /// The seat whose turn it is while no decision is pending (the displays are refilled after its turn).
    fn to_move_after_turn(&self) -> usize {
        self.refilling_for.unwrap_or(0)
    }
}
