//! Hook dispatch: which buildings listen to a hook, the context a script
//! receives, and calling a hook on one seat, the actor and the others.

use engine_script::{HookMask, ListKeyBuf, has_hook, hook_bit};
use std::sync::Arc;

use smallvec::SmallVec;

use rhai::{Dynamic, Map};

use super::effects::Origin;
use super::{Game, Slot};
use crate::cards::CardIdx;
use crate::error::GameError;
use crate::hooks::{self, Ctx, EventFacts, Hook, ScriptCtx, SeatFacts, SlotFacts, TableFacts, Tag};

/// [`hooks::LISTED`]'s bits, in its order: what each member reads of the cities.
const OWN_CITY: u64 = 1;
const OTHER_CITIES: u64 = 2;
const ANY_CITY: u64 = 4;
const CITY_SIZES: u64 = 8;

/// The slots of one city that listen to a hook, in hook order. A slot is
/// kept in 16 bits (a city ends the game at 100 buildings at most), so that
/// the list is small to return and to walk: most asks are answered with an
/// empty one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Listeners(SmallVec<[u16; 12]>);

impl Listeners {
    fn new() -> Self {
        Listeners(SmallVec::new())
    }

    fn push(&mut self, slot: usize) {
        debug_assert!(slot <= usize::from(u16::MAX), "a city of {slot} buildings");
        self.0.push(slot as u16);
    }

    /// True when no slot listens.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The listening slots, in hook order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().map(|&s| usize::from(s))
    }
}

impl IntoIterator for Listeners {
    type Item = usize;
    type IntoIter = ListenersIter;

    fn into_iter(self) -> ListenersIter {
        ListenersIter(self.0.into_iter())
    }
}

/// The slots of a [`Listeners`], by value.
pub(crate) struct ListenersIter(smallvec::IntoIter<[u16; 12]>);

impl Iterator for ListenersIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        self.0.next().map(usize::from)
    }
}

/// A slot number past any city's: the effects of a script that is no
/// building's (the rules script) run at `SCRIPT_SLOT + its script owner`.
pub(crate) const SCRIPT_SLOT: usize = 1 << 20;

/// The slot number of script owner `owner`'s effects (see [`SCRIPT_SLOT`]).
pub(crate) fn script_slot(owner: CardIdx) -> usize {
    SCRIPT_SLOT + usize::from(owner)
}

/// How many events deep a chain may go (an effect that raises an event whose
/// hook raises another…) before the game stops with an event-loop error: far
/// more than any sensible card needs, few enough to stop at once.
pub const MAX_EVENT_DEPTH: u8 = 12;

/// Where the work running now comes from: how many events deep, and the
/// building whose hook or effect runs (named if the chain turns into a loop).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Chain {
    pub depth: u8,
    pub cause: Option<(Hook, CardIdx)>,
}

/// An event waiting for its listeners, with the chain that raised it.
#[derive(Clone, Debug)]
pub(crate) struct Heard {
    pub facts: EventFacts,
    pub chain: Chain,
}

/// A bit per hook of an event's scopes.
const fn bits(hooks: [Hook; 3]) -> HookMask {
    hook_bit(hooks[0] as usize) | hook_bit(hooks[1] as usize) | hook_bit(hooks[2] as usize)
}

/// The hooks of the events that are queued ([`Game::publish`]), own, other, any.
pub(crate) const DREW: [Hook; 3] = [Hook::Drew, Hook::OtherDrew, Hook::AnyDrew];
/// See [`DREW`].
pub(crate) const DISCARDED: [Hook; 3] = [Hook::Discarded, Hook::OtherDiscarded, Hook::AnyDiscarded];
/// See [`DREW`].
pub(crate) const TUCKED: [Hook; 3] = [Hook::Tucked, Hook::OtherTucked, Hook::AnyTucked];
/// See [`DREW`].
pub(crate) const GOOD_PLACED: [Hook; 3] = [Hook::GoodPlaced, Hook::OtherGoodPlaced, Hook::AnyGoodPlaced];
/// See [`DREW`].
pub(crate) const GOOD_REMOVED: [Hook; 3] = [Hook::GoodRemoved, Hook::OtherGoodRemoved, Hook::AnyGoodRemoved];
/// See [`DREW`].
pub(crate) const COUNTER_CHANGED: [Hook; 3] =
    [Hook::CounterChanged, Hook::OtherCounterChanged, Hook::AnyCounterChanged];

