//! How a building is paid when scripts set the rules: `on_payment` (asked of
//! the building being built and of the builder's buildings: more goods that
//! may pay, goods that must, a refusal) and `on_card_value` (a hand card that
//! pays more than one card). Nobody listening costs one bit test per ruleset.

use engine_script::has_hook;

use crate::cards::CardIdx;
use crate::error::GameError;
use crate::game::{BuildOption, Game};
use crate::hooks::{self, Ctx, Hook};

/// The keys an `on_payment` map may hold.
pub(crate) const PAYMENT_KEYS: &[&str] = &["goods_as_cards", "min_goods", "refuse"];

/// What the payment rules of one build say, all answers together.
#[derive(Clone, Debug, Default)]
pub(crate) struct PayRule {
    /// More of the builder's goods that may pay (their `goods_as_cards` added up).
    pub goods: i32,
    /// At least this many goods must pay (the largest `min_goods`).
    pub min_goods: i32,
    /// The building that asks for `min_goods`.
    pub min_by: Option<CardIdx>,
    /// The first refusal: the building that refused and its reason.
    pub refused: Option<(CardIdx, String)>,
}

impl PayRule {
    /// The goods that may pay: those the buildings grant, those the rules
    /// add, and at least those the rules ask for, up to those there are.
    pub(crate) fn goods_allowed(&self, means: Means) -> i32 {
        means.granted.saturating_add(self.goods).max(self.min_goods).min(means.spendable).max(0)
    }
}

/// What `seat` has to pay a build with, besides its hand.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Means {
    /// Goods its buildings let pay (black market), before the rules of this build.
    pub granted: i32,
    /// Goods it could spend: on its buildings, the covered one's lost.
    pub spendable: i32,
    /// Other seats whose goods may pay (a bit each), and their goods.
    pub others_mask: u16,
    /// See `others_mask`.
    pub others: i32,
}

impl Game {
    /// True when some card of the ruleset sets payment rules: without one,
    /// a build is paid as the base game pays it and nothing is asked.
    #[inline]
    pub(crate) fn payment_rules_exist(&self) -> bool {
        has_hook(self.rs.all_hooks, Hook::Payment as usize) || has_hook(self.rs.all_hooks, Hook::CardValue as usize)
    }

    /// True when building `card` for `seat` meets a payment rule: the card's
    /// own `on_payment`, or one of the seat's buildings' `on_payment` or `on_card_value`.
    #[inline]
    pub(crate) fn pays_by_rule(&self, seat: usize, card: CardIdx) -> bool {
        let mask = self.hook_mask[seat];
        has_hook(self.rs.hook_masks[card as usize], Hook::Payment as usize)
            || has_hook(mask, Hook::Payment as usize)
            || has_hook(mask, Hook::CardValue as usize)
    }

    /// The payment rules of building `card` for `seat` (over its building in `over`).
    pub(crate) fn pay_rule(&self, seat: usize, card: CardIdx, over: Option<usize>) -> Result<PayRule, GameError> {
        let mut rule = PayRule::default();
        let over_card = over.map(|s| self.players[seat].city[s].card);
        let aim = |mut ctx: Ctx| {
            ctx.target = Some(card);
            ctx.over = over_card;
            ctx
        };
        if has_hook(self.rs.hook_masks[card as usize], Hook::Payment as usize) {
            self.read_payment(aim(self.ctx_of_card(seat, card)), &mut rule)?;
        }
        // The building being covered has already lost its function.
        for slot in self.listeners(Hook::Payment, seat).iter().filter(|&s| Some(s) != over) {
            self.read_payment(aim(self.ctx(seat, slot)), &mut rule)?;
        }
        Ok(rule)
    }

    fn read_payment(&self, ctx: Ctx, rule: &mut PayRule) -> Result<(), GameError> {
        let by = ctx.card;
        let (goods, min, refuse) = self.call_map(Hook::Payment, ctx, PAYMENT_KEYS, |m| {
            let refuse = match m.get("refuse") {
                Some(v) if !v.is_unit() => {
                    let t = v.type_name();
                    let text = v.clone().into_immutable_string();
                    Some(text.map_err(|_| format!("key `refuse` is a {t}, expected a string (the reason)"))?)
                }
                _ => None,
            };
            Ok((hooks::map_int(m, "goods_as_cards")?, hooks::map_int(m, "min_goods")?, refuse))
        })?;
        rule.goods = rule.goods.saturating_add(goods);
        if min > rule.min_goods {
            rule.min_goods = min;
            rule.min_by = Some(by);
        }
        if rule.refused.is_none()
            && let Some(reason) = refuse
        {
            rule.refused = Some((by, reason.to_string()));
        }
        Ok(())
    }

