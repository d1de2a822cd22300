//! Why an action is illegal, in the words a player would use.

use super::{Decision, Game, count, n_cards};
use crate::actions::Action;
use crate::cards::{CardIdx, Kind};

impl Game {
    /// What the seat of decision `d` must do, in words: `choose a role`.
    pub(super) fn task(&self, d: &Decision) -> String {
        let cards = &self.rs.cards;
        match d {
            Decision::Role { .. } => "choose a role".into(),
            Decision::Build { .. } => "build or pass".into(),
            Decision::Pay { card, remaining, .. } => {
                format!("pay {} more for {}", n_cards(*remaining), cards.id(*card))
            }
            Decision::Produce { .. } => "produce or pass".into(),
            Decision::Sell { .. } => "sell or pass".into(),
            Decision::Keep { left, .. } => format!("keep {} of the drawn cards", left),
            Decision::Discard { left, .. } => format!("discard {}", n_cards(*left as i64)),
            Decision::Reveal { .. } => "keep a revealed card or pass".into(),
            Decision::Tuck { seat, slot, .. } => {
                format!("put cards under its {} or pass", self.name_of(self.players[*seat].city[*slot].card))
            }
            Decision::Exchange { .. } => "discard cards to exchange or pass".into(),
            Decision::Choose { owner, slot, options, .. } => {
                let options: Vec<String> =
                    options.iter().map(|&w| format!("`choose {}`", cards.word_name(w))).collect();
                format!("answer its {}: {}", self.name_of(self.card_at(*owner, *slot)), options.join(" or "))
            }
            Decision::Pick { owner, slot, from, left, .. } => format!(
                "choose {} from its {} for its {}",
                n_cards(*left as i64),
                from.name(),
                self.name_of(self.card_at(*owner, *slot))
            ),
            Decision::Give { left, to, .. } => format!("give {} to seat {to}", n_cards(*left as i64)),
            Decision::Look { .. } => "discard one of the cards it looked at, or pass".into(),
        }
    }

