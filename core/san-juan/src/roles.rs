//! The five roles: what each phase does at its start, in each player's turn
//! and at its end. Amounts come from the ruleset; card effects from hooks.

use std::sync::Arc;

use rhai::Dynamic;

use engine_script::has_hook;

use crate::actions::{Action, Role};
use crate::cards::{CardIdx, Kind};
use crate::error::GameError;
use crate::game::effects::Origin;
use crate::game::{
    BuildFrom, BuildOption, Covered, Decision, DiscardReason, Game, Listeners, Slot, Step, count, n_cards,
};
use crate::game::{DISCARDED, DREW, GOOD_PLACED, GOOD_REMOVED, TUCKED};
use crate::hooks::{self, Ctx, EventFacts, Hook};

impl Game {
    pub(crate) fn phase_start(&mut self) -> Result<(), GameError> {
        let Some(phase) = self.phase else { return Ok(()) };
        let told = |_: &mut Game| EventFacts {
            role: Some(phase.role.name()),
            ..EventFacts::new("phase_start", phase.chooser)
        };
        self.everyone_hooks(Hook::PhaseStart, phase.chooser, phase.chooser, told)?;
        match phase.role {
            Role::Trader => {
                let t = self.tiles.pop_front();
                self.tile = t;
                self.event(None, |g| format!("trading tile: {}", g.trading_tile_text().unwrap_or_default()));
            }
            // Skipped when no building in play hears it: then none can start to.
            Role::Councillor if has_hook(self.hook_union, Hook::CouncilStart as usize) => {
                let n = self.players.len();
                for k in 0..n {
                    let seat = (phase.chooser + k) % n;
                    for slot in self.listeners(Hook::CouncilStart, seat) {
                        let ctx = self.ctx(seat, slot);
                        let card = ctx.card as usize;
                        let v = self.call(Hook::CouncilStart, ctx)?;
                        let put = hooks::as_bool(v)
                            .map_err(|e| self.rs.scripts.bad_return(Hook::CouncilStart as usize, card, &e))?;
                        if put
                            && self.players[seat].city[slot].good.is_none()
                            && let Some(c) = self.draw()
                        {
                            self.players[seat].city[slot].good = Some(c);
                            let b = card as CardIdx;
                            self.event_from(seat, b, |g| format!("seat {seat}: {} gets a good", g.name_of(b)));
                            self.publish(GOOD_PLACED, |_| EventFacts {
                                building: Some(b),
                                why: "council",
                                by: Some(b),
                                ..EventFacts::new("good_placed", seat)
                            });
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    pub(crate) fn phase_end(&mut self) -> Result<(), GameError> {
        let Some(phase) = self.phase else { return Ok(()) };
        let n = self.players.len();
        let told =
            |_: &mut Game| EventFacts { role: Some(phase.role.name()), ..EventFacts::new("phase_end", phase.chooser) };
        self.everyone_hooks(Hook::PhaseEnd, phase.chooser, phase.chooser, told)?;
        if !self.unsellable.is_empty() {
            self.unsellable.clear();
        }
        match phase.role {
            Role::Builder => {
                // Skipped when no building in play hears it: then none can start to.
                if has_hook(self.hook_union, Hook::BuilderEnd as usize) {
                    for k in 0..n {
                        let seat = (phase.chooser + k) % n;
                        self.draw_hooks(Hook::BuilderEnd, seat, None, |_| {})?;
                    }
                }
                for p in &mut self.players {
                    for s in &mut p.city {
                        s.active = true;
                    }
                }
                // A building an effect of the phase's end moves into a city (a patron claimed) counts too.
                let moves_in = |q: &crate::game::effects::Queued| {
                    matches!(
                        q.effect,
                        crate::game::effects::Effect::MoveCard { to: crate::game::effects::Zone::City, .. }
                    )
                };
                if self.effects.iter().any(moves_in) {
                    self.steps.push_front(Step::EndCheck);
                } else {
                    self.end_check()?;
                }
            }
            Role::Trader => {
                if has_hook(self.hook_union, Hook::TraderEnd as usize) {
                    for k in 0..n {
                        let seat = (phase.chooser + k) % n;
                        let total = self.phase_sold;
                        self.draw_hooks(Hook::TraderEnd, seat, None, |c| c.total_sold = total)?;
                    }
                }
                if let Some(t) = self.tile.take() {
                    self.tiles.push_back(t);
                }
            }
            _ => {}
        }
        self.phase = None;
        Ok(())
    }

    /// The game ends after the builder phase in which someone has `end_buildings` buildings.
    #[inline]
    pub(crate) fn end_check(&mut self) -> Result<(), GameError> {
        let end = self.rs.rules.end_buildings;
        if self.players.iter().any(|p| p.city.len() >= end) {
            return self.game_ends();
        }
        Ok(())
    }

    /// The builder phase ended the game: its end is heard, then the scoring.
    #[inline(never)]
    fn game_ends(&mut self) -> Result<(), GameError> {
        self.steps.clear();
        self.event(None, |_| "the game ends".into());
        let governor = self.governor;
        self.everyone_hooks(Hook::GameEnd, governor, governor, |_| EventFacts::new("game_end", governor))?;
        // The effects (and events) of the phase's and the game's end come before the scoring.
        if self.effects.is_empty() && self.heard.is_empty() {
            self.over = true;
        } else {
            self.steps.push_back(Step::Over);
        }
        Ok(())
    }

    pub(crate) fn turn(&mut self, seat: usize) -> Result<(), GameError> {
        let Some(phase) = self.phase else { return Ok(()) };
        let rules = &self.rs.rules;
        match phase.role {
            Role::Builder => self.builder_turn(seat),
            // Goods to produce or sell: the action, the privilege, then the buildings' extras.
            Role::Producer | Role::Trader => {
                type Say = fn(&str, i32) -> String;
                let grants = self.players[seat].grants;
                let (base, privilege, hook, others, granted, say): (i32, i32, Hook, Hook, i32, Say) = match phase.role {
                    Role::Producer => (
                        rules.produce,
                        rules.producer_privilege,
                        Hook::Produce,
                        Hook::OtherProduce,
                        grants.produce,
                        |id, n| format!("{id} lets it produce {} more", count(n, "good")),
                    ),
                    _ => (rules.sell, rules.trader_privilege, Hook::Sell, Hook::OtherSell, grants.sell, |id, n| {
                        format!("{id} lets it sell {} more", count(n, "good"))
                    }),
                };
                let mut from_others = Vec::new();
                self.others_each(others, seat, |_| {}, |b, v| from_others.push((b, v)))?;
                for &(b, v) in &from_others {
                    if v != 0 {
                        self.event_from(seat, b, |g| {
                            format!("seat {seat}: {}", say(&format!("another player's {}", g.name_of(b)), v))
                        });
                    }
                }
                let others: i32 = from_others.iter().map(|(_, v)| v).sum();
                let left = base + self.privilege(seat, privilege) + self.sum_hook(hook, seat, say)? + granted + others;
                if left > 0 {
                    if phase.role == Role::Producer {
                        self.pending = Some(Decision::Produce { seat, left, done: 0 });
                    } else {
                        return self.ask_sell(seat, left, 0);
                    }
                }
                Ok(())
            }
            Role::Councillor => self.councillor_turn(seat),
            Role::Prospector => {
                let extra = self.privilege(seat, rules.prospector_privilege);
                self.draw_to_hand(seat, extra, "prospector");
                let reveals: Vec<Step> =
                    self.listeners(Hook::Prospect, seat).into_iter().map(|slot| Step::Reveal { seat, slot }).collect();
                for s in reveals.into_iter().rev() {
                    self.steps.push_front(s);
                }
                Ok(())
            }
        }
    }

    // ----- builder -----------------------------------------------------------

    /// What `seat`'s buildings let it do in a builder turn (build over, pay with goods).
    pub(crate) fn build_abilities(&self, seat: usize) -> Result<BuildAbilities, GameError> {
        let mut out = BuildAbilities::default();
        for slot in self.listeners(Hook::BuildOptions, seat) {
            let grant = self.grant_of(seat, slot)?;
            if grant.overbuild {
                out.overbuild.get_or_insert(slot);
            }
            out.goods_grants.push((slot, grant.goods_as_cards));
            // The builder's own goods are `goods_as_cards`'.
            let of = grant.goods_of & !(1 << seat);
            if of != 0 {
                out.goods_of.push((slot, of));
            }
            out.except.extend_from_slice(&grant.except);
        }
        Ok(out)
    }

    /// Some building of `seat`'s lets it build the cards of its reserve. Asked
    /// only when it holds some, so that a game without reserves never asks.
    fn builds_from_reserve(&self, seat: usize) -> Result<bool, GameError> {
        for slot in self.listeners(Hook::BuildOptions, seat) {
            if self.grant_of(seat, slot)?.from_reserve {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// What `seat`'s building in `slot` grants by its `on_build_options`,
    /// remembered per building where its script reads nothing else.
    #[inline(always)]
    fn grant_of(&self, seat: usize, slot: usize) -> Result<std::borrow::Cow<'_, hooks::BuildGrant>, GameError> {
        let card = self.players[seat].city[slot].card;
        if let Some(g) = self.rs.build_grants.get(card) {
            return Ok(std::borrow::Cow::Borrowed(g));
        }
        let parsed = self.build_grant(seat, slot)?;
        self.rs.build_grants.set(card, &parsed);
        Ok(std::borrow::Cow::Owned(parsed))
    }

    /// What the building in `seat`'s `slot` grants by its `on_build_options`.
    fn build_grant(&self, seat: usize, slot: usize) -> Result<hooks::BuildGrant, GameError> {
        let ctx = self.ctx(seat, slot);
        let card = ctx.card as usize;
        let bad = |e: String| self.rs.scripts.bad_return(Hook::BuildOptions as usize, card, &e);
        let keys = &["overbuild", "overbuild_except", "goods_as_cards", "goods_of", "build_from"];
        let map = hooks::as_map(self.call(Hook::BuildOptions, ctx)?, keys).map_err(bad)?;
        let overbuild = hooks::map_bool(&map, "overbuild").map_err(bad)?;
        let goods_as_cards = hooks::map_int(&map, "goods_as_cards").map_err(bad)?;
        let goods_of = match map.get("goods_of") {
            Some(v) => hooks::seat_bits(v, self.players.len()).map_err(|e| bad(format!("key `goods_of` {e}")))?,
            None => 0,
        };
        let except = match map.get("overbuild_except") {
            Some(v) => hooks::as_cards(v, &self.rs.cards).map_err(bad)?.as_slice().into(),
            None => std::sync::Arc::from([]),
        };
        let mut from_reserve = false;
        if let Some(v) = map.get("build_from") {
            let zones =
                v.as_array_ref().map_err(|_| bad("key `build_from` takes a list of zones: [\"reserve\"]".into()))?;
            for z in zones.iter() {
                match z.clone().into_string().as_deref() {
                    Ok("reserve") => from_reserve = true,
                    Ok("hand" | "public") => {} // always
                    _ => return Err(bad(format!("key `build_from` lists {z}; a building is built from \"reserve\" (the hand and the public cards always)")).into()),
                }
            }
        }
        Ok(hooks::BuildGrant { overbuild, except, goods_as_cards, goods_of, from_reserve })
    }

    /// The building that lets `seat` pay with goods (a black market), for the log.
    pub(crate) fn goods_payer(&self, seat: usize) -> Option<CardIdx> {
        let abilities = self.build_abilities(seat).ok()?;
        let (slot, _) = abilities.goods_grants.iter().find(|(_, n)| *n > 0)?;
        Some(self.players[seat].city[*slot].card)
    }

    fn builder_turn(&mut self, seat: usize) -> Result<(), GameError> {
        let from_reserve = !self.players[seat].reserve.is_empty() && self.builds_from_reserve(seat)?;
        if from_reserve || !self.rs.all_buildable {
            self.builder_turn_zones(seat, from_reserve)
        } else {
            self.builder_turn_in::<false>(seat, false)
        }
    }

    /// [`Game::builder_turn_in`] with zones, kept out of line: no built-in ruleset needs it.
    #[cold]
    #[inline(never)]
    fn builder_turn_zones(&mut self, seat: usize, from_reserve: bool) -> Result<(), GameError> {
        self.builder_turn_in::<true>(seat, from_reserve)
    }

    /// A builder turn's options. `ZONES`: some card may come from the reserve,
    /// or some public card may not be built; without (every built-in ruleset)
    /// the candidates are the hand's and the public cards', compiled apart so
    /// that the common turn pays nothing for zones.
    fn builder_turn_in<const ZONES: bool>(&mut self, seat: usize, from_reserve: bool) -> Result<(), GameError> {
        let BuildAbilities { overbuild, except, goods_grants, goods_of } = self.build_abilities(seat)?;
        let overbuild = overbuild.is_some();
        let mut options = std::mem::take(&mut self.spare_options);
        let p = &self.players[seat];
        // A covered building loses its function and its good at once (EN2 crane; DE2:
        // "es kann für den Bau des neuen Gebäudes nicht genutzt werden").
        let goods_for = |over: Option<usize>| -> i32 {
            if goods_grants.is_empty() {
                return 0; // no building lets goods pay: not worth counting them
            }
            let granted: i32 = goods_grants.iter().filter(|(s, _)| Some(*s) != over).map(|(_, n)| n).sum();
            let goods = p.city.iter().enumerate().filter(|(i, s)| s.good.is_some() && Some(*i) != over).count();
            granted.min(goods as i32)
        };
        // Other seats' goods that may pay (a caravan depot's), and which seats'.
        let others_for = |over: Option<usize>| -> (u16, i32) {
            if goods_of.is_empty() {
                return (0, 0);
            }
            let mask = goods_of.iter().filter(|(s, _)| Some(*s) != over).fold(0, |m, (_, b)| m | b);
            (mask, self.goods_of_seats(mask))
        };
        let cards = &self.rs.cards;
        // With unique city buildings, the city's cards, looked up once rather than per candidate.
        let owned = self.rs.rules.unique_city_buildings.then(|| {
            let mut owned = engine_play::seen::Seen::default();
            for s in &p.city {
                owned.insert(usize::from(s.card));
            }
            owned
        });

        let cost_listeners = self.listeners(Hook::BuildCost, seat);
        // Not covering anything: the same goods for every card.
        let goods = goods_for(None);
        let (others_mask, others) = others_for(None);
        // The buildings that may be covered, with the goods left to pay with
        // when each is: the same for every card, so worked out once.
        // With whether the covered building has an `on_covered_cost` of its own.
        let coverable: smallvec::SmallVec<[(usize, CardIdx, i32, bool); 12]> = if overbuild {
            p.city
                .iter()
                .enumerate()
                .filter(|&(slot, s)| {
                    let excluded = except.contains(&s.card);
                    // Of several equal buildings, offer only the first one without a good (nothing is lost).
                    let better_twin = p.city.iter().enumerate().any(|(i, o)| {
                        i != slot
                            && o.card == s.card
                            && o.active
                            && (o.good.is_none(), std::cmp::Reverse(i)) > (s.good.is_none(), std::cmp::Reverse(slot))
                    });
                    !excluded && s.active && !better_twin
                })
                .map(|(slot, s)| {
                    let hears = self.rs.scripts.listens(Hook::CoveredCost as usize, s.card as usize);
                    let goods = goods_for(Some(slot)).saturating_add(others_for(Some(slot)).1);
                    (slot, s.card, goods, hears)
                })
                .collect()
        } else {
            smallvec::SmallVec::new()
        };
        // Covering prices: the discounts that do not depend on what is covered
        // (a quarry's) are counted once per card; only the others (the crane's)
        // and the covered building's own are asked per building covered.
        // Each listener with its table row, found once per turn.
        let table = &self.rs.cost_table;
        type Rows<'a> = smallvec::SmallVec<[(usize, Option<hooks::CostRow<'a>>); 4]>;
        let (mut free, mut bound) = (Rows::new(), Rows::new());
        if !coverable.is_empty() {
            for l in cost_listeners.iter() {
                let owner = p.city[l].card;
                let side = if table.over_free(owner) { &mut free } else { &mut bound };
                side.push((l, table.row(owner)));
            }
        }
        // A listener's discount: from its row, else its script.
        let discount_of =
            |l: usize, row: Option<hooks::CostRow>, card: CardIdx, from: BuildFrom, over_card: Option<CardIdx>| {
                row.and_then(|r| r.get(card, over_card))
                    .map_or_else(|| self.cost_discount_called(seat, l, card, from, over_card), Ok)
            };
        let others_hear = has_hook(self.hook_union, Hook::OtherBuildCost as usize);
        let privilege = self.privilege(seat, self.rs.rules.builder_discount);
        let granted = p.grants.discount;
        let ruled = self.payment_rules_exist();
        // One candidate, `card` from `from` (a macro: expanded once per instance below).
        macro_rules! consider {
            ($card:expr, $from:expr) => {{
                let (card, from): (CardIdx, BuildFrom) = ($card, $from);
                let def = cards.get(card);
                let in_hand_after = p.hand.len() as i32 - i32::from(from == BuildFrom::Hand);
                // Covering X with a city building you already own elsewhere would make two.
                if def.kind == Kind::City && owned.as_ref().is_some_and(|o| o.contains(usize::from(card))) {
                    continue;
                }
                let cost = self.build_cost_from(seat, card, from, None, &cost_listeners, |_, _| {})?;
                // A payment rule (a card's own, or the seat's buildings') decides what pays.
                let ruled = ruled && self.pays_by_rule(seat, card);
                if ruled {
                    let means = self.means(seat, &goods_grants, &goods_of, None);
                    if let Some(o) = self.ruled_option(seat, card, None, cost, from, means)? {
                        push_option(&mut options, o);
                    }
                } else if cost <= in_hand_after + goods + others {
                    let option = BuildOption {
                        card,
                        over: None,
                        cost,
                        goods_as_cards: goods,
                        min_goods: 0,
                        goods_of: others_mask,
                    };
                    push_option(&mut options, option);
                }
                if coverable.is_empty() {
                    continue;
                }
                // What build_cost_from would find for each covering, in fewer steps.
                let mut free_values: smallvec::SmallVec<[(usize, i32); 4]> = smallvec::SmallVec::new();
                for &(l, row) in &free {
                    free_values.push((l, discount_of(l, row, card, from, None)?));
                }
                let free_sum: i32 = free_values.iter().map(|&(_, v)| v).sum();
                let base = cards.get(card).cost;
                for &(slot, covered, goods, covered_hears) in &coverable {
                    if covered == card {
                        continue;
                    }
                    // The covered building has already lost its function.
                    let lost = free_values.iter().find(|&&(l, _)| l == slot).map_or(0, |&(_, v)| v);
                    let mut discount = free_sum - lost + granted;
                    for &(l, row) in bound.iter().filter(|&&(l, _)| l != slot) {
                        discount += discount_of(l, row, card, from, Some(covered))?;
                    }
                    if covered_hears || others_hear {
                        discount += self.covering_discount(seat, card, from, slot, covered_hears)?;
                    }
                    let cost = (base - privilege - discount).max(0);
                    if ruled {
                        let means = self.means(seat, &goods_grants, &goods_of, Some(slot));
                        if let Some(o) = self.ruled_option(seat, card, Some(slot), cost, from, means)? {
                            push_option(&mut options, o);
                        }
                    } else if cost <= in_hand_after + goods {
                        // Own goods and other seats' together (`goods` counts both here).
                        let (mask, theirs) = others_for(Some(slot));
                        let own = goods - theirs;
                        let option = BuildOption {
                            card,
                            over: Some(slot),
                            cost,
                            goods_as_cards: own,
                            min_goods: 0,
                            goods_of: mask,
                        };
                        push_option(&mut options, option);
                    }
                }
            }};
        }
        if ZONES {
            // The reserve first (a card there and in hand is built from the reserve), then the hand,
            // then the public cards that may be built; each card type once per zone.
            let reserve: &[CardIdx] = if from_reserve { &p.reserve } else { &[] };
            let zones =
                [(reserve, BuildFrom::Reserve), (&p.hand[..], BuildFrom::Hand), (&self.public[..], BuildFrom::Public)];
            for (zone, from) in zones {
                let mut seen = engine_play::seen::Seen::default();
                for &card in zone {
                    let skip = match from {
                        BuildFrom::Hand => reserve.contains(&card),
                        BuildFrom::Public => !cards.get(card).buildable,
                        BuildFrom::Reserve => false,
                    };
                    if seen.insert(usize::from(card)) && !skip {
                        consider!(card, from);
                    }
                }
            }
        } else {
            // Each zone its own loop: where a card comes from is a constant in each.
            for card in Game::distinct(p.hand.iter().copied()) {
                consider!(card, BuildFrom::Hand);
            }
            for card in Game::distinct(self.public.iter().copied()) {
                consider!(card, BuildFrom::Public);
            }
        }
        if options.is_empty() {
            self.spare_options = options;
        } else {
            self.pending = Some(Decision::Build { seat, options });
        }
        Ok(())
    }

    /// What `seat` would pay now to build `card` (not over anything), never below 0.
    pub fn build_cost_now(&self, seat: usize, card: CardIdx) -> Result<i32, GameError> {
        self.build_cost(seat, card, None)
    }

    /// [`Game::build_cost_now`] for one card after another: `seat`'s buildings
    /// that change costs found once.
    pub(crate) fn build_costs_now(&self, seat: usize) -> impl Fn(CardIdx) -> Result<i32, GameError> + '_ {
        let listeners = self.listeners(Hook::BuildCost, seat);
        move |card| self.build_cost_from(seat, card, BuildFrom::Hand, None, &listeners, |_, _| {})
    }

    /// The cost of building `card` (over `slot`) for `seat` now, never below 0,
    /// from where `seat` would build it ([`Game::build_from`]).
    pub(crate) fn build_cost(&self, seat: usize, card: CardIdx, over: Option<usize>) -> Result<i32, GameError> {
        self.build_cost_parts(seat, card, self.build_from(seat, card), over, |_, _| {})
    }

    /// Where `seat` would build `card` from: its reserve when it holds it there
    /// and a building lets it, else its hand, else the public cards.
    #[inline(always)]
    pub(crate) fn build_from(&self, seat: usize, card: CardIdx) -> BuildFrom {
        let p = &self.players[seat];
        if !p.reserve.is_empty() && p.reserve.contains(&card) && self.builds_from_reserve(seat).unwrap_or(false) {
            BuildFrom::Reserve
        } else if p.hand.contains(&card) || !self.public.contains(&card) {
            BuildFrom::Hand
        } else {
            BuildFrom::Public
        }
    }

    /// [`Game::build_cost`], telling `part` each discount and the building that
    /// gives it (`None`: the builder's privilege).
    pub(crate) fn build_cost_parts(
        &self,
        seat: usize,
        card: CardIdx,
        from: BuildFrom,
        over: Option<usize>,
        part: impl FnMut(Option<CardIdx>, i32),
    ) -> Result<i32, GameError> {
        self.build_cost_from(seat, card, from, over, &self.listeners(Hook::BuildCost, seat), part)
    }

    /// [`Game::build_cost_parts`] with `seat`'s cost listeners worked out by the
    /// caller (a builder turn prices every card in hand and on display with one list).
    fn build_cost_from(
        &self,
        seat: usize,
        card: CardIdx,
        from: BuildFrom,
        over: Option<usize>,
        listeners: &Listeners,
        mut part: impl FnMut(Option<CardIdx>, i32),
    ) -> Result<i32, GameError> {
        let base = self.rs.cards.get(card).cost;
        let privilege = self.privilege(seat, self.rs.rules.builder_discount);
        if privilege != 0 {
            part(None, privilege);
        }
        // Most prices: no building of the seat's or anyone else's changes them.
        if listeners.is_empty() && over.is_none() && !has_hook(self.hook_union, Hook::OtherBuildCost as usize) {
            let granted = self.players[seat].grants.discount;
            if granted != 0 {
                part(None, granted);
            }
            return Ok((base - privilege - granted).max(0));
        }
        let over_card = over.map(|s| self.players[seat].city[s].card);
        let mut discount = 0;
        // The building being covered has already lost its function.
        let table = &self.rs.cost_table;
        for slot in listeners.iter().filter(|&s| Some(s) != over) {
            let owner = self.players[seat].city[slot].card;
            let v = match table.get(owner, card, over_card) {
                Some(v) => v,
                None => self.cost_discount_called(seat, slot, card, from, over_card)?,
            };
            if v != 0 {
                part(Some(owner), v);
            }
            discount = v.saturating_add(discount);
        }
        if let Some(slot) = over
            && self.rs.scripts.listens(Hook::CoveredCost as usize, self.players[seat].city[slot].card as usize)
        {
            let v = self.covered_cost(seat, slot, card)?;
            if v != 0 {
                part(over_card, v);
            }
            discount = v.saturating_add(discount);
        }
        let edit = |c: &mut Ctx| {
            c.target = Some(card);
            c.over = over_card;
            c.target_from = Some(from);
        };
        self.others_each(Hook::OtherBuildCost, seat, edit, |b, v| {
            if v != 0 {
                part(Some(b), v);
            }
            discount = v.saturating_add(discount);
        })?;
        let granted = self.players[seat].grants.discount;
        if granted != 0 {
            part(None, granted);
            discount = granted.saturating_add(discount);
        }
        Ok((base - privilege - discount).max(0))
    }

    /// The discount `seat`'s building in `slot` gives on `card` (built over
    /// `over_card`) when the ruleset's table does not hold it: its script's
    /// answer, then kept in the table.
    #[inline(never)]
    fn cost_discount_called(
        &self,
        seat: usize,
        slot: usize,
        card: CardIdx,
        from: BuildFrom,
        over_card: Option<CardIdx>,
    ) -> Result<i32, GameError> {
        let table = &self.rs.cost_table;
        let owner = self.players[seat].city[slot].card;
        let mut ctx = self.ctx(seat, slot);
        ctx.target = Some(card);
        ctx.over = over_card;
        ctx.target_from = Some(from);
        let v = self.call_int(Hook::BuildCost, ctx)?;
        table.set(owner, card, over_card, v);
        Ok(v)
    }

    /// What covering `slot` with `card` takes off beyond `seat`'s own discounts:
    /// the covered building's `on_covered_cost` (when `covered_hears`) and the
    /// other players' `on_other_build_cost`, as [`Game::build_cost_from`] adds them.
    #[inline(never)]
    fn covering_discount(
        &self,
        seat: usize,
        card: CardIdx,
        from: BuildFrom,
        slot: usize,
        covered_hears: bool,
    ) -> Result<i32, GameError> {
        let over_card = Some(self.players[seat].city[slot].card);
        let mut discount = if covered_hears { self.covered_cost(seat, slot, card)? } else { 0 };
        let edit = |c: &mut Ctx| {
            c.target = Some(card);
            c.over = over_card;
            c.target_from = Some(from);
        };
        self.others_each(Hook::OtherBuildCost, seat, edit, |_, v| discount = v.saturating_add(discount))?;
        Ok(discount)
    }

    /// The `on_covered_cost` of `seat`'s building in `slot` when `card` covers it.
    fn covered_cost(&self, seat: usize, slot: usize, card: CardIdx) -> Result<i32, GameError> {
        let mut ctx = self.ctx(seat, slot);
        ctx.target = Some(card);
        ctx.over = Some(ctx.card);
        self.call_int(Hook::CoveredCost, ctx)
    }

    pub(crate) fn apply_build(&mut self, d: Decision, a: Action) -> Result<(), GameError> {
        let Decision::Build { seat, mut options } = d else { unreachable!() };
        let chosen = match a {
            Action::Build { card, over } => options
                .iter()
                .find(|o| o.card == card && o.over.map(|s| self.players[seat].city[s].card) == over)
                .copied(),
            _ => None,
        };
        options.clear();
        self.spare_options = options;
        let Action::Build { card, .. } = a else {
            self.event(Some(seat), |_| format!("seat {seat} does not build"));
            return Ok(());
        };
        let opt = chosen.expect("legal build");
        self.auto_paid.clear();
        let from = self.build_from(seat, card);
        if self.logging() {
            self.log_build_cost(seat, card, from, opt.over)?;
        }
        match from {
            BuildFrom::Hand => {
                let c = self.take_from_hand(seat, card);
                self.limbo.push(c);
            }
            BuildFrom::Public => {
                let i = self.public.iter().position(|&c| c == card).expect("public card");
                self.limbo.push(self.public.swap_remove(i));
            }
            BuildFrom::Reserve => {
                let reserve = &mut self.players[seat].reserve;
                let i = reserve.iter().position(|&c| c == card).expect("reserved card");
                self.limbo.push(reserve.remove(i));
            }
        }
        let pay = Decision::Pay {
            seat,
            card,
            over: opt.over,
            remaining: opt.cost,
            goods_left: opt.goods_as_cards,
            goods_needed: opt.min_goods,
            goods_of: opt.goods_of,
            paid: 0,
        };
        self.continue_pay(pay)
    }

    /// Logs a building's printed cost and each discount with the building that gives it.
    fn log_build_cost(
        &mut self,
        seat: usize,
        card: CardIdx,
        from: BuildFrom,
        over: Option<usize>,
    ) -> Result<(), GameError> {
        let mut parts: smallvec::SmallVec<[(Option<CardIdx>, i32); 4]> = smallvec::SmallVec::new();
        let cost = self.build_cost_parts(seat, card, from, over, |by, n| parts.push((by, n)))?;
        let base = self.rs.cards.get(card).cost;
        for (by, n) in parts {
            let target = self.rs.cards.id(card).to_owned();
            let text = match by {
                Some(b) => format!("seat {seat}: {} lowers the cost of {target} by {n}", self.name_of(b)),
                None => format!("seat {seat}: the builder's privilege lowers the cost of {target} by {n}"),
            };
            self.log_event(Some(seat), by, None, |_| (text, None));
        }
        if cost != base {
            self.event(Some(seat), |g| {
                format!("seat {seat}: {} costs {} instead of {base}", g.rs.cards.id(card), n_cards(cost))
            });
        }
        Ok(())
    }

    fn continue_pay(&mut self, d: Decision) -> Result<(), GameError> {
        let Decision::Pay { seat, card, over, remaining, paid, .. } = d else { unreachable!() };
        if remaining > 0 {
            self.pending = Some(d);
            return Ok(());
        }
        self.place_building(seat, card, over, paid)
    }

    pub(crate) fn apply_pay(&mut self, d: Decision, a: Action) -> Result<(), GameError> {
        let Decision::Pay { seat, card, over, remaining, goods_left, goods_needed, goods_of, paid } = d else {
            unreachable!()
        };
        let (goods_left, goods_needed, value) = match a {
            Action::Pay(c) => {
                if self.legal.len() <= 1 {
                    self.auto_paid.push(a); // forced: notation accepts it written out
                }
                let value = self.card_value(seat, card, over, c)?;
                let c = self.take_from_hand(seat, c);
                self.discard.push(c);
                self.run += 1;
                (goods_left, goods_needed, value)
            }
            Action::Spend(b) => {
                if self.legal.len() <= 1 {
                    self.auto_paid.push(a); // goods that must pay, the last one forced
                }
                let slot =
                    self.players[seat].city.iter().position(|s| s.card == b && s.good.is_some()).expect("legal spend");
                let good = self.players[seat].city[slot].good.take().expect("good");
                self.discard.push(good);
                self.publish(GOOD_REMOVED, |_| EventFacts {
                    building: Some(b),
                    why: "spent",
                    ..EventFacts::new("good_removed", seat)
                });
                (goods_left - 1, (goods_needed - 1).max(0), 1)
            }
            Action::SpendOf(b, whose) => {
                if self.legal.len() <= 1 {
                    self.auto_paid.push(a);
                }
                let whose = usize::from(whose);
                let slot = self.players[whose].city.iter().position(|s| s.card == b && s.good.is_some());
                let good = self.players[whose].city[slot.expect("legal spend")].good.take().expect("good");
                self.discard.push(good);
                // The building whose rule let this seat's good pay, for its owner's scripts.
                let by = self
                    .build_abilities(seat)?
                    .goods_of
                    .iter()
                    .find(|(_, m)| m & (1 << whose) != 0)
                    .map(|(s, _)| self.players[seat].city[*s].card);
                self.publish(GOOD_REMOVED, |_| EventFacts {
                    building: Some(b),
                    why: "spent",
                    by,
                    ..EventFacts::new("good_removed", whose)
                });
                // Another seat's good counts as a good that must pay (a mint's), not as one's own allowance.
                (goods_left, (goods_needed - 1).max(0), 1)
            }
            _ => unreachable!(),
        };
        // A card worth more than what is left pays it all: no change is given.
        let remaining = (remaining - value).max(0);
        let next = Decision::Pay { seat, card, over, remaining, goods_left, goods_needed, goods_of, paid: paid + 1 };
        self.continue_pay(next)
    }

    fn place_building(&mut self, seat: usize, card: CardIdx, over: Option<usize>, paid: i32) -> Result<(), GameError> {
        let i = self.limbo.iter().position(|&c| c == card).expect("building waits in limbo");
        self.limbo.swap_remove(i);
        self.tell_discarded(seat, "build", None);
        match over {
            Some(slot) => {
                let s = &mut self.players[seat].city[slot];
                if let Some(good) = s.good.take() {
                    self.discard.push(good);
                    let building = Some(s.card);
                    self.publish(GOOD_REMOVED, |_| EventFacts {
                        building,
                        why: "covered",
                        ..EventFacts::new("good_removed", seat)
                    });
                }
                let s = &mut self.players[seat].city[slot];
                let old = std::mem::replace(&mut s.card, card);
                // The covered building keeps its history; the new one starts afresh.
                s.covered.push(Covered {
                    card: old,
                    built_round: s.built_round,
                    counter: std::mem::take(&mut s.counter),
                });
                s.active = false;
                s.uses = 0;
                s.built_round = self.round;
            }
            None => {
                let mut slot = Slot::new(card, false);
                slot.built_round = self.round;
                self.players[seat].city.push(slot);
            }
        }
        self.refresh_seat_mask(seat);
        self.event(Some(seat), |g| {
            let over =
                over.map(|s| format!(" over {}", g.rs.cards.id(g.players[seat].city[s].covered.last().unwrap().card)));
            format!("seat {seat} has built {}{} for {}", g.rs.cards.id(card), over.unwrap_or_default(), n_cards(paid))
        });
        let over_card = over.and_then(|s| self.players[seat].city[s].covered.last().map(|c| c.card));
        let built = |c: &mut Ctx| {
            c.target = Some(card);
            c.over = over_card;
        };
        let slot = over.unwrap_or(self.players[seat].city.len() - 1);
        // The builder's buildings, then the others' that watch everyone's building, from the builder's left.
        let event = |_: &mut Game| EventFacts { target: Some(card), over: over_card, ..EventFacts::new("build", seat) };
        let hooks = [Some(Hook::Build), Some(Hook::OtherBuild), Some(Hook::AnyBuild)];
        self.event_hooks(hooks, seat, Some((seat, slot)), built, event)
    }

    // ----- producer and trader -------------------------------------------

    pub(crate) fn apply_produce(&mut self, d: Decision, a: Action) -> Result<(), GameError> {
        let Decision::Produce { seat, left, done } = d else { unreachable!() };
        if let Action::Produce(b) = a {
            let cards = &self.rs.cards;
            let slot = self.players[seat]
                .city
                .iter()
                .position(|s| s.card == b && s.good.is_none() && cards.get(s.card).kind == Kind::Production)
                .expect("legal produce");
            if let Some(good) = self.draw() {
                self.players[seat].city[slot].good = Some(good);
                self.turn_goods.push((b, 0));
                self.publish(GOOD_PLACED, |_| EventFacts {
                    building: Some(b),
                    why: "produced",
                    ..EventFacts::new("good_placed", seat)
                });
                let (left, done) = (left - 1, done + 1);
                if left > 0 {
                    self.pending = Some(Decision::Produce { seat, left, done });
                    return Ok(());
                }
                return self.produced(seat, done);
            }
        }
        self.produced(seat, done)
    }

    /// The end of `seat`'s producing: its own buildings hear it (`on_produced`),
    /// then everyone's (`on_any_produced`, `on_other_produced`), from the producer.
    fn produced(&mut self, seat: usize, done: i32) -> Result<(), GameError> {
        let event = |g: &mut Game| EventFacts {
            goods: g.turn_goods.drain(..).map(|(b, _)| b).collect(),
            ..EventFacts::new("produced", seat)
        };
        let hooks = [Some(Hook::Produced), Some(Hook::OtherProduced), Some(Hook::AnyProduced)];
        let heard = self.event_hooks(hooks, seat, None, |c| c.produced = done, event);
        self.turn_goods.clear();
        heard
    }

    pub(crate) fn apply_sell(&mut self, d: Decision, a: Action) -> Result<(), GameError> {
        let Decision::Sell { seat, left, done, .. } = d else { unreachable!() };
        // One call of this `finish_selling`, so that it stays inlined: a sale is hot.
        let done = if let Action::Sell(b) = a {
            let slot =
                self.players[seat].city.iter().position(|s| s.card == b && s.good.is_some()).expect("legal sell");
            // Priced while the good is still on it, as the seller saw it.
            let price = self.sale_price(seat, slot)?;
            let good = self.players[seat].city[slot].good.take().expect("good");
            self.limbo.push(good);
            self.publish(GOOD_REMOVED, |_| EventFacts {
                building: Some(b),
                why: "sold",
                ..EventFacts::new("good_removed", seat)
            });
            self.turn_goods.push((b, price));
            self.draw_to_hand(seat, price, "sold");
            self.phase_sold += 1;
            let (left, done) = (left - 1, done + 1);
            if left > 0 {
                return self.ask_sell(seat, left, done);
            }
            done
        } else if let Action::Act(act) = a {
            return self.act_at_sale(seat, left, done, act);
        } else {
            done
        };
        self.finish_selling::<false>(seat, done)
    }

    /// What the good on `seat`'s `building` sells for now: the building's
    /// `on_sale_price`, else its printed price. A failing script counts the
    /// printed price here (bots, words on a screen); the sale itself reports it.
    #[inline]
    pub fn price_of(&self, seat: usize, building: CardIdx) -> i32 {
        // The bots price every sale they weigh: most buildings have no price script.
        if !self.prices_by_script(building) {
            return self.printed_price(building);
        }
        self.price_by_script(seat, building)
    }

    /// True when a script sets the price of a good on `building`.
    #[inline]
    fn prices_by_script(&self, building: CardIdx) -> bool {
        has_hook(self.rs.all_hooks, Hook::SalePrice as usize)
            && has_hook(self.rs.hook_masks[building as usize], Hook::SalePrice as usize)
    }

    #[inline(never)]
    fn price_by_script(&self, seat: usize, building: CardIdx) -> i32 {
        let city = &self.players[seat].city;
        let slot = city.iter().position(|s| s.card == building && s.good.is_some());
        match slot.or_else(|| city.iter().position(|s| s.card == building)) {
            Some(slot) => self.sale_price(seat, slot).unwrap_or_else(|_| self.printed_price(building)),
            None => self.printed_price(building),
        }
    }

    /// What the good on `seat`'s building in `slot` sells for: its `on_sale_price`, else its printed price.
    #[inline]
    pub(crate) fn sale_price(&self, seat: usize, slot: usize) -> Result<i32, GameError> {
        let card = self.players[seat].city[slot].card;
        if self.prices_by_script(card) {
            return self.call_int(Hook::SalePrice, self.ctx(seat, slot));
        }
        Ok(self.printed_price(card))
    }

    /// The price of the good on a building of this type at the face-up tile
    /// (or its `fixed_price`), whatever a script says.
    #[inline]
    pub fn printed_price(&self, building: CardIdx) -> i32 {
        let def = self.rs.cards.get(building);
        if let Some(p) = def.fixed_price {
            return p;
        }
        match (def.good, self.trading_tile()) {
            (Some(g), Some(tile)) => tile.get(g).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// The end of `seat`'s selling: its own buildings hear it first (`on_sold`,
    /// which may keep sold goods under it), then everyone's (`on_any_sold`,
    /// `on_other_sold`), from the seller.
    ///
    /// `AFTER_ACT`: called after one of the ruleset's own actions (not from a
    /// sale): two copies, each called once, so that the sale's stays inlined.
    pub(crate) fn finish_selling<const AFTER_ACT: bool>(&mut self, seat: usize, sold: i32) -> Result<(), GameError> {
        let all = [Hook::Sold, Hook::OtherSold, Hook::AnySold];
        if !self.anyone_listens(all) {
            self.turn_goods.clear();
            self.discard.append(&mut self.limbo);
            return Ok(());
        }
        let event = self.event_for(all, |g| {
            let mut event = EventFacts::new("sold", seat);
            (event.goods, event.prices) = g.turn_goods.iter().copied().unzip();
            event
        });
        self.turn_goods.clear();
        let before = std::mem::replace(&mut self.event_now, event.clone());
        let own = self.own_sold(seat, sold);
        self.event_now = before;
        own?;
        if !self.anyone_listens([Hook::OtherSold, Hook::AnySold]) {
            return Ok(());
        }
        let hooks = [None, Some(Hook::OtherSold), Some(Hook::AnySold)];
        self.told_event_hooks(hooks, seat, None, |c| c.sold = sold, event)
    }

    #[inline(always)]
    fn own_sold(&mut self, seat: usize, sold: i32) -> Result<(), GameError> {
        for slot in self.listeners(Hook::Sold, seat) {
            let mut ctx = self.ctx(seat, slot);
            ctx.sold = sold;
            let card = ctx.card as usize;
            let v = self.call(Hook::Sold, ctx)?;
            let legacy = v.read_lock::<rhai::Map>().is_some_and(|m| m.contains_key("tuck_sold"));
            if v.is_array() || (v.is_map() && !legacy) {
                self.take_effects(Hook::Sold, v, Origin { seat, slot, target: None }, false)?;
                continue;
            }
            let bad = |e: String| self.rs.scripts.bad_return(Hook::Sold as usize, card, &e);
            let (draw, tuck) = if v.is_int() || v.is_unit() {
                (hooks::as_int_in(v, hooks::HOOKS[Hook::Sold as usize].range).map_err(bad)?, 0)
            } else {
                let map = hooks::as_map(v, &["draw", "tuck_sold"]).map_err(bad)?;
                (hooks::map_int(&map, "draw").map_err(bad)?, hooks::map_int(&map, "tuck_sold").map_err(bad)?)
            };
            let mut tucked = 0;
            for _ in 0..tuck {
                if let Some(c) = self.limbo.pop() {
                    let s = &mut self.players[seat].city[slot];
                    s.under.push(c);
                    s.under_from = Some(s.card);
                    tucked += 1;
                }
            }
            let owner = self.players[seat].city[slot].card;
            if tucked > 0 {
                self.event_from(seat, owner, |g| {
                    format!("seat {seat}: {} takes {} sold under it", g.name_of(owner), count(tucked, "good"))
                });
                self.publish(TUCKED, |_| EventFacts {
                    n: tucked,
                    building: Some(owner),
                    why: "sold",
                    by: Some(owner),
                    ..EventFacts::new("tucked", seat)
                });
            }
            if draw > 0 {
                self.draw_from(seat, draw, Some(owner));
            }
        }
        self.discard.append(&mut self.limbo);
        Ok(())
    }

    // ----- councillor ----------------------------------------------------------

    fn councillor_turn(&mut self, seat: usize) -> Result<(), GameError> {
        let rules = &self.rs.rules;
        let mut draw = rules.council_draw + self.privilege(seat, rules.council_privilege);
        let mut keep = rules.council_keep;
        let mut from_hand = false;
        for slot in self.listeners(Hook::Council, seat) {
            let ctx = self.ctx(seat, slot);
            let card = ctx.card as usize;
            let (more_draw, more_keep, to_hand) =
                self.call_map(Hook::Council, ctx, &["draw", "keep", "from_hand"], |map| {
                    Ok((hooks::map_int(map, "draw")?, hooks::map_int(map, "keep")?, hooks::map_bool(map, "from_hand")?))
                })?;
            draw = draw.saturating_add(more_draw);
            keep = keep.saturating_add(more_keep);
            from_hand |= to_hand;
            if self.logging() && (more_draw != 0 || more_keep != 0 || to_hand) {
                let mut what = Vec::new();
                if more_draw != 0 {
                    what.push(format!("draw {} more", count(more_draw, "card")));
                }
                if more_keep != 0 {
                    what.push(format!("keep {} more", count(more_keep, "card")));
                }
                if to_hand {
                    what.push("take the drawn cards into the hand and discard from the whole hand".to_owned());
                }
                let b = card as CardIdx;
                self.event_from(seat, b, |g| format!("seat {seat}: {} lets it {}", g.name_of(b), what.join(", ")));
            }
        }
        let drawn = self.draw_to_limbo(draw);
        // The councillor's cards are for its eyes only: the others learn how many.
        self.secret_event(seat, None, |g| {
            let public = format!("seat {seat} draws {} to choose from", n_cards(drawn));
            (format!("{public}: {}", g.ids(&g.limbo)), public)
        });
        let keep = keep.max(0) as usize;
        let told = |n: usize| EventFacts { n: n as i32, why: "councillor", ..EventFacts::new("drew", seat) };
        if from_hand {
            self.players[seat].gained += self.limbo.len() as u32;
            self.players[seat].hand.append(&mut self.limbo);
            if drawn > 0 {
                self.publish(DREW, |_| told(drawn as usize));
            }
            let left = (drawn as usize).saturating_sub(keep);
            if left > 0 {
                self.pending = Some(Decision::Discard { seat, left, reason: DiscardReason::Council });
            }
        } else if keep >= self.limbo.len() {
            self.secret_event(seat, None, |g| {
                let public = format!("seat {seat} keeps {}", n_cards(g.limbo.len() as i64));
                (format!("seat {seat} keeps {}", g.ids(&g.limbo)), public)
            });
            let n = self.limbo.len();
            self.players[seat].gained += self.limbo.len() as u32;
            self.players[seat].hand.append(&mut self.limbo);
            if n > 0 {
                self.publish(DREW, |_| told(n));
            }
        } else if keep == 0 {
            self.event(Some(seat), |_| format!("seat {seat} keeps none of the drawn cards"));
            let n = self.limbo.len() as i32;
            self.discard.append(&mut self.limbo);
            if n > 0 {
                self.publish(DISCARDED, |_| EventFacts { n, why: "councillor", ..EventFacts::new("discarded", seat) });
            }
        } else {
            self.pending = Some(Decision::Keep { seat, left: keep, may_stop: false, by: None });
        }
        Ok(())
    }

    // ----- prospector ------------------------------------------------------------

    pub(crate) fn reveal(&mut self, seat: usize, slot: usize) -> Result<(), GameError> {
        let n = self.call_int(Hook::Prospect, self.ctx(seat, slot))?;
        self.draw_to_limbo(n);
        if self.limbo.is_empty() {
            return Ok(());
        }
        // Revealed cards lie face up: everyone sees them.
        let revealer = self.players[seat].city[slot].card;
        self.event_from(seat, revealer, |g| {
            format!(
                "seat {seat}: {} reveals {}: {}",
                g.name_of(revealer),
                n_cards(g.limbo.len() as i64),
                g.ids(&g.limbo)
            )
        });
        let ctx = self.script_ctx(Hook::Reveal, self.ctx(seat, slot), Some(Arc::new(self.limbo.clone())));
        let card = ctx.card as usize;
        let v = self.rs.scripts.call(Hook::Reveal as usize, card, Dynamic::from(ctx))?.unwrap_or(Dynamic::UNIT);
        let kept = hooks::as_cards(&v, &self.rs.cards)
            .map_err(|e| self.rs.scripts.bad_return(Hook::Reveal as usize, card, &e))?;
        let keepable: Vec<CardIdx> = self.limbo.iter().copied().filter(|c| kept.contains(c)).collect();
        if keepable.is_empty() {
            self.event_from(seat, revealer, |g| {
                format!("seat {seat}: {} lets it keep none of them; all are discarded", g.name_of(revealer))
            });
            self.discard.append(&mut self.limbo);
        } else {
            self.pending = Some(Decision::Reveal { seat, slot, keepable });
        }
        Ok(())
    }
}

/// What a seat's buildings let it do in a builder turn.
#[derive(Clone, Debug, Default)]
pub(crate) struct BuildAbilities {
    /// The first slot whose building lets its owner build over another (a crane).
    pub overbuild: Option<usize>,
    /// Buildings that may not be built over (the crane itself).
    pub except: smallvec::SmallVec<[CardIdx; 4]>,
    /// Goods that may pay, per granting slot: a covered building grants nothing.
    pub goods_grants: smallvec::SmallVec<[(usize, i32); 4]>,
    /// Other seats whose goods may pay, per granting slot (a bit per seat).
    pub goods_of: smallvec::SmallVec<[(usize, u16); 2]>,
}

/// Adds a builder's option unless it repeats the one just before (a card in
/// hand and on the public display alike, met one after the other): the first,
/// from the hand, is the one an action builds.
#[inline]
fn push_option(options: &mut Vec<BuildOption>, option: BuildOption) {
    if options.last().is_none_or(|last| (last.card, last.over) != (option.card, option.over)) {
        options.push(option);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::bots::{Bot, RandomBot};
    use crate::game::Decision;
    use crate::{Game, Ruleset};

    /// A house ruleset whose cards change prices every way a script can: by
    /// the card built (a table entry), by the hand (a script call), by what is
    /// covered (the crane's way, and through a helper the host cannot read),
    /// the covered building's own discount, another player's toll, and a second
    /// building that lets its owner build over.
    fn pricing_house() -> (tempfile::TempDir, Arc<Ruleset>) {
        let cards = [
            ("surveyor", "fn on_build_cost(ctx) { if ctx.target.cost >= 3 { 1 } else { 0 } }"),
            ("broker", "fn on_build_cost(ctx) { if ctx.hand > 4 { 1 } else { 0 } }"),
            ("salvager", "fn on_build_cost(ctx) { if ctx.over == () { 0 } else { ctx.over.vp } }"),
            ("riddler", "fn on_build_cost(ctx) { riddle(ctx) }\nfn riddle(c) { if c.over == () { 0 } else { 1 } }"),
            ("keepsake", "fn on_covered_cost(ctx) { 1 }"),
            ("tollhouse", "fn on_other_build_cost(ctx) { if ctx.over == () { 0 } else { -1 } }"),
            ("hoist", "fn on_build_options(ctx) { #{ overbuild: true } }"),
        ];
        let keys = "kind = \"production\"\ngood = \"indigo\"\ncost = 1\nvp = 1\ncopies = 4";
        let cards: Vec<(&str, &str, String)> =
            cards.iter().map(|(id, script)| (*id, keys, script.to_string())).collect();
        crate::house::house("second-edition", &cards)
    }

    #[test]
    fn every_covering_price_a_builder_is_offered_is_the_cards_price() {
        // The builder turn prices coverings in fewer steps than `build_cost`
        // (discounts that ignore what is covered counted once per card); each
        // offered price must still be exactly what `build_cost` says.
        let (_dir, rs) = pricing_house();
        let id = |c| rs.cards.id(c).to_string();
        let (mut covering, mut lost_listener, mut bound_listener) = (0, 0, 0);
        for seed in 0..40 {
            let mut game = Game::new(Arc::clone(&rs), 4, seed).unwrap();
            let mut bots: Vec<RandomBot> = (0..4).map(|s| RandomBot::new(seed * 5 + s)).collect();
            while let Some(d) = game.pending() {
                if let Decision::Build { seat, options } = d {
                    let city: Vec<String> = game.players[*seat].city.iter().map(|s| id(s.card)).collect();
                    for o in options {
                        let price = game.build_cost(*seat, o.card, o.over).unwrap();
                        assert_eq!(o.cost, price, "seat {seat} builds {} over {:?} in {city:?}", id(o.card), o.over);
                        if let Some(slot) = o.over {
                            covering += 1;
                            lost_listener += usize::from(["surveyor", "broker"].contains(&city[slot].as_str()));
                            bound_listener += usize::from(
                                city.iter().any(|c| ["salvager", "riddler", "crane"].contains(&c.as_str())),
                            );
                        }
                    }
                }
                let seat = d.seat();
                let action = bots[seat].choose(&game, game.legal_actions());
                game.apply(action).unwrap();
            }
        }
        // The cases the shortcut treats apart were all met.
        assert!(
            covering > 2000 && lost_listener > 100 && bound_listener > 1000,
            "{covering} {lost_listener} {bound_listener}"
        );
    }
}