    /// How many cards of `target`'s cost the hand card `paying` pays for
    /// `seat`: the largest of 1 and its working buildings' `on_card_value`
    /// (not the covered one's).
    #[inline]
    pub(crate) fn card_value(
        &self,
        seat: usize,
        target: CardIdx,
        over: Option<usize>,
        paying: CardIdx,
    ) -> Result<i32, GameError> {
        if !has_hook(self.hook_mask[seat], Hook::CardValue as usize) {
            return Ok(1);
        }
        self.card_value_by_script(seat, target, over, paying)
    }

    #[inline(never)]
    fn card_value_by_script(
        &self,
        seat: usize,
        target: CardIdx,
        over: Option<usize>,
        paying: CardIdx,
    ) -> Result<i32, GameError> {
        let over_card = over.map(|s| self.players[seat].city[s].card);
        let mut best = 1;
        for slot in self.listeners(Hook::CardValue, seat).iter().filter(|&s| Some(s) != over) {
            let mut ctx = self.ctx(seat, slot);
            ctx.target = Some(target);
            ctx.over = over_card;
            ctx.paying = Some(paying);
            best = best.max(self.call_int(Hook::CardValue, ctx)?);
        }
        Ok(best)
    }

    /// What `seat`'s hand pays of `target`'s cost in all, one copy of
    /// `target` left out when it is built from the hand.
    pub(crate) fn hand_value(
        &self,
        seat: usize,
        target: CardIdx,
        over: Option<usize>,
        from_hand: bool,
    ) -> Result<i32, GameError> {
        let hand = &self.players[seat].hand;
        if !has_hook(self.hook_mask[seat], Hook::CardValue as usize) {
            return Ok(hand.len() as i32 - i32::from(from_hand));
        }
        let mut skip = from_hand;
        let mut total = 0i32;
        for &c in hand {
            if skip && c == target {
                skip = false;
                continue;
            }
            total = total.saturating_add(self.card_value(seat, target, over, c)?);
        }
        Ok(total)
    }

    /// The option of building `card` for `cost` under the payment rules, or
    /// `None` when they refuse it or the seat cannot pay it their way.
    pub(crate) fn ruled_option(
        &self,
        seat: usize,
        card: CardIdx,
        over: Option<usize>,
        cost: i32,
        from: crate::game::BuildFrom,
        means: Means,
    ) -> Result<Option<BuildOption>, GameError> {
        let from_hand = from == crate::game::BuildFrom::Hand;
        let rule = self.pay_rule(seat, card, over)?;
        if rule.refused.is_some() {
            return Ok(None);
        }
        let goods = rule.goods_allowed(means);
        let min_goods = rule.min_goods.min(cost);
        // Other seats' goods (a caravan depot's) pay too, and count as goods that must.
        let goods_of = means.others_mask;
        if goods.saturating_add(means.others) < min_goods
            || cost > self.hand_value(seat, card, over, from_hand)?.saturating_add(goods).saturating_add(means.others)
        {
            return Ok(None);
        }
        Ok(Some(BuildOption { card, over, cost, goods_as_cards: goods, min_goods, goods_of }))
    }

    /// What `seat` may pay a build over `over` with besides its hand, by its
    /// buildings' `on_build_options` alone.
    pub(crate) fn means(
        &self,
        seat: usize,
        grants: &[(usize, i32)],
        goods_of: &[(usize, u16)],
        over: Option<usize>,
    ) -> Means {
        let city = &self.players[seat].city;
        let granted = grants.iter().filter(|(s, _)| Some(*s) != over).map(|(_, n)| n).sum();
        let spendable = city.iter().enumerate().filter(|(i, s)| s.good.is_some() && Some(*i) != over).count() as i32;
        let others_mask = goods_of.iter().filter(|(s, _)| Some(*s) != over).fold(0, |m, (_, b)| m | b);
        Means { granted, spendable, others_mask, others: self.goods_of_seats(others_mask) }
    }

    /// The goods on the buildings of the seats in `mask` (a bit each).
    pub(crate) fn goods_of_seats(&self, mask: u16) -> i32 {
        let seats = self.players.iter().enumerate().filter(|(s, _)| mask & (1 << s) != 0);
        seats.map(|(_, p)| crate::game::goods_on(&p.city) as i32).sum()
    }
}