    /// Why `action` is not a legal answer to the pending decision, in words
    /// (`seat 0 already has a smithy; a city building may be built only once`);
    /// `None` if it is legal.
    pub fn why_illegal(&self, action: Action) -> Option<String> {
        if self.legal.contains(&action) {
            return None;
        }
        let Some(d) = &self.pending else {
            return Some("the game is over; no decision is pending".into());
        };
        let seat = d.seat();
        let cards = &self.rs.cards;
        let id = |c: CardIdx| cards.id(c);
        let p = &self.players[seat];
        let in_hand = |c: CardIdx| p.hand.contains(&c);
        let no_card = |c: CardIdx| format!("seat {seat} has no {} in hand", id(c));
        if let Some(why) = self.not_an_answer(d, action) {
            return Some(why);
        }
        let why = match (d, action) {
            (Decision::Role { .. }, Action::Role { role, .. }) if self.taken(role) => {
                format!("the {role} was already chosen this round")
            }
            (Decision::Role { .. }, Action::Role { role, boost: false }) => {
                format!("seat {seat} has no privilege boost to decline; write `role {role}`")
            }
            (Decision::Build { .. }, Action::Build { card, over }) => self.why_not_build(seat, card, over),
            (
                Decision::Pay { .. }
                | Decision::Discard { .. }
                | Decision::Exchange { .. }
                | Decision::Tuck { .. }
                | Decision::Give { .. },
                Action::Pay(c) | Action::Discard(c) | Action::Tuck(c) | Action::Give(c),
            ) if !in_hand(c) => no_card(c),
            (Decision::Look { .. }, Action::Discard(c)) => {
                format!("{} is not among the cards seat {seat} looks at", id(c))
            }
            (Decision::Pick { from, .. }, Action::Pick(c)) => {
                format!("{} is not among the cards seat {seat} may still choose from its {}", id(c), from.name())
            }
            (Decision::Pay { goods_left, over, .. }, Action::Spend(b)) => {
                let slots = || p.city.iter().enumerate().filter(|(_, s)| s.card == b);
                if *goods_left <= 0 {
                    format!("seat {seat} may pay with no (more) goods")
                } else if slots().next().is_none() {
                    format!("seat {seat} has no {}", id(b))
                } else if slots().all(|(i, s)| s.good.is_none() || Some(i) == *over) {
                    let covered = slots().any(|(i, s)| s.good.is_some() && Some(i) == *over);
                    if covered {
                        format!("the good on {} is lost with the building it covers", id(b))
                    } else {
                        format!("seat {seat} has no good on {}", id(b))
                    }
                } else {
                    format!("seat {seat} cannot spend the good on {} now", id(b))
                }
            }
            (Decision::Pay { goods_of, .. }, Action::SpendOf(b, whose)) => {
                let whose = usize::from(whose);
                let theirs = self.players.get(whose).map(|o| o.city.iter().any(|s| s.card == b && s.good.is_some()));
                if whose == seat {
                    format!("the good on seat {seat}'s own {} is written `spend {}`", id(b), id(b))
                } else if whose >= self.players.len() || goods_of & (1 << whose) == 0 {
                    format!("none of seat {seat}'s buildings lets seat {whose}'s goods pay")
                } else if theirs != Some(true) {
                    format!("seat {whose} has no good on {}", id(b))
                } else {
                    format!("seat {seat} cannot spend the good on seat {whose}'s {} now", id(b))
                }
            }
            (Decision::Produce { .. }, Action::Produce(b)) => {
                let def = cards.get(b);
                if !p.owns(b) {
                    format!("seat {seat} has no {}", id(b))
                } else if def.kind != Kind::Production {
                    format!("{} is not a production building; only production buildings produce", id(b))
                } else {
                    format!("seat {seat}'s {} already has a good; a building holds one good at most", id(b))
                }
            }
            (Decision::Sell { .. }, Action::Sell(b)) => {
                if !p.owns(b) {
                    format!("seat {seat} has no {}", id(b))
                } else {
                    format!("seat {seat} has no good on {}", id(b))
                }
            }
            (Decision::Keep { .. }, Action::Keep(c)) => format!("{} is not among the cards seat {seat} drew", id(c)),
            (Decision::Reveal { slot, keepable, .. }, Action::Keep(c)) => {
                let by = self.name_of(p.city[*slot].card);
                if !self.limbo.contains(&c) {
                    format!("{} is not among the cards the {by} revealed", id(c))
                } else {
                    let ids: Vec<&str> = keepable.iter().map(|&k| id(k)).collect();
                    format!("the {by} lets seat {seat} keep only {}", ids.join(", "))
                }
            }
            _ => format!("seat {seat} must {}", self.task(d)),
        };
        Some(why)
    }

    /// Why `action` does not even answer the kind of decision `d` is (`build`
    /// when a role is to be chosen); `None` if it does.
    fn not_an_answer(&self, d: &Decision, action: Action) -> Option<String> {
        let answers = matches!(
            (d, action),
            (Decision::Role { .. }, Action::Role { .. })
                | (Decision::Build { .. }, Action::Build { .. } | Action::Pass)
                | (Decision::Pay { .. }, Action::Pay(_) | Action::Spend(_) | Action::SpendOf(..))
                | (Decision::Produce { .. }, Action::Produce(_) | Action::Pass)
                | (Decision::Sell { .. }, Action::Sell(_) | Action::Pass | Action::Act(_))
                | (Decision::Keep { .. }, Action::Keep(_))
                | (Decision::Discard { .. }, Action::Discard(_))
                | (Decision::Reveal { .. }, Action::Keep(_) | Action::Pass)
                | (Decision::Tuck { .. }, Action::Tuck(_) | Action::Pass)
                | (Decision::Exchange { .. }, Action::Discard(_) | Action::Pass)
                | (Decision::Choose { .. }, Action::Choose(_))
                | (Decision::Pick { .. }, Action::Pick(_))
                | (Decision::Give { .. }, Action::Give(_))
                | (Decision::Look { .. }, Action::Discard(_) | Action::Pass)
        ) || matches!((d, action), (Decision::Pick { rules, .. }, Action::Pass) if rules.optional);
        if !answers {
            let verb = match action {
                Action::Role { .. } => "choose a role",
                Action::Build { .. } => "build",
                Action::Pay(_) => "pay",
                Action::Spend(_) | Action::SpendOf(..) => "spend a good",
                Action::Produce(_) => "produce",
                Action::Sell(_) => "sell",
                Action::Keep(_) => "keep a card",
                Action::Discard(_) => "discard",
                Action::Tuck(_) => "put a card under a building",
                Action::Choose(_) => "choose an option",
                Action::Pick(_) => "choose a card",
                Action::Give(_) => "give a card",
                Action::Pass => "pass",
                Action::Act(_) => "take this ruleset's action",
            };
            return Some(format!("seat {} must {}, not {verb}", d.seat(), self.task(d)));
        }
        None
    }