impl Game {
    /// Call after any change to a city: which hooks each seat's buildings listen to.
    pub(crate) fn refresh_hook_masks(&mut self) {
        // In place: the balance bot refreshes a copy's masks for every building it prices.
        let mut masks = std::mem::take(&mut self.hook_mask);
        masks.clear();
        masks.extend(self.players.iter().map(|p| self.city_mask(&p.city)));
        self.hook_mask = masks;
        self.hook_union = self.hook_mask.iter().fold(0, |m, s| m | s);
    }

    /// [`Game::refresh_hook_masks`] after a change to `seat`'s city alone: the
    /// other seats' masks stand (a quarter of the work with four players, at
    /// every building built and every city a bot prices).
    #[inline]
    pub(crate) fn refresh_seat_mask(&mut self, seat: usize) {
        if self.hook_mask.len() != self.players.len() {
            return self.refresh_hook_masks();
        }
        self.hook_mask[seat] = self.city_mask(&self.players[seat].city);
        self.hook_union = self.hook_mask.iter().fold(0, |m, s| m | s);
    }

    /// The hooks the buildings of `city` listen to (a city that might be).
    /// Every seat hears the rules script's hooks, as if it owned a building with that script.
    pub(crate) fn city_mask(&self, city: &[Slot]) -> HookMask {
        let masks = &self.rs.hook_masks;
        city.iter().fold(self.rs.rules_mask, |m, s| m | masks[s.card as usize])
    }

    /// A context for `seat`'s building in `slot`.
    pub(crate) fn ctx(&self, seat: usize, slot: usize) -> Ctx {
        self.ctx_in(seat, &self.players[seat].city, slot)
    }

    /// [`Game::ctx`] as if `seat`'s city were `city` (a bot's "what if").
    pub(crate) fn ctx_in(&self, seat: usize, city: &[Slot], slot: usize) -> Ctx {
        let s = &city[slot];
        Ctx { uses: s.uses as i32, under: s.under.len() as i32, counter: s.counter, ..self.ctx_of(seat, city, s.card) }
    }

    /// A context for `card`, which is not (yet) in `seat`'s city: the building
    /// being built, asked the rules of its own payment.
    pub(crate) fn ctx_of_card(&self, seat: usize, card: CardIdx) -> Ctx {
        self.ctx_of(seat, &self.players[seat].city, card)
    }

    /// A context for `card` as `seat`'s, with `city` its city: not a slot's own
    /// (no uses, cards under it or counter).
    pub(crate) fn ctx_of(&self, seat: usize, city: &[Slot], card: CardIdx) -> Ctx {
        let p = &self.players[seat];
        Ctx {
            card,
            seat,
            players: self.players.len(),
            round: self.round,
            role: self.phase.map_or("", |ph| ph.role.name()),
            privileged: self.phase.is_some_and(|ph| ph.chooser == seat),
            hand: p.hand.len() as i32,
            goods: super::goods_on(city) as i32,
            target: None,
            over: None,
            produced: 0,
            sold: 0,
            total_sold: self.phase_sold,
            uses: 0,
            under: 0,
            subtotal: 0,
            actor: seat,
            counter: 0,
            paying: None,
            covered_by: None,
            target_from: None,
        }
    }

    /// The active slots of `seat` that listen to `hook`, in hook order.
    #[inline]
    pub(crate) fn listeners(&self, hook: Hook, seat: usize) -> Listeners {
        // Most asks find nobody (a bit per hook says so): that answer is inlined
        // at the call, the scan is not.
        if !has_hook(self.hook_mask[seat], hook as usize) {
            return Listeners::new();
        }
        self.active_listeners(hook, seat)
    }

    #[inline(never)]
    fn active_listeners(&self, hook: Hook, seat: usize) -> Listeners {
        self.listeners_where(hook, seat, |s| s.active)
    }