    /// Why `seat` cannot build `card` (over a building of type `over`) now.
    fn why_not_build(&self, seat: usize, card: CardIdx, over: Option<CardIdx>) -> String {
        let cards = &self.rs.cards;
        let id = |c: CardIdx| cards.id(c);
        let p = &self.players[seat];
        let public = !p.hand.contains(&card) && self.public.contains(&card);
        if !p.hand.contains(&card) && !public {
            return format!("seat {seat} has no {} in hand", id(card));
        }
        let def = cards.get(card);
        if self.rs.rules.unique_city_buildings && def.kind == Kind::City && p.owns(card) {
            let a = if id(card).starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            return format!("seat {seat} already has {a} {}; a city building may be built only once", id(card));
        }
        let abilities = match self.build_abilities(seat) {
            Ok(a) => a,
            Err(e) => return format!("a script failed while working it out: {e}"),
        };
        let mut slot = None;
        if let Some(o) = over {
            if abilities.overbuild.is_none() {
                return format!("none of seat {seat}'s buildings lets it build over another");
            }
            let slots: Vec<usize> = (0..p.city.len()).filter(|&i| p.city[i].card == o).collect();
            if slots.is_empty() {
                return format!("seat {seat} has no {} to build over", id(o));
            }
            if o == card {
                return format!("{} cannot be built over another {}", id(card), id(o));
            }
            if abilities.except.contains(&o) {
                return format!("{} cannot be built over", id(o));
            }
            let Some(&active) = slots.iter().find(|&&i| p.city[i].active) else {
                return format!("{} was built in this builder phase; it can be built over from the next one", id(o));
            };
            slot = Some(active);
        }
        let cost = match self.build_cost(seat, card, slot) {
            Ok(c) => c,
            Err(e) => return format!("a script failed while working out the cost: {e}"),
        };
        let others = p.hand.len() - usize::from(!public);
        let means = self.means(seat, &abilities.goods_grants, &abilities.goods_of, slot);
        let mut goods = means.granted.min(means.spendable).max(0);
        let mut worth = others as i32;
        if self.payment_rules_exist() && self.pays_by_rule(seat, card) {
            let ruled =
                self.pay_rule(seat, card, slot).and_then(|r| Ok((r, self.hand_value(seat, card, slot, !public)?)));
            let (rule, value) = match ruled {
                Ok(r) => r,
                Err(e) => return format!("a script failed while working out the payment: {e}"),
            };
            if let Some((by, reason)) = rule.refused {
                return format!("the {} refuses it: {reason}", self.name_of(by));
            }
            goods = rule.goods_allowed(means);
            let needed = rule.min_goods.min(cost);
            if goods + means.others < needed {
                let by = rule.min_by.map_or_else(|| id(card).to_owned(), |b| self.name_of(b));
                return format!(
                    "{} must be paid with at least {} (the {by}'s rule); seat {seat} may spend {goods}",
                    id(card),
                    count(needed, "good")
                );
            }
            worth = value;
        }
        // Other seats' goods a building lets pay (a caravan depot's) count as goods here.
        let goods = goods + means.others;
        if cost > worth + goods {
            let discounted = if cost == def.cost { "" } else { " after discounts" };
            let over = over.map(|o| format!(" over {}", id(o))).unwrap_or_default();
            let spend = if goods > 0 { format!(" and {} it may spend", count(goods, "good")) } else { String::new() };
            let other = if public { "" } else { " other" };
            let mut has = match others {
                1 => format!("1{other} card"),
                n => format!("{n}{other} cards"),
            };
            if worth != others as i32 {
                has = format!("{has} worth {worth}");
            }
            return format!("{}{over} costs {cost}{discounted}; seat {seat} has {has}{spend}", id(card));
        }
        format!("{} cannot be built now", id(card))
    }
}