    pub(crate) fn listeners_where(&self, hook: Hook, seat: usize, keep: impl Fn(&Slot) -> bool) -> Listeners {
        self.listeners_in(hook, self.hook_mask[seat], &self.players[seat].city, keep)
    }

    /// The slots of `city` (whose cards' hooks are `mask`) that listen to `hook`, in hook order.
    pub(crate) fn listeners_in(
        &self,
        hook: Hook,
        mask: HookMask,
        city: &[Slot],
        keep: impl Fn(&Slot) -> bool,
    ) -> Listeners {
        if !has_hook(mask, hook as usize) {
            return Listeners::new();
        }
        // A card's hook bits, not the script table: one lookup per slot (asked some 600 times a game).
        let masks = &self.rs.hook_masks;
        let mut out = Listeners::new();
        for (i, s) in city.iter().enumerate() {
            if has_hook(masks[s.card as usize], hook as usize) && keep(s) {
                out.push(i);
            }
        }
        if out.0.len() > 1 {
            let cards = &self.rs.cards;
            out.0.sort_by_key(|&i| (cards.get(city[usize::from(i)].card).order, i));
        }
        out
    }

    /// Calls a hook with a prepared context.
    pub(crate) fn call(&self, hook: Hook, ctx: Ctx) -> Result<Dynamic, GameError> {
        let card = ctx.card as usize;
        if let Some(plan) = self.rs.read_plans.get(hook as usize, card) {
            return self.call_planned(hook, ctx, plan);
        }
        let wrap = |facts| Dynamic::from(self.script_ctx(hook, facts, None));
        let scalar = |c: &Ctx, i: usize| match i.checked_sub(hooks::SCALARS.len()) {
            None => Some(c.scalar(i)),
            Some(k) => self.keyed_member(c.seat, k),
        };
        let seat = ctx.seat;
        let list = |reads, out: &mut ListKeyBuf| self.city_lists(seat, None, reads, out);
        let value = self.rs.scripts.call_listed(hook as usize, card, ctx, scalar, list, wrap)?;
        Ok(value.unwrap_or(Dynamic::UNIT))
    }

    /// [`Game::call`] of a hook that reads the table (or more than plain
    /// values and cities): answered from memory when it has read the same before.
    #[inline(never)]
    fn call_planned(&self, hook: Hook, ctx: Ctx, plan: &crate::reads::ReadPlan) -> Result<Dynamic, GameError> {
        let (scripts, card) = (&self.rs.scripts, ctx.card as usize);
        // Written only while the hook's rows pay (the host asks).
        let row = || self.read_row(plan, &ctx, None);
        let value = scripts.call_read(hook as usize, card, row, || Dynamic::from(self.script_ctx(hook, ctx, None)))?;
        Ok(value.unwrap_or(Dynamic::UNIT))
    }

    /// Calls a hook that answers with a map of the keys in `allowed`, read by
    /// `read`. A literal answer is read where the ruleset keeps it: copying
    /// it at every call (a councillor's prefecture, a chapel's offer) was 2%
    /// of a random game.
    pub(crate) fn call_map<R>(
        &self,
        hook: Hook,
        ctx: Ctx,
        allowed: &[&str],
        read: impl FnOnce(&Map) -> Result<R, String>,
    ) -> Result<R, GameError> {
        let (scripts, card) = (&self.rs.scripts, ctx.card as usize);
        let bad = |e: String| GameError::from(scripts.bad_return(hook as usize, card, &e));
        if scripts.listens(hook as usize, card)
            && let Some(literal) = scripts.constant(hook as usize, card)
        {
            return hooks::with_map(literal, allowed, read).map_err(bad);
        }
        let map = hooks::as_map(self.call(hook, ctx)?, allowed).map_err(bad)?;
        read(&map).map_err(bad)
    }

    /// What the [`hooks::LISTED`] members in `reads` (a bit each) read of the
    /// cities, for the script host's key, a section per member: `buildings`
    /// the owner's city, `others` the other cities from the owner's left,
    /// `built_by_anyone` the buildings in play (in order, once each),
    /// `building_counts` the number of players and each city's size from the
    /// owner's; a card is its index plus one, and a list ends with a 0. The
    /// owner's city is `own` if given (a city that might be).
    pub(crate) fn city_lists(&self, seat: usize, own: Option<&[Slot]>, reads: u64, out: &mut ListKeyBuf) {
        let n = self.players.len();
        let city = |k: usize| match own {
            Some(city) if k == 0 => city,
            _ => &self.players[(seat + k) % n].city,
        };
        let cards = |k: usize| city(k).iter().map(|slot| slot.card.saturating_add(1));
        if reads & OWN_CITY != 0 {
            out.extend(cards(0));
            out.push(0);
        }
        if reads & OTHER_CITIES != 0 {
            for k in 1..n {
                out.extend(cards(k));
                out.push(0);
            }
        }
        if reads & ANY_CITY != 0 {
            let mut all: ListKeyBuf = (0..n).flat_map(cards).collect();
            all.sort_unstable();
            all.dedup();
            out.extend(all);
            out.push(0);
        }
        if reads & CITY_SIZES != 0 {
            out.push(n as u16);
            out.extend((0..n).map(|k| city(k).len() as u16));
        }
    }

    /// The exact key of [`hooks::KEYED`]`[k]` for `seat`'s city, when it fits
    /// one number: what `count_kind` and `count_types` answer for every kind
    /// (kinds' counts packed), or the tagged buildings `count_tag` counts (at
    /// most three, by card). `None`: too many to pack, so the hook is called.
    pub(crate) fn keyed_member(&self, seat: usize, k: usize) -> Option<i32> {
        self.keyed_member_in(&self.players[seat].city, k)
    }

    /// [`Game::keyed_member`] for a city given.
    pub(crate) fn keyed_member_in(&self, city: &[Slot], k: usize) -> Option<i32> {
        let cards = &self.rs.cards;
        match k {
            0 | 2 => {
                // Types (`count_types`, k = 2) count each card once; buildings (k = 0) every slot.
                let mut seen = engine_play::seen::Seen::default();
                let (mut production, mut other) = (0u32, 0u32);
                for s in city {
                    if k == 2 && !seen.insert(usize::from(s.card)) {
                        continue;
                    }
                    match cards.get(s.card).kind {
                        crate::cards::Kind::Production => production += 1,
                        crate::cards::Kind::City => other += 1,
                    }
                }
                (production < 1 << 15 && other < 1 << 15).then_some((production << 15 | other) as i32)
            }
            1 => {
                let mut tagged: SmallVec<[CardIdx; 4]> =
                    city.iter().map(|s| s.card).filter(|&c| !cards.get(c).tags.is_empty()).collect();
                if tagged.len() > 3 || tagged.iter().any(|&c| c >= 1023) {
                    return None;
                }
                tagged.sort_unstable();
                Some(tagged.iter().fold(0u32, |key, &c| key << 10 | (u32::from(c) + 1)) as i32)
            }
            _ => None,
        }
    }

    /// The `ctx` `hook`'s script receives, with the lists it may walk; the whole
    /// table only when the script may read it.
    pub(crate) fn script_ctx(&self, hook: Hook, facts: Ctx, revealed: Option<Arc<Vec<CardIdx>>>) -> ScriptCtx {
        let scripts = &self.rs.scripts;
        let reads = |member: usize| scripts.may_read(hook as usize, facts.card as usize, member);
        let buildings = hooks::CITY_MEMBERS
            .into_iter()
            .any(reads)
            .then(|| Arc::new(self.players.iter().map(|p| p.city.iter().map(|s| s.card).collect()).collect()));
        let hand_sizes =
            reads(hooks::CTX_HAND_SIZES).then(|| Arc::new(self.players.iter().map(|p| p.hand.len() as i32).collect()));
        // With remembering off every hook is given the whole table: what the
        // test of remembered answers compares with.
        let parts = match self.rs.read_plans.get(hook as usize, facts.card as usize) {
            Some(plan) if scripts.remembers_reads() => plan.parts(facts.seat),
            _ => hooks::TableParts::ALL,
        };
        let view = (reads(hooks::CTX_TABLE) || reads(hooks::CTX_HAND_CARDS))
            .then(|| Arc::new(self.table_facts(facts.seat, parts)));
        ScriptCtx {
            facts,
            table: Arc::clone(&self.rs.cards),
            buildings,
            hand_sizes,
            counters: Arc::clone(&self.players[facts.seat].counters),
            roles_chosen: self.players[facts.seat].roles_chosen,
            view,
            revealed,
            choice: None,
            tag: Tag::None,
            event: self.event_now.clone(),
            act: None,
            parts,
        }
    }

    /// The public table as `owner`'s building sees it (its own hand
    /// included), its seats as far as `parts` makes them.
    fn table_facts(&self, owner: usize, parts: hooks::TableParts) -> TableFacts {
        let slot = |s: &Slot| SlotFacts {
            card: s.card,
            good: s.good.is_some(),
            under: s.under.len() as i32,
            counter: s.counter,
            built: s.built_round,
            covered: s.covered_cards().collect(),
            working: s.active,
        };
        let seats = self
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| match parts.has_seat(seat) {
                false => SeatFacts::default(),
                true => SeatFacts {
                    hand: p.hand.len() as i32,
                    reserve: p.reserve.clone(),
                    city: p.city.iter().map(slot).collect(),
                    counters: Arc::clone(&p.counters),
                    roles_chosen: p.roles_chosen,
                },
            })
            .collect();
        TableFacts {
            seats,
            own_hand: self.players[owner].hand.clone(),
            deck: self.deck.len() as i32,
            discard: self.discard.len() as i32,
            governor: self.governor,
            chosen_by: self.chosen_by.map(|s| (s != super::NOBODY).then_some(usize::from(s))),
            earlier_rounds: Arc::clone(&self.earlier_rounds),
            chooser: self.phase.map(|ph| ph.chooser),
            rules: Arc::clone(&self.rs.rules_map),
            tile: self.trading_tile().map(|tile| {
                let goods = &self.rs.rules.goods;
                goods.iter().zip(tile).map(|(g, &p)| (g.as_str().into(), Dynamic::from_int(p))).collect()
            }),
        }
    }

    /// Calls a hook that returns an integer.
    pub(crate) fn call_int(&self, hook: Hook, ctx: Ctx) -> Result<i32, GameError> {
        let card = ctx.card;
        // A literal answer (a tower's hand limit, a library's factor) is read
        // where the ruleset keeps it, without a copy of the value to drop.
        if let Some(v) = self.rs.scripts.constant(hook as usize, card as usize) {
            return self.int_in_range(hook, card, engine_script::results::int_at(v));
        }
        let v = self.call(hook, ctx)?;
        self.int_of(hook, card, v)
    }

    /// What [`Game::call_int`] answers from remembered answers alone, as if
    /// the owner's city were `city`: `None` when the script would have to run.
    /// `keyed(k)` is [`Game::keyed_member_in`] of that city.
    pub(crate) fn remembered_int(
        &self,
        hook: Hook,
        ctx: Ctx,
        keyed: impl Fn(usize) -> Option<i32>,
        city: &[Slot],
    ) -> Option<Result<i32, GameError>> {
        let scripts = &self.rs.scripts;
        if let Some(plan) = self.rs.read_plans.get(hook as usize, ctx.card as usize) {
            let row = self.read_row(plan, &ctx, Some(city))?;
            let v = scripts.recall_read(hook as usize, ctx.card as usize, row)?;
            return Some(self.int_of(hook, ctx.card, v));
        }
        let scalar = |i: usize| match i.checked_sub(hooks::SCALARS.len()) {
            None => Some(ctx.scalar(i)),
            Some(k) => keyed(k),
        };
        let list = |reads, out: &mut ListKeyBuf| self.city_lists(ctx.seat, Some(city), reads, out);
        let v = scripts.remembered_listed(hook as usize, ctx.card as usize, scalar, list)?;
        Some(self.int_of(hook, ctx.card, v.unwrap_or(Dynamic::UNIT)))
    }

    /// A hook's answer as an integer in its range, or the error at the card's hook.
    fn int_of(&self, hook: Hook, card: CardIdx, v: Dynamic) -> Result<i32, GameError> {
        self.int_in_range(hook, card, hooks::as_int(v))
    }

    /// An integer answer checked against the hook's range, or the error at the card's hook.
    #[inline]
    fn int_in_range(&self, hook: Hook, card: CardIdx, n: Result<i32, String>) -> Result<i32, GameError> {
        n.and_then(|n| engine_script::results::int_in(n, hooks::HOOKS[hook as usize].range))
            .map_err(|e| self.rs.scripts.bad_return(hook as usize, card as usize, &e).into())
    }

    /// Sum of an integer hook over `seat`'s listening buildings; each building
    /// that adds something is logged as `say(its id, what it adds)`.
    pub(crate) fn sum_hook(&mut self, hook: Hook, seat: usize, say: fn(&str, i32) -> String) -> Result<i32, GameError> {
        let mut total = 0;
        for slot in self.listeners(hook, seat) {
            let n = self.call_int(hook, self.ctx(seat, slot))?;
            if n != 0 {
                let card = self.players[seat].city[slot].card;
                self.event_from(seat, card, |g| format!("seat {seat}: {}", say(&g.name_of(card), n)));
            }
            total = n.saturating_add(total);
        }
        Ok(total)
    }

    /// The first of `seat`'s buildings whose `hook` returns `value`: which one
    /// gave a privilege factor or a hand limit, for the log.
    pub(crate) fn hook_source(&self, hook: Hook, seat: usize, value: i32) -> Option<CardIdx> {
        let slot = self
            .listeners(hook, seat)
            .into_iter()
            .find(|&slot| self.call_int(hook, self.ctx(seat, slot)).is_ok_and(|v| v == value))?;
        Some(self.players[seat].city[slot].card)
    }

    /// Runs a hook that draws cards or returns effects for each listening
    /// building of `seat`, one after another; `target` is the building just built.
    pub(crate) fn draw_hooks(
        &mut self,
        hook: Hook,
        seat: usize,
        target: Option<(usize, usize)>,
        edit: impl Fn(&mut Ctx),
    ) -> Result<(), GameError> {
        self.draw_hooks_heard(hook, seat, target, edit, true)
    }

    /// [`Game::draw_hooks`]; the rules script hears it too (after the
    /// buildings) when `rules` (a moment of the table: only as the first seat).
    fn draw_hooks_heard(
        &mut self,
        hook: Hook,
        seat: usize,
        target: Option<(usize, usize)>,
        edit: impl Fn(&mut Ctx),
        rules: bool,
    ) -> Result<(), GameError> {
        for slot in self.listeners(hook, seat) {
            let mut ctx = self.ctx(seat, slot);
            edit(&mut ctx);
            self.effect_hook(hook, ctx, Origin { seat, slot, target })?;
        }
        if rules && has_hook(self.rs.rules_mask, hook as usize) {
            self.rules_hook(hook, seat, target, &edit)?;
        }
        Ok(())
    }

    /// The rules script's `hook` for `seat` (`ctx.seat`; `ctx.card` is `()`).
    #[inline(never)]
    fn rules_hook(
        &mut self,
        hook: Hook,
        seat: usize,
        target: Option<(usize, usize)>,
        edit: &impl Fn(&mut Ctx),
    ) -> Result<(), GameError> {
        let owner = self.rs.rules_owner();
        let mut ctx = self.ctx_of(seat, &self.players[seat].city, owner);
        edit(&mut ctx);
        self.effect_hook(hook, ctx, Origin { seat, slot: script_slot(owner), target })
    }

    /// The building (or the script owner, past the cards: the rules script)
    /// whose hook or effect runs at `seat`'s `slot`.
    pub(crate) fn slot_card(&self, seat: usize, slot: usize) -> CardIdx {
        match slot.checked_sub(SCRIPT_SLOT) {
            Some(owner) => owner as CardIdx,
            None => self.players[seat].city[slot].card,
        }
    }

    /// An event seen by the actor's buildings (`own`, then `any`) and every
    /// other player's from the actor's left (`other`, then `any`), with
    /// `ctx.actor` the actor's seat and `ctx.event` what `event` says happened
    /// (worked out only when some building listens and reads it).
    pub(crate) fn event_hooks(
        &mut self,
        hooks: [Option<Hook>; 3],
        actor: usize,
        target: Option<(usize, usize)>,
        edit: impl Fn(&mut Ctx),
        event: impl FnOnce(&mut Game) -> EventFacts,
    ) -> Result<(), GameError> {
        let listened = hooks.into_iter().flatten();
        if !self.anyone_listens(listened.clone()) {
            return Ok(());
        }
        let facts = self.event_for(listened, event);
        self.told_event_hooks(hooks, actor, target, edit, facts)
    }

    /// Tells the listeners of an event that happened (`hooks`: its own, other and
    /// any scopes) once the action or step running now is done, in the order
    /// events happened. Nobody listening costs one test: the event is not made.
    #[inline]
    pub(crate) fn publish(&mut self, hooks: [Hook; 3], facts: impl FnOnce(&Game) -> EventFacts) {
        if self.hook_union & bits(hooks) != 0 {
            let facts = facts(self);
            self.heard.push_back(Heard { facts, chain: self.chain });
        }
    }

    /// Calls the listeners of a queued event, one level deeper in its chain; a
    /// chain too deep is an event loop, and the hook that raised it is named.
    pub(crate) fn hear(&mut self, h: Heard) -> Result<(), GameError> {
        let Heard { facts, chain } = h;
        if chain.depth >= MAX_EVENT_DEPTH {
            let what = format!(
                "event loop: this hook raised a `{}` event {MAX_EVENT_DEPTH} events deep (an effect that causes \
                 the event that calls it, again and again); give it a condition that stops it (a counter, \
                 ctx.event.why, ctx.event.by)",
                facts.name
            );
            return Err(match chain.cause {
                Some((hook, card)) => self.rs.scripts.bad_return(hook as usize, card as usize, &what).into(),
                None => GameError::Broken(what),
            });
        }
        self.chain = Chain { depth: chain.depth + 1, cause: chain.cause };
        let hooks = hooks::event_spec(facts.name).hooks;
        let actor = facts.actor;
        let told = self.event_for(hooks.into_iter().flatten(), |_| facts);
        self.told_event_hooks(hooks, actor, None, |_| {}, told)
    }

    /// True when some building in play listens to one of `hooks`.
    pub(crate) fn anyone_listens(&self, hooks: impl IntoIterator<Item = Hook>) -> bool {
        let bits = hooks.into_iter().fold(0, |m, h| m | hook_bit(h as usize));
        self.hook_union & bits != 0
    }

    /// What `hooks`' listeners are told happened: only a script that reads
    /// `ctx.event` is, so the event is worked out only for one.
    pub(crate) fn event_for(
        &mut self,
        hooks: impl IntoIterator<Item = Hook>,
        event: impl FnOnce(&mut Game) -> EventFacts,
    ) -> Option<Arc<EventFacts>> {
        let told = hooks.into_iter().any(|h| self.rs.scripts.hook_may_read(h as usize, hooks::CTX_EVENT));
        told.then(|| Arc::new(event(self)))
    }

    /// [`Game::event_hooks`] with the event already worked out.
    pub(crate) fn told_event_hooks(
        &mut self,
        [own, other, any]: [Option<Hook>; 3],
        actor: usize,
        target: Option<(usize, usize)>,
        edit: impl Fn(&mut Ctx),
        facts: Option<Arc<EventFacts>>,
    ) -> Result<(), GameError> {
        let before = std::mem::replace(&mut self.event_now, facts);
        let n = self.players.len();
        // The actor comes first; when no building in play hears the event as
        // another player's (or anyone's), nobody after the actor does.
        let heard_by_others = [other, any].into_iter().flatten().any(|h| has_hook(self.hook_union, h as usize));
        let seats = if heard_by_others { n } else { 1 };
        let mut result = Ok(());
        'seats: for seat in (0..seats).map(|k| (actor + k) % n) {
            let mine = if seat == actor { own } else { other };
            for hook in [mine, any].into_iter().flatten() {
                if !has_hook(self.hook_mask[seat], hook as usize) {
                    continue;
                }
                result = self.draw_hooks(hook, seat, target, |c| {
                    edit(c);
                    c.actor = actor;
                });
                if result.is_err() {
                    break 'seats;
                }
            }
        }
        self.event_now = before;
        result
    }

    /// A table moment every owner hears, from `from` around the table, with
    /// `ctx.actor` set and `ctx.event` what `event` says (made only for a script
    /// that may read it).
    pub(crate) fn everyone_hooks(
        &mut self,
        hook: Hook,
        from: usize,
        actor: usize,
        event: impl FnOnce(&mut Game) -> EventFacts,
    ) -> Result<(), GameError> {
        if !has_hook(self.hook_union, hook as usize) {
            return Ok(());
        }
        let facts = self.event_for([hook], event);
        let before = std::mem::replace(&mut self.event_now, facts);
        let n = self.players.len();
        let mut result = Ok(());
        // The rules script hears a moment of the table once, as the first seat: it is one rule.
        for (k, seat) in (0..n).map(|k| (k, (from + k) % n)) {
            result = self.draw_hooks_heard(hook, seat, None, |c| c.actor = actor, k == 0);
            if result.is_err() {
                break;
            }
        }
        self.event_now = before;
        result
    }

    /// The sum of a modifier the other players' buildings put on `seat` (toll gate).
    pub(crate) fn others_sum(&self, hook: Hook, seat: usize, edit: impl Fn(&mut Ctx)) -> Result<i32, GameError> {
        let mut total = 0i32;
        self.others_each(hook, seat, edit, |_, v| total = total.saturating_add(v))?;
        Ok(total)
    }

    /// Calls a modifier hook on every other player's buildings about `seat`;
    /// `each` gets the building and its value.
    #[inline]
    pub(crate) fn others_each(
        &self,
        hook: Hook,
        seat: usize,
        edit: impl Fn(&mut Ctx),
        each: impl FnMut(CardIdx, i32),
    ) -> Result<(), GameError> {
        // Mostly nobody listens (a toll gate is rare): answered at the call.
        if !has_hook(self.hook_union, hook as usize) {
            return Ok(());
        }
        self.others_each_listening(hook, seat, edit, each)
    }

    #[inline(never)]
    fn others_each_listening(
        &self,
        hook: Hook,
        seat: usize,
        edit: impl Fn(&mut Ctx),
        mut each: impl FnMut(CardIdx, i32),
    ) -> Result<(), GameError> {
        let n = self.players.len();
        for other in (1..n).map(|k| (seat + k) % n) {
            for slot in self.listeners(hook, other) {
                let mut ctx = self.ctx(other, slot);
                edit(&mut ctx);
                ctx.actor = seat;
                let v = self.call_int(hook, ctx)?;
                each(self.players[other].city[slot].card, v);
            }
        }
        Ok(())
    }

    /// The privilege factor `seat` would get from its buildings (1 = none).
    pub(crate) fn privilege_factor(&self, seat: usize) -> Result<i32, GameError> {
        self.max_hook(Hook::Privilege, seat, 1)
    }

    /// The largest of `floor` and the values `seat`'s buildings return for `hook`.
    #[inline]
    pub(super) fn max_hook(&self, hook: Hook, seat: usize, floor: i32) -> Result<i32, GameError> {
        // Most seats own no such building (a library, a tower): answered at the call.
        if !has_hook(self.hook_mask[seat], hook as usize) {
            return Ok(floor);
        }
        self.max_hook_of_listeners(hook, seat, floor)
    }

    #[inline(never)]
    fn max_hook_of_listeners(&self, hook: Hook, seat: usize, floor: i32) -> Result<i32, GameError> {
        let mut best = floor;
        for slot in self.listeners(hook, seat) {
            best = best.max(self.call_int(hook, self.ctx(seat, slot))?);
        }
        Ok(best)
    }
}
